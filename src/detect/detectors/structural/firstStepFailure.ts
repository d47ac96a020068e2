/**
 * FIRST_STEP_FAILURE: the run fails right at the start: among steps 1 … `max_step` (numbered over
 * all steps, as everywhere), an LLM call with an error or an empty completion (see
 * EMPTY_LLM_RESPONSE for what counts as empty; tool-call-only outputs are not), or a tool call with
 * status error. Retrievals with no results are RAG_EMPTY_RETRIEVAL's. One signal per run, naming
 * every failing early step. A run that still ended ok recovered, which lowers the confidence. The
 * message says it "ended ok" only when the run has an output: an unrecorded status reads as ok.
 */
import { z } from 'zod';
import { ERROR_QUOTE, redactAndCut } from '../../../redact/safeText.js';
import { defineDetector } from '../../detector.js';
import { hasTraceOutput, isEmptyCompletion, stepNo } from './shared.js';

export const firstStepFailure = defineDetector({
  meta: {
    id: 'FIRST_STEP_FAILURE',
    configKey: 'first_step_failure',
    tier: 1,
    kind: 'structural',
    severity: 'medium',
    failureMode: 'early-failure',
    description: 'Error or empty output at step ≤2',
    fix: "validate the run's inputs, credentials and first tool arguments before the agent starts",
    config: z.object({
      max_step: z.number().int().min(1).default(2).describe('Failures at this step number or earlier fire'),
    }),
  },
  detect(trace, ctx) {
    const failures: { no: number; what: string }[] = [];
    const early = Math.min(trace.steps.length, ctx.config.max_step);
    for (let i = 0; i < early; i++) {
      const s = trace.steps[i]!;
      const no = stepNo(i);
      if (s.type === 'llm') {
        if (s.error)
          failures.push({ no, what: `LLM call ${s.model} failed: ${redactAndCut(s.error, ERROR_QUOTE)}` });
        else if (isEmptyCompletion(s)) failures.push({ no, what: `LLM call ${s.model} returned nothing` });
      } else if (s.type === 'tool' && s.status === 'error') {
        failures.push({
          no,
          what: `tool ${s.name} failed${s.error ? `: ${redactAndCut(s.error, ERROR_QUOTE)}` : ''}`,
        });
      }
    }
    if (failures.length === 0) return [];
    const recovered = trace.status === 'ok';
    // Status defaults to ok when a trace does not record one, so ok alone does not show that the run
    // finished well: only an output does. Without one, say what is known.
    const ending = !recovered
      ? `; the run ended with status ${trace.status}`
      : hasTraceOutput(trace)
        ? ' (the run later recovered and ended ok)'
        : ' (the run has no output and no error status: whether it recovered is not known)';
    return [
      {
        severity: 'medium',
        // The run failing at its first steps and never finishing ok is certain; one that recovered
        // still failed early, but may have been a transient error it handled.
        confidence: recovered ? 0.8 : 0.9,
        steps: failures.map((f) => f.no),
        message: failures.map((f) => `step ${f.no}: ${f.what}`).join('; ') + ending,
        evidence: { maxStep: ctx.config.max_step, failures, status: trace.status },
      },
    ];
  },
});
