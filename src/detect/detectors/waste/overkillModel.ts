/**
 * OVERKILL_MODEL — an expensive model used for a short, simple prompt a cheap model would handle.
 *
 * One LLM call at a time: the model is expensive (tiers from the price table, see
 * src/pricing/modelTier.ts), the call did not fail, and the prompt is short — fewer than
 * `max_prompt_tokens` prompt tokens and, when the prompt text is known, fewer than
 * `max_prompt_chars` characters: the reference's "Short prompts (<20 tokens)" and "Short text
 * (<150 characters)", both strict. Structured prompts are left alone, as in the reference: code
 * fences, more than 3 line breaks, or JSON task specs (`{"task":`, `"instructions":`,
 * `"context":`). Every such call is reported.
 *
 * Tokens: the recorded `usage`; a count the record lacks is estimated from its text like the
 * reference does for prompts ("Missing tokens - estimates from prompt length": 0.75 per word, at
 * least 1) — the prompt from the prompt text, the completion from the output text. A call whose
 * prompt size is unknown (no recorded tokens and no prompt text) is not judged: nothing says it is
 * short.
 *
 * Waste: what the call cost minus what the same tokens cost on `cheap_alternative_model` — by
 * default (`auto`) a current cheap model of the call's own provider from the price table (OpenAI's
 * for gpt-*, Anthropic's for claude-*, …; see CURRENT_CHEAP_MODELS and cheapAlternativeFor in
 * src/pricing/modelTier.ts), never a retired one like the reference's gpt-3.5-turbo; a model set
 * in config wins — the reference's
 * `expensive_cost - calculate_cost_with_cheaper_model(tokens)`. Both sides use the same token
 * counts: the alternative is priced from the estimate when one was made, and so is the call itself
 * unless its cost was recorded. Tokens are the call's prompt + completion (recorded or estimated).
 * A call that would cost no more on the alternative is not reported. Severity: medium; high
 * when the waste exceeds `high_severity_waste_usd`.
 */
import { z } from 'zod';
import {
  AUTO_CHEAP_ALTERNATIVE,
  cheapAlternativeCost,
  cheapAlternativeFor,
  modelTierConfigShape,
  tierClassifier,
} from '../../../pricing/modelTier.js';
import { defineDetector } from '../../detector.js';
import { wastePriority } from '../../wastePriority.js';
import type { SignalDraft } from '../../detector.js';
import type { Pricer, TokenUsage } from '../../../pricing/pricer.js';
import type { LlmStep } from '../../../trace/schema.js';
import { plural } from '../../../util/thousands.js';
import {
  type CallCost,
  callCost,
  clipPrompt,
  callFailed,
  hasOutput,
  promptKey,
  fmtSteps,
  fmtUsd,
  highSeverityWasteUsd,
  llmCalls,
  outputText,
  promptText,
  roundUsd,
  wasteSeverity,
} from './common.js';

/** The reference's token estimate for text: 0.75 per word, at least 1 (0 for no words). */
function estimateTokens(text: string | undefined): number {
  const words = (text ?? '').split(/\s+/).filter(Boolean).length;
  return words === 0 ? 0 : Math.max(1, Math.floor(words * 0.75));
}

/** Prompt token count: recorded, else estimated from the prompt text. */
export function promptTokens(
  step: LlmStep,
  text: string | undefined,
): { tokens: number; estimated: boolean } {
  if (step.usage.inputTokens > 0) return { tokens: step.usage.inputTokens, estimated: false };
  return { tokens: estimateTokens(text), estimated: true };
}

/** Completion token count: recorded, else estimated from the output text. */
function completionTokens(step: LlmStep): { tokens: number; estimated: boolean } {
  if (step.usage.outputTokens > 0) return { tokens: step.usage.outputTokens, estimated: false };
  return { tokens: estimateTokens(outputText(step)), estimated: true };
}

/**
 * The call's cost when some of its tokens were estimated: a recorded cost stands (it is what was
 * paid); a cost the loader priced from the incomplete usage is priced again from the estimate.
 */
