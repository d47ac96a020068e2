/**
 * The attribution rule contract, in the shape of a detector (and of an ESLint rule): `meta` (id,
 * description, message templates keyed by message id, how much a candidate of it weighs) and a
 * pure `find(ctx)` that names candidate steps. The rules are tried together; choose.ts picks among
 * what they name.
 */
import type { Signal } from '../detect/signal.js';
import type { Trace } from '../trace/schema.js';
import type { Call } from './calls.js';
import type { RoleOf } from './roles.js';

/**
 * How much a candidate weighs: `evidence` (a recorded fact points at the step: a failed call, a
 * departure from the expected actions, an injection obeyed, a loop, the wrong answer's source),
 * `weak` evidence (a call that returned nothing, an expected action never taken), or the `prior`
 * (structure alone: who did most, and when they started).
 */
export type Strength = 'evidence' | 'weak' | 'prior';

export interface RuleMeta {
  /** Stable id, upper snake case like detector ids (the report's `rootCause.rule`). */
  id: string;
  description: string;
  /** Message templates by message id; `{{key}}` is filled from a candidate's data. */
  messages: Record<string, string>;
}

/** What a rule says about one step. */
export interface CandidateDraft {
  /** The step the rule points at (before blame moves off a router or an executor). */
  step: number;
  messageId: string;
  data: Record<string, string | number>;
  confidence: number;
  strength: Strength;
  /** The finding the candidate rests on: it must still be a finding once escalation has decided. */
  basis?: { detector: string; step: number };
  /** A later step it led to (the action an injection caused), with its own message. */
  effect?: { step: number; messageId: string; data: Record<string, string | number> };
}

export interface AttributionContext {
  trace: Trace;
  /** The trace's signals as the detectors found them (rules that read findings cite one as basis). */
  signals: readonly Signal[];
  roleOf: RoleOf;
  /** The agent the recording says owns each step (index = step − 1), undefined where it names none. */
  agents: readonly (string | undefined)[];
  /** Tool calls and code runs, in step order. */
  calls: readonly Call[];
  /** How many leading steps only hand the task over (the question asked, relayed): no agent's decision. */
  handover: number;
  isReadTool(name: string): boolean;
}

export interface AttributionRule {
  meta: RuleMeta;
  find(ctx: AttributionContext): CandidateDraft[];
}
