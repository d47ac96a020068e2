import { ALPHABET, isWordChar, type TriggerDfa } from './triggerDfa.js';

/**
 * The cheap first pass of the injection scanner: one left-to-right walk over the raw text that
 * proves, for most benign fields, that no pattern of the catalogue can match, so the field is never
 * normalised, lowercased or run through a regex.
 *
 * A field passes (and gets the full scan) when it has any of:
 * - a character outside ASCII: NFKC, zero-width removal and Unicode tag characters can create
 *   matches, and every raw pattern looks for non-ASCII characters;
 * - a run of 24+ base64 / hex characters (a blob the full scan would decode);
 * - a trigger of a pattern (`InjectionPattern.triggers`), case-insensitively, at the start of a
 *   word when the trigger starts with a letter or digit (unless its pattern says `anywhere`),
 *   exactly as the full scan's keyword regexes look for them.
 *
 * On ASCII text `normaliseForScan` only lowercases and rewrites whitespace runs to one whitespace
 * character; a trigger never holds whitespace, so a trigger is in the normalised text (at a word
 * start) if and only if it is in the raw text (at a word start) ignoring case. The walk is
 * therefore a superset of the full scan's keyword check: it never rejects text the full scan
 * could report.
 *
 * The triggers are compiled into a DFA (an Aho–Corasick automaton with one extra edge: any
 * non-word character leads to the start of the word triggers), one table lookup per character.
 */

/** Runs of this many base64 (standard or URL-safe) characters are decoded by the full scan. */
export const MIN_BLOB_RUN = 24;
if (MIN_BLOB_RUN + 8 !== 32) throw new Error('walk() tests bit 5 of run + 8');
/** Longer than any trigger and than MIN_BLOB_RUN: how far the second half of a walk starts early. */
const OVERLAP = 64;

/** Base64 characters, standard or URL-safe: [A-Za-z0-9+/_-]. */
export const isBase64Char = (c: number) => isWordChar(c) || c === 0x2b || c === 0x2f || c === 0x2d;

/**
 * -1 for base64 characters, 0 for the rest (every byte value), so that the walk keeps the length
 * of the current run with `run = (run + 1) & mask[b]`, no branch.
 */
function blobRunMask(): Int32Array {
  const mask = new Int32Array(256);
  for (let c = 0; c < ALPHABET; c++) mask[c] = isBase64Char(c) ? -1 : 0;
  return mask;
}

export interface TriggerScanner {
  /** True when the text may hold a match: non-ASCII, a long base64 run, or a trigger. */
  mayMatch(text: string): boolean;
  /** Number of DFA states (for tests). */
  readonly states: number;
}

/**
 * Compiles the prefilter from the trigger automaton (see triggerDfa.ts): a table over UTF-8 bytes
 * in which every transition into a state that completes a trigger goes to the accepting sink 0.
 */
export function compileTriggerScanner(
  dfa: TriggerDfa,
  /** Which triggers make a text pass (default all); the others are only walked past. */
  accepts: (trigger: number) => boolean = () => true,
): TriggerScanner {
  if (dfa.longestTrigger >= OVERLAP)
    throw new Error(`a trigger of ${OVERLAP}+ characters would defeat the split walk`);
  const { states, start: START, classOf, rows, outputs } = dfa;
  if (states > 0xffff) throw new Error('trigger automaton too large');

  // ── the table: state × byte → state (0 accepts). The text is scanned as UTF-8, so any byte of
  // a non-ASCII character (0x80–0xff) accepts; ASCII letters are folded to lowercase. ──
  const delta = new Uint16Array(states * 256);
  // Per class first (a few dozen per state), then spread over the characters.
  const byClass = new Uint16Array(rows[0]!.length);
  for (let s = 1; s < states; s++) {
    const row = rows[s]!;
    for (let k = 0; k < row.length; k++) byClass[k] = outputs[row[k]!]!.some(accepts) ? 0 : row[k]!;
    const base = s * 256;
    for (let c = 0; c < ALPHABET; c++) delta[base + c] = byClass[classOf[c]!]!;
  }
  const RUN = blobRunMask();
  let buf = new Uint8Array(1 << 16);

  return {
    states,
    mayMatch(text: string): boolean {
      if (text.length * 3 > buf.length) buf = new Uint8Array(Math.max(text.length * 3, buf.length * 2));
      return walk(buf, encoder.encodeInto(text, buf).written, delta, RUN, START);
    },
  };
}

/**
 * The hot loop, over the UTF-8 bytes. Two halves of the text are walked at once (independent
 * chains of table lookups run in parallel on the CPU); the second half starts `OVERLAP` bytes
 * early in the start state, so a trigger or a base64 run across the middle is still seen whole
 * (starting there as if at a word start can only add hits, never lose one).
 */
function walk(bytes: Uint8Array, n: number, delta: Uint16Array, RUN: Int32Array, start: number): boolean {
  const half = n >> 1;
  const j0 = half > OVERLAP ? half - OVERLAP : 0;
  let a = start;
  let b = start;
  let runA = 0;
  let runB = 0;
  let long = 0;
  let i = 0;
  let j = j0;
  // Chain A walks [0, half), chain B walks [j0, n); B has at least as many bytes as A.
  for (; i < half; i++, j++) {
    const x = bytes[i]!;
    const y = bytes[j]!;
    a = delta[(a << 8) | x]!;
    b = delta[(b << 8) | y]!;
    if (a === 0 || b === 0) return true;
    runA = (runA + 1) & RUN[x]!;
    runB = (runB + 1) & RUN[y]!;
    // run + 8 is below 32 until the run reaches MIN_BLOB_RUN (24), then passes through 32–39:
    // bit 5 of the OR is set exactly when some run reached 24.
    long |= (runA + 8) | (runB + 8);
  }
  for (; j < n; j++) {
    const y = bytes[j]!;
    b = delta[(b << 8) | y]!;
    if (b === 0) return true;
    runB = (runB + 1) & RUN[y]!;
    long |= runB + 8;
  }
  return (long & 32) !== 0;
}

const encoder = new TextEncoder();