function estimatedCost(step: LlmStep, usage: TokenUsage, pricer: Pricer): CallCost {
  if (step.costUsd !== undefined && (step.costSource === undefined || step.costSource === 'recorded'))
    return { usd: step.costUsd, source: 'recorded' };
  const priced = pricer.quote(step.model, usage, step.provider);
  return priced ? { usd: priced.usd, source: 'priced' } : callCost(step, pricer);
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
    fix: 'route short, simple prompts to a cheaper model, like the current one named in each message',
    priority: wastePriority('OVERKILL_MODEL'),
    wasteRule:
      'what the call cost above the same tokens on a cheap model, not the whole call; never a call another detector charges',
    // Not RETRY_LOOP: the reference's table makes overkill independent of retry loops; the calls
    // a loop charges are still not charged again (see src/detect/suppression.ts).
    suppressedBy: ['FALLBACK_STORM', 'FALLBACK_FAILURE'],
    rule: 'An LLM call on an expensive model with a short, plain prompt: fewer than `max_prompt_tokens` tokens and, when the text is known, fewer than `max_prompt_chars` characters; prompts with code, several lines or a JSON task spec are left alone. The waste is the price difference to `cheap_alternative_model` (`auto`: a current cheap model of the same provider, such as gpt-4.1-mini or claude-haiku-4-5). High when the waste exceeds `high_severity_waste_usd`.',
    config: z.object({
      max_prompt_tokens: z
        .number()
        .int()
        .nonnegative()
        .default(20)
        .describe('Prompts of fewer than this many tokens are short'),
      max_prompt_chars: z
        .number()
        .int()
        .positive()
        .default(150)
        .describe('…and of fewer than this many characters'),
      cheap_alternative_model: z
        .string()
        .min(1)
        .default(AUTO_CHEAP_ALTERNATIVE)
        .describe(
          "Model whose price for the same tokens is subtracted to get the waste; auto: a current cheap model of the call's provider",
        ),
      high_severity_waste_usd: highSeverityWasteUsd(0.1),
      ...modelTierConfigShape,
    }),
  },
  detect(trace, ctx) {
    const cfg = ctx.config;
    const tierOf = tierClassifier(ctx.pricer, cfg);
    const signals: SignalDraft[] = [];
    /** Prompts an earlier call failed on or answered with nothing. */
    const unanswered = new Set<string>();
    for (const call of llmCalls(trace)) {
      const { step } = call;
      // Prompt keys are built only for the few calls that need one: a failed call, and a short
      // prompt on an expensive model once some call has failed.
      if (callFailed(step) || (step.output !== undefined && !hasOutput(step))) {
        const key = promptKey(step);
        if (key !== undefined) unanswered.add(key);
        continue;
      }
      const tier = tierOf(step.model, step.provider);
      if (tier.tier !== 'expensive') continue;
      // A recorded prompt size at or over the limit decides without building the prompt text.
      if (step.usage.inputTokens >= cfg.max_prompt_tokens) continue;
      const text = promptText(step);
      const pt = promptTokens(step, text);
      if (pt.estimated && text === undefined) continue;
      if (pt.tokens >= cfg.max_prompt_tokens) continue;
      if (text !== undefined && (text.length >= cfg.max_prompt_chars || structured(text))) continue;
      // Sending a prompt that another call just failed on to a stronger model is the fallback doing
      // its job, however short the prompt: not overkill.
      if (unanswered.size > 0) {
        const key = promptKey(step);
        if (key !== undefined && unanswered.has(key)) continue;
      }

      // One set of token counts for both sides: an alternative priced from recorded zeros while the
      // call's cost is recorded would charge the whole call as waste.
      const ct = completionTokens(step);
      const estimated = pt.estimated || ct.estimated;
      const usage = estimated
        ? { ...step.usage, inputTokens: pt.tokens, outputTokens: ct.tokens }
        : step.usage;
      const cost = estimated ? estimatedCost(step, usage, ctx.pricer) : callCost(step, ctx.pricer);
      const altModel =
        cfg.cheap_alternative_model === AUTO_CHEAP_ALTERNATIVE
          ? cheapAlternativeFor(ctx.pricer, step.model, step.provider, cfg)
          : { model: cfg.cheap_alternative_model };
      if (altModel === undefined) continue;
      const alt = cheapAlternativeCost(ctx.pricer, altModel.model, usage, altModel.provider);
      if (alt === undefined) continue;
      const wasteUsd = roundUsd(cost.usd - alt);
      if (wasteUsd <= 0) continue;
      const ratio = alt > 0 ? cost.usd / alt : undefined;
      const size = `${pt.estimated ? '~' : ''}${plural(pt.tokens, 'token')}`;
      const what = text !== undefined ? `${size}, ${plural(text.length, 'character')}` : size;
      signals.push({
        severity: wasteSeverity(wasteUsd, cfg.high_severity_waste_usd),
        confidence: 0.8,
        steps: [call.n],
        message:
          `${step.model} used for a short prompt of ${what} (${fmtSteps([call.n])}): ${fmtUsd(cost.usd)} vs ${fmtUsd(alt)} on ` +
          `${altModel.model}${ratio !== undefined ? ` (${Number(ratio.toFixed(1))}×)` : ''}, ` +
          `${fmtUsd(wasteUsd)} wasted`,
        evidence: {
          model: step.model,
          promptTokens: pt.tokens,
          promptTokensEstimated: pt.estimated,
          completionTokens: ct.tokens,
          completionTokensEstimated: ct.estimated,
          promptChars: text?.length ?? null,
          cost: roundUsd(cost.usd),
          costSource: cost.source,
          alternativeModel: altModel.model,
          alternativeCost: roundUsd(alt),
          blendedUsdPer1M: tier.blendedUsdPer1M ?? null,
          prompt: text === undefined ? null : clipPrompt(text),
        },
        wasteUsd,
        wasteTokens: pt.tokens + ct.tokens,
      });
    }
    return signals;
  },
});
