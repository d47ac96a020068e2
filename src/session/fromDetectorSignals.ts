/**
 * The per-trace signals the session metrics take (session-metrics.md: confidence, loop_detection,
 * tool_correctness, coherence, each in [0, 1] where 1 is good), worked out from what the detectors
 * found and what was measured of the trace (traceFacts.ts) when nobody supplies them. Pure: the
 * same inputs give the same signals in any thread.
 *
 * From the detectors, each signal is 1 minus the highest confidence among the trace's findings
 * (status `finding`: gray-zone cases left for review, shadow and suppressed signals count for
 * nothing, as they count for nothing toward the gate, which session scores can fail) of the failure modes it
 * stands for; `confidence` takes every counted signal except those about spend alone (failure modes
 * `cost` and `budget`: a needless fallback wastes money, it does not make the run less trustworthy),
 * so a trace with no finding scores 1 on all four. What was measured of the trace can only lower
 * them further:
 *
 * - tool_correctness: at most 1 − the share of its tool steps that failed;
 * - loop_detection: at most `loopFromRepeat` of its similarity to the previous runs of its session
 *   (a near-identical repeat of a recent run is a loop across traces);
 * - coherence: at most `coherenceFromSimilarity` of its input/output similarity.
 *
 * A tribunal verdict on the trace, when there is one, sets `confidence` and `coherence` instead:
 * the judges read the answer, the detectors and the lexical measures only its shape.
 */
import { findDetector } from '../detect/registry.js';
import type { Signal } from '../detect/signal.js';
import { statusOf, type SignalStatus } from '../detect/status.js';
import { clamp01, type TraceSignals } from './signals.js';

/** Detector failure modes (each detector's meta.failureMode) per session signal. */
const MODES: Record<'loop_detection' | 'tool_correctness' | 'coherence', readonly string[]> = {
  loop_detection: ['loop', 'retry', 'stall', 'truncation'],
  tool_correctness: ['tool-failure', 'tool-avoidance', 'early-failure'],
  coherence: ['abandonment', 'empty-response', 'grounding', 'injection', 'state_corruption'],
};

/** Failure modes about spend only, which `confidence` leaves out. */
const SPEND_MODES: readonly string[] = ['cost', 'budget'];

/** Repeat similarity (Jaccard) up to which a run is not a repeat at all. */
export const REPEAT_FROM = 0.5;
/** Input/output similarity at and above which the answer counts as fully on topic. */
export const COHERENT_AT = 0.2;
/** The most a lexical measure may take off coherence: word overlap is weak evidence. */
export const MAX_LEXICAL_RISK = 0.3;

/**
 * loop_detection from the similarity of a run to the most alike of the previous runs of its
 * session: 1 up to REPEAT_FROM, falling linearly to 0 for an identical repeat.
 */
export function loopFromRepeat(similarity: number): number {
  return 1 - clamp01((similarity - REPEAT_FROM) / (1 - REPEAT_FROM));
}

/**
 * coherence from the similarity of a trace's input and output: 1 from COHERENT_AT up, falling
 * linearly to 1 − MAX_LEXICAL_RISK when they share nothing.
 */
export function coherenceFromSimilarity(similarity: number): number {
  return 1 - MAX_LEXICAL_RISK * (1 - clamp01(similarity / COHERENT_AT));
}

type CountedSignal = Pick<Signal, 'detector' | 'confidence' | 'suppressedBy' | 'shadow'> & {
  status?: SignalStatus;
};

/** What was measured of the trace itself (traceFacts.ts), and how alike it is to its session's recent runs. */
export interface MeasuredFacts {
  toolSteps?: number;
  failedToolSteps?: number;
  /** Similarity of the trace's input and output (similarity.ts). */
  ioSimilarity?: number;
  /** Highest similarity to the previous runs of its session (sessions.ts). */
  repeatSimilarity?: number;
}

export function traceSignalsFromDetectors(
  traceId: string,
  signals: readonly CountedSignal[],
  verdict?: { score: number; confidence: number; indeterminate: boolean },
  facts: MeasuredFacts = {},
): TraceSignals {
  const counted = signals.filter((s) => {
    return statusOf(s) === 'finding';
  });
  const worst = (keep: (mode: string) => boolean) => {
    let max = 0;
    for (const s of counted) {
      if (!keep(findDetector(s.detector)?.meta.failureMode ?? '')) continue;
      max = Math.max(max, s.confidence);
    }
    return 1 - max;
  };
  const of = (modes: readonly string[]) => worst((m) => modes.includes(m));
  let toolCorrectness = of(MODES.tool_correctness);
  if (facts.toolSteps && facts.toolSteps > 0)
    toolCorrectness = Math.min(toolCorrectness, 1 - clamp01((facts.failedToolSteps ?? 0) / facts.toolSteps));
  let loopDetection = of(MODES.loop_detection);
  if (facts.repeatSimilarity !== undefined)
    loopDetection = Math.min(loopDetection, loopFromRepeat(facts.repeatSimilarity));
  let coherence = of(MODES.coherence);
  if (facts.ioSimilarity !== undefined)
    coherence = Math.min(coherence, coherenceFromSimilarity(facts.ioSimilarity));
  // An INDETERMINATE verdict says nothing about the answer: the detectors' view stands.
  const judged = verdict && !verdict.indeterminate ? verdict : undefined;
  return {
    traceId,
    signals: {
      confidence: judged ? judged.confidence * judged.score : worst((m) => !SPEND_MODES.includes(m)),
      loop_detection: loopDetection,
      tool_correctness: toolCorrectness,
      coherence: judged ? judged.score : coherence,
    },
  };
}
