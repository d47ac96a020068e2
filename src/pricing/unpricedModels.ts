/**
 * The models of a priced trace whose calls have no cost (neither recorded nor in the price table),
 * with how many calls each: what a run's `totals.unknownModels` counts, taken from one trace so a
 * Vitest run (whose traces are priced in its workers) can report them too. Pure.
 */
import type { LlmStep, Step, Trace } from '../trace/schema.js';
import { dict } from '../util/dict.js';

/** An LLM call that has no cost after pricing: the one definition a summary's count and this share. */
export function isUnpricedCall(step: Step): step is LlmStep {
  return step.type === 'llm' && step.costUsd === undefined;
}

/**
 * An LLM call whose cost is unknown although it was priced: it carries no recorded cost and no
 * token counts (a transcript that logged the messages but not the usage), so the price table made
 * it $0. Its cost is not zero, it was not measured: reports say so instead of "$0.00".
 */
export function isUnmeasuredCall(step: Step): step is LlmStep {
  return (
    step.type === 'llm' &&
    step.costUsd !== undefined &&
    step.costSource !== 'recorded' &&
    step.usage.inputTokens === 0 &&
    step.usage.outputTokens === 0
  );
}

export function unpricedModelsOf(trace: Trace): Record<string, number> {
  const out = dict<number>();
  for (const step of trace.steps) if (isUnpricedCall(step)) out[step.model] = (out[step.model] ?? 0) + 1;
  return out;
}
