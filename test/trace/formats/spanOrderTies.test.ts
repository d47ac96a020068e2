import { describe, expect, it } from 'vitest';
import { orderSpans, type Span } from '../../../src/trace/formats/otlp.js';

const ms = (n: number) => BigInt(n) * 1_000_000n;

function span(
  spanId: string,
  opts: { parent?: string; start?: number; end?: number; scope?: string; seq: number },
): Span {
  return {
    traceId: 'ab'.repeat(16),
    spanId,
    ...(opts.parent ? { parentSpanId: opts.parent } : {}),
    name: spanId,
    ...(opts.start !== undefined ? { start: ms(opts.start) } : {}),
    ...(opts.end !== undefined ? { end: BigInt(Math.round(opts.end * 1_000_000)) } : {}),
    attributes: {},
    resource: {},
    ...(opts.scope ? { scope: { name: opts.scope } } : {}),
    status: { code: 'unset' },
    events: [],
    path: '',
    seq: opts.seq,
  };
}

const order = (spans: Span[]) => orderSpans(spans).ordered.map((s) => s.spanId);

describe('orderSpans: siblings that start in the same millisecond', () => {
  it('across scopes, the span that ends first comes first, whatever the file order', () => {
    // OTLP groups spans by scope: the LLM scope's spans come first in the file.
    const spans = [
      span('root', { start: 0, end: 100, scope: 'agent', seq: 0 }),
      span('llm-2', { parent: 'root', start: 51, end: 55.2, scope: 'openai', seq: 1 }),
      span('tool-1', { parent: 'root', start: 51, end: 51.16, scope: 'core', seq: 2 }),
    ];
    expect(order(spans)).toEqual(['root', 'tool-1', 'llm-2']);
  });

  it('without scopes too, ends first, then file order', () => {
    const spans = [
      span('root', { start: 0, end: 100, seq: 0 }),
      span('b', { parent: 'root', start: 10, end: 12, seq: 1 }),
      span('a', { parent: 'root', start: 10, end: 11, seq: 2 }),
      span('c', { parent: 'root', start: 10, end: 12, seq: 3 }),
      span('open', { parent: 'root', start: 10, seq: 4 }),
    ];
    expect(order(spans)).toEqual(['root', 'a', 'b', 'c', 'open']);
  });

  it('within one scope, file order: the exporter wrote spans as they ended', () => {
    // An SDK that stamps a millisecond start adds the measured duration to it: the later of two
    // sub-millisecond calls can show the earlier end. The file order is the true one.
    const spans = [
      span('root', { start: 0, end: 100, scope: 'langfuse-sdk', seq: 2 }),
      span('tool-3', { parent: 'root', start: 56, end: 56.123, scope: 'langfuse-sdk', seq: 0 }),
      span('llm-4', { parent: 'root', start: 56, end: 56.061, scope: 'langfuse-sdk', seq: 1 }),
    ];
    expect(order(spans)).toEqual(['root', 'tool-3', 'llm-4']);
  });

  it('a parent always comes before its children, even one that starts with it and ends later', () => {
    const spans = [
      span('child', { parent: 'parent', start: 5, end: 6, seq: 0 }),
      span('parent', { start: 5, end: 9, seq: 1 }),
      span('sibling', { start: 5, end: 5.5, seq: 2 }),
    ];
    // The sibling ends first, so it comes before the parent; the child stays under its parent.
    expect(order(spans)).toEqual(['sibling', 'parent', 'child']);
  });

  it('different starts still order by start alone', () => {
    const spans = [
      span('late', { start: 20, end: 21, seq: 0 }),
      span('early', { start: 10, end: 30, seq: 1 }),
    ];
    expect(order(spans)).toEqual(['early', 'late']);
  });
});
