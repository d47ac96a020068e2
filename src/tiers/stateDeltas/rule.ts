/** The shape of a tier-2 rule: a pure function of a trace and one gray-zone signal of it. */
import type { Signal } from '../../detect/signal.js';
import type { Trace } from '../../trace/schema.js';

export interface StateDeltaDecision {
  /** `failure` and `no failure` resolve the signal at tier 2; `undecided` leaves it to tier 3. */
  decision: 'failure' | 'no failure' | 'undecided';
  /** The signal's new confidence when decided: 0.70–0.90 for a failure, below 0.35 for none. */
  confidence?: number;
  /** One sentence: why. */
  reason: string;
  /** What the rule measured, for the evidence. */
  facts: Record<string, unknown>;
}

export type StateDeltaRule = (trace: Trace, signal: Signal) => StateDeltaDecision;
