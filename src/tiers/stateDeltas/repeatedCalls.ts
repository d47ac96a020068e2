/**
 * Tier 2's rule for repeated tool calls (TOOL_LOOP, TOOL_THRASHING in the gray zone): what each
 * call returned against the ones before it (deltas.ts), and what the run did next.
 *
 * - No call after the first of its tool brought anything new (each came back the same, empty or
 *   failed): a failure, 0.80 — 0.85 when the calls were fired back to back or the run did not move
 *   on afterwards, 0.90 when both.
 * - Every one of them brought new information (new ids, values or fields) and the run then moved on
 *   (another tool, another request, or a final answer): healthy iteration, no failure (0.20; 0.15
 *   when the next step uses what was found).
 * - Searching until found: nothing came back the same, the last call brought something new, and the
 *   run moved on with it: no failure (0.30).
 * - The answers stopped changing: new information came at first, but the last two calls brought
 *   nothing new and at least one of them returned an answer already seen: a failure (0.75) — the
 *   agent kept asking after there was nothing left to learn.
 * - Anything else (some calls new, some not; results not recorded) stays in the gray zone for the
 *   next tier, with what tier 2 saw in the evidence.
 */
import type { Signal } from '../../detect/signal.js';
import type { Trace } from '../../trace/schema.js';
import { plural } from '../../util/thousands.js';
import { backToBack, callDeltas, callsPerMinute, courseAfter, type CallDelta } from './deltas.js';
import type { StateDeltaDecision } from './rule.js';

const count = (deltas: readonly CallDelta[], kind: CallDelta['kind']) =>
  deltas.filter((d) => d.kind === kind).length;

export function repeatedCalls(trace: Trace, signal: Signal): StateDeltaDecision {
  const deltas = callDeltas(trace, signal.steps);
  // The first call of each tool is what the others are compared with.
  const firstOfTool = new Set<number>();
  const seen = new Set<string>();
  for (const d of deltas) {
    if (!seen.has(d.tool)) firstOfTool.add(d.step);
    seen.add(d.tool);
  }
  const later = deltas.filter((d) => !firstOfTool.has(d.step));
  const course = courseAfter(trace, signal.steps, deltas);
  const rapid = backToBack(trace, signal.steps);
  const perMinute = callsPerMinute(trace, signal.steps);
  const facts = {
    calls: deltas.length,
    compared: later.length,
    same: count(later, 'same'),
    empty: count(later, 'empty'),
    error: count(later, 'error'),
    new: count(later, 'new'),
    unrecorded: count(deltas, 'unrecorded'),
    newValues: [...new Set(later.flatMap((d) => d.newValues))].slice(0, 8),
    fieldsAppeared: [...new Set(later.flatMap((d) => d.fieldsAppeared))],
    fieldsVanished: [...new Set(later.flatMap((d) => d.fieldsVanished))],
    next: course.next,
    courseChanged: course.changed,
    usesNewInformation: course.usesNewInformation,
    backToBack: rapid,
    ...(perMinute !== undefined ? { callsPerMinute: Number(perMinute.toFixed(1)) } : {}),
    perCall: deltas.map((d) => `${d.step}:${d.kind}`),
  };
  if (later.length === 0 || facts.unrecorded > 0) {
    return {
      decision: 'undecided',
      reason:
        facts.unrecorded > 0
          ? `${plural(facts.unrecorded, 'result')} not recorded: what the calls returned is unknown`
          : 'no repeated call to compare',
      facts,
    };
  }
  const stale = facts.same + facts.empty + facts.error;
  const what = [
    facts.same ? `${facts.same} the same` : '',
    facts.empty ? `${facts.empty} empty` : '',
    facts.error ? plural(facts.error, 'error') : '',
  ]
    .filter(Boolean)
    .join(', ');
  if (facts.new === 0) {
    const stuck = !course.changed;
    return {
      decision: 'failure',
      confidence: 0.8 + (rapid ? 0.05 : 0) + (stuck ? 0.05 : 0),
      reason:
        `none of the ${plural(later.length, 'repeated call')} brought anything new (${what})` +
        (rapid ? ', fired back to back' : '') +
        (stuck ? `; afterwards: ${course.next}` : ''),
      facts,
    };
  }
  const found = facts.newValues.length > 0 ? ` (e.g. ${facts.newValues.slice(0, 3).join(', ')})` : '';
  if (stale === 0 && course.changed) {
    return {
      decision: 'no failure',
      confidence: course.usesNewInformation ? 0.15 : 0.2,
      reason: `each of the ${plural(later.length, 'repeated call')} brought new information${found}, then the run moved on to ${course.next}`,
      facts,
    };
  }
  const last = later[later.length - 1]!;
  if (facts.same === 0 && last.kind === 'new' && course.changed) {
    return {
      decision: 'no failure',
      confidence: 0.3,
      reason: `it searched until it found something (${what} before the last call brought new information${found}), then moved on to ${course.next}`,
      facts,
    };
  }
  const tail = later.slice(-2);
  if (tail.length === 2 && tail.every((d) => d.kind !== 'new') && tail.some((d) => d.kind === 'same')) {
    return {
      decision: 'failure',
      confidence: 0.75,
      reason: `the answers stopped changing: ${facts.new} of ${plural(later.length, 'repeated call')} brought new information, but the last two did not (${tail.map((d) => d.kind).join(', ')})`,
      facts,
    };
  }
  return {
    decision: 'undecided',
    reason: `${facts.new} of ${plural(later.length, 'repeated call')} brought new information, ${stale} did not (${what}); afterwards: ${course.next}`,
    facts,
  };
}
