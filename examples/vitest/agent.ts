/**
 * The agent under test: a small order-support agent on the Vercel AI SDK 5 (generateText, tools,
 * stepCountIs). Telemetry is on, so every run emits the `ai.*` OpenTelemetry spans that
 * captureTrace turns into a trace.
 *
 * The model is MockLanguageModelV2 from `ai/test`, scripted like a tool-using model would behave,
 * so the example runs offline and gives the same trace every time. In your project, pass a real
 * model instead (`openai('gpt-4o-mini')` from `@ai-sdk/openai`, …): nothing else changes.
 */
import { generateText, stepCountIs, tool, type LanguageModel } from 'ai';
import { MockLanguageModelV2 } from 'ai/test';
import { z } from 'zod';

export interface SupportAgentOptions {
  /** The model to run; default: the scripted offline model below. */
  model?: LanguageModel;
  /** How many times the carrier's tracking API fails before it answers (default 0). */
  carrierFailures?: number;
}

export interface SupportAgent {
  run(question: string): Promise<string>;
}

const SYSTEM = [
  'You are the order-support assistant of Northwind Outfitters.',
  'Look the order up before you answer, track the parcel when it has shipped, and answer in two sentences.',
  'Never promise a delivery date the carrier has not given.',
].join(' ');

const ORDERS: Record<string, { status: string; items: string[]; trackingNumber?: string }> = {
  '4412': {
    status: 'shipped',
    items: ['trail running shoes', 'merino socks'],
    trackingNumber: '1Z999AA10123456784',
  },
  '5120': { status: 'processing', items: ['rain jacket'] },
};

interface ToolResultPart {
  type: 'tool-result';
  toolName: string;
  output: { type: string; value: unknown };
}

/** Tool results the model has seen so far, oldest first. */
function toolResults(prompt: readonly { role: string; content: unknown }[]): ToolResultPart[] {
  return prompt
    .filter((m) => m.role === 'tool')
    .flatMap((m) => m.content as ToolResultPart[])
    .filter((p) => p.type === 'tool-result');
}

function textOf(prompt: readonly { role: string; content: unknown }[]): string {
  const user = prompt.find((m) => m.role === 'user');
  const parts = (user?.content ?? []) as { type: string; text?: string }[];
  return parts.map((p) => p.text ?? '').join(' ');
}

/**
 * What a tool-using model does with this prompt: look the order up, track a shipped parcel
 * (retrying a failed call, as models tend to, with the same arguments), then answer.
 */
function scriptedModel(): MockLanguageModelV2 {
  let calls = 0;
  return new MockLanguageModelV2({
    provider: 'openai.chat',
    modelId: 'gpt-4o-mini',
    doGenerate: async ({ prompt }) => {
      calls += 1;
      const usage = { inputTokens: 310 + calls * 95, outputTokens: 28, totalTokens: 338 + calls * 95 };
      const call = (toolName: string, input: unknown) => ({
        content: [
          { type: 'tool-call' as const, toolCallId: `call_${calls}`, toolName, input: JSON.stringify(input) },
        ],
        finishReason: 'tool-calls' as const,
        usage,
        warnings: [],
      });
      const answer = (text: string) => ({
        content: [{ type: 'text' as const, text }],
        finishReason: 'stop' as const,
        usage,
        warnings: [],
      });
      const results = toolResults(prompt);
      const orderId = /\b(\d{4})\b/.exec(textOf(prompt))?.[1];
      if (!orderId) return answer('Could you give me your four-digit order number? It is on your receipt.');
      const lookup = results.find((r) => r.toolName === 'lookup_order');
      if (!lookup) return call('lookup_order', { orderId });
      const order = lookup.output.value as { status?: string; trackingNumber?: string; error?: string };
      if (order.error) return answer(`I could not find order ${orderId}. Could you check the number?`);
      if (!order.trackingNumber)
        return answer(
          `Order ${orderId} is still being packed at our warehouse. You will get a tracking number by e-mail as soon as it ships.`,
        );
      const tracking = results.filter((r) => r.toolName === 'track_shipment');
      const last = tracking.at(-1);
      if (!last || (last.output.type.startsWith('error') && tracking.length < 4))
        return call('track_shipment', { trackingNumber: order.trackingNumber });
      if (last.output.type.startsWith('error'))
        return answer(
          `Order ${orderId} has shipped, but the carrier is not answering right now. Please try again later.`,
        );
      const parcel = last.output.value as { location: string; eta: string };
      return answer(
        `Order ${orderId} has shipped and is in ${parcel.location}. The carrier expects to deliver it on ${parcel.eta}.`,
      );
    },
  });
}

export function createSupportAgent(options: SupportAgentOptions = {}): SupportAgent {
  let carrierFailures = options.carrierFailures ?? 0;
  const tools = {
    lookup_order: tool({
      description: 'Look an order up by its four-digit number',
      inputSchema: z.object({ orderId: z.string() }),
      execute: async ({ orderId }) => {
        const order = ORDERS[orderId];
        return order ? { orderId, ...order } : { orderId, error: 'no such order' };
      },
    }),
    track_shipment: tool({
      description: "Where a parcel is, from the carrier's tracking API",
      inputSchema: z.object({ trackingNumber: z.string() }),
      execute: async ({ trackingNumber }) => {
        if (carrierFailures > 0) {
          carrierFailures -= 1;
          throw new Error('503 Service Unavailable: carrier tracking API');
        }
        return { trackingNumber, location: 'the Leipzig hub', eta: 'Thursday' };
      },
    }),
  };
  return {
    async run(question) {
      const result = await generateText({
        model: options.model ?? scriptedModel(),
        system: SYSTEM,
        prompt: question,
        tools,
        stopWhen: stepCountIs(8),
        experimental_telemetry: { isEnabled: true, functionId: 'order-support' },
      });
      return result.text;
    },
  };
}
