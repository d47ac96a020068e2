import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/analyze.js';
import { loadTraces } from '../../../src/trace/load.js';
import { MAX_UNREAD_NAMES, OTHER_UNREAD } from '../../../src/trace/formats/otlp.js';

const TRACE = 'cd'.repeat(16);
let n = 0;
const line = (name: string, attributes: Record<string, unknown>, parent = 'aa'.repeat(8)) =>
  JSON.stringify({
    traceId: TRACE,
    spanId: (++n).toString(16).padStart(16, '0'),
    parentSpanId: parent,
    name,
    startTimeUnixNano: String(1_700_000_000_000_000_000n + BigInt(n) * 1_000_000n),
    endTimeUnixNano: String(1_700_000_000_000_000_000n + BigInt(n) * 1_000_000n + 500_000n),
    attributes,
  });

function write(lines: string[]): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tracejury-unread-'));
  const file = join(dir, 'spans.jsonl');
  writeFileSync(file, lines.join('\n') + '\n');
  return { dir, file };
}

const root = JSON.stringify({
  traceId: TRACE,
  spanId: 'aa'.repeat(8),
  name: 'ai.generateText',
  startTimeUnixNano: '1700000000000000000',
  endTimeUnixNano: '1700000001000000000',
  attributes: { 'ai.operationId': 'ai.generateText', 'ai.telemetry.functionId': 'rag-agent' },
});

describe('spans of agent work that no step reads', () => {
  const lines = [
    root,
    line('ai.embed', { 'ai.operationId': 'ai.embed' }),
    line('ai.embed', { 'ai.operationId': 'ai.embed' }),
    line('ai.generateText.doGenerate', {
      'ai.operationId': 'ai.generateText.doGenerate',
      'ai.model.id': 'gpt-4o-mini',
      'ai.usage.promptTokens': 10,
      'ai.usage.completionTokens': 2,
      'ai.response.text': 'hi',
    }),
    line('embeddings text-embedding-3-small', { 'gen_ai.operation.name': 'embeddings' }),
    line('step 1', { 'gen_ai.operation.name': 'agent_step' }),
    line('guard', { 'langfuse.observation.type': 'guardrail' }),
    line('plain span', {}),
    line('GET /health', { 'http.request.method': 'GET' }),
  ];

  it('are counted per trace by span name; structure (root, agent_step, plain spans) is not', async () => {
    const { file } = write(lines);
    const { traces } = await loadTraces(file);
    expect(traces).toHaveLength(1);
    const t = traces[0]!.trace;
    expect(t.steps.map((s) => s.type)).toEqual(['llm']);
    expect(t.metadata?.unreadSpans).toEqual({
      'ai.embed': 2,
      'embeddings text-embedding-3-small': 1,
      guard: 1,
    });
  });

  it('show in the trace summary and in a report note', async () => {
    const { dir, file } = write(lines);
    const report = await analyze(file, { stateDir: join(dir, 'state') });
    expect(report.traces[0]!.unreadSpans).toBe(4);
    const note = report.notes.find((x) => x.includes('could not read'));
    expect(note).toBe(
      '1 trace has spans tracejury could not read: ai.embed ×2, embeddings text-embedding-3-small ×1, guard ×1 — their steps may be missing',
    );
  });

  it(`keep at most ${MAX_UNREAD_NAMES} names; the rest count together`, async () => {
    const many = Array.from({ length: MAX_UNREAD_NAMES + 5 }, (_, i) =>
      line(`ai.op${i}`, { 'ai.operationId': `ai.op${i}` }),
    );
    const { file } = write([root, ...many]);
    const { traces } = await loadTraces(file);
    const unread = traces[0]!.trace.metadata?.unreadSpans as Record<string, number>;
    expect(Object.keys(unread)).toHaveLength(MAX_UNREAD_NAMES + 1);
    expect(unread[OTHER_UNREAD]).toBe(5);
  });

  it('a trace read whole has none, and the report no such note', async () => {
    const { dir, file } = write([lines[0]!, lines[3]!]);
    const { traces } = await loadTraces(file);
    expect(traces[0]!.trace.metadata?.unreadSpans).toBeUndefined();
    const report = await analyze(file, { stateDir: join(dir, 'state') });
    expect(report.traces[0]!.unreadSpans).toBeUndefined();
    expect(report.notes.filter((x) => x.includes('could not read'))).toEqual([]);
  });
});
