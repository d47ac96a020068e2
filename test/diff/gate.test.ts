/**
 * The regression gate as a statistical test of "worse", on literal reports: what the issue asks
 * to be shown (A/A passes with new findings, a paired drop fails naming success, an improvement
 * passes, a drop under the minimum effect passes, unpaired samples use the unpaired test, the
 * correction holds false alarms at α in a seeded simulation).
 */
import { describe, expect, it } from 'vitest';
import { diffReports } from '../../src/diff/diffReports.js';
import { renderDiffMarkdown } from '../../src/diff/renderMarkdown.js';
import { mulberry32 } from '../../src/diff/prng.js';
import type { Quantity } from '../../src/diff/quantity.js';
import { ReportDiffSchema, type ReportDiff } from '../../src/diff/schema.js';
import { fisherExact } from '../../src/diff/stats/fisher.js';
import { binomialCdf } from '../../src/diff/stats/binomial.js';
import { finding, report, taskRun, trace } from './reports.js';

const q = (d: ReportDiff, id: string): Quantity => {
  const found = d.quantities.find((x) => x.id === id);
  if (!found) throw new Error(`no quantity ${id}`);
  return found;
};

/** `n` tasks with one run each: `pass(i)` says whether task i's run succeeded. */
const oneRunEach = (n: number, pass: (i: number) => boolean, options: Parameters<typeof taskRun>[1] = {}) =>
  taskRun(
    Array.from({ length: n }, (_, i) => [pass(i)]),
    options,
  );

