/**
 * LLM_TRUNCATION_LOOP: LLM calls cut off at the token limit (finish reason `length`, or the
 * provider's spelling: `max_tokens`, `MAX_TOKENS`, `max_output_tokens`, `model_length`) at least
 * `threshold` times in one run. The rule counts over the whole run, so a run yields at most one
 * signal, naming every truncated call.
 *
 * Waste: the truncated calls that were asked again — a cut-off answer followed by another LLM
 * call. Not the run's last call (nothing asked again after it), and not a truncated call whose
 * answer still issued a tool call (issuingCalls.ts): part of it was used. The runner prices them.
 */
import { z } from 'zod';
import { defineDetector } from '../../detector.js';
import { isLlm } from '../../../trace/measure.js';
import { fmtInt, isTruncation, plural, stepNo, stepSpan } from './shared.js';
import { issuedNoToolCall } from './issuingCalls.js';
import { wastePriority } from '../../wastePriority.js';

export const llmTruncationLoop = defineDetector({
  meta: {
    id: 'LLM_TRUNCATION_LOOP',
    configKey: 'llm_truncation_loop',
    tier: 1,
    kind: 'structural',
    severity: 'high',
    failureMode: 'truncation',
    description: 'finish_reason=length fires ≥2 times',
    priority: wastePriority('LLM_TRUNCATION_LOOP'),
    wasteRule:
      'the truncated calls asked again (another LLM call followed); not the last call, nor one whose cut-off answer still issued a tool call',
    fix: 'raise max_tokens or ask for a shorter answer; never resend a truncated call unchanged',
    rule: "LLM calls cut off at the token limit (finish reason `length`, `max_tokens`, `MAX_TOKENS` or another provider's spelling) `threshold` times or more in one run. One signal per run, naming every truncated call.",
    config: z.object({
      threshold: z
        .number()
        .int()
        .min(1)
        .default(2)
        .describe('Truncated LLM calls (finish reason length / max_tokens) in one run that fire'),
    }),
  },
  detect(trace, ctx) {
    const { threshold } = ctx.config;
    let count = 0;
    for (const s of trace.steps) if (s.type === 'llm' && isTruncation(s.finishReason)) count++;
    if (count < threshold) return [];
    const truncated: number[] = [];
    const reasons = new Set<string>();
    // Truncated calls with no other LLM call between them: the agent retried into the same limit.
    // Counted in the same walk by each call's position among the LLM calls (looking positions up
    // per truncated call was quadratic: seconds on a run of 60,000 truncated calls).
    let llmPos = -1;
    let prevTruncated = -2;
    let run = 0;
    let consecutive = 1;
    let lastLlm = 0;
    const steps = trace.steps;
    for (let i = 0; i < steps.length; i++) {
      const s = steps[i]!;
      if (!isLlm(s)) continue;
      llmPos++;
      lastLlm = stepNo(i);
      if (!isTruncation(s.finishReason)) continue;
      truncated.push(stepNo(i));
      reasons.add(s.finishReason!);
      run = llmPos === prevTruncated + 1 ? run + 1 : 1;
      if (run > consecutive) consecutive = run;
      prevTruncated = llmPos;
    }
    return [
      {
        severity: 'high',
        confidence: count > threshold || consecutive > 1 ? 0.92 : 0.85,
        steps: truncated,
        message:
          `${plural(count, 'LLM call')} hit the output token limit (finish reason ${[...reasons].join(', ')}) ` +
          `(${stepSpan(truncated)})` +
          (consecutive > 1 ? `, ${fmtInt(consecutive)} of them back to back` : ''),
        evidence: {
          truncatedCalls: count,
          threshold,
          finishReasons: [...reasons],
          maxConsecutive: consecutive,
          wastedSteps: issuedNoToolCall(
            trace,
            truncated.filter((n) => n < lastLlm),
          ),
        },
      },
    ];
  },
});
