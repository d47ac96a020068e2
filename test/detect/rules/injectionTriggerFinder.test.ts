import { describe, expect, it } from 'vitest';
import { OTHER_TRIGGERS, scanText, WORD_TRIGGERS } from '../../../src/detect/injection/scanner.js';
import { INJECTION_PATTERNS, normaliseForScan } from '../../../src/detect/injection/patterns.js';
import { buildTriggerDfa } from '../../../src/detect/injection/triggerDfa.js';
import { compileTriggerFinder } from '../../../src/detect/injection/triggerFinder.js';

// Triggers in other scripts are left to the regex path: ASCII text cannot hold them.
const ascii = (t: string) => !/[^\x00-\x7f]/.test(t);
const dfa = buildTriggerDfa(WORD_TRIGGERS.filter(ascii), OTHER_TRIGGERS.filter(ascii));
const finder = compileTriggerFinder(dfa);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * The triggers that occur in text, by definition: word triggers at a word start (after a non-word
 * character or a written escape \n, \r, \t), the others anywhere.
 */
const wordCount = WORD_TRIGGERS.filter(ascii).length;
const atWordStart = dfa.triggers.map((t) => new RegExp(`(?:^|[^a-z0-9_]|\\\\[nrt])${escape(t)}`));
function triggersIn(text: string): number[] {
  const lower = text.toLowerCase();
  const out: number[] = [];
  dfa.triggers.forEach((t, i) => {
    if (i < wordCount ? atWordStart[i]!.test(lower) : lower.includes(t)) out.push(i);
  });
  return out;
}

function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** ASCII text made of trigger pieces, whole positives, words, punctuation and odd case and spacing. */
function randomText(r: () => number): string {
  const pieces: string[] = [];
  const n = 1 + Math.floor(r() * 12);
  for (let i = 0; i < n; i++) {
    const k = r();
    let piece: string;
    if (k < 0.3) piece = dfa.triggers[Math.floor(r() * dfa.triggers.length)]!;
    else if (k < 0.45) {
      const t = dfa.triggers[Math.floor(r() * dfa.triggers.length)]!;
      piece = t.slice(0, Math.max(1, Math.floor(r() * t.length))); // a trigger cut short
    } else if (k < 0.6) piece = INJECTION_PATTERNS[Math.floor(r() * INJECTION_PATTERNS.length)]!.positive;
    else if (k < 0.7) piece = 'Ab0+/_-'.repeat(1 + Math.floor(r() * 5)).slice(0, 20 + Math.floor(r() * 10));
    else
      piece = ['the order', 'x', '_', '9', 'refund', '(', '"', '\t', '\n\n', '  ', '\\n', '\\', '\\\n  \\ '][
        Math.floor(r() * 13)
      ]!;
    if (r() < 0.3) piece = piece.toUpperCase();
    pieces.push(piece);
    pieces.push(['', ' ', '-', '_', 'a', '\n', '\t \t', '.'][Math.floor(r() * 8)]!);
  }
  // positives may hold non-ASCII; this test is about ASCII text
  return pieces.join('').replace(/[^\x00-\x7f]/g, '?');
}

