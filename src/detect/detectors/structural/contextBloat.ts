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
  fmtInt,
  fmtX,
  stepNo,
  thresholdConfidence,
} from './shared.js';

const tokens = (n: number) => `${fmtInt(n)} tokens`;

export const contextBloat = defineDetector({
  meta: {
    id: 'CONTEXT_BLOAT',
    configKey: 'context_bloat',
    tier: 1,
    kind: 'structural',
    severity: 'medium',
    failureMode: 'context',
    description: 'Prompt tokens grow beyond 2× P75 baseline or static fallback (3× from first to last call)',
    baseline: 'maxPromptTokens',
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
    const calls: { step: LlmStep; no: number }[] = [];
    trace.steps.forEach((s, i) => {
      if (isLlm(s)) calls.push({ step: s, no: stepNo(i) });
    });
    if (calls.length < min_llm_calls) return [];
    const last = calls[calls.length - 1]!;
    const lastTokens = last.step.usage.inputTokens;
    if (lastTokens < min_prompt_tokens) return [];

    const adaptive = adaptiveLimit(ctx, baseline_multiplier);
    if (adaptive) {
      const max = measureTrace(trace).maxPromptTokens;
      if (!(max > adaptive.limit)) return [];
      const at = calls.find((c) => c.step.usage.inputTokens === max)!;
      return [
        {
          severity: 'medium',
          confidence: thresholdConfidence(max / adaptive.limit, CONFIDENCE.baseline),
          steps: [at.no],
          message:
            `largest prompt reached ${tokens(max)} at step ${at.no}, ${fmtX(max / adaptive.p75)} this agent's usual ` +
            `(${describeAdaptive(adaptive, tokens)})`,
          evidence: { maxPromptTokens: max, ...adaptiveEvidence(adaptive) },
        },
      ];
    }

    const first = calls.find((c) => c.step.usage.inputTokens > 0);
    if (!first || first === last) return [];
    const firstTokens = first.step.usage.inputTokens;
    const growth = lastTokens / firstTokens;
    if (growth < growth_factor) return [];
    return [
      {
        severity: 'medium',
        confidence: thresholdConfidence(growth / growth_factor, CONFIDENCE.static, 0.9),
        steps: [first.no, last.no],
        message:
          `prompt grew ${fmtX(growth)} from ${tokens(firstTokens)} (step ${first.no}) to ${tokens(lastTokens)} ` +
          `(step ${last.no}) over ${calls.length} LLM calls (static fallback: ≥ ${fmtX(growth_factor)} growth)`,
        evidence: {
          rule: 'static',
          firstPromptTokens: firstTokens,
          lastPromptTokens: lastTokens,
          growth,
          growthFactor: growth_factor,
          llmCalls: calls.length,
        },
      },
    ];
  },
});
