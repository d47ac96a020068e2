/**
 * The keyword pass of the full injection scan, for ASCII text: one walk that reports which
 * triggers occur and where the base64 runs long enough to decode are, in place of a keyword
 * regex per trigger kind and a loop looking for blobs.
 *
 * On ASCII text `normaliseForScan` only lowercases and rewrites whitespace runs, and no trigger
 * holds whitespace, so a trigger occurs in the normalised text (at a word start) exactly when it
 * occurs in the raw text (at a word start) ignoring case: the walk can read the raw text. It
 * reports every occurrence, overlapping or not, so it finds a superset of the triggers that a
 * regex alternation (one match per position, non-overlapping) reports. Finding a trigger only
 * selects the patterns to run, so a superset changes no finding.
 *
 * Text with a character outside ASCII is not walked (`find` returns undefined): NFKC, zero-width
 * removal and tag characters can create triggers there, so that text takes the regex path over
 * the normalised text.
 */
import { isBase64Char, MIN_BLOB_RUN } from './prefilter.js';
import { ALPHABET, type TriggerDfa } from './triggerDfa.js';

export interface TriggerHits {
  /** Indexes of the triggers found (word triggers first, then anywhere triggers), ascending. */
  triggers: number[];
  /** The maximal runs of MIN_BLOB_RUN+ base64 characters, as [start, end) pairs in text order. */
  blobRuns: number[];
  /**
   * No whitespace run, no whitespace but ' ' and '\n', and no backslash (a written escape such as
   * `\n` may need rewriting): normalising only lowercases the text.
   */
  onlyLowercase: boolean;
}

export interface TriggerFinder {
  /** What the text holds, or undefined when it has a non-ASCII character. */
  find(text: string): TriggerHits | undefined;
}

const ASCII_WHITESPACE = /\s/;

