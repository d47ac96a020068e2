/** A number in the base report and in the head report, and how it moved. */
import { z } from 'zod';

export const DeltaSchema = z.object({
  base: z.number(),
  head: z.number(),
  /** head − base. */
  delta: z.number(),
  /** delta / base; null when base is 0 (a change from nothing has no ratio). */
  relative: z.number().nullable(),
});
export type Delta = z.infer<typeof DeltaSchema>;

/**
 * Rounded to 12 significant decimals so that sums of dollars that are equal on both sides
 * (0.1 + 0.2 against 0.3) give a delta of 0, not 5.5e-17 shown as "+$0.00".
 */
export const tidy = (x: number): number =>
  // Past 1e3, x · 1e12 no longer holds 12 decimals (and near 1e308 it overflows): left as it is.
  Number.isFinite(x) && Math.abs(x) < 1e3 ? Math.round(x * 1e12) / 1e12 || 0 : x;

export function delta(base: number, head: number): Delta {
  const d = tidy(head - base);
  return { base, head, delta: d, relative: base === 0 ? null : tidy(d / base) };
}
