import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importFile } from '../../helpers/importFile.js';
import { describe, expect, it } from 'vitest';
import type { Importer, ImportProblem } from '../../../src/trace/importer.js';
import { otelImporter } from '../../../src/trace/formats/otel.js';
import { type LlmStep, type RetrievalStep, type ToolStep, type Trace } from '../../../src/trace/schema.js';

const root = (p: string) => fileURLToPath(new URL(`../../../${p}`, import.meta.url));

/** Reads a file the way the loader does: JSONL line by line, or one whole document (line 1). */
function read(
  importer: Importer,
  path: string,
): { traces: Trace[]; lines: (number | undefined)[]; problems: ImportProblem[] } {
  const { traces, problems } = importFile(importer, root(path));
  return { traces: traces.map((t) => t.trace), lines: traces.map((t) => t.line), problems };
}

const llm = (t: Trace, i: number) => t.steps[i] as LlmStep;
const tool = (t: Trace, i: number) => t.steps[i] as ToolStep;

describe('otel importer: the example agent run (OTLP/JSON document)', () => {
  const { traces, problems } = read(otelImporter, 'examples/traces/otel-support-agent.json');
  const [t] = traces;

  it('reads one trace with no problems', () => {
    expect(problems).toEqual([]);
    expect(traces).toHaveLength(1);
  });

  it('takes the invoke_agent root span as the trace, not a step', () => {
    expect(t!.id).toBe('5b8efff798038103d269b633813fc60c');
    expect(t!.agentId).toBe('support-agent');
    expect(t!.agentVersion).toBe('1.4.0');
    expect(t!.sessionId).toBe('conv_2f9c1e7a');
    expect(t!.status).toBe('ok');
    expect(t!.startedAt).toBe('2025-03-14T10:00:00.000Z');
    expect(t!.endedAt).toBe('2025-03-14T10:00:11.840Z');
    expect(t!.availableTools).toEqual([
      'lookup_order',
      'get_shipment_status',
      'create_refund',
      'escalate_to_human',
    ]);
    expect(t!.input).toEqual([
      { role: 'user', content: 'Where is my order #8812? It was supposed to arrive yesterday.' },
    ]);
    expect(t!.output).toMatchObject({
      role: 'assistant',
      content: expect.stringContaining('out for delivery'),
    });
  });

  it('maps chat and execute_tool spans to steps in time order', () => {
    expect(t!.steps.map((s) => (s.type === 'tool' ? `tool:${s.name}` : s.type))).toEqual([
      'llm',
      'tool:lookup_order',
      'llm',
      'tool:get_shipment_status',
      'llm',
      'tool:get_shipment_status',
      'llm',
    ]);
  });

  it('maps an LLM step field by field', () => {
    const s = llm(t!, 0);
    expect(s.model).toBe('gpt-4.1-mini-2025-04-14');
    expect(s.provider).toBe('openai');
    expect(s.usage).toEqual({ inputTokens: 412, outputTokens: 28, cachedInputTokens: 256 });
    expect(s.finishReason).toBe('tool_calls');
    expect(s.startedAt).toBe('2025-03-14T10:00:00.040Z');
    expect(s.durationMs).toBe(1170);
    expect(s.costUsd).toBeUndefined();
    expect(s.input).toEqual([
      { role: 'system', content: expect.stringContaining('Acme support assistant') },
      { role: 'user', content: 'Where is my order #8812? It was supposed to arrive yesterday.' },
    ]);
  });

  it('represents a tool-call-only output as a message with toolCalls and no content', () => {
    const out = llm(t!, 0).output;
    expect(out).toEqual({
      role: 'assistant',
      toolCalls: [{ id: 'call_7Qk2', name: 'lookup_order', arguments: { order_id: '8812' } }],
    });
    expect(out).not.toHaveProperty('content');
  });

  it('keeps tool results in the next prompt as tool messages', () => {
    const input = llm(t!, 2).input as { role: string; toolCallId?: string }[];
    expect(input.at(-1)).toMatchObject({
      role: 'tool',
      toolCallId: 'call_7Qk2',
      content: { status: 'shipped' },
    });
  });

  it('maps tool steps, including the failed one', () => {
    expect(tool(t!, 1)).toMatchObject({
      name: 'lookup_order',
      args: { order_id: '8812' },
      result: { order_id: '8812', carrier: 'UPS' },
      callId: 'call_7Qk2',
      status: 'ok',
      durationMs: 185,
    });
    expect(tool(t!, 3)).toMatchObject({
      name: 'get_shipment_status',
      status: 'error',
      error: 'carrier API timed out after 5000 ms',
      callId: 'call_9xPa',
      durationMs: 5012,
    });
    expect(tool(t!, 3).result).toBeUndefined();
  });

  it('reads the final answer and its finish reason', () => {
    expect(llm(t!, 6).finishReason).toBe('stop');
    expect(llm(t!, 6).output).toMatchObject({ role: 'assistant', content: expect.stringContaining('#8812') });
  });
});

