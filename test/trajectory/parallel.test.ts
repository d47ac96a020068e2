/**
 * Calls issued together in one model response (tool steps with one `issuedBy`) are a batch with no
 * order among themselves: strict mode matches a batch in any order, and keeps the order between
 * batches.
 */
import { describe, expect, it } from 'vitest';
import { matchTrajectory } from '../../src/trajectory/matchTrajectory.js';
import { llm, makeTrace, tool } from '../helpers/traceBuilder.js';

const weather = (city: string, issuedBy?: number) =>
  tool('get_weather', { args: { city }, ...(issuedBy !== undefined ? { issuedBy } : {}) });
const want = (city: string) => ({ name: 'get_weather', args: { city } });

describe('strict mode and parallel tool calls', () => {
  // Steps: 1 llm, 2 SF and 3 London (both issued by step 1), 4 llm.
  const parallel = makeTrace([llm(), weather('SF', 1), weather('London', 1), llm()]);

  it('matches a batch in any order', () => {
    expect(matchTrajectory(parallel, [want('SF'), want('London')]).pass).toBe(true);
    const r = matchTrajectory(parallel, [want('London'), want('SF')]);
    expect(r).toMatchObject({ pass: true, missing: [], extra: [], mismatched: [], outOfOrder: [] });
    // Laid out in the expected order, each line naming the step that issued the call.
    expect(r.calls.map((c) => [c.expected?.index, c.actual?.step, c.actual?.issuedBy, c.marks])).toEqual([
      [0, 3, 1, ['ok']],
      [1, 2, 1, ['ok']],
    ]);
  });

  it('keeps the order of calls made one response after another', () => {
    // Steps: 1 llm, 2 SF (issued by 1), 3 llm, 4 London (issued by 3).
    const sequential = makeTrace([llm(), weather('SF', 1), llm(), weather('London', 3)]);
    const r = matchTrajectory(sequential, [want('London'), want('SF')]);
    expect(r.pass).toBe(false);
    expect(r.outOfOrder).toHaveLength(1);
    // The same calls recorded without issuedBy are ordered too: nothing says they were issued together.
    expect(
      matchTrajectory(makeTrace([weather('SF'), weather('London')]), [want('London'), want('SF')]).pass,
    ).toBe(false);
  });

  it('keeps a batch between the calls before and after it', () => {
    // Steps: 1 search, 2 llm, 3 SF and 4 London (issued by 2), 5 book.
    const trace = makeTrace([tool('search'), llm(), weather('SF', 2), weather('London', 2), tool('book')]);
    const expected = [{ name: 'search' }, want('London'), want('SF'), { name: 'book' }];
    expect(matchTrajectory(trace, expected).pass).toBe(true);
    const bookFirst = [{ name: 'book' }, { name: 'search' }, want('London'), want('SF')];
    const r = matchTrajectory(trace, bookFirst);
    expect(r.pass).toBe(false);
    expect(r.outOfOrder.map((o) => o.name)).toEqual(['book']);
    // A batch's calls cannot be split around another call.
    const split = [want('SF'), { name: 'search' }, want('London'), { name: 'book' }];
    expect(matchTrajectory(trace, split).pass).toBe(false);
  });

  it('reports a wrong argument inside a batch as that call only, the others in place', () => {
    const r = matchTrajectory(parallel, [want('London'), want('Paris')]);
    expect(r.pass).toBe(false);
    expect(r.mismatched).toEqual([
      expect.objectContaining({ index: 1, step: 2, diff: '- city: "Paris"\n+ city: "SF"' }),
    ]);
    expect(r).toMatchObject({ missing: [], extra: [], outOfOrder: [] });
  });

  it('reports a call missing from the stretch a batch covers, and the batch as in place', () => {
    const trace = makeTrace([llm(), weather('SF', 1), weather('London', 1)]);
    const r = matchTrajectory(trace, [want('London'), { name: 'get_time' }, want('SF')]);
    expect(r.pass).toBe(false);
    expect(r.missing).toEqual([{ index: 1, name: 'get_time' }]);
    expect(r).toMatchObject({ extra: [], outOfOrder: [], mismatched: [] });
  });

  it('passes unordered, subset and superset as before', () => {
    for (const mode of ['unordered', 'subset', 'superset'] as const) {
      expect(matchTrajectory(parallel, [want('London'), want('SF')], { mode }).pass).toBe(true);
    }
  });

  it('matches a batch of forty calls in reverse order, and a thousand calls in sequence, quickly', () => {
    const cities = Array.from({ length: 40 }, (_, i) => `city-${i}`);
    const wide = makeTrace([llm(), ...cities.map((c) => weather(c, 1))]);
    // An exponential search over the 40! orderings would not end: the test's timeout is the bound,
    // not a clock here (a shared machine's speed says nothing about the search).
    expect(matchTrajectory(wide, [...cities].reverse().map(want)).pass).toBe(true);
    const long = Array.from({ length: 1000 }, (_, i) => `city-${i}`);
    const sequence = makeTrace(long.map((c) => weather(c)));
    expect(matchTrajectory(sequence, long.map(want)).pass).toBe(true);
  });
});
