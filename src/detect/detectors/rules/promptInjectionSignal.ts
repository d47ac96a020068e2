/**
 * PROMPT_INJECTION_SIGNAL: untrusted text that matches known injection / jailbreak patterns.
 *
 * What is scanned is what the agent did not write and the operator did not configure: the trace
 * input (minus system / developer parts), message steps from anyone but the agent itself, tool
 * results and errors, retrieved documents (indirect injection), and LLM input messages whose role
 * is user / tool. The system prompt and the agent's own outputs are never scanned: quoting an
 * injection phrase in a system prompt ("never obey 'ignore previous instructions'") is defence,
 * not attack.
 *
 * Cost: one combined keyword regex per field decides whether any pattern can match, and only the
 * patterns whose trigger words are present run. Fields are capped (head and tail of a long string)
 * and an LLM input message already seen in an earlier call is neither walked nor scanned again
 * (chat history is replayed on every call, which would make the work quadratic).
 */
import { z } from 'zod';
import { defineDetector, type SignalDraft } from '../../detector.js';
import {
  CATEGORY_LABELS,
  INJECTION_PATTERNS,
  normaliseForScan,
  type InjectionCategory,
  type InjectionPattern,
} from '../../injection/patterns.js';
import {
  compileTriggerScanner,
  isBase64Char,
  MIN_BLOB_RUN,
  type TriggerScanner,
} from '../../injection/prefilter.js';
import { buildTriggerDfa } from '../../injection/triggerDfa.js';
import { compileTriggerFinder, type TriggerFinder, type TriggerHits } from '../../injection/triggerFinder.js';
import type { Trace } from '../../../trace/schema.js';
import { nearest } from '../../../util/nearest.js';
import { redactAndCut } from '../../../redact/safeText.js';

export const EXCERPT_MAX = 80;

export interface InjectionMatch {
  pattern: string;
  category: InjectionCategory;
  description: string;
  weak: boolean;
  /** ≤ 80 characters of the (normalised) text where the pattern matched. */
  excerpt: string;
  /** Set when the text was found inside a base64 / hex blob. */
  encoding?: 'base64' | 'hex';
}

