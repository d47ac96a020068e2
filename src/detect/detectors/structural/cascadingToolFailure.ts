/**
 * CASCADING_TOOL_FAILURE: `min_failures` or more consecutive tool calls fail, across at least
 * `min_tools` distinct tools. Only tool steps count (LLM steps in between do not break the chain);
 * any successful tool call does. A chain of one tool failing is RETRY_STORM's, not this one's.
 *
 * No waste: the calls of a cascade are different calls of different tools, each a new attempt
 * rather than a repeat of one already made, so none of the LLM calls that issued them is redundant
 * by itself (the fault is the first failing tool, which had to be called). Where one tool in the
 * chain is retried, RETRY_STORM charges those retries.
 */
import { z } from 'zod';
import { defineDetector, type SignalDraft } from '../../detector.js';
import type { ToolStep } from '../../../trace/schema.js';
import { ERROR_QUOTE, redactAndCut } from '../../../redact/safeText.js';
import { fmtInt, plural, stepNo, stepSpan } from './shared.js';

export const cascadingToolFailure = defineDetector({
  meta: {
    id: 'CASCADING_TOOL_FAILURE',
    configKey: 'cascading_tool_failure',
    tier: 1,
    kind: 'structural',
    severity: 'high',
    failureMode: 'tool-failure',
    description: '3+ consecutive tool failures across 2+ distinct tools',
    fix: 'fix the first failing tool, and end the run after repeated tool errors instead of trying other tools',
    rule: "`min_failures` or more tool calls in a row fail, across at least `min_tools` different tools; any successful tool call ends the chain. One tool failing again and again is `RETRY_STORM`'s.",
    config: z.object({
      min_failures: z.number().int().min(2).default(3).describe('Consecutive failed tool calls that fire'),
      min_tools: z.number().int().min(2).default(2).describe('Distinct tools that must be among them'),
    }),
  },
  detect(trace, ctx) {
    const { min_failures, min_tools } = ctx.config;
    const out: SignalDraft[] = [];
    let chain: { step: ToolStep; no: number }[] = [];
    const close = () => {
      if (chain.length < min_failures) {
        if (chain.length > 0) chain = [];
        return;
      }
      const tools = [...new Set(chain.map((c) => c.step.name))];
      if (tools.length >= min_tools) {
        const steps = chain.map((c) => c.no);
        out.push({
          severity: 'high',
          confidence: chain.length > min_failures || tools.length > min_tools ? 0.9 : 0.85,
          steps,
          message: `${fmtInt(chain.length)} consecutive tool failures across ${plural(tools.length, 'tool')} (${tools.join(', ')}) (${stepSpan(steps)})`,
          evidence: {
            failures: chain.length,
            tools,
            minFailures: min_failures,
            minTools: min_tools,
            // Clipped as in other detectors' messages: a tool can return megabytes of error text.
            errors: chain.map((c) =>
              c.step.error === undefined ? null : redactAndCut(c.step.error, ERROR_QUOTE),
            ),
          },
        });
      }
      chain = [];
    };
    const steps = trace.steps;
    for (let i = 0; i < steps.length; i++) {
      const s = steps[i]!;
      if (s.type !== 'tool') continue;
      if (s.status === 'error') chain.push({ step: s, no: stepNo(i) });
      else close();
    }
    close();
    return out;
  },
});
