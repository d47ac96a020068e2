/**
 * What a tool call repeats: the loop detectors judge a run by what it asked again and what came
 * back, not by the tool's name. A single-tool agent (`bash`, `python`, a browser) calls its one tool
 * every step; iterating over distinct entities calls one tool with a new id each time. Neither is a
 * loop. The same or a near-same call that gets the same outcome is.
 *
 * - Arguments are compared normalised: object keys sorted, whitespace in strings collapsed. Shell
 *   flags are not reordered (`-n 5 -e x` and `-e x -n 5` stay different: reordering changes the
 *   meaning of many commands).
 * - Two calls are near-identical when they have the same argument fields and every field that
 *   differs is free text (it contains a space) whose characters mostly agree (bigram similarity
 *   ≥ 0.9, and about a dozen characters different at most: a rewritten 500-character script is a
 *   new request however alike) and whose numbers are the same: `python reproduce.py` and
 *   `python3 reproduce.py`. A field
 *   that is a single token (an id, a name, a date, a number) is an entity, and so are the numbers in
 *   a text (line ranges, amounts, dates: `sed -n '100,130p' f` then `sed -n '330,360p' f` pages
 *   through a file): calls that differ in one are about different things.
 * - An outcome is the error or result text without its envelope (resultEnvelope.ts: a LangChain
 *   `ToolMessage` is its content, ids of the call and timestamps are not part of it), whitespace
 *   collapsed and memory addresses masked (`0x7f3a…` differs run to run). A lookup that found
 *   nothing is `empty` (`[]`, `{}`, "no results", "not found"); a call that returned no value is
 *   `void` (blank, null/None — an action's acknowledgement, or a markup envelope with no words in
 *   it such as `<returncode>0</returncode><output></output>`: a command that succeeded silently).
 * - A call repeats an earlier one only when it ran against the same state (callStates.ts): a test
 *   re-run after an edit is a new attempt, whatever it prints. A write repeats only the identical
 *   write (its content is the point); readings may be near-identical.
 *
 * Pure helpers shared by TOOL_LOOP, TOOL_THRASHING and RETRY_STORM and by tier 2's rules.
 */
import type { ToolStep } from '../../../trace/schema.js';
import { dict } from '../../../util/dict.js';
import { sameState, type CallStates } from './callStates.js';
import { maskVolatile, resultContent } from './resultEnvelope.js';
import { stableJson, type ToolCall } from './shared.js';

export type OutcomeKind = 'error' | 'empty' | 'void' | 'value' | 'unrecorded';

export interface Outcome {
  kind: OutcomeKind;
  /** The error or result as normalised text ('' when unrecorded). */
  text: string;
}

/** A tool call with its arguments and outcome normalised for comparison. */
export interface CallFacts {
  /** 1-based step number. */
  no: number;
  /** Position in the run's sequence of tool calls. */
  pos: number;
  name: string;
  /** False when the trace did not record the arguments. */
  recorded: boolean;
  /** Tool name and normalised arguments: equal keys are the same request. */
  key: string;
  /** The arguments with whitespace collapsed (for near-identity). */
  readonly args: unknown;
  /** The arguments' leaves by path, worked out when first compared. */
  readonly leaves: Map<string, unknown>;
  readonly outcome: Outcome;
}

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** Strings with whitespace collapsed, at any depth (keys are sorted later by stableJson). */
function collapseStrings(v: unknown): unknown {
  if (typeof v === 'string') return collapse(v);
  if (Array.isArray(v)) return v.map(collapseStrings);
  if (v !== null && typeof v === 'object') {
    // Keys come from the trace: a `__proto__` argument stays a key.
    const out = dict<unknown>();
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = collapseStrings(x);
    return out;
  }
  return v;
}

