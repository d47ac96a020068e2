/** Intervals, Holm's correction and the power calculation, against published and independent values. */
import { describe, expect, it } from 'vitest';
import { pairedInterval, unpairedInterval } from '../../../src/diff/stats/bootstrapIntervals.js';
import { holm } from '../../../src/diff/stats/holm.js';
import { minDetectableMeanChange, minDetectableProportionChange } from '../../../src/diff/stats/power.js';
import { newcombeInterval, wilsonInterval } from '../../../src/diff/stats/wilson.js';

const close = (got: [number, number], want: [number, number], digits = 4) => {
  expect(got[0]).toBeCloseTo(want[0], digits);
  expect(got[1]).toBeCloseTo(want[1], digits);
};

describe('score intervals', () => {
  it("give Newcombe's (1998) published Wilson intervals", () => {
    close(wilsonInterval(81, 263), [0.2553, 0.3662]);
    close(wilsonInterval(15, 148), [0.0624, 0.1605]);
    close(wilsonInterval(0, 20), [0, 0.1611]);
    close(wilsonInterval(1, 29), [0.0061, 0.1718]);
    expect(wilsonInterval(29, 29)[1]).toBe(1);
  });

  it("give Newcombe's (1998) published method-10 intervals of a difference", () => {
    // Newcombe's examples are p1 − p2; ours is head − base, so base is his second sample.
    close(newcombeInterval(48, 80, 56, 70), [0.0524, 0.3339]);
    close(newcombeInterval(3, 10, 9, 10), [0.1705, 0.809]);
    close(newcombeInterval(2, 7, 6, 7), [0.0582, 0.8062]);
    close(newcombeInterval(0, 10, 10, 10), [0.6075, 1]);
  });
});

describe('bootstrap intervals', () => {
  it('hold the mean change and are the same on every run', () => {
    const d = Array.from({ length: 50 }, (_, i): number => (i % 5 === 0 ? -1 : i % 7 === 0 ? 1 : 0));
    const mean = d.reduce((a, b) => a + b, 0) / d.length;
    const [lo, hi] = pairedInterval(d);
    expect(lo).toBeLessThan(mean);
    expect(hi).toBeGreaterThan(mean);
    expect(hi).toBeLessThan(0.1);
    expect(pairedInterval(d)).toEqual([lo, hi]);
    const [ulo, uhi] = unpairedInterval([0, 0, 1, 0, 0, 0, 1, 0, 0, 0], [1, 1, 0, 1, 1, 0, 1, 1, 1, 0]);
    expect(ulo).toBeGreaterThan(0);
    expect(uhi).toBeLessThanOrEqual(1);
  });
});

describe("Holm's correction", () => {
  it('rejects step-down and adjusts as worked by hand', () => {
    // Sorted: 0.005·4 = 0.02 ≤ 0.05 rejects; 0.01·3 = 0.03 rejects; 0.03·2 = 0.06 stops.
    const r = holm([0.01, 0.04, 0.03, 0.005], 0.05);
    expect(r.rejected).toEqual([true, false, false, true]);
    expect(r.adjusted.map((x) => Math.round(x * 1e12) / 1e12)).toEqual([0.03, 0.06, 0.06, 0.02]);
  });

  it('with weights, gives each hypothesis its share of α first and passes on the shares of those rejected', () => {
    // Success weighs half: 0.02 ≤ 0.05 · ½ rejects; the rest share α: 0.03 ≤ 0.05 · ¼ / ½ fails.
    const r = holm([0.02, 0.03, 0.5], 0.05, [2, 1, 1]);
    expect(r.rejected).toEqual([true, false, false]);
    expect(r.adjusted[0]).toBeCloseTo(0.04, 12);
    expect(r.adjusted[1]).toBeCloseTo(0.06, 12);
    // Equal weights: 0.02 · 3 = 0.06 > 0.05, nothing rejected.
    expect(holm([0.02, 0.03, 0.5], 0.05).rejected).toEqual([false, false, false]);
    expect(() => holm([0.5], 0.05, [0])).toThrow(/not positive/);
  });
});

describe('the smallest detectable change', () => {
  it('solves the two-proportion power equation (values from an independent solver)', () => {
    expect(
      minDetectableProportionChange({
        rate: 0.5,
        baseRuns: 100,
        headRuns: 100,
        direction: 'down',
        alpha: 0.05,
      }),
    ).toBeCloseTo(0.1723, 4);
    expect(
      minDetectableProportionChange({
        rate: 0.6,
        baseRuns: 20,
        headRuns: 20,
        direction: 'down',
        alpha: 0.025,
      }),
    ).toBeCloseTo(0.4195, 4);
    expect(
      minDetectableProportionChange({ rate: 0.1, baseRuns: 50, headRuns: 50, direction: 'up', alpha: 0.05 }),
    ).toBeCloseTo(0.1961, 4);
    expect(
      minDetectableMeanChange({ baseSd: 0.02, headSd: 0.03, baseRuns: 40, headRuns: 60, alpha: 0.05 }),
    ).toBeCloseTo(0.012432, 5);
  });

  it('shrinks with more runs, and says none when even the largest change would not be found', () => {
    const at = (n: number) =>
      minDetectableProportionChange({ rate: 0.6, baseRuns: n, headRuns: n, direction: 'down', alpha: 0.025 });
    expect(at(50)!).toBeLessThan(at(20)!);
    expect(at(200)!).toBeLessThan(at(50)!);
    expect(at(2)).toBeNull();
    expect(
      minDetectableProportionChange({ rate: 0, baseRuns: 50, headRuns: 50, direction: 'down', alpha: 0.05 }),
    ).toBeNull();
  });
});
