import { describe, expect, it } from 'vitest';
import { meanByK, passAtK, passHatK } from '../../src/report/passK.js';

describe('pass^k and pass@k (τ-bench)', () => {
  it('all attempts passed: both are 1 at every k', () => {
    expect(passHatK(4, 4)).toEqual([1, 1, 1, 1]);
    expect(passAtK(4, 4)).toEqual([1, 1, 1, 1]);
  });

  it('3 of 4 passed: pass^1 is the pass rate, pass^4 is 0 (not all passed), pass@2 is 1', () => {
    const hat = passHatK(4, 3);
    expect(hat[0]).toBeCloseTo(0.75);
    expect(hat[1]).toBeCloseTo(3 / 6); // C(3,2)/C(4,2)
    expect(hat[3]).toBe(0);
    const at = passAtK(4, 3);
    expect(at[0]).toBeCloseTo(0.75);
    expect(at[1]).toBe(1);
  });

  it('none passed: both are 0', () => {
    expect(passHatK(3, 0)).toEqual([0, 0, 0]);
    expect(passAtK(3, 0)).toEqual([0, 0, 0]);
  });

  it('averages each k over the tests that have it', () => {
    expect(meanByK([[1, 1], [0.5]])).toEqual([0.75, 1]);
  });
});
