/**
 * CONTEXT_BLOAT: the prompt keeps growing over a run. Applies only to runs with at least
 * `min_llm_calls` LLM calls whose last call's prompt has at least `min_prompt_tokens` tokens (small
 * prompts that triple are not a problem). With a baseline (metric maxPromptTokens) it fires when the
 * run's largest prompt exceeds multiplier × P75; before that the static fallback fires when the last
 * prompt is at least `growth_factor` × the first (first = the first call with recorded prompt tokens).
 */
import { z } from 'zod';
import { defineDetector } from '../../detector.js';
import { isLlm, measureTrace } from '../../../trace/measure.js';
import type { LlmStep } from '../../../trace/schema.js';
import {
  adaptiveEvidence,
  adaptiveLimit,
  baselineMultiplier,
  CONFIDENCE,
  describeAdaptive,
  fmtTokens,
  fmtX,
  plural,
  stepNo,
  thresholdConfidence,
} from './shared.js';

export const contextBloat = defineDetector({
  meta: {
    id: 'CONTEXT_BLOAT',
    configKey: 'context_bloat',
    tier: 1,
    kind: 'structural',
    severity: 'medium',
    failureMode: 'context',
    description: 'Prompt tokens grow beyond 2× P75 baseline or static fallback (3× from first to last call)',
    fix: 'trim the prompt each turn: summarise old messages and tool results instead of appending everything',
    baseline: 'maxPromptTokens',
    rule: "The prompt keeps growing: the last LLM call's prompt is `growth_factor` × the first's, or, once a baseline exists, the run's largest prompt is above `baseline_multiplier` × the agent's P75. Only runs of at least `min_llm_calls` calls whose last prompt has `min_prompt_tokens` tokens count: a small prompt that triples is no problem.",
    config: z.object({
      growth_factor: z
        .number()
        .min(1)
        .default(3)
        .describe('Static fallback: last/first prompt-token ratio that fires'),
      min_llm_calls: z
        .number()
        .int()
        .min(2)
        .default(3)
        .describe('LLM calls a run needs before this detector applies'),
      min_prompt_tokens: z
        .number()
        .nonnegative()
        .default(2_000)
        .describe('Prompt tokens the last LLM call needs before this detector applies'),
      baseline_multiplier: baselineMultiplier(2),
    }),
  },
  detect(trace, ctx) {
    const { growth_factor, min_llm_calls, min_prompt_tokens, baseline_multiplier } = ctx.config;
    // One pass without allocating: the count, the last call, and the first with prompt tokens.
    let count = 0;
    let lastIndex = -1;
    let firstIndex = -1;
    const all = trace.steps;
    for (let i = 0; i < all.length; i++) {
      const s = all[i]!;
      if (s.type !== 'llm') continue;
      count++;
      lastIndex = i;
      if (firstIndex < 0 && s.usage.inputTokens > 0) firstIndex = i;
    }
    if (count < min_llm_calls) return [];
    const last = { step: all[lastIndex] as LlmStep, no: stepNo(lastIndex) };
    const lastTokens = last.step.usage.inputTokens;
    if (lastTokens < min_prompt_tokens) return [];

    const adaptive = adaptiveLimit(ctx, baseline_multiplier);
    if (adaptive) {
      const max = measureTrace(trace).maxPromptTokens;
      if (!(max > adaptive.limit)) return [];
      const atIndex = all.findIndex((s) => isLlm(s) && s.usage.inputTokens === max);
      const at = { step: all[atIndex] as LlmStep, no: stepNo(atIndex) };
      return [
        {
          severity: 'medium',
          confidence: thresholdConfidence(max / adaptive.limit, CONFIDENCE.baseline),
          steps: [at.no],
          message:
            `largest prompt reached ${fmtTokens(max)} at step ${at.no}, ${fmtX(max / adaptive.p75)} this agent's usual ` +
            `(${describeAdaptive(adaptive, fmtTokens)})`,
          evidence: { maxPromptTokens: max, ...adaptiveEvidence(adaptive) },
        },
      ];
    }

    if (firstIndex < 0 || firstIndex === lastIndex) return [];
    const first = { step: all[firstIndex] as LlmStep, no: stepNo(firstIndex) };
    const firstTokens = first.step.usage.inputTokens;
    const growth = lastTokens / firstTokens;
    if (growth < growth_factor) return [];
    return [
      {
        severity: 'medium',
        confidence: thresholdConfidence(growth / growth_factor, CONFIDENCE.static, 0.9),
        steps: [first.no, last.no],
        message:
          `prompt grew ${fmtX(growth)} from ${fmtTokens(firstTokens)} (step ${first.no}) to ${fmtTokens(lastTokens)} ` +
          `(step ${last.no}) over ${plural(count, 'LLM call')} (static fallback: ≥ ${fmtX(growth_factor)} growth)`,
        evidence: {
          rule: 'static',
          firstPromptTokens: firstTokens,
          lastPromptTokens: lastTokens,
          growth,
          growthFactor: growth_factor,
          llmCalls: count,
        },
      },
    ];
  },
});