export function compileTriggerFinder(dfa: TriggerDfa): TriggerFinder {
  for (const t of dfa.triggers) {
    // The walk reads raw text; both properties are what makes that equal to reading normalised text.
    if (/[^\x00-\x7f]/.test(t)) throw new Error(`trigger "${t}" is not ASCII`);
    if (ASCII_WHITESPACE.test(t)) throw new Error(`trigger "${t}" holds whitespace`);
  }
  if (ALPHABET !== 128) throw new Error('find() indexes the table with (state << 7) | char');
  if (dfa.states > 0xffff) throw new Error('trigger automaton too large');
  if (MIN_BLOB_RUN + 8 !== 32) throw new Error('find() tests bit 5 of run + 8');
  // States are renumbered so that those where a trigger ends come last: the walk tests for one
  // with a comparison instead of a table read.
  const order = Array.from({ length: dfa.states }, (_, s) => s).sort(
    (a, b) => Number(dfa.outputs[a]!.length > 0) - Number(dfa.outputs[b]!.length > 0) || a - b,
  );
  const renamed = new Int32Array(dfa.states);
  order.forEach((s, id) => (renamed[s] = id));
  const firstWithOutput = order.findIndex((s) => dfa.outputs[s]!.length > 0);
  const FIRST_OUTPUT = firstWithOutput === -1 ? dfa.states : firstWithOutput;
  const outputsOf = order.map((s) => dfa.outputs[s]!);
  const delta = new Uint16Array(dfa.states * ALPHABET);
  const { rows, classOf } = dfa;
  for (let s = 1; s < dfa.states; s++) {
    const row = rows[s]!;
    const base = renamed[s]! * ALPHABET;
    for (let c = 0; c < ALPHABET; c++) delta[base + c] = renamed[row[classOf[c]!]!]!;
  }
  const start = renamed[dfa.start]!;
  /**
   * The state after a space, whatever the state before: no trigger holds whitespace, so a space
   * ends every partial match and leaves only "a word starts next". Were that not so for some
   * automaton, text would be walked in one chain (SPLIT false).
   */
  const AFTER_SPACE = delta[(start << 7) | 0x20]!;
  let SPLIT = true;
  for (let st = 1; st < dfa.states; st++) if (delta[(st << 7) | 0x20] !== AFTER_SPACE) SPLIT = false;
  /**
   * What each character is besides its automaton class, as tables the walk reads without a
   * branch: RUN is -1 for a base64 character (a blob run goes on) and 0 for any other (it ends);
   * WS is SPACE for whitespace normalising keeps when alone (' ', '\n'), SPACE|ODD_SPACE for tab,
   * CR, VT and FF, and ODD_SPACE alone for the backslash: not whitespace, but it too means the
   * text needs more than lowercasing (see normaliseForScan).
   */
  const SPACE = 1;
  const ODD_SPACE = 2;
  const RUN = new Int32Array(ALPHABET);
  for (let c = 0; c < ALPHABET; c++) if (isBase64Char(c)) RUN[c] = -1;
  const WS = new Uint8Array(ALPHABET);
  WS[0x20] = WS[0x0a] = SPACE;
  WS[0x09] = WS[0x0b] = WS[0x0c] = WS[0x0d] = SPACE | ODD_SPACE;
  WS[0x5c] = ODD_SPACE;
  /** Generation stamps: a state's outputs are collected once per call without clearing a set. */
  const seenIn = new Uint32Array(dfa.states);
  /** The states where a trigger ends that a call reached, each once (reused from call to call). */
  const ended = new Int32Array(dfa.states);
  /**
   * The same for triggers, and the triggers found, reused from call to call: a chat text holds
   * dozens, and a Set and a sorted copy of it per field were a tenth of a run's garbage.
   */
  const triggerSeenIn = new Uint32Array(dfa.triggers.length);
  const found = new Int32Array(dfa.triggers.length);
  let generation = 0;
  let buf = new Uint8Array(1 << 16);

  return {
    find(text: string): TriggerHits | undefined {
      // Walked as UTF-8 bytes, which reads faster than char codes. ASCII text is one byte per
      // character, so a longer encoding means a non-ASCII character (and byte i is character i).
      if (text.length * 3 > buf.length) buf = new Uint8Array(Math.max(text.length * 3, buf.length * 2));
      const n = encoder.encodeInto(text, buf).written;
      if (n !== text.length) return undefined;
      generation = (generation + 1) >>> 0;
      if (generation === 0) {
        seenIn.fill(0);
        triggerSeenIn.fill(0);
        generation = 1;
      }
      const bytes = buf;
      // Two walks at once, as the prefilter does: chain A over [0, half), chain B from j0, just
      // after the last space before half, to the end. The two state chains do not depend on each
      // other, so the processor runs them side by side. B starts in the state after a space, which
      // is the state there. A finds the triggers that end before half; one that ends at or past
      // half starts at or after j0 (no trigger holds the space before j0), so B finds it. Every
      // pair of neighbouring characters is seen by A or B (B knows its first character follows a
      // space), which is all the whitespace check needs. Short text, or text without a space in
      // the SPLIT_SEARCH characters before half, is walked by B alone.
      let half = n >> 1;
      let j0 = 0;
      if (SPLIT && half > 0) {
        const space = text.lastIndexOf(' ', half - 1);
        if (space >= 0 && space >= half - SPLIT_SEARCH) j0 = space + 1;
      }
      if (j0 === 0) half = 0;
      let a = start;
      let b = j0 === 0 ? start : AFTER_SPACE;
      let ends = 0;
      // Base64 run lengths so far; `long` gets bit 5 once a run reaches MIN_BLOB_RUN (run + 8 is
      // below 32 until then), and the runs themselves are found afterwards, in the rare text with one.
      let runA = 0;
      let runB = 0;
      let long = 0;
      // Whether the last character was whitespace; `rewrite` is set when whitespace follows
      // whitespace, or is a tab, CR, VT or FF, or the character is a backslash.
      let spaceA = 0;
      let spaceB = j0 === 0 ? 0 : SPACE;
      let rewrite = 0;
      let j = j0;
      for (let i = 0; i < half; i++, j++) {
        const x = bytes[i]!;
        const y = bytes[j]!;
        a = delta[(a << 7) | x]!;
        b = delta[(b << 7) | y]!;
        if (a >= FIRST_OUTPUT && seenIn[a] !== generation) {
          seenIn[a] = generation;
          ended[ends++] = a;
        }
        if (b >= FIRST_OUTPUT && seenIn[b] !== generation) {
          seenIn[b] = generation;
          ended[ends++] = b;
        }
        runA = (runA + 1) & RUN[x]!;
        runB = (runB + 1) & RUN[y]!;
        long |= (runA + 8) | (runB + 8);
        const wx = WS[x]!;
        const wy = WS[y]!;
        rewrite |= (wx & (ODD_SPACE | spaceA)) | (wy & (ODD_SPACE | spaceB));
        spaceA = wx & SPACE;
        spaceB = wy & SPACE;
      }
      for (; j < n; j++) {
        const y = bytes[j]!;
        b = delta[(b << 7) | y]!;
        if (b >= FIRST_OUTPUT && seenIn[b] !== generation) {
          seenIn[b] = generation;
          ended[ends++] = b;
        }
        runB = (runB + 1) & RUN[y]!;
        long |= runB + 8;
        const wy = WS[y]!;
        rewrite |= wy & (ODD_SPACE | spaceB);
        spaceB = wy & SPACE;
      }
      const blobRuns = (long & 32) === 0 ? [] : blobRunsIn(bytes, n, RUN);
      let count = 0;
      for (let e = 0; e < ends; e++) {
        const outputs = outputsOf[ended[e]!]!;
        for (let k = 0; k < outputs.length; k++) {
          const t = outputs[k]!;
          if (triggerSeenIn[t] === generation) continue;
          triggerSeenIn[t] = generation;
          found[count++] = t;
        }
      }
      // A typed array sorts as numbers, in place.
      const triggers = Array.from(found.subarray(0, count).sort());
      return { triggers, blobRuns, onlyLowercase: rewrite === 0 };
    },
  };
}

/** The maximal runs of MIN_BLOB_RUN+ base64 characters (RUN -1) in bytes[0, n), as [start, end) pairs. */
function blobRunsIn(bytes: Uint8Array, n: number, RUN: Int32Array): number[] {
  const runs: number[] = [];
  let run = 0;
  for (let i = 0; i < n; i++) {
    if (RUN[bytes[i]!] !== 0) {
      run++;
      continue;
    }
    if (run >= MIN_BLOB_RUN) runs.push(i - run, i);
    run = 0;
  }
  if (run >= MIN_BLOB_RUN) runs.push(n - run, n);
  return runs;
}

const encoder = new TextEncoder();
/** How far before the middle a space is looked for, to start the second chain after it. */
const SPLIT_SEARCH = 4096;
