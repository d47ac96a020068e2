/**
 * toHaveRootCause in a real Vitest run of a fixture project: the failed run's root cause matched
 * field by field, a run that did not fail refused (and accepted by `.not`), a mismatch explained
 * with the expected and received fields (an editor's diff) and the cause the run has, a misspelt
 * rule id or option key named with the nearest one; the traces reach the report with their root
 * cause and its tally.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { configWith, createProject, type ReportLike, type RunResult } from '../../helpers/vitestProject.js';

/** Planner's search fails and is never retried; Booker then books anyway. */
const TEAM = JSON.stringify({
  id: 'team-run-1',
  agentId: 'travel-team',
  outcome: { success: false, source: 'native outcome' },
  steps: [
    { type: 'message', from: 'user', content: 'Book the 9am flight to Lyon.' },
    { type: 'llm', model: 'gpt-4o-mini', agent: 'Planner', output: 'searching' },
    {
      type: 'tool',
      name: 'search_flights',
      issuedBy: 2,
      status: 'error',
      error: 'Error: service unavailable',
    },
    { type: 'llm', model: 'gpt-4o-mini', agent: 'Booker', output: 'booked' },
  ],
});
const FINE = JSON.stringify({
  id: 'fine-1',
  outcome: { success: true, source: 'native outcome' },
  steps: [{ type: 'llm', model: 'gpt-4o-mini', output: 'done' }],
});

const TESTS = `
import { expect, test } from 'vitest';

test('every field', () => {
  expect('traces/team.json').toHaveRootCause({ agent: 'Planner', step: 3, rule: 'UNRECOVERED_FAILURE' });
});
test('any root cause', () => {
  expect('traces/team.json').toHaveRootCause();
});
test('a run that did not fail, negated', () => {
  expect('traces/fine.json').not.toHaveRootCause();
});
test('another agent', () => {
  expect('traces/team.json').toHaveRootCause({ agent: 'Booker', step: 3 });
});
test('a run that did not fail', () => {
  expect('traces/fine.json').toHaveRootCause({ agent: 'Planner' });
});
test('the cause it has, negated', () => {
  expect('traces/team.json').not.toHaveRootCause({ agent: 'Planner' });
});
test('a misspelt rule', () => {
  expect('traces/team.json').toHaveRootCause({ rule: 'UNRECOVERED_FAILUR' });
});
test('a misspelt key', () => {
  expect('traces/team.json').toHaveRootCause({ agnet: 'Planner' });
});
`;

describe('toHaveRootCause in a real Vitest run', () => {
  let run: RunResult;
  let report: ReportLike;
  const test = (name: string) => report.tests.find((t: { name: string }) => t.name.endsWith(`> ${name}`));
  const firstError = (name: string): string => test(name)?.errors?.[0] ?? `(${test(name)?.state}, no error)`;

  beforeAll(async () => {
    const project = createProject({
      'vitest.config.ts': configWith(),
      'traces/team.json': TEAM,
      'traces/fine.json': FINE,
      'root.test.ts': TESTS,
    });
    run = await project.run();
    report = project.readReport();
  }, 120_000);

  it('passes the matching expectations and fails the others', () => {
    expect(run.code, run.output).toBe(1);
    expect(run.output).toMatch(/Tests\s+5 failed \| 3 passed/);
    for (const ok of ['every field', 'any root cause', 'a run that did not fail, negated'])
      expect([ok, test(ok)?.state]).toEqual([ok, 'passed']);
  });

  it('says what the root cause is when it is not the one expected, with both sides as a diff', () => {
    // The report keeps a failure's first line; the run's output has the whole message.
    expect(firstError('another agent')).toBe('expect(trace).toHaveRootCause(expected)');
    expect(run.output).toContain(
      'The root cause of trace team-run-1 is step 3, Planner (UNRECOVERED_FAILURE, 0.70): its search_flights call failed',
    );
    // The expected and received fields, as Vitest prints a diff of what the matcher returned.
    expect(run.output).toMatch(
      /- Expected[\s\S]*\+ Received[\s\S]*-\s+"agent": "Booker"[\s\S]*\+\s+"agent": "Planner"/,
    );
    expect(run.output).toMatch(
      /Expected trace fine-1 to have a root cause .*"agent": "Planner".*, but the run did not fail/s,
    );
    expect(run.output).toMatch(
      /Expected trace team-run-1 not to have the root cause .*, but it has: step 3, Planner/s,
    );
  });

  it('names a misspelt rule id or key with the nearest one', () => {
    expect(firstError('a misspelt rule')).toBe(
      'toHaveRootCause: rule: expected one of UNRECOVERED_FAILURE, DEPARTS_FROM_EXPECTED, INJECTION_OBEYED, LOOP_START, ANSWER_REPEATS, BUSIEST_AGENT_PRIOR, got the string "UNRECOVERED_FAILUR" — did you mean "UNRECOVERED_FAILURE"?',
    );
    expect(firstError('a misspelt key')).toBe('toHaveRootCause: unknown key "agnet" — did you mean "agent"?');
  });

  it('puts the traces in the report with their root cause and the tally', () => {
    const team = report.traces.find((t: { id: string }) => t.id === 'team-run-1');
    expect(team.rootCause).toMatchObject({ step: 3, agent: 'Planner', rule: 'UNRECOVERED_FAILURE' });
    expect(report.traces.find((t: { id: string }) => t.id === 'fine-1').rootCause).toBeUndefined();
    expect(report.attribution).toMatchObject({ agents: [{ agent: 'Planner' }] });
  });
});
