/**
 * nestingProblem on values whose objects are reached from several parents (what importers build:
 * one message object in every later prompt). The walk goes path by path until that grows long,
 * then object by object: the answer is the same either way, and a value with exponentially many
 * paths still answers at once.
 */
import { describe, expect, it } from 'vitest';
import { MAX_NESTING, nestingProblem } from '../../src/trace/nesting.js';

/** `levels` arrays, each holding the next one twice: 2^levels paths to the leaf. */
function doubling(levels: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < levels; i++) v = [v, v];
  return v;
}

/** `levels` objects nested one in another. */
function chain(levels: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

describe('nestingProblem on shared values', () => {
  it('finds a value within the limit through 2^40 paths without walking them all', () => {
    const value = doubling(40, chain(10));
    // Walking the 2^40 paths would not end: the test's timeout is the bound, not a clock here.
    expect(nestingProblem(value, { shared: true })).toBeUndefined();
  });

  it('finds one too deep through 2^40 paths, and where', () => {
    const value = doubling(40, chain(MAX_NESTING));
    const problem = nestingProblem(value, { shared: true });
    expect(problem?.message).toBe(`nested deeper than ${MAX_NESTING} levels of objects and arrays`);
    expect(problem?.path).toEqual([0, 0, 0, 0, 0, 0, 0, 0, '…']);
  });

  it('measures a shared object at its deepest place, as a walk of every path does', () => {
    // The same object right under the top and again 60 levels down: 60 + its 10 is past 64.
    const shared = chain(10);
    let deepPlace: unknown = shared;
    for (let i = 0; i < 60; i++) deepPlace = { b: deepPlace };
    expect(nestingProblem({ near: shared, far: deepPlace }, { shared: true })).toBeDefined();
    expect(nestingProblem({ near: shared, far: deepPlace })).toBeDefined();
    // And past the budget of the path-by-path walk, with the map.
    expect(nestingProblem({ many: doubling(30, shared), far: deepPlace }, { shared: true })).toBeDefined();
  });

  it('takes a value exactly at the limit and refuses one level more', () => {
    // chain(n) holds n objects: the top one at depth 0, the last at depth n - 1.
    expect(nestingProblem(doubling(30, chain(MAX_NESTING - 30)), { shared: true })).toBeUndefined();
    expect(nestingProblem(doubling(30, chain(MAX_NESTING - 29)), { shared: true })).toBeDefined();
    expect(nestingProblem(chain(MAX_NESTING))).toBeUndefined();
    expect(nestingProblem(chain(MAX_NESTING + 1))).toBeDefined();
  });
});
