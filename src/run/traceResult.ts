/**
 * What loading and detection hand on for one trace, made one way in this thread and in worker
 * threads: its summary, its signals, its session facts, and what escalation or the deferred
 * baseline detectors will need of it.
 */
import { inputRunOf } from '../baseline/inputBaselines.js';
import { packSkeleton } from '../detect/baselineSkeleton.js';
import { isGrayZone } from '../detect/grayZone.js';
import type { DetectorRunner } from '../detect/runner.js';
import { summariseTrace, unreadSpansOf } from '../report/build.js';
import { sessionFactsOf } from '../session/traceFacts.js';
import type { TraceOrder } from '../trace/order.js';
import type { LoadedTrace } from '../trace/schema.js';
import type { TraceResult } from './protocol.js';

export interface Keep {
  /** The trace, when a signal is in the gray zone (escalation is on). */
  grayZoneTrace: boolean;
  /** The loaded trace, always (the caller's onTrace; this thread only). */
  loaded?: boolean;
}

export function traceResult(
  loaded: LoadedTrace,
  order: TraceOrder,
  runner: DetectorRunner,
  keep: Keep,
): TraceResult {
  const signals = runner.run(loaded);
  const { trace } = loaded;
  return {
    order,
    summary: summariseTrace(loaded, signals),
    signals,
    // Only traces of a recorded session are compared with each other (session/sessions.ts).
    sessionSignals: sessionFactsOf(trace, { fingerprint: trace.sessionId !== undefined }),
    unreadSpans: unreadSpansOf(trace),
    ...(keep.loaded ? { loaded } : {}),
    ...(keep.grayZoneTrace && signals.some(isGrayZone) ? { trace } : {}),
    ...(runner.deferred(trace)
      ? { baselineSkeleton: packSkeleton(trace), baselineRun: inputRunOf(trace) }
      : {}),
  };
}
