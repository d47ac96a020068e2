/** How matchTrajectory compares arguments: exact, ignore, functions, per tool, JSON strings. */
import { describe, expect, it } from 'vitest';
import { matchTrajectory } from '../../src/trajectory/matchTrajectory.js';
import type { ArgsComparator, MatchTrajectoryOptions } from '../../src/trajectory/options.js';
import { makeTrace, tool } from '../helpers/traceBuilder.js';

const passengers = [{ first_name: 'Mia', last_name: 'Li', dob: '1990-04-05' }];
const booking = makeTrace([
  tool('search', { args: { origin: 'JFK', destination: 'SEA', date: '2024-05-20' } }),
  tool('book', { args: { flights: ['HAT136', 'HAT039'], passengers, insurance: 'no' } }),
]);

describe('exact arguments (the default)', () => {
  it('ignores object key order, at every depth', () => {
    const r = matchTrajectory(
      booking,
      [
        { name: 'search', args: { date: '2024-05-20', destination: 'SEA', origin: 'JFK' } },
        {
          name: 'book',
          args: {
            insurance: 'no',
            passengers: [{ dob: '1990-04-05', last_name: 'Li', first_name: 'Mia' }],
            flights: ['HAT136', 'HAT039'],
          },
        },
      ],
      { mode: 'strict' },
    );
    expect(r.pass).toBe(true);
  });

  it('keeps array order: the same flights in another order are different arguments', () => {
    const r = matchTrajectory(
      booking,
      [{ name: 'book', args: { flights: ['HAT039', 'HAT136'], passengers, insurance: 'no' } }],
      { mode: 'superset' },
    );
    expect(r.pass).toBe(false);
    expect(r.mismatched).toHaveLength(1);
  });

  it('treats a missing key, an extra key and a changed type as differences', () => {
    const args = { origin: 'JFK', destination: 'SEA', date: '2024-05-20' };
    const trace = makeTrace([tool('search', { args })]);
    const fails = (expected: Record<string, unknown>) =>
      matchTrajectory(trace, [{ name: 'search', args: expected }], { mode: 'strict' }).pass === false;
    expect(fails({ origin: 'JFK', destination: 'SEA' })).toBe(true);
    expect(fails({ ...args, cabin: 'economy' })).toBe(true);
    expect(fails({ ...args, date: 20240520 })).toBe(true);
    expect(fails({ ...args })).toBe(false);
  });

  it('matches any arguments of a tool when the expected call gives none', () => {
    expect(matchTrajectory(booking, [{ name: 'search' }, { name: 'book' }], { mode: 'strict' }).pass).toBe(
      true,
    );
  });

  it('takes a call recorded without arguments as called with {}', () => {
    const trace = makeTrace([tool('list_airports')]);
    expect(matchTrajectory(trace, [{ name: 'list_airports', args: {} }], { mode: 'strict' }).pass).toBe(true);
    expect(
      matchTrajectory(trace, [{ name: 'list_airports', args: { region: 'EU' } }], { mode: 'strict' }).pass,
    ).toBe(false);
  });
});

describe('arguments recorded as a JSON string', () => {
  it('are parsed before comparing', () => {
    const trace = makeTrace([
      tool('book', { args: '{"passengers":[{"dob":"1990-04-05"}],"insurance":"no"}' }),
    ]);
    const expected = [{ name: 'book', args: { insurance: 'no', passengers: [{ dob: '1990-04-05' }] } }];
    expect(matchTrajectory(trace, expected, { mode: 'strict' }).pass).toBe(true);
    const other = [{ name: 'book', args: { insurance: 'yes', passengers: [{ dob: '1990-04-05' }] } }];
    const r = matchTrajectory(trace, other, { mode: 'strict' });
    expect(r.pass).toBe(false);
    // Reported parsed, so the diff is path by path rather than one long string.
    expect(r.mismatched[0]!.actualArgs).toEqual({ passengers: [{ dob: '1990-04-05' }], insurance: 'no' });
    expect(r.mismatched[0]!.diff).toBe('- insurance: "yes"\n+ insurance: "no"');
  });

  it('are kept as the string when they are not JSON (what the agent wrote)', () => {
    const trace = makeTrace([tool('book', { args: '{"insurance": no' })]);
    const r = matchTrajectory(trace, [{ name: 'book', args: { insurance: 'no' } }], { mode: 'strict' });
    expect(r.pass).toBe(false);
    expect(r.mismatched[0]!.actualArgs).toBe('{"insurance": no');
  });
});

