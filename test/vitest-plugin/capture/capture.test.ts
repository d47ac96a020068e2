/**
 * captureTrace with spans made live in this process: AI SDK 5's telemetry, hand-made OTel GenAI
 * and OpenInference spans, each held to the checks of the real-library file fixtures (expectRun).
 * No tracer provider is registered here, so captureTrace registers its own.
 */
import { ROOT_CONTEXT, SpanStatusCode, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import type { LlmStep, ToolStep } from '../../../src/trace/schema.js';
import {
  captureTrace,
  captureTraceWithResult,
  resetCapture,
  type CaptureFailure,
} from '../../../vitest-plugin/capture/capture.js';
import { retained } from '../../../vitest-plugin/capture/spanProcessor.js';
import { runSupportAgent } from '../../helpers/aiSdk5Agent.js';
import { GENAI, OPENINFERENCE, runHandMadeAgent } from '../../helpers/handMadeAgent.js';
import { EXPECTED_SHAPE, expectRun, shape } from '../../helpers/realLibraryRun.js';

const FINAL = 'Order A1 ships tomorrow; it is 18°C and sunny in Paris.';
const finalAnswer = (t: { steps: { type: string }[] }) => {
  const last = (t.steps.at(-1) as LlmStep).output;
  return typeof last === 'string' ? last : last?.content;
};

afterEach(() => resetCapture());

describe('captureTrace reads spans made live', () => {
  it('AI SDK 5 experimental_telemetry: the ai.* spans of generateText', async () => {
    const { result, trace } = await captureTraceWithResult(() => runSupportAgent());
    expect(result).toBe(FINAL);
    expectRun(trace);
    const llms = trace.steps.filter((s): s is LlmStep => s.type === 'llm');
    expect(new Set(llms.map((s) => `${s.provider}/${s.model}`))).toEqual(
      new Set(['mock-provider/mock-model-v2']),
    );
    const tools = trace.steps.filter((s): s is ToolStep => s.type === 'tool');
    expect(tools.map((t) => t.callId)).toEqual(['call_1', 'call_2', 'call_3', 'call_4', 'call_5']);
    expect(trace.metadata?.rootSpan).toBe('ai.generateText');
    // The agent's question and answer, from the spans.
    expect(trace.input).toBe('Where is my order A1, and what is the weather in Paris?');
    expect(trace.output).toBe(FINAL);
    expect(trace.availableTools).toEqual(['lookup_order', 'get_weather']);
    // The capture is released once read: nothing is retained between calls.
    expect(retained()).toEqual({ captures: 0, spans: 0 });
  });

  it('hand-made OpenTelemetry GenAI spans (invoke_agent, chat, execute_tool)', async () => {
    const trace = await captureTrace(() => runHandMadeAgent(GENAI));
    expectRun(trace);
    expect(trace.metadata?.rootSpan).toBe('invoke_agent support-agent');
  });

  it('OpenInference-layout spans (hand-made AGENT, LLM and TOOL spans)', async () => {
    const trace = await captureTrace(() => runHandMadeAgent(OPENINFERENCE));
    expectRun(trace);
    expect(trace.metadata?.rootSpan).toBe('support-agent');
  });

  it('agentId and name options', async () => {
    const trace = await captureTrace(() => runSupportAgent(), { agentId: 'checkout-bot' });
    expect(trace.agentId).toBe('checkout-bot');
    expect(shape(trace)).toEqual(EXPECTED_SHAPE);
  });

  it('several root traces started in one call read as one trace', async () => {
    const trace = await captureTrace(async () => {
      await runSupportAgent();
      await runSupportAgent({ answer: 'second run' });
    });
    expect(shape(trace)).toEqual([...EXPECTED_SHAPE, ...EXPECTED_SHAPE]);
    expect(finalAnswer(trace)).toBe('second run');
  });
});

describe('captureTrace keeps captures apart', () => {
  it('two agents run concurrently get disjoint traces', async () => {
    const [a, b, c] = await Promise.all([
      captureTrace(() => runSupportAgent({ functionId: 'agent-a', answer: 'from a' })),
      captureTrace(() => runSupportAgent({ functionId: 'agent-b', answer: 'from b' })),
      captureTrace(() => runHandMadeAgent(GENAI)),
    ]);
    expect([a.agentId, b.agentId, c.agentId]).toEqual(['agent-a', 'agent-b', 'support-agent']);
    for (const t of [a, b, c]) expect(shape(t)).toEqual(EXPECTED_SHAPE);
    expect([finalAnswer(a), finalAnswer(b), finalAnswer(c)]).toEqual(['from a', 'from b', FINAL]);
    expect(new Set([a.id, b.id, c.id]).size).toBe(3);
  });

  it('spans made outside any capture are neither captured nor retained', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const capturing = captureTrace(async () => {
      await gate;
      await runHandMadeAgent(GENAI);
    });
    // While the capture waits, an agent runs outside it: its spans must not join the capture.
    await runSupportAgent({ functionId: 'outside' });
    expect(retained()).toEqual({ captures: 1, spans: 0 });
    release();
    const trace = await capturing;
    expect(trace.agentId).toBe('support-agent');
    expect(shape(trace)).toEqual(EXPECTED_SHAPE);
    await runSupportAgent({ functionId: 'outside' });
    expect(retained()).toEqual({ captures: 0, spans: 0 });
  });

  it('a span whose context lost the capture is found by its parent span', async () => {
    const tracer = trace.getTracer('detached');
    const t = await captureTrace(() =>
      tracer.startActiveSpan(
        'invoke_agent detached',
        { attributes: { 'gen_ai.operation.name': 'invoke_agent' } },
        (root) => {
          // As an instrumentation that rebuilds its parent context from a bare span context does.
          const bare = trace.setSpanContext(ROOT_CONTEXT, root.spanContext());
          tracer
            .startSpan(
              'execute_tool lookup',
              { attributes: { 'gen_ai.operation.name': 'execute_tool' } },
              bare,
            )
            .end();
          root.end();
        },
      ),
    );
    expect(shape(t)).toEqual(['tool:lookup:ok']);
  });

  it('a nested capture takes the spans made inside it', async () => {
    let inner: Awaited<ReturnType<typeof captureTrace>> | undefined;
    const outer = await captureTrace(async () => {
      await runHandMadeAgent(GENAI);
      inner = await captureTrace(() => runSupportAgent({ functionId: 'inner' }));
    });
    expect(outer.agentId).toBe('support-agent');
    expect(shape(outer)).toEqual(EXPECTED_SHAPE);
    expect(inner?.agentId).toBe('inner');
    expect(shape(inner!)).toEqual(EXPECTED_SHAPE);
  });

  it('waits for spans that end after fn resolves, up to settleMs', async () => {
    const tracer = trace.getTracer('late');
    const startLate = (delayMs: number) => () => {
      // The agent span ends after fn has returned, as a stream finishing in the background does.
      const span = tracer.startSpan('invoke_agent late', {
        attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'late' },
      });
      setTimeout(() => span.end(), delayMs);
    };
    const settled = await captureTrace(startLate(20));
    expect(settled.agentId).toBe('late');
    expect(settled.status).toBe('ok');
    await expect(captureTrace(startLate(50), { settleMs: 5 })).rejects.toThrow(
      /1 spans started during the call but none ended within settleMs \(5 ms\)/,
    );
  });

  it('notes spans still open after settleMs', async () => {
    const tracer = trace.getTracer('late');
    const t = await captureTrace(
      () =>
        tracer.startActiveSpan(
          'invoke_agent a',
          { attributes: { 'gen_ai.operation.name': 'invoke_agent' } },
          (s) => {
            tracer.startSpan('never ends');
            s.end();
          },
        ),
      { settleMs: 5 },
    );
    expect(t.metadata?.unendedSpans).toBe(1);
  });
});

