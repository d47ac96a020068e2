/**
 * Merging the partial reports of a sharded run: the shards of the bundled examples, analysed one
 * slice of the files each as matrix jobs would, merge into the report of one run over every file —
 * the same traces, findings, waste, totals and gate — and `tracejury merge` writes it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { parseConfig } from '../../src/config/config.js';
import { mergeReports } from '../../src/report/mergeReports.js';
import { ReportSchema, type Report } from '../../src/report/schema.js';
import { buildTestRunReport } from '../../src/report/testRunReport.js';
import { cli } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const example = (f: string) => `examples/traces/${f}`;
const SHARD_1 = ['native-support-agent.jsonl', 'llm-calls.jsonl', 'chat-transcript.json'].map(example);
const SHARD_2 = ['langfuse-export.json', 'openinference-rag-agent.jsonl', 'otel-support-agent.json'].map(
  example,
);
// Sessions span files only through sessionId; failGate off keeps the comparison to what merge recomputes.
const options = {
  cwd: root,
  baselines: false as const,
  config: parseConfig('sessions:\n  failGate: false\n'),
};

const key = (r: Report) => ({
  traces: r.traces.map((t) => `${t.file} ${t.id}`).sort(),
  signals: r.signals.map((s) => `${s.file} ${s.traceId} ${s.detector} ${s.status}`).sort(),
});

describe('mergeReports', () => {
  it('the shards of a run merge into the report of the whole run', async () => {
    const whole = await analyze([...SHARD_1, ...SHARD_2], options);
    const parts = [await analyze(SHARD_1, options), await analyze(SHARD_2, options)];
    const merged = ReportSchema.parse(mergeReports(parts));
    expect(key(merged)).toEqual(key(whole));
    expect(merged.waste.totalUsd).toBeCloseTo(whole.waste.totalUsd, 10);
    expect(merged.waste.byDetector).toEqual(whole.waste.byDetector);
    expect(merged.totals.costUsd).toBeCloseTo(whole.totals.costUsd, 10);
    expect(merged.totals.steps).toBe(whole.totals.steps);
    expect(merged.inputs.traces).toBe(whole.inputs.traces);
    expect(merged.gate.passed).toBe(whole.gate.passed);
    // Counted over all shards' findings together, as in one run: one reason per detector.
    expect([...merged.gate.reasons].sort()).toEqual([...whole.gate.reasons].sort());
    expect(merged.notes[0]).toBe('merged from 2 partial reports');
    // Where signals were decided adds up over the shards as in one run.
    expect(merged.decisions).toEqual(whole.decisions);
    expect(merged.decisions!.signals).toBeGreaterThan(0);
    expect(merged.baselines?.map((b) => b.agent).sort()).toEqual(whole.baselines?.map((b) => b.agent).sort());
    // Each failed run keeps its root cause, and the tally is counted over all shards' traces.
    const causes = (r: Report) =>
      Object.fromEntries(r.traces.map((t) => [`${t.file} ${t.id}`, t.rootCause ?? null]));
    expect(causes(merged)).toEqual(causes(whole));
    expect(merged.attribution).toEqual(whole.attribution);
    expect(merged.attribution!.failedRuns).toBeGreaterThan(1);
  });

  it('the shards of a Vitest run merge into one test run with its pass^k', () => {
    const shard = (name: string, attempts: boolean[], state: 'passed' | 'failed') =>
      buildTestRunReport(
        [
          {
            name,
            file: 'evals.test.ts',
            state,
            attempts,
            errors: state === 'failed' ? ['expected trace t to have no signals'] : [],
            traces: [],
            trajectories: [],
            verdicts: [],
            sessions: [],
            inputErrors: [],
          },
        ],
        { failOn: ['critical', 'high'] },
      );
    const merged = mergeReports([shard('a', [true, true], 'passed'), shard('b', [true, false], 'failed')]);
    expect(merged.testRun).toMatchObject({ tests: 2, passed: 1, failed: 1, repeated: 2 });
    expect(merged.testRun!.passHatK[1]).toBeCloseTo(0.5); // a: 1, b: 0
    expect(merged.gate.passed).toBe(false);
    expect(merged.gate.reasons[0]).toMatch(/^1 test of 2 failed \(first: b: expected trace t/);
  });

  it('tracejury merge writes the merged report and exits by its gate; a bad report is named', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tj-merge-'));
    const write = async (files: string[], name: string) => {
      const report = await analyze(files, options);
      writeFileSync(path.join(dir, name), JSON.stringify(report));
    };
    await write(SHARD_1, 'part-1.json');
    await write(SHARD_2, 'part-2.json');
    const out = path.join(dir, 'merged.json');
    const merged = await cli(
      ['merge', path.join(dir, 'part-1.json'), path.join(dir, 'part-2.json'), '--out', out],
      root,
    );
    const report = ReportSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(merged.code).toBe(report.gate.passed ? 0 : 1);
    expect(report.inputs.files).toBe(6);
    expect(merged.stdout).toContain('merged.json');

    writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ schemaVersion: 1 }));
    const bad = await cli(['merge', path.join(dir, 'part-1.json'), path.join(dir, 'bad.json')], root);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad\.json: not a Report v1: /);

    const none = await cli(['merge'], root);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/merge needs the partial reports/);
  });
});
