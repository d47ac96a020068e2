import { describe, expect, it } from 'vitest';
import { checkConsistency } from '../../src/judge/index.js';

const kinds = (text: string) => checkConsistency(text).map((f) => f.kind);

describe('stage 0: consistency', () => {
  it('finds passed/failed about the same thing, with spans', () => {
    const text = 'All tests passed. After the refactor, two tests failed.';
    const [f] = checkConsistency(text).filter((x) => x.kind === 'contradiction');
    expect(f).toBeDefined();
    expect(f!.message).toMatch(/passed\/failed.*"test"/);
    expect(f!.spans.map((s) => s.text)).toEqual(['passed', 'failed']);
    for (const s of f!.spans) expect(text.slice(s.start, s.end)).toBe(s.text);
  });

  it('does not call different subjects a contradiction', () => {
    expect(kinds('The tests passed but the build failed.')).not.toContain('contradiction');
    expect(kinds('The lint step passed, and the deploy failed later.')).not.toContain('contradiction');
  });

  it('finds always … never about the same verb', () => {
    const f = checkConsistency('The API always returns JSON. In edge cases it never returns JSON.');
    expect(f.map((x) => x.kind)).toContain('contradiction');
    expect(f.find((x) => x.message.includes('always/never'))!.spans.map((s) => s.text)).toEqual([
      'always returns',
      'never returns',
    ]);
    expect(kinds('It always logs. It never crashes.')).not.toContain('contradiction');
  });

  it('finds correct/incorrect about the same thing', () => {
    expect(kinds('The answer is correct. On review the answer is incorrect.')).toContain('contradiction');
  });

  it.each([
    ['score 0.9 but the answer is incorrect', ['score 0.9', 'incorrect']],
    ['Rating: 9/10. The summary is poor.', ['Rating: 9/10', 'poor']],
    ['8 out of 10, although it fails the main requirement', ['8 out of 10', 'fails']],
    ['Score: 95% - the plan is wrong', ['Score: 95%', 'wrong']],
    ['score: 2/10 — excellent work overall', ['score: 2/10', 'excellent']],
  ])('flags score/language mismatch in %j', (text, spans) => {
    const f = checkConsistency(text).find((x) => x.kind === 'score_language_mismatch');
    expect(f).toBeDefined();
    expect(f!.spans.map((s) => s.text)).toEqual(spans);
  });

  it('accepts scores whose words agree', () => {
    expect(kinds('Score 0.9: excellent and correct.')).toEqual([]);
    expect(kinds('Score 2/10: the output is wrong.')).toEqual([]);
  });

  it('flags hedging with every span', () => {
    const text = "I think it works, but I'm not sure. It probably handles nulls; maybe not.";
    const f = checkConsistency(text).find((x) => x.kind === 'hedging')!;
    expect(f.spans.map((s) => s.text)).toEqual(['I think', 'not sure', 'probably', 'maybe']);
    expect(f.message).toMatch(/hedging language \(4\)/);
  });

  it('is quiet on plain confident text and fast', () => {
    const text = 'The invoice total is 42.00 EUR and the customer was emailed a receipt. '.repeat(20);
    expect(checkConsistency(text)).toEqual([]);
    const t0 = performance.now();
    for (let i = 0; i < 100; i++) checkConsistency(text);
    // Informational only: stage 0 is meant to stay well under a millisecond per response.
    expect(performance.now() - t0).toBeGreaterThanOrEqual(0);
  });
});
