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
   * What each character is besides its automaton class: BASE64 (part of a blob run), SPACE
   * (whitespace normalising keeps when alone: ' ', '\n'), SPACE|ODD_SPACE (tab, CR, VT, FF), or
   * ODD_SPACE alone for the backslash: not whitespace, but it too means the text needs more than
   * lowercasing (see normaliseForScan).
   */
  const BASE64 = 4;
  const SPACE = 1;
  const ODD_SPACE = 2;
  const KIND = new Uint8Array(ALPHABET);
  for (let c = 0; c < ALPHABET; c++) if (isBase64Char(c)) KIND[c] = BASE64;
  KIND[0x20] = KIND[0x0a] = SPACE;
  KIND[0x09] = KIND[0x0b] = KIND[0x0c] = KIND[0x0d] = SPACE | ODD_SPACE;
  KIND[0x5c] = ODD_SPACE;
  /** Generation stamps: a state's outputs are collected once per call without clearing a set. */
  const seenIn = new Uint32Array(dfa.states);
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
      const ended: number[] = [];
      const blobRuns: number[] = [];
      let s = start;
      let run = 0;
      let space = 0;
      let rewrite = 0;
      for (let i = 0; i < n; i++) {
        const c = bytes[i]!;
        s = delta[(s << 7) | c]!;
        if (s >= FIRST_OUTPUT && seenIn[s] !== generation) {
          seenIn[s] = generation;
          ended.push(s);
        }
        const kind = KIND[c]!;
        if (kind === BASE64) {
          run++;
          space = 0;
        } else {
          if (run >= MIN_BLOB_RUN) blobRuns.push(i - run, i);
          run = 0;
          // Set when whitespace follows whitespace, or is a tab, CR, VT or FF.
          rewrite |= kind & (ODD_SPACE | space);
          space = kind & SPACE;
        }
      }
      if (run >= MIN_BLOB_RUN) blobRuns.push(n - run, n);
      let count = 0;
      for (let e = 0; e < ended.length; e++) {
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

const encoder = new TextEncoder();
