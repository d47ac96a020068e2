/** matchTrajectory's four modes, each with traces that pass and traces that fail. */
import { describe, expect, it } from 'vitest';
import { matchTrajectory } from '../../src/trajectory/matchTrajectory.js';
import { llm, makeTrace, tool } from '../helpers/traceBuilder.js';

// Steps: 1 llm, 2 search, 3 llm, 4 book, 5 email.
const booking = makeTrace([
  llm(),
  tool('search', { args: { q: 'flights to SEA' } }),
  llm(),
  tool('book', { args: { flight: 'HAT136' } }),
  tool('email', { args: { to: 'mia@example.com' } }),
]);
const search = { name: 'search', args: { q: 'flights to SEA' } };
const book = { name: 'book', args: { flight: 'HAT136' } };
const email = { name: 'email', args: { to: 'mia@example.com' } };

describe('strict', () => {
  it('passes on the same calls in the same order, and reports nothing', () => {
    const r = matchTrajectory(booking, [search, book, email], { mode: 'strict' });
    expect(r).toMatchObject({
      pass: true,
      mode: 'strict',
      missing: [],
      extra: [],
      mismatched: [],
      outOfOrder: [],
    });
    expect(r.calls.map((c) => [c.expected?.index, c.actual?.step, c.marks])).toEqual([
      [0, 2, ['ok']],
      [1, 4, ['ok']],
      [2, 5, ['ok']],
    ]);
  });

  it('fails on a missing call and names it by its index in expected', () => {
    const r = matchTrajectory(booking, [search, book, { name: 'refund' }, email], { mode: 'strict' });
    expect(r.pass).toBe(false);
    expect(r.missing).toEqual([{ index: 2, name: 'refund' }]);
    expect(r.extra).toEqual([]);
    expect(r.mismatched).toEqual([]);
  });

  it('fails on an extra call and names it by its step number', () => {
    const r = matchTrajectory(booking, [search, email], { mode: 'strict' });
    expect(r.pass).toBe(false);
    expect(r.extra).toEqual([{ step: 4, name: 'book', args: { flight: 'HAT136' } }]);
    expect(r.missing).toEqual([]);
  });

  it('fails on an empty trace when calls were expected, and passes an empty expectation on one', () => {
    expect(matchTrajectory(makeTrace([llm()]), [book], { mode: 'strict' }).pass).toBe(false);
    expect(matchTrajectory(makeTrace([llm()]), [], { mode: 'strict' }).pass).toBe(true);
  });

  it('keeps every call after one inserted call aligned', () => {
    const trace = makeTrace([
      tool('search', { args: { q: 'a' } }),
      tool('search', { args: { q: 'b' } }),
      tool('book', { args: { flight: 'X1' } }),
      tool('pay', { args: { amount: 5 } }),
      tool('email', { args: {} }),
    ]);
    const r = matchTrajectory(
      trace,
      [
        { name: 'search', args: { q: 'a' } },
        { name: 'book', args: { flight: 'X1' } },
        { name: 'pay', args: { amount: 5 } },
        { name: 'email', args: {} },
      ],
      { mode: 'strict' },
    );
    expect(r.pass).toBe(false);
    expect(r.extra).toEqual([{ step: 2, name: 'search', args: { q: 'b' } }]);
    expect(r.missing).toEqual([]);
    expect(r.mismatched).toEqual([]);
    expect(r.outOfOrder).toEqual([]);
  });

  it('fails when every call happened but out of order, and says which', () => {
    const r = matchTrajectory(booking, [search, email, book], { mode: 'strict' });
    expect(r.pass).toBe(false);
    expect(r.missing).toEqual([]);
    expect(r.extra).toEqual([]);
    expect(r.mismatched).toEqual([]);
    expect(r.outOfOrder).toHaveLength(1);
    // Either email or book is the displaced one; it is named with both places.
    const [moved] = r.outOfOrder;
    expect([
      { index: 1, step: 5, name: 'email', args: email.args },
      { index: 2, step: 4, name: 'book', args: book.args },
    ]).toContainEqual(moved);
  });

  it('reports a swapped pair of calls as out of order, not as missing and extra', () => {
    const trace = makeTrace([tool('b'), tool('a')]);
    const r = matchTrajectory(trace, [{ name: 'a' }, { name: 'b' }], { mode: 'strict' });
    expect(r.pass).toBe(false);
    expect(r.outOfOrder.map((o) => o.name)).toHaveLength(1);
    expect(r.missing).toEqual([]);
    expect(r.extra).toEqual([]);
  });

  it('counts a repeated call as extra even when both repetitions have the right arguments', () => {
    const trace = makeTrace([tool('book', { args: book.args }), tool('book', { args: book.args })]);
    const r = matchTrajectory(trace, [book], { mode: 'strict' });
    expect(r.pass).toBe(false);
    expect(r.extra).toEqual([{ step: 2, name: 'book', args: book.args }]);
  });
});

