import { describe, expect, it } from 'vitest';
import { signal as makeSignal } from '../helpers/signalBuilder.js';
import { failureCase } from '../../src/tiers/failureCase.js';
import type { Step } from '../../src/trace/schema.js';
import { makeTrace, retrieval, tool } from '../helpers/traceBuilder.js';

const TOKEN = 'ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5z';

const signal = makeSignal({ traceId: 't1', confidence: 0.5, message: 'fetch called 3×' });

describe('failureCase: what a judge sees', () => {
  it('never shows the prefix of a secret that straddles the 1,500-character cut', () => {
    // The token runs across the cut: clipped first, `ghp_aB3dE5fG7hI9` would be left.
    const result = `${'x'.repeat(1484)} ${TOKEN}`;
    const c = failureCase(makeTrace([tool('fetch', { result })]), signal, 'loops');
    const seen = JSON.stringify(c);
    expect(seen).not.toContain('ghp_');
    const step = (c.response as { steps: { result: string }[] }).steps[0]!;
    expect(step.result).toBe(`${'x'.repeat(1484)} [REDACTED]`);
  });

  it('still says how much of a long field was cut', () => {
    const c = failureCase(makeTrace([tool('fetch', { result: 'z'.repeat(2000) })]), signal, 'loops');
    const step = (c.response as { steps: { result: string }[] }).steps[0]!;
    expect(step.result).toBe(`${'z'.repeat(1500)}… [500 more characters]`);
  });

  it('gives the top score of a retrieval with more results than spread arguments fit', () => {
    const results = Array.from({ length: 300_000 }, (_, i) => ({ score: i === 123 ? 0.9 : 0.1 }));
    const t = makeTrace([retrieval({ results: [] })]);
    (t.steps[0] as Extract<Step, { type: 'retrieval' }>).results = results;
    const c = failureCase(t, makeSignal({ traceId: 't1', steps: [1] }), 'empty retrieval');
    expect((c.response as { steps: { topScore: number }[] }).steps[0]!.topScore).toBe(0.9);
  });
});
