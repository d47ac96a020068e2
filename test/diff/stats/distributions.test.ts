/** The normal, binomial and hypergeometric (Fisher) pieces, against published and hand-worked values. */
import { describe, expect, it } from 'vitest';
import { binomialCdf, binomialSf } from '../../../src/diff/stats/binomial.js';
import { fisherExact } from '../../../src/diff/stats/fisher.js';
import { logFactorial } from '../../../src/diff/stats/logFactorial.js';
import { normalCdf, normalQuantile } from '../../../src/diff/stats/normal.js';

describe('the normal distribution', () => {
  it('gives the tabled values of Φ and its inverse', () => {
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(-1)).toBeCloseTo(0.15865525393145707, 14);
    expect(normalCdf(1.96)).toBeCloseTo(0.9750021048517795, 14);
    expect(normalCdf(-40)).toBe(0);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 12);
    expect(normalQuantile(0.05)).toBeCloseTo(-1.6448536269514729, 12);
    expect(normalQuantile(1e-10)).toBeCloseTo(-6.361340902404056, 9);
    for (const p of [0.001, 0.2, 0.5, 0.8, 0.999]) expect(normalCdf(normalQuantile(p))).toBeCloseTo(p, 14);
  });
});

describe('ln n!', () => {
  it('is exact from the table and agrees with the table across the switch to Stirling', () => {
    expect(logFactorial(0)).toBe(0);
    expect(logFactorial(5)).toBeCloseTo(Math.log(120), 14);
    let direct = 0;
    for (let i = 2; i <= 300; i++) direct += Math.log(i);
    expect(logFactorial(300)).toBeCloseTo(direct, 9);
    expect(() => logFactorial(-1)).toThrow(/not a non-negative integer/);
  });
});

describe('the binomial tails', () => {
  it("gives SciPy's documented binomtest example (3 unsafe cars of 15, p = 0.1, alternative greater)", () => {
    expect(binomialSf(3, 15, 0.1)).toBeCloseTo(0.18406106910639114, 12);
  });

  it('sums hand-countable tails exactly', () => {
    // P(X ≤ 3), X ~ Bin(14, ½) = (1 + 14 + 91 + 364) / 2^14.
    expect(binomialCdf(3, 14, 0.5)).toBeCloseTo(470 / 16384, 15);
    expect(binomialCdf(0, 10, 0.5)).toBeCloseTo(1 / 1024, 15);
    expect(binomialCdf(10, 10, 0.3)).toBe(1);
    expect(binomialCdf(-1, 10, 0.3)).toBe(0);
  });

  it('keeps the far tails and the upper part of the CDF accurate at large n', () => {
    // Above the mean, the CDF is 1 minus a tail that underflows if summed from its own end.
    expect(binomialCdf(1500, 2000, 0.01)).toBe(1);
    expect(binomialCdf(950, 2000, 0.5) + binomialSf(951, 2000, 0.5)).toBeCloseTo(1, 12);
    expect(binomialCdf(900, 2000, 0.5)).toBeGreaterThan(0);
    expect(binomialCdf(900, 2000, 0.5)).toBeLessThan(1e-5);
  });
});

describe("Fisher's exact test, one-sided", () => {
  // SciPy's documented example: whales 8 of 9 animals in the Atlantic, 2 of 7 in the Indian ocean.
  // fisher_exact([[8, 2], [1, 5]], alternative='greater') = 0.0244755…, which is (C(10,8)·C(6,1) +
  // C(10,9)·C(6,0)) / C(16,9) = (270 + 10) / 11440 = 7/286 worked by hand.
  const whales = { baseSuccesses: 8, baseRuns: 9, headSuccesses: 2, headRuns: 7 };

  it("gives SciPy's documented value for a head proportion below base's", () => {
    expect(fisherExact(whales, 'less')).toBeCloseTo(7 / 286, 15);
    expect(fisherExact(whales, 'less')).toBeCloseTo(0.024475524475524483, 14);
  });

  it('gives the other tail as 1 − P(the single most extreme table)', () => {
    expect(fisherExact(whales, 'greater')).toBeCloseTo(1 - 10 / 11440, 14);
  });

  it('is symmetric in which side is called base', () => {
    const swapped = { baseSuccesses: 2, baseRuns: 7, headSuccesses: 8, headRuns: 9 };
    expect(fisherExact(swapped, 'greater')).toBeCloseTo(fisherExact(whales, 'less'), 14);
  });

  it('handles large samples and empty sides', () => {
    const big = { baseSuccesses: 6600, baseRuns: 10000, headSuccesses: 6500, headRuns: 10000 };
    const p = fisherExact(big, 'less');
    expect(p).toBeGreaterThan(0.05);
    expect(p).toBeLessThan(0.08);
    expect(fisherExact({ baseSuccesses: 0, baseRuns: 0, headSuccesses: 3, headRuns: 5 }, 'less')).toBe(1);
    expect(() => fisherExact({ ...whales, headSuccesses: 8 }, 'less')).toThrow(/more successes than runs/);
  });
});
