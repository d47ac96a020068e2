/**
 * FALLBACK_FAILURE — an expensive model called with the same prompt right after a cheap model
 * already answered it (an unnecessary fallback).
 *
 * Two consecutive LLM calls (other step kinds in between are ignored) where the first runs on a
 * cheap model and did not fail, the second runs on an expensive model (tiers from the price table,
 * see src/pricing/modelTier.ts), the prompts are the same (trimmed), and the second starts at most
 * `time_window_seconds` after the first. Every such pair is reported.
 *
 * "Did not fail" follows the reference: only an explicit failure (`error`, or finish reason
 * `error`) makes the cheap call a failure. A cheap call that returned an empty answer without an
 * error is the doubtful case: the source tool's demo flags such pairs as unnecessary fallbacks, yet
 * EMPTY_LLM_RESPONSE calls the same empty answer a failure, which would justify the fallback. So
 * such a pair is still reported, with its waste, but at gray-zone confidence (0.5): it is escalated
 * to the tribunal or listed for review, and it counts toward totals and gates only once confirmed.
 * `empty_output_is_failure: true` drops these pairs altogether.
 *
 * Waste: the expensive fallback call, at its recorded cost, else tokens × price; tokens are its
 * prompt + completion. Severity: high when the waste exceeds `high_severity_waste_usd` ($0.01, the
 * reference's rule), else medium.
 */
import { z } from 'zod';
import { GRAY_ZONE_LOWER, GRAY_ZONE_UPPER } from '../../grayZone.js';
import { modelTierConfigShape, tierClassifier } from '../../../pricing/modelTier.js';
import { defineDetector } from '../../detector.js';
import { wastePriority } from '../../wastePriority.js';
import type { SignalDraft } from '../../detector.js';
import {
  callFailed,
  fmtSteps,
  fmtUsd,
  hasOutput,
  highSeverityWasteUsd,
  llmCalls,
  roundUsd,
  samePrompt,
  sumWaste,
  wasteSeverity,
} from './common.js';

export const fallbackFailure = defineDetector({
  meta: {
    id: 'FALLBACK_FAILURE',
    configKey: 'fallback_failure',
    tier: 1,
    kind: 'waste',
    severity: 'medium',
    failureMode: 'cost',
    description: 'An expensive model called with the same prompt right after a cheap model answered it.',
    fix: 'fall back to the expensive model only when the cheap answer fails a check, not after it succeeds',
    priority: wastePriority('FALLBACK_FAILURE'),
    wasteRule: 'the expensive fallback call; the cheap call that answered is not',
    suppressedBy: ['RETRY_LOOP', 'FALLBACK_STORM'],
    rule: 'Two consecutive LLM calls with the same prompt within `time_window_seconds`: the first on a cheap model that did not fail, the second on an expensive one. A model is expensive by its price (`expensive_min_usd_per_1m`) or by name (`expensive_models`, `cheap_models`). When the cheap answer was empty the pair is the gray zone (`empty_output_is_failure: true` drops it). High when the waste exceeds `high_severity_waste_usd`.',
    config: z.object({
      time_window_seconds: z
        .number()
        .nonnegative()
        .default(300)
        .describe('Max time between the cheap call and the expensive fallback'),
      empty_output_is_failure: z
        .boolean()
        .default(false)
        .describe('Treat a cheap call with an empty answer and no completion tokens as failed'),
      high_severity_waste_usd: highSeverityWasteUsd(0.01),
      ...modelTierConfigShape,
    }),
  },
  detect(trace, ctx) {
    // Middle of the gray zone: neither side of the contradiction above should decide alone.
    const DOUBTFUL_CONFIDENCE = (GRAY_ZONE_LOWER + GRAY_ZONE_UPPER) / 2;
    const cfg = ctx.config;
    const tierOf = tierClassifier(ctx.pricer, cfg);
    const calls = llmCalls(trace);
    const signals: SignalDraft[] = [];
    for (let i = 0; i + 1 < calls.length; i++) {
      const cheap = calls[i]!;
      const fallback = calls[i + 1]!;
      if (tierOf(cheap.step.model, cheap.step.provider).tier !== 'cheap') continue;
      if (tierOf(fallback.step.model, fallback.step.provider).tier !== 'expensive') continue;
      if (callFailed(cheap.step)) continue;
      if (cfg.empty_output_is_failure && !hasOutput(cheap.step)) continue;
      if (!samePrompt(cheap.step, fallback.step)) continue;
      const gapMs = Math.abs(fallback.t - cheap.t);
      if (gapMs > cfg.time_window_seconds * 1000) continue;

      const waste = sumWaste([fallback], ctx.pricer);
      const wasteUsd = roundUsd(waste.usd);
      const timed = cheap.timed && fallback.timed;
      const cheapEmpty = !hasOutput(cheap.step);
      const when = timed ? `${Number((gapMs / 1000).toFixed(1))} s after` : 'right after';
      const steps = [cheap.n, fallback.n];
      signals.push({
        severity: wasteSeverity(wasteUsd, cfg.high_severity_waste_usd),
        confidence: cheapEmpty ? DOUBTFUL_CONFIDENCE : timed ? 0.85 : 0.8,
        steps,
        message:
          `${fallback.step.model} called ${when} ${cheap.step.model} answered the same prompt ` +
          `(${fmtSteps(steps)}): unnecessary fallback, ${fmtUsd(wasteUsd)} wasted` +
          (cheapEmpty
            ? ` — but ${cheap.step.model}'s answer was empty, so the fallback may have been needed`
            : ''),
        evidence: {
          cheapModel: cheap.step.model,
          fallbackModel: fallback.step.model,
          gapMs: timed ? gapMs : null,
          cheapOutputEmpty: cheapEmpty,
          // Only the fallback is charged (suppression compares charged steps, see suppression.ts).
          wastedSteps: [fallback.n],
          costSources: waste.costSources,
        },
        wasteUsd,
        wasteTokens: waste.tokens,
      });
    }
    return signals;
  },
});
