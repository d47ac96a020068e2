import { describe, expect, it } from 'vitest';
import type { LlmStep } from '../../../src/trace/schema.js';
import { expectLoopFlagged, expectRun, loadRun } from '../../helpers/realLibraryRun.js';

describe("Langfuse's OTel SDK (@langfuse/tracing + LangfuseSpanProcessor: langfuse.observation.* spans)", () => {
  const path = 'otel/langfuse-tracing.json';

  it('reads generations, tools (level ERROR is a failure) and the trace attributes', async () => {
    const loaded = await loadRun(path);
    expectRun(loaded);
    const { trace } = loaded;
    expect(loaded.source.format).toBe('otel');
    expect(trace.sessionId).toBe('session-1');
    expect(trace.agentVersion).toBe('1.2.0');
    expect(trace.metadata).toMatchObject({ userId: 'user-1', traceName: 'support-agent' });
    expect(trace.input).toBe('Where is my order A1, and what is the weather in Paris?');
    const first = trace.steps[0] as LlmStep;
    expect(first.model).toBe('gpt-4o-mini');
    // cost_details {input, output}: no total, so the sum of its parts, recorded.
    expect(first.costUsd).toBeCloseTo(110 * 1.5e-7 + 12 * 6e-7, 12);
    expect(first.costSource).toBe('recorded');
  });

  it('raises a loop signal', async () => {
    await expectLoopFlagged(path);
  });
});
