/**
 * Grouping formats (records, span-per-line OTLP, loose Langfuse observations) give the same traces
 * and findings whether the records of a trace are contiguous or interleaved with other traces', and
 * emit each trace as soon as its last line is read (the first pass, lastLines.ts).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { loadTraces, streamTraceBatches } from '../../src/trace/load.js';
import { calls, lineFormats, writeJsonl } from '../helpers/interleavedRuns.js';

const signalKeys = (report: Awaited<ReturnType<typeof analyze>>) =>
  report.signals.map((s) => `${s.traceId} ${s.detector} ${s.steps.join(',')}`).sort();

describe.each(Object.keys(lineFormats))('%s: interleaved records', (format) => {
  const { byRun, byTime } = calls();
  const toLines = lineFormats[format]!;
  const grouped = writeJsonl('grouped.jsonl', byRun.flat().flatMap(toLines));
  const interleaved = writeJsonl('interleaved.jsonl', byTime.flatMap(toLines));

  it('gives the same traces as the same records grouped run by run', async () => {
    // Both files name the same agent: without one, each trace would be keyed by its file's path.
    const a = await loadTraces(grouped, { agent: 'support' });
    const b = await loadTraces(interleaved, { agent: 'support' });
    expect(a.stats.errorCount).toBe(0);
    expect(b.stats.errorCount).toBe(0);
    expect(b.stats.notes).toEqual([]);
    expect(a.traces).toHaveLength(50);
    const byId = (x: typeof a.traces) =>
      x.map((t) => t.trace).sort((p, q) => (p.id < q.id ? -1 : p.id > q.id ? 1 : 0));
    expect(byId(b.traces)).toEqual(byId(a.traces));
  });

  it('gives the same signals', async () => {
    const options = { baselines: false as const, config: {}, cwd: path.dirname(grouped) };
    const a = await analyze(grouped, options);
    const b = await analyze(interleaved, options);
    expect(a.signals.length).toBeGreaterThan(0);
    expect(signalKeys(b)).toEqual(signalKeys(a));
  });

  it('emits each trace right after its last line, in the order of last lines', async () => {
    const lastLine = new Map<string, number>();
    let lineNo = 0;
    for (const c of byTime) {
      lineNo += toLines(c).length;
      if (c.last) lastLine.set(String(c.run), lineNo);
    }
    const { batches, stats } = streamTraceBatches([interleaved]);
    const order: string[] = [];
    for await (const batch of batches) {
      for (const t of batch) {
        const run = /(\d+)$/.exec(t.trace.id)?.[1] ?? '';
        const run_ = format === 'otel' ? String(parseInt(t.trace.id, 16) - 1) : run;
        order.push(run_);
        // Lines come in batches of 16: the trace is out before the batch after its last line.
        expect(stats.records).toBeLessThan(lastLine.get(run_)! + 16);
      }
    }
    const expected = [...lastLine.entries()].sort((p, q) => p[1] - q[1]).map(([run]) => run);
    expect(order).toEqual(expected);
  });

  it("names in each trace's summary the line its first record is on (where annotations point)", async () => {
    const firstLine = new Map<string, number>();
    let lineNo = 0;
    for (const c of byTime) {
      if (!firstLine.has(String(c.run))) firstLine.set(String(c.run), lineNo + 1);
      lineNo += toLines(c).length;
    }
    const report = await analyze(interleaved, {
      baselines: false,
      config: {},
      cwd: path.dirname(interleaved),
    });
    expect(report.traces).toHaveLength(50);
    for (const t of report.traces) {
      const run = format === 'otel' ? String(parseInt(t.id, 16) - 1) : (/(\d+)$/.exec(t.id)?.[1] ?? '');
      expect([t.id, t.line]).toEqual([t.id, firstLine.get(run)]);
    }
  });
});

describe('first pass: ids in other forms', () => {
  it('groups numeric traceIds and ids with escapes as the reader keys them', async () => {
    const rec = (traceId: unknown, i: number) => ({
      traceId,
      startTime: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
      input: { model: 'gpt-4o', prompt: `call ${i}` },
      usage: { prompt_tokens: 10, completion_tokens: 2 },
    });
    const file = writeJsonl('odd-ids.jsonl', [
      rec(7, 0),
      rec('a"b', 1),
      rec('x', 2),
      rec(7, 3),
      rec('a"b', 4),
      rec('x', 5),
      rec(7, 6),
    ]);
    const { traces, stats } = await loadTraces(file);
    expect(stats.notes).toEqual([]);
    expect(traces.map((t) => [t.trace.id, t.trace.steps.length])).toEqual([
      ['a"b', 2],
      ['x', 2],
      ['7', 3],
    ]);
  });

  it('holds a trace whose id the pass cannot see until the end, whole', async () => {
    // A key spelled with a \u escape is the same key to JSON.parse, invisible to a byte search.
    const line = (i: number) =>
      `{"trace\\u0049d":"hidden","startTime":"2026-01-01T00:00:0${i}Z","input":{"model":"gpt-4o","prompt":"p${i}"},"usage":{"prompt_tokens":1,"completion_tokens":1}}`;
    const other = `{"traceId":"seen","input":{"model":"gpt-4o","prompt":"q"},"usage":{"prompt_tokens":1,"completion_tokens":1}}`;
    const d = mkdtempSync(path.join(tmpdir(), 'tj-hidden-'));
    const file = path.join(d, 'hidden.jsonl');
    writeFileSync(file, [line(1), other, line(2), line(3)].join('\n'));
    const { traces, stats } = await loadTraces(file);
    expect(stats.errorCount).toBe(0);
    expect(traces.map((t) => [t.trace.id, t.trace.steps.length])).toEqual([
      ['seen', 1],
      ['hidden', 3],
    ]);
  });

  it('notes a trace split because the pass saw its id last earlier than a record that has it', async () => {
    const d = mkdtempSync(path.join(tmpdir(), 'tj-split-'));
    const file = path.join(d, 'split.jsonl');
    const body = (p: string) =>
      `"input":{"model":"gpt-4o","prompt":"${p}"},"usage":{"prompt_tokens":1,"completion_tokens":1}`;
    writeFileSync(
      file,
      [
        `{"traceId":"t",${body('a')}}`,
        `{"traceId":"u",${body('b')}}`,
        `{"trace\\u0049d":"t",${body('c')}}`,
      ].join('\n'),
    );
    const { traces, stats } = await loadTraces(file);
    // Both records of t survive, in two traces, and the report says why.
    expect(traces.map((t) => [t.trace.id, t.trace.steps.length])).toEqual([
      ['t', 1],
      ['u', 1],
      ['t', 1],
    ]);
    expect(stats.notes).toHaveLength(1);
    expect(stats.notes[0]).toContain('split.jsonl: trace t was closed at line 1');
    expect(stats.notes[0]).toContain('its records from line 3 on belong to it too and form another trace');
  });
});
