/**
 * The agent a trace is keyed by when its recording names none. Baselines are kept per agent, so
 * traces of unrelated recordings must not share one: without an agent id a trace is keyed by the
 * `--agent` / `agent:` option when given, else by its file's path relative to the working
 * directory (library input given as objects: `<input>`). The caller passes the option in; this
 * layer knows nothing of config.
 */
import path from 'node:path';
import { isRecord } from './importer.js';
import type { AgentIdFrom } from './schema.js';

/** The agent key of a file: its path relative to `cwd`, with `/` separators on every platform. */
export function fileAgentKey(absolutePath: string, cwd: string): string {
  const rel = path.relative(cwd, absolutePath) || path.basename(absolutePath);
  return rel.split(path.sep).join('/');
}

/**
 * `input` with its agentId filled in when it has none (a missing or empty `agentId`), and where
 * the id came from. The input object is not changed: a shallow copy carries the filled id.
 */
export function keyAgent(
  input: unknown,
  option: string | undefined,
  fileKey: string,
): { input: unknown; from: AgentIdFrom } {
  if (!isRecord(input)) return { input, from: 'recorded' };
  if (typeof input.agentId === 'string' && input.agentId !== '') return { input, from: 'recorded' };
  // A non-string agentId is left for the schema to reject as an input error.
  if (input.agentId !== undefined && input.agentId !== '') return { input, from: 'recorded' };
  if (option) return { input: { ...input, agentId: option }, from: 'option' };
  return { input: { ...input, agentId: fileKey }, from: 'file' };
}
