/**
 * Totals of each report side by side: traces, cost, waste (dollars, tokens, per 100 traces),
 * findings by detector and by severity (`status: finding`, as every report total counts), and
 * judge spend. Each as a Delta (absolute and relative).
 */
import { z } from 'zod';
import { SEVERITIES } from '../detect/signal.js';
import type { Report } from '../report/schema.js';
import { delta, DeltaSchema } from './delta.js';

export const TotalsDiffSchema = z.object({
  traces: DeltaSchema,
  costUsd: DeltaSchema,
  wasteUsd: DeltaSchema,
  wasteTokens: DeltaSchema,
  /** Waste in dollars per 100 traces (0 for a report with no trace). */
  wastePer100Traces: DeltaSchema,
  findings: DeltaSchema,
  judgeUsd: DeltaSchema,
});
export type TotalsDiff = z.infer<typeof TotalsDiffSchema>;

export const DetectorDiffSchema = z.object({
  detector: z.string(),
  findings: DeltaSchema,
  wasteUsd: DeltaSchema,
  wasteTokens: DeltaSchema,
});
export type DetectorDiff = z.infer<typeof DetectorDiffSchema>;

export const SeverityDiffSchema = z.object(
  Object.fromEntries(SEVERITIES.map((s) => [s, DeltaSchema])) as Record<
    (typeof SEVERITIES)[number],
    typeof DeltaSchema
  >,
);
export type SeverityDiff = z.infer<typeof SeverityDiffSchema>;

const per100 = (usd: number, traces: number) => (traces === 0 ? 0 : (100 * usd) / traces);
const findingsOf = (r: Report) => r.signals.filter((s) => s.status === 'finding');

export function totalsDiff(base: Report, head: Report): TotalsDiff {
  return {
    traces: delta(base.inputs.traces, head.inputs.traces),
    costUsd: delta(base.totals.costUsd, head.totals.costUsd),
    wasteUsd: delta(base.waste.totalUsd, head.waste.totalUsd),
    wasteTokens: delta(base.waste.totalTokens, head.waste.totalTokens),
    wastePer100Traces: delta(
      per100(base.waste.totalUsd, base.inputs.traces),
      per100(head.waste.totalUsd, head.inputs.traces),
    ),
    findings: delta(findingsOf(base).length, findingsOf(head).length),
    judgeUsd: delta(base.cost.judgeUsd, head.cost.judgeUsd),
  };
}

/** Per detector with a finding on either side: findings and waste, most head waste first. */
export function detectorDiffs(base: Report, head: Report): DetectorDiff[] {
  const count = (r: Report) => {
    const m = new Map<string, number>();
    for (const s of findingsOf(r)) m.set(s.detector, (m.get(s.detector) ?? 0) + 1);
    return m;
  };
  const bc = count(base);
  const hc = count(head);
  const ids = new Set([
    ...bc.keys(),
    ...hc.keys(),
    ...Object.keys(base.waste.byDetector),
    ...Object.keys(head.waste.byDetector),
  ]);
  return [...ids]
    .map((detector) => {
      const bw = base.waste.byDetector[detector];
      const hw = head.waste.byDetector[detector];
      return {
        detector,
        findings: delta(bc.get(detector) ?? 0, hc.get(detector) ?? 0),
        wasteUsd: delta(bw?.usd ?? 0, hw?.usd ?? 0),
        wasteTokens: delta(bw?.tokens ?? 0, hw?.tokens ?? 0),
      };
    })
    .sort(
      (a, b) =>
        Math.max(b.wasteUsd.head, b.wasteUsd.base) - Math.max(a.wasteUsd.head, a.wasteUsd.base) ||
        Math.max(b.findings.head, b.findings.base) - Math.max(a.findings.head, a.findings.base) ||
        (a.detector < b.detector ? -1 : a.detector > b.detector ? 1 : 0),
    );
}

export function severityDiff(base: Report, head: Report): SeverityDiff {
  const count = (r: Report, sev: string) => findingsOf(r).filter((s) => s.severity === sev).length;
  return Object.fromEntries(
    SEVERITIES.map((s) => [s, delta(count(base, s), count(head, s))]),
  ) as SeverityDiff;
}