describe('otel importer: deprecated names and OpenLLMetry spans (JSONL, out of order)', () => {
  const { traces, lines, problems } = read(otelImporter, 'test/fixtures/otel/openllmetry-deprecated.jsonl');
  const a = traces.find((t) => t.id === '11111111111111111111111111111111')!;
  const b = traces.find((t) => t.id === '22222222222222222222222222222222')!;

  it('groups interleaved lines into one trace per traceId, each with its first line', () => {
    expect(problems).toEqual([]);
    expect(traces.map((t) => t.id).sort()).toEqual([a.id, b.id]);
    expect(lines[traces.indexOf(a)]).toBe(1);
    expect(lines[traces.indexOf(b)]).toBe(2);
  });

  it('uses a traceloop workflow root for agent, session, input and output', () => {
    expect(a.agentId).toBe('triage');
    expect(a.sessionId).toBe('sess-A');
    expect(a.input).toEqual({ question: 'reset my password' });
    expect(a.output).toEqual({ answer: 'Link sent.' });
    expect(a.availableTools).toEqual(['send_reset_link', 'lookup_user']);
  });

  it('reads gen_ai.system and prompt/completion token names, and flattened prompts and completions', () => {
    const s = llm(a, 0);
    expect(s.provider).toBe('openai');
    expect(s.model).toBe('gpt-4o-2024-08-06');
    expect(s.usage).toEqual({ inputTokens: 120, outputTokens: 18, cachedInputTokens: 64 });
    expect(s.finishReason).toBe('tool_calls');
    expect(s.input).toEqual([
      { role: 'system', content: 'You are a helpdesk bot.' },
      { role: 'user', content: 'reset my password' },
    ]);
    expect(s.output).toEqual({
      role: 'assistant',
      toolCalls: [{ id: 'call_1', name: 'send_reset_link', arguments: { email: 'ana@example.com' } }],
    });
    expect(llm(a, 2).output).toEqual({ role: 'assistant', content: 'Link sent.' });
    expect(llm(a, 2).model).toBe('gpt-4o');
  });

  it('maps a traceloop tool span to a tool step', () => {
    expect(tool(a, 1)).toMatchObject({
      name: 'send_reset_link',
      // withTool's {"args": [], "kwargs": {…}} unwrapped: the arguments the tool was called with.
      args: { email: 'ana@example.com' },
      result: { sent: true },
      status: 'ok',
    });
  });

  it('orders by parent/child then start time; walks through plain spans; skips embeddings; orphans at top level', () => {
    expect(b.agentId).toBe('planner-01');
    expect(b.sessionId).toBe('sess-B');
    expect(b.steps.map((s) => s.type)).toEqual(['llm', 'retrieval', 'tool']);
    expect(tool(b, 2)).toMatchObject({
      name: 'book_hotel',
      callId: 'toolu_01',
      args: { city: 'Lisbon', nights: 3 },
    });
    expect(tool(b, 2).startedAt).toBe('2025-03-14T10:00:03.000Z');
  });

  it('reads legacy message events and a finish reason given as a plain string', () => {
    const s = llm(b, 0);
    expect(s.provider).toBe('anthropic');
    expect(s.finishReason).toBe('max_tokens');
    expect(s.usage).toEqual({ inputTokens: 900, outputTokens: 4096 });
    expect(s.input).toEqual([
      { role: 'system', content: 'Plan the trip.' },
      { role: 'user', content: 'Three days in Lisbon' },
    ]);
    expect(s.output).toEqual({ role: 'assistant', content: 'Day 1: …' });
  });

  it('maps a retrieval span', () => {
    expect(b.steps[1] as RetrievalStep).toMatchObject({
      query: 'hotels in Alfama',
      results: [
        { id: 'h-1', score: 0.93, content: 'Memmo Alfama' },
        { id: '2', score: 0.5 },
      ],
    });
  });
});

