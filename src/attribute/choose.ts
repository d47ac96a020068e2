/**
 * Choosing a failed run's root cause among what the rules named, once escalation has settled which
 * findings stand. Evidence beats weak evidence, which beats the prior; among equals the earliest
 * step wins, and on one step the rule tried first. A candidate resting on a finding that escalation
 * dismissed is dropped. The choice is in the gray zone when evidence at other steps disagrees or
 * only the prior named a step: the tribunal may then choose among the candidates.
 */
import type { Signal } from '../detect/signal.js';
import { statusOf } from '../detect/status.js';
import type { Candidate } from './candidates.js';
import { firstStep } from './firstStep.js';
import type { Alternative, Attributed, RootCause, Symptom } from './rootCause.js';
import type { Strength } from './rule.js';
import { ATTRIBUTION_RULES } from './rules/index.js';

/** Other candidates a root cause lists, and the most the tribunal hears besides the chosen one. */
export const MAX_ALTERNATIVES = 4;
/** Symptoms listed at most (the report counts what it shows). */
const MAX_SYMPTOMS = 20;

const STRENGTH_RANK: Record<Strength, number> = { evidence: 0, weak: 1, prior: 2 };
const ruleRank = (id: string) => ATTRIBUTION_RULES.findIndex((r) => r.meta.id === id);

/**
 * Evidence, then weak evidence, then the prior; among evidence the earliest step, then the rule
 * tried first. The prior's candidates are ranked by their own confidence (its main candidate
 * before the other agents' first turns it offers the tribunal), not by step.
 */
const byWeight = (a: Candidate, b: Candidate) =>
  STRENGTH_RANK[a.strength] - STRENGTH_RANK[b.strength] ||
  (a.strength === 'prior' ? b.confidence - a.confidence : 0) ||
  a.step - b.step ||
  ruleRank(a.rule) - ruleRank(b.rule);

export const NO_CAUSE =
  'no rule found a cause (no failed or empty call left unrepaired, no departure from expected actions, ' +
  'no obeyed injection, no loop, no earlier step the final answer repeats), and a run with a single agent gets no prior';

export interface Choice {
  rootCause: RootCause;
  /** In the gray zone: the chosen candidate first, then the others the tribunal may prefer. */
  grayZone?: Candidate[];
}

function stillStands(c: Candidate, findings: readonly Signal[]): boolean {
  if (!c.basis) return true;
  const { detector, step } = c.basis;
  return findings.some((s) => s.detector === detector && firstStep(s.steps) === step);
}

/** The findings at or after the cause, but the one it rests on: what follows from it. */
function symptomsOf(chosen: Candidate, findings: readonly Signal[]): Symptom[] {
  const out: Symptom[] = [];
  for (const s of findings) {
    const step = firstStep(s.steps);
    if (step < chosen.step) continue;
    if (chosen.basis && s.detector === chosen.basis.detector && step === chosen.basis.step) continue;
    out.push({ detector: s.detector, step });
  }
  return out.sort((a, b) => a.step - b.step || a.detector.localeCompare(b.detector)).slice(0, MAX_SYMPTOMS);
}

function toAlternative(c: Candidate): Alternative {
  return { step: c.step, agent: c.agent, rule: c.rule, confidence: c.confidence };
}

/** The attributed root cause for a chosen candidate, with the others as alternatives. */
export function attributedTo(
  chosen: Candidate,
  others: readonly Candidate[],
  findings: readonly Signal[],
): Attributed {
  return {
    step: chosen.step,
    agent: chosen.agent,
    rule: chosen.rule,
    confidence: chosen.confidence,
    evidence: chosen.evidence,
    ...(chosen.effect ? { effect: chosen.effect } : {}),
    symptoms: symptomsOf(chosen, findings),
    ...(others.length > 0 ? { alternatives: others.map(toAlternative) } : {}),
    decidedBy: 'rules',
  };
}

export function chooseRootCause(
  candidates: readonly Candidate[],
  finalSignals: readonly Signal[],
  failures: readonly { rule: string; message: string }[] = [],
): Choice {
  const findings = finalSignals.filter((s) => statusOf(s) === 'finding' && s.steps.length > 0);
  const standing = candidates.filter((c) => stillStands(c, findings)).sort(byWeight);
  const chosen = standing[0];
  if (!chosen) {
    const failed = failures.map(
      (f) => `attribution rule ${f.rule} failed: ${f.message} (please report this)`,
    );
    return { rootCause: { unattributed: [NO_CAUSE, ...failed].join('; ') } };
  }
  // One per step: the heaviest candidate of each other step, in weight order.
  const others: Candidate[] = [];
  for (const c of standing.slice(1)) {
    if (c.step === chosen.step || others.some((o) => o.step === c.step)) continue;
    if (others.length < MAX_ALTERNATIVES) others.push(c);
  }
  const rootCause = attributedTo(chosen, others, findings);
  const disagree = chosen.strength !== 'prior' && others.some((o) => o.strength === chosen.strength);
  const grayZone = chosen.strength === 'prior' || disagree ? [chosen, ...others] : undefined;
  return { rootCause, ...(grayZone && grayZone.length > 1 ? { grayZone } : {}) };
}
