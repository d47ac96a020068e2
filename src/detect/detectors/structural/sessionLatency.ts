/**
 * SESSION_LATENCY: the run's wall-clock duration (traceDurationMs: endedAt − startedAt, else the
 * span its steps cover) exceeds multiplier × the agent's P75 with a baseline, or `max_duration_ms`
 * before one exists. A run whose duration cannot be measured does not fire. The signal names the
 * (up to three) longest steps, where the time went.
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
  fmtMs,
  fmtMsBeside,
  stepNo,
  thresholdConfidence,
} from './shared.js';

export const sessionLatency = defineDetector({
  meta: {
    id: 'SESSION_LATENCY',
    configKey: 'session_latency',
    tier: 1,
    kind: 'structural',
    severity: 'medium',
    failureMode: 'latency',
    description: 'Total wall-clock run duration exceeds 3× P75 baseline or static fallback (>5 min)',
    fix: 'set a deadline for the whole run; parallelise independent tool calls and fix the slowest steps first',
    baseline: 'durationMs',
    rule: "The run's wall-clock duration exceeds `max_duration_ms`, or `baseline_multiplier` × the agent's P75 once a baseline exists. The signal names the longest steps; a run whose duration cannot be measured does not fire.",
    config: z.object({
      max_duration_ms: z
        .number()
        .positive()
        .default(300_000)
        .describe('Static fallback: wall-clock run duration (ms) that fires'),
      baseline_multiplier: baselineMultiplier(3),
    }),
  },
  detect(trace, ctx) {
    const { max_duration_ms, baseline_multiplier } = ctx.config;
    // traceDurationMs, measured once per trace with the other run-level values.
    const duration = measureTrace(trace).durationMs;
    if (duration === undefined) return [];
    const adaptive = adaptiveLimit(ctx, baseline_multiplier);
    const limit = adaptive ? adaptive.limit : max_duration_ms;
    if (!(duration > limit)) return [];
    const longest = trace.steps
      .flatMap((s, i) =>
        s.durationMs !== undefined && s.durationMs > 0 ? [{ no: stepNo(i), ms: s.durationMs }] : [],
      )
      .sort((a, b) => b.ms - a.ms || a.no - b.no)
      .slice(0, 3);
    const steps = longest.map((l) => l.no).sort((a, b) => a - b);
    const rule = adaptive
      ? describeAdaptive(adaptive, fmtMs)
      : `static fallback: > ${fmtMs(max_duration_ms)}`;
    return [
      {
        severity: 'medium',
        confidence: thresholdConfidence(duration / limit, adaptive ? CONFIDENCE.baseline : CONFIDENCE.static),
        steps,
        message:
          `run took ${fmtMsBeside(duration, limit)} (${rule})` +
          (longest.length > 0
            ? `; longest steps: ${longest.map((l) => `step ${l.no} (${fmtMs(l.ms)})`).join(', ')}`
            : ''),
        evidence: {
          durationMs: duration,
          longestSteps: longest,
          ...(adaptive ? adaptiveEvidence(adaptive) : { rule: 'static', limit: max_duration_ms }),
        },
      },
    ];
  },
});
