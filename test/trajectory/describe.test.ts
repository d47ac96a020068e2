/** describeTrajectoryResult: the failure message of toMatchTrajectory. */
import { describe, expect, it } from 'vitest';
import { describeTrajectoryResult } from '../../src/trajectory/describe.js';
import { matchTrajectory, type TrajectoryResult } from '../../src/trajectory/matchTrajectory.js';
import { makeTrace, tool } from '../helpers/traceBuilder.js';

describe('describeTrajectoryResult', () => {
  it('names the missing, extra, mismatched and out-of-order calls, with the arg diff', () => {
    const trace = makeTrace([
      tool('search', { args: { q: 'SEA' } }),
      tool('email'),
      tool('book', { args: { passengers: [{ dob: '1990-05-04' }] } }),
      tool('think'),
      tool('login'),
    ]);
    const options = { mode: 'strict' as const };
    const expected = [
      { name: 'login' },
      { name: 'search', args: { q: 'SEA' } },
      { name: 'book', args: { passengers: [{ dob: '1990-04-05' }] } },
      { name: 'refund', args: { id: 'R1' } },
    ];
    const text = describeTrajectoryResult(matchTrajectory(trace, expected, options), options);
    expect(text).toBe(
      [
        'trajectory does not match (strict mode): 1 missing, 2 extra, 1 with different arguments, 1 out of order',
        'missing: expected but not called:',
        '  expected[3] refund {"id":"R1"}',
        'extra: called but not expected:',
        '  step 2 email',
        '  step 4 think',
        'different arguments (- expected, + actual):',
        '  expected[2] book vs step 3:',
        '    - passengers[0].dob: "1990-04-05"',
        '    + passengers[0].dob: "1990-05-04"',
        'out of order: called, but not where expected:',
        '  expected[0] login happened at step 5',
      ].join('\n'),
    );
  });

  it('says a passing match passes, and lists allowed extras in superset mode as allowed', () => {
    const trace = makeTrace([tool('search'), tool('book')]);
    expect(
      describeTrajectoryResult(
        matchTrajectory(trace, [{ name: 'search' }, { name: 'book' }], { mode: 'strict' }),
        {
          mode: 'strict',
        },
      ),
    ).toBe('trajectory matches (strict mode): every call as expected');
    const superset = describeTrajectoryResult(
      matchTrajectory(trace, [{ name: 'book' }], { mode: 'superset' }),
      {
        mode: 'superset',
      },
    );
    expect(superset).toBe(
      [
        'trajectory matches (superset mode)',
        'extra: called but not expected (allowed in superset mode):',
        '  step 1 search',
      ].join('\n'),
    );
  });

  it('shows at most 10 entries of a list and counts the rest', () => {
    const trace = makeTrace(Array.from({ length: 25 }, (_, i) => tool('search', { args: { page: i } })));
    const text = describeTrajectoryResult(matchTrajectory(trace, [], { mode: 'subset' }), { mode: 'subset' });
    const lines = text.split('\n');
    expect(lines[0]).toBe('trajectory does not match (subset mode): 25 extra');
    expect(lines.filter((l) => l.startsWith('  step '))).toHaveLength(10);
    expect(lines.at(-1)).toBe('  … and 15 more');
    expect(
      describeTrajectoryResult(matchTrajectory(trace, [], { mode: 'subset' }), { mode: 'subset', limit: 3 }),
    ).toContain('  … and 22 more');
  });

  it('cuts long arguments so one call cannot flood the message', () => {
    const result: TrajectoryResult = {
      pass: false,
      missing: [{ index: 0, name: 'write', args: { body: 'z'.repeat(10_000) } }],
      extra: [],
      mismatched: [],
      outOfOrder: [],
    };
    const text = describeTrajectoryResult(result, { mode: 'strict' });
    expect(text.length).toBeLessThan(250);
    expect(text).toContain('expected[0] write {"body":"zzz');
  });
});
