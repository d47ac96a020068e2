/**
 * One trace's results (traceResult.ts) — or, when analysing it throws (a bug, or input no bound
 * foresaw), that trace's input error: one bad recording never ends the run, and the others are
 * reported. Used the same way in this thread and in worker threads.
 */
import { redactAndCut } from '../redact/safeText.js';
import type { LoadStats } from '../trace/load.js';
import type { LoadedTrace } from '../trace/schema.js';
import type { TraceResult } from './protocol.js';

/** How much of an unexpected error's message the input error quotes. */
const MAX_ERROR_MESSAGE = 300;

/** `[analyse()]`, or `[]` with the failure added to `stats` as the trace's input error. */
export function resultOrInputError(
  loaded: LoadedTrace,
  stats: LoadStats,
  analyse: () => TraceResult,
): TraceResult[] {
  try {
    return [analyse()];
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
    return [];
  }
}