describe("args: 'ignore'", () => {
  it('accepts any arguments but still checks names and order', () => {
    const expected = [
      { name: 'search', args: { origin: 'LAX' } },
      { name: 'book', args: { flights: [] } },
    ];
    expect(matchTrajectory(booking, expected, { mode: 'strict' }).pass).toBe(false);
    expect(matchTrajectory(booking, expected, { mode: 'strict', args: 'ignore' }).pass).toBe(true);
    expect(matchTrajectory(booking, [...expected].reverse(), { mode: 'strict', args: 'ignore' }).pass).toBe(
      false,
    );
  });
});

describe("args: 'superset' and 'subset' (named from the actual call's side, as agentevals names them)", () => {
  const flight = { flight_number: 'HAT136', date: '2024-05-20' };
  const call = (args: unknown) => makeTrace([tool('update_flights', { args })]);
  const expected = [{ name: 'update_flights', args: { reservation_id: 'Z7', flights: [flight] } }];
  const passes = (trace: ReturnType<typeof call>, args: 'exact' | 'superset' | 'subset') =>
    matchTrajectory(trace, expected, { mode: 'strict', args }).pass;

  it('superset: every expected key with an equal value, extra keys allowed at any depth', () => {
    // τ-bench task 5: the agent sends the flight's origin and destination too; the tool ignores them.
    const extra = call({ reservation_id: 'Z7', flights: [{ ...flight, origin: 'EWR' }], cabin: 'economy' });
    expect(passes(extra, 'exact')).toBe(false);
    expect(passes(extra, 'superset')).toBe(true);
    expect(passes(extra, 'subset')).toBe(false);
  });

  it('superset still fails on a missing key, a different value, or a different array length', () => {
    expect(passes(call({ flights: [flight] }), 'superset')).toBe(false);
    expect(passes(call({ reservation_id: 'Z8', flights: [flight] }), 'superset')).toBe(false);
    expect(passes(call({ reservation_id: 'Z7', flights: [flight, flight] }), 'superset')).toBe(false);
    expect(
      passes(call({ reservation_id: 'Z7', flights: [{ ...flight, date: '2024-05-21' }] }), 'superset'),
    ).toBe(false);
  });

  it('subset: every actual key expected with an equal value, expected keys may be left out', () => {
    const fewer = call({ reservation_id: 'Z7', flights: [{ flight_number: 'HAT136' }] });
    expect(passes(fewer, 'exact')).toBe(false);
    expect(passes(fewer, 'subset')).toBe(true);
    expect(passes(fewer, 'superset')).toBe(false);
    expect(passes(call({ reservation_id: 'Z7', cabin: 'economy' }), 'subset')).toBe(false);
  });

  it('equal arguments pass every mode, and a call recorded without arguments is {}', () => {
    const same = call({ flights: [flight], reservation_id: 'Z7' });
    expect(['exact', 'superset', 'subset'].map((m) => passes(same, m as 'exact'))).toEqual([
      true,
      true,
      true,
    ]);
    const none = makeTrace([tool('list_airports')]);
    const want = [{ name: 'list_airports', args: { region: 'EU' } }];
    expect(matchTrajectory(none, want, { args: 'subset' }).pass).toBe(true);
    expect(matchTrajectory(none, want, { args: 'superset' }).pass).toBe(false);
  });

  it("diffs only what failed the mode: superset leaves out the actual call's extra keys", () => {
    const trace = call({ reservation_id: 'Z8', flights: [{ ...flight, origin: 'EWR' }] });
    const r = matchTrajectory(trace, expected, { args: 'superset' });
    expect(r.mismatched[0]!.diff).toBe('- reservation_id: "Z7"\n+ reservation_id: "Z8"');
    const sub = matchTrajectory(call({ reservation_id: 'Z7', cabin: 'economy' }), expected, {
      args: 'subset',
    });
    expect(sub.mismatched[0]!.diff).toBe('+ cabin: "economy"');
  });

  it('applies per tool beside the others', () => {
    const trace = makeTrace([
      tool('search', { args: { q: 'SEA', page: 2 } }),
      tool('book', { args: { flight: 'HAT136', seat: '3A' } }),
    ]);
    const want = [
      { name: 'search', args: { q: 'SEA' } },
      { name: 'book', args: { flight: 'HAT136' } },
    ];
    expect(
      matchTrajectory(trace, want, { args: { search: 'superset' } }).mismatched.map((m) => m.name),
    ).toEqual(['book']);
    expect(matchTrajectory(trace, want, { args: { search: 'superset', book: 'superset' } }).pass).toBe(true);
  });
});

