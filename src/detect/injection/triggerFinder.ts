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
import { blobRunMask, MIN_BLOB_RUN } from './prefilter.js';
import { ALPHABET, type TriggerDfa } from './triggerDfa.js';

export interface TriggerHits {
  /** Indexes of the triggers found (word triggers first, then anywhere triggers), ascending. */
  triggers: number[];
  /** The maximal runs of MIN_BLOB_RUN+ base64 characters, as [start, end) pairs in text order. */
  blobRuns: number[];
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
  const delta = new Uint16Array(dfa.states * ALPHABET);
  const hasOutput = new Uint8Array(dfa.states);
  for (let s = 1; s < dfa.states; s++) {
    for (let c = 0; c < ALPHABET; c++) delta[s * ALPHABET + c] = dfa.rows[s]![dfa.classOf[c]!]!;
    hasOutput[s] = dfa.outputs[s]!.length > 0 ? 1 : 0;
  }
  const RUN = blobRunMask(ALPHABET);
  /** Generation stamps: a state's outputs are collected once per call without clearing a set. */
  const seenIn = new Uint32Array(dfa.states);
  let generation = 0;

  return {
    find(text: string): TriggerHits | undefined {
      generation = (generation + 1) >>> 0;
      if (generation === 0) {
        seenIn.fill(0);
        generation = 1;
      }
      const ended: number[] = [];
      const blobRuns: number[] = [];
      let s = dfa.start;
      let run = 0;
      const n = text.length;
      for (let i = 0; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c >= ALPHABET) return undefined;
        s = delta[(s << 7) | c]!;
        if (hasOutput[s] === 1 && seenIn[s] !== generation) {
          seenIn[s] = generation;
          ended.push(s);
        }
        const inRun = RUN[c]!;
        if (inRun === 0 && run >= MIN_BLOB_RUN) blobRuns.push(i - run, i);
        run = (run + 1) & inRun;
      }
      if (run >= MIN_BLOB_RUN) blobRuns.push(n - run, n);
      const triggers = new Set<number>();
      for (const state of ended) for (const t of dfa.outputs[state]!) triggers.add(t);
      return { triggers: [...triggers].sort((a, b) => a - b), blobRuns };
    },
  };
}
