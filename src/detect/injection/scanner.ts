/**
 * The scan of one untrusted text for the pattern catalogue: which patterns occur, where, and the
 * best-scoring passage of cues (cues.ts). PROMPT_INJECTION_SIGNAL decides what to scan and what
 * to report; this module only reads text.
 *
 * Cost: one combined keyword walk per field decides whether any pattern can match (prefilter.ts),
 * a second walk says which triggers occur (triggerFinder.ts), and only the patterns whose
 * triggers (and `requires` literals) are present run. Fields are capped (head and tail of a long
 * string). Each pattern that matches is run on to its further occurrences (at most
 * MAX_OCCURRENCES), so that cues are scored where they sit together rather than anywhere in a
 * long text: the regexes resume where the last match ended, so that is still one pass.
 */
import { redactLowercased } from '../../redact/redact.js';
import { bestPassage, type CueHit, type CueSet, type PassageScore } from './cues.js';
import {
  INJECTION_PATTERNS,
  normaliseForScan,
  type InjectionCategory,
  type InjectionPattern,
} from './patterns.js';
import { compileTriggerScanner, isBase64Char, MIN_BLOB_RUN, type TriggerScanner } from './prefilter.js';
import { buildTriggerDfa } from './triggerDfa.js';
import { compileTriggerFinder, type TriggerFinder, type TriggerHits } from './triggerFinder.js';

const EXCERPT_MAX = 80;
/** The longest excerpt of a passage quoted in evidence. */
const PASSAGE_EXCERPT_MAX = 200;
/** Occurrences of one pattern looked at per text (enough to place cues; a flood stops here). */
export const MAX_OCCURRENCES = 8;

export interface InjectionMatch {
  pattern: string;
  category: InjectionCategory;
  description: string;
  weak: boolean;
  cues: CueSet;
  /** ≤ 80 characters of the (normalised, redacted) text where the pattern matched. */
  excerpt: string;
  /** Set when the text was found inside a base64 / hex blob. */
  encoding?: 'base64' | 'hex';
}

/** One occurrence of a pattern: where it starts, in which segment (0: the text, k: decoded blob k). */
interface Occurrence {
  pattern: InjectionPattern;
  index: number;
  /** Where the match ends. */
  end: number;
  segment: number;
}

/** The best passage of a text, and the matches (first occurrence per pattern) inside it. */
export interface ScoredPassage extends PassageScore {
  matches: InjectionMatch[];
  /** The passage itself, redacted, at most PASSAGE_EXCERPT_MAX characters. */
  excerpt: string;
  /**
   * What the passage asks the model to send things to or open, as a later tool call would carry
   * it: e-mail addresses, hosts of links, account numbers, wallets (see passageTargets).
   */
  targets: string[];
}

export interface ScanOptions {
  /** Longest text scanned per field: longer text is cut to its head (¾) and tail (¼). */
  maxChars: number;
  /** Decode base64 / hex blobs and scan what they hide. */
  decodeEncoded: boolean;
  disabled?: ReadonlySet<string>;
}

export interface ScanResult {
  /** Every pattern that matched, once each (its first occurrence), in catalogue order. */
  matches: InjectionMatch[];
  /** The best-scoring passage of cues, when one scores at all (see cues.ts). */
  passage?: ScoredPassage;
  truncated: boolean;
}

/**
 * What a scan did, for tests that bound its work without timing it: texts normalised, regex
 * executions, characters the regexes were run over.
 */
export const scanWork = { normalised: 0, regexRuns: 0, charsMatched: 0 };

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const isAscii = (t: string) => !/[^\x00-\x7f]/.test(t);

const NORMAL_PATTERNS = INJECTION_PATTERNS.filter((p) => !p.raw);
const RAW_PATTERNS = INJECTION_PATTERNS.filter((p) => p.raw);
/** Candidates run in catalogue order, whichever way they were found. */
const CATALOGUE_ORDER = new Map(INJECTION_PATTERNS.map((p, i) => [p, i]));
const byCatalogueOrder = (a: InjectionPattern, b: InjectionPattern) =>
  CATALOGUE_ORDER.get(a)! - CATALOGUE_ORDER.get(b)!;
