/**
 * Plain measurements of a trace that several stages need (report totals, baselines, detectors).
 * One place, so a "step count" or a "duration" means the same thing everywhere.
 */
import type { LlmStep, Step, ToolStep, Trace } from './schema.js';

export const isLlm = (s: Step): s is LlmStep => s.type === 'llm';
export const isTool = (s: Step): s is ToolStep => s.type === 'tool';

export function parseTime(iso: string | undefined): number | undefined {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : undefined;
}

/** Wall-clock duration of the run: endedAt − startedAt, else the span covered by its steps. */
export function traceDurationMs(trace: Trace): number | undefined {
  const start = parseTime(trace.startedAt);
  const end = parseTime(trace.endedAt);
  if (start !== undefined && end !== undefined && end >= start) return end - start;
  let first: number | undefined;
  let last: number | undefined;
  for (const s of trace.steps) {
    const t = parseTime(s.startedAt);
    if (t === undefined) continue;
    const e = t + (s.durationMs ?? 0);
    if (first === undefined || t < first) first = t;
    if (last === undefined || e > last) last = e;
  }
  if (first === undefined || last === undefined) {
    const sum = trace.steps.reduce((acc, s) => acc + (s.durationMs ?? 0), 0);
    return sum > 0 ? sum : undefined;
  }
  return last - first;
}

export interface TraceMeasures {
  stepCount: number;
  llmCalls: number;
  toolCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** Largest prompt of any LLM call (context size). */
  maxPromptTokens: number;
  /**
   * LLM calls that do not directly answer new input: a call right after a message step (a user
   * turn in a chat, another agent's hand-off) is a conversational turn, not reasoning.
   */
  reasoningLlmCalls: number;
  /**
   * Reasoning LLM calls per tool call, tool count taken as max(1, n) so a run with no tools is not
   * infinite. Conversational turns are left out so a customer-service chat (assistant, user,
   * assistant, …) is not a reasoning stall.
   */
  llmToolRatio: number;
  /** Longest single step. */
  maxStepDurationMs: number | undefined;
  durationMs: number | undefined;
  costUsd: number;
}

export function measureTrace(trace: Trace): TraceMeasures {
  let llmCalls = 0;
  let toolCalls = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let maxPromptTokens = 0;
  let maxStep: number | undefined;
  let costUsd = 0;
  let reasoningLlmCalls = 0;
  let previous: Step['type'] | undefined;
  for (const s of trace.steps) {
    if (s.durationMs !== undefined && (maxStep === undefined || s.durationMs > maxStep))
      maxStep = s.durationMs;
    if (s.type === 'llm') {
      llmCalls++;
      if (previous !== 'message') reasoningLlmCalls++;
      inputTokens += s.usage.inputTokens;
      outputTokens += s.usage.outputTokens;
      if (s.usage.inputTokens > maxPromptTokens) maxPromptTokens = s.usage.inputTokens;
      costUsd += s.costUsd ?? 0;
    } else if (s.type === 'tool') {
      toolCalls++;
    }
    // State snapshots are bookkeeping, not input: they do not separate a call from what it answers.
    if (s.type !== 'state') previous = s.type;
  }
  return {
    stepCount: trace.steps.length,
    llmCalls,
    toolCalls,
    inputTokens,
    outputTokens,
    maxPromptTokens,
    reasoningLlmCalls,
    llmToolRatio: reasoningLlmCalls / Math.max(1, toolCalls),
    maxStepDurationMs: maxStep,
    durationMs: traceDurationMs(trace),
    costUsd,
  };
}
