/**
 * A stand-in for @actions/core that records what the Action said and set: outputs, failures,
 * warnings, info lines, the job summary and the secrets it masked. Inputs come from a plain object.
 */
import type { ActionCore } from '../../src/action/deps.js';

export interface Recorded {
  outputs: Record<string, string>;
  failed: string[];
  warnings: string[];
  info: string[];
  summary: string;
  secrets: string[];
}

export function fakeCore(inputs: Record<string, string>): { core: ActionCore; rec: Recorded } {
  const rec: Recorded = { outputs: {}, failed: [], warnings: [], info: [], summary: '', secrets: [] };
  const core = {
    getInput: (name: string) => inputs[name] ?? '',
    setOutput: (name: string, value: unknown) => void (rec.outputs[name] = String(value)),
    setFailed: (m: string | Error) => void rec.failed.push(String(m)),
    setSecret: (s: string) => void rec.secrets.push(s),
    info: (m: string) => void rec.info.push(m),
    warning: (m: string | Error) => void rec.warnings.push(String(m)),
    error: (m: string | Error) => void rec.warnings.push(String(m)),
    notice: (m: string | Error) => void rec.info.push(String(m)),
    debug: () => {},
    startGroup: () => {},
    endGroup: () => {},
    summary: {
      addRaw: (t: string) => void (rec.summary += t),
      write: async () => undefined,
    },
  } as unknown as ActionCore;
  return { core, rec };
}
