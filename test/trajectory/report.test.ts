/** What a failed match reports: mismatched pairs with their diffs, and the diff text itself. */
import { describe, expect, it } from 'vitest';
import { argsDiff } from '../../src/trajectory/argsDiff.js';
import { matchTrajectory } from '../../src/trajectory/matchTrajectory.js';
import { makeTrace, tool } from '../helpers/traceBuilder.js';

const expectedBooking = {
  user_id: 'mia_li_3668',
  flights: [{ flight_number: 'HAT136', date: '2024-05-20' }],
  passengers: [{ first_name: 'Mia', last_name: 'Li', dob: '1990-04-05' }],
  insurance: 'no',
};

describe('mismatched pairing', () => {
  it('pairs a same-name call with different args as one mismatch, with both args and a diff', () => {
    const actual = {
      insurance: 'no',
      passengers: [{ dob: '1990-05-04', last_name: 'Li', first_name: 'Mia' }],
      flights: [{ flight_number: 'HAT136', date: '2024-05-20' }],
      user_id: 'mia_li_3668',
    };
    const trace = makeTrace([tool('get_user_details'), tool('book_reservation', { args: actual })]);
    const r = matchTrajectory(trace, [{ name: 'book_reservation', args: expectedBooking }], {
      mode: 'superset',
    });
    expect(r.pass).toBe(false);
    expect(r.missing).toEqual([]);
    expect(r.mismatched).toEqual([
      {
        index: 0,
        step: 2,
        name: 'book_reservation',
        expectedArgs: expectedBooking,
        actualArgs: actual,
        diff: '- passengers[0].dob: "1990-04-05"\n+ passengers[0].dob: "1990-05-04"',
      },
    ]);
  });

  it('in strict mode pairs a mismatch in place, keeping the calls around it matched', () => {
    const trace = makeTrace([tool('a'), tool('b', { args: { n: 2 } }), tool('c')]);
    const r = matchTrajectory(trace, [{ name: 'a' }, { name: 'b', args: { n: 1 } }, { name: 'c' }], {
      mode: 'strict',
    });
    expect(r).toMatchObject({ pass: false, missing: [], extra: [], outOfOrder: [] });
    expect(r.mismatched.map((m) => [m.index, m.step])).toEqual([[1, 2]]);
  });

  it('prefers an exact later call to a mismatch with an earlier one', () => {
    const trace = makeTrace([tool('b', { args: { n: 9 } }), tool('b', { args: { n: 1 } })]);
    const r = matchTrajectory(trace, [{ name: 'b', args: { n: 1 } }], { mode: 'strict' });
    expect(r.mismatched).toEqual([]);
    expect(r.extra).toEqual([{ step: 1, name: 'b', args: { n: 9 } }]);
  });

  it('reports a different tool in place of the expected one as missing plus extra', () => {
    const trace = makeTrace([tool('cancel')]);
    const r = matchTrajectory(trace, [{ name: 'refund' }], { mode: 'strict' });
    expect(r).toMatchObject({
      pass: false,
      mismatched: [],
      missing: [{ index: 0, name: 'refund' }],
      extra: [{ step: 1, name: 'cancel' }],
    });
  });
});

