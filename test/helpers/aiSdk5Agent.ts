/**
 * The support agent of test/fixtures/generate/ai-sdk-5.mjs, in process: AI SDK 5's generateText
 * driven by MockLanguageModelV2 through SCENARIO, with `experimental_telemetry` on. Each call
 * gets its own model and tool bodies, so agents run concurrently do not share turns.
 */
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV2 } from 'ai/test';
import { z } from 'zod';
import { SCENARIO, makeToolBodies } from '../fixtures/generate/scenario.mjs';

export interface SupportAgentOptions {
  functionId?: string;
  /** The model's final answer (default SCENARIO's). */
  answer?: string;
  /** Telemetry off: the agent emits no spans. */
  telemetry?: boolean;
}

export async function runSupportAgent(options: SupportAgentOptions = {}): Promise<string> {
  let turn = 0;
  const model = new MockLanguageModelV2({
    provider: 'mock-provider',
    modelId: 'mock-model-v2',
    doGenerate: async () => {
      const t = SCENARIO.turns[turn]!;
      turn += 1;
      const usage = { inputTokens: 100 + turn * 10, outputTokens: 12, totalTokens: 112 + turn * 10 };
      if (t.tool !== undefined) {
        return {
          content: [
            {
              type: 'tool-call',
              toolCallId: `call_${turn}`,
              toolName: t.tool,
              input: JSON.stringify(t.args),
            },
          ],
          finishReason: 'tool-calls',
          usage,
          warnings: [],
        };
      }
      return {
        content: [{ type: 'text', text: options.answer ?? t.text }],
        finishReason: 'stop',
        usage,
        warnings: [],
      };
    },
  });
  const bodies = makeToolBodies();
  const result = await generateText({
    model,
    prompt: SCENARIO.prompt,
    tools: {
      lookup_order: tool({
        description: 'Look an order up by id',
        inputSchema: z.object({ orderId: z.string() }),
        execute: bodies.lookup_order,
      }),
      get_weather: tool({
        description: 'Current weather for a city',
        inputSchema: z.object({ city: z.string() }),
        execute: bodies.get_weather,
      }),
    },
    stopWhen: stepCountIs(10),
    experimental_telemetry: {
      isEnabled: options.telemetry ?? true,
      functionId: options.functionId ?? 'support-agent',
    },
  });
  return result.text;
}
