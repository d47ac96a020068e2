/**
 * COST_SPIKE: the run consumed far more tokens (input + output over all LLM calls, measureTrace's
 * totalTokens) than it should: above multiplier × the agent's P75 with a baseline, above
 * `max_tokens` before one exists. It names the LLM calls that consumed tokens. It carries no
 * wasteUsd/wasteTokens: which part of a spike is waste is the waste detectors' call, and charging
 * it here would count it twice.
 */
import { z } from 'zod';
import { defineDetector } from '../../detector.js';
import { measureTrace } from '../../../trace/measure.js';
import {
  adaptiveEvidence,
  adaptiveLimit,
  baselineMultiplier,
  CONFIDENCE,
  describeAdaptive,
  fmtInt,
  fmtTokens,
  plural,
  stepNo,
  stepSpan,
  thresholdConfidence,
} from './shared.js';

export const costSpike = defineDetector({
  meta: {
    id: 'COST_SPIKE',
    configKey: 'cost_spike',
    tier: 1,
    kind: 'structural',
    severity: 'medium',
    failureMode: 'cost',
    description: 'Total token consumption exceeds 3× P75 baseline or static fallback (>50,000 tokens)',
    fix: 'find the steps that used the tokens; cap max_tokens and trim context or tool output for this agent',
    baseline: 'totalTokens',
    rule: "The run's tokens (input + output over all LLM calls) exceed `max_tokens`, or `baseline_multiplier` × the agent's P75 once a baseline exists. It charges no waste: which part of a spike bought nothing is for the cost-waste detectors to say.",
    config: z.object({
      max_tokens: z
        .number()
        .positive()
        .default(50_000)
        .describe('Static fallback: total tokens of a run that fire'),
      baseline_multiplier: baselineMultiplier(3),
    }),
  },
  detect(trace, ctx) {
    const { max_tokens, baseline_multiplier } = ctx.config;
    const m = measureTrace(trace);
    const total = m.inputTokens + m.outputTokens;
    const adaptive = adaptiveLimit(ctx, baseline_multiplier);
    const limit = adaptive ? adaptive.limit : max_tokens;
    if (!(total > limit)) return [];
    const calls = trace.steps.flatMap((s, i) =>
      s.type === 'llm' && s.usage.inputTokens + s.usage.outputTokens > 0
        ? [{ no: stepNo(i), tokens: s.usage.inputTokens + s.usage.outputTokens }]
        : [],
    );
    const biggest = calls.reduce<(typeof calls)[number] | undefined>(
      (b, c) => (!b || c.tokens > b.tokens ? c : b),
      undefined,
    );
    const steps = calls.map((c) => c.no);
    const rule = adaptive
      ? describeAdaptive(adaptive, fmtTokens)
      : `static fallback: > ${fmtTokens(max_tokens)}`;
    return [
      {
        severity: 'medium',
        confidence: thresholdConfidence(total / limit, adaptive ? CONFIDENCE.baseline : CONFIDENCE.static),
        steps,
        message:
          `run used ${fmtTokens(total)} (${fmtInt(m.inputTokens)} in, ${fmtInt(m.outputTokens)} out) over ` +
          `${plural(m.llmCalls, 'LLM call')} (${rule})` +
          // With one call the largest is the only one, and the step span already names it.
          (biggest && calls.length > 1
            ? `; largest: step ${biggest.no} with ${fmtTokens(biggest.tokens)}`
            : '') +
          ` (${stepSpan(steps)})`,
        evidence: {
          totalTokens: total,
          inputTokens: m.inputTokens,
          outputTokens: m.outputTokens,
          llmCalls: m.llmCalls,
          largestStep: biggest?.no ?? null,
          ...(adaptive ? adaptiveEvidence(adaptive) : { rule: 'static', limit: max_tokens }),
        },
      },
    ];
  },
});
