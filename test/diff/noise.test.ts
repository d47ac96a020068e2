import { describe, expect, it } from 'vitest';
import { diffReports } from '../../src/diff/diffReports.js';
import { finding, report, syntheticRun, trace, verdict } from './reports.js';

describe('noise: a seeded bootstrap over traces', () => {
  // Two runs of the same agent: same behaviour, different luck (different seeds).
  const base = syntheticRun(1, 200, 0.2);
  const sameAgain = syntheticRun(2, 200, 0.2);
  // The same agent with a retry loop on about 30 % of its traces.
  const regressed = syntheticRun(2, 200, 0.2, { retryLoopShare: 0.3 });

  it('labels head = base + noise "within noise"', () => {
    const d = diffReports(base, sameAgain);
    expect(d.noise.wastePerTrace.delta).not.toBe(0);
    expect(d.noise.wastePerTrace.label).toBe('within noise');
    expect(d.noise.costPerTrace.label).toBe('within noise');
    expect(d.noise.findingsPerTrace.FALLBACK_STORM!.label).toBe('within noise');
    const [lo, hi] = d.noise.wastePerTrace.interval!;
    expect(lo).toBeLessThan(0);
    expect(hi).toBeGreaterThan(0);
    expect(d.gate).toEqual({ passed: true, reasons: [], failures: [] });
  });

  it('labels a real regression (a retry loop on 30 % of traces) "up" and fails the gate', () => {
    const d = diffReports(base, regressed);
    expect(d.noise.wastePerTrace.label).toBe('up');
    expect(d.noise.wastePerTrace.interval![0]).toBeGreaterThan(0);
    expect(d.noise.costPerTrace.label).toBe('up');
    expect(d.noise.findingsPerTrace.RETRY_LOOP).toMatchObject({ base: 0, label: 'up' });
    expect(d.noise.findingsPerTrace.RETRY_LOOP!.head).toBeGreaterThan(0.2);
    // The retry loops are medium findings: only the waste rule fails the gate.
    expect(d.gate.passed).toBe(false);
    expect(d.gate.reasons).toHaveLength(1);
    expect(d.gate.reasons[0]).toMatch(
      /^waste per trace up \d+(\.\d)?% \(\$[\d.]+ → \$[\d.]+\), beyond noise \(95% interval \+\$[\d.]+ to \+\$[\d.]+\); the limit is regression\.wasteIncreasePct 20%$/,
    );
    // The same failure as data: the rule, where its limit is set, and the number that fired it.
    expect(d.gate.failures).toEqual([
      {
        rule: 'wasteIncreasePct',
        setting: 'regression.wasteIncreasePct',
        limit: '20%',
        fired: expect.stringMatching(/^waste per trace \+\d+(\.\d)?%, beyond noise$/),
      },
    ]);
  });

  it('gives the same intervals on every run', () => {
    const a = JSON.stringify(diffReports(base, regressed));
    const b = JSON.stringify(
      diffReports(syntheticRun(1, 200, 0.2), syntheticRun(2, 200, 0.2, { retryLoopShare: 0.3 })),
    );
    expect(a).toBe(b);
  });

  it('leaves waste ungated when the increase is below wasteIncreasePct, or the rule is off', () => {
    expect(diffReports(base, regressed, { regression: { wasteIncreasePct: 10_000 } }).gate.passed).toBe(true);
    expect(diffReports(base, regressed, { regression: { wasteIncreasePct: false } }).gate.passed).toBe(true);
  });

  it('computes no interval with fewer than 10 traces on a side, and says why', () => {
    const few = syntheticRun(3, 7, 0.5);
    const d = diffReports(few, syntheticRun(4, 40, 0.5, { retryLoopShare: 0.9 }));
    expect(d.noise.wastePerTrace).toMatchObject({ interval: null, label: 'too few traces (7 < 10)' });
    expect(d.noise.findingsPerTrace.RETRY_LOOP!.label).toBe('too few traces (7 < 10)');
    // A rise that cannot be told from noise does not fail the gate; a note says so.
    expect(d.gate.passed).toBe(true);
    expect(d.notes.join('\n')).toMatch(/waste per trace up .* but too few traces \(7 < 10\): not gated/);
  });

  it('joins waste to traces by file and trace id', () => {
    const traces = [trace({ id: 't', file: 'a.jsonl' }), trace({ id: 't', file: 'b.jsonl' })];
    const d = diffReports(
      report({ traces }),
      report({ traces, signals: [finding({ traceId: 't', file: 'b.jsonl', wasteUsd: 0.2 })] }),
    );
    expect(d.noise.wastePerTrace).toMatchObject({ base: 0, head: 0.1 });
    expect(d.notes).toEqual(['waste per trace up ($0.00 → $0.1000), but too few traces (2 < 10): not gated']);
  });
});

