/**
 * The judges' pass rate in each report: passed verdicts over all verdicts (an indeterminate
 * verdict is not a pass: the tribunal fails closed). Whether it moved beyond noise is the
 * `success` quantity's question when runs record no outcome (runs.ts), and the judges' mean score
 * is a quantity of its own.
 */
import { z } from 'zod';
import type { Report } from '../report/schema.js';
import { tidy } from './delta.js';

const RateSchema = z.object({
  passed: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  /** null with no verdict. */
  rate: z.number().min(0).max(1).nullable(),
});

export const VerdictDiffSchema = z.object({
  base: RateSchema,
  head: RateSchema,
  /** head rate − base rate; null when either side has no verdict. */
  delta: z.number().nullable(),
});
export type VerdictDiff = z.infer<typeof VerdictDiffSchema>;

const rate = (r: Report) => {
  const passed = r.verdicts.filter((v) => v.passed && !v.indeterminate).length;
  const total = r.verdicts.length;
  return { passed, total, rate: total === 0 ? null : passed / total };
};

export function verdictDiff(base: Report, head: Report): VerdictDiff {
  const b = rate(base);
  const h = rate(head);
  return { base: b, head: h, delta: b.rate === null || h.rate === null ? null : tidy(h.rate - b.rate) };
}
