/** Runs of a coding agent for the baseline tests: normal ones, and an outlier that does four times the work. */
import type { TraceInput } from '../../src/trace/schema.js';

const TOOLS = ['read', 'edit', 'grep', 'test', 'list'];

/**
 * One run: `calls` LLM calls whose prompt grows from 4k by 1k tokens a call, each followed by one
 * of five tools in turn (so no tool repeats enough to be a loop). A normal run (12 calls) uses
 * ~115k tokens and grows its prompt 3.75×: the static fallbacks (> 50k tokens, ≥ 3× growth) fire
 * on every one of them.
 */
export function codingRun(id: string, calls: number, fields: Partial<TraceInput> = {}): TraceInput {
  const steps: NonNullable<TraceInput['steps']> = [];
  for (let i = 0; i < calls; i++) {
    steps.push({
      type: 'llm',
      model: 'gpt-4o-mini',
      output: `step ${i}`,
      usage: { inputTokens: 4_000 + 1_000 * i, outputTokens: 100 },
    });
    steps.push({
      type: 'tool',
      name: TOOLS[i % TOOLS.length]!,
      args: { path: `file${i}.py` },
      result: `line ${i}`,
    });
  }
  return { id, agentId: 'coder', status: 'ok', steps, ...fields };
}

export const normalRuns = (n: number, prefix = 'ok') =>
  Array.from({ length: n }, (_, i) => codingRun(`${prefix}-${i}`, 12));

/** Four times the usual work: 48 calls, prompts up to 51k tokens. */
export const outlierRun = () => codingRun('outlier', 48);