describe('args: a function', () => {
  it('decides for every tool, receives parsed arguments and the tool name', () => {
    const seen: [unknown, unknown, string][] = [];
    const sameOrigin: ArgsComparator = (actual, expected, toolName) => {
      seen.push([actual, expected, toolName]);
      return (actual as { origin?: string }).origin === (expected as { origin?: string }).origin;
    };
    const trace = makeTrace([tool('search', { args: '{"origin":"JFK","date":"2024-05-21"}' })]);
    const r = matchTrajectory(trace, [{ name: 'search', args: { origin: 'JFK' } }], {
      mode: 'strict',
      args: sameOrigin,
    });
    expect(r.pass).toBe(true);
    expect(seen).toContainEqual([{ origin: 'JFK', date: '2024-05-21' }, { origin: 'JFK' }, 'search']);
    expect(
      matchTrajectory(trace, [{ name: 'search', args: { origin: 'LAX' } }], {
        mode: 'strict',
        args: sameOrigin,
      }).pass,
    ).toBe(false);
  });

  it('is not asked about an expected call without args', () => {
    let calls = 0;
    const r = matchTrajectory(booking, [{ name: 'search' }, { name: 'book' }], {
      mode: 'strict',
      args: () => {
        calls++;
        return false;
      },
    });
    expect(r.pass).toBe(true);
    expect(calls).toBe(0);
  });

  it('a rejection it makes of equal arguments is still reported as a mismatch, with a reason', () => {
    const trace = makeTrace([tool('search', { args: { q: 'a' } })]);
    const r = matchTrajectory(trace, [{ name: 'search', args: { q: 'a' } }], {
      mode: 'strict',
      args: () => false,
    });
    expect(r.pass).toBe(false);
    expect(r.mismatched[0]!.diff).toMatch(/comparator/);
  });
});

describe('args per tool', () => {
  const perTool = {
    search: 'ignore',
    book: (actual: unknown, expected: unknown) =>
      JSON.stringify((actual as { flights: unknown }).flights) ===
      JSON.stringify((expected as { flights: unknown }).flights),
  } as const;
  const expected = [
    { name: 'search', args: { anything: true } },
    { name: 'book', args: { flights: ['HAT136', 'HAT039'] } },
  ];

  it('applies each named tool its own rule', () => {
    expect(matchTrajectory(booking, expected, { mode: 'strict', args: perTool }).pass).toBe(true);
    const wrongFlights = [expected[0]!, { name: 'book', args: { flights: ['HAT136'] } }];
    expect(matchTrajectory(booking, wrongFlights, { mode: 'strict', args: perTool }).pass).toBe(false);
  });

  it('compares tools it does not name exactly', () => {
    const withEmail = makeTrace([...booking.steps, tool('email', { args: { to: 'a@b.c' } })]);
    const emailWrong = [...expected, { name: 'email', args: { to: 'x@y.z' } }];
    const r = matchTrajectory(withEmail, emailWrong, { mode: 'strict', args: perTool });
    expect(r.pass).toBe(false);
    expect(r.mismatched.map((m) => m.name)).toEqual(['email']);
    expect(
      matchTrajectory(withEmail, emailWrong, { mode: 'strict', args: { ...perTool, email: 'ignore' } }).pass,
    ).toBe(true);
  });
});

