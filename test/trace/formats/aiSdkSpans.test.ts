import { describe, expect, it } from 'vitest';
import { otelImporter } from '../../../src/trace/formats/otel.js';
import { TraceSchema, type LlmStep } from '../../../src/trace/schema.js';
import { matchTrajectory } from '../../../src/trajectory/matchTrajectory.js';
import { expectLoopFlagged, expectRun, loadRun } from '../../helpers/realLibraryRun.js';

describe('AI SDK 5 built-in telemetry (ai.* spans, generateText)', () => {
  const path = 'otel/ai-sdk-5-generate-text.json';

  it('reads every ai.toolCall and each doGenerate once; ai.generateText is the trace, not a step', async () => {
    const loaded = await loadRun(path);
    expectRun(loaded);
    const { trace } = loaded;
    expect(loaded.source.format).toBe('otel');
    expect(trace.metadata?.rootSpan).toBe('ai.generateText');
    expect(trace.input).toBe('Where is my order A1, and what is the weather in Paris?');
    expect(trace.output).toBe('Order A1 ships tomorrow; it is 18°C and sunny in Paris.');
    expect(trace.availableTools).toEqual(['lookup_order', 'get_weather']);
    const first = trace.steps[0] as LlmStep;
    expect(first).toMatchObject({
      model: 'mock-model-v2',
      provider: 'mock-provider',
      finishReason: 'tool-calls',
    });
    expect(first.input).toEqual([
      { role: 'user', content: 'Where is my order A1, and what is the weather in Paris?' },
    ]);
    // The second call sees the failed tool's error as a tool message.
    const second = trace.steps[2] as LlmStep;
    expect(second.input).toContainEqual({
      role: 'tool',
      toolCallId: 'call_1',
      name: 'lookup_order',
      content: 'order service timed out',
    });
    expect(trace.steps[1]).toMatchObject({ callId: 'call_1' });
  });

  it('raises a loop signal and fails the gate', async () => {
    await expectLoopFlagged(path);
  });
});

describe('AI SDK 7 LegacyOpenTelemetry (ai.* spans, streamText)', () => {
  const path = 'otel/ai-sdk-7-legacy-stream-text.json';

  it('reads doStream calls with v5+ usage names and tool calls nested under them', async () => {
    const loaded = await loadRun(path);
    expectRun(loaded);
    expect(loaded.trace.metadata?.rootSpan).toBe('ai.streamText');
    expect(loaded.trace.steps[0]).toMatchObject({ model: 'mock-model-v4', finishReason: 'tool-calls' });
  });

  it('raises a loop signal', async () => {
    await expectLoopFlagged(path);
  });
});

describe('AI SDK 7 OpenTelemetry (GenAI conventions, generateText)', () => {
  const path = 'otel/ai-sdk-7-genai-generate-text.json';

  it('reads chat and execute_tool spans; agent_step spans are structure, not unread', async () => {
    const loaded = await loadRun(path);
    expectRun(loaded);
    expect(loaded.trace.steps[0]).toMatchObject({ model: 'mock-model-v4' });
  });

  it('raises a loop signal', async () => {
    await expectLoopFlagged(path);
  });
});

describe('AI SDK parallel tool calls', () => {
  // ai.generateText → doGenerate (asks for two calls at once) → two ai.toolCall → doGenerate.
  const attr = (key: string, value: string | number) => ({
    key,
    value: typeof value === 'number' ? { intValue: value } : { stringValue: value },
  });
  const span = (
    spanId: string,
    name: string,
    start: number,
    end: number,
    attrs: ReturnType<typeof attr>[],
    parent = 'aa00000000000001',
  ) => ({
    traceId: 'ab'.repeat(16),
    spanId,
    ...(spanId === 'aa00000000000001' ? {} : { parentSpanId: parent }),
    name,
    startTimeUnixNano: String(BigInt(start) * 1_000_000n),
    endTimeUnixNano: String(BigInt(end) * 1_000_000n),
    attributes: [attr('ai.operationId', name), ...attrs],
  });
  const calls = JSON.stringify([
    { toolCallType: 'function', toolCallId: 'call_a', toolName: 'get_weather', args: '{"city":"SF"}' },
    { toolCallType: 'function', toolCallId: 'call_b', toolName: 'get_weather', args: '{"city":"Oslo"}' },
  ]);
  const document = {
    resourceSpans: [
      {
        resource: { attributes: [] },
        scopeSpans: [
          {
            scope: { name: 'ai' },
            spans: [
              span('aa00000000000001', 'ai.generateText', 0, 100, [attr('ai.model.id', 'gpt-4o-mini')]),
              span('aa00000000000002', 'ai.generateText.doGenerate', 1, 10, [
                attr('ai.model.id', 'gpt-4o-mini'),
                attr('ai.response.toolCalls', calls),
              ]),
              span('aa00000000000003', 'ai.toolCall', 11, 20, [
                attr('ai.toolCall.name', 'get_weather'),
                attr('ai.toolCall.id', 'call_b'),
                attr('ai.toolCall.args', '{"city":"Oslo"}'),
              ]),
              span('aa00000000000004', 'ai.toolCall', 12, 21, [
                attr('ai.toolCall.name', 'get_weather'),
                attr('ai.toolCall.id', 'call_a'),
                attr('ai.toolCall.args', '{"city":"SF"}'),
              ]),
              span('aa00000000000005', 'ai.generateText.doGenerate', 30, 40, [
                attr('ai.model.id', 'gpt-4o-mini'),
                attr('ai.response.text', 'Sunny in SF, cold in Oslo.'),
              ]),
            ],
          },
        ],
      },
    ],
  };

  it('links both ai.toolCall spans to the doGenerate that asked for them: one batch', () => {
    const reader = otelImporter.createReader({ problem: (p) => expect.fail(p.message) });
    const [imported] = [...reader.push(document, 1), ...reader.end()];
    const trace = TraceSchema.parse(imported!.trace);
    expect(trace.steps.map((s) => (s.type === 'tool' ? `${s.name}:${String(s.issuedBy)}` : s.type))).toEqual([
      'llm',
      'get_weather:1',
      'get_weather:1',
      'llm',
    ]);
    // A batch matches strict in any order.
    const expected = [
      { name: 'get_weather', args: { city: 'SF' } },
      { name: 'get_weather', args: { city: 'Oslo' } },
    ];
    expect(matchTrajectory(trace, expected).pass).toBe(true);
  });
});
