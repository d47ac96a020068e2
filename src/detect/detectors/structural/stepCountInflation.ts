/**
 * STEP_COUNT_INFLATION: a run used more than multiplier × the agent's P75 step count (metric
 * stepCount). The reference gives this detector no static fallback (a "normal" step count depends
 * entirely on the agent), so without a baseline it does not fire. The signal names the steps past
 * the limit: the inflation itself.
 */
import { z } from 'zod';
import { defineDetector } from '../../detector.js';
import {
  adaptiveEvidence,
  adaptiveLimit,
  baselineMultiplier,
  describeAdaptive,
  fmtNum,
  fmtX,
  plural,
  stepSpan,
} from './shared.js';

export const stepCountInflation = defineDetector({
  meta: {
    id: 'STEP_COUNT_INFLATION',
    configKey: 'step_count_inflation',
    tier: 1,
    kind: 'structural',
    severity: 'medium',
    failureMode: 'inflation',
    description: 'Run used >2× P75 step count for this agent',
    fix: "set a max-steps limit near the agent's usual step count, and find the step where this run went in circles",
    baseline: 'stepCount',
    rule: "The run took more than `baseline_multiplier` × the agent's P75 step count. A normal step count depends entirely on the agent, so there is no static threshold: without a baseline it does not fire.",
    config: z.object({
      baseline_multiplier: baselineMultiplier(2),
    }),
  },
  detect(trace, ctx) {
    const adaptive = adaptiveLimit(ctx, ctx.config.baseline_multiplier);
    if (!adaptive) return [];
    const count = trace.steps.length;
    if (!(count > adaptive.limit)) return [];
    const firstExcess = Math.floor(adaptive.limit) + 1;
    const steps = Array.from({ length: count - firstExcess + 1 }, (_, k) => firstExcess + k);
    return [
      {
        severity: 'medium',
        confidence: count >= 2 * adaptive.limit ? 0.92 : 0.86,
        steps,
        message:
          `run took ${plural(count, 'step')}, ${fmtX(count / adaptive.p75)} this agent's usual ` +
          `(${describeAdaptive(adaptive, fmtNum)}); ${stepSpan(steps)} ${steps.length === 1 ? 'is' : 'are'} past the limit`,
        evidence: { stepCount: count, ...adaptiveEvidence(adaptive) },
      },
    ];
  },
});