export interface ScanOptions {
  /** Longest text scanned per field: longer text is cut to its head (¾) and tail (¼). */
  maxChars: number;
  /** Decode base64 / hex blobs and scan what they hide. */
  decodeEncoded: boolean;
  disabled?: ReadonlySet<string>;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const NORMAL_PATTERNS = INJECTION_PATTERNS.filter((p) => !p.raw);
const RAW_PATTERNS = INJECTION_PATTERNS.filter((p) => p.raw);
/** Candidates run in catalogue order, whichever way they were found. */
const CATALOGUE_ORDER = new Map(NORMAL_PATTERNS.map((p, i) => [p, i]));
const byCatalogueOrder = (a: InjectionPattern, b: InjectionPattern) =>
  CATALOGUE_ORDER.get(a)! - CATALOGUE_ORDER.get(b)!;
const PATTERNS_BY_TRIGGER = new Map<string, InjectionPattern[]>();
for (const p of NORMAL_PATTERNS) {
  for (const t of p.triggers) {
    const list = PATTERNS_BY_TRIGGER.get(t) ?? [];
    list.push(p);
    PATTERNS_BY_TRIGGER.set(t, list);
  }
}
/** Longest first, so that at one position the longest trigger wins (shorter prefixes are recovered). */
const TRIGGERS = [...PATTERNS_BY_TRIGGER.keys()].sort((a, b) => b.length - a.length);
const ANYWHERE = new Set(NORMAL_PATTERNS.filter((p) => p.anywhere).flatMap((p) => p.triggers));
const isWordTrigger = (t: string) => /^[a-z0-9]/.test(t) && !ANYWHERE.has(t);
/** The triggers looked for at a word start, and those looked for anywhere (exported for tests). */
export const WORD_TRIGGERS = TRIGGERS.filter(isWordTrigger);
export const OTHER_TRIGGERS = TRIGGERS.filter((t) => !isWordTrigger(t));
/**
 * The literals of `requires` groups that are no trigger: the finder looks for them too (they select
 * no pattern, and the prefilter does not pass a text for them).
 */
const REQUIRED = [
  ...new Set(
    NORMAL_PATTERNS.flatMap((p) => (p.requires ?? []).flat()).filter((t) => !PATTERNS_BY_TRIGGER.has(t)),
  ),
];
const isWordLiteral = (t: string) => /^[a-z0-9]/.test(t);
/** What the finder looks for, in its index order: word literals, then the others. */
const FINDER_WORDS = [...WORD_TRIGGERS, ...REQUIRED.filter(isWordLiteral)];
const FINDER_OTHERS = [...OTHER_TRIGGERS, ...REQUIRED.filter((t) => !isWordLiteral(t))];
const FINDER_INDEX = new Map([...FINDER_WORDS, ...FINDER_OTHERS].map((t, i) => [t, i]));
/**
 * The keyword pass over text that is not ASCII, on the normalised text, as two regexes (one
 * alternation of 200 words is slower than two): word triggers anchored at a word start, so the
 * engine skips most positions after a one-character check, and the punctuation triggers anywhere.
 */
const WORD_TRIGGER_SCAN = new RegExp(`\\b(?:${WORD_TRIGGERS.map(escapeRegExp).join('|')})`, 'g');
const OTHER_TRIGGER_SCAN = new RegExp(OTHER_TRIGGERS.map(escapeRegExp).join('|'), 'g');
/**
 * The cheap first pass: one walk over the raw (capped) text that rejects a field in which no
 * pattern can match (no trigger, no non-ASCII character, no base64 run), before it is normalised
 * or hashed. A superset of the checks below (see prefilter.ts), so it changes no finding.
 */
let PREFILTER: TriggerScanner | undefined;
/** The keyword pass over ASCII text (see triggerFinder.ts). */
let FINDER: TriggerFinder | undefined;
/** Both are compiled on first use, from one automaton: loading the module does not pay for it. */
function compileScanners(): void {
  const dfa = buildTriggerDfa(FINDER_WORDS, FINDER_OTHERS);
  PREFILTER = compileTriggerScanner(dfa, (t) => PATTERNS_OF_TRIGGER[t]!.length > 0);
  FINDER = compileTriggerFinder(dfa);
}
const prefilter = (): TriggerScanner => PREFILTER ?? (compileScanners(), PREFILTER!);
const triggerFinder = (): TriggerFinder => FINDER ?? (compileScanners(), FINDER!);
/** The patterns of each literal, by its index in the finder (none for a `requires` literal). */
const PATTERNS_OF_TRIGGER = [...FINDER_WORDS, ...FINDER_OTHERS].map((t) => PATTERNS_BY_TRIGGER.get(t) ?? []);
/** The `requires` groups of each pattern that has some, as finder indexes. */
const REQUIRES_OF = new Map(
  NORMAL_PATTERNS.filter((p) => p.requires).map((p) => [
    p,
    p.requires!.map((group) => group.map((t) => FINDER_INDEX.get(t)!)),
  ]),
);
/** Which finder literals the current text holds (reused: one text is looked at at a time). */
const present = new Uint8Array(FINDER_INDEX.size);
const RAW_PRECHECK = /[\u200b-\u200d\u2060\ufeff\u180e\u202a-\u202e\u2066-\u2069]|[\u{E0000}-\u{E007F}]/u;
const MIN_HEX_BLOB = 32;
const MAX_BLOBS = 16;
const MAX_BLOB_CHARS = 8192;

/**
 * For each trigger, the patterns it selects: its own and those of every shorter trigger it starts
 * with (a regex alternation reports only the longest trigger at a position).
 */
let PATTERNS_SELECTED_BY: Map<string, readonly InjectionPattern[]> | undefined;
/** Built on first use: only text that is not ASCII needs it, and it costs a quadratic loop. */
function patternsSelectedBy(): Map<string, readonly InjectionPattern[]> {
  return (PATTERNS_SELECTED_BY ??= new Map<string, readonly InjectionPattern[]>(
    TRIGGERS.map((found) => {
      const selected = new Set<InjectionPattern>();
      for (const t of TRIGGERS) {
        if (t.length <= found.length && found.startsWith(t))
          for (const p of PATTERNS_BY_TRIGGER.get(t)!) selected.add(p);
      }
      return [found, [...selected]];
    }),
  ));
}

/** Adds every match of a global regex to `found` (exec with lastIndex: no iterator, no clone). */
function addMatches(scan: RegExp, text: string, found: Set<string>): void {
  scan.lastIndex = 0;
  for (let m = scan.exec(text); m !== null; m = scan.exec(text)) found.add(m[0]);
}

/** The patterns whose triggers occur in normalised text, by regex (the path for non-ASCII text). */
function candidatesByRegex(normalised: string): InjectionPattern[] {
  const found = new Set<string>();
  addMatches(WORD_TRIGGER_SCAN, normalised, found);
  addMatches(OTHER_TRIGGER_SCAN, normalised, found);
  if (found.size === 0) return [];
  const out = new Set<InjectionPattern>();
  const selectedBy = patternsSelectedBy();
  for (const f of found) for (const p of selectedBy.get(f)!) out.add(p);
  return [...out].sort(byCatalogueOrder);
}

/**
 * The patterns of the triggers the finder found, less those whose `requires` groups are not all
 * present (they cannot match: the regex itself needs one literal of each group at a word start).
 */
function candidatesOf(hits: TriggerHits): InjectionPattern[] {
  const found = hits.triggers;
  if (found.length === 0) return [];
  present.fill(0);
  for (let i = 0; i < found.length; i++) present[found[i]!] = 1;
  const out = new Set<InjectionPattern>();
  for (const t of found) {
    for (const p of PATTERNS_OF_TRIGGER[t]!) {
      const groups = REQUIRES_OF.get(p);
      if (groups === undefined || groups.every((g) => g.some((i) => present[i] === 1))) out.add(p);
    }
  }
  return out.size === 0 ? [] : [...out].sort(byCatalogueOrder);
}

/** The record of one pattern matched at `index` (where its excerpt starts). */
function matchOf(p: InjectionPattern, text: string, index: number): InjectionMatch {
  return {
    pattern: p.id,
    category: p.category,
    description: p.description,
    weak: p.weak === true,
    excerpt: excerptAt(text, index),
  };
}

function excerptAt(text: string, index: number): string {
  // Redacted before any cut: a key cut at the excerpt's end would leave a prefix no pattern knows.
  // The scan's text is lower-cased: provider prefixes are matched in any case.
  const visible = redactAndCut(text.slice(Math.max(0, index)), EXCERPT_MAX * 2, { lowercased: true }).replace(
    /[^\x20-\x7e\u00a0-\u200a\u2010-\u2027\u2030-\u205f\u3000-\ud7ff]/gu,
    (c) => {
      const cp = c.codePointAt(0)!;
      return cp === 10 ? ' ' : `\\u{${cp.toString(16)}}`;
    },
  );
  return visible.length > EXCERPT_MAX ? `${visible.slice(0, EXCERPT_MAX - 1)}…` : visible;
}

/**
 * Runs the candidate patterns of raw text over its normalised form. `hits` is the finder's answer
 * for the text (undefined when it is not ASCII, which takes the regex keyword pass).
 */
function scanNormalised(
  raw: string,
  hits: TriggerHits | undefined,
  disabled: ReadonlySet<string> | undefined,
  out: InjectionMatch[],
): void {
  let text: string;
  let candidates: InjectionPattern[];
  if (hits === undefined) {
    text = normaliseForScan(raw);
    candidates = candidatesByRegex(text);
    if (candidates.length === 0) return;
  } else {
    candidates = candidatesOf(hits);
    if (candidates.length === 0) return;
    text = normaliseForScan(raw, { ascii: true, plainSpacing: hits.plainSpacing });
  }
  for (const p of candidates) {
    if (disabled?.has(p.id)) continue;
    const m = p.pattern.exec(text);
    if (m) {
      out.push(matchOf(p, text, m.index));
    }
  }
}

const HEX_ONLY = /^[0-9a-fA-F]+$/;

/**
 * The maximal runs of MIN_BLOB_RUN+ base64 characters, in order, as [start, end) pairs (the
 * finder reports them for ASCII text; this is for the rest). A loop over char codes rather than a
 * regex: the regex needs a lookbehind at every position to start only at a run's start.
 */
function blobRuns(raw: string): number[] {
  const runs: number[] = [];
  let start = -1;
  for (let i = 0; i <= raw.length; i++) {
    const c = i < raw.length ? raw.charCodeAt(i) : 0;
    if (isBase64Char(c)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (i - start >= MIN_BLOB_RUN) runs.push(start, i);
      start = -1;
    }
  }
  return runs;
}

/** The blobs at `runs` (see blobRuns) that decode from base64 or hex to mostly printable text. */
function decodedBlobs(raw: string, runs: readonly number[]): { text: string; encoding: 'base64' | 'hex' }[] {
  const out: { text: string; encoding: 'base64' | 'hex' }[] = [];
  for (let r = 0; r < runs.length; r += 2) {
    if (out.length >= MAX_BLOBS) break;
    const blob = raw.slice(runs[r]!, Math.min(runs[r + 1]!, runs[r]! + MAX_BLOB_CHARS));
    const hex = blob.length >= MIN_HEX_BLOB && blob.length % 2 === 0 && HEX_ONLY.test(blob);
    const text = (
      hex ? Buffer.from(blob, 'hex') : Buffer.from(blob.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
    ).toString('utf8');
    let printable = 0;
    for (let j = 0; j < text.length; j++) {
      const t = text.charCodeAt(j);
      if ((t >= 0x20 && t < 0x7f) || t === 10 || t === 13 || t === 9) printable++;
    }
    if (text.length >= 8 && printable / text.length >= 0.9)
      out.push({ text, encoding: hex ? 'hex' : 'base64' });
  }
  return out;
}

/** Cuts a long string to its head (¾) and tail (¼): padding in front of a payload does not hide it. */
export function capText(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  const head = Math.floor(maxChars * 0.75);
  return { text: `${text.slice(0, head)}\n${text.slice(text.length - (maxChars - head))}`, truncated: true };
}

/** Scans one field. Exported for tests and for callers that scan text outside a trace. */
export function scanText(raw: string, opts: ScanOptions): { matches: InjectionMatch[]; truncated: boolean } {
  const { text, truncated } = capText(raw, opts.maxChars);
  if (!prefilter().mayMatch(text)) return { matches: [], truncated };
  return { matches: scanCapped(text, opts), truncated };
}

/** The full scan of text already capped and passed by the prefilter. */
function scanCapped(text: string, opts: ScanOptions): InjectionMatch[] {
  const matches: InjectionMatch[] = [];
  const hits = triggerFinder().find(text);
  // Raw patterns look for invisible non-ASCII characters: ASCII text (hits found) has none.
  if (hits === undefined && RAW_PRECHECK.test(text)) {
    for (const p of RAW_PATTERNS) {
      if (opts.disabled?.has(p.id)) continue;
      const m = p.pattern.exec(text);
      if (m) {
        // Raw patterns match invisible characters: start the excerpt a little before them.
        matches.push(matchOf(p, text, Math.max(0, m.index - 20)));
      }
    }
  }
  scanNormalised(text, hits, opts.disabled, matches);
  const runs = hits === undefined ? (opts.decodeEncoded ? blobRuns(text) : []) : hits.blobRuns;
  if (opts.decodeEncoded && runs.length > 0) {
    for (const blob of decodedBlobs(text, runs)) {
      const inner: InjectionMatch[] = [];
      scanNormalised(blob.text, triggerFinder().find(blob.text), opts.disabled, inner);
      for (const m of inner) {
        // The base64 fragment pattern would only re-find what was decoded.
        if (m.category !== 'delimiter_encoding') matches.push({ ...m, encoding: blob.encoding });
      }
    }
  }
  return matches;
}

/**
 * Confidence from what matched: any strong pattern starts at 0.80, each further category adds 0.06
 * and each further pattern 0.02, up to 0.96; only weak patterns: 0.50 for one (gray zone, escalated),
 * +0.15 per further pattern, up to 0.80. An instruction hidden in an encoded blob counts as an extra
 * category (the encoding is itself a trick).
 */
export function injectionConfidence(matches: readonly InjectionMatch[]): number {
  const patterns = new Set(matches.map((m) => m.pattern));
  const categories = new Set<string>(matches.map((m) => m.category));
  if (matches.some((m) => m.encoding)) categories.add('delimiter_encoding');
  const strong = matches.some((m) => !m.weak);
  const extraCategories = Math.max(0, categories.size - 1);
  if (strong) {
    const c = 0.8 + 0.06 * extraCategories + 0.02 * Math.max(0, patterns.size - categories.size);
    return Math.min(0.96, round(c));
  }
  return Math.min(0.8, round(0.5 + 0.15 * (patterns.size - 1) + 0.06 * extraCategories));
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * The strings of a JSON-like value, in document order, joined by newlines. Past `budget`
 * characters the text is cut as `capText` cuts a string (head ¾, tail ¼): a payload placed after
 * 100 KB of padding inside a structured tool result is scanned as it would be in a plain string.
 */
function collectStrings(
  value: unknown,
  budget: number,
  skip: (key: string, v: unknown) => boolean,
): { text: string; truncated: boolean } {
  if (typeof value === 'string') return { text: value, truncated: false };
  const parts: string[] = [];
  let total = 0;
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (typeof v === 'string') {
      parts.push(v);
      total += v.length + 1;
    } else if (depth < 32 && Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: depth + 1 });
    } else if (depth < 32 && v !== null && typeof v === 'object') {
      if (isTrustedMessage(v)) continue;
      const entries = Object.entries(v as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i]!;
        if (!skip(k, child)) stack.push({ v: child, depth: depth + 1 });
      }
    }
  }
  if (total - 1 <= budget) return { text: parts.join('\n'), truncated: false };
  return {
    text: `${headOf(parts, Math.floor(budget * 0.75))}\n${tailOf(parts, budget - Math.floor(budget * 0.75))}`,
    truncated: true,
  };
}

