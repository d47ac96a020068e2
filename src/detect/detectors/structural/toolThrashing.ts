/**
 * TOOL_THRASHING: the agent alternates between exactly two tools, A, B, A, B, …, for at least
 * `min_alternations` consecutive tool calls (only tool steps count; LLM steps in between do not
 * break the run). A third tool, or the same tool twice in a row, ends the run.
 *
 * Judged by what is repeated (repetition.ts), not only by the two names:
 * - A search → read → search → read run where no call repeats an earlier call's arguments and every
 *   call brought back something new (a result that is not empty, not an error, not one seen before in
 *   the run) or did its action (no value returned) is progress over different items (on τ-bench:
 *   look up a reservation, cancel it, next reservation): no signal.
 * - New arguments each time, but some call came back empty, failed or returned what an earlier one
 *   did (or results were not recorded): the gray zone (0.55), for tier 2 to judge what each returned.
 * - Each tool repeating its own arguments is clearly thrashing (0.92); anything in between is a
 *   finding, more confident when the run is twice the minimum length.
 *
 * Waste: the LLM calls that issued the run's calls after its first round (the first A and the
 * first B were needed; the alternation made the round again). Not a call that also issued calls
 * outside the run in the same batch (issuingCalls.ts). The runner prices them.
 */
import { z } from 'zod';
import { defineDetector, type SignalDraft } from '../../detector.js';
import { allNewResults } from './repetition.js';
import { argsSummary, plural, stepSpan, toolCalls } from './shared.js';
import { chargeEvidence, issuingCalls } from './issuingCalls.js';
import { wastePriority } from '../../wastePriority.js';

export const toolThrashing = defineDetector({
  meta: {
    id: 'TOOL_THRASHING',
    configKey: 'tool_thrashing',
    tier: 1,
    kind: 'structural',
    severity: 'high',
    failureMode: 'loop',
    description: 'Agent alternates between exactly two tools',
    priority: wastePriority('TOOL_THRASHING'),
    wasteRule:
      'the LLM calls that issued the alternation after its first round (one call of each tool); not a call that also issued other calls',
    fix: 'give the agent a decision rule between the two tools, and stop or escalate after a few switches',
    rule: 'The agent alternates between two tools (A, B, A, B, …) for `min_alternations` tool calls in a row; a third tool, or one tool twice in a row, ends the alternation. When every call asked for something new and got something new back (look up a reservation, cancel it, look up the next) there is no signal; when the arguments were all new but some call came back empty, failed or with an earlier result, the gray zone; when calls repeat earlier arguments, a finding.',
    config: z.object({
      min_alternations: z
        .number()
        .int()
        .min(3)
        .default(4)
        .describe(
          'Consecutive tool calls alternating between two tools (A,B,A,B = 4) that count as thrashing',
        ),
    }),
  },
  detect(trace, ctx) {
    const min = ctx.config.min_alternations;
    const calls = toolCalls(trace);
    if (calls.length < min) return [];
    const name = (k: number) => calls[k]!.step.name;

    const out: SignalDraft[] = [];
    let start = 0;
    while (start < calls.length - 1) {
      if (name(start + 1) === name(start)) {
        start++;
        continue;
      }
      // Extend A,B,A,B,… while each call differs from the previous one and repeats the one before it.
      let end = start + 2;
      while (end < calls.length && name(end) !== name(end - 1) && name(end) === name(end - 2)) end++;
      const len = end - start;
      if (len >= min) {
        const run = calls.slice(start, end);
        const a = name(start);
        const b = name(start + 1);
        const argsOf = (tool: string) => run.filter((c) => c.step.name === tool).map((c) => c.step.args);
        const argsA = argsOf(a);
        const argsB = argsOf(b);
        const summaryA = argsSummary(argsA);
        const summaryB = argsSummary(argsB);
        const repeatedArgs = summaryA.identical && summaryB.identical;
        const allFresh =
          summaryA.recorded &&
          summaryA.distinct === argsA.length &&
          summaryB.recorded &&
          summaryB.distinct === argsB.length;
        const steps = run.map((c) => c.no);
        // Progress over different items: every call asked something new and got something new.
        if (allFresh && allNewResults(run)) {
          start = end - 1;
          continue;
        }
        out.push({
          severity: 'high',
          confidence: repeatedArgs ? 0.92 : allFresh ? 0.55 : len >= 2 * min ? 0.88 : 0.76,
          steps,
          message:
            `alternated between ${a} and ${b} for ${plural(len, 'consecutive tool call')} (${stepSpan(steps)})` +
            (repeatedArgs
              ? ', repeating the same arguments'
              : allFresh
                ? ', with new arguments each time (may be progress over different items)'
                : ''),
          evidence: {
            tools: [a, b],
            calls: len,
            minAlternations: min,
            repeatedArgs,
            freshArgs: allFresh,
            ...chargeEvidence(issuingCalls(trace, steps.slice(2))),
          },
        });
      }
      // The last call of a run can begin the next alternation (A,B,A,B,C,B,C,B).
      start = end - 1;
    }
    return out;
  },
});
