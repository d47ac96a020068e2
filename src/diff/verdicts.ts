/**
 * The judges' pass rate in each report: passed verdicts over all verdicts (an indeterminate
 * verdict is not a pass: the tribunal fails closed), with a bootstrap interval over verdicts as
 * noise.ts gives traces.
 */
import { z } from 'zod';
import type { Report } from '../report/schema.js';
import { sparse } from './bootstrap.js';
import { measureNoise, NoiseSchema } from './noise.js';

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
  /** null when either side has no verdict. */
  noise: NoiseSchema.nullable(),
});
export type VerdictDiff = z.infer<typeof VerdictDiffSchema>;

const rate = (r: Report) => {
  const passed = r.verdicts.filter((v) => v.passed && !v.indeterminate).length;
  const total = r.verdicts.length;
  return { passed, total, rate: total === 0 ? null : passed / total };
};

const passes = (r: Report) => sparse(r.verdicts.map((v) => (v.passed && !v.indeterminate ? 1 : 0)));

export function verdictDiff(base: Report, head: Report): VerdictDiff {
  const b = rate(base);
  const h = rate(head);
  if (b.rate === null || h.rate === null) return { base: b, head: h, delta: null, noise: null };
  const [noise] = measureNoise(b.total, h.total, [[passes(base), passes(head)]], 'verdicts');
  return { base: b, head: h, delta: noise!.delta, noise: noise! };
}
