/**
 * The plugin's place in a Vitest run: it keeps the user's reporters and survives --reporter,
 * describeTraces gives one test per recording and a failing test for input it cannot read,
 * repeats are counted (pass^k, pass@k) and passRate lets a flaky test pass and says so, a sharded
 * run merged with --merge-reports gives one report, and a bad option or config fails at startup.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configWith, createProject, nativeTrace } from '../helpers/vitestProject.js';

const SIMPLE_EVAL = `
import { expect, test } from 'vitest';
test('clean', () => { expect('traces/clean.json').toHaveNoSignals(); });
`;

describe('the plugin in a Vitest run', () => {
  it("keeps the user's reporters and Vitest's own, and survives --reporter on the command line", async () => {
    const project = createProject({
      'vitest.config.ts': configWith('{}', "reporters: ['verbose']"),
      'traces/clean.json': nativeTrace('clean-1', 1),
      'evals.test.ts': SIMPLE_EVAL,
    });
    const verbose = await project.run();
    expect(verbose.code, verbose.output).toBe(0);
    // The verbose reporter's line; the plugin turns on includeTaskLocation, so it carries the test's
    // line (Vitest 4 adds the column, 5 does not).
    expect(verbose.output).toMatch(/✓ evals\.test\.ts:3(:1)? > clean/);
    expect(project.readReport().testRun).toMatchObject({ tests: 1, passed: 1 });
    expect(project.readReport().tests[0]).toMatchObject({ file: 'evals.test.ts', line: 3 });

    const json = await project.run(['--reporter=json', '--outputFile=vitest.json']);
    expect(json.code, json.output).toBe(0);
    expect(JSON.parse(readFileSync(path.join(project.dir, 'vitest.json'), 'utf8')).numPassedTests).toBe(1);
    expect(project.readReport().tests[0].name).toBe('evals.test.ts > clean');
  }, 120_000);

  it('describeTraces: one test per recording named by its id; unreadable input is a failing test, the good traces still run', async () => {
    const project = createProject({
      'vitest.config.ts': configWith(),
      'traces/a.jsonl': `${nativeTrace('run-a', 1)}\n${nativeTrace('run-b', 6)}\n{"id": "broken", "steps": [{"type": "tool"}]}\n`,
      'evals.test.ts': `
import { expect } from 'vitest';
import { describeTraces } from 'tracejury/vitest';
describeTraces('traces/*.jsonl', (trace) => { expect(trace).not.toHaveSignal('TOOL_LOOP'); });
`,
    });
    const run = await project.run();
    expect(run.code, run.output).toBe(1);
    expect(run.output).toMatch(/traces: traces\/\*\.jsonl > run-b/);
    expect(run.output).toMatch(/input errors in traces\/\*\.jsonl/);
    expect(run.output).toContain('traces/a.jsonl:3: steps[0].name');
    const report = project.readReport();
    const byName = Object.fromEntries(
      report.tests.map((t: { name: string; state: string }) => [t.name, t.state]),
    );
    expect(byName).toEqual({
      'evals.test.ts > traces: traces/*.jsonl > input errors in traces/*.jsonl': 'failed',
      'evals.test.ts > traces: traces/*.jsonl > run-a': 'passed',
      'evals.test.ts > traces: traces/*.jsonl > run-b': 'failed',
    });
    // Tests declared inside describeTraces point at its call (line 4), where annotations go.
    expect(report.tests.map((t: { line?: number }) => t.line)).toEqual([4, 4, 4]);
    expect(report.inputs.errors[0]).toMatchObject({
      file: 'traces/a.jsonl',
      line: 3,
      field: 'steps[0].name',
    });
    expect(report.gate.reasons.join(' ')).toMatch(/1 input error/);
  }, 120_000);

  it('repeats: each attempt is recorded with pass^k and pass@k; passRate lets 3 of 4 pass and says so', async () => {
    const evals = `
import { expect, test } from 'vitest';
let n = 0;
test('flaky agent', { repeats: 3 }, () => {
  n++;
  expect(n === 2 ? 'traces/looping.json' : 'traces/clean.json').not.toHaveSignal('TOOL_LOOP');
});
test('steady agent', { repeats: 3 }, () => { expect('traces/clean.json').toHaveNoSignals(); });
`;
    const files = {
      'traces/clean.json': nativeTrace('clean-1', 1),
      'traces/looping.json': nativeTrace('loop-1', 6),
      'evals.test.ts': evals,
    };
    const strict = createProject({ 'vitest.config.ts': configWith(), ...files });
    const failing = await strict.run();
    expect(failing.code, failing.output).toBe(1);
    const flaky = strict.readReport().tests.find((t: { name: string }) => t.name.endsWith('flaky agent'));
    expect(flaky).toMatchObject({ state: 'failed', attempts: 4, passedAttempts: 3 });
    expect(flaky.passHatK[0]).toBeCloseTo(0.75);
    expect(flaky.passHatK[3]).toBe(0);
    expect(flaky.passAtK[1]).toBe(1);
    const run = strict.readReport().testRun;
    expect(run.repeated).toBe(2);
    expect(run.passHatK[3]).toBeCloseTo(0.5); // steady 1, flaky 0
    expect(failing.output).toMatch(/Repeated tests: 2; pass\^k 0\.88 · 0\.75 · 0\.63 · 0\.50/);

    const lenient = createProject({ 'vitest.config.ts': configWith('{ passRate: 0.75 }'), ...files });
    const passing = await lenient.run();
    expect(passing.code, passing.output).toBe(0);
    const flakyOk = lenient.readReport().tests.find((t: { name: string }) => t.name.endsWith('flaky agent'));
    expect(flakyOk).toMatchObject({
      state: 'passed',
      attempts: 4,
      passedAttempts: 3,
      passRate: { required: 0.75, met: true },
    });
    expect(passing.output).toMatch(/flaky agent — 3 of 4 attempts passed \(passRate 0\.75\)/);

    const tooStrict = createProject({ 'vitest.config.ts': configWith('{ passRate: 0.9 }'), ...files });
    const missed = await tooStrict.run();
    expect(missed.code, missed.output).toBe(1);
    expect(missed.output).toContain('tracejury: 3 of 4 attempts passed; passRate 0.9 needs 4');
  }, 180_000);

  it('retries are attempts too; concurrent tests keep their own traces; summary: false prints none', async () => {
    const project = createProject({
      'vitest.config.ts': configWith('{ summary: false }'),
      'traces/clean.json': nativeTrace('clean-1', 1),
      'traces/looping.json': nativeTrace('loop-1', 6),
      'evals.test.ts': `
import { test } from 'vitest';
let tries = 0;
test('passes on its second try', { retry: 2 }, ({ expect }) => {
  tries++;
  expect(tries === 1 ? 'traces/looping.json' : 'traces/clean.json').toHaveNoSignals();
});
test.concurrent('concurrent a', async ({ expect }) => {
  await new Promise((r) => setTimeout(r, 30));
  expect('traces/clean.json').toHaveNoSignals();
});
test.concurrent('concurrent b', async ({ expect }) => {
  expect('traces/looping.json').toHaveSignal('TOOL_LOOP');
  await new Promise((r) => setTimeout(r, 60));
});
`,
    });
    const run = await project.run();
    expect(run.code, run.output).toBe(0);
    expect(run.output).not.toContain('Gate:');
    const tests = Object.fromEntries(
      project.readReport().tests.map((t: { name: string }) => [t.name.replace('evals.test.ts > ', ''), t]),
    );
    expect(tests['passes on its second try']).toMatchObject({
      state: 'passed',
      attempts: 2,
      passedAttempts: 1,
    });
    expect(tests['concurrent a'].traces).toEqual(['clean-1']);
    expect(tests['concurrent b'].traces).toEqual(['loop-1']);
  }, 120_000);

  it('tracejury/vitest/matchers wires the matchers by hand, without the plugin (and without a report)', async () => {
    const project = createProject({
      'vitest.config.ts': `import { defineConfig } from 'vitest/config';
export default defineConfig({ test: { setupFiles: ['./setup.ts'] } });
`,
      'setup.ts': `import { expect } from 'vitest';
import { matchers } from 'tracejury/vitest/matchers';
expect.extend(matchers);
`,
      'traces/looping.json': nativeTrace('loop-1', 6),
      'evals.test.ts': `import { expect, test } from 'vitest';
test('loop', () => { expect('traces/looping.json').toHaveSignal('TOOL_LOOP'); });
test('no loop (fails on purpose)', () => { expect('traces/looping.json').not.toHaveSignal('TOOL_LOOP'); });
`,
    });
    const run = await project.run();
    expect(run.code, run.output).toBe(1);
    expect(run.output).toMatch(/Tests\s+1 failed \| 1 passed/);
    expect(run.output).toContain('expected trace loop-1 not to have a TOOL_LOOP signal');
    expect(() => project.readReport()).toThrow(/no report/);
  }, 120_000);

  it('a sharded run merged with --merge-reports gives one report of every test', async () => {
    const project = createProject({
      'vitest.config.ts': configWith(),
      'traces/clean.json': nativeTrace('clean-1', 1),
      'traces/looping.json': nativeTrace('loop-1', 6),
      'a.test.ts': `import { expect, test } from 'vitest';\ntest('a', () => { expect('traces/clean.json').toHaveNoSignals(); });\n`,
      'b.test.ts': `import { expect, test } from 'vitest';\ntest('b', () => { expect('traces/looping.json').toHaveSignal('TOOL_LOOP'); });\n`,
    });
    const one = await project.run([
      '--shard=1/2',
      '--reporter=blob',
      '--outputFile=.vitest-reports/blob-1.json',
    ]);
    const two = await project.run([
      '--shard=2/2',
      '--reporter=blob',
      '--outputFile=.vitest-reports/blob-2.json',
    ]);
    expect([one.code, two.code], one.output + two.output).toEqual([0, 0]);
    const shardReports = [1, 2].map((i) => project.readReport(`.tracejury/report.shard-${i}-of-2.json`));
    expect(shardReports.map((r) => r.tests.length)).toEqual([1, 1]);
    const merged = await project.run(['--merge-reports=.vitest-reports']);
    expect(merged.code, merged.output).toBe(0);
    const report = project.readReport();
    expect(report.tests.map((t: { name: string }) => t.name).sort()).toEqual([
      'a.test.ts > a',
      'b.test.ts > b',
    ]);
    expect(
      report.signals.some(
        (s: { detector: string; test: string }) => s.detector === 'TOOL_LOOP' && s.test === 'b.test.ts > b',
      ),
    ).toBe(true);
  }, 180_000);

  it("every inline project gets the plugin's setup file, before the project's own (Vitest 5 shares the root's server)", async () => {
    // Vitest 5 resolves inline projects that extend the root from its test options as written,
    // before the plugin's config hook added the setup file; without it a project has no matchers and
    // no tracer provider before its own setup file makes instrumentations.
    const USES_MATCHER = (name: string) => `
import { expect, test } from 'vitest';
test('${name}', () => {
  expect(globalThis.matchersBeforeUserSetup ?? 'no user setup').not.toBe(false);
  expect('traces/clean.json').toHaveNoSignals();
});
`;
    const project = createProject({
      'vitest.config.ts': configWith(
        '{}',
        `projects: [
          { extends: true, test: { name: 'plain', include: ['plain.test.ts'] } },
          { extends: true, test: { name: 'own-setup', include: ['ownSetup.test.ts'], setupFiles: ['./user.setup.ts'] } },
        ]`,
      ),
      'user.setup.ts': `
import { expect } from 'vitest';
globalThis.matchersBeforeUserSetup = typeof (expect('x') as unknown as Record<string, unknown>).toHaveNoSignals === 'function';
`,
      'traces/clean.json': nativeTrace('clean-1', 1),
      'plain.test.ts': USES_MATCHER('plain'),
      'ownSetup.test.ts': USES_MATCHER('own setup'),
    });
    const run = await project.run();
    expect(run.code, run.output).toBe(0);
    const report = project.readReport();
    expect(report.testRun).toMatchObject({ tests: 2, passed: 2 });
    expect(report.tests.map((t: { name: string; line?: number }) => [t.name, t.line]).sort()).toEqual([
      ['ownSetup.test.ts > own setup', 3],
      ['plain.test.ts > plain', 3],
    ]);
  }, 120_000);

  it('a misspelt plugin option or a bad tracejury.yml fails at startup, naming the key and line', async () => {
    const typo = createProject({
      'vitest.config.ts': configWith('{ passrate: 0.5 }'),
      'evals.test.ts': SIMPLE_EVAL,
    });
    const bad = await typo.run();
    expect(bad.code, bad.output).not.toBe(0);
    expect(bad.output).toMatch(/tracejury\(\): option "passrate"/);

    const config = createProject({
      'vitest.config.ts': configWith(),
      'tracejury.yml': 'default:\n  tool_loop:\n    threshhold: 4\n',
      'evals.test.ts': SIMPLE_EVAL,
    });
    const broken = await config.run();
    expect(broken.code, broken.output).not.toBe(0);
    expect(broken.output).toMatch(/tracejury\.yml:3/);
    expect(broken.output).toMatch(/threshhold/);
  }, 120_000);
});
