/**
 * The paired sign-flip (permutation) test on per-task differences. Each task gives one number d =
 * (head's mean over its runs of the task) − (base's mean over its runs of it): runs of one task are
 * a cluster, so a task run four times weighs as one task, not four independent runs. Assumptions:
 * tasks are independent of each other, and under the null the two sides are exchangeable within a
 * task (the same agent, so d is as likely +x as −x). No normality is assumed. The statistic is the
 * sum of the d's; its null distribution is that of the sum with every sign flipped at random.
 *
 * Exact whenever it can be: when the d's sit on a lattice (means of pass/fail runs are multiples
 * of 1/k), the null distribution is computed by convolution over the lattice; with few non-zero
 * d's (ENUMERATE_UP_TO) by listing every sign pattern. Otherwise a seeded Monte Carlo of `draws`
 * sign patterns, p = (1 + hits) / (1 + draws), which is never below the exact p-value in
 * expectation (20,000 draws, fewer on tens of thousands of tasks so that one test stays near a
 * second; never under 2,000). With one pass/fail run per task a side this is exactly the one-sided exact test on
 * discordant pairs (McNemar's): p = P(Binomial(m, ½) ≤ tasks that went fail → pass), m the
 * discordant tasks.
 */
import type { Alternative } from './alternative.js';
import { mulberry32 } from '../prng.js';
import { binomialCdf, binomialSf } from './binomial.js';
import { monteCarloDraws } from './monteCarloDraws.js';

export interface SignFlipResult {
  /** One-sided p-value toward `alternative` (1 when every difference is 0). */
  p: number;
  method: 'exact' | 'monte-carlo';
  /** Sign patterns drawn (Monte Carlo only). */
  draws?: number;
  /** Tasks whose difference is not 0: the only ones the test can weigh. */
  nonZero: number;
}

export interface SignFlipOptions {
  seed?: number;
  /** Monte Carlo draws when no exact method applies (default: monteCarloDraws.ts). */
  draws?: number;
}

const DEFAULT_SEED = 0x5eed_f11b;
/** Listing 2^m sign patterns is cheap up to here. */
const ENUMERATE_UP_TO = 16;
/** The lattice's denominators tried (a task's runs a side: up to this many). */
const MAX_DENOMINATOR = 64;
/** Cells the convolution may take (its work is cells × tasks). */
const MAX_LATTICE_CELLS = 400_000;
const MAX_LATTICE_WORK = 60_000_000;

/** The smallest q ≤ MAX_DENOMINATOR with x·q an integer (to 1e-9), or undefined. */
function denominator(x: number): number | undefined {
  for (let q = 1; q <= MAX_DENOMINATOR; q++) {
    const y = x * q;
    // A value too small to reach 1 on the lattice is not on it (1e-12 dollars is not 0).
    if (Math.round(y) !== 0 && Math.abs(y - Math.round(y)) <= 1e-9 * Math.abs(y)) return q;
  }
  return undefined;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** The d's as integers on a common lattice (d = integer / scale), when one is small enough. */
function onLattice(d: readonly number[]): { values: number[]; scale: number; total: number } | undefined {
  let scale = 1;
  for (const x of d) {
    const q = denominator(x);
    if (q === undefined) return undefined;
    scale = (scale / gcd(scale, q)) * q;
    if (scale > MAX_LATTICE_CELLS) return undefined;
  }
  const values = d.map((x) => Math.round(Math.abs(x) * scale));
  const total = values.reduce((a, b) => a + b, 0);
  if (2 * total + 1 > MAX_LATTICE_CELLS || total * d.length > MAX_LATTICE_WORK) return undefined;
  return { values, scale, total };
}

/** P(S ≤ s) (`less`) or P(S ≥ s) under random signs, S = Σ ±v over integers v, by convolution. */
function latticeTail(
  values: readonly number[],
  total: number,
  observed: number,
  alternative: Alternative,
): number {
  // dist[k] = P(S = k − total); each step averages the distribution shifted by ±v.
  let dist = new Float64Array(2 * total + 1);
  let next = new Float64Array(2 * total + 1);
  dist[total] = 1;
  let reach = 0;
  for (const v of values) {
    next.fill(0, total - reach - v, total + reach + v + 1);
    for (let k = total - reach; k <= total + reach; k++) {
      const p = dist[k]!;
      if (p === 0) continue;
      next[k - v]! += p / 2;
      next[k + v]! += p / 2;
    }
    reach += v;
    [dist, next] = [next, dist];
  }
  let p = 0;
  if (alternative === 'less') for (let k = 0; k <= Math.min(2 * total, observed + total); k++) p += dist[k]!;
  else for (let k = Math.max(0, observed + total); k <= 2 * total; k++) p += dist[k]!;
  return Math.min(1, p);
}

/** Relative slack when comparing sums of floats: a flipped sum equal to the observed one counts. */
const TIE = 1e-9;

function hits(sum: number, observed: number, alternative: Alternative, scale: number): boolean {
  const slack = TIE * scale;
  return alternative === 'less' ? sum <= observed + slack : sum >= observed - slack;
}

export function signFlipTest(
  differences: readonly number[],
  alternative: Alternative,
  options: SignFlipOptions = {},
): SignFlipResult {
  for (const x of differences)
    if (!Number.isFinite(x)) throw new RangeError(`signFlipTest: a difference is ${x}, not a finite number`);
  const d = differences.filter((x) => x !== 0);
  const m = d.length;
  if (m === 0) return { p: 1, method: 'exact', nonZero: 0 };
  const observed = d.reduce((a, b) => a + b, 0);
  const abs0 = Math.abs(d[0]!);
  if (d.every((x) => Math.abs(Math.abs(x) - abs0) <= TIE * abs0)) {
    // One magnitude (one pass/fail run a task a side): S = a(2B − m), B ~ Binomial(m, ½).
    const up = d.filter((x) => x > 0).length;
    const p = alternative === 'less' ? binomialCdf(up, m, 0.5) : binomialSf(up, m, 0.5);
    return { p, method: 'exact', nonZero: m };
  }
  const lattice = onLattice(d);
  if (lattice) {
    const s = Math.round(observed * lattice.scale);
    return { p: latticeTail(lattice.values, lattice.total, s, alternative), method: 'exact', nonZero: m };
  }
  const abs = d.map(Math.abs);
  const scale = abs.reduce((a, b) => a + b, 0);
  if (m <= ENUMERATE_UP_TO) {
    let count = 0;
    for (let mask = 0; mask < 2 ** m; mask++) {
      let sum = 0;
      for (let i = 0; i < m; i++) sum += mask & (1 << i) ? abs[i]! : -abs[i]!;
      if (hits(sum, observed, alternative, scale)) count++;
    }
    return { p: count / 2 ** m, method: 'exact', nonZero: m };
  }
  const draws = options.draws ?? monteCarloDraws(m);
  const random = mulberry32(options.seed ?? DEFAULT_SEED);
  let count = 0;
  for (let r = 0; r < draws; r++) {
    let sum = 0;
    for (let i = 0; i < m; i++) sum += random() < 0.5 ? -abs[i]! : abs[i]!;
    if (hits(sum, observed, alternative, scale)) count++;
  }
  return { p: (1 + count) / (1 + draws), method: 'monte-carlo', draws, nonZero: m };
}
