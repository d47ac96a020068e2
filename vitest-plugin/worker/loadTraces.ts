/**
 * Recorded traces into tests: `loadTraces(glob)` for a test that wants them all, and
 * `describeTraces(glob, fn)` for one test per recording, named by its trace id — or, when the id is
 * a bare hex or UUID, by what the run was asked (its first user message) — so a failure points at
 * one recording. Files are read by tracejury's own loader (any format, globs, line-numbered
 * errors) with the run's config prices. Input that cannot be read fails loudly — loadTraces
 * throws, describeTraces adds a failing test that lists it — while the good traces beside it still
 * get their tests.
 */
import { describe, test } from 'vitest';
import {
  loadTraces as loadTraceFiles,
  redact,
  type InputFormat,
  type InputError,
  type LoadedTrace,
  type Trace,
} from 'tracejury';
import { rememberSource, traceAnalyser, workerSettings } from './context.js';
import { currentTask } from './currentTask.js';
import { inputErrorsMessage } from './inputErrors.js';
import { metaOf } from '../shared/meta.js';
import { keepTrace } from './savedTraces.js';

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

/** Ids a person cannot read: hex (OTel trace ids, hashes) and UUIDs. */
const OPAQUE_ID = /^(?:[0-9a-f]{16,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
const MAX_INPUT_NAME = 60;

/** The text of a message in the shapes recordings keep it: a string, `{ content }`, content parts. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const parts = value.map(textOf).filter((t): t is string => Boolean(t));
    return parts.length ? parts.join(' ') : undefined;
  }
  if (typeof value === 'object' && value !== null) {
    const v = value as { content?: unknown; text?: unknown };
    return textOf(v.content ?? v.text);
  }
  return undefined;
}

/** The first thing the run was asked: the input itself, or its first user message. */
function firstUserText(input: unknown): string | undefined {
  const messages = Array.isArray(input) ? input : (input as { messages?: unknown } | undefined)?.messages;
  if (Array.isArray(messages)) {
    const user = messages.find((m) => (m as { role?: unknown } | null)?.role === 'user');
    if (user) return textOf(user);
  }
  return textOf(input);
}

/** Recording text as a test name: one line, secrets redacted, control characters gone, cut. */
function safeName(text: string): string {
  const one = redact(text)
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return one.length > MAX_INPUT_NAME ? `${one.slice(0, MAX_INPUT_NAME - 1)}…` : one;
}

function where(t: LoadedTrace): string {
  return `${t.source.file}${t.source.line ? `:${t.source.line}` : ''}`;
}

/** A recording's name: its id when readable, else what it was asked, else where it is. */
function readableName(t: LoadedTrace): string {
  if (!OPAQUE_ID.test(t.trace.id)) return t.trace.id;
  const asked = firstUserText(t.trace.input);
  return asked && safeName(asked) ? `"${safeName(asked)}"` : where(t);
}

/** Test names: each recording's name, with its file and line when two recordings share one. */
function testNames(traces: readonly LoadedTrace[]): string[] {
  const names = traces.map(readableName);
  const count = new Map<string, number>();
  for (const n of names) count.set(n, (count.get(n) ?? 0) + 1);
  const seen = new Map<string, number>();
  return traces.map((t, i) => {
    const name = names[i]!;
    if ((count.get(name) ?? 0) === 1) return name;
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    if (name === where(t)) return `${name} #${n}`;
    return `${name} (${t.source.line ? where(t) : `${t.source.file} #${n}`})`;
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
      test(names[i]!, timeout, () => {
        // The recording is this test's subject: saved with it if it fails, whatever fn looks at.
        keepTrace(currentTask(), loaded.trace, loaded.source.file);
        return fn(loaded.trace);
      });
    });
  });
}