/** Longest text kept of an outcome: enough to tell results apart, bounded for huge outputs. */
const MAX_OUTCOME_CHARS = 20_000;
const EMPTY_TEXT = /^(?:\[\]|\{\}|no results?(?: found)?\.?|not found\.?|nothing found\.?)$/i;
const VOID_TEXT = /^(?:|none|null|undefined|""|'')$/i;
const HEX_ADDRESS = /\b0x[0-9a-f]{6,}\b/gi;

function textOf(v: unknown): string {
  if (v === undefined || v === null) return '';
  const raw = typeof v === 'string' ? v : JSON.stringify(v);
  const text = maskVolatile(collapse(raw.length > MAX_OUTCOME_CHARS ? raw.slice(0, MAX_OUTCOME_CHARS) : raw));
  return text.includes('0x') ? text.replace(HEX_ADDRESS, '0x…') : text;
}

/** Longest markup taken for an empty envelope (one around output would be longer). */
const MAX_ENVELOPE_CHARS = 200;

/** Markup with no words between the tags: a harness's envelope around nothing. */
function isEmptyEnvelope(text: string): boolean {
  if (text.length > MAX_ENVELOPE_CHARS || !text.includes('<')) return false;
  const inner = text.replace(/<[^>]*>/g, ' ');
  return inner !== text && !/\p{L}/u.test(inner);
}

export function outcomeOf(step: ToolStep): Outcome {
  if (step.status === 'error')
    return { kind: 'error', text: textOf(step.error ?? resultContent(step.result).value) };
  if (step.result === undefined) return { kind: 'unrecorded', text: '' };
  const content = resultContent(step.result);
  if (content.failed) return { kind: 'error', text: textOf(content.value) };
  const text = textOf(content.value);
  const kind =
    VOID_TEXT.test(text) || isEmptyEnvelope(text) ? 'void' : EMPTY_TEXT.test(text) ? 'empty' : 'value';
  return { kind, text };
}

/**
 * How many calls after the first brought back a value or an error no earlier call returned, of
 * those that returned anything (calls with no value — an action done — are left out; an empty
 * lookup is never new). With the state each call ran against (callStates.ts), a result is compared
 * only with those of the same state: the same test failure after an edit is a new attempt's answer.
 */
export function newResults(
  calls: readonly ToolCall[],
  stateOf?: readonly number[],
): { fresh: number; of: number } {
  const seen = new Set<string>();
  let fresh = 0;
  let of = 0;
  calls.forEach(({ step }, i) => {
    const o = outcomeOf(step);
    if (o.kind === 'void') return;
    const key = stateOf ? `${stateOf[i]}\u0000${o.text}` : o.text;
    if (i > 0) {
      of++;
      if ((o.kind === 'value' || o.kind === 'error') && !seen.has(key)) fresh++;
    }
    seen.add(key);
  });
  return { fresh, of };
}

/** Whitespace a request's JSON would lose when normalised: runs, newlines, tabs, at a string's ends. */
const LOOSE_WHITESPACE = /\s\s|[\t\n\r\f\v]|\\[ntr]|"\s|\s"/;

/** The facts of one call, each worked out when first asked for (most calls are never compared). */
class Facts implements CallFacts {
  readonly no: number;
  readonly recorded: boolean;
  readonly name: string;
  readonly key: string;
  private readonly step: ToolStep;
  private normalised: unknown;
  private argLeaves: Map<string, unknown> | undefined;
  private result: Outcome | undefined;

  constructor(
    call: ToolCall,
    readonly pos: number,
  ) {
    this.step = call.step;
    this.no = call.no;
    this.name = call.step.name;
    this.recorded = call.step.args !== undefined;
    let json = this.recorded ? stableJson(call.step.args) : '';
    // Most requests are already tidy: their arguments are copied only when whitespace must go.
    if (this.recorded && LOOSE_WHITESPACE.test(json)) {
      this.normalised = collapseStrings(call.step.args);
      json = stableJson(this.normalised);
    } else this.normalised = call.step.args;
    this.key = `${this.name}\u0000${json}`;
  }

  get args(): unknown {
    return this.normalised;
  }

