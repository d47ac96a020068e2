import { describe, expect, it } from 'vitest';
import { percentile } from '../../src/baseline/percentile.js';
import { baselineLookup, emptyBaselines, updateBaselines } from '../../src/baseline/store.js';
import { llm, makeTrace, tool } from '../helpers/traceBuilder.js';

const run = (id: string, tools: number, fields: object = {}) =>
  makeTrace([llm(), ...Array.from({ length: tools }, () => tool('search'))], {
    id,
    agentId: 'a',
    agentVersion: '1',
    ...fields,
  });

describe('per-agent baselines', () => {
  it('computes P75 with linear interpolation', () => {
    expect(percentile([1, 2, 3, 4, 5], 75)).toBe(4);
    expect(percentile([10, 20], 75)).toBe(17.5);
  });

  it('answers only from the 20th successful run on (static fallback before)', () => {
    let store = emptyBaselines();
    store = updateBaselines(
      store,
      Array.from({ length: 19 }, (_, i) => run(`r${i}`, 4)),
    );
    expect(baselineLookup(store)('a', '1', 'stepCount')).toBeUndefined();
    store = updateBaselines(store, [run('r19', 4)]);
    expect(baselineLookup(store)('a', '1', 'stepCount')).toEqual({ p75: 5, runs: 20 });
  });

  it('ignores failed runs and keeps versions apart', () => {
    let store = updateBaselines(
      emptyBaselines(),
      Array.from({ length: 25 }, (_, i) => run(`ok${i}`, 2)),
    );
    store = updateBaselines(
      store,
      Array.from({ length: 25 }, (_, i) => run(`bad${i}`, 40, { status: 'error' })),
    );
    expect(baselineLookup(store)('a', '1', 'stepCount')).toEqual({ p75: 3, runs: 25 });
    expect(baselineLookup(store)('a', '2', 'stepCount')).toBeUndefined();
  });

  it('keeps only the newest 50 runs', () => {
    let store = updateBaselines(
      emptyBaselines(),
      Array.from({ length: 50 }, (_, i) => run(`old${i}`, 1)),
    );
    store = updateBaselines(
      store,
      Array.from({ length: 50 }, (_, i) => run(`new${i}`, 9)),
    );
    expect(store.agents['a@1']!.runs).toHaveLength(50);
    expect(baselineLookup(store)('a', '1', 'stepCount')).toEqual({ p75: 10, runs: 50 });
  });

  it('re-recording a trace id replaces the earlier run instead of counting it twice', () => {
    let store = updateBaselines(emptyBaselines(), [run('same', 1)]);
    store = updateBaselines(store, [run('same', 3)]);
    expect(store.agents['a@1']!.runs).toEqual([
      expect.objectContaining({ traceId: 'same', metrics: expect.objectContaining({ stepCount: 4 }) }),
    ]);
  });
});