/** Each pattern with the `g` flag, to walk its occurrences (the catalogue's own are stateless). */
const GLOBAL = new Map(
  INJECTION_PATTERNS.map((p) => [p, new RegExp(p.pattern.source, `${p.pattern.flags}g`)]),
);
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
/**
 * What the finder looks for, in its index order: word literals, then the others. Literals outside
 * ASCII (the triggers of patterns in other scripts) are left to the regex path: ASCII text, the
 * only text the finder reads, cannot hold them.
 */
const FINDER_WORDS = [...WORD_TRIGGERS, ...REQUIRED.filter(isWordLiteral)].filter(isAscii);
const FINDER_OTHERS = [...OTHER_TRIGGERS, ...REQUIRED.filter((t) => !isWordLiteral(t))].filter(isAscii);
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
/** The prefilter (compiled on first use). */
export const prefilter = (): TriggerScanner => PREFILTER ?? (compileScanners(), PREFILTER!);
const triggerFinder = (): TriggerFinder => FINDER ?? (compileScanners(), FINDER!);
/** The patterns of each literal, by its index in the finder (none for a `requires` literal). */
const PATTERNS_OF_TRIGGER = [...FINDER_WORDS, ...FINDER_OTHERS].map((t) => PATTERNS_BY_TRIGGER.get(t) ?? []);
/** The catalogue positions of each finder literal's patterns (the hot loop reads numbers). */
const ORDERS_OF_TRIGGER = PATTERNS_OF_TRIGGER.map((ps) =>
  Int32Array.from(ps.map((p) => CATALOGUE_ORDER.get(p)!)),
);
/**
 * The `requires` groups of each pattern, by catalogue position, as finder indexes (none: an
 * empty list; a literal outside ASCII, which ASCII text cannot hold, is left out).
 */
const REQUIRES_BY_ORDER = INJECTION_PATTERNS.map((p) =>
  (p.requires ?? []).map((group) =>
    Int32Array.from(group.map((t) => FINDER_INDEX.get(t) ?? -1).filter((i) => i >= 0)),
  ),
);
/** Which finder literals the current text holds (reused: one text is looked at at a time). */
const present = new Uint8Array(FINDER_INDEX.size);
/** The candidates of the current text, by catalogue position (reused likewise). */
const chosen = new Uint8Array(INJECTION_PATTERNS.length);
const picked = new Int32Array(INJECTION_PATTERNS.length);
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
  // Catalogue positions, collected once each and sorted as numbers (no comparator, no Set).
  let n = 0;
  for (let f = 0; f < found.length; f++) {
    const orders = ORDERS_OF_TRIGGER[found[f]!]!;
    for (let k = 0; k < orders.length; k++) {
      const order = orders[k]!;
      if (chosen[order] !== 0) continue;
      // 1: a candidate; 2: ruled out for this text (a `requires` group is missing).
      chosen[order] = requiresMet(REQUIRES_BY_ORDER[order]!) ? 1 : 2;
      picked[n++] = order;
    }
  }
  if (n === 0) return [];
  const orders = picked.subarray(0, n).sort();
  const out: InjectionPattern[] = [];
  for (let i = 0; i < n; i++) {
    if (chosen[orders[i]!] === 1) out.push(INJECTION_PATTERNS[orders[i]!]!);
    chosen[orders[i]!] = 0;
  }
  return out;
}

/** Every group has a literal the current text holds (see `present`). */
function requiresMet(groups: readonly Int32Array[]): boolean {
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g]!;
    let met = false;
    for (let k = 0; k < group.length && !met; k++) met = present[group[k]!] === 1;
    if (!met) return false;
  }
  return true;
}

/** The record of one pattern matched at `index` (where its excerpt starts). */
function matchOf(
  p: InjectionPattern,
  text: string,
  index: number,
  encoding?: 'base64' | 'hex',
): InjectionMatch {
  return {
    pattern: p.id,
    category: p.category,
    description: p.description,
    weak: p.weak === true,
    cues: p.cues,
    excerpt: excerptAt(text, index, EXCERPT_MAX),
    ...(encoding ? { encoding } : {}),
  };
}

/**
 * Room after an excerpt's start that is redacted with it: a secret is redacted whole before the
 * excerpt is cut, so no cut leaves half a key in sight.
 */
const REDACT_WINDOW = 2000;

