/**
 * Score intervals for proportions, which keep their coverage at small counts and at rates near 0 or
 * 1 where the textbook p ± z·√(p(1−p)/n) collapses to a point:
 * - `wilsonInterval`: one proportion (Wilson 1927), e.g. a side's success rate;
 * - `newcombeInterval`: the difference of two independent proportions (Newcombe 1998, method 10,
 *   the "hybrid score" interval), built from each side's Wilson interval.
 * Assumptions: independent runs, each a success or not. Two-sided, at `confidence`.
 */
import { normalQuantile } from './normal.js';

export type Interval = [number, number];

export function wilsonInterval(successes: number, runs: number, confidence = 0.95): Interval {
  if (runs === 0) return [0, 1];
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const z2 = z * z;
  const p = successes / runs;
  const center = (p + z2 / (2 * runs)) / (1 + z2 / runs);
  const half = (z / (1 + z2 / runs)) * Math.sqrt((p * (1 - p)) / runs + z2 / (4 * runs * runs));
  // At 0 or all successes the bound is the rate itself; rounding must not leave it a hair off.
  return [
    successes === 0 ? 0 : Math.max(0, center - half),
    successes === runs ? 1 : Math.min(1, center + half),
  ];
}

/** Interval of head's proportion − base's (each side independent). */
export function newcombeInterval(
  baseSuccesses: number,
  baseRuns: number,
  headSuccesses: number,
  headRuns: number,
  confidence = 0.95,
): Interval {
  const p1 = baseRuns === 0 ? 0 : baseSuccesses / baseRuns;
  const p2 = headRuns === 0 ? 0 : headSuccesses / headRuns;
  const [l1, u1] = wilsonInterval(baseSuccesses, baseRuns, confidence);
  const [l2, u2] = wilsonInterval(headSuccesses, headRuns, confidence);
  const d = p2 - p1;
  return [d - Math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + Math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)];
}
