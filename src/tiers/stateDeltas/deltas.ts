/**
 * Tier 2's reading of repeated tool calls (detection-tiers.md, "State delta analysis"): each call's
 * result compared with what the calls before it returned. Pure over the steps.
 *
 * - same: the result is one an earlier call of the same tool returned (normalised text, without
 *   its envelope: repetition.ts), or a JSON result from which three or more fields vanished;
 * - empty / error: the lookup found nothing, or the call failed;
 * - void: the call returned no value (an action's acknowledgement): neither progress nor not;
 * - new: a result no earlier call of the tool returned. That it holds no word the earlier results
 *   did not is not enough to call it nothing new: a test's output after an edit rearranges words
 *   it printed before, and says something else. The new tokens, ids and fields are kept as
 *   evidence (and to see whether the run used them);
 * - unrecorded: the trace did not keep the result.
 *
 * A call asks again (`repeatsRequest`) when it makes an earlier call's request (same or near-same
 * arguments) against the same state: a write between them (callStates.ts) makes it a new attempt,
 * which `askedBefore` still records (the same test re-run after an edit).
 *
 * Fields that vanished (keys of a JSON result missing from the previous result of the tool) are
 * counted too: three or more vanishing at once is the reference's disappearance signal, and such a
 * result is not taken as progress even if it holds new values.
 */
import { callStates } from '../../detect/detectors/structural/callStates.js';
import {
  callFacts,
  nearIdentical,
  outcomeOf,
  sameRequestAgain,
  type CallFacts,
  type OutcomeKind,
} from '../../detect/detectors/structural/repetition.js';
import { resultContent } from '../../detect/detectors/structural/resultEnvelope.js';
import { toolCalls } from '../../detect/detectors/structural/shared.js';
import type { Step, ToolStep, Trace } from '../../trace/schema.js';

export type DeltaKind = 'same' | 'empty' | 'error' | 'void' | 'new' | 'unrecorded';

export interface CallDelta {
  /** 1-based step number. */
  step: number;
  tool: string;
  kind: DeltaKind;
  /** What the call itself returned (a `same` delta may be a repeated value or a repeated error). */
  outcome: OutcomeKind;
  /**
   * It asks again what an earlier call of the tool asked (identical or near-identical arguments)
   * against the same state: nothing written in between.
   */
  repeatsRequest: boolean;
  /** It makes an earlier call's request, in whatever state (after a write: the same test re-run). */
  askedBefore: boolean;
  /** Values in the result no earlier result of the tool held (first few, for the evidence). */
  newValues: string[];
  newValueCount: number;
  fieldsAppeared: string[];
  fieldsVanished: string[];
}

/** Fields vanishing at once that make a result a regression, not progress (reference: "3+ fields"). */
const VANISHED_FIELDS = 3;
const SHOWN_VALUES = 5;
/** Tokens of a result looked at, at most (a 1 MB log is judged by its start). */
const MAX_TOKENS = 5000;

/** Words, ids and numbers of a text: runs of letters, digits and `_.-@:/` (a lone digit is a value too). */
function tokensOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}_](?:[\p{L}\p{N}_.\-@:/]*[\p{L}\p{N}_])?/gu)) {
    out.push(m[0].toLowerCase());
    if (out.length >= MAX_TOKENS) break;
  }
  return out;
}

/** Top-level keys of a JSON object result (given as an object or as JSON text), else undefined. */
function fieldsOf(result: unknown): string[] | undefined {
  let v = result;
  if (typeof v === 'string') {
    const t = v.trim();
    if (!t.startsWith('{')) return undefined;
    try {
      v = JSON.parse(t);
    } catch {
      return undefined;
    }
  }
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : undefined;
}

/**
 * Each step of `steps` (tool steps, in order) against the earlier ones of the same tool. The first
 * call of each tool has nothing before it: its kind is `new` when it returned something.
 */
