/**
 * The runner's log, written only through messages made safe: a baseline's source, a file name or
 * an input error quoted in a log line cannot start a workflow command (`::add-mask::`,
 * `::stop-commands::`, `::error …::`) nor drive the log viewer with control characters.
 * `info` writes its message raw, so its lines are neutralised; the others are commands whose data
 * @actions/core escapes, and their control characters are shown all the same.
 */
import { logText } from '../redact/safeText.js';
import type { ActionCore } from './deps.js';

export function safeCore(core: ActionCore): ActionCore {
  return {
    ...core,
    summary: core.summary,
    info: (message) => core.info(logText(message)),
    debug: (message) => core.debug(logText(message)),
    warning: (message, props) =>
      core.warning(typeof message === 'string' ? logText(message) : message, props),
    error: (message, props) => core.error(typeof message === 'string' ? logText(message) : message, props),
    notice: (message, props) => core.notice(typeof message === 'string' ? logText(message) : message, props),
    setFailed: (message) => core.setFailed(typeof message === 'string' ? logText(message) : message),
    startGroup: (name) => core.startGroup(logText(name)),
  };
}
