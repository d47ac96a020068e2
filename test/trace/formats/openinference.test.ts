import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importFile } from '../../helpers/importFile.js';
import { describe, expect, it } from 'vitest';
import type { Importer, ImportProblem } from '../../../src/trace/importer.js';
import { openinferenceImporter } from '../../../src/trace/formats/openinference.js';
import { otelImporter } from '../../../src/trace/formats/otel.js';
import { type LlmStep, type RetrievalStep, type ToolStep, type Trace } from '../../../src/trace/schema.js';

const root = (p: string) => fileURLToPath(new URL(`../../../${p}`, import.meta.url));

function read(importer: Importer, path: string): { traces: Trace[]; problems: ImportProblem[] } {
  const { traces, problems } = importFile(importer, root(path));
  return { traces: traces.map((t) => t.trace), problems };
}

const llm = (t: Trace, i: number) => t.steps[i] as LlmStep;
const tool = (t: Trace, i: number) => t.steps[i] as ToolStep;

describe('openinference importer: the example RAG agent (span per line, children first)', () => {
  const { traces, problems } = read(openinferenceImporter, 'examples/traces/openinference-rag-agent.jsonl');
  const [t] = traces;

  it('reads one trace rooted at the AGENT span', () => {
    expect(problems).toEqual([]);
    expect(traces).toHaveLength(1);
    expect(t!.id).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(t!.agentId).toBe('docs-helper');
    expect(t!.sessionId).toBe('sess_41c9');
    expect(t!.input).toBe('How do I rotate an API key without downtime?');
    expect(t!.output).toEqual(expect.stringContaining('kb-auth-014'));
    expect(t!.metadata).toMatchObject({ userId: 'u_1029', channel: 'web' });
    expect(t!.availableTools).toEqual(['search_docs', 'get_changelog']);
    expect(t!.startedAt).toBe('2025-03-14T10:00:00.000Z');
    expect(t!.endedAt).toBe('2025-03-14T10:00:06.120Z');
  });

  it('orders LLM, TOOL and RETRIEVER steps by parent/child and start time; skips EMBEDDING', () => {
    expect(t!.steps.map((s) => s.type)).toEqual(['llm', 'tool', 'retrieval', 'tool', 'llm']);
  });

  it('maps an LLM span with flattened messages and a tool-call-only output', () => {
    const s = llm(t!, 0);
    expect(s.model).toBe('gpt-4o-mini-2024-07-18');
    expect(s.provider).toBe('openai');
    expect(s.usage).toEqual({ inputTokens: 188, outputTokens: 22 });
    expect(s.finishReason).toBe('tool_calls');
    expect(s.input).toEqual([
      { role: 'system', content: expect.stringContaining('Acme API') },
      { role: 'user', content: 'How do I rotate an API key without downtime?' },
    ]);
    expect(s.output).toEqual({
      role: 'assistant',
      toolCalls: [
        { id: 'call_Hn3d', name: 'search_docs', arguments: { query: 'rotate API key zero downtime' } },
      ],
    });
    expect(s.durationMs).toBe(950);
  });

  it('reads tool calls and tool results inside the prompt', () => {
    const input = llm(t!, 4).input as { role: string }[];
    expect(input[2]).toEqual({
      role: 'assistant',
      toolCalls: [
        { id: 'call_Hn3d', name: 'search_docs', arguments: { query: 'rotate API key zero downtime' } },
      ],
    });
    expect(input[3]).toMatchObject({ role: 'tool', toolCallId: 'call_Hn3d' });
    expect(llm(t!, 4).usage).toEqual({ inputTokens: 402, outputTokens: 61, cachedInputTokens: 128 });
    expect(llm(t!, 4).finishReason).toBe('stop');
  });

  it('maps TOOL spans: arguments from input.value, result from output.value, errors from the status', () => {
    expect(tool(t!, 1)).toMatchObject({
      name: 'search_docs',
      args: { query: 'rotate API key zero downtime' },
      result: ['kb-auth-014', 'kb-auth-022'],
      callId: 'call_Hn3d',
      status: 'ok',
    });
    expect(tool(t!, 3)).toMatchObject({
      name: 'get_changelog',
      status: 'error',
      error: 'HTTPError: 503 Service Unavailable',
    });
  });

  it('links a TOOL span to the LLM span whose output asked for its tool_call.id, and guesses no other', () => {
    expect(tool(t!, 1).issuedBy).toBe(1);
    // No LLM output asked for get_changelog: nothing says which response issued it.
    expect(tool(t!, 3).issuedBy).toBeUndefined();
  });

  it('maps RETRIEVER documents', () => {
    const r = t!.steps[2] as RetrievalStep;
    expect(r.query).toBe('rotate API key zero downtime');
    expect(r.results).toHaveLength(3);
    expect(r.results[0]).toEqual({
      id: 'kb-auth-014',
      score: 0.89,
      content: expect.stringContaining('zero downtime'),
    });
  });
});

