/** Small builders so fixtures read like the traces they describe. */
import { TraceSchema, type Trace, type TraceInput } from '../../src/trace/schema.js';

type StepInput = NonNullable<TraceInput['steps']>[number];

export function makeTrace(steps: StepInput[], fields: Partial<Omit<TraceInput, 'steps'>> = {}): Trace {
  return TraceSchema.parse({ id: fields.id ?? 't1', ...fields, steps });
}

export const llm = (fields: Partial<Extract<StepInput, { type: 'llm' }>> = {}): StepInput => ({
  type: 'llm',
  model: 'gpt-4o-mini',
  output: 'ok',
  finishReason: 'stop',
  usage: { inputTokens: 100, outputTokens: 20 },
  ...fields,
});

export const tool = (
  name: string,
  fields: Partial<Extract<StepInput, { type: 'tool' }>> = {},
): StepInput => ({
  type: 'tool',
  name,
  status: 'ok',
  ...fields,
});

export const retrieval = (fields: Partial<Extract<StepInput, { type: 'retrieval' }>> = {}): StepInput => ({
  type: 'retrieval',
  results: [],
  ...fields,
});

export const state = (s: Record<string, unknown>, agentId = 'agent'): StepInput => ({
  type: 'state',
  agentId,
  state: s,
});

export const message = (from: string, content: unknown, to?: string): StepInput => ({
  type: 'message',
  from,
  content,
  ...(to ? { to } : {}),
});
