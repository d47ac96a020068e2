/**
 * TOKEN_BUDGET: hard token ceilings, per LLM call and per trace (detection-tiers.md, tier 1
 * "threshold checks"). Unlike COST_SPIKE, which compares with the agent's own baseline, these are
 * absolute budgets a team sets; the defaults are generous enough to flag only runaway calls.
 *
 * The overage is evidence (`overageTokens`), never `wasteTokens`: as with COST_BUDGET, going over a
 * budget does not say which tokens bought nothing, and the waste detectors charge those already.
 */
import { z } from 'zod';
import { defineDetector, type SignalDraft } from '../../detector.js';
import { fmtThousands, plural } from '../../../util/thousands.js';

/** 0.80 just over the budget, rising with the overshoot to 0.96 at twice the budget. */
export function overBudgetConfidence(value: number, budget: number): number {
  const over = Math.min(1, Math.max(0, value / budget - 1));
  return Math.round((0.8 + 0.16 * over) * 1000) / 1000;
}

const fmt = fmtThousands;

export const tokenBudget = defineDetector({
  meta: {
    id: 'TOKEN_BUDGET',
    configKey: 'token_budget',
    tier: 1,
    kind: 'structural',
    severity: 'medium',
    failureMode: 'budget',
    description: 'An LLM call, or the whole trace, used more tokens (input + output) than its budget',
    fix: 'cap max_tokens per call and trim prompts; raise the budget only if this size is expected',
    rule: "An LLM call used more than `max_tokens_per_call` tokens (input + output), or the whole run more than `max_tokens_per_trace`: absolute budgets, unlike `COST_SPIKE`'s comparison with the agent's usual. The overage is reported, not charged as waste.",
    config: z.object({
      max_tokens_per_call: z
        .number()
        .int()
        .positive()
        .default(100_000)
        .describe('Input + output tokens allowed for one LLM call'),
      max_tokens_per_trace: z
        .number()
        .int()
        .positive()
        .default(1_000_000)
        .describe('Input + output tokens allowed for all LLM calls of one trace'),
    }),
  },
  detect(trace, ctx) {
    const { max_tokens_per_call: perCall, max_tokens_per_trace: perTrace } = ctx.config;
    const signals: SignalDraft[] = [];
    let total = 0;
    let crossedAt: number | undefined;
    let calls = 0;
    trace.steps.forEach((s, i) => {
      if (s.type !== 'llm') return;
      calls++;
      const tokens = s.usage.inputTokens + s.usage.outputTokens;
      total += tokens;
      if (crossedAt === undefined && total > perTrace) crossedAt = i + 1;
      if (tokens > perCall) {
        signals.push({
          steps: [i + 1],
          confidence: overBudgetConfidence(tokens, perCall),
          message: `Step ${i + 1}: one LLM call (${s.model}) used ${fmt(tokens)} tokens, over the per-call budget of ${fmt(perCall)}.`,
          evidence: {
            model: s.model,
            inputTokens: s.usage.inputTokens,
            outputTokens: s.usage.outputTokens,
            tokens,
            budget: perCall,
            overageTokens: tokens - perCall,
            scope: 'call',
          },
        });
      }
    });
    if (crossedAt !== undefined) {
      signals.push({
        steps: [crossedAt],
        confidence: overBudgetConfidence(total, perTrace),
        message: `The trace used ${fmt(total)} tokens across ${plural(calls, 'LLM call')}, over the per-trace budget of ${fmt(perTrace)}; the budget ran out at step ${crossedAt}.`,
        evidence: {
          tokens: total,
          budget: perTrace,
          llmCalls: calls,
          crossedAtStep: crossedAt,
          overageTokens: total - perTrace,
          scope: 'trace',
        },
      });
    }
    return signals;
  },
});