/** The first `n` characters of the parts joined by newlines. */
function headOf(parts: readonly string[], n: number): string {
  const out: string[] = [];
  let left = n;
  for (let i = 0; i < parts.length && left > 0; i++) {
    const p = parts[i]!.length > left ? parts[i]!.slice(0, left) : parts[i]!;
    out.push(p);
    left -= p.length + 1;
  }
  return out.join('\n');
}

/** The last `n` characters of the parts joined by newlines. */
function tailOf(parts: readonly string[], n: number): string {
  const out: string[] = [];
  let left = n;
  for (let i = parts.length - 1; i >= 0 && left > 0; i--) {
    const p = parts[i]!.length > left ? parts[i]!.slice(parts[i]!.length - left) : parts[i]!;
    out.push(p);
    left -= p.length + 1;
  }
  return out.reverse().join('\n');
}

const TRUSTED_ROLES = new Set(['system', 'developer']);
/** A chat message object written by the operator (system / developer) rather than a user. */
function isTrustedMessage(v: object): boolean {
  const role = (v as { role?: unknown }).role;
  return typeof role === 'string' && TRUSTED_ROLES.has(role.toLowerCase());
}

/** Keys of a trace input that hold operator configuration, not user text. */
const SYSTEM_KEYS =
  /^(?:system|system_?prompt|systemprompt|developer|developer_?message|instructions|preamble)$/i;
