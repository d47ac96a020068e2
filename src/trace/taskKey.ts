/**
 * A run's task: what `tracejury diff` pairs runs by, so that base and head are compared task by
 * task. Recordings that name their task set the trace's `taskId` themselves (a native trace's
 * `taskId`, τ-bench's `task_id`, AgentDojo's suite / user task / injection task, read by their
 * importers); for others, the `taskKey:` setting of tracejury.yml names a dotted path into each
 * trace's metadata (`taskKey: case.id` reads `metadata.case.id`). The caller passes the setting
 * in; this layer knows nothing of config.
 */
import { isRecord } from './importer.js';

/** The value at a dotted path into an object (`case.id`), or undefined. */
function valueAtPath(value: unknown, dotted: string): unknown {
  let at = value;
  for (const key of dotted.split('.')) {
    if (!isRecord(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return at;
}

/**
 * `input` with its `taskId` filled in from `metadata` at `path` when the recording names no task
 * and the metadata holds a string or a finite number there. The input object is not changed.
 */
export function keyTask(input: unknown, path: string | undefined): unknown {
  if (!path || !isRecord(input) || input.taskId !== undefined) return input;
  const v = valueAtPath(input.metadata, path);
  if ((typeof v === 'string' && v !== '') || (typeof v === 'number' && Number.isFinite(v)))
    return { ...input, taskId: String(v) };
  return input;
}
