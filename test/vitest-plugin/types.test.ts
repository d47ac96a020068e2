/**
 * The matcher types as a user's project sees them: a project that imports `tracejury/vitest` (the
 * built package, under whichever Vitest is installed: 4 here, 5 in CI's Node 24 pass) type-checks
 * correct uses, and an unknown matcher, an unknown detector or attribution rule id, a wrong option and a misspelt
 * plugin option are each a type error. Each `@ts-expect-error` line fails the check if its error
 * disappears; the control file proves tsc really reports errors in this setup.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProject, REPO } from '../helpers/vitestProject.js';

const TSCONFIG = JSON.stringify({
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  },
  include: ['*.ts'],
});

const USES = `
import { defineConfig } from 'vitest/config';
import { expect, test } from 'vitest';
import { tracejury, captureTrace, describeTraces, startTraceReceiver } from 'tracejury/vitest';

export default defineConfig({ plugins: [tracejury({ passRate: 0.8, report: '.tracejury/report.json' })] });

test('uses', async () => {
  const trace = await captureTrace(async () => 'answer');
  expect(trace).toHaveSignal('TOOL_LOOP');
  expect(trace).toHaveSignal('RETRY_LOOP', { minConfidence: 0.5, severity: 'high' });
  expect(trace).not.toHaveSignal('PROMPT_INJECTION_SIGNAL');
  expect('traces/run.json').toHaveNoSignals({ minSeverity: 'medium' });
  expect(trace).toHaveWasteBelow(0.05);
  expect(trace).toMatchTrajectory([{ name: 'search', args: { q: 'x' } }, { name: 'book' }], {
    mode: 'superset',
    args: { search: 'ignore', book: (a, b) => JSON.stringify(a) === JSON.stringify(b) },
    ignore: { tools: ['get_user'], failedCalls: true },
  });
  expect(trace).toMatchTrajectory([{ name: 'search' }]);
  expect(trace).toMatchTrajectory([{ name: 'book', args: { id: 1 } }], { args: { book: 'superset' } });
  await expect(trace).toPassTribunal({ rubric: 'helpfulness', threshold: 0.8 });
  await expect('text').not.toPassTribunal({ judges: [{ provider: 'openai', model: 'gpt-4o' }] });
  await expect([trace]).toMeetSessionThreshold({ reliability: 0.7, consistency: 0.6 });
  expect(trace).toHaveRootCause({ agent: 'Planner', step: 3, rule: 'UNRECOVERED_FAILURE' });
  expect(trace).not.toHaveRootCause();
  const receiver = await startTraceReceiver();
  const received = await receiver.waitForTrace((t) => t.steps.length > 0, 5_000);
  expect(received).toHaveNoSignals();
  await receiver.close();
});

describeTraces('traces/*.jsonl', (t) => {
  expect(t.id).toBeTypeOf('string');
});

// @ts-expect-error: no such matcher
expect({}).toHaveSignul('TOOL_LOOP');
// @ts-expect-error: no such detector
expect({}).toHaveSignal('TOOL_LOOPS');
// @ts-expect-error: minConfidence is a number
expect({}).toHaveSignal('TOOL_LOOP', { minConfidence: 'high' });
// @ts-expect-error: not a severity
expect({}).toHaveNoSignals({ minSeverity: 'severe' });
// @ts-expect-error: usd is a number
expect({}).toHaveWasteBelow('0.05');
// @ts-expect-error: mode is one of strict, unordered, subset, superset
expect({}).toMatchTrajectory([{ name: 'a' }], { mode: 'exact' });
// @ts-expect-error: an expected call needs a name
expect({}).toMatchTrajectory([{ args: {} }], { mode: 'strict' });
// @ts-expect-error: thresholds are numbers
await expect([]).toMeetSessionThreshold({ reliability: 'high' });
// @ts-expect-error: no such attribution rule
expect({}).toHaveRootCause({ rule: 'UNRECOVERED' });
// @ts-expect-error: a step is a number
expect({}).toHaveRootCause({ step: '3' });
// @ts-expect-error: no such plugin option
tracejury({ passrate: 0.8 });
`;

const CONTROL = `
import { expect } from 'vitest';
import 'tracejury/vitest';
expect({}).toHaveSignal('TOOL_LOOPS');
`;

function tsc(dir: string) {
  const bin = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
  return spawnSync(process.execPath, [bin, '-p', dir], { encoding: 'utf8', timeout: 120_000 });
}

describe('matcher types in a user project', () => {
  it('accepts correct uses and rejects an unknown matcher, detector, option or plugin option', () => {
    const project = createProject({ 'tsconfig.json': TSCONFIG, 'evals.ts': USES });
    const result = tsc(project.dir);
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 120_000);

  it('control: an unknown detector id is reported by tsc', () => {
    const project = createProject({ 'tsconfig.json': TSCONFIG, 'control.ts': CONTROL });
    const result = tsc(project.dir);
    expect(result.status).not.toBe(0);
    expect(result.stdout).toMatch(
      /control\.ts\(4,\d+\): error TS2345: .*TOOL_LOOPS.* is not assignable to parameter of type 'DetectorId'/,
    );
  }, 120_000);
});
