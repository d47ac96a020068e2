/**
 * The CLI's JSON report keeps its `traces[]` and `signals[]` in temporary files (analyze's
 * `spillReport`): the report it writes is the one the in-memory path writes, byte for byte; the
 * accumulator holds no per-trace array; the files are gone after the report is written and when
 * the run throws.
 */
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze, type AnalyzeOptions } from '../../src/analyze.js';
import { parseConfig } from '../../src/config/config.js';
import { createReportAccumulator, summariseTrace } from '../../src/report/build.js';
import { reportJsonChunks } from '../../src/report/jsonChunks.js';
import type { Report } from '../../src/report/schema.js';
import { removeSpilledLists, spilledListsOf } from '../../src/report/spilledReport.js';
import type { TraceInput } from '../../src/trace/schema.js';
import { makeTrace, llm } from '../helpers/traceBuilder.js';
import { benchInputs, type BenchInputs } from '../helpers/benchInputs.js';
import { tauBenchRun } from '../attribute/fixtures.js';

const jsonOf = (report: Report) => [...reportJsonChunks(report)].join('');
const SPILL_PREFIX = 'tracejury-report-';
const spillDirs = () => readdirSync(tmpdir()).filter((name) => name.startsWith(SPILL_PREFIX));

/** The report both ways: in memory, and spilled (its files removed once its JSON is written). */
async function bothWays(input: string[] | TraceInput[], options: AnalyzeOptions) {
  const held = await analyze(input, options);
  const spilled = await analyze(input, { ...options, spillReport: true });
  const lists = spilledListsOf(spilled)!;
  expect(lists).toBeDefined();
  // The moment each was written is the one thing that differs.
  const comparable = (report: Report) => jsonOf(report).replace(/"generatedAt": "[^"]*"/, '');
  const spilledJson = comparable(spilled);
  removeSpilledLists(spilled);
  return { held, spilled, lists, heldJson: comparable(held), spilledJson };
}

describe('the spilled report', () => {
  let inputs: BenchInputs;
  beforeAll(async () => {
    inputs = await benchInputs(400_000);
  });
  afterAll(() => inputs.remove());

  it('writes the same JSON as the report held in memory, on bench inputs with findings and sessions', async () => {
    const files = ['native', 'records', 'otel'].map((f) => `${f}.jsonl`);
    const { held, spilled, lists, heldJson, spilledJson } = await bothWays(files, {
      // Sessions gate too: their reason is read from the scores as they are spilled.
      config: parseConfig('sessions:\n  failGate: true\n'),
      baselines: false,
      cwd: inputs.dir,
      stateDir: mkdtempSync(path.join(tmpdir(), 'tj-spill-')),
    });
    expect(held.signals.filter((s) => s.status === 'finding').length).toBeGreaterThan(0);
    expect(held.sessions.length).toBeGreaterThan(0);
    expect(spilled.traces).toEqual([]);
    expect(spilled.signals).toEqual([]);
    expect(lists.traces.length).toBe(held.traces.length);
    expect(spilled.review).toEqual([]);
    expect(lists.review.length).toBe(held.review.length);
    expect(held.review.length).toBeGreaterThan(0);
    expect(lists.findings).toBe(held.signals.filter((s) => s.status === 'finding').length);
    expect(spilled.sessions).toEqual([]);
    expect(lists.sessions.length).toBe(held.sessions.length);
    expect(held.gate.reasons.some((r) => r.includes('(sessions.failGate)'))).toBe(true);
    expect(spilledJson).toBe(heldJson);
  });

  it('writes the same JSON with root causes, an attribution tally and a failed outcome gating', async () => {
    const failed = tauBenchRun(
      [
        { calls: [{ name: 'cancel_reservation', args: { reservation_id: 'WRONG' }, result: '{}' }] },
        { say: 'Done.' },
      ],
      [{ name: 'cancel_reservation', kwargs: { reservation_id: 'ZX9' } }],
    );
    const ok = makeTrace([llm()], { id: 'fine', outcome: { success: true, source: 'native outcome' } });
    const { held, heldJson, spilledJson } = await bothWays([failed, ok], {
      config: parseConfig('failOn:\n  outcome: true\n'),
      baselines: false,
      stateDir: mkdtempSync(path.join(tmpdir(), 'tj-spill-')),
    });
    expect(held.traces[0]!.rootCause).toBeDefined();
    expect(held.attribution?.failedRuns).toBe(1);
    expect(held.gate.reasons.some((r) => r.includes('failed outcome'))).toBe(true);
    expect(spilledJson).toBe(heldJson);
  });

  it('removes its files once the report is written, and when the run throws', async () => {
    const before = new Set(spillDirs());
    const traces = [makeTrace([llm()], { id: 'a' }), makeTrace([llm()], { id: 'b' })];
    const report = await analyze(traces, { baselines: false, spillReport: true });
    const made = spillDirs().filter((d) => !before.has(d));
    expect(made).toHaveLength(4);
    expect(jsonOf(report)).toContain('"id": "b"');
    removeSpilledLists(report);
    expect(made.filter((d) => existsSync(path.join(tmpdir(), d)))).toEqual([]);

    let seen = 0;
    await expect(
      analyze(traces, {
        baselines: false,
        spillReport: true,
        onTrace: () => {
          // The first trace is in the files by now; the second throws.
          if (++seen === 2) throw new Error('the caller failed');
        },
      }),
    ).rejects.toThrow('the caller failed');
    expect(spillDirs().filter((d) => !before.has(d))).toEqual([]);
  });

  it('holds no per-trace array: the finished report lists none, its files list every trace', () => {
    const accumulator = createReportAccumulator({ spill: true });
    const traces = 2_000;
    for (let i = 0; i < traces; i++) {
      const loaded = {
        trace: makeTrace([llm()], { id: `t${i}` }),
        source: { file: 'in.jsonl', line: i + 1 },
      };
      accumulator.add(loaded as never, []);
    }
    const report = accumulator.finish({
      stats: {
        files: 1,
        traces,
        records: traces,
        errors: [],
        errorCount: 0,
        formats: { native: traces },
        fileNames: ['in.jsonl'],
        notes: [],
        notesDropped: 0,
      } as never,
      unknownModels: new Map(),
      failOn: ['critical', 'high'],
    });
    try {
      expect(report.traces).toHaveLength(0);
      expect(report.signals).toHaveLength(0);
      const lists = spilledListsOf(report)!;
      expect(lists.traces.length).toBe(traces);
      const ids = [...lists.traces.values()].map((t) => t.id);
      expect(ids[0]).toBe('t0');
      expect(ids[traces - 1]).toBe(`t${traces - 1}`);
      // What the summary would have been in memory, read back from the file.
      const first = summariseTrace(
        { trace: makeTrace([llm()], { id: 't0' }), source: { file: 'in.jsonl', line: 1 } } as never,
        [],
      );
      expect([...lists.traces.values()][0]).toEqual(JSON.parse(JSON.stringify(first)));
    } finally {
      removeSpilledLists(report);
    }
  });
});
