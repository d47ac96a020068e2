/**
 * FIRST_STEP_FAILURE: the run fails right at the start: among steps 1 … `max_step` (numbered over
 * all steps, as everywhere), an LLM call with an error or an empty completion (see
 * EMPTY_LLM_RESPONSE for what counts as empty; tool-call-only outputs are not), or a tool call with
 * status error. Retrievals with no results are RAG_EMPTY_RETRIEVAL's. One signal per run, naming
 * every failing early step. A run that still ended ok with an answer recovered, which lowers the
 * confidence; how the run ended is worded by runEnding.ts, as every detector that speaks of recovery
 * words it (an answer that apologises is no recovery; an unrecorded status reads as ok, so ok with
 * no output is "not known").
 *
 * A lookup that found nothing ("No events found", "Contact … not found", "No such file") is an
 * answer, not a failure, when the agent went on: if every early failure is such a miss, the first
 * later tool call that is not another miss succeeded, and the run recovered, there is no signal. A miss the run did not recover from, and any other early error, still fires.
 */
import { z } from 'zod';
import { ERROR_QUOTE, redactAndCut } from '../../../redact/safeText.js';
import { defineDetector } from '../../detector.js';
import type { Step, Trace } from '../../../trace/schema.js';
import { endingClause, runEnding } from './runEnding.js';
import { isEmptyCompletion, stepNo } from './shared.js';

/** Error text of a lookup that found nothing: the tool worked, the thing was not there. */
const NOTHING_FOUND =
  /\b(?:not found|no (?:[\w-]+ ){0,3}(?:found|results?|match(?:es)?)\b|nothing (?:was )?found|found nothing|does(?: not|n't) exist|no such \w+|(?:0|zero) results)/i;

function isLookupMiss(step: Step): boolean {
  return (
    step.type === 'tool' &&
    step.status === 'error' &&
    NOTHING_FOUND.test(step.error ?? String(step.result ?? ''))
  );
}

/**
 * After step index `last`, the agent got through: the first tool call (if any) that is not another
 * lookup miss succeeded — searching again with other terms until something is found is recovery.
 */
function searchedOn(trace: Trace, last: number): boolean {
  for (let i = last + 1; i < trace.steps.length; i++) {
    const s = trace.steps[i]!;
    if (s.type === 'tool' && !isLookupMiss(s)) return s.status !== 'error';
  }
  return true;
}

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
    rule: 'Among the first `max_step` steps, an LLM call failed or came back empty, or a tool call failed. A lookup that found nothing ("not found", "no results") is an answer, not a failure, when the agent went on and the run recovered (ended ok with an answer that is not an apology); a run that recovered otherwise still fires, at lower confidence.',
    config: z.object({
      max_step: z.number().int().min(1).default(2).describe('Failures at this step number or earlier fire'),
    }),
  },
  detect(trace, ctx) {
    const failures: { no: number; what: string; miss: boolean }[] = [];
    const early = Math.min(trace.steps.length, ctx.config.max_step);
    for (let i = 0; i < early; i++) {
      const s = trace.steps[i]!;
      const no = stepNo(i);
      if (s.type === 'llm') {
        if (s.error)
          failures.push({
            no,
            what: `LLM call ${s.model} failed: ${redactAndCut(s.error, ERROR_QUOTE)}`,
            miss: false,
          });
        else if (isEmptyCompletion(s))
          failures.push({ no, what: `LLM call ${s.model} returned nothing`, miss: false });
      } else if (s.type === 'tool' && s.status === 'error') {
        failures.push({
          no,
          what: `tool ${s.name} failed${s.error ? `: ${redactAndCut(s.error, ERROR_QUOTE)}` : ''}`,
          miss: isLookupMiss(s),
        });
      }
    }
    if (failures.length === 0) return [];
    const ending = runEnding(trace);
    const recovered = ending.kind === 'recovered';
    // Searches that found nothing, after which the agent went on and finished: not a failure.
    if (
      recovered &&
      failures.every((f) => f.miss) &&
      searchedOn(trace, failures[failures.length - 1]!.no - 1)
    )
      return [];
    return [
      {
        severity: 'medium',
        // The run failing at its first steps and never finishing ok is certain; one that recovered
        // still failed early, but may have been a transient error it handled.
        confidence: recovered ? 0.8 : 0.9,
        steps: failures.map((f) => f.no),
        message:
          failures.map((f) => `step ${f.no}: ${f.what}`).join('; ') +
          // What is known goes in brackets; a run that never recovered is part of the finding.
          (ending.kind === 'recovered' || ending.kind === 'unknown'
            ? ` (${endingClause(ending)})`
            : `; ${endingClause(ending)}`),
        evidence: {
          maxStep: ctx.config.max_step,
          failures: failures.map(({ no, what }) => ({ no, what })),
          status: trace.status,
          ending: ending.kind,
        },
      },
    ];
  },
});