describe('otel importer: older OTLP document shape, errors and recorded cost', () => {
  const { traces, problems } = read(otelImporter, 'test/fixtures/otel/legacy-document.json');
  const [t] = traces;

  it('reads instrumentationLibrarySpans, numeric times and int values', () => {
    expect(problems).toEqual([]);
    expect(t!.agentId).toBe('researcher');
    expect(t!.agentVersion).toBe('0.9.0');
    expect(t!.availableTools).toEqual(['web_search', 'fetch_url']);
    expect(llm(t!, 0).usage.inputTokens).toBe(300);
  });

  it('marks the trace as failed, with no output, from a STATUS_CODE_ERROR root', () => {
    expect(t!.status).toBe('error');
    expect(t!.output).toBeUndefined();
    expect(t!.metadata).toMatchObject({ error: 'agent gave up after 2 failed tool calls' });
  });

  it('keeps a recorded cost and leaves pricing to the loader otherwise', () => {
    expect(llm(t!, 0).costUsd).toBe(0.00092);
    expect(llm(t!, 0).costSource).toBe('recorded');
    expect(llm(t!, 3).costUsd).toBeUndefined();
  });

  it('reads several tool calls in one output, finish reasons from the array', () => {
    expect(llm(t!, 0).finishReason).toBe('tool_calls');
    expect((llm(t!, 0).output as { toolCalls: unknown[] }).toolCalls).toHaveLength(2);
    // Issued together in that one response (gen_ai.tool.call.id c1, c2): one batch.
    expect([tool(t!, 1).issuedBy, tool(t!, 2).issuedBy]).toEqual([1, 1]);
  });

  it('takes tool errors from the exception event or error.type, and LLM errors from the status', () => {
    // Two tools start together: input order breaks the tie.
    expect(tool(t!, 1)).toMatchObject({
      name: 'web_search',
      status: 'error',
      error: '429 Too Many Requests',
    });
    expect(tool(t!, 1).args).toEqual({ q: 'OTel GenAI release' });
    expect(tool(t!, 2)).toMatchObject({ name: 'fetch_url', status: 'error', error: 'DNSError' });
    expect(llm(t!, 3)).toMatchObject({
      error: 'Request timed out.',
      usage: { inputTokens: 420, outputTokens: 0 },
    });
  });
});

describe('otel importer: detection', () => {
  it('sniffs OTLP documents and spans, but not OpenInference ones or other formats', () => {
    const doc = JSON.parse(readFileSync(root('examples/traces/otel-support-agent.json'), 'utf8'));
    expect(otelImporter.sniff(doc)).toBe(true);
    expect(otelImporter.sniff({ traceId: 'ab', spanId: 'cd', name: 'x', attributes: [] })).toBe(true);
    expect(
      otelImporter.sniff({
        traceId: 'ab',
        spanId: 'cd',
        attributes: [{ key: 'openinference.span.kind', value: { stringValue: 'LLM' } }],
      }),
    ).toBe(false);
    expect(otelImporter.sniff({ id: 't1', steps: [] })).toBe(false);
    expect(
      otelImporter.sniff({ id: 'o1', traceId: 't', type: 'GENERATION', startTime: '2025-01-01T00:00:00Z' }),
    ).toBe(false);
    expect(otelImporter.sniff({ traceId: 't', startTime: '2025-01-01', input: { model: 'x' } })).toBe(false);
  });
});
