/**
 * The regression gate: a one-sided test of "worse" per gated quantity, with the chance of any
 * false alarm across them held at `alpha` by Holm's correction, a minimum effect below which
 * nothing fails, and success deciding over its proxies.
 *
 * - The family is the gated quantities measured on both sides. Success, when in it, takes half
 *   of alpha at the first step (SUCCESS_WEIGHT): it is what the gate is for, and at half of 0.05 a
 *   success drop fails exactly when its one-sided p is under 0.025, as a 95 % interval entirely
 *   below 0 says. The other quantities share the other half; without success they share all of it.
 * - A quantity fails when Holm rejects "no worse" for it AND its change toward worse is at least
 *   its minimum effect. An improvement never fails: the test looks one way, and the change must
 *   point that way.
 * - Success decides over proxies: when success is measured on both sides and rose beyond noise
 *   (one-sided p ≤ alpha toward better), a rise in the share of runs with a finding, in a
 *   detector's share or in waste is reported but does not fail (`excused`). A more capable agent
 *   may carry more findings (it follows more instructions, injected ones too); a finding is a
 *   proxy of failure, and here the failures themselves were counted and went down. Cost and the
 *   judges' score, gated only on request, are not proxies and are never excused.
 * - `newSignals` (off by default) also fails on a new finding at its severity on a task that was
 *   clean in every base run (a task base never ran counts as clean): for deterministic replays,
 *   where the same recording gives the same findings.
 */
import { z } from 'zod';
import { severityRank } from '../detect/signal.js';
import { plural } from '../util/thousands.js';
import { absoluteMinEffect, minEffectSetting, type RegressionPolicy } from './config.js';
import type { DiffSignal } from './match.js';
import type { Quantity } from './quantity.js';
import { changeText, minEffectText, pText } from './quantityText.js';
import { holm } from './stats/holm.js';

/** Success's weight in the correction against the other gated quantities' combined. */
const SUCCESS_WEIGHT = 0.5;
/** Quantities that stand in for failure: a significant rise in success excuses their rise. */
const PROXIES = (id: string) => id === 'findings' || id === 'waste' || /^[A-Z][A-Z0-9_]*$/.test(id);

export const GateFailureSchema = z.object({
  /**
   * `quantity`: a gated quantity worse beyond noise and by its minimum effect; `newSignals`: a new
   * finding on a task clean in base (regression.newSignals); `comparable`: a number in a report
   * that cannot be compared, which fails whatever the policy says.
   */
  rule: z.enum(['quantity', 'newSignals', 'comparable']),
  /** The quantity that failed (rule `quantity`). */
  quantity: z.string().optional(),
  /** The setting that holds the rule's limit (`regression.minEffect.success`); empty for `comparable`. */
  setting: z.string(),
  /** Its value as a reader says it: `5 pts`, `20 %`, `high`; empty for `comparable`. */
  limit: z.string(),
  /** What fired it: `success 66 % → 25 % (−42 pts, 95 % interval −50 … −33), 194 tasks paired`. */
  fired: z.string(),
});
export type GateFailure = z.infer<typeof GateFailureSchema>;

/** The weight of each quantity of the family in the correction. */
function familyWeights(ids: readonly string[]): number[] {
  const others = ids.filter((id) => id !== 'success').length;
  if (!ids.includes('success') || others === 0) return ids.map(() => 1);
  return ids.map((id) => (id === 'success' ? SUCCESS_WEIGHT : (1 - SUCCESS_WEIGHT) / others));
}

/** The level a family member is tested at in the correction's first step: its share of alpha. */
export function firstStepAlpha(ids: readonly string[], id: string, alpha: number): number {
  const w = familyWeights(ids);
  const total = w.reduce((a, b) => a + b, 0);
  const i = ids.indexOf(id);
  return i === -1 ? alpha : (alpha * w[i]!) / total;
}

export interface GateInput {
  quantities: Quantity[];
  /** Head's new findings, each with the task of its run (runs.ts traceTask). */
  newSignals: readonly (DiffSignal & { task: string })[];
  /** Base's tasks that had a finding at `regression.newSignals.minSeverity` or worse. */
  baseFlaggedTasks: (minSeverity: DiffSignal['severity']) => ReadonlySet<string>;
}

