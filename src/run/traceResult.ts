/**
 * What loading and detection hand on for one trace, made one way in this thread and in worker
 * threads: its summary, its signals, its session facts, and what escalation or the deferred
 * baseline detectors will need of it.
 */
import { attributionFacts } from '../attribute/candidates.js';
import { mayFail } from '../attribute/failedRun.js';
import { inputRunOf } from '../baseline/inputBaselines.js';
import { packSkeleton } from '../detect/baselineSkeleton.js';
import { isGrayZone } from '../detect/grayZone.js';
import type { DetectorRunner } from '../detect/runner.js';
import { summariseTrace, unreadSpansOf } from '../report/build.js';
import { sessionFactsOf } from '../session/traceFacts.js';
import type { TraceOrder } from '../trace/order.js';
import type { LoadedTrace } from '../trace/schema.js';
import type { AttributionInput, TraceResult } from './protocol.js';

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
  attribution?: AttributionInput,
): TraceResult {
  const signals = runner.run(loaded);
  const { trace } = loaded;
  const deferred = runner.deferred(trace);
  // A run that cannot fail needs no root cause; one whose baseline detectors wait still may.
  const attribute = attribution?.settings.enabled === true && (deferred || mayFail(trace, signals));
  return {
    order,
    summary: summariseTrace(loaded, signals),
    signals,
    // Only traces of a recorded session are compared with each other (session/sessions.ts).
    sessionSignals: sessionFactsOf(trace, { fingerprint: trace.sessionId !== undefined }),
    unreadSpans: unreadSpansOf(trace),
    ...(keep.loaded ? { loaded } : {}),
    ...(keep.grayZoneTrace && signals.some(isGrayZone) ? { trace } : {}),
    ...(deferred ? { baselineSkeleton: packSkeleton(trace), baselineRun: inputRunOf(trace) } : {}),
    ...(attribute
      ? {
          attribution: attributionFacts(trace, signals, attribution.settings, {
            excerpts: attribution.excerpts,
          }),
        }
      : {}),
  };
}