  get leaves(): Map<string, unknown> {
    return (this.argLeaves ??= leaves(this.normalised));
  }

  get outcome(): Outcome {
    return (this.result ??= outcomeOf(this.step));
  }
}

export function callFacts(call: ToolCall, pos: number): CallFacts {
  return new Facts(call, pos);
}

/** Leaves of a JSON value by path ("/flights/0/date" → "2024-05-13"), strings as they are. */
function leaves(v: unknown, path = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) out.set(path, Array.isArray(v) ? '[]' : '{}');
    for (const [k, x] of entries) leaves(x, `${path}/${k}`, out);
  } else out.set(path, v);
  return out;
}

const isFreeText = (v: unknown): v is string => typeof v === 'string' && v.includes(' ');

/** Longest text compared character by character (a 200 kB heredoc is compared by its start). */
const MAX_COMPARED_CHARS = 4000;

/**
 * A text's character bigrams as sorted numbers. Each request is compared with the few before it,
 * so the last few hundred texts' bigrams are kept rather than counted again for every pair.
 */
const bigramCache = new Map<string, Int32Array>();
const BIGRAM_CACHE_SIZE = 256;

function bigramsOf(text: string): Int32Array {
  const t = text.length > MAX_COMPARED_CHARS ? text.slice(0, MAX_COMPARED_CHARS) : text;
  let grams = bigramCache.get(t);
  if (grams) return grams;
  grams = new Int32Array(Math.max(0, t.length - 1));
  for (let i = 0; i < grams.length; i++) grams[i] = (t.charCodeAt(i) << 16) | t.charCodeAt(i + 1);
  grams.sort();
  if (bigramCache.size >= BIGRAM_CACHE_SIZE) bigramCache.delete(bigramCache.keys().next().value!);
  bigramCache.set(t, grams);
  return grams;
}

/** Dice coefficient of character bigrams: 1 for equal texts, near 0 for unrelated ones. */
export function textSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const x = bigramsOf(a);
  const y = bigramsOf(b);
  if (x.length === 0 || y.length === 0) return 0;
  let shared = 0;
  for (let i = 0, j = 0; i < x.length && j < y.length;) {
    if (x[i] === y[j]) {
      shared++;
      i++;
      j++;
    } else if (x[i]! < y[j]!) i++;
    else j++;
  }
  return (2 * shared) / (x.length + y.length);
}

/**
 * The numbers of a text, in order: what differs between two requests for different things (line
 * ranges, amounts, dates). Digits that end a name (`python3`, `utf8`) are part of the name.
 */
const numbersCache = new Map<string, string>();

function numbersOf(text: string): string {
  let out = numbersCache.get(text);
  if (out !== undefined) return out;
  out = numbersIn(text);
  if (numbersCache.size >= BIGRAM_CACHE_SIZE) numbersCache.delete(numbersCache.keys().next().value!);
  numbersCache.set(text, out);
  return out;
}

function numbersIn(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (!isDigit(text.charCodeAt(i))) continue;
    const start = i;
    while (i + 1 < text.length && isDigit(text.charCodeAt(i + 1))) i++;
    if (start === 0 || !isNamePart(text.charAt(start - 1))) out += `${text.slice(start, i + 1)},`;
  }
  return out;
}

const isDigit = (c: number) => c >= 48 && c <= 57;
/** A letter or underscore: digits right after one end a name (`python3`). */
const isNamePart = (ch: string): boolean => ch === '_' || /\p{L}/u.test(ch);

/** Free-text fields at least this similar make two calls near-identical. */
const NEAR_IDENTICAL = 0.9;
/** … and differ in about this many characters at most (a flag, a `3` after `python`, a `./`). */
const NEAR_IDENTICAL_CHARS = 12;

/** About how many characters two texts differ in: their dissimilarity times their mean length. */
const differingChars = (a: string, b: string, similarity: number): number =>
  ((1 - similarity) * (a.length + b.length)) / 2;

