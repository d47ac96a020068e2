import { describe, expect, it } from 'vitest';
import { diffReports } from '../../src/diff/diffReports.js';
import { ReportDiffSchema } from '../../src/diff/schema.js';
import type { SessionScore } from '../../src/report/schema.js';
import { finding, report, trace, verdict } from './reports.js';

const session = (fields: Partial<SessionScore>): SessionScore => ({
  sessionId: 's1',
  metric: 'agent_reliability',
  score: 0.5,
  passed: true,
  reason: 'r',
  metadata: {},
  ...fields,
});

describe('diffReports: totals and deltas', () => {
  const base = report({
    traces: [trace({ id: 'a', costUsd: 0.1 }), trace({ id: 'b', costUsd: 0.1 })],
    signals: [
      finding({ traceId: 'a', detector: 'RETRY_LOOP', severity: 'medium', wasteUsd: 0.04, wasteTokens: 400 }),
      finding({ traceId: 'b', detector: 'TOOL_LOOP', severity: 'high' }),
      // Not a finding: counted nowhere.
      finding({ traceId: 'b', detector: 'TOOL_LOOP', status: 'review', confidence: 0.5 }),
    ],
    judgeUsd: 0.01,
  });
  const head = report({
    traces: [
      trace({ id: 'a', costUsd: 0.1 }),
      trace({ id: 'b', costUsd: 0.2 }),
      trace({ id: 'c', costUsd: 0.1 }),
      trace({ id: 'd', costUsd: 0.1 }),
    ],
    signals: [
      finding({ traceId: 'a', detector: 'RETRY_LOOP', severity: 'medium', wasteUsd: 0.04, wasteTokens: 400 }),
      finding({ traceId: 'c', detector: 'RETRY_LOOP', severity: 'medium', wasteUsd: 0.08, wasteTokens: 800 }),
      finding({
        traceId: 'd',
        detector: 'OVERKILL_MODEL',
        severity: 'low',
        wasteUsd: 0.02,
        wasteTokens: 100,
      }),
    ],
    judgeUsd: 0.03,
  });
  const diff = diffReports(base, head);

  it('is a valid ReportDiff', () => {
    expect(() => ReportDiffSchema.parse(diff)).not.toThrow();
  });

  it('gives each total absolute and relative, relative null when base is 0', () => {
    expect(diff.totals.traces).toEqual({ base: 2, head: 4, delta: 2, relative: 1 });
    expect(diff.totals.costUsd).toEqual({ base: 0.2, head: 0.5, delta: 0.3, relative: 1.5 });
    expect(diff.totals.wasteUsd).toMatchObject({ base: 0.04, delta: 0.1, relative: 2.5 });
    expect(diff.totals.wasteUsd.head).toBeCloseTo(0.14, 12);
    expect(diff.totals.wasteTokens).toMatchObject({ base: 400, head: 1300, delta: 900 });
    // $0.04 over 2 traces is $2 per 100; $0.14 over 4 is $3.50.
    expect(diff.totals.wastePer100Traces).toMatchObject({ base: 2, delta: 1.5, relative: 0.75 });
    expect(diff.totals.wastePer100Traces.head).toBeCloseTo(3.5, 12);
    expect(diff.totals.findings).toMatchObject({ base: 2, head: 3 });
    expect(diff.totals.judgeUsd).toMatchObject({ base: 0.01, head: 0.03, delta: 0.02 });
  });

  it('counts findings by detector and by severity', () => {
    const by = Object.fromEntries(diff.detectors.map((d) => [d.detector, d]));
    expect(by.RETRY_LOOP!.findings).toEqual({ base: 1, head: 2, delta: 1, relative: 1 });
    expect(by.RETRY_LOOP!.wasteUsd).toMatchObject({ base: 0.04, head: 0.12, delta: 0.08 });
    expect(by.OVERKILL_MODEL!.findings).toEqual({ base: 0, head: 1, delta: 1, relative: null });
    expect(by.TOOL_LOOP!.findings).toEqual({ base: 1, head: 0, delta: -1, relative: -1 });
    // Most waste first.
    expect(diff.detectors[0]!.detector).toBe('RETRY_LOOP');
    expect(diff.severities.high).toEqual({ base: 1, head: 0, delta: -1, relative: -1 });
    expect(diff.severities.medium).toEqual({ base: 1, head: 2, delta: 1, relative: 1 });
    expect(diff.severities.low).toEqual({ base: 0, head: 1, delta: 1, relative: null });
    expect(diff.severities.critical).toEqual({ base: 0, head: 0, delta: 0, relative: null });
  });

  it('takes equal sums as equal (no float dust in a delta)', () => {
    const a = report({ traces: [trace({ id: 'x', costUsd: 0.1 }), trace({ id: 'y', costUsd: 0.2 })] });
    const b = report({ traces: [trace({ id: 'x', costUsd: 0.3 })] });
    expect(diffReports(a, b).totals.costUsd.delta).toBe(0);
  });

  it('gives verdict pass rates, indeterminate counting as not passed', () => {
    const d = diffReports(
      report({ verdicts: [verdict(true), verdict(true), verdict(false), verdict(true)] }),
      report({ verdicts: [verdict(true), { ...verdict(true), indeterminate: true }] }),
    );
    expect(d.verdicts.base).toEqual({ passed: 3, total: 4, rate: 0.75 });
    expect(d.verdicts.head).toEqual({ passed: 1, total: 2, rate: 0.5 });
    expect(d.verdicts.delta).toBe(-0.25);
    expect(diffReports(report(), report()).verdicts).toMatchObject({ delta: null });
    // With no outcome recorded, the judges' verdicts are success, compared as independent samples.
    const success = d.quantities.find((q) => q.id === 'success')!;
    expect(success).toMatchObject({
      source: 'verdicts',
      base: { runs: 4, mean: 0.75 },
      head: { runs: 2, mean: 0.5 },
    });
    expect(d.outcomes).toMatchObject({
      source: 'verdicts',
      base: { succeeded: 3, runs: 4 },
      head: { succeeded: 1, runs: 2 },
    });
  });

  it('pairs session scores by session id and metric, or by test name', () => {
    const d = diffReports(
      report({
        sessions: [
          session({ sessionId: 's1', score: 0.8 }),
          session({ sessionId: 's1', metric: 'agent_consistency', score: 0.9 }),
          session({ sessionId: 'run-1', test: 'suite > books a flight', score: 0.7 }),
          session({ sessionId: 'gone', score: 0.4 }),
        ],
      }),
      report({
        sessions: [
          session({ sessionId: 's1', score: 0.6 }),
          session({ sessionId: 's1', metric: 'agent_consistency', score: 0.9 }),
          // Another session id in the new run, same test: the same score.
          session({ sessionId: 'run-2', test: 'suite > books a flight', score: 0.75, passed: false }),
        ],
      }),
    );
    const find = (id: string, metric = 'agent_reliability') =>
      d.sessions.find((s) => s.sessionId === id && s.metric === metric);
    expect(find('s1')).toMatchObject({ base: 0.8, head: 0.6, delta: -0.2 });
    expect(find('s1', 'agent_consistency')).toMatchObject({ delta: 0 });
    expect(find('run-2')).toMatchObject({
      test: 'suite > books a flight',
      base: 0.7,
      head: 0.75,
      delta: 0.05,
      headPassed: false,
    });
    expect(find('gone')).toMatchObject({ base: 0.4, head: null, delta: null });
    // Worst change first.
    expect(d.sessions[0]!.delta).toBe(-0.2);
  });

  it('carries the head review list', () => {
    const d = diffReports(report(), report({ review: [{ traceId: 't', reason: 'gray zone' }] }));
    expect(d.review).toEqual([{ traceId: 't', reason: 'gray zone' }]);
  });
});
