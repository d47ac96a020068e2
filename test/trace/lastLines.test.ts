/** The first pass: trace ids found in the bytes, with the last line of each. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastLinesOfTraceIds, scanTraceIds } from '../../src/trace/lastLines.js';
import { loadTraces, MAX_DOCUMENT_BYTES } from '../../src/trace/load.js';

const scan = (text: string, langfuseHeaders = false) => {
  const buf = Buffer.from(text);
  const last = new Map<string, number>();
  const nextLine = scanTraceIds(buf, 0, buf.length, 1, last, langfuseHeaders);
  return { last: Object.fromEntries(last), nextLine };
};

const tmpFile = (name: string, body: string | Buffer) => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tj-lastlines-')), name);
  writeFileSync(file, body);
  return file;
};

describe('scanTraceIds', () => {
  it('finds traceId and trace_id keys in every layout the readers read, and numbers as String() writes them', () => {
    const text = [
      '{"traceId":"a","x":1}',
      '{"context": {"trace_id" : "0xABC", "span_id": "1"}}',
      '{"traceId": 12.50, "y": 2}',
      '{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"b"},{"traceId":"c"}]}]}]}',
      '{"traceId":"a"}',
      '{"traceId":"e\\"sc"}',
    ].join('\n');
    expect(scan(text)).toEqual({
      last: { a: 5, '0xABC': 2, '12.5': 3, b: 4, c: 4, 'e"sc': 6 },
      nextLine: 6,
    });
  });

  it('ignores the key name inside a string value and as a value', () => {
    const text = [
      '{"traceId":"a","prompt":"say \\"traceId\\": \\"zzz\\" please"}',
      '{"name":"traceId","traceId":"b"}',
      '{"traceIdentifier":"nope","trace_ids":["no"]}',
    ].join('\n');
    expect(scan(text).last).toEqual({ a: 1, b: 2 });
  });

  it('reads the top-level id of a Langfuse trace header only when asked', () => {
    const text = [
      '{"id":"o1","traceId":"t","type":"GENERATION","startTime":"2026-01-01T00:00:00Z"}',
      '{"name":"run","metadata":{"id":"inner"},"observations":["o1"],"id":"t2"}',
    ].join('\n');
    expect(scan(text).last).toEqual({ t: 1 });
    expect(scan(text, true).last).toEqual({ t: 1, t2: 2 });
  });
});

describe('lastLinesOfTraceIds', () => {
  it('counts lines across read chunks, with keys and lines longer than a chunk', async () => {
    const filler = 'w'.repeat(3 * 1024 * 1024);
    const lines = [
      `{"traceId":"a","prompt":"${filler}"}`,
      '',
      `{"prompt":"${filler.slice(0, 1024 * 1024 - 7)}","traceId":"b"}`,
      '{"traceId":"a"}',
    ];
    const file = tmpFile('chunks.jsonl', lines.join('\n'));
    expect(Object.fromEntries(await lastLinesOfTraceIds(file))).toEqual({ a: 4, b: 3 });
  });
});

describe('Langfuse header after its observations', () => {
  it('joins the header to its observations although it comes last', async () => {
    const obs = (id: string, t: string, s: number) =>
      JSON.stringify({
        id,
        traceId: t,
        type: 'GENERATION',
        model: 'gpt-4o',
        startTime: new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString(),
        usageDetails: { input: 10, output: 2 },
      });
    const header = JSON.stringify({ id: 't', name: 'checkout-agent', observations: ['o1', 'o2'] });
    const file = tmpFile(
      'lf.jsonl',
      [obs('o1', 't', 0), obs('x1', 'u', 1), obs('o2', 't', 2), header].join('\n'),
    );
    const { traces, stats } = await loadTraces(file, { agent: 'default' });
    expect(stats.errorCount).toBe(0);
    expect(traces.map((t) => [t.trace.id, t.trace.agentId, t.trace.steps.length])).toEqual([
      ['u', 'default', 1],
      ['t', 'checkout-agent', 2],
    ]);
  });
});

describe('a pretty-printed document over the size read whole', () => {
  it('is refused with how to convert it, and the other files are read', async () => {
    const d = mkdtempSync(path.join(tmpdir(), 'tj-bigdoc-'));
    writeFileSync(path.join(d, 'big.json'), `[\n${' '.repeat(MAX_DOCUMENT_BYTES)}\n]\n`);
    writeFileSync(
      path.join(d, 'good.jsonl'),
      JSON.stringify({
        id: 'g',
        steps: [{ type: 'llm', model: 'gpt-4o', usage: { inputTokens: 1, outputTokens: 1 } }],
      }),
    );
    const { traces, stats } = await loadTraces(d);
    expect(traces.map((t) => t.trace.id)).toEqual(['g']);
    expect(stats.errors).toEqual([
      {
        file: path.join(d, 'big.json'),
        line: 1,
        message:
          "a pretty-printed JSON document of 32 MB; documents over 32 MB are not read whole, to keep memory bounded: write it as JSONL, one trace or record per line (e.g. jq -c '.[]' FILE > FILE.jsonl for a top-level array)",
      },
    ]);
  });
});
