/**
 * Baselines that exist when runs exist: with no baseline store (a CI job's checkout), an agent's
 * good runs in the input (or in the base branch's report) are its baseline once there are
 * baselines.minRuns (20) of them; with fewer, the static fallbacks apply. Every report says which.
 */
import { describe, expect, it } from 'vitest';
import { analyze, MAX_HELD_TRACES } from '../../src/analyze.js';
import { emptyBaselines, updateBaselines } from '../../src/baseline/store.js';
import { parseConfig } from '../../src/config/config.js';
import { mdText } from '../../src/redact/markdown.js';
import { renderMarkdown } from '../../src/report/renderMarkdown.js';
import { renderText } from '../../src/report/renderText.js';
import type { Report } from '../../src/report/schema.js';
import { codingRun, normalRuns, outlierRun } from '../helpers/codingRuns.js';
import { makeTrace } from '../helpers/traceBuilder.js';

const config = parseConfig('', 'tracejury.yml');
const noStore = emptyBaselines();

const run = codingRun;
const normal = normalRuns;
const outlier = outlierRun;

const findings = (report: Report, detector: string) =>
  report.signals.filter((s) => s.detector === detector && s.status === 'finding');

describe('baselines from the input', () => {
  it('with 24 good runs in the input, a normal run is not flagged and an outlier is', async () => {
    const report = await analyze([...normal(24), outlier()], { config, baselines: noStore });

    for (const detector of ['COST_SPIKE', 'CONTEXT_BLOAT', 'STEP_COUNT_INFLATION']) {
      expect(
        findings(report, detector).map((s) => s.traceId),
        detector,
      ).toEqual(['outlier']);
    }
    const spike = findings(report, 'COST_SPIKE')[0]!;
    expect(spike.message).toContain('P75 baseline of 25 good runs in this input');
    expect(spike.evidence).toMatchObject({ rule: 'baseline', baselineSource: 'input', runs: 25 });

    expect(report.baselines).toEqual([
      {
        agent: 'coder',
        traces: 25,
        detectors: {
          SLOW_STEP: { source: 'static', runs: 0 },
          CONTEXT_BLOAT: { source: 'input', runs: 25 },
          REASONING_STALL: { source: 'input', runs: 25 },
          STEP_COUNT_INFLATION: { source: 'input', runs: 25 },
          COST_SPIKE: { source: 'input', runs: 25 },
          SESSION_LATENCY: { source: 'static', runs: 0 },
        },
      },
    ]);
    const line =
      "Baselines: CONTEXT_BLOAT, COST_SPIKE, REASONING_STALL, STEP_COUNT_INFLATION: the input's good runs (25 runs); " +
      'SESSION_LATENCY, SLOW_STEP: static fallback (no good run measured it)';
    expect(renderText(report, { color: false })).toContain(line);
    expect(renderMarkdown(report)).toContain(mdText(line, 1000).source);
  });

  it('with 10 good runs, the static fallbacks apply, and the report says so', async () => {
    const report = await analyze([...normal(10), outlier()], { config, baselines: noStore });

    // Every run is over the static limits, the normal ones included.
    expect(findings(report, 'COST_SPIKE')).toHaveLength(11);
    expect(findings(report, 'COST_SPIKE')[0]!.message).toContain('static fallback: > 50,000 tokens');
    expect(findings(report, 'STEP_COUNT_INFLATION')).toEqual([]);
    expect(report.baselines?.[0]?.detectors.COST_SPIKE).toEqual({ source: 'static', runs: 11 });
    expect(renderText(report, { color: false })).toContain(
      'COST_SPIKE, REASONING_STALL, STEP_COUNT_INFLATION: static fallback (11 good runs, too few)',
    );
  });

  it('learns only good runs: failed outcomes and errored runs do not make a baseline', async () => {
    const failed = normal(20, 'failed').map((r) => ({
      ...r,
      outcome: { success: false, source: 'test' },
    }));
    const errored = normal(5, 'errored').map((r) => ({ ...r, status: 'error' as const }));
    const report = await analyze([...failed, ...errored, ...normal(4), outlier()], {
      config,
      baselines: noStore,
    });
    expect(report.baselines?.[0]?.detectors.COST_SPIKE).toEqual({ source: 'static', runs: 5 });
    expect(findings(report, 'COST_SPIKE')).toHaveLength(30);
  });

  it('prefers the store once it has 20 runs of the agent, and keeps the input in its order', async () => {
    // The store knows `coder`; `helper` has nothing there and waits for the input's baseline.
    const store = updateBaselines(
      emptyBaselines(),
      normal(20, 'learned').map((r) => makeTrace(r.steps!, r)),
    );
    const helpers = normal(22, 'help').map((r) => ({ ...r, agentId: 'helper' }));
    const input = [run('first', 12), ...helpers.slice(0, 11), outlier(), ...helpers.slice(11)];
    const report = await analyze(input, { config, baselines: store });

    expect(report.traces.map((t) => t.id)).toEqual(input.map((t) => t.id));
    expect(findings(report, 'COST_SPIKE')).toEqual([
      expect.objectContaining({
        traceId: 'outlier',
        evidence: expect.objectContaining({ baselineSource: 'store' }),
      }),
    ]);
    expect(report.baselines?.map((b) => [b.agent, b.detectors.COST_SPIKE])).toEqual([
      ['coder', { source: 'store', runs: 20 }],
      ['helper', { source: 'input', runs: 22 }],
    ]);
  });

  it('is off with baselines.fromInput: false, and with baselines: false', async () => {
    const off = parseConfig('baselines:\n  fromInput: false\n', 'tracejury.yml');
    for (const options of [
      { config: off, baselines: noStore },
      { config, baselines: false as const },
    ]) {
      const report = await analyze([...normal(24), outlier()], options);
      expect(findings(report, 'COST_SPIKE')).toHaveLength(25);
      expect(report.baselines?.[0]?.detectors.COST_SPIKE?.source).toBe('static');
    }
  });
});

