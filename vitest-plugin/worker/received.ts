/**
 * What a matcher was handed, as traces: a Trace (from loadTraces, describeTraces, captureTrace or
 * built by hand), the path of a trace file, or raw records in any format tracejury reads (an OTLP
 * document, spans, a Langfuse export, chat messages, …). Files are read synchronously — the
 * signal matchers are synchronous, as expect's are — and kept while unchanged.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { readTraceText, readTraceValues, type LoadedTrace } from 'tracejury';
import { rememberSource, traceAnalyser, workerSettings } from './context.js';
import { inputErrorsMessage } from './inputErrors.js';
import { describeValue } from './describeValue.js';

/** What a matcher reads as traces, for the message when it was handed something else. */
export const TRACE_SHAPES =
  'a trace (from captureTrace, loadTraces, describeTraces, a receiver, or built by hand), an array of traces, ' +
  'the path of a trace file, or raw trace records (an OTLP document, spans, a Langfuse export, flat LLM-call records, chat messages)';

function notTraces(received: unknown, shapes: string, detail?: string): TypeError {
  return new TypeError(`expected ${shapes}; got ${describeValue(received)}${detail ? ` (${detail})` : ''}`);
}

/** The loader's word for values no importer recognises: the input is not traces at all. */
const NO_FORMAT = /^not a trace file: /;

const files = new Map<string, { mtimeMs: number; size: number; traces: LoadedTrace[] }>();

function looksLikeTrace(value: unknown): boolean {
  const v = value as { id?: unknown; steps?: unknown };
  return typeof v === 'object' && v !== null && typeof v.id === 'string' && Array.isArray(v.steps);
}

function looksLikeLoaded(value: unknown): value is LoadedTrace {
  const v = value as Partial<LoadedTrace>;
  return typeof v === 'object' && v !== null && looksLikeTrace(v.trace) && typeof v.source === 'object';
}

function failOnErrors(what: string, result: ReturnType<typeof readTraceText>): LoadedTrace[] {
  const { errors, errorCount } = result.stats;
  if (errorCount > 0) throw new Error(inputErrorsMessage(what, errors, errorCount, { max: 5 }));
  for (const t of result.traces) rememberSource(t);
  return result.traces;
}

function readFile(file: string): LoadedTrace[] {
  const { root } = workerSettings();
  const absolute = path.resolve(root, file);
  let stat;
  try {
    stat = statSync(absolute);
  } catch {
    throw new Error(`${file}: no such trace file (resolved against ${root})`);
  }
  const cached = files.get(absolute);
  if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.traces;
  const name = path.relative(root, absolute).split(path.sep).join('/') || absolute;
  const { pricer } = traceAnalyser();
  const traces = failOnErrors(
    name,
    readTraceText(name, readFileSync(absolute, 'utf8'), { pricer, cwd: root }),
  );
  files.set(absolute, { mtimeMs: stat.mtimeMs, size: stat.size, traces });
  return traces;
}

function readRecords(received: unknown, records: readonly unknown[], shapes: string): LoadedTrace[] {
  const { pricer } = traceAnalyser();
  const result = readTraceValues('<records>', records, { pricer });
  const [first] = result.stats.errors;
  // Nothing in it looked like any format: say what is accepted rather than "1 input error".
  if (result.traces.length === 0 && first && NO_FORMAT.test(first.message))
    throw notTraces(received, shapes, 'no trace format reads it');
  return failOnErrors('records', result);
}

/**
 * Every trace in what was received. `shapes` describes what the calling matcher accepts, for the
 * error when `received` is none of it.
 */
export function receivedTraces(
  received: unknown,
  shapes: string = TRACE_SHAPES,
): (LoadedTrace | Record<string, unknown>)[] {
  if (typeof received === 'string') return readFile(received);
  if (looksLikeLoaded(received)) return [received];
  if (looksLikeTrace(received)) return [received as Record<string, unknown>];
  if (Array.isArray(received)) {
    if (received.length > 0 && received.every((r) => looksLikeTrace(r) || looksLikeLoaded(r)))
      return received as (LoadedTrace | Record<string, unknown>)[];
    if (received.length > 0 && received.every((r) => typeof r === 'string'))
      return received.flatMap(readFile);
    if (received.length === 0) return [];
    return readRecords(received, received, shapes);
  }
  if (typeof received === 'object' && received !== null) return readRecords(received, [received], shapes);
  throw notTraces(received, shapes);
}

/** The one trace a single-trace matcher needs; several (a file of many traces) is a mistake worth naming. */
export function receivedTrace(received: unknown): LoadedTrace | Record<string, unknown> {
  const traces = receivedTraces(received);
  if (traces.length === 1) return traces[0]!;
  const where = typeof received === 'string' ? received : 'the records';
  if (traces.length === 0) throw new Error(`${where}: holds no trace`);
  throw new Error(
    `${where} holds ${traces.length} traces; this matcher checks one: use describeTraces(glob, (trace) => …) for one test per trace`,
  );
}
