/**
 * A test that asserts only on what the agent returned still puts its trace in the run's report —
 * its test, cost, waste and findings — in one real Vitest run of a fixture project: the passing
 * test adds its cost, the failing one is there to be compared, and `tracejury diff` against a base
 * run where it passed names the failing test.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../../helpers/cli.js';
import { configWith, createProject, type Project, type ReportLike } from '../../helpers/vitestProject.js';

/** An agent that emits OTel GenAI spans by hand and answers where the parcel is (or, regressed, not). */
const AGENT = `
import { trace } from '@opentelemetry/api';

export async function supportAgent(question) {
  const tracer = trace.getTracer('fixture-agent');
  const regressed = process.env.REGRESSED === '1' && question.includes('4412');
  return tracer.startActiveSpan('invoke_agent order-support', { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'order-support' } }, async (root) => {
    await tracer.startActiveSpan('chat gpt-4o', { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 1200, 'gen_ai.usage.output_tokens': 40 } }, async (span) => span.end());
    await tracer.startActiveSpan('execute_tool track_shipment', { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'track_shipment', 'gen_ai.tool.call.arguments': '{"order":"4412"}' } }, async (span) => span.end());
    await tracer.startActiveSpan('chat gpt-4o', { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 1500, 'gen_ai.usage.output_tokens': 30 } }, async (span) => span.end());
    root.end();
    return regressed ? 'Sorry, I could not find that order.' : 'Your parcel is in Leipzig.';
  });
}
`;

const TESTS = `
import { expect, test } from 'vitest';
import { captureTrace, captureTraceWithResult } from 'tracejury/vitest';
import { supportAgent } from './agent.js';

test('answers where order 4412 is', async () => {
  const { result } = await captureTraceWithResult(() => supportAgent('Where is order 4412?'));
  expect(result).toContain('Leipzig');
});

test('answers where order 7731 is', async () => {
  const { result } = await captureTraceWithResult(() => supportAgent('Where is order 7731?'));
  expect(result).toContain('Leipzig');
});

test('a capture no assertion looks at', async () => {
  await captureTrace(() => supportAgent('Where is order 9000?'), { name: 'unchecked run' });
});
`;

describe('a test that asserts only on the agent’s result', () => {
  let project: Project;
  let base: ReportLike;
  let head: ReportLike;
  const FAILING = 'evals.test.ts > answers where order 4412 is';

  beforeAll(async () => {
    project = createProject({
      'vitest.config.ts': configWith(),
      'agent.js': AGENT,
      'evals.test.ts': TESTS,
    });
    const baseRun = await project.run([], { timeoutMs: 90_000 });
    expect(baseRun.code, baseRun.output).toBe(0);
    base = project.readReport();
    writeFileSync(path.join(project.dir, 'base.json'), JSON.stringify(base));
    const headRun = await project.run([], { env: { REGRESSED: '1' }, timeoutMs: 90_000 });
    expect(headRun.code, headRun.output).toBe(1);
    head = project.readReport();
  }, 200_000);

  it('puts every captured trace in the report with its test and cost, passing or failing', () => {
    const byTest = new Map<string, { id: string }>(
      head.traces.map((t: { test: string; id: string }) => [t.test, t]),
    );
    expect([...byTest.keys()].sort()).toEqual(
      [
        FAILING,
        'evals.test.ts > answers where order 7731 is',
        'evals.test.ts > a capture no assertion looks at',
      ].sort(),
    );
    for (const t of head.traces) {
      expect(t.costUsd).toBeGreaterThan(0);
      expect(t.steps).toBe(3);
    }
    expect(head.inputs.traces).toBe(3);
    const cost = head.traces.reduce((sum: number, t: { costUsd: number }) => sum + t.costUsd, 0);
    expect(head.totals.costUsd).toBeCloseTo(cost, 10);
    // The same calls in both runs: the regression did not make the run look cheaper.
    expect(base.totals.costUsd).toBeCloseTo(head.totals.costUsd, 10);
    const failing = head.tests.find((t: { name: string }) => t.name === FAILING);
    expect(failing).toMatchObject({ state: 'failed', traces: [byTest.get(FAILING)!.id] });
  });

  it('tracejury diff against the base names the failing test', async () => {
    const headFile = path.join(project.dir, '.tracejury/report.json');
    const { code, stdout, stderr } = await cli(
      ['diff', 'base.json', headFile, '--format', 'markdown'],
      project.dir,
    );
    expect(stderr).toBe('');
    // Whether one failure in three fails the statistical gate is the gate's call (at three tests
    // it is within noise); the verdict and the outcomes still say a test failed, and which.
    expect(code).toBe(0);
    expect(stdout).toMatch(/^### tracejury diff ❌ 1 of 3 tests failed in head/);
    expect(stdout).toContain('- evals.test.ts > answers where order 4412 is: 1/1 → 0/1 passed');
  });
});
