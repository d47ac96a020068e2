/**
 * Which runs `baseline update` learns from. A baseline is "this agent's usual", so only good runs
 * belong in it: a failed or erroring run learned once makes the next failure look normal. A run is
 * left out when its status is not ok, when its recording says it failed, or when a detector made a
 * high or critical finding on it (against the baselines as they stood before the update).
 */
import type { Signal } from '../detect/signal.js';
import { isFinding } from '../report/finding.js';
import type { Trace } from '../trace/schema.js';
import { fmtInt, plural } from '../util/thousands.js';

export type LeftOutReason = 'failed outcome' | 'high findings' | 'status error' | 'status running';

/** Why the run is not learned, or undefined when it is a good run. */
export function whyNotLearned(
  trace: Pick<Trace, 'status' | 'outcome'>,
  signals: readonly Signal[],
): LeftOutReason | undefined {
  if (trace.status !== 'ok') return `status ${trace.status}`;
  if (trace.outcome && !trace.outcome.success) return 'failed outcome';
  if (signals.some((s) => isFinding(s) && (s.severity === 'high' || s.severity === 'critical')))
    return 'high findings';
  return undefined;
}

/** How many runs were left out for a reason, worded for the count: "1 failed outcome", "25 with high findings". */
const leftOutCount = (reason: LeftOutReason, n: number): string =>
  reason === 'failed outcome' ? plural(n, reason) : `${fmtInt(n)} with ${reason}`;

/** "left out 88: 60 failed outcomes, 25 with high findings, 3 with status error" (largest first). */
export function describeLeftOut(counts: ReadonlyMap<LeftOutReason, number>): string {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return 'left out none';
  const parts = [...counts.entries()]
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([reason, n]) => leftOutCount(reason, n));
  return `left out ${fmtInt(total)}: ${parts.join(', ')}`;
}
