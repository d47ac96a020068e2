/**
 * The plugin in a real Vitest run: matchers pass and fail with messages a reviewer can act on,
 * the report file names each test's traces and signals, and Vitest's own reporters stay.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../helpers/realLibraryRun.js';
import {
  configWith,
  createProject,
  nativeTrace,
  type Project,
  type RunResult,
} from '../../helpers/vitestProject.js';

const EVALS = `
import { expect, test } from 'vitest';
import { readFileSync } from 'node:fs';

const looping = JSON.parse(readFileSync('traces/looping.json', 'utf8'));

test('clean trace has no signals', () => {
  expect('traces/clean.json').toHaveNoSignals();
  expect('traces/clean.json').not.toHaveSignal('TOOL_LOOP');
  expect('traces/clean.json').toHaveWasteBelow(0.01);
});

test('looping trace is caught', () => {
  expect(looping).toHaveSignal('TOOL_LOOP');
  expect(looping).toHaveSignal('TOOL_LOOP', { minConfidence: 0.5 });
});

test('looping trace passes as clean (fails on purpose)', () => {
  expect(looping).not.toHaveSignal('TOOL_LOOP');
});

test('no signals at all (fails on purpose)', () => {
  expect('traces/looping.json').toHaveNoSignals();
});

test('raw OTLP records are read too', () => {
  const otlp = JSON.parse(readFileSync('traces/ai-sdk-5.json', 'utf8'));
  expect(otlp).toHaveSignal('TOOL_LOOP');
  expect(otlp).toMatchTrajectory(
    [{ name: 'lookup_order' }, { name: 'get_weather', args: { city: 'Paris' } }],
    { mode: 'superset', ignore: { failedCalls: true } },
  );
});

test('records that hold no trace (fails on purpose)', () => {
  expect({ resourceSpans: [] }).toHaveNoSignals();
});

test('trajectory with a wrong argument (fails on purpose)', () => {
  expect(looping).toMatchTrajectory([{ name: 'get_weather', args: { city: 'Lyon' } }], { mode: 'superset' });
});
`;

describe('matchers in a real Vitest run', () => {
  let project: Project;
  let run: RunResult;
  beforeAll(async () => {
    project = createProject({
      'vitest.config.ts': configWith(),
      'traces/clean.json': nativeTrace('clean-1', 1),
      'traces/looping.json': nativeTrace('loop-1', 6),
      'traces/ai-sdk-5.json': readFileSync(fixture('otel/ai-sdk-5-generate-text.json'), 'utf8'),
      'evals.test.ts': EVALS,
    });
    run = await project.run();
  }, 90_000);

  it('fails the run for the tests that fail, and only those', () => {
    expect(run.code, run.output).toBe(1);
    expect(run.output).toMatch(/Tests\s+4 failed \| 3 passed/);
  });

  it('says which detector fired, at which steps, with the fix hint', () => {
    expect(run.output).toContain('expected trace loop-1 not to have a TOOL_LOOP signal, but it has 1');
    expect(run.output).toMatch(/TOOL_LOOP \((high|medium|critical|low), confidence \d\.\d\d\) at steps 2–7/);
    expect(run.output).toMatch(/fix TOOL_LOOP: /);
    expect(run.output).toContain('expected trace loop-1 to have no signals, but it has');
  });

  it('says when raw records hold no trace', () => {
    expect(run.output).toContain('the records: holds no trace');
  });

  it('names the mismatched call of a trajectory with a diff of its arguments', () => {
    expect(run.output).toContain('expected trace loop-1 to match the superset trajectory of 1 calls');
    expect(run.output).toMatch(/city: "Lyon"/);
    expect(run.output).toMatch(/city: "Paris"/);
  });

  it("keeps Vitest's default reporter and prints the tracejury summary after it", () => {
    expect(run.output).toContain('Test Files');
    expect(run.output).toMatch(/Gate: FAILED — 4 tests of 7 failed/);
    expect(run.output).toContain('Report: .tracejury/report.json');
  });

  it('writes Report v1 with every test, its traces and their signals named by test', () => {
    const report = project.readReport();
    expect(report.schemaVersion).toBe(1);
    expect(report.schemaMinor).toBe(4);
    expect(report.testRun).toMatchObject({ tests: 7, passed: 3, failed: 4 });
    const names = report.tests.map((t: { name: string }) => t.name);
    expect(names).toContain('evals.test.ts > looping trace is caught');
    const caught = report.tests.find(
      (t: { name: string }) => t.name === 'evals.test.ts > looping trace is caught',
    );
    expect(caught).toMatchObject({ state: 'passed', attempts: 1, passedAttempts: 1, traces: ['loop-1'] });
    const loopSignals = report.signals.filter(
      (s: { detector: string; traceId: string }) => s.detector === 'TOOL_LOOP' && s.traceId === 'loop-1',
    );
    // One per recording, however many tests and matchers looked at it, under the first test that
    // did: the trace parsed in the test file, and the same file read again by its path.
    expect(loopSignals.map((s: { test: string }) => s.test).sort()).toEqual([
      'evals.test.ts > looping trace is caught',
      'evals.test.ts > no signals at all (fails on purpose)',
    ]);
    const tracesOf = (name: string) =>
      report.tests.find((t: { name: string }) => t.name === `evals.test.ts > ${name}`).traces;
    expect(tracesOf('looping trace passes as clean (fails on purpose)')).toEqual(['loop-1']);
    const trace = report.traces.find((t: { id: string; test: string }) => t.id === 'clean-1');
    expect(trace).toMatchObject({
      file: 'traces/clean.json',
      format: 'native',
      test: 'evals.test.ts > clean trace has no signals',
    });
    expect(report.gate.passed).toBe(false);
    const failed = report.tests.find((t: { name: string }) => t.name.endsWith('(fails on purpose)'));
    expect(failed.errors[0]).toMatch(/expected trace loop-1/);
    const otlp = report.tests.find((t: { name: string }) => t.name.endsWith('raw OTLP records are read too'));
    expect(otlp.trajectories).toEqual([
      expect.objectContaining({ mode: 'superset', pass: true, missing: 0, extra: 2 }),
    ]);
  });
});