describe('openinference importer: LangChain-style run with plain-object attributes', () => {
  const { traces, problems } = read(
    openinferenceImporter,
    'test/fixtures/openinference/langchain-agent.jsonl',
  );
  const [t] = traces;

  it('uses the outer CHAIN as the trace and walks through the nested AGENT', () => {
    expect(problems).toEqual([]);
    expect(traces).toHaveLength(1);
    expect(t!.sessionId).toBe('chat-77');
    expect(t!.input).toEqual({ input: 'What is 17 * 23, and is it prime?' });
    expect(t!.metadata).toMatchObject({ ls_run: 'r-1', rootSpan: 'RunnableSequence' });
    // GUARDRAIL and RERANKER spans are not steps.
    expect(t!.steps.map((s) => (s.type === 'tool' ? s.name : s.type))).toEqual([
      'llm',
      'multiply',
      'is_prime',
      'llm',
    ]);
  });

  it('reads message contents, an empty content beside tool calls, and the stop reason of the raw output', () => {
    const s = llm(t!, 0);
    expect(s.provider).toBe('anthropic');
    expect(s.input).toEqual([{ role: 'user', content: 'What is 17 * 23, and is it prime?' }]);
    expect(s.output).toEqual({
      role: 'assistant',
      toolCalls: [{ id: 'toolu_A', name: 'multiply', arguments: { a: 17, b: 23 } }],
    });
    expect(s.finishReason).toBe('tool_use');
    expect(t!.availableTools).toEqual(['multiply', 'is_prime']);
  });

  it('reads completions-API prompts and choices, cache reads and a recorded cost', () => {
    const s = llm(t!, 3);
    expect(s.input).toBe('Human: 17*23=391. Is 391 prime?');
    expect(s.output).toBe('391 = 17 × 23, so it is not prime.');
    expect(s.usage).toEqual({ inputTokens: 300, outputTokens: 20, cachedInputTokens: 200 });
    expect(s.costUsd).toBe(0.0012);
    expect(s.costSource).toBe('recorded');
    expect(s.finishReason).toBe('end_turn');
  });

  it('maps a failed tool', () => {
    expect(tool(t!, 1)).toMatchObject({ args: { a: 17, b: 23 }, result: '391', status: 'ok' });
    expect(tool(t!, 2)).toMatchObject({ status: 'error', error: "ValueError: unsupported input '391'" });
  });
});

describe('openinference importer: OTLP/JSON document with two traces', () => {
  const { traces, problems } = read(openinferenceImporter, 'test/fixtures/openinference/llamaindex-rag.json');

  it('reads a RAG query and a bare LLM call as two traces', () => {
    expect(problems).toEqual([]);
    expect(traces).toHaveLength(2);
    const rag = traces.find((t) => t.id === 'a3c8f3b1d2e4f5a6b7c8d9e0f1a2b3c4')!;
    expect(rag.agentId).toBe('kb-bot');
    expect(rag.output).toBe('Priya Raman wrote it.');
    expect(rag.steps.map((s) => s.type)).toEqual(['retrieval', 'llm']);
    expect((rag.steps[0] as RetrievalStep).results.map((r) => r.id)).toEqual(['doc-7', 'doc-9']);
    expect(llm(rag, 1)).toMatchObject({
      model: 'gpt-4o-mini',
      finishReason: 'stop',
      output: { content: 'Priya Raman wrote it.' },
    });
  });

  it('keeps a parentless LLM span as a step, model from the invocation parameters', () => {
    const bare = traces.find((t) => t.id === 'ffeeddccbbaa99887766554433221100')!;
    expect(bare.steps).toHaveLength(1);
    expect(llm(bare, 0)).toMatchObject({
      model: 'mistral-small',
      input: 'ping',
      output: 'pong',
      durationMs: 600,
    });
    expect(bare.startedAt).toBe('2025-03-14T10:00:05.000Z');
  });
});

describe('openinference importer: detection', () => {
  it('claims spans with openinference.span.kind and leaves other OTLP to the otel importer', () => {
    const line = JSON.parse(
      readFileSync(root('examples/traces/openinference-rag-agent.jsonl'), 'utf8').split('\n')[0]!,
    );
    expect(openinferenceImporter.sniff(line)).toBe(true);
    expect(otelImporter.sniff(line)).toBe(false);
    const doc = JSON.parse(readFileSync(root('test/fixtures/openinference/llamaindex-rag.json'), 'utf8'));
    expect(openinferenceImporter.sniff(doc)).toBe(true);
    const otelDoc = JSON.parse(readFileSync(root('examples/traces/otel-support-agent.json'), 'utf8'));
    expect(openinferenceImporter.sniff(otelDoc)).toBe(false);
    expect(openinferenceImporter.sniff({ id: 't', steps: [] })).toBe(false);
  });
});
