import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importFile } from '../../helpers/importFile.js';
import { describe, expect, it } from 'vitest';
import type { ImportProblem } from '../../../src/trace/importer.js';
import { langfuseImporter } from '../../../src/trace/formats/langfuse.js';
import {
  TraceSchema,
  type LlmStep,
  type RetrievalStep,
  type ToolStep,
  type Trace,
} from '../../../src/trace/schema.js';

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/langfuse/${name}`, import.meta.url));

const read = (file: string) => importFile(langfuseImporter, file);

describe('langfuse importer: a full trace export', () => {
  const { traces, problems } = read(fixture('trace.json'));
  const trace = traces[0]!.trace;

  it('reads the trace fields', () => {
    expect(problems).toEqual([]);
    expect(traces).toHaveLength(1);
    expect(trace).toMatchObject({
      id: 'lf-trace-1',
      sessionId: 'sess-9',
      agentId: 'support-agent',
      agentVersion: 'v1.4.0',
      startedAt: '2025-05-02T14:00:00.000Z',
      endedAt: '2025-05-02T14:00:07.100Z',
      input: { question: 'Where is my refund for order A-17?' },
      output: 'Your refund could not be issued right now; a colleague will follow up today.',
    });
    expect(trace.metadata).toEqual({
      channel: 'web',
      traceName: 'support-agent',
      userId: 'user-17',
      tags: ['refunds'],
      environment: 'production',
    });
    // A tool failed mid-run but the run answered afterwards: not an error run.
    expect(trace.status).toBe('ok');
  });

  it('walks observations depth-first by parent, siblings by startTime; only generations, tools and retrievers are steps', () => {
    expect(trace.steps.map((s) => `${s.type}:${'name' in s ? s.name : ''}`)).toEqual([
      'llm:plan',
      'tool:lookup_order',
      'retrieval:',
      'llm:decide',
      'tool:issue_refund',
      'llm:answer',
    ]);
  });

  it('maps generations: model, usageDetails with cached input, costDetails, messages, finish reason, timing', () => {
    const [plan, , , decide, , answer] = trace.steps as LlmStep[];
    expect(plan).toMatchObject({
      model: 'gpt-4o',
      usage: { inputTokens: 1200, outputTokens: 50, cachedInputTokens: 300 },
      costUsd: 0.0025,
      costSource: 'recorded',
      finishReason: 'tool_calls',
      startedAt: '2025-05-02T14:00:00.100Z',
      durationMs: 1800,
      input: [
        { role: 'system', content: 'You are a refund assistant.' },
        { role: 'user', content: 'Where is my refund for order A-17?' },
      ],
      output: {
        role: 'assistant',
        toolCalls: [{ id: 'call_1', name: 'lookup_order', arguments: { orderId: 'A-17' } }],
      },
    });
    // Cache reads are input (Langfuse keeps them apart from `input`); cache writes too.
    expect(decide).toMatchObject({
      model: 'claude-3-5-sonnet-20241022',
      usage: { inputTokens: 1400, outputTokens: 120, cachedInputTokens: 1000 },
      output: 'Issue the refund with issue_refund.',
    });
    expect(decide!.costUsd).toBeUndefined();
    expect(decide!.costSource).toBeUndefined();
    // Legacy usage {input, output} and the deprecated calculatedTotalCost.
    expect(answer).toMatchObject({
      model: 'gpt-4o-mini',
      usage: { inputTokens: 500, outputTokens: 60 },
      costUsd: 0.0031,
      costSource: 'recorded',
      output: {
        role: 'assistant',
        content: 'Your refund could not be issued right now; a colleague will follow up today.',
      },
    });
  });

  it('maps tools (level ERROR → status error) and retrievers', () => {
    const lookup = trace.steps[1] as ToolStep;
    expect(lookup).toEqual({
      type: 'tool',
      name: 'lookup_order',
      args: { orderId: 'A-17' },
      result: { status: 'delivered', refund: 'requested' },
      status: 'ok',
      callId: 'call_1',
      // The GENERATION at step 1 asked for call_1.
      issuedBy: 1,
      // Under the AGENT observation "refund-agent".
      agent: 'refund-agent',
      startedAt: '2025-05-02T14:00:02.000Z',
      durationMs: 400,
    });
    expect(trace.steps[4]).toMatchObject({
      type: 'tool',
      name: 'issue_refund',
      status: 'error',
      error: 'refund service unavailable (503)',
    });
    expect((trace.steps[4] as ToolStep).result).toBeUndefined();
    const retrieval = trace.steps[2] as RetrievalStep;
    expect(retrieval.query).toBe('refund policy delivered orders');
    expect(retrieval.results).toEqual([
      { id: 'policy-3', score: 0.82, content: 'Refunds are issued within 5 days of a return.' },
      { id: 'policy-1', score: 0.71, content: 'Delivered orders can be returned within 30 days.' },
    ]);
  });
});

describe('langfuse importer: other shapes', () => {
  it('reads JSONL of traces: root ERROR → status error, metadata.agentId, version, legacy promptTokens', () => {
    const { traces, problems } = read(fixture('traces.jsonl'));
    expect(problems).toEqual([]);
    expect(traces.map((t) => [t.trace.id, t.line])).toEqual([
      ['lf-a', 1],
      ['lf-b', 2],
    ]);
    const a = traces[0]!.trace;
    expect(a).toMatchObject({ status: 'error', agentId: 'summary-bot', agentVersion: '2' });
    expect(a.output).toBeUndefined();
    expect(a.steps[0]).toMatchObject({
      type: 'llm',
      usage: { inputTokens: 2100, outputTokens: 0 },
      costUsd: 0.0004,
      error: 'context_length_exceeded',
    });
    const b = traces[1]!.trace;
    expect(b).toMatchObject({ status: 'ok', agentId: 'summariser' });
    expect(b.steps).toHaveLength(1);
    expect(b.steps[0]).toMatchObject({
      input: [{ role: 'user', content: 'Summarise: …' }],
      output: { role: 'assistant', content: 'Three decisions were made.' },
      finishReason: 'stop',
      usage: { inputTokens: 300, outputTokens: 20 },
    });
  });

  it('groups an API page of loose observations by traceId', () => {
    const { traces, problems } = read(fixture('api-page.json'));
    expect(problems).toEqual([]);
    expect(traces.map((t) => t.trace.id)).toEqual(['lf-page-1', 'lf-page-2']);
    const first = traces[0]!.trace;
    expect(first.agentId).toBe('default');
    expect(first.startedAt).toBe('2025-05-04T10:00:00.000Z');
    const step = first.steps[0] as LlmStep;
    // No costDetails.total: the parts are summed.
    expect(step.costUsd).toBeCloseTo(0.0000072, 12);
    expect(step.costSource).toBe('recorded');
  });

  it('joins a trace header listing observation ids with the observations that follow', () => {
    const problems: ImportProblem[] = [];
    const reader = langfuseImporter.createReader({ problem: (p) => problems.push(p) });
    const header = {
      id: 'h1',
      name: 'bot',
      timestamp: '2025-05-04T10:00:00Z',
      observations: ['o1'],
      input: 'hi',
    };
    expect(reader.push(header, 1)).toEqual([]);
    reader.push(
      { id: 'o1', traceId: 'h1', type: 'GENERATION', startTime: '2025-05-04T10:00:01Z', model: 'gpt-4o' },
      2,
    );
    reader.push({ id: 'h2', observations: ['zz'] }, 3);
    const out = reader.end().map((t) => TraceSchema.parse(t.trace));
    expect(out.map((t) => [t.id, t.agentId, t.steps.length, t.input])).toEqual([['h1', 'bot', 1, 'hi']]);
    expect(problems).toEqual([
      {
        line: 3,
        field: 'observations',
        message:
          'trace h2: observations are listed by id only and none were found in the input; export the trace with its observations',
      },
    ]);
  });

  it('reports bad observations with line and field and keeps the rest of the trace', () => {
    const problems: ImportProblem[] = [];
    const reader = langfuseImporter.createReader({ problem: (p) => problems.push(p) });
    const traces = reader.push(
      [
        {
          id: 'bad-1',
          observations: [
            'oops',
            {
              id: 'g',
              type: 'GENERATION',
              startTime: '2025-01-01T00:00:00Z',
              model: 'gpt-4o',
              usageDetails: { input: 'abc', output: 5 },
            },
            { id: 'n', startTime: '2025-01-01T00:00:01Z' },
          ],
        },
        { name: 'no id', observations: [] },
      ],
      1,
    );
    expect(problems).toEqual([
      { line: 1, field: '[0].observations[0]', message: 'expected an observation object' },
      {
        line: 1,
        field: '[0].observations[2].type',
        message: 'missing observation type (GENERATION, SPAN, TOOL, …)',
      },
      {
        line: 1,
        field: '[0].observations[1].usageDetails.input',
        message: 'expected a non-negative number, got "abc"',
      },
      { line: 1, field: '[1].id', message: 'missing trace id' },
    ]);
    const trace: Trace = TraceSchema.parse(traces[0]!.trace);
    expect(trace.steps).toHaveLength(1);
    expect((trace.steps[0] as LlmStep).usage).toEqual({ inputTokens: 0, outputTokens: 5 });
  });

  it('treats a deprecated cost of 0 as unknown (left to the pricer) but a costDetails total of 0 as recorded', () => {
    const reader = langfuseImporter.createReader({ problem: () => undefined });
    const gen = (id: string, extra: Record<string, unknown>) => ({
      id,
      type: 'GENERATION',
      startTime: '2025-01-01T00:00:00Z',
      model: 'my-model',
      ...extra,
    });
    const [out] = reader.push(
      {
        id: 'c',
        observations: [gen('a', { calculatedTotalCost: 0 }), gen('b', { costDetails: { total: 0 } })],
      },
      1,
    );
    const [a, b] = TraceSchema.parse(out!.trace).steps as LlmStep[];
    expect(a!.costUsd).toBeUndefined();
    expect(b).toMatchObject({ costUsd: 0, costSource: 'recorded' });
  });

  it('reads epoch-number times as the records format does (seconds here), not as nothing', () => {
    const reader = langfuseImporter.createReader({ problem: () => undefined });
    const start = Date.UTC(2025, 0, 1) / 1000;
    const [out] = reader.push(
      {
        id: 'e',
        observations: [
          { id: 'a', type: 'GENERATION', model: 'my-model', startTime: start, endTime: start + 2.5 },
        ],
      },
      1,
    );
    const [a] = TraceSchema.parse(out!.trace).steps as LlmStep[];
    expect(a).toMatchObject({ startedAt: '2025-01-01T00:00:00.000Z', durationMs: 2500 });
  });

  it('sniffs Langfuse traces, arrays, API pages and observations; not the other formats', () => {
    const sniff = langfuseImporter.sniff;
    const t = JSON.parse(readFileSync(fixture('trace.json'), 'utf8')) as unknown;
    expect(sniff(t)).toBe(true);
    expect(sniff([t])).toBe(true);
    expect(sniff(JSON.parse(readFileSync(fixture('api-page.json'), 'utf8')))).toBe(true);
    expect(sniff({ id: 't', steps: [], observations: [] })).toBe(false);
    expect(sniff({ resourceSpans: [] })).toBe(false);
    expect(sniff({ traceId: 't', spanId: 's', name: 'x', startTime: 'x' })).toBe(false);
    expect(
      sniff({ traceId: 't', type: 'generation', startTime: 'x', input: { model: 'gpt-4' }, usage: {} }),
    ).toBe(false);
    expect(sniff({ messages: [{ role: 'user', content: 'hi' }] })).toBe(false);
    expect(sniff([{ task_id: 1, trial: 0, traj: [] }])).toBe(false);
  });
});

describe('langfuse importer: model names', () => {
  it('does not take modelId (the id of a Langfuse model definition) as the model name', () => {
    const reader = langfuseImporter.createReader({ problem: () => {} });
    const obs = (id: string, extra: Record<string, unknown>) => ({
      id,
      traceId: 'lf-m',
      type: 'GENERATION',
      startTime: '2025-01-01T00:00:00.000Z',
      usageDetails: { input: 10, output: 2 },
      ...extra,
    });
    const [out] = reader.push(
      {
        id: 'lf-m',
        observations: [
          obs('g1', { modelId: 'cm1x2y3z4000008l4a1b2c3d4' }),
          obs('g2', { model: 'gpt-4o-mini', modelId: 'cm1x2y3z4000008l4a1b2c3d4' }),
        ],
      },
      1,
    );
    const steps = TraceSchema.parse(out!.trace).steps as LlmStep[];
    expect(steps.map((s) => s.model)).toEqual(['unknown', 'gpt-4o-mini']);
  });
});