describe('options are type-checked and checked at runtime', () => {
  it('rejects wrong values with a TypeError that names them', () => {
    const call = (options: unknown) => () =>
      matchTrajectory(booking, [], options as unknown as MatchTrajectoryOptions);
    expect(call({ mode: 'loose' })).toThrow(/options\.mode must be one of 'strict', 'unordered'/);
    expect(call({ mode: 'strict', args: 'fuzzy' })).toThrow(/options\.args must be/);
    expect(call({ mode: 'strict', args: { book: 42 } })).toThrow(/options\.args\.book must be/);
    expect(call({ mode: 'strict', ignore: { tools: 'think' } })).toThrow(/ignore\.tools/);
    expect(call('strict')).toThrow(/options must be an object \{ mode\?, args\?, ignore\? \}; got "strict"/);
  });

  it('names a misspelt mode, rule or key with the nearest one, never reading it as a default', () => {
    const call = (options: unknown) => () =>
      matchTrajectory(booking, [], options as unknown as MatchTrajectoryOptions);
    expect(call({ mode: 'strikt' })).toThrow(
      /options\.mode must be one of .*; got "strikt" — did you mean "strict"\?/,
    );
    expect(call({ args: 'supreset' })).toThrow(
      /options\.args must be .*; got "supreset" — did you mean "superset"\?/,
    );
    // A misspelt key would otherwise loosen nothing and tighten nothing: the test would pass unseen.
    expect(call({ mode: 'strict', arg: 'ignore' })).toThrow(
      'matchTrajectory: unknown key "options.arg" — did you mean "args"? (options takes mode, args, ignore)',
    );
    expect(call({ ignore: { tool: ['think'] } })).toThrow(
      'unknown key "options.ignore.tool" — did you mean "tools"? (options.ignore takes tools, failedCalls)',
    );
    expect(call({ ignore: { failedcall: true } })).toThrow(/did you mean "failedCalls"/);
  });

  it('compares strictly when no mode is given (the default), with or without options', () => {
    const swapped = makeTrace([tool('b'), tool('a')]);
    const expected = [{ name: 'a' }, { name: 'b' }];
    expect(matchTrajectory(swapped, expected)).toMatchObject({ pass: false, mode: 'strict' });
    expect(matchTrajectory(swapped, expected, {})).toMatchObject({ pass: false, mode: 'strict' });
    expect(matchTrajectory(swapped, expected, { args: 'ignore' }).mode).toBe('strict');
    expect(matchTrajectory(swapped, expected, { mode: 'unordered' })).toMatchObject({
      pass: true,
      mode: 'unordered',
    });
  });

  it('rejects a malformed expected call, naming where it is', () => {
    expect(() =>
      matchTrajectory(booking, [{ name: 'book' }, { name: 'search', arguments: {} } as never], {
        mode: 'strict',
      }),
    ).toThrow(/expected\[1\]: .*arguments/);
    expect(() => matchTrajectory(booking, [{ name: '' }], { mode: 'strict' })).toThrow(/expected\[0\]\.name/);
  });

  it('makes a wrong option a type error', () => {
    const ok: MatchTrajectoryOptions[] = [
      {},
      { mode: 'strict' },
      { args: 'superset' },
      { mode: 'unordered', args: { book: 'subset', search: 'superset' } },
      { mode: 'unordered', args: 'exact' },
      { mode: 'subset', args: 'ignore' },
      { mode: 'superset', args: (a, e, name) => name === 'x' && a === e },
      { mode: 'strict', args: { book: 'ignore', search: 'exact', pay: () => true } },
      { mode: 'strict', ignore: { tools: ['think'], failedCalls: true } },
    ];
    const wrong: MatchTrajectoryOptions[] = [
      // @ts-expect-error: not an option
      { mode: 'strict', arg: 'ignore' },
      // @ts-expect-error: not a mode
      { mode: 'loose' },
      // @ts-expect-error: not an args rule
      { mode: 'strict', args: 'fuzzy' },
      // @ts-expect-error: not a rule for a tool
      { mode: 'strict', args: { book: 'fuzzy' } },
      // @ts-expect-error: a comparator returns a boolean
      { mode: 'strict', args: () => 'yes' },
      // @ts-expect-error: tool names are strings
      { mode: 'strict', ignore: { tools: [1] } },
    ];
    expect(ok).toHaveLength(9);
    expect(wrong).toHaveLength(6);
  });
});
