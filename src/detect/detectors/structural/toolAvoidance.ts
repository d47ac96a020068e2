/**
 * TOOL_AVOIDANCE: the agent was offered tools (trace.availableTools non-empty), called none — no
 * tool step and no tool calls requested in any LLM output — and still produced a final answer
 * (a run output, or a last LLM call with text). Only runs with at least `min_llm_calls` LLM calls
 * count: answering a simple question in one call without tools is normal. Retrieval steps are
 * not tool calls (frameworks usually retrieve before the agent decides anything).
 */
import { z } from 'zod';
import { defineDetector } from '../../detector.js';
import { isLlm } from '../../../trace/measure.js';
import { fmtInt, hasTraceOutput, llmOutputKind, plural, requestsTools, stepNo, stepSpan } from './shared.js';

export const toolAvoidance = defineDetector({
  meta: {
    id: 'TOOL_AVOIDANCE',
    configKey: 'tool_avoidance',
    tier: 1,
    kind: 'structural',
    severity: 'medium',
    failureMode: 'tool-avoidance',
    description: 'Final answer without calling available tools',
    fix: 'say in the system prompt when each tool must be used (or set tool_choice); drop tools it never needs',
    rule: 'The agent was offered tools, called none (no tool step, no tool call requested) and still gave a final answer, in a run of at least `min_llm_calls` LLM calls. Answering a simple question in one call without tools is normal, and retrievals are not tool calls.',
    config: z.object({
      min_llm_calls: z
        .number()
        .int()
        .min(1)
        .default(2)
        .describe('LLM calls a run needs before answering without tools counts as avoidance'),
    }),
  },
  detect(trace, ctx) {
    const { min_llm_calls } = ctx.config;
    const available = trace.availableTools ?? [];
    if (available.length === 0) return [];
    if (trace.steps.some((s) => s.type === 'tool' || (isLlm(s) && requestsTools(s)))) return [];
    const llmSteps = trace.steps.flatMap((s, i) => (isLlm(s) ? [{ s, no: stepNo(i) }] : []));
    if (llmSteps.length < min_llm_calls) return [];
    const last = llmSteps[llmSteps.length - 1]!;
    const answered = hasTraceOutput(trace) || llmOutputKind(last.s) === 'text';
    if (!answered) return [];
    const steps = llmSteps.map((x) => x.no);
    const shown =
      available.slice(0, 5).join(', ') +
      (available.length > 5 ? `, … (${fmtInt(available.length)} in all)` : '');
    return [
      {
        severity: 'medium',
        // Two LLM calls without tools can still be a legitimate direct answer; many cannot.
        confidence: llmSteps.length >= 2 * min_llm_calls ? 0.86 : 0.78,
        steps,
        message: `answered after ${plural(llmSteps.length, 'LLM call')} without calling any of its ${plural(available.length, 'available tool')} (${shown}) (${stepSpan(steps)})`,
        evidence: { llmCalls: llmSteps.length, availableTools: available, minLlmCalls: min_llm_calls },
      },
    ];
  },
});
