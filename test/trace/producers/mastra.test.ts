/**
 * Mastra's two OpenTelemetry outputs around one agent run (test/fixtures/generate/mastra-otel-*.mjs:
 * @mastra/core 1.71.0 with @mastra/otel-exporter 1.4.0 and @mastra/otel-bridge 1.5.4), each as
 * OTLP/JSON and as the OTLP/protobuf request body.
 *
 * The OtelExporter writes a chat span per call whose output holds only the call's text; the tool
 * calls it asked for are in model_chunk child spans. The OtelBridge writes one chat span for the
 * whole run, its usage the sum over the calls, and the calls themselves without token counts.
 */
import { describe, expect, it } from 'vitest';
import type { LlmStep, ToolStep } from '../../../src/trace/schema.js';
import { analyzeRun, expectLoopFlagged, expectRun } from '../../helpers/realLibraryRun.js';
import { readJson, readProtobuf } from './producerFixture.js';

const EXPORTER = 'otel/mastra-otel-exporter';
const BRIDGE = 'otel/mastra-otel-bridge';

describe("Mastra's OtelExporter", () => {
  it('reads the JSON file whole: each tool step linked to the call that issued it', async () => {
    const { trace, notes } = await readJson(`${EXPORTER}.json`);
    // The run's shape, tokens, tool results and failures, each tool's issuing call, no unread span.
    expectRun(trace);
    expect(trace.input).toBe('Where is my order A1, and what is the weather in Paris?');
    expect(notes).toEqual([]);
  });

  it('reads the protobuf body the same way', () => {
    expectRun(readProtobuf(`${EXPORTER}.pb`));
  });

  it('a call whose output was a tool call is no empty answer; the tool that failed is the first failure', async () => {
    const report = await analyzeRun(`${EXPORTER}.json`);
    // Read without its tool calls, call 1 was 'step 1 returned nothing'.
    expect(report.signals.filter((s) => s.message.includes('returned nothing'))).toEqual([]);
    expect(report.signals.filter((s) => s.detector === 'EMPTY_LLM_RESPONSE')).toEqual([]);
    expect(report.signals.filter((s) => s.detector === 'FIRST_STEP_FAILURE').map((s) => s.message)).toEqual([
      'step 2: tool lookup_order failed: order service timed out (the run later recovered and ended ok)',
    ]);
    await expectLoopFlagged(`${EXPORTER}.json`);
  });
});

describe("Mastra's OtelBridge", () => {
  it('reads the one chat span as one LLM step with the run’s totals, every tool step beside it', async () => {
    for (const trace of [(await readJson(`${BRIDGE}.json`)).trace, readProtobuf(`${BRIDGE}.pb`)]) {
      const llms = trace.steps.filter((s): s is LlmStep => s.type === 'llm');
      const tools = trace.steps.filter((s): s is ToolStep => s.type === 'tool');
      expect(llms).toHaveLength(1);
      // 110 + 120 + … + 160 in, 6 × 12 out.
      expect(llms[0]!.usage).toEqual({ inputTokens: 810, outputTokens: 72 });
      expect(tools.map((t) => `${t.name}:${t.status}`)).toEqual([
        'lookup_order:error',
        'lookup_order:ok',
        'get_weather:ok',
        'get_weather:ok',
        'get_weather:ok',
      ]);
      expect(trace.metadata?.unreadSpans).toBeUndefined();
    }
  });

  it('says in the report that per-call detail was not recorded', async () => {
    const { notes } = await readJson(`${BRIDGE}.json`);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(
      /mastra-otel-bridge\.json:\d+: .*Mastra's OtelBridge records the run's 6 calls as this one chat span \(its usage is their sum\): per-call detail .* was not recorded/,
    );
    const report = await analyzeRun(`${BRIDGE}.json`);
    expect(report.notes.some((n) => n.includes('per-call detail') && n.includes('was not recorded'))).toBe(
      true,
    );
  });
});