export interface GateResult {
  passed: boolean;
  reasons: string[];
  failures: GateFailure[];
  /** The quantity (or rule) that decided a failure: success first, else the smallest adjusted p. */
  decidedBy: string | null;
  /** The quantities with their decision filled in. */
  quantities: Quantity[];
}

const worseSign = (q: Quantity) => (q.better === 'higher' ? -1 : 1);

export function regressionGate(input: GateInput, policy: RegressionPolicy): GateResult {
  const failures: GateFailure[] = [];
  const reasons: string[] = [];
  const alpha = policy.alpha;
  const gated = new Set(policy.gate);
  const quantities = input.quantities.map((q) => ({ ...q, gated: gated.has(q.id) }));
  const family = quantities.filter((q) => q.gated && q.status === 'compared' && q.p !== null);
  const ids = family.map((q) => q.id);
  const { adjusted, rejected } = holm(
    family.map((q) => q.p!),
    alpha,
    familyWeights(ids),
  );
  const success = quantities.find((q) => q.id === 'success' && q.status === 'compared');
  const successRose = success !== undefined && (success.change ?? 0) > 0 && (success.pBetter ?? 1) <= alpha;

  const decided = quantities.map((q): Quantity => {
    if (q.status === 'invalid') {
      failures.push({
        rule: 'comparable',
        setting: '',
        limit: '',
        fired: `${q.label}: ${q.why ?? 'not comparable'}`,
      });
      reasons.push(`${q.label} cannot be judged: ${q.why ?? 'not comparable'}`);
      return { ...q, decision: q.gated ? 'untested' : 'ungated' };
    }
    if (q.status !== 'compared') return { ...q, decision: q.gated ? 'untested' : 'ungated' };
    const better = (q.pBetter ?? 1) <= alpha ? ('better' as const) : ('within noise' as const);
    if (!q.gated) return { ...q, reading: (q.p ?? 1) <= alpha ? 'worse' : better, decision: 'ungated' };
    const k = ids.indexOf(q.id);
    const minEffect = absoluteMinEffect(q.id, q.base.mean, policy);
    const base = { ...q, adjustedP: adjusted[k]!, minEffect };
    if (!rejected[k]) return { ...base, reading: better, decision: 'passed' };
    const towardWorse = (q.change ?? 0) * worseSign(q);
    if (!(towardWorse > 0) || towardWorse < minEffect)
      return { ...base, reading: 'worse', decision: 'small' };
    if (successRose && q.id !== 'success' && PROXIES(q.id))
      return { ...base, reading: 'worse', decision: 'excused' };
    return { ...base, reading: 'worse', decision: 'failed' };
  });

  const failed = decided.filter((q) => q.decision === 'failed');
  // Success first (it is what the gate is for), then the strongest evidence.
  failed.sort(
    (a, b) => Number(b.id === 'success') - Number(a.id === 'success') || a.adjustedP! - b.adjustedP!,
  );
  for (const q of failed) {
    const fired = changeText(q);
    failures.push({
      rule: 'quantity',
      quantity: q.id,
      setting: minEffectSetting(q.id),
      limit: minEffectText(q, policy),
      fired,
    });
    reasons.push(
      `${fired}: worse beyond noise (one-sided p ${pText(q.p!)}, ${pText(q.adjustedP!)} after Holm's correction across ${plural(ids.length, 'gated quantity', 'gated quantities')} at α ${alpha})`,
    );
  }

  if (policy.newSignals) {
    const min = severityRank(policy.newSignals.minSeverity);
    const flagged = input.baseFlaggedTasks(policy.newSignals.minSeverity);
    const bad = input.newSignals.filter((s) => severityRank(s.severity) >= min && !flagged.has(s.task));
    if (bad.length > 0) {
      const first = bad[0]!;
      const fired = `${plural(bad.length, 'new finding')} at ${policy.newSignals.minSeverity} or worse on ${bad.length === 1 ? 'a task' : 'tasks'} clean in every base run`;
      failures.push({
        rule: 'newSignals',
        setting: 'regression.newSignals.minSeverity',
        limit: policy.newSignals.minSeverity,
        fired,
      });
      reasons.push(
        `${fired} (first: ${first.detector} in ${first.test ?? first.traceId}${first.file && !first.test ? ` (${first.file})` : ''})`,
      );
    }
  }
  const decidedBy = failed[0]?.id ?? failures[0]?.rule ?? null;
  return { passed: failures.length === 0, reasons, failures, decidedBy, quantities: decided };
}
