/**
 * TOOL_THRASHING: the agent alternates between exactly two tools, A, B, A, B, …, for at least
 * `min_alternations` consecutive tool calls (only tool steps count; LLM steps in between do not
 * break the run) — and gets nowhere. A third tool, or the same tool twice in a row, ends the run.
 *
 * Alternating is how most agents work (edit the file, run the script; look up a reservation,
 * cancel it), so the two names prove nothing: it is thrashing only when neither tool makes
 * progress. A call makes no progress when
 * - it writes, and its write took the run back to a state it had been in (the same edit redone,
 *   an edit undone: callStates.ts), or it is a failed write made before, identically, in the same
 *   state (the same edit rejected again);
 * - it writes nothing and repeats an earlier call (same or near-same arguments, repetition.ts)
 *   made against the same state, with the same outcome.
 * Anything else is progress: a new edit, a new request, a known request after something changed,
 * an answer that differs. A stretch of `min_alternations` or more calls in a row with no progress
 * is a finding — 0.92 when every call repeats an earlier one exactly, 0.85 otherwise. Where such
 * a stretch is long enough only when calls whose results were not recorded count as stuck, the
 * gray zone (0.55), for tier 2. Where the trace records no arguments, what repeats is unknown and
 * the names are all there is: the reference's rule (0.76; 0.88 at twice the minimum).
 *
 * Waste: the LLM calls that issued the calls of the stretch with no progress (issuingCalls.ts: not
 * a call that also issued calls outside it in the same batch). The runner prices them.
 */
import { z } from 'zod';
import { defineDetector, type SignalDraft } from '../../detector.js';
import type { Trace } from '../../../trace/schema.js';
import { callStates, type CallStates } from './callStates.js';
import { callFacts, findRepeats, type CallFacts } from './repetition.js';
import { plural, stepSpan, toolCalls, type ToolCall } from './shared.js';
import { chargeEvidence, issuingCalls } from './issuingCalls.js';
import { wastePriority } from '../../wastePriority.js';

/** How far back (in tool calls) a call is compared: an edit undone and redone is 4 calls back. */
const LOOKBACK = 8;

type Progress = 'progress' | 'stuck' | 'unknown';

/** What each call of calls[start, end) brought, against the calls before it. */
function progressOf(calls: readonly ToolCall[], start: number, end: number, states: CallStates): Progress[] {
  const from = Math.max(0, start - LOOKBACK);
  const facts: (CallFacts | undefined)[] = new Array(end);
  for (let p = from; p < end; p++) facts[p] = callFacts(calls[p]!, p);
  const repeats = findRepeats(facts, LOOKBACK + 1, states);
  const progressAt = (p: number): Progress => {
    // A write that moved the run on is progress; one that took it back (redone, undone) is not.
    if (states.effect[p] === 'new') return 'progress';
    if (states.effect[p] === 'seen') return 'stuck';
    // Anything else: stuck when it asks again, in the same state, what it asked, and hears the same.
    const r = repeats[p];
    if (!r) return 'progress';
    if (facts[p]!.outcome.kind === 'unrecorded' || facts[r.of]!.outcome.kind === 'unrecorded')
      return 'unknown';
    return r.same ? 'stuck' : 'progress';
  };
  const out: Progress[] = [];
  for (let p = start; p < end; p++) out.push(progressAt(p));
  return out;
}

/** The longest stretch of consecutive entries `counts` accepts: [first, last + 1) offsets. */
function longestStretch(progress: readonly Progress[], counts: (p: Progress) => boolean): [number, number] {
  let best: [number, number] = [0, 0];
  let a = 0;
  for (let i = 0; i <= progress.length; i++) {
    if (i < progress.length && counts(progress[i]!)) continue;
    if (i - a > best[1] - best[0]) best = [a, i];
    a = i + 1;
  }
  return best;
}

