/**
 * The normalised trace: the single source of truth for every importer, detector and report.
 * Types are inferred from these schemas; the published JSON Schema is generated from them.
 */
import { z } from 'zod';
import type { TraceOrder } from './order.js';
import { MAX_CALL_USD } from '../util/amounts.js';

export const TIMESTAMP = z.string().describe('ISO 8601 timestamp');

export const ChatMessageSchema = z
  .object({
    role: z.string(),
    name: z.string().optional(),
    content: z.unknown().optional(),
    toolCalls: z
      .array(z.object({ id: z.string().optional(), name: z.string(), arguments: z.unknown().optional() }))
      .optional(),
    toolCallId: z.string().optional(),
  })
  .describe('One chat message of an LLM prompt or completion');
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/**
 * A measurement (tokens, dollars, milliseconds): beyond 2^53 a number is no longer a count anyone
 * measured, and a handful of such values would sum to Infinity, which JSON cannot hold.
 */
const measured = () =>
  z.number().nonnegative().max(Number.MAX_SAFE_INTEGER, { error: 'over 2^53, not a plausible measurement' });

export const UsageSchema = z.object({
  inputTokens: measured().default(0).describe('Every input (prompt) token of the call, cached ones included'),
  outputTokens: measured().default(0),
  cachedInputTokens: measured()
    .optional()
    .describe('The part of inputTokens read from the prompt cache (priced at the cache-read rate)'),
  cacheWriteInputTokens: measured()
    .optional()
    .describe('The part of inputTokens written to the prompt cache (priced at the cache-write rate)'),
});
export type Usage = z.infer<typeof UsageSchema>;

/**
 * The agent of a multi-agent run that owns a step, as the recording names it (an OTel
 * `gen_ai.agent.name` on the step or the nearest agent span above it, a transcript message's
 * `name`, a multi-agent log's speaker). Failure attribution blames agents by it.
 */
const stepAgent = {
  agent: z
    .string()
    .min(1, { error: 'empty; name the agent that owns the step, or leave the field out' })
    .optional()
    .describe('The agent (of a multi-agent run) that owns this step, as the recording names it'),
};

const stepTiming = {
  startedAt: TIMESTAMP.optional(),
  durationMs: measured().optional(),
};

export const LlmStepSchema = z.object({
  type: z.literal('llm'),
  model: z.string().min(1, { error: 'empty; name the model the call ran on, or "unknown"' }),
  provider: z.string().optional(),
  /** Prompt text or chat messages. */
  input: z.union([z.string(), z.array(ChatMessageSchema)]).optional(),
  /** Completion text, or an assistant message (which may carry only tool calls). */
  output: z.union([z.string(), ChatMessageSchema]).optional(),
  finishReason: z.string().optional(),
  usage: UsageSchema.default({ inputTokens: 0, outputTokens: 0 }),
  costUsd: z
    .number()
    .nonnegative()
    .max(MAX_CALL_USD, { error: `over $${MAX_CALL_USD.toExponential()} for one call, not a plausible cost` })
    .optional(),
  /** Where costUsd came from: recorded in the trace, computed from the price table, or unknown. */
  costSource: z.enum(['recorded', 'price-table', 'config', 'unknown']).optional(),
  error: z.string().optional(),
  name: z.string().optional(),
  ...stepAgent,
  ...stepTiming,
});

/**
 * How a tool call ended: 'ok', 'error', or 'unknown' when the recording holds no result for a call
 * the model issued (a transcript cut short, a run stopped before the call ran). 'unknown' is not a
 * failure: detectors count only 'error' as failed, and a trajectory still counts the call.
 */
export const ToolStatusSchema = z.enum(['ok', 'error', 'unknown']);
export type ToolStatus = z.infer<typeof ToolStatusSchema>;

export const ToolStepSchema = z.object({
  type: z.literal('tool'),
  name: z.string(),
  args: z.unknown().optional(),
  result: z.unknown().optional(),
  status: ToolStatusSchema.default('ok'),
  error: z.string().optional(),
  callId: z.string().optional(),
  /**
   * The step number (from 1) of the `llm` step whose response issued this call. Calls with the
   * same `issuedBy` were issued together, in one model response (parallel tool calls): they are
   * one batch with no order among themselves. Absent when the recording does not say.
   */
  issuedBy: z
    .number()
    .int({ error: 'not a step number; give the number (from 1) of the llm step that issued the call' })
    .min(1, { error: 'not a step number; step numbers start at 1' })
    .optional()
    .describe('Step number (from 1) of the llm step whose response issued this tool call'),
  ...stepAgent,
  ...stepTiming,
});