describe('the regression gate', () => {
  const traces = Array.from({ length: 3 }, (_, i) => trace({ id: `t${i}` }));

  it('fails on a new finding of high severity or worse by default, not on a medium one', () => {
    const base = report({ traces });
    const high = report({
      traces,
      signals: [finding({ traceId: 't1', detector: 'RETRY_STORM', severity: 'high' })],
    });
    const d = diffReports(base, high);
    expect(d.gate.passed).toBe(false);
    expect(d.gate.reasons).toEqual([
      '1 new finding at high or worse: RETRY_STORM (first: RETRY_STORM in t1 (runs.jsonl))',
    ]);
    const medium = report({ traces, signals: [finding({ traceId: 't1', severity: 'medium' })] });
    expect(diffReports(base, medium).gate.passed).toBe(true);
    expect(
      diffReports(base, medium, { regression: { newSignals: { minSeverity: 'medium' } } }).gate.passed,
    ).toBe(false);
    expect(diffReports(base, high, { regression: { newSignals: false } }).gate.passed).toBe(true);
  });

  it('does not fail on a finding that persists', () => {
    const r = report({ traces, signals: [finding({ traceId: 't1', severity: 'critical' })] });
    expect(diffReports(r, r).gate.passed).toBe(true);
  });

  it('fails on a pass-rate drop beyond noise, and only notes one it cannot tell from noise', () => {
    const verdicts = (passed: number, total: number) =>
      Array.from({ length: total }, (_, i) => verdict(i < passed, `t${i}`));
    const d = diffReports(report({ verdicts: verdicts(19, 20) }), report({ verdicts: verdicts(8, 20) }));
    expect(d.verdicts.noise!.label).toBe('down');
    expect(d.gate.reasons).toEqual([
      'verdict pass rate fell 0.95 → 0.40 (-0.55), beyond noise; the limit is regression.verdictPassRateDrop 0.1',
    ]);
    const few = diffReports(report({ verdicts: verdicts(5, 5) }), report({ verdicts: verdicts(1, 5) }));
    expect(few.gate.passed).toBe(true);
    expect(few.notes).toEqual([
      'verdict pass rate fell 1.00 → 0.20 (-0.80), but too few verdicts (5 < 10): not gated',
    ]);
    // A small drop is not a regression even when it is real.
    const small = diffReports(
      report({ verdicts: verdicts(100, 100) }),
      report({ verdicts: verdicts(95, 100) }),
    );
    expect(small.gate.passed).toBe(true);
  });
});

describe('noise on large runs', () => {
  it('draws resample means from their normal limit above 20,000 traces, with the same labels', () => {
    const base = syntheticRun(5, 25_000, 0.2);
    expect(diffReports(base, syntheticRun(6, 25_000, 0.2)).noise.wastePerTrace.label).toBe('within noise');
    const up = diffReports(base, syntheticRun(6, 25_000, 0.2, { retryLoopShare: 0.05 }));
    expect(up.noise.wastePerTrace.label).toBe('up');
    expect(up.noise.findingsPerTrace.RETRY_LOOP!.label).toBe('up');
  });
});
