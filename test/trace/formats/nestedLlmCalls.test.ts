/**
 * One call recorded by a wrapper and by the SDK inside it is one step; LLM spans that are not one
 * call (a span over several calls, calls side by side) stay steps of their own. Hand-made OTLP
 * documents: the real case is test/trace/producers/traceloopAnthropic.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { readTraceValues } from '../../../src/trace/readInMemory.js';
import type { LlmStep } from '../../../src/trace/schema.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const str = (v: string) => ({ stringValue: v });
const int = (v: number) => ({ intValue: v });

function span(
  id: string,
  parent: string | undefined,
  name: string,
  start: number,
  attrs: Record<string, unknown>,
) {
  return {
    traceId: TRACE,
    spanId: id.padStart(16, '0'),
    ...(parent ? { parentSpanId: parent.padStart(16, '0') } : {}),
    name,
    startTimeUnixNano: String(1_767_225_600_000_000_000n + BigInt(start) * 1_000_000n),
    endTimeUnixNano: String(1_767_225_600_000_000_000n + BigInt(start + 50) * 1_000_000n),
    attributes: Object.entries(attrs).map(([key, value]) => ({ key, value })),
    status: { code: 0 },
  };
}

const chat = (model: string, input: number) => ({
  'gen_ai.operation.name': str('chat'),
  'gen_ai.request.model': str(model),
  'gen_ai.usage.input_tokens': int(input),
  'gen_ai.usage.output_tokens': int(10),
});

function read(spans: ReturnType<typeof span>[]): LlmStep[] {
  const doc = {
    resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 't' }, spans }] }],
  };
  const { traces, stats } = readTraceValues('doc', [doc]);
  expect(stats.errors).toEqual([]);
  return traces[0]!.trace.steps.filter((s): s is LlmStep => s.type === 'llm');
}

describe('an LLM call recorded twice', () => {
  it('a wrapper span with the SDK’s span inside it is one step: the wrapper’s fields, the SDK’s usage', () => {
    const steps = read([
      span('1', undefined, 'invoke_agent a', 0, { 'gen_ai.operation.name': str('invoke_agent') }),
      span('2', '1', 'chat wrapper', 1, {
        ...chat('claude-haiku-4-5', 30),
        'gen_ai.output.messages': str('[{"role":"assistant","parts":[{"type":"text","content":"hi"}]}]'),
      }),
      span('3', '2', 'anthropic.messages.create', 2, {
        ...chat('claude-haiku-4-5', 430),
        'gen_ai.usage.cache_write.input_tokens': int(400),
      }),
    ]);
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({
      name: 'chat wrapper',
      output: { role: 'assistant', content: 'hi' },
      usage: { inputTokens: 430, outputTokens: 10, cacheWriteInputTokens: 400 },
    });
  });

  it('an LLM span over two calls keeps all three, and calls side by side stay two', () => {
    expect(
      read([
        span('1', undefined, 'chat router', 0, chat('gpt-4o', 5)),
        span('2', '1', 'chat a', 1, chat('gpt-4o-mini', 100)),
        span('3', '1', 'chat b', 2, chat('gpt-4o-mini', 200)),
      ]).map((s) => s.name),
    ).toEqual(['chat router', 'chat a', 'chat b']);
    expect(
      read([
        span('1', undefined, 'invoke_agent a', 0, { 'gen_ai.operation.name': str('invoke_agent') }),
        span('2', '1', 'chat a', 1, chat('gpt-4o-mini', 100)),
        span('3', '1', 'chat b', 2, chat('gpt-4o-mini', 200)),
      ]).map((s) => s.usage.inputTokens),
    ).toEqual([100, 200]);
  });
});
