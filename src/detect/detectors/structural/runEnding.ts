/**
 * How a run ended, in the one wording every detector that speaks of recovery uses, so two messages
 * about one trace never tell two stories ("the run later recovered and ended ok" beside "never
 * recovered"). A run recovered when it ended ok with an answer; a run whose answer apologises or says
 * it could not do the task ended with nothing done, whatever its status says: an agent that hit
 * failures and then wrote "Sorry, I could not find that order" gave up, it did not recover. A status
 * of ok alone shows nothing (an unrecorded status reads as ok), so a run with no output and no error
 * status is "not known".
 */
import type { Trace } from '../../../trace/schema.js';
import { hasTraceOutput } from './shared.js';

export type RunEnding =
  /** Ended ok with an answer that is not an apology. */
  | { kind: 'recovered' }
  /** Ended with an answer that apologises or says the task could not be done. */
  | { kind: 'gave-up' }
  /** Ended with an error (or still running) status and no answer to the contrary. */
  | { kind: 'failed'; status: Trace['status'] }
  /** No output and no error status: whether it recovered is not known. */
  | { kind: 'unknown' };

/**
 * An answer that says the agent did not do what it was asked: an apology, or "I could not / was
 * unable to / cannot". Read from the answer's start and its last sentences, where agents put it.
 */
const GAVE_UP =
  /\b(?:sorry|apologi[sz]e|unfortunately|(?:i|we) (?:could not|couldn't|cannot|can't|was unable|were unable|am unable|are unable|wasn't able|weren't able|failed to)|unable to (?:find|complete|retrieve|access|locate|process|look up|get))\b/i;

/** How much of the answer is read: an apology is said early or last, not in the middle of a long answer. */
const HEAD_CHARS = 240;
const TAIL_CHARS = 240;

/** The final answer's text: a string, or the content of the (last) message it records. */
function answerText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.length > 0 ? answerText(output[output.length - 1]) : '';
  if (typeof output === 'object' && output !== null) {
    const o = output as { content?: unknown; text?: unknown };
    if (typeof o.content === 'string') return o.content;
    if (Array.isArray(o.content)) return o.content.map((p) => answerText(p)).join('\n');
    if (typeof o.text === 'string') return o.text;
  }
  return '';
}

/** The answer says the task was not done (an apology, "I could not …"). */
export function answerGivesUp(trace: Trace): boolean {
  const text = answerText(trace.output);
  if (text === '') return false;
  const read =
    text.length <= HEAD_CHARS + TAIL_CHARS
      ? text
      : `${text.slice(0, HEAD_CHARS)}\n${text.slice(-TAIL_CHARS)}`;
  return GAVE_UP.test(read);
}

/** How the run ended, for a run that hit failures on the way. */
export function runEnding(trace: Trace): RunEnding {
  if (hasTraceOutput(trace) && answerGivesUp(trace)) return { kind: 'gave-up' };
  if (trace.status !== 'ok') return { kind: 'failed', status: trace.status };
  return hasTraceOutput(trace) ? { kind: 'recovered' } : { kind: 'unknown' };
}

/** The clause a message ends with: how the run ended, in the same words whichever detector says it. */
export function endingClause(ending: RunEnding): string {
  switch (ending.kind) {
    case 'recovered':
      return 'the run later recovered and ended ok';
    case 'gave-up':
      return 'the run never recovered: it ended with an apology, not an answer';
    case 'failed':
      return `the run never recovered: it ended with status ${ending.status}`;
    case 'unknown':
      return 'the run has no output and no error status: whether it recovered is not known';
  }
}