/**
 * Same argument fields, and every field that differs is free text at least NEAR_IDENTICAL similar.
 * Unrecorded arguments are never near-identical.
 */
export function nearIdentical(a: CallFacts, b: CallFacts): boolean {
  if (!a.recorded || !b.recorded || a.name !== b.name) return false;
  if (a.key === b.key) return true;
  // Texts this different in length cannot reach the similarity (Dice ≤ 2·short / (short + long)).
  const [short, long] = a.key.length < b.key.length ? [a.key, b.key] : [b.key, a.key];
  if (short.length < 0.8 * long.length) return false;
  const la = a.leaves;
  const lb = b.leaves;
  if (la.size !== lb.size) return false;
  let differs = false;
  for (const [path, x] of la) {
    if (!lb.has(path)) return false;
    const y = lb.get(path);
    if (x === y) continue;
    if (!isFreeText(x) || !isFreeText(y) || numbersOf(x) !== numbersOf(y)) return false;
    const similarity = textSimilarity(x, y);
    if (similarity < NEAR_IDENTICAL || differingChars(x, y, similarity) > NEAR_IDENTICAL_CHARS) return false;
    differs = true;
  }
  return differs;
}

/** Two outcomes a caller could not tell apart. Unrecorded outcomes are alike only for identical calls. */
export function sameOutcome(a: CallFacts, b: CallFacts): boolean {
  if (a.outcome.kind === 'unrecorded' || b.outcome.kind === 'unrecorded')
    return a.key === b.key && a.outcome.kind === b.outcome.kind;
  return a.outcome.kind === b.outcome.kind && a.outcome.text === b.outcome.text;
}

/** A call that asks again what a call shortly before it asked. */
export interface Repeat {
  /** Position (in the tool-call sequence) of the earlier call it repeats. */
  of: number;
  /** Identical arguments (else near-identical). */
  exact: boolean;
  /** It got the same outcome as that call (for near-identical calls: the same non-empty outcome). */
  same: boolean;
}

/**
 * For each call, the earlier call it repeats within `window` tool calls (itself included), if any:
 * preferring one with the same outcome, then identical arguments, then the nearest. `facts[p]` may
 * be undefined for calls no other call of the same tool is near (they repeat nothing). With the
 * run's `states`, a call repeats only a call that ran against the same state, and a write only
 * the identical write.
 */
export function findRepeats(
  facts: readonly (CallFacts | undefined)[],
  window: number,
  states?: CallStates,
): (Repeat | undefined)[] {
  const out: (Repeat | undefined)[] = new Array(facts.length);
  for (let p = 0; p < facts.length; p++) {
    const call = facts[p];
    if (!call?.recorded) continue;
    let best: Repeat | undefined;
    for (let i = p - 1; i >= 0 && i > p - window; i--) {
      const earlier = facts[i];
      if (!earlier?.recorded || earlier.name !== call.name) continue;
      if (states && !sameRequestAgain(states, earlier.pos, call.pos)) continue;
      const exact = earlier.key === call.key;
      if (!exact && !nearIdentical(earlier, call)) continue;
      const same =
        sameOutcome(earlier, call) &&
        (exact || call.outcome.kind === 'error' || call.outcome.kind === 'value');
      const better = !best || (same && !best.same) || (same === best.same && exact && !best.exact);
      if (better) best = { of: i, exact, same };
    }
    out[p] = best;
  }
  return out;
}

/**
 * The call at position q may repeat the one at p: it ran against the state p ran against or left,
 * and when either writes, both are the same write.
 */
export function sameRequestAgain(states: CallStates, p: number, q: number): boolean {
  if (!sameState(states, p, q)) return false;
  const a = states.writeKey[p]!;
  const b = states.writeKey[q]!;
  return a === b;
}