/** The signal of one alternation calls[start, end) between tools a and b, or none. */
function judge(
  trace: Trace,
  calls: readonly ToolCall[],
  start: number,
  end: number,
  min: number,
): SignalDraft | undefined {
  const run = calls.slice(start, end);
  const a = run[0]!.step.name;
  const b = run[1]!.step.name;
  const len = run.length;
  const alternated = `alternated between ${a} and ${b} for ${plural(len, 'consecutive tool call')}`;
  const evidence = { tools: [a, b], calls: len, minAlternations: min };
  if (run.some((c) => c.step.args === undefined)) {
    const steps = run.map((c) => c.no);
    return {
      severity: 'high',
      confidence: len >= 2 * min ? 0.88 : 0.76,
      steps,
      message: `${alternated} (${stepSpan(steps)}); arguments not recorded, so what repeated is unknown`,
      evidence: { ...evidence, judgedBy: 'name', ...chargeEvidence(issuingCalls(trace, steps.slice(2))) },
    };
  }
  const progress = progressOf(calls, start, end, callStates(trace));
  const [s0, s1] = longestStretch(progress, (p) => p === 'stuck');
  const [u0, u1] = longestStretch(progress, (p) => p !== 'progress');
  const finding = s1 - s0 >= min;
  if (!finding && u1 - u0 < min) return undefined;
  const [first, last] = finding ? [s0, s1] : [u0, u1];
  const stretch = run.slice(first, last);
  const steps = stretch.map((c) => c.no);
  const exact = stretch.every((c, i) => {
    const p = start + first + i;
    return calls
      .slice(Math.max(0, p - LOOKBACK), p)
      .some((e) => e.step.name === c.step.name && sameArgs(e, c));
  });
  return {
    severity: 'high',
    confidence: !finding ? 0.55 : exact ? 0.92 : 0.85,
    steps,
    message:
      `${alternated} (${stepSpan(run.map((c) => c.no))}), ` +
      (finding
        ? `${plural(stretch.length, 'call')} in a row making no progress (${stepSpan(steps)}): ` +
          `the same ${exact ? 'requests' : 'or near-same requests'} with the same results, or edits redone and undone`
        : `${plural(stretch.length, 'call')} in a row repeating earlier requests whose results were not recorded (${stepSpan(steps)})`),
    evidence: {
      ...evidence,
      judgedBy: 'progress',
      callsWithoutProgress: stretch.length,
      identicalRepeats: exact,
      ...chargeEvidence(issuingCalls(trace, steps)),
    },
  };
}

const sameArgs = (x: ToolCall, y: ToolCall): boolean =>
  JSON.stringify(x.step.args) === JSON.stringify(y.step.args);

export const toolThrashing = defineDetector({
  meta: {
    id: 'TOOL_THRASHING',
    configKey: 'tool_thrashing',
    tier: 1,
    kind: 'structural',
    severity: 'high',
    failureMode: 'loop',
    description: 'Agent alternates between exactly two tools without making progress',
    priority: wastePriority('TOOL_THRASHING'),
    wasteRule:
      'the LLM calls that issued the calls of the alternation that made no progress; not a call that also issued other calls',
    fix: 'give the agent a decision rule between the two tools, and stop or escalate after a few switches',
    rule: 'The agent alternates between two tools (A, B, A, B, …) for `min_alternations` tool calls in a row, and neither makes progress: every call of a stretch that long repeats an earlier request made against the same state with the same result, or redoes or undoes an earlier edit. Alternating while getting somewhere (edit the file, run the script, edit again; look up a reservation, cancel it, look up the next) is how agents work: no signal. Where arguments are not recorded, the alternation alone fires.',
    config: z.object({
      min_alternations: z
        .number()
        .int()
        .min(3)
        .default(4)
        .describe(
          'Consecutive tool calls alternating between two tools (A,B,A,B = 4) without progress that count as thrashing',
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
      if (end - start >= min) {
        const signal = judge(trace, calls, start, end, min);
        if (signal) out.push(signal);
      }
      // The last call of a run can begin the next alternation (A,B,A,B,C,B,C,B).
      start = end - 1;
    }
    return out;
  },
});
