/**
 * Whole reports of inputs as the bench generates them (sessions of 5–50 runs, concurrent runs
 * interleaved, a few percent of faults; every format), small: the report file is written in
 * pieces (jsonChunks.ts) for speed and memory, and must be, byte for byte, the JSON.stringify
 * text of the report it was built from — with every part a reader sees (findings, sessions and
 * their per-trace entries) present in what was compared. A build against another build is the
 * bench's `--compare` (bench/analyze.mjs), which says whether both wrote the same report.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { reportJsonChunks } from '../../src/report/jsonChunks.js';
import { parseReportJson } from '../../src/report/parseReport.js';
import { BENCH_FORMATS, benchInputs, type BenchInputs } from '../helpers/benchInputs.js';

describe('reports of bench inputs', () => {
  let inputs: BenchInputs;
  beforeAll(async () => {
    inputs = await benchInputs(1_500_000);
  }, 60_000);
  afterAll(() => inputs?.remove());

  it.each(BENCH_FORMATS)(
    'the %s report is written as JSON.stringify writes it, sessions and findings included',
    async (format) => {
      const file = path.join(inputs.dir, inputs.files[format]);
      const report = await analyze(file, { cwd: inputs.dir, baselines: false });
      // The parts this must cover are there: the test compares nothing if they are not.
      expect(report.inputs.errorCount).toBe(0);
      expect(report.traces.length).toBeGreaterThan(20);
      expect(report.signals.length).toBeGreaterThan(0);
      const sessionEntries = report.sessions.map(
        (s) => Object.keys((s.metadata.per_trace_signals ?? {}) as object).length,
      );
      expect(sessionEntries.length).toBeGreaterThan(0);
      expect(Math.max(...sessionEntries)).toBeGreaterThan(0);

      const text = [...reportJsonChunks(report)].join('');
      expect(text).toBe(`${JSON.stringify(report, null, 2)}\n`);
      // And a reader (diff, merge, the Action's baseline) takes it back as it was written.
      expect(parseReportJson(text)).toEqual({ ok: true, report: JSON.parse(text) });
    },
    60_000,
  );
});
