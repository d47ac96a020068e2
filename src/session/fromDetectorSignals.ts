/**
 * The per-trace signals the session metrics take (session-metrics.md: confidence, loop_detection,
 * tool_correctness, coherence, each in [0, 1] where 1 is good), worked out from what the detectors
 * found when nobody supplies them. Each is 1 minus the highest confidence among the trace's counted
 * signals (findings and gray-zone cases; never shadow or suppressed ones) of the failure modes it
 * stands for; `confidence` takes every counted signal, so a trace with no finding scores 1 on all
 * four. A tribunal verdict on the trace, when there is one, sets `confidence` and `coherence`
 * instead: the judges read the answer, the detectors only its shape.
 */
import { findDetector } from '../detect/registry.js';
import type { Signal } from '../detect/signal.js';
import { statusOf, type SignalStatus } from '../detect/status.js';
import type { TraceSignals } from './signals.js';

/** Detector failure modes (each detector's meta.failureMode) per session signal. */
const MODES: Record<'loop_detection' | 'tool_correctness' | 'coherence', readonly string[]> = {
  loop_detection: ['loop', 'retry', 'stall', 'truncation'],
  tool_correctness: ['tool-failure', 'tool-avoidance', 'early-failure'],
  coherence: ['abandonment', 'empty-response', 'grounding', 'injection', 'state_corruption'],
};

type CountedSignal = Pick<Signal, 'detector' | 'confidence' | 'suppressedBy' | 'shadow'> & {
  status?: SignalStatus;
};

export function traceSignalsFromDetectors(
  traceId: string,
  signals: readonly CountedSignal[],
  verdict?: { score: number; confidence: number; indeterminate: boolean },
): TraceSignals {
  const counted = signals.filter((s) => {
    const status = statusOf(s);
    return status === 'finding' || status === 'review';
  });
  const worst = (modes?: readonly string[]) => {
    let max = 0;
    for (const s of counted) {
      if (modes && !modes.includes(findDetector(s.detector)?.meta.failureMode ?? '')) continue;
      max = Math.max(max, s.confidence);
    }
    return 1 - max;
  };
  // An INDETERMINATE verdict says nothing about the answer: the detectors' view stands.
  const judged = verdict && !verdict.indeterminate ? verdict : undefined;
  return {
    traceId,
    signals: {
      confidence: judged ? judged.confidence * judged.score : worst(),
      loop_detection: worst(MODES.loop_detection),
      tool_correctness: worst(MODES.tool_correctness),
      coherence: judged ? judged.score : worst(MODES.coherence),
    },
  };
}
