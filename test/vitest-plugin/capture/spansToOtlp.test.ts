/**
 * spansToOtlp writes what the OTLP/HTTP JSON exporter's serializer (otlp-transformer's
 * JsonTraceSerializer) writes, for the fields the importer reads: the two are held to one output.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { spansToOtlp } from '../../../vitest-plugin/capture/spansToOtlp.js';

async function sampleSpans() {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const a = provider.getTracer('scope-a', '1.2.3');
  const b = provider.getTracer('scope-b');
  const root = a.startSpan('root', { kind: SpanKind.SERVER, startTime: [1767225600, 5] });
  const ctx = trace.setSpan(ROOT_CONTEXT, root);
  const child = b.startSpan(
    'child',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        s: 'text',
        i: 42,
        d: 1.5,
        t: true,
        ss: ['x', 'y'],
        ii: [1, 2],
        big: 2 ** 40,
        neg: -3,
      },
      links: [{ context: root.spanContext(), attributes: { why: 'follows' } }],
    },
    ctx,
  );
  child.addEvent('exception', { 'exception.message': 'timed out' }, [1767225601, 999_999_999]);
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'timed out' });
  child.end([1767225602, 0]);
  const ok = a.startSpan('ok', {}, ctx);
  ok.setStatus({ code: SpanStatusCode.OK });
  ok.end();
  root.end();
  await provider.forceFlush();
  return exporter.getFinishedSpans();
}

describe('spansToOtlp', () => {
  it('writes what JsonTraceSerializer writes, for every field the importer reads', async () => {
    const spans = await sampleSpans();
    const serialized = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans)));
    const ours = spansToOtlp(spans);
    expect(serialized).toMatchObject(ours);
    // Nanosecond strings, exact beyond a double's 2^53.
    const nanos = ([s, ns]: [number, number]) => String(BigInt(s) * 1_000_000_000n + BigInt(ns));
    const sdkChild = spans.find((s) => s.name === 'child')!;
    const child = ours.resourceSpans[0]!.scopeSpans.flatMap((s) => s.spans).find((s) => s.name === 'child')!;
    expect(child.startTimeUnixNano).toBe(nanos(sdkChild.startTime));
    expect(child.endTimeUnixNano).toBe(nanos(sdkChild.endTime));
    expect(child.events[0]!.timeUnixNano).toBe(nanos(sdkChild.events[0]!.time));
  });

  it('puts every span under one trace id when asked, and drops parents outside the spans', async () => {
    const spans = await sampleSpans();
    const withoutRoot = spans.filter((s) => s.name !== 'root');
    const doc = spansToOtlp(withoutRoot, { traceId: 'ab'.repeat(16) });
    const written = doc.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    expect(written.map((s) => s.traceId)).toEqual(['ab'.repeat(16), 'ab'.repeat(16)]);
    expect(written.every((s) => s.parentSpanId === undefined)).toBe(true);
  });
});
