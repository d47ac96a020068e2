/**
 * SLOW_STEP: one step took far longer than it should. With a baseline (P75 of the agent's longest
 * step per run, metric maxStepDurationMs) a step fires above multiplier × P75; before a baseline
 * exists the static fallback applies: tool (and retrieval) steps over `tool_ms`, LLM steps over
 * `llm_ms`. Only LLM, tool and retrieval steps are timed work; state and message steps are ignored.
 * Severity is medium, high when the step took more than `high_factor` × its limit.
 */
import { z } from 'zod';
import { defineDetector, type SignalDraft } from '../../detector.js';
import type { Step } from '../../../trace/schema.js';
import {
  adaptiveEvidence,
  adaptiveLimit,
  baselineMultiplier,
  CONFIDENCE,
  describeAdaptive,
  fmtMs,
  fmtMsBeside,
  fmtX,
  stepNo,
} from './shared.js';

const label = (s: Step): string =>
  s.type === 'llm'
    ? `LLM call ${s.name ?? s.model}`
    : s.type === 'tool'
      ? `tool ${s.name}`
      : s.type === 'retrieval'
        ? 'retrieval'
        : s.type;

export const slowStep = defineDetector({
  meta: {
    id: 'SLOW_STEP',
    configKey: 'slow_step',
    tier: 1,
    kind: 'structural',
    severity: 'medium',
    failureMode: 'latency',
    description: 'Step duration exceeds 2× P75 baseline or static fallback (tool >15s, LLM >30s)',
    fix: 'put a timeout on the slow step; cache or parallelise slow tools, use a faster model for slow LLM calls',
    baseline: 'maxStepDurationMs',
    rule: "An LLM, tool or retrieval step took longer than its limit: `tool_ms` for tool and retrieval steps, `llm_ms` for LLM calls, or `baseline_multiplier` × the agent's P75 once a baseline exists. High at `high_factor` × the limit or more.",
    config: z.object({
      tool_ms: z
        .number()
        .positive()
        .default(15_000)
        .describe('Static fallback: a tool or retrieval step slower than this fires'),
      llm_ms: z
        .number()
        .positive()
        .default(30_000)
        .describe('Static fallback: an LLM step slower than this fires'),
      baseline_multiplier: baselineMultiplier(2),
      high_factor: z
        .number()
        .min(1)
        .default(2)
        .describe('Severity high when a step takes more than this × its limit'),
    }),
  },
  detect(trace, ctx) {
    const { tool_ms, llm_ms, baseline_multiplier, high_factor } = ctx.config;
    const adaptive = adaptiveLimit(ctx, baseline_multiplier);
    const out: SignalDraft[] = [];
    for (let i = 0; i < trace.steps.length; i++) {
      const s = trace.steps[i]!;
      if (s.durationMs === undefined) continue;
      if (s.type !== 'llm' && s.type !== 'tool' && s.type !== 'retrieval') continue;
      const limit = adaptive ? adaptive.limit : s.type === 'llm' ? llm_ms : tool_ms;
      if (!(s.durationMs > limit)) continue;
      const ratio = s.durationMs / limit;
      const high = ratio > high_factor;
      const no = stepNo(i);
      const rule = adaptive
        ? describeAdaptive(adaptive, fmtMs)
        : `static fallback: ${s.type === 'llm' ? 'LLM' : 'tool'} steps > ${fmtMs(limit)}`;
      out.push({
        severity: high ? 'high' : 'medium',
        confidence: high ? 0.92 : adaptive ? CONFIDENCE.baseline : CONFIDENCE.static,
        steps: [no],
        message: `${label(s)} took ${fmtMsBeside(s.durationMs, limit)}, ${fmtRatio(ratio)} its limit (${rule}) (step ${no})`,
        evidence: {
          durationMs: s.durationMs,
          stepType: s.type,
          ...(adaptive ? adaptiveEvidence(adaptive) : { rule: 'static', limit }),
          ratio,
        },
      });
    }
    return out;
  },
});

function fmtRatio(r: number): string {
  return r >= 1.95 ? fmtX(r) : 'over';
}
