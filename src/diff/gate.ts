/**
 * The regression gate of a diff (the `regression:` policy, config.ts): it fails on new findings at
 * or above a severity, on waste per trace up by more than a percentage and beyond noise, and on a
 * judges' pass rate down by more than a drop and beyond noise. A change that cannot be told from
 * noise (too few traces or verdicts) never fails the gate; a note says it was not gated.
 *
 * Each failure also comes as data (`GateFailure`: the rule, its limit and the number that fired
 * it), so that a verdict line can name the rule without parsing the reason's words.
 */
import { z } from 'zod';
import { severityRank } from '../detect/signal.js';
import { formatUsd } from '../report/summarise.js';
import { fmtInt, plural } from '../util/thousands.js';
import type { RegressionPolicy } from './config.js';
import type { DiffSignal } from './match.js';
import type { Noise } from './noise.js';
import type { VerdictDiff } from './verdicts.js';

export const GATE_RULES = ['newSignals', 'wasteIncreasePct', 'verdictPassRateDrop', 'comparable'] as const;

export const GateFailureSchema = z.object({
  /**
   * The `regression:` key that failed (`comparable`: a number in a report that cannot be compared,
   * which fails whatever the policy says).
   */
  rule: z.enum(GATE_RULES),
  /**
   * The setting that holds the rule's limit, as written in tracejury.yml
   * (`regression.newSignals.minSeverity`); empty for `comparable`.
   */
  setting: z.string(),
  /** Its value as a reader says it: `high`, `20%`, `0.1`; empty for `comparable`. */
  limit: z.string(),
  /** What fired it, short: `2 new findings at high or worse`, `waste per trace +35.2%, beyond noise`. */
  fired: z.string(),
});
export type GateFailure = z.infer<typeof GateFailureSchema>;

export interface GateInput {
  newSignals: readonly DiffSignal[];
  wastePerTrace: Noise;
  verdicts: VerdictDiff;
}

export const pct = (relative: number) => `${Math.round(relative * 1000) / 10}%`;
const signedUsd = (d: number) => (d < 0 ? `-${formatUsd(-d)}` : `+${formatUsd(d)}`);

/** "RETRY_LOOP ×2, TOOL_LOOP": the detectors of some signals, most frequent first. */
export function detectorCounts(signals: readonly DiffSignal[], max = 5): string {
  const counts = new Map<string, number>();
  for (const s of signals) counts.set(s.detector, (counts.get(s.detector) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const shown = sorted.slice(0, max).map(([d, n]) => (n > 1 ? `${d} ×${fmtInt(n)}` : d));
  return shown.join(', ') + (sorted.length > max ? `, … ${sorted.length - max} more detectors` : '');
}

export function regressionGate(
  input: GateInput,
  policy: RegressionPolicy,
): { passed: boolean; reasons: string[]; failures: GateFailure[]; notes: string[] } {
  /** One reason per failure, in the same order. */
  const reasons: string[] = [];
  const failures: GateFailure[] = [];
  const fail = (failure: GateFailure, reason: string) => {
    failures.push(failure);
    reasons.push(reason);
  };
  const notes: string[] = [];
  // A change the numbers cannot express (a report holding a value no run measures, summed past
  // what a double holds) is never read as "within noise": the gate fails and says why.
  const w0 = input.wastePerTrace;
  const compared = [w0.base, w0.head, w0.delta, ...(w0.interval ?? [])];
  if (compared.some((x) => !Number.isFinite(x)))
    fail(
      {
        rule: 'comparable',
        setting: '',
        limit: '',
        fired: 'waste per trace is not a finite number in one of the reports',
      },
      'waste per trace is not a finite number in one of the reports (a value no run measures): the change cannot be judged',
    );
  if (policy.newSignals) {
    const min = severityRank(policy.newSignals.minSeverity);
    const bad = input.newSignals.filter((s) => severityRank(s.severity) >= min);
    if (bad.length > 0) {
      const first = bad[0]!;
      const fired = `${plural(bad.length, 'new finding')} at ${policy.newSignals.minSeverity} or worse`;
      fail(
        {
          rule: 'newSignals',
          setting: 'regression.newSignals.minSeverity',
          limit: policy.newSignals.minSeverity,
          fired,
        },
        `${fired}: ${detectorCounts(bad)}` +
          ` (first: ${first.detector} in ${first.test ?? first.traceId}${first.file && !first.test ? ` (${first.file})` : ''})`,
      );
    }
  }
  const w = input.wastePerTrace;
  if (policy.wasteIncreasePct !== false && w.delta > 0) {
    const over = w.relative === null || w.relative * 100 > policy.wasteIncreasePct;
    const change = `waste per trace up${w.relative === null ? '' : ` ${pct(w.relative)}`} (${formatUsd(w.base)} → ${formatUsd(w.head)})`;
    if (over && w.label === 'up')
      fail(
        {
          rule: 'wasteIncreasePct',
          setting: 'regression.wasteIncreasePct',
          limit: `${policy.wasteIncreasePct}%`,
          fired: `waste per trace ${w.relative === null ? 'up from $0' : `+${pct(w.relative)}`}, beyond noise`,
        },
        `${change}, beyond noise (95% interval ${signedUsd(w.interval![0])} to ${signedUsd(w.interval![1])}); the limit is regression.wasteIncreasePct ${policy.wasteIncreasePct}%`,
      );
    else if (over && w.label !== 'within noise') notes.push(`${change}, but ${w.label}: not gated`);
  }
  const v = input.verdicts;
  if (
    policy.verdictPassRateDrop !== false &&
    v.noise &&
    v.delta !== null &&
    -v.delta > policy.verdictPassRateDrop
  ) {
    const change = `verdict pass rate fell ${v.base.rate!.toFixed(2)} → ${v.head.rate!.toFixed(2)} (${v.delta.toFixed(2)})`;
    if (v.noise.label === 'down')
      fail(
        {
          rule: 'verdictPassRateDrop',
          setting: 'regression.verdictPassRateDrop',
          limit: String(policy.verdictPassRateDrop),
          fired: `judges' pass rate ${v.base.rate!.toFixed(2)} → ${v.head.rate!.toFixed(2)}, beyond noise`,
        },
        `${change}, beyond noise; the limit is regression.verdictPassRateDrop ${policy.verdictPassRateDrop}`,
      );
    else if (v.noise.label !== 'within noise') notes.push(`${change}, but ${v.noise.label}: not gated`);
  }
  return { passed: failures.length === 0, reasons, failures, notes };
}