describe('unordered', () => {
  it('passes on the same calls in any order', () => {
    expect(matchTrajectory(booking, [email, book, search], { mode: 'unordered' }).pass).toBe(true);
  });

  it('is a multiset: a call made twice but expected once is extra', () => {
    const trace = makeTrace([tool('search'), tool('search'), tool('book')]);
    const r = matchTrajectory(trace, [{ name: 'book' }, { name: 'search' }], { mode: 'unordered' });
    expect(r.pass).toBe(false);
    expect(r.extra).toEqual([{ step: 2, name: 'search' }]);
  });

  it('fails on a missing call, and never reports order', () => {
    const r = matchTrajectory(booking, [email, { name: 'refund' }, book, search], { mode: 'unordered' });
    expect(r.pass).toBe(false);
    expect(r.missing).toEqual([{ index: 1, name: 'refund' }]);
    expect(r.outOfOrder).toEqual([]);
  });

  it('does not let an expectation without args take the only call a stricter one could match', () => {
    const trace = makeTrace([tool('search', { args: { q: 'x' } }), tool('search', { args: { q: 'y' } })]);
    const r = matchTrajectory(trace, [{ name: 'search' }, { name: 'search', args: { q: 'x' } }], {
      mode: 'unordered',
    });
    expect(r).toMatchObject({ pass: true, mismatched: [], missing: [], extra: [] });
  });
});

describe('subset', () => {
  it('passes when every call made was expected, even if some expected calls are missing', () => {
    const r = matchTrajectory(booking, [search, book, email, { name: 'refund' }], { mode: 'subset' });
    expect(r.pass).toBe(true);
    // The missing call is still reported, for a reviewer; it just does not fail subset mode.
    expect(r.missing).toEqual([{ index: 3, name: 'refund' }]);
  });

  it('fails on a call nobody expected', () => {
    const r = matchTrajectory(booking, [search, book], { mode: 'subset' });
    expect(r.pass).toBe(false);
    expect(r.extra.map((x) => x.name)).toEqual(['email']);
  });

  it('ignores order', () => {
    expect(matchTrajectory(booking, [email, search, book], { mode: 'subset' }).pass).toBe(true);
  });
});

describe('superset', () => {
  it('passes when every expected call happened, whatever else the agent did', () => {
    const r = matchTrajectory(booking, [book], { mode: 'superset' });
    expect(r.pass).toBe(true);
    expect(r.extra.map((x) => x.step)).toEqual([2, 5]);
  });

  it('fails when an expected call did not happen', () => {
    const r = matchTrajectory(booking, [book, { name: 'refund' }], { mode: 'superset' });
    expect(r.pass).toBe(false);
    expect(r.missing).toEqual([{ index: 1, name: 'refund' }]);
  });

  it('needs as many calls as expected: two expected refunds are not met by one', () => {
    const trace = makeTrace([tool('refund')]);
    const r = matchTrajectory(trace, [{ name: 'refund' }, { name: 'refund' }], { mode: 'superset' });
    expect(r.pass).toBe(false);
    expect(r.missing).toEqual([{ index: 1, name: 'refund' }]);
  });
});

describe('mismatched arguments fail every mode', () => {
  const wrong = makeTrace([tool('book', { args: { flight: 'HAT999' } })]);
  it.each(['strict', 'unordered', 'subset', 'superset'] as const)('%s', (mode) => {
    const r = matchTrajectory(wrong, [book], { mode });
    expect(r.pass).toBe(false);
    expect(r.mismatched).toHaveLength(1);
    expect(r.missing).toEqual([]);
    expect(r.extra).toEqual([]);
  });
});