/** At most `max` printable characters from `index`, redacted before they are cut. */
function excerptAt(text: string, index: number, max: number): string {
  const start = Math.max(0, index);
  // The scanned text is lower-cased: provider prefixes are matched in any case (SK…, PMAK-…).
  const visible = redactLowercased(text.slice(start, start + REDACT_WINDOW))
    .slice(0, max * 2)
    .replace(/[^\x20-\x7e\u00a0-\u200a\u2010-\u2027\u2030-\u205f\u3000-\ud7ff]/gu, (c) => {
      const cp = c.codePointAt(0)!;
      return cp === 10 ? ' ' : `\\u{${cp.toString(16)}}`;
    });
  return detached(visible.length > max ? `${visible.slice(0, max - 1)}…` : visible);
}

/**
 * A copy of a short string that does not keep the text it was cut from alive: V8 shares a slice's
 * memory with its parent, so an 80-character excerpt kept in a signal would otherwise hold on to
 * the whole normalised field (up to max_field_chars) for as long as the report lives.
 */
function detached(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}

/** The occurrences of one pattern in `text`, at most MAX_OCCURRENCES, added to `out`. */
function occurrencesOf(p: InjectionPattern, text: string, segment: number, out: Occurrence[]): void {
  // Most candidates do not match: the first run is the pattern's own (stateless) regex, and only
  // a match goes on with the `g` copy from where it ended.
  scanWork.regexRuns++;
  scanWork.charsMatched += text.length;
  const first = p.pattern.exec(text);
  if (first === null) return;
  out.push({ pattern: p, index: first.index, end: first.index + first[0].length, segment });
  const g = GLOBAL.get(p)!;
  g.lastIndex = first.index + Math.max(1, first[0].length);
  for (let n = 1; n < MAX_OCCURRENCES; n++) {
    scanWork.regexRuns++;
    scanWork.charsMatched += text.length - g.lastIndex;
    const m = g.exec(text);
    if (m === null) break;
    out.push({ pattern: p, index: m.index, end: m.index + m[0].length, segment });
    if (m[0].length === 0) g.lastIndex++;
  }
}

/**
 * Runs the candidate patterns of raw text over its normalised form. `hits` is the finder's answer
 * for the text (undefined when it is not ASCII, which takes the regex keyword pass).
 */
function scanNormalised(
  raw: string,
  hits: TriggerHits | undefined,
  disabled: ReadonlySet<string> | undefined,
  wants: ScanWants,
  /** A cue that leads a passage is known already (invisible characters, an encoding). */
  leadKnown: boolean,
  segment: number,
  out: Occurrence[],
): string | undefined {
  let text: string;
  let candidates: InjectionPattern[];
  if (hits === undefined) {
    text = normaliseForScan(raw);
    scanWork.normalised++;
    candidates = candidatesByRegex(text);
    if (candidates.length === 0) return undefined;
  } else {
    candidates = candidatesOf(hits);
    if (candidates.length === 0) return undefined;
    text = normaliseForScan(raw, { ascii: true, onlyLowercase: hits.onlyLowercase });
    scanWork.normalised++;
  }
  const runs = (p: InjectionPattern) => !disabled?.has(p.id) && wants.run(p);
  if (!wants.leadFirst || leadKnown) {
    for (const p of candidates) if (runs(p)) occurrencesOf(p, text, segment, out);
    return text;
  }
  // Every passage that scores holds a cue that addresses the model, overrides its task or hides
  // from the user (cues.ts): when none of those patterns occurs, the action and framing patterns
  // cannot change the outcome and are not run.
  const before = out.length;
  for (const p of candidates)
    if (LEADS[CATALOGUE_ORDER.get(p)!] === 1 && runs(p)) occurrencesOf(p, text, segment, out);
  if (out.length === before) return text;
  for (const p of candidates)
    if (LEADS[CATALOGUE_ORDER.get(p)!] === 0 && runs(p)) occurrencesOf(p, text, segment, out);
  return text;
}

/** 1 for the patterns whose cues can lead a passage: addressee, override, concealment, fake turn. */
const LEADS = Uint8Array.from(INJECTION_PATTERNS, (p) =>
  p.cues.addressee || p.cues.override || p.cues.concealment || p.cues.fake_turn ? 1 : 0,
);

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
export function scanText(raw: string, opts: ScanOptions): ScanResult {
  const { text, truncated } = capText(raw, opts.maxChars);
  if (!prefilter().mayMatch(text)) return { matches: [], truncated };
  return { ...scanCapped(text, opts, ALL), truncated };
}

