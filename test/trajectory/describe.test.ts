/** describeTrajectoryResult: the failure message of toMatchTrajectory. */
import { describe, expect, it } from 'vitest';
import { describeTrajectoryResult } from '../../src/trajectory/describe.js';
import { matchTrajectory, type TrajectoryResult } from '../../src/trajectory/matchTrajectory.js';
import { llm, makeTrace, tool } from '../helpers/traceBuilder.js';

describe('describeTrajectoryResult', () => {
  it('lays the recorded calls beside the expected ones, each marked, then the arg diffs', () => {
    const trace = makeTrace([
      tool('search', { args: { q: 'SEA' } }),
      tool('email'),
      tool('book', { args: { passengers: [{ dob: '1990-05-04' }] } }),
      tool('think'),
      tool('login'),
    ]);
    const expected = [
      { name: 'login' },
      { name: 'search', args: { q: 'SEA' } },
      { name: 'book', args: { passengers: [{ dob: '1990-04-05' }] } },
      { name: 'refund', args: { id: 'R1' } },
    ];
    const text = describeTrajectoryResult(matchTrajectory(trace, expected, { mode: 'strict' }));
    expect(text).toBe(
      [
        'trajectory does not match (strict mode): 1 missing, 2 extra, 1 with different arguments, 1 out of order',
        '  expected                                        actual',
        '  [1] search {"q":"SEA"}                          step 1 search {"q":"SEA"}                         ok',
        '  —                                               step 2 email                                      extra',
        '  [2] book {"passengers":[{"dob":"1990-04-05"}]}  step 3 book {"passengers":[{"dob":"1990-05-04"}]}  wrong args',
        '  —                                               step 4 think                                      extra',
        '  [0] login                                       step 5 login                                      out of order',
        '  [3] refund {"id":"R1"}                          —                                                 missing',
        'different arguments (- expected, + actual):',
        '  expected[2] book vs step 3:',
        '    - passengers[0].dob: "1990-04-05"',
        '    + passengers[0].dob: "1990-05-04"',
      ].join('\n'),
    );
  });

  it('marks failed calls, calls with no result and calls issued in parallel', () => {
    const trace = makeTrace([
      llm(),
      tool('weather', { args: { city: 'SF' }, issuedBy: 1 }),
      tool('weather', { args: { city: 'Oslo' }, issuedBy: 1 }),
      tool('book', { args: { flight: 1 }, status: 'error', error: 'Error: timeout' }),
      tool('book', { args: { flight: 1 } }),
      tool('pay', { status: 'unknown' }),
    ]);
    const expected = [
      { name: 'weather', args: { city: 'Oslo' } },
      { name: 'weather', args: { city: 'SF' } },
      { name: 'book', args: { flight: 1 } },
    ];
    expect(describeTrajectoryResult(matchTrajectory(trace, expected))).toBe(
      [
        'trajectory does not match (strict mode): 2 extra',
        '  expected                     actual',
        '  [0] weather {"city":"Oslo"}  step 3 weather {"city":"Oslo"}  ok, parallel: issued by step 1',
        '  [1] weather {"city":"SF"}    step 2 weather {"city":"SF"}    ok, parallel: issued by step 1',
        '  —                            step 4 book {"flight":1}        extra, failed',
        '  [2] book {"flight":1}        step 5 book {"flight":1}        ok',
        '  —                            step 6 pay                      extra, no result',
      ].join('\n'),
    );
  });

  it('says a passing match passes, and marks allowed extras in superset mode as allowed', () => {
    const trace = makeTrace([tool('search'), tool('book')]);
    expect(describeTrajectoryResult(matchTrajectory(trace, [{ name: 'search' }, { name: 'book' }]))).toBe(
      'trajectory matches (strict mode): every call as expected',
    );
    const superset = describeTrajectoryResult(
      matchTrajectory(trace, [{ name: 'book' }], { mode: 'superset' }),
    );
    expect(superset).toBe(
      [
        'trajectory matches (superset mode)',
        '  expected  actual',
        '  —         step 1 search  extra (allowed in superset mode)',
        '  [0] book  step 2 book    ok',
      ].join('\n'),
    );
  });

  it('shows the problem lines of a long trace with one line of context, and counts the rest', () => {
    const steps = Array.from({ length: 60 }, (_, i) => tool('search', { args: { page: i } }));
    const expected = steps.map((_, i) => ({ name: 'search', args: { page: i } }));
    expected[30] = { name: 'search', args: { page: 99 } };
    const text = describeTrajectoryResult(matchTrajectory(makeTrace(steps), expected));
    const lines = text.split('\n');
    expect(lines[0]).toBe('trajectory does not match (strict mode): 1 with different arguments');
    expect(lines.slice(2, 7)).toEqual([
      '  … 29 more lines',
      '  [29] search {"page":29}  step 30 search {"page":29}  ok',
      '  [30] search {"page":99}  step 31 search {"page":30}  wrong args',
      '  [31] search {"page":31}  step 32 search {"page":31}  ok',
      '  … 28 more lines',
    ]);
  });

  it('caps the problem lines and the diffs at the limit', () => {
    const trace = makeTrace(Array.from({ length: 25 }, (_, i) => tool('search', { args: { page: i } })));
    const text = describeTrajectoryResult(matchTrajectory(trace, [], { mode: 'subset' }), { limit: 3 });
    const lines = text.split('\n');
    expect(lines[0]).toBe('trajectory does not match (subset mode): 25 extra');
    // When everything is a problem: 2 × limit problem lines and the line after the last.
    expect(lines.filter((l) => l.startsWith('  —')).length).toBe(7);
    expect(lines.at(-1)).toBe('  … 18 more lines');
  });

  it('cuts long arguments so one call cannot flood the message', () => {
    const missing = { index: 0, name: 'write', args: { body: 'z'.repeat(10_000) } };
    const result: TrajectoryResult = {
      pass: false,
      mode: 'strict',
      missing: [missing],
      extra: [],
      mismatched: [],
      outOfOrder: [],
      calls: [{ expected: missing, marks: ['missing'] }],
    };
    const text = describeTrajectoryResult(result);
    expect(text.length).toBeLessThan(250);
    expect(text).toContain('[0] write {"body":"zzz');
  });
});
