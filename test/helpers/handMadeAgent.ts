/**
 * SCENARIO driven by a scripted loop that emits its own spans through the OpenTelemetry API, as
 * an agent without an instrumented framework would: in the OTel GenAI conventions
 * (`gen_ai.operation.name` invoke_agent / chat / execute_tool) or the OpenInference ones
 * (`openinference.span.kind` AGENT / LLM / TOOL, flattened `llm.output_messages.N.*`).
 * Token counts and turns match the real-library fixtures, so expectRun holds them to the same checks.
 */
import { SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { SCENARIO, makeToolBodies, type Turn } from '../fixtures/generate/scenario.mjs';

interface SpanStyle {
  agent: { name: string; attributes: Attributes };
  llm(turn: Turn, n: number): { name: string; attributes: Attributes };
  tool(turn: Turn & { tool: string }, n: number): { name: string; attributes: Attributes };
  toolResult(result: unknown): Attributes;
}

const usage = (n: number) => ({ input: 100 + n * 10, output: 12 });

export const GENAI: SpanStyle = {
  agent: {
    name: 'invoke_agent support-agent',
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'support-agent',
      'gen_ai.provider.name': 'mock-provider',
    },
  },
  llm(turn, n) {
    const parts =
      turn.tool !== undefined
        ? [{ type: 'tool_call', id: `call_${n}`, name: turn.tool, arguments: turn.args }]
        : [{ type: 'text', content: turn.text }];
    return {
      name: 'chat mock-model',
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'mock-provider',
        'gen_ai.request.model': 'mock-model',
        'gen_ai.usage.input_tokens': usage(n).input,
        'gen_ai.usage.output_tokens': usage(n).output,
        'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts }]),
      },
    };
  },
  tool(turn, n) {
    return {
      name: `execute_tool ${turn.tool}`,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': turn.tool,
        'gen_ai.tool.call.id': `call_${n}`,
        'gen_ai.tool.call.arguments': JSON.stringify(turn.args),
      },
    };
  },
  toolResult: (result) => ({ 'gen_ai.tool.call.result': JSON.stringify(result) }),
};

export const OPENINFERENCE: SpanStyle = {
  agent: { name: 'support-agent', attributes: { 'openinference.span.kind': 'AGENT' } },
  llm(turn, n) {
    const out = 'llm.output_messages.0.message';
    const message: Attributes =
      turn.tool !== undefined
        ? {
            [`${out}.role`]: 'assistant',
            [`${out}.tool_calls.0.tool_call.id`]: `call_${n}`,
            [`${out}.tool_calls.0.tool_call.function.name`]: turn.tool,
            [`${out}.tool_calls.0.tool_call.function.arguments`]: JSON.stringify(turn.args),
          }
        : { [`${out}.role`]: 'assistant', [`${out}.content`]: turn.text };
    return {
      name: 'ChatCompletion',
      attributes: {
        'openinference.span.kind': 'LLM',
        'llm.provider': 'mock-provider',
        'llm.model_name': 'mock-model',
        'llm.token_count.prompt': usage(n).input,
        'llm.token_count.completion': usage(n).output,
        ...message,
      },
    };
  },
  tool(turn, n) {
    return {
      name: turn.tool,
      attributes: {
        'openinference.span.kind': 'TOOL',
        'tool.name': turn.tool,
        'tool_call.id': `call_${n}`,
        'input.value': JSON.stringify(turn.args),
        'input.mime_type': 'application/json',
      },
    };
  },
  toolResult: (result) => ({
    'output.value': JSON.stringify(result),
    'output.mime_type': 'application/json',
  }),
};

/** Runs SCENARIO, each model turn and tool call in its own span under one agent span; returns the answer. */
export async function runHandMadeAgent(style: SpanStyle): Promise<string> {
  const tracer = trace.getTracer('hand-made-agent');
  const bodies = makeToolBodies();
  const inSpan = <T>(s: { name: string; attributes: Attributes }, fn: (span: Span) => Promise<T>) =>
    tracer.startActiveSpan(s.name, { attributes: s.attributes }, async (span) => {
      try {
        return await fn(span);
      } catch (err) {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
        throw err;
      } finally {
        span.end();
      }
    });
  return inSpan(style.agent, async () => {
    for (const [i, turn] of SCENARIO.turns.entries()) {
      const n = i + 1;
      // A model call: the scripted turn stands in for the provider's answer.
      await inSpan(style.llm(turn, n), async () => {});
      if (turn.tool === undefined) return turn.text;
      const call = turn as Turn & { tool: string };
      await inSpan(style.tool(call, n), async (span) => {
        const body = bodies[call.tool as keyof typeof bodies] as (args: unknown) => Promise<unknown>;
        span.setAttributes(style.toolResult(await body(call.args)));
      }).catch(() => {
        // The agent reads the failure and carries on, as the real-library runs do.
      });
    }
    throw new Error('no final answer');
  });
}