describe('a strict mismatch reports every problem at once', () => {
  it('a wrong argument does not hide that the same call is out of order', () => {
    // Expected a then b(x); the agent called b(y) first, then a.
    const trace = makeTrace([tool('b', { args: { x: 2 } }), tool('a')]);
    const r = matchTrajectory(trace, [{ name: 'a' }, { name: 'b', args: { x: 1 } }], { mode: 'strict' });
    expect(r.mismatched).toEqual([expect.objectContaining({ index: 1, step: 1, diff: '- x: 1\n+ x: 2' })]);
    expect(r.outOfOrder).toEqual([{ index: 1, step: 1, name: 'b', args: { x: 1 } }]);
    expect(r.calls.map((c) => [c.actual?.step, c.marks])).toEqual([
      [1, ['outOfOrder', 'wrongArgs']],
      [2, ['ok']],
    ]);
  });

  it('two swapped calls are one call out of order, not two argument errors', () => {
    const trace = makeTrace([tool('f', { args: { n: 2 } }), tool('f', { args: { n: 1 } })]);
    const r = matchTrajectory(trace, [
      { name: 'f', args: { n: 1 } },
      { name: 'f', args: { n: 2 } },
    ]);
    expect(r).toMatchObject({ pass: false, mismatched: [], missing: [], extra: [] });
    expect(r.outOfOrder).toHaveLength(1);
    expect(r.calls.map((c) => c.marks)).toEqual([['outOfOrder'], ['ok']]);
  });

  it('a failed call and its successful retry: the retry is the expected call, the attempt a failed extra', () => {
    const trace = makeTrace([
      tool('book', { args: { flight: 'HAT136' }, status: 'error', error: 'Error: seat map timeout' }),
      tool('book', { args: { flight: 'HAT136' } }),
    ]);
    const r = matchTrajectory(trace, [{ name: 'book', args: { flight: 'HAT136' } }]);
    expect(r.extra).toEqual([{ step: 1, name: 'book', args: { flight: 'HAT136' }, status: 'error' }]);
    expect(r.calls.map((c) => [c.actual?.step, c.expected?.index, c.marks])).toEqual([
      [1, undefined, ['extra', 'failed']],
      [2, 0, ['ok']],
    ]);
    // The same preference in the modes that ignore order.
    const unordered = matchTrajectory(trace, [{ name: 'book', args: { flight: 'HAT136' } }], {
      mode: 'unordered',
    });
    expect(unordered.extra.map((x) => x.step)).toEqual([1]);
  });

  it('a call with no recorded result still counts, marked as such', () => {
    const trace = makeTrace([tool('search'), tool('book', { status: 'unknown' })]);
    const r = matchTrajectory(trace, [{ name: 'search' }, { name: 'book' }]);
    expect(r.pass).toBe(true);
    expect(r.calls.map((c) => c.marks)).toEqual([['ok'], ['ok', 'noResult']]);
    // ignore.failedCalls leaves out failures, not calls whose outcome is unknown.
    expect(matchTrajectory(trace, [{ name: 'search' }], { ignore: { failedCalls: true } }).extra).toEqual([
      { step: 2, name: 'book', status: 'unknown' },
    ]);
  });

  it('missing, extra, wrong args and out of order together, each named once', () => {
    const trace = makeTrace([
      tool('login'),
      tool('refund', { args: { id: 'R2' } }),
      tool('search', { args: { q: 'SEA' } }),
      tool('think'),
    ]);
    const r = matchTrajectory(trace, [
      { name: 'search', args: { q: 'SEA' } },
      { name: 'login' },
      { name: 'book' },
      { name: 'refund', args: { id: 'R1' } },
    ]);
    expect(r.missing.map((m) => m.name)).toEqual(['book']);
    expect(r.extra.map((x) => x.name)).toEqual(['think']);
    expect(r.mismatched.map((m) => m.name)).toEqual(['refund']);
    expect(r.outOfOrder.map((o) => o.name)).toHaveLength(1);
    expect(r.calls.flatMap((c) => c.marks).sort()).toEqual([
      'extra',
      'missing',
      'ok',
      'outOfOrder',
      'wrongArgs',
    ]);
  });
});

describe('argsDiff', () => {
  it('is empty for equal args whatever their key order', () => {
    expect(argsDiff({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe('');
  });

  it('shows a key on one side only with only its - or + line', () => {
    expect(argsDiff({ a: 1, gone: 'x' }, { a: 1, added: true })).toBe('- gone: "x"\n+ added: true');
  });

  it('names array elements by index and extra elements on either side', () => {
    expect(argsDiff({ ids: [1, 2, 3] }, { ids: [1, 5] })).toBe('- ids[1]: 2\n+ ids[1]: 5\n- ids[2]: 3');
  });

  it('quotes keys that are not identifiers, and labels a root-level difference', () => {
    expect(argsDiff({ 'first name': 'Mia' }, { 'first name': 'Mía' })).toBe(
      '- ["first name"]: "Mia"\n+ ["first name"]: "Mía"',
    );
    expect(argsDiff('abc', { q: 'abc' })).toBe('- (args): "abc"\n+ (args): {"q":"abc"}');
  });

  it('stays short: long values are cut and many differences counted', () => {
    const long = 'x'.repeat(500);
    const line = argsDiff({ note: long }, { note: 'y' }).split('\n')[0]!;
    expect(line.length).toBeLessThan(100);
    expect(line.endsWith('…')).toBe(true);
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, i]));
    const lines = argsDiff(many, {}).split('\n');
    expect(lines).toHaveLength(12);
    expect(lines.at(-1)).toBe('… and 19 more lines');
  });
});