const noSkip = () => false;

interface Source {
  step?: number;
  where: string;
  kind: 'trace_input' | 'message' | 'tool_result' | 'retrieval' | 'llm_input';
  extra?: Record<string, unknown>;
}

/**
 * Which field of the trace a scanned text came from. Sources are described only when a field
 * passes the prefilter and holds a fresh match: the walk itself allocates nothing per field.
 */
const FIELD_INPUT = 0;
const FIELD_TOOL_RESULT = 1;
const FIELD_TOOL_ERROR = 2;
const FIELD_DOCUMENT = 3;
const FIELD_MESSAGE = 4;
const FIELD_LLM_PROMPT = 5;
const FIELD_LLM_MESSAGE = 6;

function describeSource(trace: Trace, field: number, stepIndex: number, sub: number): Source {
  if (field === FIELD_INPUT) return { where: 'the trace input', kind: 'trace_input' };
  const s = trace.steps[stepIndex]!;
  const step = stepIndex + 1;
  if (s.type === 'tool') {
    const which = field === FIELD_TOOL_RESULT ? 'result' : 'error';
    return { step, where: `the ${which} of tool "${s.name}"`, kind: 'tool_result', extra: { tool: s.name } };
  }
  if (s.type === 'retrieval') {
    const doc = s.results[sub]!;
    return {
      step,
      where: `retrieved document ${sub + 1}${doc.id ? ` ("${doc.id}")` : ''}`,
      kind: 'retrieval',
      extra: { document: sub + 1, documentId: doc.id },
    };
  }
  if (s.type === 'message')
    return { step, where: `a message from "${s.from}"`, kind: 'message', extra: { from: s.from } };
  if (s.type === 'llm' && field === FIELD_LLM_MESSAGE && typeof s.input !== 'string' && s.input) {
    const msg = s.input[sub]!;
    return {
      step,
      where: `an LLM input message (role ${msg.role})`,
      kind: 'llm_input',
      extra: { message: sub + 1, role: msg.role },
    };
  }
  return { step, where: 'the LLM prompt', kind: 'llm_input' };
}

