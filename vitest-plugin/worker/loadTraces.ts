/**
 * Recorded traces into tests: `loadTraces(glob)` for a test that wants them all, and
 * `describeTraces(glob, fn)` for one test per recording, named by its trace id, so a failure points
 * at one recording. Files are read by tracejury's own loader (any format, globs, line-numbered
 * errors) with the run's config prices. Input that cannot be read fails loudly — loadTraces
 * throws, describeTraces adds a failing test that lists it — while the good traces beside it still
 * get their tests.
 */
import { describe, test } from 'vitest';
import {
  loadTraces as loadTraceFiles,
  type InputFormat,
  type InputError,
  type LoadedTrace,
  type Trace,
} from 'tracejury';
import { rememberSource, traceAnalyser, workerSettings } from './context.js';
import { currentTask } from './currentTask.js';
import { inputErrorsMessage } from './inputErrors.js';
import { metaOf } from '../shared/meta.js';

export interface LoadTracesOptions {
  /** Read every file as this format instead of detecting it. */
  inputFormat?: InputFormat;
  /** Return the traces that could be read instead of throwing on input errors. */
  allowInputErrors?: boolean;
}

async function load(globOrPath: string | string[], options: LoadTracesOptions) {
  const { root, agent } = workerSettings();
  const { traces, stats } = await loadTraceFiles(globOrPath, {
    cwd: root,
    pricer: traceAnalyser().pricer,
    ...(agent ? { agent } : {}),
    ...(options.inputFormat ? { inputFormat: options.inputFormat } : {}),
  });
  for (const t of traces) rememberSource(t);
  return { traces, stats };
}

function inputErrorText(what: string, errors: readonly InputError[], count: number): string {
  return inputErrorsMessage(what, errors, count, {
    max: 20,
    hint: 'fix the input, or pass { allowInputErrors: true }',
  });
}

function describeGlob(globOrPath: string | string[]): string {
  return Array.isArray(globOrPath) ? globOrPath.join(', ') : globOrPath;
}

/** Every trace of the files under `globOrPath` (paths, directories or globs, relative to the project root). */
export async function loadTraces(
  globOrPath: string | string[],
  options: LoadTracesOptions = {},
): Promise<Trace[]> {
  const { traces, stats } = await load(globOrPath, options);
  if (stats.errorCount > 0) {
    const task = currentTask();
    if (task) metaOf(task).inputErrors.push(...stats.errors);
    if (!options.allowInputErrors)
      throw new Error(inputErrorText(describeGlob(globOrPath), stats.errors, stats.errorCount));
  }
  return traces.map((t) => t.trace);
}

export interface DescribeTracesOptions extends LoadTracesOptions {
  /** The suite's name (default `traces: <glob>`). */
  name?: string;
  /** Per-test timeout, as test()'s. */
  timeout?: number;
}

/** Test names: the trace id, with its file when the same id is in several files. */
function testNames(traces: readonly LoadedTrace[]): string[] {
  const count = new Map<string, number>();
  for (const t of traces) count.set(t.trace.id, (count.get(t.trace.id) ?? 0) + 1);
  const seen = new Map<string, number>();
  return traces.map((t) => {
    const id = t.trace.id;
    if ((count.get(id) ?? 0) === 1) return id;
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    return `${id} (${t.source.file}${t.source.line ? `:${t.source.line}` : ` #${n}`})`;
  });
}

export function describeTraces(
  globOrPath: string | string[],
  fn: (trace: Trace) => void | Promise<void>,
  options: DescribeTracesOptions = {},
): void {
  const glob = describeGlob(globOrPath);
  describe(options.name ?? `traces: ${glob}`, async () => {
    const timeout = options.timeout !== undefined ? { timeout: options.timeout } : {};
    let loaded: Awaited<ReturnType<typeof load>>;
    try {
      loaded = await load(globOrPath, options);
    } catch (err) {
      // A glob that matches nothing, an unreadable directory: one failing test says so.
      const message = err instanceof Error ? err.message : String(err);
      test(`traces in ${glob}`, timeout, () => {
        throw new Error(message);
      });
      return;
    }
    const { traces, stats } = loaded;
    if (stats.errorCount > 0) {
      const errors = stats.errors;
      test(`input errors in ${glob}`, timeout, () => {
        const task = currentTask();
        if (task) metaOf(task).inputErrors.push(...errors);
        if (!options.allowInputErrors) throw new Error(inputErrorText(glob, errors, stats.errorCount));
      });
    } else if (traces.length === 0) {
      test(`traces in ${glob}`, timeout, () => {
        throw new Error(`${glob}: no trace files matched (paths are relative to ${workerSettings().root})`);
      });
    }
    const names = testNames(traces);
    traces.forEach((loaded, i) => {
      test(names[i]!, timeout, () => fn(loaded.trace));
    });
  });
}