/**
 * What a caller wants of a scan: the first match of which patterns (their excerpts are redacted,
 * which costs: only those asked for are built), and whether the best passage of cues.
 */
export interface ScanWants {
  matches: (p: InjectionPattern) => boolean;
  passage: boolean;
  /** Which patterns run at all. */
  run: (p: InjectionPattern) => boolean;
  /**
   * Run the patterns that can lead a passage first, and the others only when one of them
   * occurs: the same passage for less work, when only the passage is wanted.
   */
  leadFirst: boolean;
}
const ALL: ScanWants = { matches: () => true, passage: true, run: () => true, leadFirst: false };

/** The text a segment's occurrences point into, and how it was hidden (for decoded blobs). */
interface Segment {
  text: string;
  encoding?: 'base64' | 'hex';
}

/** The full scan of text already capped and passed by the prefilter. */
export function scanCapped(
  raw: string,
  opts: ScanOptions,
  wants: ScanWants = ALL,
): Omit<ScanResult, 'truncated'> {
  const occurrences: Occurrence[] = [];
  const segments: Segment[] = [];
  const hits = triggerFinder().find(raw);
  // Raw patterns look for invisible non-ASCII characters: ASCII text (hits found) has none.
  if (hits === undefined && RAW_PRECHECK.test(raw)) {
    for (const p of RAW_PATTERNS) {
      if (opts.disabled?.has(p.id)) continue;
      scanWork.regexRuns++;
      const m = p.pattern.exec(raw);
      // Raw patterns match invisible characters: start the excerpt a little before them. They
      // are placed in the raw text, which the passage scoring reads apart (segment -1).
      if (m)
        occurrences.push({
          pattern: p,
          index: Math.max(0, m.index - 20),
          end: m.index + m[0].length,
          segment: -1,
        });
    }
  }
  const normalised = scanNormalised(raw, hits, opts.disabled, wants, occurrences.length > 0, 0, occurrences);
  segments[0] = { text: normalised ?? '' };
  const runs = hits === undefined ? (opts.decodeEncoded ? blobRuns(raw) : []) : hits.blobRuns;
  if (opts.decodeEncoded && runs.length > 0) {
    for (const blob of decodedBlobs(raw, runs)) {
      const segment = segments.length;
      const inner: Occurrence[] = [];
      // What a blob hides counts as concealed (a leading cue) whatever it says.
      const text = scanNormalised(
        blob.text,
        triggerFinder().find(blob.text),
        opts.disabled,
        wants,
        true,
        segment,
        inner,
      );
      // The base64 fragment pattern would only re-find what was decoded.
      const kept = inner.filter((o) => o.pattern.category !== 'delimiter_encoding');
      if (text === undefined || kept.length === 0) continue;
      segments.push({ text, encoding: blob.encoding });
      occurrences.push(...kept);
    }
  }
  if (occurrences.length === 0) return { matches: [] };
  const textOf = (o: Occurrence) => (o.segment < 0 ? raw : segments[o.segment]!.text);
  const encodingOf = (o: Occurrence) => (o.segment > 0 ? segments[o.segment]!.encoding : undefined);
  const toMatch = (o: Occurrence) => matchOf(o.pattern, textOf(o), o.index, encodingOf(o));
  const matches = firstOfEach(occurrences.filter((o) => wants.matches(o.pattern))).map(toMatch);
  const passage = wants.passage ? bestOfSegments(occurrences, segments.length, toMatch, textOf) : undefined;
  return passage ? { matches, passage } : { matches };
}

/** The first occurrence of each pattern, in catalogue order (raw patterns first, as they ran). */
function firstOfEach(occurrences: readonly Occurrence[]): Occurrence[] {
  const first = new Map<InjectionPattern, Occurrence>();
  for (const o of occurrences) {
    const had = first.get(o.pattern);
    if (had === undefined || (o.segment === had.segment && o.index < had.index)) first.set(o.pattern, o);
  }
  return [...first.values()];
}

/** A hidden text is itself a trick: what a decoded blob says counts as concealed. */
const ENCODED: CueHit = { pattern: 'encoded', index: 0, cues: { concealment: 'strong' }, weak: false };

