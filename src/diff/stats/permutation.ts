/**
 * The unpaired permutation test of two means (waste per run, cost per run, the judges' score), one
 * sided. Assumptions: runs are independent, and under the null both sides' runs come from one
 * distribution (exchangeable), so any split of the pooled runs into a base and a head of the same
 * sizes was as likely as the observed one. No normality is assumed: waste per run is mostly zeros
 * with a few large values, where a t-test's p-value is not to be trusted at tens of runs.
 *
 * The statistic is head's mean − base's mean. A seeded Monte Carlo of `draws` splits gives
 * p = (1 + hits) / (1 + draws) (20,000 draws; fewer, never under 2,000, when tens of thousands of
 * values would make that slow). Only non-zero values are visited per split (each goes to head with
 * the probability of the head places still open), so a run of 20,000 traces with 300 findings
 * costs 300 steps a split. Above NORMAL_ABOVE runs a side, the split statistic's distribution is
 * its normal limit and the p-value is read from it (with the pooled variance, as the permutation
 * distribution has).
 */
import type { Alternative } from './alternative.js';
import { monteCarloDraws } from './monteCarloDraws.js';
import { normalCdf } from './normal.js';
import { mulberry32 } from '../prng.js';

export interface PermutationResult {
  p: number;
  method: 'monte-carlo' | 'normal';
  draws?: number;
}

export interface PermutationOptions {
  seed?: number;
  draws?: number;
}

const DEFAULT_PERMUTATION_SEED = 0x9e37_79b9;
/** Above this many runs on a side, the normal limit (seconds of draws for no change in p). */
const NORMAL_ABOVE = 20_000;

const sum = (x: readonly number[]) => x.reduce((a, b) => a + b, 0);

export function permutationTest(
  base: readonly number[],
  head: readonly number[],
  alternative: Alternative,
  options: PermutationOptions = {},
): PermutationResult {
  for (const x of [...base, ...head])
    if (!Number.isFinite(x)) throw new RangeError(`permutationTest: a value is ${x}, not a finite number`);
  const nb = base.length;
  const nh = head.length;
  if (nb === 0 || nh === 0) return { p: 1, method: 'monte-carlo', draws: 0 };
  const n = nb + nh;
  const total = sum(base) + sum(head);
  // Every value the same (cost per run of identical calls): every split gives the observed 0.
  const first = base[0]!;
  if (base.every((x) => x === first) && head.every((x) => x === first))
    return { p: 1, method: 'monte-carlo', draws: 0 };
  const observed = sum(head) / nh - sum(base) / nb;
  if (nb > NORMAL_ABOVE && nh > NORMAL_ABOVE) {
    const mean = total / n;
    let squares = 0;
    for (const x of [...base, ...head]) squares += (x - mean) ** 2;
    // Variance of the difference of means over random splits (sampling without replacement).
    const variance = (squares / (n - 1)) * (1 / nb + 1 / nh);
    if (variance === 0) return { p: 1, method: 'normal' };
    const z = observed / Math.sqrt(variance);
    return { p: alternative === 'less' ? normalCdf(z) : normalCdf(-z), method: 'normal' };
  }
  const values = [...base, ...head].filter((x) => x !== 0);
  const slack = 1e-9 * (Math.abs(total) / Math.min(nb, nh) + Number.MIN_VALUE);
  const draws = options.draws ?? monteCarloDraws(values.length);
  const random = mulberry32(options.seed ?? DEFAULT_PERMUTATION_SEED);
  let count = 0;
  for (let r = 0; r < draws; r++) {
    // The non-zero values are the first places of the pooled list; each goes to head with the
    // chance of a uniformly random head set of size nh given the places already decided.
    let open = nh;
    let headSum = 0;
    for (let i = 0; i < values.length && open > 0; i++) {
      if (random() * (n - i) < open) {
        headSum += values[i]!;
        open--;
      }
    }
    const statistic = headSum / nh - (total - headSum) / nb;
    if (alternative === 'less' ? statistic <= observed + slack : statistic >= observed - slack) count++;
  }
  return { p: (1 + count) / (1 + draws), method: 'monte-carlo', draws };
}