/** A field the prefilter passed: its collected text, capped. */
interface Field {
  /** The collected text (the key under which an LLM input message counts as scanned). */
  text: string;
  /** The collected text cut to `max_field_chars` (what is scanned). */
  capped: string;
  truncated: boolean;
}

/**
 * The text of one field when the prefilter passes it, else undefined. A string field (the common
 * case) goes to the prefilter as it is, with no object created for it.
 */
function passingField(value: unknown, skipKeys: boolean, maxChars: number): Field | undefined {
  let text: string;
  let cut = false;
  if (typeof value === 'string') {
    if (value.length === 0) return undefined;
    if (value.length <= maxChars) {
      if (!prefilter().mayMatch(value)) return undefined;
      return { text: value, capped: value, truncated: false };
    }
    text = value;
  } else {
    const collected = collectStrings(value, maxChars, skipKeys ? skipSystemKey : noSkip);
    text = collected.text;
    cut = collected.truncated;
    if (text.length === 0) return undefined;
  }
  const capped = capText(text, maxChars);
  // A field the prefilter rejects has no match, now or when replayed later: it changes nothing
  // (no signal, no group), so it is skipped before it is hashed into `scanned`.
  if (!prefilter().mayMatch(capped.text)) return undefined;
  return { text, capped: capped.text, truncated: capped.truncated || cut };
}

