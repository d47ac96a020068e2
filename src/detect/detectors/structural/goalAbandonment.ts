/**
 * GOAL_ABANDONMENT: the agent used tools, then stopped using them and made `min_llm_calls` or more
 * LLM calls in a row without reaching an exit.
 *
 * - Tool use is a tool step, a retrieval, or an LLM output that requests tool calls; at least one
 *   must come before the stall (a pure chat run never "abandons" tool use).
 * - The stall is the LLM calls after the last tool use; state and message steps are ignored.
 * - No exit (DESIGN, Contract details → Trace): the run ends without an output and with status
 *   error or running. A run with status ok, or one that produced an output, has an exit.
 */
import { z } from 'zod';
import { defineDetector } from '../../detector.js';
import { hasExit, isToolUse, plural, stepNo, stepSpan } from './shared.js';

export const goalAbandonment = defineDetector({
  meta: {
    id: 'GOAL_ABANDONMENT',
    configKey: 'goal_abandonment',
    tier: 1,
    kind: 'structural',
    severity: 'medium',
    failureMode: 'abandonment',
    description: 'Tool use stops, then ≥4 consecutive LLM calls with no exit',
    fix: 'add an exit rule: after N LLM calls without a tool call, return an answer or fail the run',
    rule: 'The agent used tools, then made `min_llm_calls` or more LLM calls in a row without another tool call, and the run ended without an exit: no output, and status error or still running. A run that ended ok or produced an output has an exit.',
    config: z.object({
      min_llm_calls: z
        .number()
        .int()
        .min(1)
        .default(4)
        .describe('LLM calls after the last tool use, in a run with no exit, that fire'),
    }),
  },
  detect(trace, ctx) {
    const { min_llm_calls } = ctx.config;
    if (hasExit(trace)) return [];
    let lastToolUse = -1;
    trace.steps.forEach((s, i) => {
      if (isToolUse(s)) lastToolUse = i;
    });
    if (lastToolUse < 0) return [];
    const stalled = trace.steps.flatMap((s, i) => (i > lastToolUse && s.type === 'llm' ? [stepNo(i)] : []));
    if (stalled.length < min_llm_calls) return [];
    return [
      {
        severity: 'medium',
        confidence: stalled.length > min_llm_calls ? 0.9 : 0.85,
        steps: stalled,
        message:
          `no tool use after step ${stepNo(lastToolUse)}, then ${plural(stalled.length, 'LLM call')} without reaching an answer ` +
          `(${stepSpan(stalled)}); the run ended with status ${trace.status} and no output`,
        evidence: {
          lastToolUseStep: stepNo(lastToolUse),
          llmCallsAfter: stalled.length,
          minLlmCalls: min_llm_calls,
          status: trace.status,
        },
      },
    ];
  },
});
