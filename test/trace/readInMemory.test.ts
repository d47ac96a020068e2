import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readTraceText, readTraceValues } from '../../src/trace/readInMemory.js';
import { fixture } from '../helpers/realLibraryRun.js';

describe('reading traces already in memory', () => {
  it('reads an OTLP/JSON document as the file loader does, with its tool calls', () => {
    const text = readFileSync(fixture('otel/ai-sdk-5-generate-text.json'), 'utf8');
    const { traces, stats } = readTraceText('captured.json', text);
    expect(stats.errors).toEqual([]);
    expect(stats.formats).toEqual({ otel: 1 });
    expect(traces).toHaveLength(1);
    expect(
      traces[0]!.trace.steps.filter((s) => s.type === 'tool').map((s) => s.type === 'tool' && s.name),
    ).toEqual(['lookup_order', 'lookup_order', 'get_weather', 'get_weather', 'get_weather']);
    expect(traces[0]!.source.file).toBe('captured.json');
  });

  it('reads parsed records, and names the record and field of one that is bad while keeping the good', () => {
    const good = {
      id: 't1',
      agentId: 'a',
      status: 'ok',
      steps: [{ type: 'tool', name: 'search', status: 'ok' }],
    };
    const bad = { id: 't2', agentId: 'a', status: 'ok', steps: [{ type: 'tool', status: 'ok' }] };
    const { traces, stats } = readTraceValues('<request>', [good, bad]);
    expect(traces.map((t) => t.trace.id)).toEqual(['t1']);
    expect(stats.errors).toHaveLength(1);
    expect(stats.errors[0]).toMatchObject({ file: '<request>', line: 2, field: 'steps[0].name' });
  });

  it('reads JSONL text line by line, naming a broken line and keeping the others', () => {
    const line = (id: string) => JSON.stringify({ id, agentId: 'a', status: 'ok', steps: [] });
    const { traces, stats } = readTraceText('t.jsonl', `${line('a')}\n{"id": \n${line('b')}\n`);
    expect(traces.map((t) => t.trace.id)).toEqual(['a', 'b']);
    expect(stats.errors).toHaveLength(1);
    expect(stats.errors[0]!.line).toBe(2);
    expect(stats.errors[0]!.message).toMatch(/not valid JSON/);
  });

  it('says an empty input has no records', () => {
    const { traces, stats } = readTraceText('empty.json', '  \n');
    expect(traces).toEqual([]);
    expect(stats.errors[0]!.message).toMatch(/no records/);
  });
});