const skipSystemKey = (k: string) => SYSTEM_KEYS.test(k);

/** Per-config data, derived once per config object rather than once per trace. */
interface Prepared {
  opts: ScanOptions;
  trustedSenders: ReadonlySet<string>;
  untrustedRoles: ReadonlySet<string>;
}
const prepared = new WeakMap<Config, Prepared>();
function prepare(cfg: Config): Prepared {
  let p = prepared.get(cfg);
  if (p === undefined) {
    p = {
      opts: {
        maxChars: cfg.max_field_chars,
        decodeEncoded: cfg.decode_encoded,
        disabled: new Set(cfg.disabled_patterns),
      },
      trustedSenders: new Set(cfg.trusted_senders.map((s) => s.toLowerCase())),
      untrustedRoles: new Set(cfg.untrusted_roles.map((r) => r.toLowerCase())),
    };
    prepared.set(cfg, p);
  }
  return p;
}

/** The state of one trace's scan, created when its first field passes the prefilter. */
class TraceScan {
  readonly signals: SignalDraft[] = [];
  /** Texts scanned so far, by length then content: no string is hashed (see ReplayedHistory). */
  private readonly scanned = new ReplayedHistory();
  /** pattern + excerpt of everything reported so far: replayed chat history is not reported again. */
  private readonly reported = new Set<string>();
  private current:
    | {
        key: string;
        sources: Source[];
        matches: (InjectionMatch & Record<string, unknown>)[];
        truncated: boolean;
      }
    | undefined;

  constructor(
    private readonly trace: Trace,
    private readonly opts: ScanOptions,
  ) {}

  add(f: Field, field: number, stepIndex: number, sub: number): void {
    const llmInput = field === FIELD_LLM_PROMPT || field === FIELD_LLM_MESSAGE;
    // A text forgotten by a full length bucket is scanned again; for an LLM input message its
    // matches are then dropped as already reported, so the findings are the same.
    if (this.scanned.seen(f.text) && llmInput) return;
    const matches = scanCapped(f.capped, this.opts);
    const fresh = matches.filter((m) => {
      const key = `${m.pattern}\u0000${m.excerpt}`;
      if (llmInput && this.reported.has(key)) return false;
      this.reported.add(key);
      return true;
    });
    // One signal per step (a retrieval's documents or an LLM call's messages are grouped).
    const key = field === FIELD_INPUT ? 'input' : `step:${stepIndex + 1}`;
    if (this.current?.key !== key) {
      this.flush();
      this.current = { key, sources: [], matches: [], truncated: false };
    }
    if (fresh.length === 0) return;
    const src = describeSource(this.trace, field, stepIndex, sub);
    this.current.sources.push(src);
    for (const m of fresh) this.current.matches.push({ ...m, ...(src.extra ?? {}) });
    this.current.truncated ||= f.truncated;
  }

  flush(): void {
    const current = this.current;
    if (!current || current.matches.length === 0) return;
    this.signals.push(buildSignal(current.sources, current.matches, current.truncated));
  }
}

