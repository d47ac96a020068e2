import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraces } from '../../src/trace/load.js';

function dir(files: Record<string, string | Buffer>): string {
  const d = mkdtempSync(path.join(tmpdir(), 'tj-load-'));
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(d, name), body);
  return d;
}

const trace = (id: string, extra: object = {}) =>
  JSON.stringify({
    id,
    steps: [{ type: 'llm', model: 'gpt-4o', usage: { inputTokens: 1000, outputTokens: 100 } }],
    ...extra,
  });

describe('loadTraces', () => {
  it('reads native JSONL line by line, prices LLM steps from the price table, and names the source', async () => {
    const d = dir({ 'a.jsonl': `${trace('t1')}\n${trace('t2')}\n` });
    const { traces, stats } = await loadTraces(d);
    expect(traces.map((t) => t.trace.id)).toEqual(['t1', 't2']);
    expect(traces[1]!.source).toMatchObject({ file: path.join(d, 'a.jsonl'), format: 'native', line: 2 });
    const step = traces[0]!.trace.steps[0]!;
    expect(step.type === 'llm' && step.costUsd).toBeCloseTo(1000 * 2.5e-6 + 100 * 10e-6, 10);
    expect(step.type === 'llm' && step.costSource).toBe('price-table');
    expect(stats).toMatchObject({ files: 1, traces: 2, records: 2, errorCount: 0, formats: { native: 1 } });
  });

  it('keeps a recorded cost instead of pricing it', async () => {
    const d = dir({
      'a.jsonl': JSON.stringify({
        id: 't',
        steps: [{ type: 'llm', model: 'gpt-4o', costUsd: 0.5, usage: { inputTokens: 1, outputTokens: 1 } }],
      }),
    });
    const { traces } = await loadTraces(d);
    expect(traces[0]!.trace.steps[0]).toMatchObject({ costUsd: 0.5, costSource: 'recorded' });
  });

  it('names an unknown model instead of pricing it at zero', async () => {
    const d = dir({ 'a.jsonl': JSON.stringify({ id: 't', steps: [{ type: 'llm', model: 'acme-llm-9' }] }) });
    const { traces } = await loadTraces(d);
    expect(traces[0]!.trace.steps[0]).toMatchObject({ costSource: 'unknown' });
    expect((traces[0]!.trace.steps[0] as { costUsd?: number }).costUsd).toBeUndefined();
  });

  it('reports a truncated line and a wrong type by file:line:field and keeps the good records', async () => {
    const d = dir({
      'a.jsonl': [
        trace('good-1'),
        '{"id":"cut","steps":[{"type":"ll',
        JSON.stringify({
          id: 'typed',
          steps: [{ type: 'llm', model: 'gpt-4o', usage: { inputTokens: 'many' } }],
        }),
        trace('good-2'),
      ].join('\n'),
    });
    const { traces, stats } = await loadTraces(d);
    expect(traces.map((t) => t.trace.id)).toEqual(['good-1', 'good-2']);
    expect(stats.errorCount).toBe(2);
    expect(stats.errors[0]).toMatchObject({ file: path.join(d, 'a.jsonl'), line: 2 });
    expect(stats.errors[0]!.message).toMatch(/not valid JSON/);
    expect(stats.errors[1]).toMatchObject({ line: 3, field: 'steps[0].usage.inputTokens' });
    expect(stats.errors[1]!.message).toMatch(/^trace typed: .*number/);
  });

  it('reads JSONL whose first line is broken, naming that line', async () => {
    const d = dir({ 'a.jsonl': `{"id": "x", "steps": [\n${trace('ok')}\n` });
    const { traces, stats } = await loadTraces(d);
    expect(traces.map((t) => t.trace.id)).toEqual(['ok']);
    expect(stats.errors).toEqual([
      expect.objectContaining({ line: 1, message: expect.stringMatching(/not valid JSON/) }),
    ]);
  });

  it('names the line where a pretty-printed document breaks', async () => {
    const d = dir({ 'doc.json': '[\n  {\n    "id": "a",\n    "steps": [\n  }\n]\n' });
    const { traces, stats } = await loadTraces(d);
    expect(traces).toEqual([]);
    expect(stats.errors).toEqual([
      expect.objectContaining({
        file: path.join(d, 'doc.json'),
        line: 5,
        message: expect.stringMatching(/not valid JSON/),
      }),
    ]);
  });

  it('parses a pretty-printed JSON document whole', async () => {
    const d = dir({ 'a.json': JSON.stringify([JSON.parse(trace('p1')), JSON.parse(trace('p2'))], null, 2) });
    const { traces, stats } = await loadTraces(d);
    expect(traces.map((t) => t.trace.id)).toEqual(['p1', 'p2']);
    expect(stats.errorCount).toBe(0);
  });

  it('says an empty file and a binary file are not traces, and still reads the file beside them', async () => {
    const d = dir({
      'empty.jsonl': '',
      'blob.json': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01]),
      'good.jsonl': trace('g'),
    });
    const { traces, stats } = await loadTraces(d);
    expect(traces.map((t) => t.trace.id)).toEqual(['g']);
    const messages = stats.errors.map((e) => `${path.basename(e.file)}: ${e.message}`);
    expect(messages).toContain('empty.jsonl: empty file: no records to read');
    expect(messages).toContain('blob.json: binary file, not a trace file (expected JSON or JSONL text)');
  });

  it('says which formats were tried for JSON that is no trace format', async () => {
    const d = dir({ 'cfg.json': JSON.stringify({ name: 'my-app', dependencies: {} }) });
    const { traces, stats } = await loadTraces(d);
    expect(traces).toEqual([]);
    expect(stats.errors[0]!.message).toMatch(
      /not a trace file.*native, otel, openinference, langfuse, records, openai-messages/,
    );
  });

  it('survives a single 50 MB line', async () => {
    const big = JSON.stringify({
      id: 'big',
      steps: [{ type: 'tool', name: 'dump', result: 'x'.repeat(50 * 1024 * 1024) }],
    });
    const d = dir({ 'big.jsonl': `${big}\n${trace('after')}\n` });
    const { traces, stats } = await loadTraces(d);
    expect(traces.map((t) => t.trace.id)).toEqual(['big', 'after']);
    expect(stats.errorCount).toBe(0);
  });

  it('keeps order and line numbers across read buffers, with CRLF and blank lines', async () => {
    // ~3 MB: the reader takes 1 MB at a time, so lines fall across buffer boundaries.
    const pad = 'p'.repeat(1000);
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) {
      if (i === 1500) lines.push('{"id": "broken", ');
      else if (i % 700 === 0) lines.push('');
      else lines.push(trace(`t${i}`, { input: pad }));
    }
    const d = dir({ 'many.jsonl': lines.join('\r\n') });
    const { traces, stats } = await loadTraces(d);
    const expected = lines.flatMap((l) => (l.startsWith('{"id":"t') ? [JSON.parse(l).id] : []));
    expect(traces.map((t) => t.trace.id)).toEqual(expected);
    expect(traces.map((t) => t.source.line)).toEqual(
      lines.flatMap((l, i) => (l.startsWith('{"id":"t') ? [i + 1] : [])),
    );
    expect(stats.errors).toEqual([
      { file: path.join(d, 'many.jsonl'), line: 1501, message: expect.stringMatching(/^not valid JSON/) },
    ]);
  });

  it('keeps the same trace id from two files apart, each with its file', async () => {
    const d = dir({ 'a.jsonl': trace('same'), 'b.jsonl': trace('same') });
    const { traces } = await loadTraces(d);
    expect(traces.map((t) => path.basename(t.source.file))).toEqual(['a.jsonl', 'b.jsonl']);
  });

  it('fails with a usage error for a path that does not exist', async () => {
    await expect(loadTraces('/nonexistent/tracejury-input')).rejects.toThrow(/no such file or directory/);
  });
});
