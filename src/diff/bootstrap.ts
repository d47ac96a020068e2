/**
 * A percentile bootstrap of the difference of two means: resample each side's units (traces, or
 * verdicts) with replacement, take the mean of each resample, and read the 2.5th and 97.5th
 * percentiles of head − base. The PRNG is seeded from a constant, so the interval is the same on
 * every run.
 *
 * Each side's resamples are drawn once and shared by every metric of that side (a resample is a
 * vector of how many times each unit was drawn), so one more detector costs only a pass over its
 * non-zero values, and a metric's interval does not depend on which other metrics are measured.
 */
import { mulberry32 } from './prng.js';

export const BOOTSTRAP_RESAMPLES = 2000;
export const BOOTSTRAP_CONFIDENCE = 0.95;
/** Below this many units on a side, no interval is computed: it would mostly measure luck. */
export const MIN_UNITS = 10;
/** The base side's seed; the head side uses the next one. */
export const BOOTSTRAP_SEED = 0x7ac3_2d11;

/** One metric over a side's units, stored sparsely: most traces have no finding of a detector. */
export interface SparseValues {
  index: Int32Array;
  value: Float64Array;
}

export function sparse(values: ArrayLike<number>): SparseValues {
  const index: number[] = [];
  const value: number[] = [];
  for (let i = 0; i < values.length; i++)
    if (values[i] !== 0) {
      index.push(i);
      value.push(values[i]!);
    }
  return { index: Int32Array.from(index), value: Float64Array.from(value) };
}

export function sparseFromMap(entries: ReadonlyMap<number, number>): SparseValues {
  const sorted = [...entries].filter(([, v]) => v !== 0).sort((a, b) => a[0] - b[0]);
  return {
    index: Int32Array.from(sorted.map(([i]) => i)),
    value: Float64Array.from(sorted.map(([, v]) => v)),
  };
}

/**
 * Above this many units on a side, resample means are drawn from their normal limit (mean ± z ·
 * standard error, z seeded as the resamples are) instead of by resampling: by then the bootstrap
 * distribution of a mean is that normal, and drawing 2,000 × n units took seconds at 100,000 traces.
 */
export const NORMAL_ABOVE = 20_000;

/** The mean of every resample of `n` units, per metric: `means[metric][resample]`. */
export function resampleMeans(
  n: number,
  metrics: readonly SparseValues[],
  seed: number,
  resamples = BOOTSTRAP_RESAMPLES,
): Float64Array[] {
  const random = mulberry32(seed);
  if (n > NORMAL_ABOVE) return normalMeans(n, metrics, random, resamples);
  const means = metrics.map(() => new Float64Array(resamples));
  const drawn = new Int32Array(n);
  for (let r = 0; r < resamples; r++) {
    drawn.fill(0);
    for (let k = 0; k < n; k++) drawn[(random() * n) | 0]!++;
    for (let m = 0; m < metrics.length; m++) {
      const { index, value } = metrics[m]!;
      let sum = 0;
      for (let j = 0; j < index.length; j++) sum += value[j]! * drawn[index[j]!]!;
      means[m]![r] = sum / n;
    }
  }
  return means;
}

/** The central `confidence` interval of head − base over paired resamples (nearest rank). */
export function deltaInterval(
  base: Float64Array,
  head: Float64Array,
  confidence = BOOTSTRAP_CONFIDENCE,
): [number, number] {
  const deltas = new Float64Array(base.length);
  for (let r = 0; r < base.length; r++) deltas[r] = head[r]! - base[r]!;
  deltas.sort();
  const tail = (1 - confidence) / 2;
  const lo = deltas[Math.max(0, Math.floor(tail * deltas.length))]!;
  const hi = deltas[Math.min(deltas.length - 1, Math.ceil((1 - tail) * deltas.length) - 1)]!;
  return [lo, hi];
}

function normalMeans(
  n: number,
  metrics: readonly SparseValues[],
  random: () => number,
  resamples: number,
): Float64Array[] {
  const moments = metrics.map(({ value }) => {
    let sum = 0;
    let squares = 0;
    for (const x of value) {
      sum += x;
      squares += x * x;
    }
    const mean = sum / n;
    return { mean, se: Math.sqrt(Math.max(0, squares / n - mean * mean) / n) };
  });
  const means = metrics.map(() => new Float64Array(resamples));
  for (let r = 0; r < resamples; r++) {
    // Box–Muller; 1 − u keeps the logarithm finite.
    const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    for (let m = 0; m < metrics.length; m++) means[m]![r] = moments[m]!.mean + z * moments[m]!.se;
  }
  return means;
}