/**
 * The text LLM input messages of one trace walked so far. Chat history is replayed on every call,
 * so without this the prefilter would walk the whole conversation again at each call (quadratic in
 * its length). A message seen before changes nothing when seen again: if the prefilter rejected it,
 * it rejects it again; if it passed, its scan is already done (`TraceScan.scanned`). Texts are kept
 * by length, so a new text costs one Map lookup by a number and is compared with earlier texts only
 * when the lengths are equal; a bucket stops growing at MAX_PER_LENGTH texts to keep that bounded.
 */
class ReplayedHistory {
  private static readonly MAX_PER_LENGTH = 64;
  private readonly byLength = new Map<number, string[]>();

  /** True when this text was seen before in this trace; remembers it otherwise. */
  seen(text: string): boolean {
    const bucket = this.byLength.get(text.length);
    if (bucket === undefined) {
      this.byLength.set(text.length, [text]);
      return false;
    }
    if (bucket.includes(text)) return true;
    if (bucket.length < ReplayedHistory.MAX_PER_LENGTH) bucket.push(text);
    return false;
  }
}

/** The message-step sender is the agent itself or a configured trusted sender. */
function isTrustedSender(from: string, agentId: string, trusted: ReadonlySet<string>): boolean {
  if (trusted.has(from)) return true;
  const lower = from.toLowerCase();
  return trusted.has(lower) || lower === agentId.toLowerCase();
}

/** The LLM input message role is one that is scanned. */
function isUntrustedRole(role: string, untrusted: ReadonlySet<string>): boolean {
  // The set holds lowercase roles: a role found as it is needs no lowercasing.
  return untrusted.has(role) || untrusted.has(role.toLowerCase());
}

const PATTERN_IDS = INJECTION_PATTERNS.map((p) => p.id) as [string, ...string[]];

const config = z.object({
  max_field_chars: z
    .number()
    .int()
    .positive()
    .default(100_000)
    .describe('Longest text scanned per field; longer text is cut to its head (3/4) and tail (1/4)'),
  decode_encoded: z.boolean().default(true).describe('Decode base64 / hex blobs and scan what they hide'),
  scan_string_prompts: z
    .boolean()
    .default(false)
    .describe('Scan LLM prompts given as one string (they usually include the system prompt)'),
  untrusted_roles: z
    .array(z.string())
    .default(['user', 'tool', 'function', 'ipython'])
    .describe('Roles of LLM input messages that are scanned'),
  trusted_senders: z
    .array(z.string())
    .default(['system', 'developer', 'assistant'])
    .describe('Message-step senders that are not scanned (the trace’s own agentId is always trusted)'),
  disabled_patterns: z
    .array(
      // A typo would silently disable nothing: ids are checked, and editors can offer them.
      z.enum(PATTERN_IDS, {
        error: (issue) => {
          const hint = typeof issue.input === 'string' ? nearest(issue.input, PATTERN_IDS) : undefined;
          return `unknown pattern id ${JSON.stringify(issue.input)}${hint ? ` — did you mean "${hint}"?` : ''} (\`tracejury schema config\` lists the ids)`;
        },
      }),
    )
    .default([])
    .describe('Pattern ids to skip, e.g. rj.named_mode'),
});
type Config = z.infer<typeof config>;