/**
 * The best passage over the segments (the text, each decoded blob), with its matches and a
 * redacted excerpt. Invisible characters (raw patterns, found in the raw text where no normalised
 * position matches them) are cues of the whole field: they count in every passage, as the
 * encoding of a decoded blob counts in each of its passages.
 */
function bestOfSegments(
  occurrences: readonly Occurrence[],
  segmentCount: number,
  toMatch: (o: Occurrence) => InjectionMatch,
  textOf: (o: Occurrence) => string,
): ScoredPassage | undefined {
  const hitOf = (o: Occurrence): CueHit => ({
    pattern: o.pattern.id,
    index: o.index,
    cues: o.pattern.cues,
    weak: o.pattern.weak === true,
  });
  const fieldWide = occurrences.filter((o) => o.segment < 0).map(hitOf);
  let best: { score: PassageScore; segment: number } | undefined;
  for (let segment = 0; segment < segmentCount; segment++) {
    const inSegment = occurrences.filter((o) => o.segment === segment);
    if (inSegment.length === 0) continue;
    const score = bestPassage(inSegment.map(hitOf), segment > 0 ? [...fieldWide, ENCODED] : fieldWide);
    if (score && (!best || score.confidence > best.score.confidence)) best = { score, segment };
  }
  if (!best) return undefined;
  const { score, segment } = best;
  const inside = occurrences.filter(
    (o) => o.segment === segment && o.index >= score.start && o.index < score.end,
  );
  const firsts = firstOfEach(inside).sort((a, b) => byCatalogueOrder(a.pattern, b.pattern));
  const text = textOf(inside[0]!);
  return {
    ...score,
    matches: firsts.map(toMatch),
    excerpt: excerptAt(text, score.start, PASSAGE_EXCERPT_MAX),
    targets: actionTargets(text, inside),
  };
}

/**
 * What the action cues of a passage point at: for each action match, the last address, host,
 * account or wallet inside it (the send-to patterns end on their destination: "send the body of
 * the email from a@x to b@y" names b@y), else the first within TARGET_REACH characters after it
 * (patterns that stop at "… to "). Other addresses in the data around them are not targets.
 */
function actionTargets(text: string, inside: readonly Occurrence[]): string[] {
  const out = new Set<string>();
  for (const o of inside) {
    if (!o.pattern.cues.action) continue;
    const within = passageTargets(text.slice(o.index, o.end));
    const target = within.at(-1) ?? passageTargets(text.slice(o.end, o.end + TARGET_REACH))[0];
    if (target !== undefined) out.add(target);
  }
  return [...out].slice(0, 8);
}

/**
 * The evidence of a sentence that another reading of the text picked out (a request to its reader,
 * readerRequests.ts): its redacted excerpt and what it names to send things to or open, lowercased
 * as the passages' are.
 */
export function sentenceEvidence(
  text: string,
  start: number,
  end: number,
): { excerpt: string; targets: string[] } {
  const lower = text.slice(start, Math.min(end, start + REDACT_WINDOW)).toLowerCase();
  return { excerpt: excerptAt(lower, 0, PASSAGE_EXCERPT_MAX), targets: passageTargets(lower) };
}

/** How far past an action match its target may come ("… send the secrets to" + address). */
const TARGET_REACH = 120;
const TARGET = new RegExp(
  [
    String.raw`[a-z0-9._%+-]{1,64}@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,4}\.[a-z]{2,24}`,
    String.raw`(?:https?:\/\/|www\.)[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,5}`,
    String.raw`\b[a-z]{2}[0-9]{2}[a-z0-9]{10,30}\b`,
    String.raw`\b0x[0-9a-f]{40}\b`,
  ].join('|'),
  'g',
);

/**
 * The addresses, hosts, account numbers and wallets a text names, in order (lowercase, as
 * normalised text is): a link counts by its host without `www.`, which is how a later call is
 * likely to carry it. At most eight.
 */
function passageTargets(passage: string): string[] {
  const out = new Set<string>();
  TARGET.lastIndex = 0;
  for (let m = TARGET.exec(passage); m !== null && out.size < 8; m = TARGET.exec(passage))
    out.add(detached(m[0].replace(/^(?:https?:\/\/)?(?:www\.)?/, '')));
  return [...out];
}
