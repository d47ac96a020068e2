/** The paired sign-flip test and the unpaired permutation test: exact values, and seeded false-alarm rates. */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../src/diff/prng.js';
import { binomialCdf } from '../../../src/diff/stats/binomial.js';
import { permutationTest } from '../../../src/diff/stats/permutation.js';
import { signFlipTest } from '../../../src/diff/stats/signFlip.js';

/** Per-task differences of one pass/fail run a side: `toPass` tasks +1, `toFail` −1, `same` 0. */
const discordant = (toPass: number, toFail: number, same: number) => [
  ...Array<number>(toPass).fill(1),
  ...Array<number>(toFail).fill(-1),
  ...Array<number>(same).fill(0),
];

describe('the paired sign-flip test', () => {
  it('is the exact test on discordant pairs with one pass/fail run per task a side', () => {
    // 3 tasks fail → pass, 11 pass → fail: P(Bin(14, ½) ≤ 3) = 470 / 16384, worked by hand.
    const r = signFlipTest(discordant(3, 11, 16), 'less');
    expect(r).toEqual({ p: expect.any(Number), method: 'exact', nonZero: 14 });
    expect(r.p).toBeCloseTo(470 / 16384, 14);
    // And at a size where listing sign patterns is out of the question.
    const big = signFlipTest(discordant(120, 160, 400), 'less');
    expect(big.method).toBe('exact');
    expect(big.p).toBeCloseTo(binomialCdf(120, 280, 0.5), 12);
    expect(signFlipTest(discordant(120, 160, 400), 'greater').p).toBeCloseTo(
      1 - binomialCdf(119, 280, 0.5),
      12,
    );
  });

  it('weighs a task run several times as one task (its mean), exactly', () => {
    // Two runs a side: differences in halves. Listing all 2^6 patterns by hand gives the same.
    const d = [-1, -0.5, -0.5, -1, 0.5, -0.5, 0];
    const r = signFlipTest(d, 'less');
    expect(r.method).toBe('exact');
    const abs = d.filter((x) => x !== 0).map(Math.abs);
    const observed = d.reduce((a, b) => a + b, 0);
    let hits = 0;
    for (let mask = 0; mask < 64; mask++) {
      const s = abs.reduce((acc, x, i) => acc + (mask & (1 << i) ? x : -x), 0);
      if (s <= observed + 1e-12) hits++;
    }
    expect(r.p).toBeCloseTo(hits / 64, 14);
  });

  it('gives p = 1 when nothing changed, and takes no sides on ties', () => {
    expect(signFlipTest([0, 0, 0], 'less')).toEqual({ p: 1, method: 'exact', nonZero: 0 });
    // One up, one down: half the patterns are at or below 0.
    expect(signFlipTest([1, -1], 'less').p).toBe(0.75);
  });

  it('holds its false-alarm rate at α on continuous differences (seeded Monte Carlo past 16 tasks)', () => {
    const random = mulberry32(11);
    let alarms = 0;
    const trials = 300;
    for (let t = 0; t < trials; t++) {
      // 40 tasks of waste-like differences: symmetric around 0 (the same agent on both sides).
      const d = Array.from({ length: 40 }, () => (random() - 0.5) * random() * 0.2);
      const r = signFlipTest(d, 'less', { draws: 2000, seed: 1000 + t });
      expect(r.method).toBe('monte-carlo');
      if (r.p <= 0.05) alarms++;
    }
    // 300 trials at a true 5 %: 15 expected, 27 is beyond three standard deviations.
    expect(alarms / trials).toBeLessThanOrEqual(0.09);
    expect(alarms).toBeGreaterThan(3);
  });

  it('finds a real shift and is the same on every run', () => {
    const random = mulberry32(5);
    const d = Array.from({ length: 60 }, () => random() * 0.1 - 0.08);
    const a = signFlipTest(d, 'less', { seed: 3 });
    expect(a.p).toBeLessThan(0.001);
    expect(signFlipTest(d, 'less', { seed: 3 })).toEqual(a);
    expect(() => signFlipTest([Number.NaN], 'less')).toThrow(/not a finite number/);
  });
});

describe('the unpaired permutation test of means', () => {
  it('estimates a small exact permutation p-value', () => {
    // Head holds the three largest of six values: 1 split in C(6,3) = 20, p = 0.05 exactly.
    const r = permutationTest([1, 2, 3], [4, 5, 6], 'greater', { draws: 40_000 });
    expect(r.method).toBe('monte-carlo');
    expect(r.p).toBeGreaterThan(0.045);
    expect(r.p).toBeLessThan(0.055);
    expect(permutationTest([1, 2, 3], [4, 5, 6], 'less').p).toBeGreaterThan(0.9);
  });

  it('holds its false-alarm rate at α on waste-like data (mostly zero, a few large values)', () => {
    const random = mulberry32(21);
    const draw = () => (random() < 0.2 ? -Math.log(1 - random()) * 0.05 : 0);
    let alarms = 0;
    const trials = 300;
    for (let t = 0; t < trials; t++) {
      const base = Array.from({ length: 50 }, draw);
      const head = Array.from({ length: 50 }, draw);
      if (permutationTest(base, head, 'greater', { draws: 2000, seed: t }).p <= 0.05) alarms++;
    }
    expect(alarms / trials).toBeLessThanOrEqual(0.09);
  });

  it('reads the normal limit above 20,000 runs a side', () => {
    const random = mulberry32(8);
    const base = Array.from({ length: 20_001 }, () => random());
    const head = Array.from({ length: 20_001 }, () => random() + 0.02);
    const r = permutationTest(base, head, 'greater');
    expect(r.method).toBe('normal');
    expect(r.p).toBeLessThan(1e-6);
    expect(permutationTest(base, head, 'less').p).toBeGreaterThan(0.999);
  });
});