describe('the regression gate: a one-sided test of worse', () => {
  it('passes an A/A pair whose high findings fall on different runs, and still lists them as new', () => {
    // The same agent twice on 50 tasks × 2 runs: about half succeed, each side loops on 4 runs.
    const random = mulberry32(4);
    const outcomes = () => Array.from({ length: 50 }, () => [random() < 0.5, random() < 0.5]);
    const base = taskRun(outcomes(), { file: 'base.jsonl', flag: (i, r) => r === 0 && i % 13 === 1 });
    const head = taskRun(outcomes(), { file: 'head.jsonl', flag: (i, r) => r === 1 && i % 13 === 5 });
    const d = diffReports(base, head);
    expect(() => ReportDiffSchema.parse(d)).not.toThrow();
    expect(d.signals.new.length).toBeGreaterThan(0);
    expect(d.signals.resolved.length).toBeGreaterThan(0);
    expect(d.gate).toMatchObject({ passed: true, failures: [], decidedBy: null });
    expect(q(d, 'findings')).toMatchObject({ status: 'compared', gated: true, decision: 'passed' });
    expect(q(d, 'success').pairing).toEqual({ method: 'paired', by: 'task', matched: 50 });
  });

  it('fails a paired success drop beyond noise and names success, its change, interval and pairing', () => {
    // 60 tasks: 40 passed in base; in head 25 of those fail, nothing else moves.
    const base = oneRunEach(60, (i) => i < 40, { file: 'base.jsonl' });
    const head = oneRunEach(60, (i) => i >= 25 && i < 40, { file: 'head.jsonl' });
    const d = diffReports(base, head);
    const s = q(d, 'success');
    expect(s).toMatchObject({
      status: 'compared',
      pairing: { method: 'paired', by: 'task', matched: 60 },
      test: 'sign-flip, exact',
      decision: 'failed',
      reading: 'worse',
    });
    // 25 discordant tasks all pass → fail: the exact test on discordant pairs, P(Bin(25, ½) ≤ 0).
    expect(s.p).toBeCloseTo(binomialCdf(0, 25, 0.5), 15);
    expect(s.change).toBeCloseTo(-25 / 60, 12);
    expect(d.gate.passed).toBe(false);
    expect(d.gate.decidedBy).toBe('success');
    expect(d.gate.failures[0]).toEqual({
      rule: 'quantity',
      quantity: 'success',
      setting: 'regression.minEffect.success',
      limit: '5 pts',
      fired: expect.stringMatching(
        /^success 67 % → 25 % \(−42 pts, 95 % interval −\d+ … −\d+\), 60 tasks paired$/,
      ),
    });
    expect(d.gate.reasons[0]).toMatch(/^success 67 % → 25 % .*: worse beyond noise \(one-sided p < 0\.0001/);
  });

  it('never fails an improvement, of any size, even when the findings rise with it', () => {
    const worse = oneRunEach(60, (i) => i >= 25 && i < 40, { file: 'base.jsonl' });
    const better = oneRunEach(60, (i) => i < 40, { file: 'head.jsonl', flag: (i) => i < 30 });
    const d = diffReports(worse, better);
    expect(d.gate.passed).toBe(true);
    expect(q(d, 'success')).toMatchObject({ reading: 'better', decision: 'passed' });
    // Findings on 30 of 60 runs against none: worse beyond noise, but success rose beyond noise.
    expect(q(d, 'findings')).toMatchObject({ reading: 'worse', decision: 'excused' });
    // A small improvement passes too.
    const small = diffReports(
      oneRunEach(60, (i) => i < 30),
      oneRunEach(60, (i) => i < 31),
    );
    expect(small.gate.passed).toBe(true);
    expect(q(small, 'success').change).toBeGreaterThan(0);
  });

  it('does not excuse a rise in findings when success did not rise beyond noise', () => {
    const base = oneRunEach(60, (i) => i < 30, { file: 'base.jsonl' });
    const head = oneRunEach(60, (i) => i < 30, { file: 'head.jsonl', flag: (i) => i < 30 });
    const d = diffReports(base, head);
    expect(q(d, 'findings')).toMatchObject({ reading: 'worse', decision: 'failed' });
    expect(d.gate.decidedBy).toBe('findings');
  });

  it('passes a drop beyond noise that is smaller than its minimum effect, and fails it when the limit is lowered', () => {
    // 2,000 tasks, 60 pass → fail and none back: a 3-point drop, far beyond noise.
    const base = oneRunEach(2000, (i) => i < 1200, { file: 'base.jsonl' });
    const head = oneRunEach(2000, (i) => i < 1140, { file: 'head.jsonl' });
    const d = diffReports(base, head);
    expect(q(d, 'success')).toMatchObject({ reading: 'worse', decision: 'small', minEffect: 0.05 });
    expect(d.gate.passed).toBe(true);
    const strict = diffReports(base, head, { regression: { minEffect: { success: 0.02 } } });
    expect(strict.gate.passed).toBe(false);
    expect(strict.gate.failures[0]).toMatchObject({ quantity: 'success', limit: '2 pts' });
  });

  it('compares runs of different tasks as independent samples, with the unpaired test', () => {
    // Base ran tasks a-*, head tasks b-*: nothing to pair.
    const base = oneRunEach(40, (i) => i < 30, { file: 'base.jsonl', task: (i) => `a-${i}` });
    const head = oneRunEach(40, (i) => i < 15, { file: 'head.jsonl', task: (i) => `b-${i}` });
    const d = diffReports(base, head);
    const s = q(d, 'success');
    expect(s.pairing).toEqual({ method: 'unpaired' });
    expect(s.test).toBe("Fisher's exact");
    const counts = { baseSuccesses: 30, baseRuns: 40, headSuccesses: 15, headRuns: 40 };
    expect(s.p).toBeCloseTo(fisherExact(counts, 'less'), 15);
    expect(s.pBetter).toBeCloseTo(fisherExact(counts, 'greater'), 15);
    expect(s.decision).toBe('failed');
    expect(d.gate.failures[0]!.fired).toMatch(
      /^success 75 % → 38 % \(−38 pts, 95 % interval −\d+ … −\d+\), 40 runs a side$/,
    );
  });

  it('takes a task run several times as one unit: the mean of its runs (τ-bench trials)', () => {
    // 30 tasks × 2 trials a side; head loses one of two passes on 20 tasks.
    const base = taskRun(
      Array.from({ length: 30 }, (_, i) => [i < 24, i < 24]),
      { file: 'base.jsonl' },
    );
    const head = taskRun(
      Array.from({ length: 30 }, (_, i) => [i < 24, i < 4]),
      { file: 'head.jsonl' },
    );
    const s = q(diffReports(base, head), 'success');
    expect(s.pairing).toEqual({ method: 'paired', by: 'task', matched: 30 });
    expect(s.base).toEqual({ runs: 60, tasks: 30, mean: 0.8 });
    // 20 tasks at −0.5: P(all 20 signs negative) = 2^-20, exact on the lattice of halves.
    expect(s.p).toBeCloseTo(2 ** -20, 15);
    expect(s.change).toBeCloseTo(-10 / 30, 12);
  });

  it('holds false alarms across the default gated quantities at or below α (seeded simulation of A/A pairs)', () => {
    // Success, the share of runs with a high finding and waste per run, all gated, all the same
    // agent on both sides; minimum effects set to 0 so that only the statistics stand between an
    // A/A pair and a failure.
    const random = mulberry32(2027);
    const run = (file: string) => {
      const traces = [];
      const signals = [];
      for (let i = 0; i < 40; i++) {
        const id = `${file}-${i}`;
        traces.push(trace({ id, file, task: `t${i}`, success: random() < 0.6, costUsd: 0.02 }));
        if (random() < 0.2)
          signals.push(
            finding({ traceId: id, file, detector: 'RETRY_LOOP', wasteUsd: 0.01 + random() * 0.02 }),
          );
      }
      return report({ traces, signals });
    };
    const trials = 150;
    let failed = 0;
    let anyRaw = 0;
    for (let t = 0; t < trials; t++) {
      const d = diffReports(run('base.jsonl'), run('head.jsonl'), {
        regression: { minEffect: { success: 0, findings: 0, waste: 0 } },
      });
      const family = d.quantities.filter((x) => x.gated && x.p !== null);
      expect(family.map((x) => x.id)).toEqual(['success', 'findings', 'waste']);
      if (!d.gate.passed) failed++;
      if (family.some((x) => x.p! <= 0.05)) anyRaw++;
    }
    // Corrected: at most α (5 % of 150 is 7.5; allow its sampling error to 12).
    expect(failed).toBeLessThanOrEqual(12);
    // Uncorrected, the chance that one of three quantities looks worse is well above α.
    expect(anyRaw).toBeGreaterThan(failed);
  });
});

describe('what the gate reads', () => {
  it('says cost and waste are unknown, with the count of unpriced calls, when no call has token counts', () => {
    const silent = (file: string) =>
      report({
        traces: Array.from({ length: 20 }, (_, i) => ({
          ...trace({ id: `${file}-${i}`, file, costUsd: 0, unmeasured: 2 }),
          tokens: { input: 0, output: 0 },
        })),
      });
    const d = diffReports(silent('base.jsonl'), silent('head.jsonl'));
    expect(d.costs.head).toEqual({ llmCalls: 40, unpriced: 0, unmeasured: 40, known: 'none' });
    expect(q(d, 'cost')).toMatchObject({
      status: 'unknown',
      why: 'no LLM call of base could be priced (40 LLM calls with no token counts or recorded cost)',
      decision: 'ungated',
    });
    expect(q(d, 'waste')).toMatchObject({ status: 'unknown', decision: 'untested' });
    expect(d.notes).toContain(
      'waste per run (gated) and cost per run not compared: no LLM call of base could be priced (40 LLM calls with no token counts or recorded cost)',
    );
  });

  it('reads reports written before schema 1.4 as unmeasured when their traces have calls, no tokens and no cost', () => {
    const old = report({ traces: [{ ...trace({ id: 'a', costUsd: 0 }), tokens: { input: 0, output: 0 } }] });
    old.schemaMinor = 3;
    expect(diffReports(old, old).costs.base.known).toBe('none');
  });

  it('pairs Vitest runs by test name, over the attempts of each test', () => {
    const test = (name: string, attempts: number, passed: number) => ({
      name,
      file: 'evals.test.ts',
      state: passed === attempts ? ('passed' as const) : ('failed' as const),
      attempts,
      passedAttempts: passed,
      traces: [],
    });
    const base = report({ tests: [test('books a flight', 4, 4), test('cancels', 4, 3)] });
    const head = report({
      tests: [test('books a flight', 4, 1), test('cancels', 4, 3), test('new one', 2, 2)],
    });
    const d = diffReports(base, head);
    expect(q(d, 'success')).toMatchObject({
      source: 'tests',
      pairing: { method: 'paired', by: 'test', matched: 2, leftOut: { base: 0, head: 2 } },
      base: { runs: 8, tasks: 2, mean: 7 / 8 },
    });
    expect(d.outcomes).toMatchObject({ source: 'tests', flipped: { toFailCount: 1, toPassCount: 0 } });
    expect(d.outcomes!.passHatK).toBeUndefined();
    expect(d.outcomes!.flipped.toFail[0]).toMatchObject({
      task: 'books a flight',
      by: 'test',
      base: { passed: 4, runs: 4 },
      head: { passed: 1, runs: 4 },
    });
  });

  it("compares a repeated Vitest run's tests with the same statistics, and gives pass^k of each side", () => {
    // 12 tests run 4 times a side; head passes 1 of 4 attempts where base passed 4 of 4, on 10 tests.
    const test = (name: string, passed: number) => ({
      name,
      file: 'evals.test.ts',
      state: passed === 4 ? ('passed' as const) : ('failed' as const),
      attempts: 4,
      passedAttempts: passed,
      traces: [],
    });
    const names = Array.from({ length: 12 }, (_, i) => `evals > case ${i}`);
    const base = report({ tests: names.map((n) => test(n, 4)) });
    const head = report({ tests: names.map((n, i) => test(n, i < 10 ? 1 : 4)) });
    base.testRun = {
      tests: 12,
      passed: 12,
      failed: 0,
      skipped: 0,
      repeated: 12,
      passHatK: [1, 1, 1, 1],
      passAtK: [1, 1, 1, 1],
    };
    head.testRun = {
      tests: 12,
      passed: 2,
      failed: 10,
      skipped: 0,
      repeated: 12,
      passHatK: [0.375, 1 / 6, 1 / 6, 1 / 6],
      passAtK: [1, 1, 1, 1],
    };
    const d = diffReports(base, head);
    const s = q(d, 'success');
    expect(s).toMatchObject({
      source: 'tests',
      pairing: { method: 'paired', by: 'test', matched: 12 },
      decision: 'failed',
    });
    // Ten tests at −0.75 each: the exact sign-flip p is 2^-10.
    expect(s.p).toBeCloseTo(2 ** -10, 15);
    expect(d.outcomes!.passHatK).toEqual({ base: [1, 1, 1, 1], head: [0.375, 1 / 6, 1 / 6, 1 / 6] });
    expect(renderDiffMarkdown(d)).toContain(
      '<details><summary>Outcomes: success 100 % → 38 %, pass^4 1.00 → 0.17; 10 tasks pass → fail, 0 fail → pass</summary>',
    );
  });

  it('fails with newSignals only on a new finding of a task clean in every base run', () => {
    // Task 0 looped in base (run 0) and loops again in head (run 1): not clean, so not a failure.
    const base = taskRun(
      [
        [true, true],
        [true, true],
      ],
      { file: 'base.jsonl', flag: (i, r) => i === 0 && r === 0 },
    );
    const again = taskRun(
      [
        [true, true],
        [true, true],
      ],
      { file: 'head.jsonl', flag: (i, r) => i === 0 && r === 1 },
    );
    const on = { regression: { newSignals: { minSeverity: 'high' as const } } };
    expect(diffReports(base, again).gate.passed).toBe(true);
    expect(diffReports(base, again, on).gate.passed).toBe(true);
    // Task 1 was clean in both base runs: its new loop fails the gate, when asked.
    const fresh = taskRun(
      [
        [true, true],
        [true, true],
      ],
      { file: 'head.jsonl', flag: (i) => i === 1 },
    );
    expect(diffReports(base, fresh).gate.passed).toBe(true);
    const d = diffReports(base, fresh, on);
    expect(d.gate.passed).toBe(false);
    expect(d.gate.failures).toEqual([
      {
        rule: 'newSignals',
        setting: 'regression.newSignals.minSeverity',
        limit: 'high',
        fired: '2 new findings at high or worse on tasks clean in every base run',
      },
    ]);
  });

  it('lists per agent success and the tasks that flipped, with head traces to open', () => {
    const base = taskRun([[true], [true], [false]], { file: 'base.jsonl', agentId: 'planner' });
    const head = taskRun([[false], [true], [true]], { file: 'head.jsonl', agentId: 'planner-v2' });
    const d = diffReports(base, head);
    expect(d.outcomes!.byAgent.map((a) => [a.agent, a.base?.rate ?? null, a.head?.rate ?? null])).toEqual([
      ['planner', 2 / 3, null],
      ['planner-v2', null, 2 / 3],
    ]);
    expect(d.outcomes!.flipped.toFail).toEqual([
      {
        task: 'task-0',
        by: 'task',
        base: { passed: 1, runs: 1 },
        head: { passed: 0, runs: 1 },
        traces: [{ id: 'head.jsonl-task-0-run-0', file: 'head.jsonl' }],
      },
    ]);
    expect(d.outcomes!.flipped.toPass.map((t) => t.task)).toEqual(['task-2']);
    expect(d.outcomes!.base!.interval[0]).toBeLessThan(2 / 3);
  });

  it('fails when a value cannot be compared (a report holding Infinity), whatever the policy', () => {
    const base = report({ traces: [trace({ id: 'a' })] });
    const head = report({ traces: [trace({ id: 'a' })], signals: [finding({ traceId: 'a', wasteUsd: 1 })] });
    head.signals[0]!.wasteUsd = Number.POSITIVE_INFINITY;
    const d = diffReports(base, head);
    expect(d.gate.passed).toBe(false);
    expect(d.gate.failures[0]).toMatchObject({ rule: 'comparable' });
    expect(q(d, 'waste').status).toBe('invalid');
  });
});
