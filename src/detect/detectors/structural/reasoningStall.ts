/**
 * REASONING_STALL: many LLM calls for few tool calls: the agent thinks instead of acting. The ratio
 * is measureTrace's llmToolRatio (reasoning LLM calls / max(1, tool calls)), the same value the
 * baseline (metric llmToolRatio) keeps. A call that answers a message step (a user turn, another
 * agent's hand-off) is conversation, not reasoning, and is not counted: on τ-bench's airline chats
 * counting every reply made most long conversations look stalled. Applies only to runs with at
 * least `min_llm_calls` reasoning LLM calls. With a
 * baseline it fires above multiplier × P75; before that at a ratio ≥ `ratio`. Severity medium, high
 * at `high_factor` × the limit or more.
 *
 * A run with no tool calls whose trace lists no available tools is not a tool-using agent (a chat
 * turn), so its ratio says nothing; it is skipped.
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
  fmtX,
  plural,
  stepNo,
  stepSpan,
} from './shared.js';

/** Index of the nearest step before `i` that is not a state snapshot (-1 when none). */
function previousNonState(steps: readonly { type: string }[], i: number): number {
  let j = i - 1;
  while (j >= 0 && steps[j]!.type === 'state') j--;
  return j;
}

const ratioText = (n: number) => `${Number(n.toFixed(2))}`;

export const reasoningStall = defineDetector({
  meta: {
    id: 'REASONING_STALL',
    configKey: 'reasoning_stall',
    tier: 1,
    kind: 'structural',
    severity: 'medium',
    failureMode: 'stall',
    description: 'LLM:tool-call ratio exceeds 2× P75 baseline or static fallback (≥4×)',
    fix: 'limit think-only turns: require a tool call or a final answer within a few LLM calls',
    baseline: 'llmToolRatio',
    rule: "Many LLM calls for few tool calls: reasoning LLM calls per tool call reach `ratio`, or `baseline_multiplier` × the agent's P75 once a baseline exists. A call that answers a user or another agent is conversation, not reasoning, and is not counted; runs with fewer than `min_llm_calls` reasoning calls, and chat runs offered no tools, are skipped. High at `high_factor` × the limit or more.",
    config: z.object({
      ratio: z.number().positive().default(4).describe('Static fallback: LLM calls per tool call that fire'),
      min_llm_calls: z
        .number()
        .int()
        .min(1)
        .default(5)
        .describe('LLM calls a run needs before this detector applies'),
      baseline_multiplier: baselineMultiplier(2),
      high_factor: z.number().min(1).default(2).describe('Severity high at this × the limit or more'),
    }),
  },
  detect(trace, ctx) {
    const { ratio, min_llm_calls, baseline_multiplier, high_factor } = ctx.config;
    const m = measureTrace(trace);
    if (m.reasoningLlmCalls < min_llm_calls) return [];
    if (m.toolCalls === 0 && !(trace.availableTools && trace.availableTools.length > 0)) return [];
    const adaptive = adaptiveLimit(ctx, baseline_multiplier);
    const value = m.llmToolRatio;
    const limit = adaptive ? adaptive.limit : ratio;
    if (adaptive ? !(value > limit) : value < limit) return [];
    const high = value >= high_factor * limit;
    // The reasoning calls (those not answering a message step), as measureTrace counts them.
    const steps = trace.steps.flatMap((s, i) =>
      s.type === 'llm' && trace.steps[previousNonState(trace.steps, i)]?.type !== 'message'
        ? [stepNo(i)]
        : [],
    );
    const rule = adaptive ? describeAdaptive(adaptive, ratioText) : `static fallback: ≥ ${ratioText(ratio)}`;
    return [
      {
        severity: high ? 'high' : 'medium',
        confidence: high ? 0.92 : adaptive ? CONFIDENCE.baseline : CONFIDENCE.static,
        steps,
        message:
          `${plural(m.reasoningLlmCalls, 'LLM call')} for ${plural(m.toolCalls, 'tool call')}: ${fmtX(value)} LLM calls per tool call ` +
          `(${rule}) (${stepSpan(steps)})`,
        evidence: {
          llmCalls: m.llmCalls,
          reasoningLlmCalls: m.reasoningLlmCalls,
          toolCalls: m.toolCalls,
          llmToolRatio: value,
          ...(adaptive ? adaptiveEvidence(adaptive) : { rule: 'static', limit: ratio }),
        },
      },
    ];
  },
});
