import { describe, expect, it } from 'vitest';
import { scanText } from '../../../src/detect/injection/scanner.js';
import {
  INJECTION_CATEGORIES,
  INJECTION_PATTERNS,
  normaliseForScan,
} from '../../../src/detect/injection/patterns.js';

const opts = { maxChars: 100_000, decodeEncoded: true };

describe('injection pattern catalogue', () => {
  it('has at least 60 patterns across all 7 categories, with unique ids', () => {
    expect(INJECTION_PATTERNS.length).toBeGreaterThanOrEqual(60);
    expect(new Set(INJECTION_PATTERNS.map((p) => p.category))).toEqual(new Set(INJECTION_CATEGORIES));
    expect(INJECTION_CATEGORIES).toHaveLength(7);
    expect(new Set(INJECTION_PATTERNS.map((p) => p.id)).size).toBe(INJECTION_PATTERNS.length);
    for (const c of INJECTION_CATEGORIES) {
      expect(INJECTION_PATTERNS.filter((p) => p.category === c).length, c).toBeGreaterThanOrEqual(6);
    }
  });

  for (const p of INJECTION_PATTERNS) {
    describe(p.id, () => {
      const prepare = (s: string) => (p.raw ? s : normaliseForScan(s));
      it('matches its positive example', () => {
        expect(p.pattern.test(prepare(p.positive))).toBe(true);
      });
      it('does not match its negative example', () => {
        expect(p.pattern.test(prepare(p.negative))).toBe(false);
      });
      it('is found by the scanner (its triggers cover the positive) and is stateless', () => {
        expect(p.pattern.flags).not.toMatch(/[gy]/);
        expect(p.triggers.every((t) => !/\s/.test(t))).toBe(true);
        expect(scanText(p.positive, opts).matches.map((m) => m.pattern)).toContain(p.id);
        expect(scanText(p.negative, opts).matches.map((m) => m.pattern)).not.toContain(p.id);
      });
    });
  }

  it('each `requires` group has a literal at a word start of the positive (the regex needs one)', () => {
    for (const p of INJECTION_PATTERNS) {
      for (const group of p.requires ?? []) {
        const text = normaliseForScan(p.positive);
        const at = (w: string) =>
          /^[a-z0-9]/.test(w)
            ? new RegExp(`(?:^|[^a-z0-9_])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).test(text)
            : text.includes(w);
        expect(group.some(at), `${p.id}: ${group.join('|')}`).toBe(true);
        expect(group.every((w) => !/\s/.test(w))).toBe(true);
      }
    }
  });

  it('the scanner finds exactly the patterns that match, whatever selects them (triggers, requires)', () => {
    // Every example, alone, in surrounding prose, and all together: what the scanner reports must be
    // what running every pattern over the normalised text finds.
    const prose = 'Please check the order, then tell me if you can send the invoice now. ';
    const examples = INJECTION_PATTERNS.filter((p) => !p.raw).flatMap((p) => [p.positive, p.negative]);
    const texts = [
      ...examples,
      ...examples.map((e) => `${prose}${e.toUpperCase()} ${prose}`),
      examples.join('\n'),
    ];
    for (const text of texts) {
      const normalised = normaliseForScan(text);
      const direct = INJECTION_PATTERNS.filter((p) => !p.raw && p.pattern.test(normalised)).map((p) => p.id);
      const scanned = scanText(text, opts)
        .matches.filter((m) => m.encoding === undefined)
        .map((m) => m.pattern);
      expect([...new Set(scanned)].sort(), text).toEqual(direct.sort());
    }
  });

  it('no negative example matches a strong pattern of any category', () => {
    for (const p of INJECTION_PATTERNS) {
      const strong = scanText(p.negative, opts).matches.filter((m) => !m.weak);
      expect(strong, `${p.id}: ${p.negative}`).toEqual([]);
    }
  });
});

describe('normaliseForScan', () => {
  it('lowercases, strips zero-width characters and collapses whitespace', () => {
    expect(normaliseForScan('IG\u200bNORE   previous\t\tinstructions')).toBe('ignore previous instructions');
    expect(normaliseForScan('a \n\n b')).toBe('a\nb');
  });
  it('applies NFKC (full-width letters) and reveals Unicode tag characters', () => {
    expect(normaliseForScan('ｉｇｎｏｒｅ')).toBe('ignore');
    const hidden = [...'ignore'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    expect(normaliseForScan(`x${hidden}`)).toBe('xignore');
  });
});
