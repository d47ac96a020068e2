/**
 * captureTrace(fn): runs the agent under test in process and returns the trace its OpenTelemetry
 * spans describe, read by the same importers as a recorded file (AI SDK 5 `ai.*` spans, AI SDK 7
 * `@ai-sdk/otel` GenAI or legacy spans, OpenInference, hand-made OTel GenAI spans).
 *
 * fn runs inside a context that carries a capture; the span processor (spanProcessor.ts) files
 * every span started under that context with it, so concurrent captures never share spans and
 * spans started outside any capture are never kept.
 */
import { readTraceValues, type Trace } from 'tracejury';
import { rememberSource, traceAnalyser } from '../worker/context.js';
import { currentTask } from '../worker/currentTask.js';
import { keepTrace } from '../worker/savedTraces.js';
import { activeContext, ensureCaptureTracing, withContext } from './globalTracing.js';
import { CAPTURE_KEY, closeCapture, openCapture, type Capture } from './spanProcessor.js';
import { spansToOtlp } from './spansToOtlp.js';
import { noSpansMessage } from './noSpans.js';

export { resetCapture, tracejuryProcessor } from './spanProcessor.js';
export { prepareCaptureTracing } from './globalTracing.js';

export interface CaptureOptions {
  /** The trace's agentId, in place of the one the spans name (default: theirs, else `captureTrace`). */
  agentId?: string;
  /**
   * Names the trace where the report lists it (`<trace id> (<name>)`, the trace's file), in the
   * saved traces of a failing test (`metadata.name`) and in importer errors (default `captureTrace`).
   */
  name?: string;
  /**
   * How long to wait, after fn settles, for spans still open to end (default 100 ms). Streaming
   * calls may end their spans after the promise fn returned has resolved; the wait ends as soon as
   * every span started in the capture has ended, so it costs nothing when none is open.
   */
  settleMs?: number;
}

/** fn's error, with the trace of the spans recorded before it threw (when they read as one). */
export type CaptureFailure = Error & { trace?: Trace };

const DEFAULT_SETTLE_MS = 100;

function readCapture(capture: Capture, options: CaptureOptions): Trace {
  const name = options.name ?? 'captureTrace';
  if (capture.ended.length === 0) {
    throw new Error(
      capture.started === 0
        ? noSpansMessage()
        : `captureTrace: ${capture.started} spans started during the call but none ended within ` +
            `settleMs (${options.settleMs ?? DEFAULT_SETTLE_MS} ms): end them, await the agent's result ` +
            '(e.g. streamText: await result.text), or raise settleMs.',
    );
  }
  // One trace per capture: spans of several root traces started in one call share the first's id.
  const doc = spansToOtlp(capture.ended, capture.traceId ? { traceId: capture.traceId } : {});
  // Priced with the run's prices (tracejury.yml), and remembered as read from `name` in its format.
  // The agent is the spans' own, else agentId, else 'captureTrace': a name labels one capture and
  // must not make each named capture an agent of its own (baselines are kept per agent).
  const { traces, stats } = readTraceValues(name, [doc], {
    agent: options.agentId ?? 'captureTrace',
    pricer: traceAnalyser().pricer,
  });

  if (stats.errors.length > 0 || traces.length !== 1) {
    const problems = stats.errors.map((e) => `${e.field ? `${e.field}: ` : ''}${e.message}`);
    throw new Error(
      `captureTrace: the ${capture.ended.length} captured spans (${spanNames(capture)}) did not read as one ` +
        `trace${problems.length > 0 ? `: ${problems.join('; ')}` : ` (${traces.length} traces)`}`,
    );
  }
  const loaded = traces[0]!;
  const trace = loaded.trace;
  const unended = capture.open;
  const metadata = {
    ...trace.metadata,
    ...(options.name !== undefined ? { name: options.name } : {}),
    // Spans still open after settleMs are not in the trace; say so rather than lose steps silently.
    ...(unended > 0 ? { unendedSpans: unended } : {}),
  };
  const amended: Trace = {
    ...trace,
    ...(options.agentId !== undefined ? { agentId: options.agentId } : {}),
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
  rememberSource({ ...loaded, trace: amended });
  // Kept with the running test: saved if the test fails, even before any matcher looked at it.
  keepTrace(currentTask(), amended, name);
  return amended;
}

function spanNames(capture: Capture): string {
  const names = [...new Set(capture.ended.map((s) => s.name))];
  return names.length > 8 ? `${names.slice(0, 8).join(', ')}, …` : names.join(', ');
}

/** Hangs the partial trace on fn's error, for failure messages; a capture that reads as none adds nothing. */
function attachTrace(err: unknown, capture: Capture, options: CaptureOptions): void {
  if (typeof err !== 'object' || err === null || !Object.isExtensible(err)) return;
  try {
    (err as CaptureFailure).trace = readCapture(capture, options);
  } catch {
    // fn's own error is the one to report.
  }
}

/**
 * Runs fn with its spans captured, and returns fn's result and the trace. If fn throws, its error
 * is rethrown with the partial trace as `error.trace`.
 */
export async function captureTraceWithResult<T>(
  fn: () => T | Promise<T>,
  options: CaptureOptions = {},
): Promise<{ result: T; trace: Trace }> {
  ensureCaptureTracing();
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
  const capture = openCapture();
  // The active context is kept (a span around the call stays the parent); only our key is added.
  const ctx = activeContext().setValue(CAPTURE_KEY, capture);
  try {
    let result: T;
    try {
      result = await withContext(ctx, fn);
    } catch (err) {
      await capture.settle(settleMs);
      attachTrace(err, capture, options);
      throw err;
    }
    await capture.settle(settleMs);
    return { result, trace: readCapture(capture, options) };
  } finally {
    // The spans are dropped here: a capture holds memory only while it runs.
    closeCapture(capture);
  }
}

/**
 * Runs fn (the agent under test) and returns the normalised trace of the OpenTelemetry spans it
 * emitted. The agent's answer is the trace's `output` when the spans record it; use
 * captureTraceWithResult for fn's return value too.
 */
export async function captureTrace(fn: () => unknown, options: CaptureOptions = {}): Promise<Trace> {
  return (await captureTraceWithResult(fn, options)).trace;
}
