/**
 * One trace's results, as this thread and the worker threads both make them — or, when analysing
 * it throws (a bug, or input no bound foresaw), that trace's input error: one bad recording never
 * ends the run, and the others are reported.
 */
import { isGrayZone } from '../detect/grayZone.js';
import type { DetectorRunner } from '../detect/runner.js';
import { redactAndCut } from '../redact/safeText.js';
import { summariseTrace, unreadSpansOf } from '../report/build.js';
import { sessionFactsOf } from '../session/traceFacts.js';
import type { LoadStats } from '../trace/load.js';
import type { TraceOrder } from '../trace/order.js';
import type { LoadedTrace } from '../trace/schema.js';
import type { TraceResult } from './protocol.js';

/** How much of an unexpected error's message the input error quotes. */
const MAX_ERROR_MESSAGE = 300;

export interface AnalyseTraceOptions {
  runner: DetectorRunner;
  order: TraceOrder;
  /** Keep the trace when a signal is in the gray zone (judges or embeddings will look at it). */
  keepGrayZoneTrace: boolean;
  /** Keep the trace and its source with every result (the caller's onTrace wants them). */
  keepLoaded?: boolean;
}

export function analyseTrace(
  loaded: LoadedTrace,
  stats: LoadStats,
  options: AnalyseTraceOptions,
): TraceResult | undefined {
  try {
    const signals = options.runner.run(loaded);
    return {
      order: options.order,
      summary: summariseTrace(loaded, signals),
      signals,
      sessionSignals: sessionFactsOf(loaded.trace),
      unreadSpans: unreadSpansOf(loaded.trace),
      ...(options.keepLoaded ? { loaded } : {}),
      ...(options.keepGrayZoneTrace && signals.some(isGrayZone) ? { trace: loaded.trace } : {}),
    };
  } catch (err) {
    const { file, line } = loaded.source;
    const what = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    stats.traces--;
    stats.errorCount++;
    stats.errors.push({
      file,
      ...(line !== undefined ? { line } : {}),
      message: `trace ${loaded.trace.id} could not be analysed (${redactAndCut(what, MAX_ERROR_MESSAGE)}); the other traces were — please report this`,
    });
    return undefined;
  }
}