describe("baselines from the base branch's report", () => {
  it("judges a pull request's few runs against the base report's good runs", async () => {
    const base = await analyze(normal(24, 'base'), { config, baselines: noStore });
    const head = await analyze([...normal(3, 'head'), outlier()], {
      config,
      baselines: noStore,
      baseReport: base,
    });

    expect(findings(head, 'COST_SPIKE').map((s) => s.traceId)).toEqual(['outlier']);
    expect(findings(head, 'COST_SPIKE')[0]!.message).toContain("24 good runs in the base branch's report");
    expect(head.baselines?.[0]?.detectors).toMatchObject({
      COST_SPIKE: { source: 'base-report', runs: 24 },
      CONTEXT_BLOAT: { source: 'base-report', runs: 24 },
    });
  });

  it('uses what a report before schema 1.3 holds (steps, tokens), and static fallbacks for the rest', async () => {
    const base = await analyze(normal(24, 'base'), { config, baselines: noStore });
    const old: Report = { ...base, schemaMinor: 2, traces: base.traces.map(({ measures: _, ...t }) => t) };
    const head = await analyze([...normal(3, 'head'), outlier()], {
      config,
      baselines: noStore,
      baseReport: old,
    });

    expect(head.baselines?.[0]?.detectors).toMatchObject({
      COST_SPIKE: { source: 'base-report', runs: 24 },
      STEP_COUNT_INFLATION: { source: 'base-report', runs: 24 },
      CONTEXT_BLOAT: { source: 'static', runs: 4 },
    });
    expect(findings(head, 'CONTEXT_BLOAT')).toHaveLength(4);
  });
});

describe('baselines from a large input', () => {
  it(`holds at most ${MAX_HELD_TRACES} traces: later ones are judged against the good runs read before them`, async () => {
    const runs = [
      ...Array.from({ length: MAX_HELD_TRACES + 40 }, (_, i) => codingRun(`r-${i}`, 3)),
      outlier(),
    ];
    const report = await analyze(runs, { config, baselines: noStore });
    expect(report.traces).toHaveLength(runs.length);
    expect(report.traces.at(-1)!.id).toBe('outlier');
    // STEP_COUNT_INFLATION has no static fallback: it fires only against a baseline.
    expect(findings(report, 'STEP_COUNT_INFLATION').map((s) => s.traceId)).toEqual(['outlier']);
    expect(report.notes).toContainEqual(
      expect.stringMatching(
        /^more than 10,000 traces waited for their agent's baselines from the input: the 41 read after/,
      ),
    );
  }, 60_000);
});
