/**
 * Finished SDK spans as one OTLP/JSON document (`{ resourceSpans: [...] }`), the shape the
 * OTLP/HTTP JSON exporter sends, so captured spans go through the same importer as a file.
 *
 * Written here rather than through otlp-transformer's JsonTraceSerializer: that one returns bytes
 * (JSON.stringify, then we would JSON.parse them back), and this builds the parsed value directly,
 * several times cheaper per capture (bench/capture.mjs measures both). It writes the fields the
 * serializer writes that the importer reads; test/vitest-plugin/capture/spansToOtlp.test.ts holds the two
 * to the same output.
 */
import type { Attributes, AttributeValue, HrTime, Link } from '@opentelemetry/api';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace';

type OtlpAnyValue =
  | { stringValue: string }
  | { intValue: number }
  | { doubleValue: number }
  | { boolValue: boolean }
  | { bytesValue: string }
  | { arrayValue: { values: OtlpAnyValue[] } }
  | { kvlistValue: { values: OtlpKeyValue[] } }
  | Record<string, never>;

interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpKeyValue[];
  events: { name: string; timeUnixNano: string; attributes: OtlpKeyValue[] }[];
  links: { traceId: string; spanId: string; attributes: OtlpKeyValue[] }[];
  status: { code: number; message?: string };
}

export interface OtlpDocument {
  resourceSpans: {
    resource: { attributes: OtlpKeyValue[] };
    scopeSpans: { scope: { name: string; version?: string }; spans: OtlpSpan[] }[];
  }[];
}

export interface ToOtlpOptions {
  /**
   * Every span is written under this trace id: the code under test may start several root traces
   * in one call, and the capture is read as one trace (the importer groups spans by trace id).
   */
  traceId?: string;
}

/** Unix nanoseconds as the decimal string OTLP/JSON uses (they exceed a double's exact range). */
function hrTimeToString([s, ns]: HrTime): string {
  const nanos = String(Math.trunc(ns));
  return s === 0 ? nanos : `${Math.trunc(s)}${nanos.padStart(9, '0')}`;
}

function anyValue(value: unknown): OtlpAnyValue {
  switch (typeof value) {
    case 'string':
      return { stringValue: value };
    case 'number':
      return Number.isInteger(value) ? { intValue: value } : { doubleValue: value };
    case 'boolean':
      return { boolValue: value };
  }
  if (value instanceof Uint8Array) return { bytesValue: Buffer.from(value).toString('base64') };
  if (Array.isArray(value)) return { arrayValue: { values: value.map(anyValue) } };
  if (typeof value === 'object' && value !== null)
    return { kvlistValue: { values: attributes(value as Record<string, unknown>) } };
  return {};
}

function attributes(attrs: Attributes | Record<string, unknown> | undefined): OtlpKeyValue[] {
  if (!attrs) return [];
  const out: OtlpKeyValue[] = [];
  for (const key in attrs) out.push({ key, value: anyValue(attrs[key] as AttributeValue | undefined) });
  return out;
}

function event(e: TimedEvent) {
  return { name: e.name, timeUnixNano: hrTimeToString(e.time), attributes: attributes(e.attributes) };
}

function link(l: Link) {
  return { traceId: l.context.traceId, spanId: l.context.spanId, attributes: attributes(l.attributes) };
}

function otlpSpan(span: ReadableSpan, traceId: string | undefined, kept: Set<string>): OtlpSpan {
  const ctx = span.spanContext();
  const parent = span.parentSpanContext?.spanId;
  const out: OtlpSpan = {
    traceId: traceId ?? ctx.traceId,
    spanId: ctx.spanId,
    name: span.name,
    kind: span.kind + 1,
    startTimeUnixNano: hrTimeToString(span.startTime),
    endTimeUnixNano: hrTimeToString(span.endTime),
    attributes: attributes(span.attributes),
    events: span.events.map(event),
    links: span.links.map(link),
    status: span.status.message
      ? { code: span.status.code, message: span.status.message }
      : { code: span.status.code },
  };
  // A parent outside the captured spans (the test's own span around captureTrace) would leave the
  // capture's roots looking like orphans of a trace we do not have: they are the roots here.
  if (parent !== undefined && kept.has(parent)) out.parentSpanId = parent;
  return out;
}

type ScopeSpans = OtlpDocument['resourceSpans'][number]['scopeSpans'][number];

/** The spans, in the order given (exporters write spans as they end), grouped by resource and scope. */
export function spansToOtlp(spans: readonly ReadableSpan[], options: ToOtlpOptions = {}): OtlpDocument {
  const kept = new Set<string>();
  for (const s of spans) kept.add(s.spanContext().spanId);
  const byResource = new Map<ReadableSpan['resource'], Map<string, ScopeSpans>>();
  for (const span of spans) {
    let scopes = byResource.get(span.resource);
    if (!scopes) {
      scopes = new Map();
      byResource.set(span.resource, scopes);
    }
    const { name, version, schemaUrl } = span.instrumentationScope;
    const key = `${name}@${version ?? ''}:${schemaUrl ?? ''}`;
    let scopeSpans = scopes.get(key);
    if (!scopeSpans) {
      scopeSpans = { scope: version ? { name, version } : { name }, spans: [] };
      scopes.set(key, scopeSpans);
    }
    scopeSpans.spans.push(otlpSpan(span, options.traceId, kept));
  }
  const resourceSpans: OtlpDocument['resourceSpans'] = [];
  for (const [resource, scopes] of byResource)
    resourceSpans.push({
      resource: { attributes: attributes(resource.attributes) },
      scopeSpans: [...scopes.values()],
    });
  return { resourceSpans };
}
