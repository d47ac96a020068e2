/**
 * OVERKILL_MODEL — an expensive model used for a short, simple prompt a cheap model would handle.
 *
 * One LLM call at a time: the model is expensive (tiers from the price table, see
 * src/pricing/modelTier.ts), the call did not fail, and the prompt is short — at most
 * `max_prompt_tokens` prompt tokens (the recorded `usage.inputTokens`; when none is recorded,
 * estimated as 0.75 × words like the reference) and, when the prompt text is known, fewer than
 * `max_prompt_chars` characters. Structured prompts are left alone, as in the reference: code
 * fences, more than 3 line breaks, or JSON task specs (`{"task":`, `"instructions":`,
 * `"context":`). Every such call is reported.
 *
 * Waste: what the call cost (recorded, else tokens × price) minus what the same prompt and
 * completion tokens cost on `cheap_alternative_model` (default gpt-3.5-turbo, priced from the
 * table; see DEFAULT_CHEAP_ALTERNATIVE_MODEL). Tokens are the call's prompt + completion.
 * A call that would cost no more on the alternative is not reported. Severity: medium; high
 * when the waste exceeds `high_severity_waste_usd`.
 */
import { z } from 'zod';
import {
  cheapAlternativeCost,
  DEFAULT_CHEAP_ALTERNATIVE_MODEL,
  modelTierConfigShape,
  tierClassifier,
} from '../../../pricing/modelTier.js';
import { defineDetector } from '../../detector.js';
import type { SignalDraft } from '../../detector.js';
import type { LlmStep } from '../../../trace/schema.js';
import {
  callCost,
  clipPrompt,
  callFailed,
  callTokens,
  fmtSteps,
  fmtUsd,
  highSeverityWasteUsd,
  llmCalls,
  promptText,
  roundUsd,
  wasteSeverity,
} from './common.js';

/** Prompt token count: recorded, else the reference's estimate (0.75 per word, at least 1). */
export function promptTokens(
  step: LlmStep,
  text: string | undefined,
): { tokens: number; estimated: boolean } {
  if (step.usage.inputTokens > 0) return { tokens: step.usage.inputTokens, estimated: false };
  const words = (text ?? '').split(/\s+/).filter(Boolean).length;
  return { tokens: words === 0 ? 0 : Math.max(1, Math.floor(words * 0.75)), estimated: true };
}

function structured(text: string): boolean {
  return (
    text.includes('```') ||
    (text.match(/\n/g)?.length ?? 0) > 3 ||
    /\{"task":|"context":|"instructions":/.test(text)
  );
}

export const overkillModel = defineDetector({
  meta: {
    id: 'OVERKILL_MODEL',
    configKey: 'overkill_model',
    tier: 1,
    kind: 'waste',
    severity: 'medium',
    failureMode: 'cost',
    description: 'An expensive model used for a short, simple prompt that a cheaper model would handle.',
    priority: 4,
    suppressedBy: ['RETRY_LOOP', 'FALLBACK_STORM', 'FALLBACK_FAILURE'],
    config: z.object({
      max_prompt_tokens: z
        .number()
        .int()
        .nonnegative()
        .default(20)
        .describe('Prompts of at most this many tokens are short'),
      max_prompt_chars: z
        .number()
        .int()
        .positive()
        .default(150)
        .describe('…and of fewer than this many characters'),
      cheap_alternative_model: z
        .string()
        .min(1)
        .default(DEFAULT_CHEAP_ALTERNATIVE_MODEL)
        .describe('Model whose price for the same tokens is subtracted to get the waste'),
      high_severity_waste_usd: highSeverityWasteUsd(0.1),
      ...modelTierConfigShape,
    }),
  },
  detect(trace, ctx) {
    const cfg = ctx.config;
    const tierOf = tierClassifier(ctx.pricer, cfg);
    const signals: SignalDraft[] = [];
    for (const call of llmCalls(trace)) {
      const { step } = call;
      const tier = tierOf(step.model, step.provider);
      if (tier.tier !== 'expensive') continue;
      if (callFailed(step)) continue;
      // A recorded prompt size over the limit decides without building the prompt text.
      if (step.usage.inputTokens > cfg.max_prompt_tokens) continue;
      const text = promptText(step);
      const pt = promptTokens(step, text);
      if (pt.tokens > cfg.max_prompt_tokens) continue;
      if (text !== undefined && (text.length >= cfg.max_prompt_chars || structured(text))) continue;

      const cost = callCost(step, ctx.pricer);
      const alt = cheapAlternativeCost(ctx.pricer, cfg.cheap_alternative_model, step.usage);
      if (alt === undefined) continue;
      const wasteUsd = roundUsd(cost.usd - alt);
      if (wasteUsd <= 0) continue;
      const ratio = alt > 0 ? cost.usd / alt : undefined;
      const what =
        text !== undefined ? `${pt.tokens}-token, ${text.length}-char prompt` : `${pt.tokens}-token prompt`;
      signals.push({
        severity: wasteSeverity(wasteUsd, cfg.high_severity_waste_usd),
        confidence: 0.8,
        steps: [call.n],
        message:
          `${step.model} used for a ${what} (${fmtSteps([call.n])}): ${fmtUsd(cost.usd)} vs ${fmtUsd(alt)} on ` +
          `${cfg.cheap_alternative_model}${ratio !== undefined ? ` (${Number(ratio.toFixed(1))}×)` : ''}, ` +
          `${fmtUsd(wasteUsd)} wasted`,
        evidence: {
          model: step.model,
          promptTokens: pt.tokens,
          promptTokensEstimated: pt.estimated,
          promptChars: text?.length ?? null,
          cost: roundUsd(cost.usd),
          costSource: cost.source,
          alternativeModel: cfg.cheap_alternative_model,
          alternativeCost: roundUsd(alt),
          blendedUsdPer1M: tier.blendedUsdPer1M ?? null,
          prompt: text === undefined ? null : clipPrompt(text),
        },
        wasteUsd,
        wasteTokens: callTokens(step),
      });
    }
    return signals;
  },
});
