/**
 * Tier 2's rule for repeated tool calls (TOOL_LOOP, TOOL_THRASHING in the gray zone): what each
 * call returned against the ones before it (deltas.ts), and what the run did next. The first call of
 * each tool is what the others are compared with; calls that returned no value (an action done, a
 * command that succeeded silently) count neither way.
 *
 * A later call is
 * - new: it brought back a result no earlier call of the tool had (deltas.ts: a different result,
 *   not merely one with new words), or it asked again and failed differently than before (the
 *   state behind the request changed);
 * - stale: it returned a value an earlier call had already returned, word for word, or made an
 *   earlier request again and failed exactly as before — the outcome stayed the same after a change
 *   was made (the agent edited, waited or rephrased, and learnt nothing); or it asked again, against
 *   the same state, what was asked before and came back empty;
 * - a miss: a request of its own that found nothing or failed (iterating over entities, one had
 *   nothing; two different greps that both matched nothing) — not progress, not a repeat.
 *
 * Decisions:
 * - Nothing new came back at all: a failure, 0.80 — 0.85 when the calls were fired back to back or
 *   the run did not move on afterwards, 0.90 when both.
 * - Something new came back, nothing was stale, and the run then moved on (another tool, another
 *   request, or a final answer): healthy iteration or searching until found — no failure (0.20;
 *   0.15 when the next step uses what was found; 0.25 when some requests found nothing).
 * - The answers stopped changing: the last two calls brought nothing new and at least one was
 *   stale (a result returned before, word for word) — a failure (0.75): the agent kept asking
 *   after there was nothing left to learn. A different result is new information however few new
 *   words it has.
 * - Anything else (results not recorded; new and stale calls mixed) stays in the gray zone for the
 *   next tier, with what tier 2 saw in the evidence.
 */
import type { Signal } from '../../detect/signal.js';
import type { Trace } from '../../trace/schema.js';
import { plural } from '../../util/thousands.js';
import { backToBack, callDeltas, callsPerMinute, courseAfter, type CallDelta } from './deltas.js';
import type { StateDeltaDecision } from './rule.js';

type Reading = 'new' | 'stale' | 'miss';

function readingOf(d: CallDelta): Reading {
  if (d.kind === 'new') return 'new';
  if (d.kind === 'same') return d.outcome === 'value' || d.askedBefore ? 'stale' : 'miss';
  // The same request failing differently than before: what stands behind it changed (a test
  // re-run after an edit that now fails another way, a service that answers with another error).
  if (d.kind === 'error') return d.askedBefore ? 'new' : 'miss';
  return d.repeatsRequest ? 'stale' : 'miss';
}

export function repeatedCalls(trace: Trace, signal: Signal): StateDeltaDecision {
  const deltas = callDeltas(trace, signal.steps);
  const firstOfTool = new Set<number>();
  const tools = new Set<string>();
  for (const d of deltas) {
    if (!tools.has(d.tool)) firstOfTool.add(d.step);
    tools.add(d.tool);
  }
  const later = deltas.filter((d) => !firstOfTool.has(d.step) && d.kind !== 'void');
  const readings = later.map(readingOf);
  const n = (r: Reading) => readings.filter((x) => x === r).length;
  const course = courseAfter(trace, signal.steps, deltas);
  const rapid = backToBack(trace, signal.steps);
  const perMinute = callsPerMinute(trace, signal.steps);
  const facts = {
    calls: deltas.length,
    compared: later.length,
    new: n('new'),
    stale: n('stale'),
    misses: n('miss'),
    noValue: deltas.filter((d) => d.kind === 'void').length,
    unrecorded: deltas.filter((d) => d.kind === 'unrecorded').length,
    newValues: [...new Set(later.flatMap((d) => d.newValues))].slice(0, 8),
    fieldsAppeared: [...new Set(later.flatMap((d) => d.fieldsAppeared))],
    fieldsVanished: [...new Set(later.flatMap((d) => d.fieldsVanished))],
    next: course.next,
    courseChanged: course.changed,
    usesNewInformation: course.usesNewInformation,
    backToBack: rapid,
    ...(perMinute !== undefined ? { callsPerMinute: Number(perMinute.toFixed(1)) } : {}),
    perCall: deltas.map((d) => `${d.step}:${d.kind}${d.repeatsRequest ? ' (asked before)' : ''}`),
  };
  if (facts.unrecorded > 0)
    return {
      decision: 'undecided',
      reason: `${plural(facts.unrecorded, 'result')} not recorded: what the calls returned is unknown`,
      facts,
    };
  if (later.length === 0)
    return { decision: 'undecided', reason: 'no later call returned anything to compare', facts };

  const tally = [
    facts.new ? `${facts.new} new` : '',
    facts.stale ? `${facts.stale} stale` : '',
    facts.misses ? `${facts.misses} found nothing or failed` : '',
  ]
    .filter(Boolean)
    .join(', ');
  if (facts.new === 0) {
    const stuck = !course.changed;
    return {
      decision: 'failure',
      confidence: Number((0.8 + (rapid ? 0.05 : 0) + (stuck ? 0.05 : 0)).toFixed(2)),
      reason:
        `none of the ${plural(later.length, 'later call')} brought anything new (${tally})` +
        (rapid ? ', fired back to back' : '') +
        (stuck ? `; afterwards: ${course.next}` : ''),
      facts,
    };
  }
  const found = facts.newValues.length > 0 ? ` (e.g. ${facts.newValues.slice(0, 3).join(', ')})` : '';
  if (facts.stale === 0 && course.changed) {
    return {
      decision: 'no failure',
      confidence: facts.misses > 0 ? 0.25 : course.usesNewInformation ? 0.15 : 0.2,
      reason: `the calls kept bringing new information${found} and none asked again for what it had (${tally}), then the run moved on to ${course.next}`,
      facts,
    };
  }
  const tail = readings.slice(-2);
  if (tail.length === 2 && !tail.includes('new') && tail.includes('stale')) {
    return {
      decision: 'failure',
      confidence: 0.75,
      reason: `the answers stopped changing: new information came at first, but the last two calls brought none (${tally})`,
      facts,
    };
  }
  return {
    decision: 'undecided',
    reason: `new and stale answers mixed (${tally}); afterwards: ${course.next}`,
    facts,
  };
}
