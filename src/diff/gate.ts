/**
 * The regression gate of a diff (the `regression:` policy, config.ts): it fails on new findings at
 * or above a severity, on waste per trace up by more than a percentage and beyond noise, and on a
 * judges' pass rate down by more than a drop and beyond noise. A change that cannot be told from
 * noise (too few traces or verdicts) never fails the gate; a note says it was not gated.
 */
import { severityRank } from '../detect/signal.js';
import { formatUsd } from '../report/summarise.js';
import { fmtInt, plural } from '../util/thousands.js';
import type { RegressionPolicy } from './config.js';
import type { DiffSignal } from './match.js';
import type { Noise } from './noise.js';
import type { VerdictDiff } from './verdicts.js';

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
): { passed: boolean; reasons: string[]; notes: string[] } {
  const reasons: string[] = [];
  const notes: string[] = [];
  // A change the numbers cannot express (a report holding a value no run measures, summed past
  // what a double holds) is never read as "within noise": the gate fails and says why.
  const w0 = input.wastePerTrace;
  const compared = [w0.base, w0.head, w0.delta, ...(w0.interval ?? [])];
  if (compared.some((x) => !Number.isFinite(x)))
    reasons.push(
      'waste per trace is not a finite number in one of the reports (a value no run measures): the change cannot be judged',
    );
  if (policy.newSignals) {
    const min = severityRank(policy.newSignals.minSeverity);
    const bad = input.newSignals.filter((s) => severityRank(s.severity) >= min);
    if (bad.length > 0) {
      const first = bad[0]!;
      reasons.push(
        `${plural(bad.length, 'new finding')} at ${policy.newSignals.minSeverity} or worse: ${detectorCounts(bad)}` +
          ` (first: ${first.detector} in ${first.test ?? first.traceId}${first.file && !first.test ? ` (${first.file})` : ''})`,
      );
    }
  }
  const w = input.wastePerTrace;
  if (policy.wasteIncreasePct !== false && w.delta > 0) {
    const over = w.relative === null || w.relative * 100 > policy.wasteIncreasePct;
    const change = `waste per trace up${w.relative === null ? '' : ` ${pct(w.relative)}`} (${formatUsd(w.base)} → ${formatUsd(w.head)})`;
    if (over && w.label === 'up')
      reasons.push(
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
      reasons.push(
        `${change}, beyond noise; the limit is regression.verdictPassRateDrop ${policy.verdictPassRateDrop}`,
      );
    else if (v.noise.label !== 'within noise') notes.push(`${change}, but ${v.noise.label}: not gated`);
  }
  return { passed: reasons.length === 0, reasons, notes };
}
