/**
 * Traceloop's OpenLLMetry SDK with its Anthropic instrumentation, around the Anthropic SDK (which
 * writes spans of its own): test/fixtures/generate/traceloop-anthropic.mjs, the real packages
 * (@traceloop/node-server-sdk 0.27.0, the Anthropic SDK 0.137.0, the last line Traceloop patches),
 * written as OTLP/JSON and as the protobuf body Traceloop's exporter sends.
 *
 * Each call is recorded twice, Traceloop's `chat claude-haiku-4-5` span with the SDK's
 * `anthropic.messages.create` inside it; Traceloop records Anthropic's input_tokens, which leave the
 * 400 cached tokens out; its withTool records arguments as `{"args": [], "kwargs": {…}}`.
 * (Traceloop exports no span for a tool that throws: the first lookup_order, which failed, is not
 * in its output at all.)
 */
import { describe, expect, it } from 'vitest';
import { matchTrajectory } from '../../../src/trajectory/matchTrajectory.js';
import type { LlmStep, ToolStep, Trace } from '../../../src/trace/schema.js';
import { readJson, readProtobuf } from './producerFixture.js';

const JSON_FIXTURE = 'otel/traceloop-anthropic.json';
const PB_FIXTURE = 'otel/traceloop-anthropic.pb';

const llms = (t: Trace) => t.steps.filter((s): s is LlmStep => s.type === 'llm');
const tools = (t: Trace) => t.steps.filter((s): s is ToolStep => s.type === 'tool');

function expectWhole(trace: Trace): void {
  // One call, one step: six calls, not twelve.
  expect(llms(trace)).toHaveLength(6);
  expect(trace.steps.map((s) => (s.type === 'tool' ? s.name : s.type))).toEqual([
    'llm',
    'llm',
    'lookup_order',
    'llm',
    'get_weather',
    'llm',
    'get_weather',
    'llm',
    'get_weather',
    'llm',
  ]);
  // The SDK's own count: input tokens with the cached prefix in them, the cache write apart.
  expect(llms(trace).map((s) => s.usage)).toEqual([
    { inputTokens: 430, outputTokens: 12, cachedInputTokens: 0, cacheWriteInputTokens: 400 },
    ...[440, 450, 460, 470, 480].map((inputTokens) => ({
      inputTokens,
      outputTokens: 12,
      cachedInputTokens: 400,
      cacheWriteInputTokens: 0,
    })),
  ]);
  // The messages and tool calls are Traceloop's, so each tool step links to the call that asked.
  expect(tools(trace).map((t) => t.issuedBy)).toEqual([2, 4, 6, 8]);
  expect(trace.agentId).toBe('support-agent');
  expect(trace.input).toBe('Where is my order A1, and what is the weather in Paris?');
  expect(trace.metadata?.unreadSpans).toBeUndefined();
}

describe('Traceloop (OpenLLMetry) with the Anthropic SDK', () => {
  it('reads the JSON file whole: one step per call, whoever else wrapped it', async () => {
    expectWhole((await readJson(JSON_FIXTURE)).trace);
  });

  it('reads the protobuf body its exporter sends the same way', () => {
    expectWhole(readProtobuf(PB_FIXTURE));
  });

  it('prices cache writes as cache writes (Claude Haiku 4.5: $1.25 per million written)', async () => {
    const [first, second] = llms((await readJson(JSON_FIXTURE)).trace);
    // 30 uncached input at $1/M + 400 written at $1.25/M + 12 out at $5/M.
    expect(first!.costUsd).toBeCloseTo(30e-6 + 400 * 1.25e-6 + 12 * 5e-6, 9);
    // 40 uncached + 400 read at $0.10/M + 12 out.
    expect(second!.costUsd).toBeCloseTo(40e-6 + 400 * 0.1e-6 + 12 * 5e-6, 9);
  });

  it('warns where Traceloop recorded more cached than input tokens', async () => {
    const { notes } = await readJson(JSON_FIXTURE);
    const warned = notes.filter((n) => n.includes('cached input tokens are more than the'));
    // Calls 2–6 read the 400-token prefix against 40–80 uncached input tokens.
    expect(warned).toHaveLength(5);
    expect(warned[0]).toMatch(
      /traceloop-anthropic\.json:\d+: .*attributes\["gen_ai\.usage\.input_tokens"\]: 400 cached input tokens are more than the 40 input tokens recorded/,
    );
  });

  it('unwraps withTool arguments, so trajectories compare the real ones', async () => {
    const { trace } = await readJson(JSON_FIXTURE);
    expect(tools(trace).map((t) => t.args)).toEqual([
      { orderId: 'A1' },
      { city: 'Paris' },
      { city: 'Paris' },
      { city: 'Paris' },
    ]);
    const result = matchTrajectory(trace, [
      { name: 'lookup_order', args: { orderId: 'A1' } },
      { name: 'get_weather', args: { city: 'Paris' } },
      { name: 'get_weather', args: { city: 'Paris' } },
      { name: 'get_weather', args: { city: 'Paris' } },
    ]);
    expect(result.pass).toBe(true);
  });
});
