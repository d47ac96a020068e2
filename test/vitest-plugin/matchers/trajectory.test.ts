/**
 * toMatchTrajectory in a real Vitest run: strict by default, parallel calls of a chat transcript in
 * any order, every problem in the failure message, and a misspelt option failing the test with the
 * key named instead of passing unseen.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { configWith, createProject, type Project, type RunResult } from '../../helpers/vitestProject.js';

const call = (id: string, name: string, args: object) => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});

/** A chat transcript: two weather lookups issued in one response, then a booking. */
const TRANSCRIPT = JSON.stringify({
  id: 'trip-1',
  messages: [
    { role: 'user', content: 'Weather in SF and Oslo, then book the warmer one.' },
    {
      role: 'assistant',
      content: '',
      tool_calls: [call('c1', 'get_weather', { city: 'SF' }), call('c2', 'get_weather', { city: 'Oslo' })],
    },
    { role: 'tool', tool_call_id: 'c1', content: '21 °C' },
    { role: 'tool', tool_call_id: 'c2', content: '4 °C' },
    { role: 'assistant', content: '', tool_calls: [call('c3', 'book', { city: 'SF' })] },
    { role: 'tool', tool_call_id: 'c3', content: 'Error: payment declined' },
    { role: 'assistant', content: '', tool_calls: [call('c4', 'book', { city: 'SF' })] },
    { role: 'tool', tool_call_id: 'c4', content: 'booked' },
    { role: 'assistant', content: 'Booked SF.' },
  ],
});

const EVALS = `
import { expect, test } from 'vitest';

const weather = (city) => ({ name: 'get_weather', args: { city } });
const book = { name: 'book', args: { city: 'SF' } };

test('strict by default: the parallel lookups in any order, the failed attempt ignored', () => {
  expect('traces/trip.json').toMatchTrajectory([weather('Oslo'), weather('SF'), book], {
    ignore: { failedCalls: true },
  });
});

test('every problem at once (fails on purpose)', () => {
  expect('traces/trip.json').toMatchTrajectory([book, weather('Oslo'), weather('Paris')]);
});

test('a misspelt option key (fails on purpose)', () => {
  expect('traces/trip.json').toMatchTrajectory([weather('SF')], { mode: 'superset', arg: 'ignore' });
});

test('a misspelt mode (fails on purpose)', () => {
  expect('traces/trip.json').toMatchTrajectory([weather('SF')], { mode: 'supreset' });
});
`;

describe('toMatchTrajectory in a real Vitest run', () => {
  let project: Project;
  let run: RunResult;
  beforeAll(async () => {
    project = createProject({
      'vitest.config.ts': configWith(),
      'traces/trip.json': TRANSCRIPT,
      'evals.test.ts': EVALS,
    });
    run = await project.run();
  }, 90_000);

  it('passes the strict default and fails only the tests meant to fail', () => {
    expect(run.output).toMatch(/Tests\s+3 failed \| 1 passed/);
  });

  it('lays the calls side by side, marking out of order, wrong args, the failed extra call and the batch', () => {
    expect(run.output).toContain('expected trace trip-1 to match the strict trajectory of 3 calls');
    expect(run.output).toMatch(/1 extra, 1 with different arguments, 1 out of order/);
    expect(run.output).toMatch(
      /\[1\] get_weather \{"city":"Oslo"\} +step 3 get_weather \{"city":"Oslo"\} +ok, parallel: issued by step 1/,
    );
    expect(run.output).toMatch(/— +step 5 book \{"city":"SF"\} +extra, failed/);
    expect(run.output).toMatch(/\[0\] book \{"city":"SF"\} +step 7 book \{"city":"SF"\} +out of order/);
    expect(run.output).toMatch(/- city: "Paris"\s+\+ city: "SF"/);
  });

  it('fails a misspelt option key or mode with the nearest name, never as a lenient default', () => {
    expect(run.output).toContain('toMatchTrajectory: unknown key "arg" — did you mean "args"?');
    expect(run.output).toContain('got "supreset" — did you mean "superset"?');
  });

  it('records the mode a trajectory was matched in, the default included', () => {
    const report = project.readReport();
    const passed = report.tests.find((t: { name: string }) => t.name.includes('strict by default'));
    expect(passed.trajectories).toEqual([
      { traceId: 'trip-1', mode: 'strict', pass: true, missing: 0, extra: 0, mismatched: 0, outOfOrder: 0 },
    ]);
  });
});
