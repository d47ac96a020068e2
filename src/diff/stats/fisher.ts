/**
 * Fisher's exact test of two proportions, one-sided. Assumptions: the runs of each side are
 * independent, and each run either succeeds or not (or has a finding or not); the test is
 * conditional on the total number of successes, so its p-value is exact (never below its level
 * under the null) at any sample size, conservative when the counts are small.
 *
 * Under the null (one success probability for both sides), given K successes among the N runs, the
 * head side's successes follow the hypergeometric distribution of n_head draws from N holding K.
 */
import type { Alternative } from './alternative.js';
import { logChoose } from './logFactorial.js';

export interface TwoProportions {
  baseSuccesses: number;
  baseRuns: number;
  headSuccesses: number;
  headRuns: number;
}

function check(t: TwoProportions): void {
  for (const [name, v] of Object.entries(t))
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`fisherExact: ${name} = ${v} is not a count`);
  if (t.baseSuccesses > t.baseRuns || t.headSuccesses > t.headRuns)
    throw new RangeError('fisherExact: more successes than runs');
}

/**
 * One-sided p-value: `less` is P(head successes ≤ observed), the evidence that head's proportion
 * is below base's; `greater` is P(head successes ≥ observed).
 */
export function fisherExact(t: TwoProportions, alternative: Alternative): number {
  check(t);
  const N = t.baseRuns + t.headRuns;
  const K = t.baseSuccesses + t.headSuccesses;
  const n = t.headRuns;
  const lo = Math.max(0, n + K - N);
  const hi = Math.min(n, K);
  if (N === 0 || n === 0 || t.baseRuns === 0) return 1;
  const logPmf = (x: number) => logChoose(K, x) + logChoose(N - K, n - x) - logChoose(N, n);
  /** P(X ≤ x) (`down`) or P(X ≥ x) (`up`), summed outward from x, each term from its neighbour. */
  const tail = (x: number, down: boolean): number => {
    if (x < lo) return down ? 0 : 1;
    if (x > hi) return down ? 1 : 0;
    let term = Math.exp(logPmf(x));
    let sum = term;
    if (down)
      for (let y = x; y > lo; y--) {
        // pmf(y-1)/pmf(y) = y (N-K-n+y) / ((K-y+1)(n-y+1))
        term *= (y * (N - K - n + y)) / ((K - y + 1) * (n - y + 1));
        sum += term;
      }
    else
      for (let y = x; y < hi; y++) {
        term *= ((K - y) * (n - y)) / ((y + 1) * (N - K - n + y + 1));
        sum += term;
      }
    return Math.min(1, sum);
  };
  const x0 = t.headSuccesses;
  const mean = (n * K) / N;
  // A tail that holds the mean is 1 minus the other one: its own first term may underflow.
  if (alternative === 'less') return x0 > mean ? Math.max(0, 1 - tail(x0 + 1, false)) : tail(x0, true);
  return x0 < mean ? Math.max(0, 1 - tail(x0 - 1, true)) : tail(x0, false);
}
