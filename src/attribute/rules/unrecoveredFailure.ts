/**
 * A call that failed, or returned nothing, and was not put right: the step that issued it. A
 * failure the same agent's next call of the same tool (or its next code run) repaired was
 * transient, not where the run went wrong; a search that came back empty and was not tried again
 * is ("the search it ran returned nothing and it answered anyway"), though weaker evidence than an
 * error: an empty answer is sometimes the right one.
 */
import type { Call } from '../calls.js';
import type { AttributionContext, AttributionRule, CandidateDraft } from '../rule.js';

/** Candidates it names at most: the first few failures, earliest first. */
const MAX_CANDIDATES = 3;

/** Whether the same agent's next call of the same tool (or code run) after `i` succeeded. */
function recovered(ctx: AttributionContext, i: number): boolean {
  const failed = ctx.calls[i]!;
  const owner = ctx.agents[failed.step - 1];
  const next = ctx.calls
    .slice(i + 1)
    .find((c: Call) => c.name === failed.name && ctx.agents[c.step - 1] === owner && c.step !== failed.step);
  return next?.outcome === 'ok';
}

export const unrecoveredFailure: AttributionRule = {
  meta: {
    id: 'UNRECOVERED_FAILURE',
    description:
      'The step that issued a tool call or a code run that failed (or returned nothing) and that the same agent’s next call of it did not put right',
    messages: {
      failedCall: 'its {{name}} call failed ({{error}}) and it never got that call to work',
      emptyCall: 'its {{name}} call returned nothing and it went on without it',
      failedRun: 'the code it wrote failed when run ({{error}}) and its next run did not put it right',
      emptyRun: 'the code it wrote ran but printed nothing, and it went on without a result',
    },
  },
  find(ctx) {
    const out: CandidateDraft[] = [];
    ctx.calls.forEach((call, i) => {
      if (call.outcome === 'ok' || out.length >= MAX_CANDIDATES || recovered(ctx, i)) return;
      const run = call.name === 'code';
      const error = call.outcome === 'error';
      out.push({
        step: call.step,
        messageId: `${error ? 'failed' : 'empty'}${run ? 'Run' : 'Call'}`,
        data: { name: call.name, error: call.error ?? 'error' },
        confidence: error ? 0.7 : 0.45,
        strength: error ? 'evidence' : 'weak',
      });
    });
    return out;
  },
};