describe('captureTrace failures', () => {
  it('no spans: names the known causes, each with its fix', async () => {
    const failure = await captureTrace(() => runSupportAgent({ telemetry: false })).catch((e: Error) => e);
    expect(failure).toBeInstanceOf(Error);
    const message = (failure as Error).message;
    expect(message).toMatch(/^captureTrace: no spans were captured during the call\./);
    expect(message).toContain('AI SDK 5: experimental_telemetry: { isEnabled: true }');
    expect(message).toContain('manuallyInstrument(module)');
    expect(message).toContain('tracejuryProcessor()');
    // No Agents SDK in this process: its cause is not claimed.
    expect(message).not.toContain('OpenAI Agents SDK');
  });

  it('fn throws: its own error is rethrown, with the partial trace as error.trace', async () => {
    const boom = new Error('the agent gave up');
    const err = (await captureTrace(async () => {
      await runHandMadeAgent(GENAI);
      throw boom;
    }).catch((e: unknown) => e)) as CaptureFailure;
    expect(err).toBe(boom);
    expect(shape(err.trace!)).toEqual(EXPECTED_SHAPE);
    expect(retained()).toEqual({ captures: 0, spans: 0 });
  });

  it('fn throws inside an agent span: the trace records the failure', async () => {
    const tracer = trace.getTracer('failing');
    const err = (await captureTrace(() =>
      tracer.startActiveSpan(
        'invoke_agent failing',
        { attributes: { 'gen_ai.operation.name': 'invoke_agent' } },
        (s) => {
          s.setStatus({ code: SpanStatusCode.ERROR, message: 'model refused' });
          s.end();
          throw new Error('model refused');
        },
      ),
    ).catch((e: unknown) => e)) as CaptureFailure;
    expect(err.message).toBe('model refused');
    expect(err.trace?.status).toBe('error');
  });

  it('fn throws before any span: rethrown without a trace', async () => {
    const err = (await captureTrace(() => {
      throw new Error('bad setup');
    }).catch((e: unknown) => e)) as CaptureFailure;
    expect(err.message).toBe('bad setup');
    expect(err.trace).toBeUndefined();
  });
});