describe('trigger finder (the keyword pass over ASCII text)', () => {
  it('reports exactly the triggers that occur, every base64 run of 24+ characters and odd spacing', () => {
    const r = rng(7);
    let withTriggers = 0;
    let withRuns = 0;
    for (let i = 0; i < 3_000; i++) {
      const text = randomText(r);
      const hits = finder.find(text)!;
      expect(hits, text).toBeDefined();
      expect(hits.triggers, text).toEqual(triggersIn(text));
      const runs = [...text.matchAll(/(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{24,}/g)];
      expect(hits.blobRuns, text).toEqual(runs.flatMap((m) => [m.index, m.index + m[0].length]));
      // normalising rewrites whitespace runs, odd whitespace and written escapes; else it only lowercases
      expect(hits.onlyLowercase, text).toBe(!/\s\s|[\t\v\f\r\\]/.test(text));
      expect(normaliseForScan(text, { ascii: true, onlyLowercase: hits.onlyLowercase })).toBe(
        normaliseForScan(text),
      );
      if (hits.triggers.length > 0) withTriggers++;
      if (hits.blobRuns.length > 0) withRuns++;
    }
    expect(withTriggers).toBeGreaterThan(1_000);
    expect(withRuns).toBeGreaterThan(100);
  });

  it('reads long text in two halves at once and reports exactly the same, at every place they meet', () => {
    // Long texts are walked from both ends of a split near the middle: triggers, base64 runs and
    // whitespace cut by the split, or right beside it, must come out as from one walk.
    const r = rng(11);
    let split = 0;
    for (let i = 0; i < 400; i++) {
      const parts: string[] = [];
      const target = 200 + Math.floor(r() * 6_000);
      while (parts.join(' ').length < target) parts.push(randomText(r));
      let text = parts.join(r() < 0.5 ? ' ' : '');
      // Something that crosses the middle: a trigger, a base64 run, a whitespace run.
      const middle = text.length >> 1;
      const across = [dfa.triggers[Math.floor(r() * dfa.triggers.length)]!, 'QUJD'.repeat(10), ' \n\t  '][
        Math.floor(r() * 3)
      ]!;
      const at = middle - Math.floor(r() * (across.length + 40));
      text = `${text.slice(0, at)}${r() < 0.5 ? ' ' : ''}${across}${text.slice(at)}`;
      if (text.lastIndexOf(' ', (text.length >> 1) - dfa.longestTrigger - 1) > 0) split++;
      const hits = finder.find(text)!;
      expect(hits.triggers, text).toEqual(triggersIn(text));
      const runs = [...text.matchAll(/(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{24,}/g)];
      expect(hits.blobRuns, text).toEqual(runs.flatMap((m) => [m.index, m.index + m[0].length]));
      expect(hits.onlyLowercase, text).toBe(!/\s\s|[\t\v\f\r\\]/.test(text));
    }
    expect(split).toBeGreaterThan(300);
    // Whitespace only where the halves meet: the space B starts after, and a newline after it.
    for (const k of [100, 101, 2_000]) {
      const words = 'order '.repeat(k).trim();
      const cut = (words.length + 1) >> 1;
      const text = `${words.slice(0, cut - 1)} \n${words.slice(cut - 1)}`;
      expect(text[(text.length >> 1) - 1], `split after the space (k=${k})`).toBe(' ');
      expect(finder.find(text)!.onlyLowercase, text).toBe(false);
    }
  });

  it('declines text with a non-ASCII character (it takes the regex path)', () => {
    expect(finder.find('ignore café')).toBeUndefined();
    expect(finder.find('i\u200bgnore')).toBeUndefined();
    expect(finder.find('plain text')).toEqual({ triggers: [], blobRuns: [], onlyLowercase: true });
    expect(finder.find('\u{1F600} x')).toBeUndefined(); // an astral character, two UTF-16 units
  });

  it('refuses triggers it could not read from raw text', () => {
    expect(() => compileTriggerFinder(buildTriggerDfa(['ignore'], ['é']))).toThrow(/not ASCII/);
    expect(() => compileTriggerFinder(buildTriggerDfa(['the\tend'], []))).toThrow(/whitespace/);
  });
});

describe('scanText with the finder finds what the whole catalogue finds', () => {
  it('on random ASCII text, the same patterns as running every pattern over the normalised text', () => {
    const r = rng(11);
    const opts = { maxChars: 100_000, decodeEncoded: true };
    let found = 0;
    for (let i = 0; i < 2_000; i++) {
      const text = randomText(r);
      const normalised = normaliseForScan(text);
      const expected = INJECTION_PATTERNS.filter((p) => !p.raw && p.pattern.test(normalised)).map(
        (p) => p.id,
      );
      const got = scanText(text, opts)
        .matches.filter((m) => !m.encoding)
        .map((m) => m.pattern);
      expect(got, text).toEqual(expected);
      found += got.length;
    }
    expect(found).toBeGreaterThan(500);
  });
});
