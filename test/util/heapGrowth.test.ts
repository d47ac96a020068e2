/**
 * The CLI bounds how far V8's heap grows past its live data (peak RSS at 1 GB follows the data),
 * unless the user chose V8's heap settings themselves.
 */
import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, heapGrowthFlag } from '../../src/util/heapGrowth.js';

describe('heapGrowthFlag', () => {
  it('bounds the growth when nothing else was asked', () => {
    expect(heapGrowthFlag([], undefined)).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag(['--enable-source-maps'], '--no-warnings')).toBe(
      `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
    );
  });

  it("keeps the user's own heap settings, on node's command line or in NODE_OPTIONS, either spelling", () => {
    expect(heapGrowthFlag(['--max-old-space-size=4096'], undefined)).toBeUndefined();
    expect(heapGrowthFlag(['--heap_growing_percent=10'], undefined)).toBeUndefined();
    expect(heapGrowthFlag([], '--no-warnings --max_old_space_size=512')).toBeUndefined();
    expect(heapGrowthFlag([], '--heap-growing-percent=80')).toBeUndefined();
  });
});
