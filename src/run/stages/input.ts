/**
 * What analyze() was given: paths (files, globs, `-` for stdin) or trace objects (library use),
 * and the trace objects as the batches the load stage reads.
 */
import { invalidTraceError, type LoadStats } from '../../trace/load.js';
import { keyAgent } from '../../trace/agentKey.js';
import { keyTask } from '../../trace/taskKey.js';
import { parseTrace } from '../../trace/fastParse.js';
import type { LoadedTrace } from '../../trace/schema.js';

export type RunInput = { paths: string[] } | { objects: readonly unknown[] };

/** Paths, or trace objects; anything else is a programming error worth a clear message. */
export function inputKind(input: unknown): RunInput {
  if (typeof input === 'string') return { paths: [input] };
  if (!Array.isArray(input))
    throw new TypeError(
      `analyze() takes a path, a list of paths or a list of trace objects; got ${input === null ? 'null' : typeof input}`,
    );
  const strings = input.filter((i) => typeof i === 'string').length;
  if (strings === input.length) return { paths: input as string[] };
  if (strings > 0) throw new TypeError('analyze() takes paths or trace objects, not a mix of both');
  return { objects: input };
}

/**
 * Traces given directly (library use) rather than as files, one batch each. An invalid one is an
 * input error named `<input>[i]` with its field, as a bad record of a file is, and the others are
 * still analysed.
 */
export async function* fromObjects(
  traces: readonly unknown[],
  stats: LoadStats,
  agent: string | undefined,
  taskKey: string | undefined,
): AsyncGenerator<LoadedTrace[]> {
  for (const [i, t] of traces.entries()) {
    const file = `<input>[${i}]`;
    stats.records++;
    const keyed = keyAgent(keyTask(t, taskKey), agent, '<input>');
    const parsed = parseTrace(keyed.input);
    if (!parsed.success) {
      stats.errorCount++;
      stats.errors.push(invalidTraceError(file, t, parsed.error));
      continue;
    }
    stats.traces++;
    stats.formats.native = (stats.formats.native ?? 0) + 1;
    yield [{ trace: parsed.data, source: { file, format: 'native', agentIdFrom: keyed.from } }];
  }
}
