import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ImportProblem } from '../../../src/trace/importer.js';
import { recordsImporter } from '../../../src/trace/formats/records.js';
import { TraceSchema, type LlmStep, type Trace } from '../../../src/trace/schema.js';

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/records/${name}`, import.meta.url));

function readJsonl(file: string) {
  const problems: ImportProblem[] = [];
  const reader = recordsImporter.createReader({ problem: (p) => problems.push(p) });
  const out: { trace: Trace; line?: number }[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (text.trim() === '') return;
      const pushed = reader.push(JSON.parse(text), i + 1);
      // Records are grouped by traceId, so nothing is complete before the end.
      expect(pushed).toEqual([]);
    });
  for (const t of reader.end()) out.push({ trace: TraceSchema.parse(t.trace), line: t.line });
  return { traces: out, problems };
}

const llmSteps = (t: Trace) => t.steps as LlmStep[];

describe('records importer', () => {
  it('groups records by traceId, even when they are not adjacent, and orders them by startTime', () => {
    const { traces, problems } = readJsonl(fixture('calls.jsonl'));
    expect(problems).toEqual([]);
    expect(traces.map((t) => [t.trace.id, t.line])).toEqual([
      ['checkout_42', 1],
      ['faq_7', 2],
      ['flat_1', 6],
    ]);
    const checkout = traces[0]!.trace;
    expect(llmSteps(checkout).map((s) => s.name)).toEqual([
      'order_summary',
      'cart_items',
      'confirmation_email',
      'confirmation_email',
    ]);
    expect(llmSteps(checkout).map((s) => s.model)).toEqual([
      'gpt-4o-mini',
      'gpt-4o-mini',
      'gpt-4o-mini',
      'gpt-4o',
    ]);
    expect(checkout.startedAt).toBe('2025-03-04T09:00:00.000Z');
    expect(checkout.endedAt).toBe('2025-03-04T09:00:08.000Z');
    expect(checkout.input).toBe('Summarise the order for the customer.');
    expect(checkout.output).toBe('Dear customer, …');
    // The failed call was followed by a successful fallback: the run did not fail.
    expect(checkout.status).toBe('ok');
    expect(checkout.agentId).toBe('default');
  });

  it('maps each record to an llm step: model, tokens, recorded cost, timing, errors', () => {
    const { traces } = readJsonl(fixture('calls.jsonl'));
    const [first, second, failed, fallback] = llmSteps(traces[0]!.trace);
    expect(first).toMatchObject({
      type: 'llm',
      model: 'gpt-4o-mini',
      input: 'Summarise the order for the customer.',
      output: 'Two items, total 38.20 EUR.',
      usage: { inputTokens: 120, outputTokens: 40 },
      costUsd: 0.000042,
      costSource: 'recorded',
      startedAt: '2025-03-04T09:00:00.000Z',
      durationMs: 1250,
    });
    expect(first!.error).toBeUndefined();
    expect(second).toMatchObject({ durationMs: 1000, costUsd: 0.000032 });
    expect(failed).toMatchObject({ error: 'upstream timeout', durationMs: 1500, usage: { outputTokens: 0 } });
    // No cost and no endTime: left for the pricer, no duration.
    expect(fallback!.costUsd).toBeUndefined();
    expect(fallback!.costSource).toBeUndefined();
    expect(fallback!.durationMs).toBeUndefined();
    expect(fallback!.usage).toEqual({ inputTokens: 200, outputTokens: 150 });

    const faq = llmSteps(traces[1]!.trace)[0]!;
    expect(faq).toMatchObject({ model: 'gpt-4', usage: { inputTokens: 8, outputTokens: 5 } });
    expect(faq.costUsd).toBeUndefined();
  });

  it('reads flattened records (model, prompt and token counts at the top level)', () => {
    const { traces } = readJsonl(fixture('calls.jsonl'));
    expect(llmSteps(traces[2]!.trace)[0]).toMatchObject({
      model: 'claude-3-haiku',
      input: 'Say hello.',
      usage: { inputTokens: 3, outputTokens: 2 },
    });
  });

  it('keeps file order for ties and for records without a startTime', () => {
    const reader = recordsImporter.createReader({ problem: () => undefined });
    const rec = (name: string, startTime?: string) => ({
      traceId: 't',
      ...(startTime ? { startTime } : {}),
      name,
      input: { model: 'gpt-4o-mini', prompt: name },
      usage: { prompt_tokens: 1, completion_tokens: 1 },
    });
    reader.push(rec('b', '2025-01-01T00:00:02Z'), 1);
    reader.push(rec('b-untimed'), 2);
    reader.push(rec('a', '2025-01-01T00:00:01Z'), 3);
    reader.push(rec('c1', '2025-01-01T00:00:03Z'), 4);
    reader.push(rec('c2', '2025-01-01T00:00:03Z'), 5);
    const [out] = reader.end();
    const trace = TraceSchema.parse(out!.trace);
    expect(llmSteps(trace).map((s) => s.name)).toEqual(['a', 'b', 'b-untimed', 'c1', 'c2']);
    expect(out!.line).toBe(1);
  });

  it('reports bad records with line and field and keeps the good ones beside them', () => {
    const { traces, problems } = readJsonl(fixture('bad.jsonl'));
    expect(problems).toEqual([
      {
        line: 2,
        field: 'traceId',
        message: 'missing traceId; every record needs the id of the trace it belongs to',
      },
      { line: 3, field: 'input', message: 'missing input; expected {model, prompt}' },
      {
        line: 4,
        field: 'input.model',
        message: 'missing input.model; an LLM call needs the model it ran on',
      },
      {
        line: 5,
        field: 'usage',
        message:
          'missing usage (and no cost); expected {prompt_tokens, completion_tokens} so the call can be priced',
      },
      { line: 7, field: 'usage.prompt_tokens', message: 'expected a non-negative number, got "abc"' },
      {
        line: 8,
        field: 'startTime',
        message:
          'expected an ISO 8601 time or a unix epoch number, got "yesterday"; timestamp ignored, the call is still analysed',
      },
      { line: 10, message: 'expected a record object, got "just a string"' },
    ]);
    expect(traces.map((t) => t.trace.id)).toEqual(['ok_1', 'no_usage_but_cost', 'bad_time']);
    expect(traces[0]!.trace.steps).toHaveLength(2);
    // No usage but a recorded cost: kept with 0 tokens, the cost is what waste accounting needs.
    expect(llmSteps(traces[1]!.trace)[0]).toMatchObject({
      usage: { inputTokens: 0, outputTokens: 0 },
      costUsd: 0.0012,
      costSource: 'recorded',
    });
    // A bad timestamp drops only the timing.
    expect(llmSteps(traces[2]!.trace)[0]!.startedAt).toBeUndefined();
    expect(traces[2]!.trace.steps).toHaveLength(1);
  });

  it('reads epoch numbers in seconds, milliseconds, microseconds or nanoseconds by their size', () => {
    const reader = recordsImporter.createReader({ problem: () => undefined });
    const rec = (traceId: string, startTime: number, endTime?: number) => ({
      traceId,
      startTime,
      ...(endTime !== undefined ? { endTime } : {}),
      input: { model: 'gpt-4o', prompt: 'Summarise the weekly report' },
      usage: { prompt_tokens: 100, completion_tokens: 50 },
    });
    // Python's time.time(): float seconds. Calls an hour apart must not look a few ms apart.
    for (let i = 0; i < 3; i++)
      reader.push(rec('py', 1_700_000_000.25 + i * 3600, 1_700_000_001.5 + i * 3600), i + 1);
    reader.push(rec('ms', 1_700_000_000_250), 4);
    reader.push(rec('us', 1_700_000_000_250_000), 5);
    reader.push(rec('ns', 1_700_000_000_250_000_000), 6);
    const traces = reader.end().map((t) => TraceSchema.parse(t.trace));
    const py = traces[0]!;
    expect(llmSteps(py).map((s) => [s.startedAt, s.durationMs])).toEqual([
      ['2023-11-14T22:13:20.250Z', 1250],
      ['2023-11-14T23:13:20.250Z', 1250],
      ['2023-11-15T00:13:20.250Z', 1250],
    ]);
    expect([py.startedAt, py.endedAt]).toEqual(['2023-11-14T22:13:20.250Z', '2023-11-15T00:13:21.500Z']);
    expect(traces.slice(1).map((t) => [t.id, t.steps[0]!.startedAt])).toEqual([
      ['ms', '2023-11-14T22:13:20.250Z'],
      ['us', '2023-11-14T22:13:20.250Z'],
      ['ns', '2023-11-14T22:13:20.250Z'],
    ]);
  });

  it('reports an epoch number outside the range of dates and keeps the call without it', () => {
    const problems: ImportProblem[] = [];
    const reader = recordsImporter.createReader({ problem: (p) => problems.push(p) });
    reader.push(
      {
        traceId: 'far',
        startTime: 1e300,
        input: { model: 'gpt-4o', prompt: 'hi' },
        usage: { prompt_tokens: 1, completion_tokens: 1 },
      },
      1,
    );
    const trace = TraceSchema.parse(reader.end()[0]!.trace);
    expect(trace.steps).toHaveLength(1);
    expect(trace.steps[0]!.startedAt).toBeUndefined();
    expect(problems).toEqual([
      {
        line: 1,
        field: 'startTime',
        message:
          'expected an ISO 8601 time or a unix epoch number, got 1e+300; timestamp ignored, the call is still analysed',
      },
    ]);
  });

  it('analyses every call whose time cannot be read, and says the time was ignored', () => {
    const problems: ImportProblem[] = [];
    const reader = recordsImporter.createReader({ problem: (p) => problems.push(p) });
    const times = ['yesterday', '2024-13-01T00:00:00Z', '', '2025-01-01T00:00:00Z'];
    times.forEach((startTime, i) =>
      reader.push(
        {
          traceId: 'r1',
          startTime,
          endTime: i === 3 ? 'later' : undefined,
          input: { model: 'gpt-4o', prompt: `p${i}` },
          usage: { prompt_tokens: 100, completion_tokens: 50 },
        },
        i + 1,
      ),
    );
    const trace = TraceSchema.parse(reader.end()[0]!.trace);
    expect(llmSteps(trace).map((s) => s.input)).toEqual(['p0', 'p1', 'p2', 'p3']);
    expect(problems.map((p) => [p.line, p.field])).toEqual([
      [1, 'startTime'],
      [2, 'startTime'],
      [3, 'startTime'],
      [4, 'endTime'],
    ]);
    for (const p of problems) expect(p.message).toMatch(/; timestamp ignored, the call is still analysed$/);
  });

  it('reports an endTime before its startTime and keeps the call, without a duration', () => {
    const problems: ImportProblem[] = [];
    const reader = recordsImporter.createReader({ problem: (p) => problems.push(p) });
    reader.push(
      {
        traceId: 'r1',
        startTime: '2025-01-01T00:00:10Z',
        endTime: '2025-01-01T00:00:04Z',
        input: { model: 'gpt-4o', prompt: 'p' },
        usage: { prompt_tokens: 100, completion_tokens: 50 },
      },
      7,
    );
    const step = llmSteps(TraceSchema.parse(reader.end()[0]!.trace))[0]!;
    expect(step.startedAt).toBe('2025-01-01T00:00:10.000Z');
    expect(step.durationMs).toBeUndefined();
    expect(problems).toEqual([
      {
        line: 7,
        field: 'endTime',
        message: 'is 6 s before startTime; the duration is ignored, the call is still analysed',
      },
    ]);
  });

  it('redacts a secret in a quoted field value before clipping it', () => {
    const problems: ImportProblem[] = [];
    const reader = recordsImporter.createReader({ problem: (p) => problems.push(p) });
    const key = `sk-proj-${'A1b2C3d4E5'.repeat(4)}`;
    // The key starts inside the first 40 characters and ends after them: a plain cut keeps its head.
    reader.push(
      {
        traceId: 't',
        startTime: `called with ${key}`,
        input: { model: 'gpt-4o', prompt: 'hi' },
        usage: { prompt_tokens: 1, completion_tokens: 1 },
      },
      1,
    );
    reader.push({ traceId: 't', input: `token ${key}` }, 2);
    reader.end();
    expect(problems.map((p) => p.message)).toEqual([
      'expected an ISO 8601 time or a unix epoch number, got "called with [REDACTED]"; timestamp ignored, the call is still analysed',
      'expected an object {model, prompt}, got "token [REDACTED]"',
    ]);
    for (const p of problems) expect(p.message).not.toContain('sk-proj');
  });

  it('reads cached input tokens and an error level as a failed last call', () => {
    const reader = recordsImporter.createReader({ problem: () => undefined });
    reader.push(
      {
        traceId: 'x',
        startTime: '2025-01-01T00:00:00Z',
        level: 'ERROR',
        input: { model: 'gpt-4o', prompt: 'hi' },
        usage: { prompt_tokens: 1000, completion_tokens: 0, prompt_tokens_details: { cached_tokens: 800 } },
      },
      1,
    );
    const trace = TraceSchema.parse(reader.end()[0]!.trace);
    expect(llmSteps(trace)[0]).toMatchObject({
      usage: { inputTokens: 1000, cachedInputTokens: 800 },
      error: 'error',
    });
    expect(trace.status).toBe('error');
  });

  it('reads the agent and session of a trace from its records’ metadata (camelCase or snake_case)', () => {
    const reader = recordsImporter.createReader({ problem: () => undefined });
    const call = (traceId: string, metadata: Record<string, unknown>, line: number) =>
      reader.push(
        {
          traceId,
          startTime: `2025-01-01T00:00:0${line}Z`,
          input: { model: 'gpt-4o', prompt: 'hi' },
          usage: { prompt_tokens: 10, completion_tokens: 2 },
          metadata,
        },
        line,
      );
    call('a', { agentId: 'support-bot', sessionId: 'conv-1' }, 1);
    call('b', { agent_id: 'billing', session_id: 'conv-2' }, 2);
    // A session named on a later record of the trace still counts; an empty one names none.
    call('c', {}, 3);
    call('c', { sessionId: 'conv-3' }, 4);
    call('d', { sessionId: '' }, 5);
    const traces = reader.end().map((t) => TraceSchema.parse(t.trace));
    expect(traces.map((t) => [t.id, t.agentId, t.sessionId])).toEqual([
      ['a', 'support-bot', 'conv-1'],
      ['b', 'billing', 'conv-2'],
      ['c', 'default', 'conv-3'],
      ['d', 'default', undefined],
    ]);
  });

  it('sniffs record lines and not the other formats', () => {
    const line = JSON.parse(readFileSync(fixture('calls.jsonl'), 'utf8').split('\n')[0]!);
    expect(recordsImporter.sniff(line)).toBe(true);
    expect(recordsImporter.sniff({ id: 't', steps: [] })).toBe(false);
    expect(recordsImporter.sniff({ traceId: 'a', spanId: 'b', name: 'x' })).toBe(false);
    expect(recordsImporter.sniff({ resourceSpans: [] })).toBe(false);
    expect(recordsImporter.sniff({ id: 't', observations: [] })).toBe(false);
    expect(recordsImporter.sniff({ messages: [{ role: 'user', content: 'hi' }] })).toBe(false);
    expect(
      recordsImporter.sniff({ id: 'o', traceId: 't', type: 'GENERATION', startTime: '2025-01-01T00:00:00Z' }),
    ).toBe(false);
  });
});