export function callDeltas(trace: Trace, steps: readonly number[]): CallDelta[] {
  const seenTexts = new Map<string, Set<string>>();
  const seenTokens = new Map<string, Set<string>>();
  const lastFields = new Map<string, string[] | undefined>();
  const asked: CallFacts[] = [];
  const out: CallDelta[] = [];
  const states = callStates(trace);
  const position = new Map(toolCalls(trace).map((c, pos) => [c.no, pos]));
  for (const no of steps) {
    const step = trace.steps[no - 1];
    if (step?.type !== 'tool') continue;
    const o = outcomeOf(step);
    const request = callFacts({ step, no }, position.get(no) ?? -1);
    const earlier = asked.filter((a) => nearIdentical(a, request));
    const repeatsRequest = earlier.some((a) => sameRequestAgain(states, a.pos, request.pos));
    asked.push(request);
    const texts = seenTexts.get(step.name) ?? new Set<string>();
    const tokens = seenTokens.get(step.name) ?? new Set<string>();
    const fields = fieldsOf(resultContent(step.result).value);
    const before = lastFields.get(step.name);
    const appeared = fields && before ? fields.filter((f) => !before.includes(f)) : [];
    const vanished = fields && before ? before.filter((f) => !fields.includes(f)) : [];
    const fresh: string[] = [];
    let freshCount = 0;
    if ((o.kind === 'value' || o.kind === 'error') && !texts.has(o.text)) {
      for (const t of new Set(tokensOf(o.text))) {
        if (tokens.has(t)) continue;
        freshCount++;
        if (fresh.length < SHOWN_VALUES) fresh.push(t);
      }
    }
    const kind: DeltaKind =
      o.kind === 'unrecorded'
        ? 'unrecorded'
        : o.kind === 'error'
          ? texts.has(o.text)
            ? 'same'
            : 'error'
          : o.kind === 'empty' || o.kind === 'void'
            ? o.kind
            : texts.has(o.text) || vanished.length >= VANISHED_FIELDS
              ? 'same'
              : 'new';
    out.push({
      step: no,
      tool: step.name,
      kind,
      outcome: o.kind,
      repeatsRequest,
      askedBefore: earlier.length > 0,
      newValues: fresh,
      newValueCount: freshCount,
      fieldsAppeared: appeared,
      fieldsVanished: vanished,
    });
    texts.add(o.text);
    for (const t of tokensOf(o.text)) tokens.add(t);
    seenTexts.set(step.name, texts);
    seenTokens.set(step.name, tokens);
    if (fields) lastFields.set(step.name, fields);
  }
  return out;
}

/** What the run did after the repeated calls. */
export interface CourseAfter {
  /** A different tool, a request not among the repeated ones, or a final answer. */
  changed: boolean;
  /** "final answer", "tool X", "the same requests again", "nothing (the run ended)". */
  next: string;
  /** New information from the repeats shows up in the next call's arguments or the final answer. */
  usesNewInformation: boolean;
}

const argsText = (s: ToolStep): string => (s.args === undefined ? '' : JSON.stringify(s.args));

function finalAnswer(trace: Trace, after: number): string | undefined {
  if (typeof trace.output === 'string' && trace.output.trim()) return trace.output;
  if (trace.output !== undefined && trace.output !== null) return JSON.stringify(trace.output);
  for (let i = trace.steps.length - 1; i > after; i--) {
    const s: Step = trace.steps[i]!;
    if (s.type !== 'llm' || s.output === undefined) continue;
    const content = typeof s.output === 'string' ? s.output : s.output.content;
    if (typeof content === 'string' && content.trim()) return content;
  }
  return undefined;
}

export function courseAfter(
  trace: Trace,
  steps: readonly number[],
  deltas: readonly CallDelta[],
): CourseAfter {
  const last = Math.max(...steps);
  const requests = new Set(
    steps
      .map((no) => trace.steps[no - 1])
      .flatMap((s) => (s?.type === 'tool' ? [`${s.name} ${argsText(s)}`] : [])),
  );
  const found = new Set(deltas.flatMap((d) => d.newValues));
  const uses = (text: string) => {
    const t = new Set(tokensOf(text));
    for (const v of found) if (t.has(v)) return true;
    return false;
  };
  for (let i = last; i < trace.steps.length; i++) {
    const s = trace.steps[i]!;
    if (s.type !== 'tool') continue;
    const again = requests.has(`${s.name} ${argsText(s)}`);
    return {
      changed: !again,
      next: again ? 'the same requests again' : `tool ${s.name}`,
      usesNewInformation: uses(argsText(s)),
    };
  }
  const answer = finalAnswer(trace, last - 1);
  if (answer !== undefined) return { changed: true, next: 'final answer', usesNewInformation: uses(answer) };
  return { changed: false, next: 'nothing (the run ended)', usesNewInformation: false };
}

/** Calls per minute over the repeated calls, when their start times were recorded. */
export function callsPerMinute(trace: Trace, steps: readonly number[]): number | undefined {
  const times = steps
    .map((no) => trace.steps[no - 1]?.startedAt)
    .map((t) => (t === undefined ? NaN : Date.parse(t)))
    .filter((t) => Number.isFinite(t));
  if (times.length < 2 || times.length < steps.length) return undefined;
  const spanMs = Math.max(...times) - Math.min(...times);
  return spanMs > 0 ? ((times.length - 1) * 60_000) / spanMs : undefined;
}

/** No LLM call between consecutive repeated calls: the calls were fired without the model reading results. */
export function backToBack(trace: Trace, steps: readonly number[]): boolean {
  const sorted = [...steps].sort((a, b) => a - b);
  for (let k = 1; k < sorted.length; k++) {
    for (let no = sorted[k - 1]! + 1; no < sorted[k]!; no++)
      if (trace.steps[no - 1]?.type === 'llm') return false;
  }
  return true;
}
