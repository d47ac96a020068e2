import { describe, expect, it } from 'vitest';
import { coherenceFromSimilarity } from '../../src/session/fromDetectorSignals.js';
import { lexicalSimilarity, sketch, sketchJaccard, textOf } from '../../src/session/similarity.js';
import { sessionFactsOf } from '../../src/session/traceFacts.js';
import { TraceSchema } from '../../src/trace/schema.js';

describe('lexical similarity', () => {
  it('is the cosine of the content-word sets, and says nothing about texts too short to judge', () => {
    expect(lexicalSimilarity('refund policy for order 42', 'order 42 refund policy')).toBeCloseTo(1, 10);
    expect(lexicalSimilarity('weather in paris today', 'quarterly revenue grew strongly')).toBe(0);
    // Function words do not count: "the", "is", "of" …
    expect(lexicalSimilarity('the black cat is on the mat', 'the brown dog is in the house')).toBe(0);
    expect(lexicalSimilarity('2+2?', '4')).toBeUndefined();
  });

  it('maps to a coherence that lexical evidence alone can lower only so far', () => {
    expect(coherenceFromSimilarity(0.5)).toBe(1);
    expect(coherenceFromSimilarity(0)).toBeCloseTo(0.7, 10);
    expect(coherenceFromSimilarity(0.1)).toBeCloseTo(0.85, 10);
  });

  it('reads text from strings, chat messages, text parts and objects', () => {
    expect(textOf([{ role: 'user', content: [{ type: 'text', text: 'hello there' }] }])).toBe('hello there');
    expect(textOf({ question: 'why', meta: { n: 1, note: 'x' } })).toBe('why\nx');
    expect(textOf({ role: 'assistant', toolCalls: [{ name: 'x' }] })).toBe('');
  });
});

describe('sketches', () => {
  it('give the exact Jaccard similarity of small sets', () => {
    const a = sketch(['a', 'b', 'c', 'd']);
    const b = sketch(['c', 'd', 'e', 'f']);
    expect(sketchJaccard(a, b)).toBeCloseTo(2 / 6, 10);
    expect(sketchJaccard(a, a)).toBe(1);
    expect(sketchJaccard(a, [])).toBe(0);
  });

  it('estimate it for large sets from a bounded number of hashes', () => {
    const xs = Array.from({ length: 1000 }, (_, i) => `x${i}`);
    const a = sketch(xs);
    const b = sketch([...xs.slice(0, 900), ...Array.from({ length: 100 }, (_, i) => `y${i}`)]);
    expect(a).toHaveLength(32);
    expect(sketchJaccard(a, b)).toBeGreaterThan(0.6);
    expect(sketchJaccard(a, sketch(Array.from({ length: 1000 }, (_, i) => `z${i}`)))).toBe(0);
  });
});

describe('session facts of a trace', () => {
  const trace = TraceSchema.parse({
    id: 't',
    input: 'Where is my order 8812? It should have arrived.',
    output: { role: 'assistant', content: 'Your order 8812 shipped and arrives today.' },
    steps: [
      { type: 'tool', name: 'lookup_order', args: { id: 8812 }, status: 'error' },
      { type: 'tool', name: 'lookup_order', args: { id: 8812 } },
      { type: 'tool', name: 'notify', args: { to: 'customer' } },
    ],
  });

  it('counts failed tool steps and measures input/output similarity', () => {
    const f = sessionFactsOf(trace);
    expect(f).toMatchObject({ toolSteps: 3, failedToolSteps: 1 });
    expect(f.ioSimilarity).toBeGreaterThan(0.2);
    expect(f.fingerprint.length).toBeGreaterThan(3);
    expect(f.fingerprint.length).toBeLessThanOrEqual(32);
  });

  it('takes the similarity it is given (the seam for embeddings)', () => {
    expect(sessionFactsOf(trace, { similarity: () => 0.05 }).ioSimilarity).toBe(0.05);
    expect(sessionFactsOf(trace, { similarity: () => undefined }).ioSimilarity).toBeUndefined();
  });

  it('is the same for the same run, and tells a different run apart', () => {
    const again = TraceSchema.parse({ ...trace, id: 'u' });
    expect(sketchJaccard(sessionFactsOf(trace).fingerprint, sessionFactsOf(again).fingerprint)).toBe(1);
    const other = TraceSchema.parse({
      id: 'v',
      output: 'Your subscription has been cancelled as requested.',
      steps: [{ type: 'tool', name: 'cancel_subscription', args: { plan: 'pro' } }],
    });
    expect(sketchJaccard(sessionFactsOf(trace).fingerprint, sessionFactsOf(other).fingerprint)).toBe(0);
  });
});
