/**
 * EMPTY_LLM_RESPONSE: an LLM call that finished normally (finish reason stop, or the provider's
 * spelling: end_turn, stop_sequence, STOP, COMPLETE) and produced nothing.
 *
 * Not empty: an output that is only tool calls (DESIGN: "an LLM step whose output is only tool
 * calls is not empty"), non-text content parts, or an output the trace did not record while its
 * usage shows completion tokens. Whitespace-only text is empty. A call with an error is a failure,
 * not an empty response, and is left to the failure detectors. Truncated calls (finish reason
 * length) belong to LLM_TRUNCATION_LOOP.
 *
 * Missing finish reason: many formats do not record one. A recorded, blank output then still
 * fires, at a lower confidence (0.72, above the gray zone: the output is plainly empty, only the
 * "finished normally" half is unknown); an output that is merely absent does not fire, since
 * nothing shows the model produced nothing.
 */
import { z } from 'zod';
import { defineDetector, type SignalDraft } from '../../detector.js';
import { isLlm } from '../../../trace/measure.js';
import { isEmptyCompletion, isStop, llmOutputKind, stepNo } from './shared.js';

export const emptyLlmResponse = defineDetector({
  meta: {
    id: 'EMPTY_LLM_RESPONSE',
    configKey: 'empty_llm_response',
    tier: 1,
    kind: 'structural',
    severity: 'high',
    failureMode: 'empty-response',
    description: 'Zero-length output with finish_reason=stop',
    fix: 'treat an empty completion as an error: check the prompt, stop sequences and content filter, retry once',
    rule: 'An LLM call finished normally (finish reason `stop` or its equivalents) and produced no text and no tool calls; whitespace counts as empty. A call with an error is a failure, not an empty response, and an output the trace did not record is not empty. When no finish reason was recorded, a recorded blank output still fires, at lower confidence (`missing_finish_reason`).',
    config: z.object({
      missing_finish_reason: z
        .boolean()
        .default(true)
        .describe('Also fire (at lower confidence) on a blank output whose finish reason was not recorded'),
    }),
  },
  detect(trace, ctx) {
    const out: SignalDraft[] = [];
    for (let i = 0; i < trace.steps.length; i++) {
      const s = trace.steps[i]!;
      if (!isLlm(s) || s.error) continue;
      const reason = s.finishReason?.trim();
      const no = stepNo(i);
      if (reason && isStop(reason)) {
        if (!isEmptyCompletion(s)) continue;
        const recorded = llmOutputKind(s) === 'empty';
        out.push({
          severity: 'high',
          // A recorded blank output is certain; "not recorded but zero completion tokens" nearly so.
          confidence: recorded ? 0.92 : 0.84,
          steps: [no],
          message: recorded
            ? `${s.model} returned an empty response with finish reason ${reason} (step ${no})`
            : `${s.model} finished (${reason}) with 0 completion tokens (step ${no})`,
          evidence: {
            model: s.model,
            finishReason: reason,
            outputTokens: s.usage.outputTokens,
            basis: recorded ? 'blank output' : 'zero completion tokens',
          },
        });
      } else if (!reason && ctx.config.missing_finish_reason && llmOutputKind(s) === 'empty') {
        out.push({
          severity: 'high',
          confidence: 0.72,
          steps: [no],
          message: `${s.model} returned an empty response (finish reason not recorded) (step ${no})`,
          evidence: {
            model: s.model,
            finishReason: null,
            outputTokens: s.usage.outputTokens,
            basis: 'blank output',
          },
        });
      }
    }
    return out;
  },
});