export const promptInjectionSignal = defineDetector({
  meta: {
    id: 'PROMPT_INJECTION_SIGNAL',
    configKey: 'prompt_injection_signal',
    tier: 1,
    kind: 'structural',
    severity: 'critical',
    failureMode: 'injection',
    description:
      'Untrusted input (user text, tool results, retrieved documents) matches known injection / jailbreak patterns',
    fix: 'treat untrusted text as data: delimit it, never follow its instructions, confirm risky tool calls',
    config,
  },
  detect(trace, ctx) {
    const cfg = ctx.config;
    const max = cfg.max_field_chars;
    let scan: TraceScan | undefined;
    let f: Field | undefined;
    let p: Prepared | undefined;
    let history: ReplayedHistory | undefined;
    // The untrusted fields, in trace order, with plain loops: a field the prefilter rejects costs
    // one walk over its text and nothing else.
    if (trace.input !== undefined && (f = passingField(trace.input, true, max)) !== undefined)
      (scan ??= new TraceScan(trace, (p ??= prepare(cfg)).opts)).add(f, FIELD_INPUT, -1, 0);
    const steps = trace.steps;
    for (let i = 0; i < steps.length; i++) {
      const s = steps[i]!;
      switch (s.type) {
        case 'tool':
          if (s.result !== undefined && (f = passingField(s.result, false, max)) !== undefined)
            (scan ??= new TraceScan(trace, (p ??= prepare(cfg)).opts)).add(f, FIELD_TOOL_RESULT, i, 0);
          if (s.error && (f = passingField(s.error, false, max)) !== undefined)
            (scan ??= new TraceScan(trace, (p ??= prepare(cfg)).opts)).add(f, FIELD_TOOL_ERROR, i, 0);
          break;
        case 'retrieval':
          for (let d = 0; d < s.results.length; d++) {
            const content = s.results[d]!.content;
            if (content && (f = passingField(content, false, max)) !== undefined)
              (scan ??= new TraceScan(trace, (p ??= prepare(cfg)).opts)).add(f, FIELD_DOCUMENT, i, d);
          }
          break;
        case 'message':
          if (
            !isTrustedSender(s.from, trace.agentId, (p ??= prepare(cfg)).trustedSenders) &&
            (f = passingField(s.content, false, max)) !== undefined
          )
            (scan ??= new TraceScan(trace, p.opts)).add(f, FIELD_MESSAGE, i, 0);
          break;
        case 'llm':
          if (typeof s.input === 'string') {
            if (cfg.scan_string_prompts && (f = passingField(s.input, false, max)) !== undefined)
              (scan ??= new TraceScan(trace, (p ??= prepare(cfg)).opts)).add(f, FIELD_LLM_PROMPT, i, 0);
          } else if (s.input) {
            const untrusted = (p ??= prepare(cfg)).untrustedRoles;
            for (let m = 0; m < s.input.length; m++) {
              const msg = s.input[m]!;
              if (msg.content === undefined || !isUntrustedRole(msg.role, untrusted)) continue;
              if (typeof msg.content === 'string' && (history ??= new ReplayedHistory()).seen(msg.content))
                continue;
              if ((f = passingField(msg.content, false, max)) !== undefined)
                (scan ??= new TraceScan(trace, p.opts)).add(f, FIELD_LLM_MESSAGE, i, m);
            }
          }
          break;
        default:
          break;
      }
    }
    if (scan === undefined) return [];
    scan.flush();
    return scan.signals;
  },
});

function buildSignal(
  srcs: readonly Source[],
  matches: (InjectionMatch & Record<string, unknown>)[],
  truncated: boolean,
): SignalDraft {
  const src = srcs[0]!;
  const byCategory = new Map<InjectionCategory, Set<string>>();
  for (const m of matches) {
    const set = byCategory.get(m.category) ?? new Set<string>();
    set.add(m.pattern);
    byCategory.set(m.category, set);
  }
  const parts = [...byCategory].map(([cat, ids]) => `${CATEGORY_LABELS[cat]} (${[...ids].join(', ')})`);
  const wheres = [...new Set(srcs.map((s) => s.where))];
  const said =
    wheres.length <= 3 ? wheres.join(', ') : `${wheres.slice(0, 3).join(', ')} and ${wheres.length - 3} more`;
  const where = src.step === undefined ? said : `Step ${src.step}: ${said}`;
  const encoded = matches.some((m) => m.encoding) ? ' Some of it was hidden in base64 / hex.' : '';
  const weakOnly = matches.every((m) => m.weak);
  const subject = where.charAt(0).toUpperCase() + where.slice(1);
  const message =
    `${subject} ${wheres.length > 1 ? 'contain' : 'contains'} text that looks like a prompt injection — ${parts.join('; ')}.${encoded} ` +
    (weakOnly
      ? 'Only weak patterns matched, so this needs a closer look.'
      : 'This is untrusted data, not instructions: check whether the agent acted on it.');
  const evidence: Record<string, unknown> = {
    source: src.kind,
    categories: [...byCategory.keys()],
    patterns: [...new Set(matches.map((m) => m.pattern))],
    matches: matches.map((m) => ({
      pattern: m.pattern,
      category: m.category,
      description: m.description,
      weak: m.weak,
      excerpt: m.excerpt,
      ...(m.encoding ? { encoding: m.encoding } : {}),
      ...Object.fromEntries(
        Object.entries(m).filter(
          ([k]) => !['pattern', 'category', 'description', 'weak', 'excerpt', 'encoding'].includes(k),
        ),
      ),
    })),
  };
  if (truncated) evidence.truncated = true;
  return {
    steps: src.step === undefined ? [] : [src.step],
    confidence: injectionConfidence(matches),
    message,
    evidence,
  };
}
