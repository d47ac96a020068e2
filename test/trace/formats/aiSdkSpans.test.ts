import { describe, expect, it } from 'vitest';
import type { LlmStep } from '../../../src/trace/schema.js';
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