/** A stretch of calls that repeat earlier ones: the loop TOOL_LOOP reports. */
export interface RepeatLoop {
  /** Positions of the calls that repeat an earlier one, in order. */
  repeats: number[];
  /**
   * The repeats that got the same outcome, of requests made ≥ threshold times with that outcome in
   * the stretch (a call retried until it worked: the failed attempts, not the success).
   */
  core: number[];
  /** Positions of every call involved (the repeats and the calls they repeat), in order. */
  calls: number[];
  /** Positions in the stretch that are neither: new requests made between the repeats. */
  fresh: number[];
}

/**
 * Repeats chained at most `window − 1` tool calls apart form a stretch; it is a loop when one
 * request was made at least `threshold` times in it, or at least `threshold` calls in it repeated
 * an earlier one (a round of calls made again).
 */
export function repeatLoops(
  repeats: readonly (Repeat | undefined)[],
  facts: readonly (CallFacts | undefined)[],
  threshold: number,
  window: number,
): RepeatLoop[] {
  const loops: RepeatLoop[] = [];
  let stretch: number[] = [];
  const close = () => {
    if (stretch.length === 0) return;
    const members = stretch;
    stretch = [];
    // Requests made several times: each repeat joins the group of the call it repeats.
    const group = new Map<number, number>();
    const size = new Map<number, number>();
    let largest = 0;
    for (const p of members) {
      const of = repeats[p]!.of;
      let root = group.get(of);
      if (root === undefined) {
        root = of;
        group.set(of, of);
        size.set(of, 1);
      }
      group.set(p, root);
      const n = size.get(root)! + 1;
      size.set(root, n);
      if (n > largest) largest = n;
    }
    if (largest < threshold && members.length < threshold) return;
    const involved = new Set<number>(members);
    for (const p of members) involved.add(repeats[p]!.of);
    const calls = [...involved].sort((a, b) => a - b);
    const fresh: number[] = [];
    for (let q = calls[0]!; q <= calls[calls.length - 1]!; q++) if (!involved.has(q)) fresh.push(q);
    // Calls of one request that got one outcome: the request and the outcome text together.
    const sameAnswer = new Map<string, number>();
    const answerOf = (p: number) => `${group.get(p)!}\u0000${facts[p]!.outcome.text}`;
    for (const p of group.keys()) sameAnswer.set(answerOf(p), (sameAnswer.get(answerOf(p)) ?? 0) + 1);
    const core = members.filter((p) => repeats[p]!.same && sameAnswer.get(answerOf(p))! >= threshold);
    loops.push({ repeats: members, core, calls, fresh });
  };
  for (let p = 0; p < repeats.length; p++) {
    if (!repeats[p]) continue;
    const last = stretch[stretch.length - 1];
    if (last !== undefined && p - last >= window) close();
    stretch.push(p);
  }
  close();
  return loops;
}

/** An error's text with numbers masked: "total price is 1203" and "total price is 375" are one error. */
const errorShape = (o: Outcome): string => o.text.replace(/\d+/g, '#');

/** Free-text arguments less alike than this are different programs or queries, not a retry. */
const RETRY_SIMILARITY = 0.5;

/**
 * A failed call that retries the failed call before it: the same error (numbers aside), or the same
 * operation again — its arguments differ at most in entity values (another id, URL, card) or in
 * free text at least RETRY_SIMILARITY alike. Three different shell commands that each exit 1 are not
 * retries of one another; the same booking resubmitted with another card is, and so is a fetch of
 * another page from a service that keeps timing out.
 */
export function retries(earlier: CallFacts, call: CallFacts): boolean {
  if (earlier.name !== call.name) return false;
  if (errorShape(earlier.outcome) === errorShape(call.outcome)) return true;
  if (!earlier.recorded || !call.recorded || earlier.key === call.key) return true;
  const la = earlier.leaves;
  const lb = call.leaves;
  for (const [path, x] of la) {
    const y = lb.get(path);
    if (x !== y && isFreeText(x) && isFreeText(y) && textSimilarity(x, y) < RETRY_SIMILARITY) return false;
  }
  return true;
}
