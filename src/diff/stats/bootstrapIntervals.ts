/**
 * Percentile bootstrap intervals of a change, seeded so that a diff is the same on every run:
 * - `pairedInterval`: the mean of per-task differences, resampling tasks with replacement (the
 *   unit of the paired test; runs of one task stay together, as clustered standard errors do);
 *   above 20,000 tasks, the normal limit (mean ± z · standard error);
 * - `unpairedInterval`: head's mean − base's mean, resampling each side's runs (bootstrap.ts,
 *   which also takes the normal limit above 20,000 runs a side).
 * Assumptions: tasks (paired) or runs (unpaired) independent; the interval is approximate and
 * narrow at a handful of units, which is why the gate decides on the tests, not on it.
 */
import { deltaInterval, NORMAL_ABOVE, resampleMeans, sparse } from '../bootstrap.js';
import { normalQuantile } from './normal.js';
import { mulberry32 } from '../prng.js';
import type { Interval } from './wilson.js';

const INTERVAL_RESAMPLES = 2000;
const PAIRED_SEED = 0x2b7e_1516;
const UNPAIRED_SEED = 0x7ac3_2d11;

function percentile(sorted: Float64Array, confidence: number): Interval {
  const tail = (1 - confidence) / 2;
  const lo = sorted[Math.max(0, Math.floor(tail * sorted.length))]!;
  const hi = sorted[Math.min(sorted.length - 1, Math.ceil((1 - tail) * sorted.length) - 1)]!;
  return [lo, hi];
}

export function pairedInterval(
  differences: readonly number[],
  confidence = 0.95,
  seed = PAIRED_SEED,
  resamples = INTERVAL_RESAMPLES,
): Interval {
  const n = differences.length;
  if (n === 0) return [0, 0];
  // Every task moved the same (often: not at all): every resample has that mean.
  if (differences.every((x) => x === differences[0])) return [differences[0]!, differences[0]!];
  if (n > NORMAL_ABOVE) {
    // The bootstrap distribution of a mean of this many tasks is its normal limit.
    const m = differences.reduce((a, b) => a + b, 0) / n;
    const se = Math.sqrt(differences.reduce((a, x) => a + (x - m) ** 2, 0) / n / n);
    const z = normalQuantile(1 - (1 - confidence) / 2);
    return [m - z * se, m + z * se];
  }
  const random = mulberry32(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let k = 0; k < n; k++) s += differences[(random() * n) | 0]!;
    means[r] = s / n;
  }
  means.sort();
  return percentile(means, confidence);
}

export function unpairedInterval(
  base: readonly number[],
  head: readonly number[],
  confidence = 0.95,
  seed = UNPAIRED_SEED,
): Interval {
  const constant = (x: readonly number[]) => x.every((v) => v === x[0]);
  if (base.length > 0 && head.length > 0 && constant(base) && constant(head)) {
    const d = head[0]! - base[0]!;
    return [d, d];
  }
  const [b] = resampleMeans(base.length, [sparse(base)], seed);
  const [h] = resampleMeans(head.length, [sparse(head)], seed + 1);
  return deltaInterval(b!, h!, confidence);
}
