/**
 * The receiver's memory bound, counted (not measured in RSS): a sender of endless rootless spans
 * (40 requests of a new trace each, the load that once held +985 MB until close) leaves at most
 * `maxWaitingSpans` spans held after every request, the rest dropped and counted; the traces that
 * keep getting spans outlive the stale ones.
 */
import { describe, expect, it } from 'vitest';
import { TraceAssembler } from '../../../vitest-plugin/receiver/traceAssembler.js';

const traceId = (n: number) => n.toString(16).padStart(32, '0');
const spanId = (n: number) => n.toString(16).padStart(16, '0');

/** One request: `count` spans of trace `trace`, children of a root that is never sent. */
function rootless(trace: number, count: number, firstSpan = 1): Record<string, unknown> {
  const spans = Array.from({ length: count }, (_, i) => ({
    traceId: traceId(trace),
    spanId: spanId(firstSpan + i),
    parentSpanId: spanId(0xffff),
    name: 'chat',
    startTimeUnixNano: '1700000000000000000',
    endTimeUnixNano: '1700000000005000000',
  }));
  return { resourceSpans: [{ scopeSpans: [{ spans }] }] };
}

const assembler = (maxWaitingSpans: number) =>
  new TraceAssembler({ quietPeriodMs: 50, maxWaitingSpans, maxTraces: 1000, onComplete: () => {} });

describe('TraceAssembler under a flood of rootless spans', () => {
  it('holds at most maxWaitingSpans after every request, and counts what it dropped', () => {
    const a = assembler(100);
    for (let request = 1; request <= 40; request++) {
      a.add(request, rootless(request, 30));
      expect(a.waitingSpans()).toBeLessThanOrEqual(100);
    }
    // Three traces of 30 fit; the 37 older ones were dropped whole.
    expect(a.waitingSpans()).toBe(90);
    expect(a.pending().map((p) => p.traceId)).toEqual([38, 39, 40].map(traceId));
    expect(a.dropped()).toEqual({ traces: 37, spans: 37 * 30, examples: [1, 2, 3, 4, 5].map(traceId) });
    a.dispose();
  });

  it('drops the trace that went longest without a span, not the oldest one still sending', () => {
    const a = assembler(10);
    a.add(1, rootless(1, 4));
    a.add(2, rootless(2, 4));
    a.add(3, rootless(1, 2, 100)); // trace 1 is sending again: trace 2 is now the stalest
    a.add(4, rootless(3, 4));
    expect(a.pending().map((p) => [p.traceId, p.spans])).toEqual([
      [traceId(1), 6],
      [traceId(3), 4],
    ]);
    expect(a.dropped()).toMatchObject({ traces: 1, spans: 4, examples: [traceId(2)] });
    // A later span of a dropped trace is dropped too, and counted.
    expect(a.add(5, rootless(2, 3, 200))).toEqual({ accepted: 0, rejected: 0, dropped: 3 });
    expect(a.dropped()).toMatchObject({ traces: 1, spans: 7 });
    a.dispose();
  });
});
