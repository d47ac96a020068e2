/**
 * The binomial distribution's lower tail, exactly (a sum of terms, no normal approximation): the
 * reference the paired test reduces to when each task has one pass/fail run a side (the exact
 * test on discordant pairs), and the textbook check of that reduction.
 */
import { logChoose } from './logFactorial.js';

/**
 * P(X ≤ k) for X ~ Binomial(n, p). Terms are summed from k downwards, each from the one above it,
 * until they no longer change the sum; a k above the mean is 1 − the upper tail, summed the same
 * way, so that neither tail is taken as a difference of two numbers near 1.
 */
export function binomialCdf(k: number, n: number, p: number): number {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`binomialCdf: n = ${n} is not a count`);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`binomialCdf: p = ${p} is not a probability`);
  const top = Math.floor(k);
  if (top < 0) return 0;
  if (top >= n) return 1;
  if (p === 0) return 1;
  if (p === 1) return 0;
  // Above the mean the terms first grow going down: sum the other, short tail instead.
  if (top > n * p) return 1 - binomialCdf(n - top - 1, n, 1 - p);
  let term = Math.exp(logChoose(n, top) + top * Math.log(p) + (n - top) * Math.log1p(-p));
  let sum = term;
  const ratio = (1 - p) / p;
  for (let i = top; i > 0; i--) {
    term *= (i / (n - i + 1)) * ratio;
    const next = sum + term;
    if (next === sum && term < sum * 1e-17) break;
    sum = next;
  }
  return Math.min(1, sum);
}

/** P(X ≥ k) for X ~ Binomial(n, p). */
export function binomialSf(k: number, n: number, p: number): number {
  return binomialCdf(n - Math.ceil(k), n, 1 - p);
}