export const RetrievalStepSchema = z.object({
  type: z.literal('retrieval'),
  query: z.string().optional(),
  results: z
    .array(
      z.object({ id: z.string().optional(), score: z.number().optional(), content: z.string().optional() }),
    )
    .default([]),
  ...stepTiming,
});

export const StateStepSchema = z.object({
  type: z.literal('state'),
  agentId: z.string(),
  state: z.record(z.string(), z.unknown()),
  ...stepTiming,
});

export const MessageStepSchema = z.object({
  type: z.literal('message'),
  from: z.string(),
  to: z.string().optional(),
  content: z.unknown(),
  ...stepAgent,
  ...stepTiming,
});

export const StepSchema = z.discriminatedUnion('type', [
  LlmStepSchema,
  ToolStepSchema,
  RetrievalStepSchema,
  StateStepSchema,
  MessageStepSchema,
]);
export type Step = z.infer<typeof StepSchema>;
export type LlmStep = z.infer<typeof LlmStepSchema>;
export type ToolStep = z.infer<typeof ToolStepSchema>;
export type RetrievalStep = z.infer<typeof RetrievalStepSchema>;
export type StateStep = z.infer<typeof StateStepSchema>;
export type MessageStep = z.infer<typeof MessageStepSchema>;

export const TraceStatusSchema = z.enum(['ok', 'error', 'running']);

/**
 * Whether the run did what it was asked, when the recording says so (τ-bench's reward, a native
 * `outcome`, an OTel root-span attribute, …). `source` names where it was read, e.g.
 * "tau-bench reward"; `score` keeps the recorded number when there is one.
 */
export const OutcomeSchema = z.object({
  success: z.boolean(),
  score: z.number().optional(),
  source: z.string(),
});
export type Outcome = z.infer<typeof OutcomeSchema>;

export const TraceSchema = z.object({
  id: z.string().min(1),
  sessionId: z.string().optional(),
  /**
   * The loader fills a missing agentId from `--agent` / `agent:` or the file's path (see
   * agentKey.ts), so that unrelated recordings never share a baseline; 'default' is only what a
   * direct TraceSchema.parse of an object without one gets.
   */
  agentId: z.string().default('default'),
  agentVersion: z.string().optional(),
  status: TraceStatusSchema.default('ok'),
  startedAt: TIMESTAMP.optional(),
  endedAt: TIMESTAMP.optional(),
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  /** Whether the run succeeded, when the recording says so. */
  outcome: OutcomeSchema.optional(),
  /**
   * The task the run attempted (a benchmark task, a dataset item, a test case): `tracejury diff`
   * compares base and head task by task when both name the same tasks. See taskKey.ts.
   */
  taskId: z
    .string()
    .min(1, { error: 'empty; name the task the run attempted, or leave taskId out' })
    .optional()
    .describe('The task the run attempted; tracejury diff pairs base and head runs by it'),
  /** Names of the tools the agent was offered. */
  availableTools: z.array(z.string()).optional(),
  steps: z.array(StepSchema).default([]),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
/** A normalised trace after parsing (defaults applied). */
export type Trace = z.infer<typeof TraceSchema>;
/** What an importer or a user may write: defaults not yet applied. */
export type TraceInput = z.input<typeof TraceSchema>;

/** Where a trace came from, kept beside it so reports can name the file. */
export interface TraceSource {
  file: string;
  format: string;
  /** First line of the file the trace was read from (1-based), when line-oriented. */
  line?: number;
  /** Its place in the run's canonical order (set by the loader). */
  order?: TraceOrder;
  /**
   * Where the trace's agentId came from: the recording itself, `--agent` / `agent:` (option), or
   * the file's path (file) when neither named one.
   */
  agentIdFrom?: AgentIdFrom;
}

export type AgentIdFrom = 'recorded' | 'option' | 'file';

export interface LoadedTrace {
  trace: Trace;
  source: TraceSource;
}

export function traceJsonSchema(): unknown {
  return z.toJSONSchema(TraceSchema, { io: 'input', unrepresentable: 'any' });
}
