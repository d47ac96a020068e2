/**
 * Shared OTLP span reading for the span-based formats (otel, openinference): decoding of OTLP/JSON
 * documents and span-per-line JSONL, attribute values, ids and nanosecond times; grouping spans by
 * trace id; and the parent/child walk that puts steps in trace order. The formats themselves only
 * map attributes (see `SpanMapping`).
 *
 * Accepted shapes, one parsed JSON value at a time:
 * - an OTLP/JSON document `{ resourceSpans: [{ resource, scopeSpans: [{ scope, spans: [...] }] }] }`
 *   (also the pre-1.0 `instrumentationLibrarySpans` / `instrumentationLibrary`), whole or one per
 *   JSONL line as the collector's file exporter writes it;
 * - one span per JSONL line, flat: `traceId`, `spanId`, `parentSpanId`, `name`, `startTimeUnixNano`,
 *   `endTimeUnixNano`, `attributes` (OTLP key/value list or a plain object), `status`, `events`,
 *   optionally `resource`;
 * - the OpenTelemetry Python SDK's ConsoleSpanExporter / `span.to_json()` shape
 *   (`context.trace_id`, `parent_id`, ISO `start_time`, `status.status_code`);
 * - the OpenTelemetry JS SDK's ConsoleSpanExporter shape (`traceId`, `id`, `parentId` or
 *   `parentSpanContext`, `timestamp` and `duration` in microseconds).
 */
import {
  isRecord,
  type ImportedTrace,
  type ImportSink,
  type ReaderOptions,
  type TraceReader,
} from '../importer.js';
import { OpenGroups } from './openGroups.js';
import { parseIsoMs } from '../measure.js';
import type { ChatMessage, TraceInput } from '../schema.js';
import { outcomeFromSpanAttributes } from '../outcome.js';
import { quoted } from '../../redact/safeText.js';
import { linkIssuedBy } from '../issuedBy.js';
import { mergeNestedLlmCalls } from './nestedLlmCalls.js';

/**
 * `obj[key] = value`, where a key named `__proto__` (any attribute key is trace data) becomes an
 * own property, as JSON.parse makes it, instead of replacing the object's prototype.
 */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

export type StepInput = NonNullable<TraceInput['steps']>[number];
export type Attributes = Record<string, unknown>;

export interface SpanEvent {
  name: string;
  /** Unix nanoseconds. */
  time?: bigint;
  attributes: Attributes;
}

export interface SpanStatus {
  code: 'unset' | 'ok' | 'error';
  message?: string;
}

/** One span, decoded: ids in lower-case hex, times in unix nanoseconds, attributes as plain values. */
export interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: string;
  start?: bigint;
  end?: bigint;
  attributes: Attributes;
  resource: Attributes;
  scope?: { name?: string; version?: string };
  status: SpanStatus;
  events: SpanEvent[];
  /** Where the span came from, for problem reports. */
  line?: number;
  path: string;
  /** Arrival order, the tie-breaker when start times are equal or missing. */
  seq: number;
}

/** Reports problems about one span's attributes with the span's line and path. */
export interface MapContext {
  problem(span: Span, field: string, message: string): void;
  /** Something read, but not as the span says it (a note with the span's line and field). */
  warning?(span: Span, field: string, message: string): void;
}

/** What a format adds to the shared span handling: how its attributes map to a trace. */
export interface SpanMapping {
  /** A span that stands for an agent run (or a whole chain); the first one in trace order is the trace. */
  isAgent(span: Span): boolean;
  /** The step a span records, or undefined when it is not a step (its children are still walked). */
  toStep(span: Span, ctx: MapContext): StepInput | undefined;
  /** Trace-level fields from the root agent span (when there is one) and all the trace's spans. */
  traceFields(root: Span | undefined, spans: Span[], ctx: MapContext): Partial<TraceInput>;
  /**
   * A span that is not a step but records work an agent did (an embedding call, an operation this
   * mapping does not know): counted in the trace's `metadata.unreadSpans`, so that a trace read in
   * part says so. Structure (agents, chains, HTTP spans) is not unread.
   */
  isUnread?(span: Span): boolean;
  /**
   * Fills in steps from the spans around them, before they are ordered into the trace: what a
   * producer records beside a call rather than on it (Mastra's tool-call chunks). Edits `stepOf`.
   */
  completeSteps?(ordered: Span[], stepOf: Map<Span, StepInput>, ctx: MapContext): void;

  /**
   * The agent a span names: an agent span's own name, or an agent attribute any span carries. A
   * step belongs to the agent its own span or the nearest span above it names (multi-agent runs:
   * a sub-agent's calls sit under its `invoke_agent` span).
   */
  agentName?(span: Span): string | undefined;
}

/** At most this many span names are kept in `metadata.unreadSpans`; the rest are counted together. */
export const MAX_UNREAD_NAMES = 20;
export const OTHER_UNREAD = '(other)';

/** Counts by span name, at most MAX_UNREAD_NAMES names. */
function countUnread(spans: Span[]): Record<string, number> | undefined {
  if (spans.length === 0) return undefined;
  const counts = new Map<string, number>();
  for (const s of spans) {
    const name = s.name || '(unnamed)';
    const key = counts.has(name) || counts.size < MAX_UNREAD_NAMES ? name : OTHER_UNREAD;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  // Built key by key: a span named `__proto__` is still a count.
  const out: Record<string, number> = {};
  for (const [k, v] of counts) setOwn(out, k, v);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Values

/**
 * Decodes one OTLP AnyValue (`{stringValue}`, `{intValue}`, …); plain JSON values pass through.
 *
 * Iterative, with an explicit list of containers still to fill: arrays and kvlists nest as deep as
 * the input says, and a recursive decoder overflows the call stack on a deep enough value, which
 * aborted the whole run. Each container is created and put in place when its parent is read, so
 * keys keep their order and a repeated key keeps its last value, as a recursive decoder gives.
 */
export function decodeAnyValue(value: unknown): unknown {
  const pending: { out: unknown[] | Attributes; values: unknown[] }[] = [];
  const open = (v: unknown): unknown => {
    if (!isRecord(v)) return v;
    if ('stringValue' in v) return v.stringValue;
    if ('boolValue' in v) return v.boolValue;
    if ('intValue' in v) return toNumber(v.intValue);
    if ('doubleValue' in v) return toNumber(v.doubleValue);
    if ('arrayValue' in v) {
      const values = isRecord(v.arrayValue) ? v.arrayValue.values : undefined;
      const out: unknown[] = [];
      if (Array.isArray(values)) pending.push({ out, values });
      return out;
    }
    if ('kvlistValue' in v) {
      const values = isRecord(v.kvlistValue) ? v.kvlistValue.values : undefined;
      const out: Attributes = {};
      if (Array.isArray(values)) pending.push({ out, values });
      return out;
    }
    if ('bytesValue' in v) return v.bytesValue;
    // An empty AnyValue is an unset value.
    if (Object.keys(v).length === 0) return undefined;
    return v;
  };
  const result = open(value);
  for (let job = pending.pop(); job; job = pending.pop()) {
    const { out, values } = job;
    if (Array.isArray(out)) for (const v of values) out.push(open(v));
    else
      for (const kv of values)
        if (isRecord(kv) && typeof kv.key === 'string') setOwn(out, kv.key, open(kv.value));
  }
  return result;
}

const ANY_VALUE_KEYS = [
  'stringValue',
  'boolValue',
  'intValue',
  'doubleValue',
  'arrayValue',
  'kvlistValue',
  'bytesValue',
];
const isAnyValue = (v: Record<string, unknown>): boolean => {
  const keys = Object.keys(v);
  return keys.length === 1 && ANY_VALUE_KEYS.includes(keys[0]!);
};

function toNumber(v: unknown): unknown {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isNaN(n) && v !== 'NaN' ? v : n;
  }
  return v;
}

/**
 * Decodes `attributes`: an OTLP list of `{key, value}` or a plain object (console exporters,
 * hand-written JSONL). Bad entries are reported and skipped.
 */
export function decodeAttributes(
  raw: unknown,
  report: (field: string, message: string) => void,
  field = 'attributes',
): Attributes {
  const out: Attributes = {};
  if (raw === undefined || raw === null) return out;
  if (Array.isArray(raw)) {
    raw.forEach((kv, i) => {
      if (!isRecord(kv) || typeof kv.key !== 'string') {
        report(`${field}[${i}]`, 'not an attribute (expected {key, value})');
        return;
      }
      const v = decodeAnyValue(kv.value);
      if (v !== undefined) setOwn(out, kv.key, v);
    });
    return out;
  }
  if (isRecord(raw)) {
    // A nested plain object is an unflattened attribute group (`{llm: {model_name: …}}`).
    flattenInto(out, raw, (v): v is Record<string, unknown> => isRecord(v) && !isAnyValue(v), decodeAnyValue);
    return out;
  }
  report(field, 'not a list of attributes (expected [{key, value}] or an object)');
  return out;
}

/** Trace and span ids: hex as OTLP/JSON writes them (also `0x`-prefixed), or base64 as protobuf JSON does. */
export function normaliseId(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  let s = raw.trim();
  if (s === '') return undefined;
  if (/^0x[0-9a-f]+$/i.test(s)) s = s.slice(2);
  if (/^[0-9a-f]{16}$|^[0-9a-f]{32}$/i.test(s)) return /^0+$/.test(s) ? undefined : s.toLowerCase();
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(s)) {
    const bytes = Buffer.from(s, 'base64');
    if (bytes.length === 8 || bytes.length === 16) {
      const hex = bytes.toString('hex');
      return /^0+$/.test(hex) ? undefined : hex;
    }
  }
  // Not an OTLP id, but still an id: keep it as written.
  return s;
}

/** Unix nanoseconds from a decimal string or a number; undefined (with a reason) otherwise. */
export function parseUnixNanos(raw: unknown): bigint | 'bad' | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw === 'string' && /^\d+$/.test(raw.trim())) return BigInt(raw.trim());
  if (typeof raw === 'number' && Number.isFinite(raw) && raw >= 0) return BigInt(Math.round(raw));
  return 'bad';
}

function parseIsoNanos(raw: unknown): bigint | 'bad' | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string') return 'bad';
  const ms = parseIsoMs(raw);
  if (!Number.isFinite(ms)) return 'bad';
  // Keep sub-millisecond digits when the string has them (Python writes microseconds).
  const frac = /\.(\d+)/.exec(raw)?.[1] ?? '';
  const subMs = frac.length > 3 ? BigInt(frac.slice(3, 9).padEnd(6, '0')) : 0n;
  return BigInt(ms) * 1_000_000n + subMs;
}

/** `[seconds, nanoseconds]` as the JS SDK's HrTime, or microseconds as its console exporter writes. */
function parseHrTime(raw: unknown): bigint | 'bad' | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (Array.isArray(raw) && raw.length === 2 && raw.every((n) => typeof n === 'number')) {
    return BigInt(raw[0] as number) * 1_000_000_000n + BigInt(raw[1] as number);
  }
  if (typeof raw === 'number' && Number.isFinite(raw)) return BigInt(Math.round(raw * 1000));
  return 'bad';
}

export const nanosToIso = (ns: bigint): string => new Date(Number(ns / 1_000_000n)).toISOString();

/** Step timing fields of a span. */
export function spanTiming(span: Span): { startedAt?: string; durationMs?: number } {
  const out: { startedAt?: string; durationMs?: number } = {};
  if (span.start !== undefined) out.startedAt = nanosToIso(span.start);
  if (span.start !== undefined && span.end !== undefined && span.end >= span.start) {
    out.durationMs = Number(span.end - span.start) / 1e6;
  }
  return out;
}

function decodeStatus(raw: unknown): SpanStatus {
  if (!isRecord(raw)) return { code: 'unset' };
  const code = raw.code ?? raw.status_code ?? raw.statusCode;
  const message = [raw.message, raw.description].find((m) => typeof m === 'string' && m !== '') as
    string | undefined;
  let c: SpanStatus['code'] = 'unset';
  if (code === 2 || code === '2' || (typeof code === 'string' && /^(STATUS_CODE_)?ERROR$/i.test(code)))
    c = 'error';
  else if (code === 1 || code === '1' || (typeof code === 'string' && /^(STATUS_CODE_)?OK$/i.test(code)))
    c = 'ok';
  return message ? { code: c, message } : { code: c };
}

// ---------------------------------------------------------------------------------------------
// Shapes

function isSpanLike(v: Record<string, unknown>): boolean {
  if ('spanId' in v || 'span_id' in v) return true;
  if (isRecord(v.context) && ('span_id' in v.context || 'spanId' in v.context)) return true;
  // JS console exporter.
  return typeof v.traceId === 'string' && typeof v.id === 'string' && typeof v.timestamp === 'number';
}

/** True when a parsed value is an OTLP document or one span in any of the accepted shapes. */
export function looksLikeOtlp(value: unknown): boolean {
  if (!isRecord(value)) return false;
  if (Array.isArray(value.resourceSpans)) return true;
  return isSpanLike(value);
}

/** True when any span of the value (document or single span) carries this attribute key. */
export function anySpanHasAttribute(value: unknown, key: string): boolean {
  const has = (attrs: unknown): boolean => {
    if (Array.isArray(attrs)) return attrs.some((kv) => isRecord(kv) && kv.key === key);
    return isRecord(attrs) && key in attrs;
  };
  if (!isRecord(value)) return false;
  if (Array.isArray(value.resourceSpans)) {
    return value.resourceSpans.some(
      (rs) =>
        isRecord(rs) &&
        scopeList(rs).some(
          (ss) =>
            isRecord(ss) && Array.isArray(ss.spans) && ss.spans.some((s) => isRecord(s) && has(s.attributes)),
        ),
    );
  }
  return has(value.attributes);
}

function scopeList(rs: Record<string, unknown>): unknown[] {
  if (Array.isArray(rs.scopeSpans)) return rs.scopeSpans;
  if (Array.isArray(rs.instrumentationLibrarySpans)) return rs.instrumentationLibrarySpans;
  return [];
}

interface DecodeCtx {
  line?: number;
  sink: ImportSink;
  nextSeq: () => number;
}

/** Decodes every span of one parsed value, reporting what it cannot read. */
export function decodeValue(value: unknown, ctx: DecodeCtx): Span[] {
  const { line, sink } = ctx;
  if (!isRecord(value)) {
    sink.problem({ line, message: 'expected an OTLP span or an OTLP/JSON document ({resourceSpans: […]})' });
    return [];
  }
  if ('resourceSpans' in value) {
    if (!Array.isArray(value.resourceSpans)) {
      sink.problem({ line, field: 'resourceSpans', message: 'not a list' });
      return [];
    }
    const out: Span[] = [];
    value.resourceSpans.forEach((rs, i) => {
      const rsPath = `resourceSpans[${i}]`;
      if (!isRecord(rs)) {
        sink.problem({ line, field: rsPath, message: 'not a resourceSpans object' });
        return;
      }
      const report = (field: string, message: string) => sink.problem({ line, field, message });
      const resource = decodeAttributes(
        isRecord(rs.resource) ? rs.resource.attributes : undefined,
        report,
        `${rsPath}.resource.attributes`,
      );
      const scopesKey = Array.isArray(rs.scopeSpans) ? 'scopeSpans' : 'instrumentationLibrarySpans';
      scopeList(rs).forEach((ss, j) => {
        const ssPath = `${rsPath}.${scopesKey}[${j}]`;
        if (!isRecord(ss) || !Array.isArray(ss.spans)) {
          sink.problem({ line, field: `${ssPath}.spans`, message: 'not a list of spans' });
          return;
        }
        const scopeRaw = isRecord(ss.scope)
          ? ss.scope
          : isRecord(ss.instrumentationLibrary)
            ? ss.instrumentationLibrary
            : undefined;
        const scope = scopeRaw
          ? {
              ...(typeof scopeRaw.name === 'string' ? { name: scopeRaw.name } : {}),
              ...(typeof scopeRaw.version === 'string' ? { version: scopeRaw.version } : {}),
            }
          : undefined;
        ss.spans.forEach((raw, k) => {
          const span = decodeSpan(raw, `${ssPath}.spans[${k}]`, ctx, resource, scope);
          if (span) out.push(span);
        });
      });
    });
    return out;
  }
  if (!isSpanLike(value)) {
    sink.problem({
      line,
      message: 'expected an OTLP span (traceId, spanId, …) or an OTLP/JSON document ({resourceSpans: […]})',
    });
    return [];
  }
  const span = decodeSpan(value, '', ctx, undefined, undefined);
  return span ? [span] : [];
}

function decodeSpan(
  raw: unknown,
  path: string,
  ctx: DecodeCtx,
  resource: Attributes | undefined,
  scope: Span['scope'],
): Span | undefined {
  const { line, sink } = ctx;
  const at = (f: string) => (path ? `${path}.${f}` : f);
  const report = (field: string, message: string) => sink.problem({ line, field, message });
  if (!isRecord(raw)) {
    sink.problem({ line, field: path || undefined, message: 'not a span object' });
    return undefined;
  }
  const context = isRecord(raw.context) ? raw.context : undefined;
  const pyStyle = context !== undefined;
  const jsConsole =
    !pyStyle && !('spanId' in raw) && typeof raw.id === 'string' && typeof raw.timestamp === 'number';

  const traceIdRaw = raw.traceId ?? raw.trace_id ?? context?.trace_id ?? context?.traceId;
  const traceId = normaliseId(traceIdRaw);
  if (!traceId) {
    report(at(pyStyle ? 'context.trace_id' : 'traceId'), 'span has no traceId; skipped');
    return undefined;
  }
  const seq = ctx.nextSeq();
  let spanId = normaliseId(
    raw.spanId ?? raw.span_id ?? context?.span_id ?? context?.spanId ?? (jsConsole ? raw.id : undefined),
  );
  if (!spanId) {
    report(
      at(pyStyle ? 'context.span_id' : 'spanId'),
      'span has no spanId; kept, but no span can be its child',
    );
    spanId = `#${seq}`;
  }
  const parentRaw =
    raw.parentSpanId ??
    raw.parent_span_id ??
    raw.parent_id ??
    raw.parentId ??
    (isRecord(raw.parentSpanContext) ? raw.parentSpanContext.spanId : undefined);
  const parentSpanId = normaliseId(parentRaw);

  const name = typeof raw.name === 'string' ? raw.name : '';

  let start: bigint | 'bad' | undefined;
  let end: bigint | 'bad' | undefined;
  let startField: string;
  let endField: string;
  if (jsConsole) {
    startField = at('timestamp');
    endField = at('duration');
    start = parseHrTime(raw.timestamp);
    const dur = parseHrTime(raw.duration);
    end =
      typeof start === 'bigint' && typeof dur === 'bigint' ? start + dur : dur === 'bad' ? 'bad' : undefined;
  } else if ('startTimeUnixNano' in raw || 'endTimeUnixNano' in raw || !pyStyle) {
    startField = at('startTimeUnixNano');
    endField = at('endTimeUnixNano');
    start = parseUnixNanos(raw.startTimeUnixNano);
    end = parseUnixNanos(raw.endTimeUnixNano);
  } else {
    startField = at('start_time');
    endField = at('end_time');
    start = parseIsoNanos(raw.start_time);
    end = parseIsoNanos(raw.end_time);
  }
  const timeMessage = jsConsole
    ? 'not a time (expected microseconds or [seconds, nanoseconds])'
    : pyStyle && !('startTimeUnixNano' in raw)
      ? 'not a timestamp (expected an ISO 8601 time)'
      : 'not a timestamp (expected unix nanoseconds)';
  if (start === 'bad') {
    report(startField, timeMessage);
    start = undefined;
  }
  if (end === 'bad') {
    report(endField, timeMessage);
    end = undefined;
  }
  // An unfinished span exports end 0; treat it as not ended.
  if (end === 0n) end = undefined;
  if (start !== undefined && end !== undefined && end < start) {
    report(endField, 'span ends before it starts; duration dropped');
    end = undefined;
  }

  const attributes = decodeAttributes(raw.attributes, report, at('attributes'));
  const ownResource = isRecord(raw.resource)
    ? decodeAttributes(
        'attributes' in raw.resource ? raw.resource.attributes : raw.resource,
        report,
        at('resource.attributes'),
      )
    : undefined;

  const events: SpanEvent[] = [];
  if (raw.events !== undefined && raw.events !== null) {
    if (!Array.isArray(raw.events)) report(at('events'), 'not a list of events');
    else
      raw.events.forEach((ev, i) => {
        if (!isRecord(ev)) {
          report(at(`events[${i}]`), 'not an event object');
          return;
        }
        let time = parseUnixNanos(ev.timeUnixNano);
        if (time === undefined && ev.timestamp !== undefined) time = parseIsoNanos(ev.timestamp);
        if (time === undefined && ev.time !== undefined) time = parseHrTime(ev.time);
        events.push({
          name: typeof ev.name === 'string' ? ev.name : '',
          ...(typeof time === 'bigint' ? { time } : {}),
          attributes: decodeAttributes(ev.attributes, report, at(`events[${i}].attributes`)),
        });
      });
  }

  const kind = raw.kind;
  return {
    traceId,
    spanId,
    ...(parentSpanId ? { parentSpanId } : {}),
    name,
    ...(kind !== undefined && kind !== null ? { kind: String(kind) } : {}),
    ...(start !== undefined ? { start } : {}),
    ...(end !== undefined ? { end } : {}),
    attributes,
    resource: { ...(resource ?? {}), ...(ownResource ?? {}) },
    ...(scope ? { scope } : {}),
    status: decodeStatus(raw.status),
    events,
    ...(line !== undefined ? { line } : {}),
    path,
    seq,
  };
}

// ---------------------------------------------------------------------------------------------
// Trees

/** Two spans from one instrumentation scope, as an OTLP document names it. */
const sameScope = (a: Span, b: Span): boolean =>
  a.scope?.name !== undefined && a.scope.name === b.scope?.name && a.scope.version === b.scope.version;

/**
 * Spans in trace order: parents before children, siblings by start time, orphans at top level.
 * Siblings that start at the same time: in one scope, file order; across scopes (or without a
 * scope), the one that ends first, then file order.
 */
export function orderSpans(spans: Span[]): { ordered: Span[] } {
  const byId = new Map<string, Span>();
  for (const s of spans) if (!byId.has(s.spanId)) byId.set(s.spanId, s);
  const children = new Map<string, Span[]>();
  const roots: Span[] = [];
  for (const s of spans) {
    const parent =
      s.parentSpanId !== undefined && s.parentSpanId !== s.spanId ? byId.get(s.parentSpanId) : undefined;
    if (parent) {
      const list = children.get(parent.spanId) ?? [];
      list.push(s);
      children.set(parent.spanId, list);
    } else roots.push(s);
  }
  const byTime = (a: Span, b: Span) => {
    if (a.start !== undefined && b.start !== undefined && a.start !== b.start)
      return a.start < b.start ? -1 : 1;
    if (a.start === undefined && b.start !== undefined) return 1;
    if (a.start !== undefined && b.start === undefined) return -1;
    if (a.start !== undefined && !sameScope(a, b)) {
      // Equal starts: many SDKs stamp starts in milliseconds, so a tool and the LLM call that reads
      // its result can share one. Across scopes file order says nothing (OTLP groups spans by
      // scope), so the span that ends first comes first: of two calls in a row that start in one
      // millisecond the first lasted under a millisecond, and an LLM call never does.
      if (a.end !== undefined && b.end !== undefined && a.end !== b.end) return a.end < b.end ? -1 : 1;
      if (a.end !== undefined && b.end === undefined) return -1;
      if (a.end === undefined && b.end !== undefined) return 1;
    }
    // Within one scope the exporter wrote spans as they ended, a truer order than the ends
    // themselves: an SDK that stamps a millisecond start adds the measured duration to it, so
    // two sub-millisecond spans in a row compare by duration, not by when they ended.
    return a.seq - b.seq;
  };
  const ordered: Span[] = [];
  const seen = new Set<Span>();
  // Pre-order with an explicit stack, not recursion: a parent chain is as deep as the input makes
  // it, and tens of thousands of nested spans overflowed the call stack. Children are pushed in
  // reverse so the earliest comes off first; a span is checked against `seen` when it comes off,
  // after its earlier siblings' subtrees, as the recursive walk did.
  const stack: Span[] = [];
  const walk = (start: Span) => {
    stack.push(start);
    while (stack.length > 0) {
      const s = stack.pop()!;
      if (seen.has(s)) continue;
      seen.add(s);
      ordered.push(s);
      const kids = children.get(s.spanId);
      if (!kids) continue;
      // The lists are this function's own, so they are sorted in place; a span is walked once.
      if (kids.length > 1) kids.sort(byTime);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
  };
  for (const r of [...roots].sort(byTime)) walk(r);
  // Spans caught in a parent cycle are reachable from no root: put them at top level too. Only
  // those are sorted, not every span again (the same order: walk skips a span already seen).
  for (const s of spans.filter((x) => !seen.has(x)).sort(byTime)) walk(s);
  return { ordered };
}

/**
 * The agent each span belongs to: the one it names itself, else the nearest ancestor's. Memoised,
 * and iterative up the parent chain (as deep as the input makes it); a parent cycle ends the climb.
 */
function agentsBySpan(
  spans: Span[],
  agentName: (span: Span) => string | undefined,
): (span: Span) => string | undefined {
  const byId = new Map<string, Span>();
  for (const s of spans) if (!byId.has(s.spanId)) byId.set(s.spanId, s);
  const known = new Map<Span, string | undefined>();
  return (span) => {
    const climbed: Span[] = [];
    const onPath = new Set<Span>();
    let agent: string | undefined;
    for (let s: Span | undefined = span; s !== undefined && !onPath.has(s);) {
      if (known.has(s)) {
        agent = known.get(s);
        break;
      }
      climbed.push(s);
      onPath.add(s);
      agent = agentName(s);
      if (agent !== undefined) break;
      s = s.parentSpanId !== undefined && s.parentSpanId !== s.spanId ? byId.get(s.parentSpanId) : undefined;
    }
    for (const s of climbed) known.set(s, agent);
    return agent;
  };
}

/** Builds one trace from all the spans of one trace id. */
export function buildTrace(
  traceId: string,
  spans: Span[],
  mapping: SpanMapping,
  ctx: MapContext,
): TraceInput {
  const { ordered } = orderSpans(spans);
  let root = ordered.find((s) => mapping.isAgent(s));
  if (!root) {
    // The parentless root span is the trace when it is not itself a step (e.g. an HTTP handler).
    const top = ordered.filter((s) => s.parentSpanId === undefined);
    if (top.length === 1 && !mapping.toStep(top[0]!, { problem: () => {} })) root = top[0];
  }
  const stepOf = new Map<Span, StepInput>();
  const unread: Span[] = [];
  const agentOf = mapping.agentName ? agentsBySpan(spans, mapping.agentName) : undefined;
  for (const s of ordered) {
    if (s === root) continue;
    const step = mapping.toStep(s, ctx);
    if (step) {
      const agent = agentOf?.(s);
      if (agent !== undefined && step.type !== 'retrieval' && step.type !== 'state') step.agent = agent;
      stepOf.set(s, step);
    } else if (mapping.isUnread?.(s) && !mapping.isAgent(s)) unread.push(s);
  }
  mapping.completeSteps?.(ordered, stepOf, ctx);
  // A call recorded by a wrapper and by the SDK inside it is one step.
  const folded = mergeNestedLlmCalls(ordered, stepOf);
  const steps: StepInput[] = [];
  for (const [s, step] of stepOf) if (!folded.has(s)) steps.push(step);
  // LLM spans list the tool calls their response asked for; tool spans ran them (by call id).
  linkIssuedBy(steps);

  let first: bigint | undefined;
  let last: bigint | undefined;
  for (const s of spans) {
    if (s.start !== undefined && (first === undefined || s.start < first)) first = s.start;
    const e = s.end ?? s.start;
    if (e !== undefined && (last === undefined || e > last)) last = e;
  }
  const start = root?.start ?? first;
  const end = root ? root.end : last;
  const resource = (root ?? ordered[0])?.resource ?? {};
  const service = knownServiceName(resource['service.name']);

  const fields = mapping.traceFields(root, ordered, ctx);
  const trace: TraceInput = {
    id: traceId,
    ...((fields.agentId ?? service) ? { agentId: fields.agentId ?? service } : {}),
    status: root
      ? root.status.code === 'error'
        ? 'error'
        : root.end === undefined
          ? 'running'
          : 'ok'
      : 'ok',
    ...(start !== undefined ? { startedAt: nanosToIso(start) } : {}),
    ...(end !== undefined ? { endedAt: nanosToIso(end) } : {}),
    ...fields,
    steps,
  };
  if (trace.agentVersion === undefined && typeof resource['service.version'] === 'string') {
    trace.agentVersion = resource['service.version'];
  }
  // No agent named: the loader keys the trace by --agent / agent: or its file (agentKey.ts).
  if (trace.agentId === undefined && service) trace.agentId = service;
  const outcome = root ? outcomeFromSpanAttributes(root.attributes) : undefined;
  if (outcome && trace.outcome === undefined) trace.outcome = outcome;
  const metadata: Record<string, unknown> = { ...(fields.metadata ?? {}) };
  if (root?.name) metadata.rootSpan = root.name;
  if (service) metadata.serviceName = service;
  const unreadSpans = countUnread(unread);
  if (unreadSpans) metadata.unreadSpans = unreadSpans;
  if (Object.keys(metadata).length > 0) trace.metadata = metadata;
  return trace;
}

/** The SDK's default `unknown_service:…` says nothing about the agent. */
export function knownServiceName(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' && !v.startsWith('unknown_service') ? v : undefined;
}

// ---------------------------------------------------------------------------------------------
// Reader

/**
 * A reader that groups spans by trace id. JSONL lines of one trace need not be adjacent, and the
 * collector's file exporter may split one trace over several batches, so spans are held until the
 * loader closes their trace after its last line (see lastLines.ts), until end(), or, reading a
 * pipe, until the window of open traces is full (see OpenGroups) — except for a whole document
 * pushed without a line number, whose traces are complete when its push returns.
 */
export function createSpanReader(
  sink: ImportSink,
  mapping: SpanMapping,
  options: ReaderOptions = {},
): TraceReader {
  /** Spans of each open trace, with the ids seen (duplicates are reported) and the first line. */
  const held = new OpenGroups<{ spans: Span[]; ids: Set<string>; line?: number }>(
    sink,
    options.maxOpenTraces,
  );
  let seq = 0;
  const nextSeq = () => seq++;
  const located = (span: Span, field: string) => ({
    ...(span.line !== undefined ? { line: span.line } : {}),
    field: span.path ? `${span.path}.${field}` : field,
  });
  const ctx: MapContext = {
    problem: (span, field, message) => sink.problem({ ...located(span, field), message }),
    warning: (span, field, message) => sink.warning?.({ ...located(span, field), message }),
  };
  const build = ([traceId, group]: [string, { spans: Span[]; line?: number }]): ImportedTrace => {
    const trace = buildTrace(traceId, group.spans, mapping, ctx);
    return group.line !== undefined ? { trace, line: group.line } : { trace };
  };
  const emit = (traceId: string, how?: 'whole'): ImportedTrace[] => {
    const group = held.take(traceId, how);
    return group ? [build([traceId, group])] : [];
  };
  return {
    push(value, line) {
      const spans = decodeValue(value, { line, sink, nextSeq });
      const touched = new Set<string>();
      for (const s of spans) {
        const group = held.append(s.traceId, line, () => ({ spans: [], ids: new Set<string>() }));
        if (group.ids.has(s.spanId) && !s.spanId.startsWith('#')) {
          ctx.problem(
            s,
            'spanId',
            `duplicate span ${s.spanId} in trace ${s.traceId}; the first copy is kept`,
          );
          continue;
        }
        group.ids.add(s.spanId);
        group.spans.push(s);
        if (line !== undefined && (group.line === undefined || line < group.line)) group.line = line;
        touched.add(s.traceId);
      }
      if (line === undefined && Array.isArray(isRecord(value) ? value.resourceSpans : undefined)) {
        return [...touched].flatMap((id) => emit(id, 'whole'));
      }
      return held.overflow().map(build);
    },
    end() {
      return held.drain().map(build);
    },
    // Spans are grouped by the id normaliseId makes (lower-case hex, base64 decoded).
    groupKey: normaliseId,
    close: (key) => emit(key),
  };
}

// ---------------------------------------------------------------------------------------------
// Attribute helpers shared by the mappings

export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** First attribute of `keys` that is a string. */
export function firstStr(attrs: Attributes, ...keys: string[]): string | undefined {
  for (const k of keys) {
    const v = attrs[k];
    if (typeof v === 'string' && v !== '') return v;
    if (typeof v === 'number') return String(v);
  }
  return undefined;
}

/**
 * First attribute of `keys` that is a non-negative number (numeric strings accepted); a present
 * but unreadable value is reported.
 */
export function firstCount(span: Span, ctx: MapContext, ...keys: string[]): number | undefined {
  for (const k of keys) {
    const v = span.attributes[k];
    if (v === undefined || v === null) continue;
    const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
    if (typeof n === 'number' && Number.isFinite(n) && n >= 0) return n;
    ctx.problem(span, `attributes[${quoted(k)}]`, `not a non-negative number (got ${quoted(v)})`);
  }
  return undefined;
}

/** Parses a JSON string attribute; structured values pass through; text that is not JSON stays text. */
export function maybeJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return v;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return v;
  }
}

/**
 * Attributes flattened with indexes (`prefix.0.suffix`, as OpenInference and OpenLLMetry write
 * lists) gathered into a list of records keyed by the suffix. Also accepts the list unflattened
 * under `prefix` itself.
 */
export function indexed(attrs: Attributes, prefix: string): Attributes[] {
  const direct = attrs[prefix];
  if (Array.isArray(direct)) return direct.filter(isRecord).map((r) => flattenRecord(r));
  const out: Attributes[] = [];
  const head = `${prefix}.`;
  for (const [k, v] of Object.entries(attrs)) {
    if (!k.startsWith(head)) continue;
    const rest = k.slice(head.length);
    const m = /^(\d+)(?:\.(.*))?$/.exec(rest);
    if (!m) continue;
    const i = Number(m[1]);
    const slot = (out[i] ??= {});
    setOwn(slot, m[2] ?? '', v);
  }
  return out.filter((x) => x !== undefined);
}

/** `{a: {b: 1}}` → `{'a.b': 1}`. */
function flattenRecord(r: Record<string, unknown>): Attributes {
  const out: Attributes = {};
  flattenInto(out, r, isRecord, (v) => v);
  return out;
}

/**
 * Adds the leaves of `r` to `out` under dotted keys (`{a: {b: 1}}` → `'a.b'`), depth first in key
 * order, with an explicit stack: groups nest as deep as the input says. `isGroup` says which
 * values are groups to descend into; `leaf` turns the others into what is stored (undefined: not
 * stored).
 */
function flattenInto(
  out: Attributes,
  r: Record<string, unknown>,
  isGroup: (v: unknown) => v is Record<string, unknown>,
  leaf: (v: unknown) => unknown,
): void {
  const stack: { entries: [string, unknown][]; next: number; prefix: string }[] = [
    { entries: Object.entries(r), next: 0, prefix: '' },
  ];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next >= top.entries.length) {
      stack.pop();
      continue;
    }
    const [k, v] = top.entries[top.next++]!;
    if (isGroup(v)) {
      stack.push({ entries: Object.entries(v), next: 0, prefix: `${top.prefix}${k}.` });
    } else {
      const stored = leaf(v);
      if (stored !== undefined) setOwn(out, `${top.prefix}${k}`, stored);
    }
  }
}

/** The error message of a failed span: status message, else its exception event, else `error.type`. */
/** What an attribute mapping found for an LLM span; absent fields are left out of the step. */
export interface LlmSpanFields {
  model: string;
  provider?: string;
  input?: ChatMessage[] | string;
  output?: ChatMessage | string;
  finishReason?: string;
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  cacheWriteInputTokens?: number;
  /** A cost recorded on the span (never priced here: the loader prices). */
  costUsd?: number;
}

/** One LLM step from a span, whichever convention named its attributes. */
export function llmStepFromSpan(span: Span, f: LlmSpanFields): StepInput {
  const error = span.status.code === 'error' ? spanError(span) : undefined;
  return {
    type: 'llm',
    model: f.model,
    ...(f.provider ? { provider: f.provider } : {}),
    ...(span.name ? { name: span.name } : {}),
    ...(f.input !== undefined ? { input: f.input } : {}),
    ...(f.output !== undefined ? { output: f.output } : {}),
    ...(f.finishReason ? { finishReason: f.finishReason } : {}),
    usage: {
      inputTokens: f.inputTokens ?? 0,
      outputTokens: f.outputTokens ?? 0,
      ...(f.cachedInputTokens !== undefined ? { cachedInputTokens: f.cachedInputTokens } : {}),
      ...(f.cacheWriteInputTokens !== undefined ? { cacheWriteInputTokens: f.cacheWriteInputTokens } : {}),
    },
    ...(f.costUsd !== undefined ? { costUsd: f.costUsd, costSource: 'recorded' as const } : {}),
    ...(error ? { error } : {}),
    ...spanTiming(span),
  };
}

export function spanError(span: Span): string | undefined {
  const exception = span.events.find((e) => e.name === 'exception');
  const fromException = exception
    ? (str(exception.attributes['exception.message']) ?? str(exception.attributes['exception.type']))
    : undefined;
  return (
    span.status.message ??
    fromException ??
    str(span.attributes['error.type']) ??
    (span.status.code === 'error' ? 'error' : undefined)
  );
}

// ---------------------------------------------------------------------------------------------
// Chat messages and tool definitions, in the JSON shapes both conventions carry inside attributes

/** Arguments of a tool call: JSON text is parsed, anything else is kept as written. */
const toolArgs = (v: unknown): unknown => maybeJson(v);

function toolCallsOf(raw: unknown): ChatMessage['toolCalls'] {
  if (!Array.isArray(raw)) return undefined;
  const calls: NonNullable<ChatMessage['toolCalls']> = [];
  for (const c of raw) {
    if (!isRecord(c)) continue;
    const fn = isRecord(c.function) ? c.function : c;
    const name = str(fn.name);
    if (!name) continue;
    const args = fn.arguments ?? fn.args ?? c.arguments;
    calls.push({
      ...(str(c.id) ? { id: c.id as string } : {}),
      name,
      ...(args !== undefined ? { arguments: toolArgs(args) } : {}),
    });
  }
  return calls.length > 0 ? calls : undefined;
}

/**
 * One message in any of the shapes GenAI instrumentations write: the current `{role, parts: […]}`
 * (text, tool_call, tool_call_response, reasoning, media parts) or the older OpenAI-like
 * `{role, content, tool_calls, tool_call_id}`. A tool_call_response part becomes its own `tool`
 * message. An assistant message with only tool calls has no content (not an empty string).
 */
export function toChatMessages(raw: unknown, defaultRole = 'user'): ChatMessage[] {
  if (typeof raw === 'string') return [{ role: defaultRole, content: raw }];
  if (!isRecord(raw)) return [];
  const role = str(raw.role) ?? defaultRole;
  const name = str(raw.name);
  if (Array.isArray(raw.parts)) {
    const texts: string[] = [];
    const others: unknown[] = [];
    const calls: NonNullable<ChatMessage['toolCalls']> = [];
    const responses: ChatMessage[] = [];
    for (const p of raw.parts) {
      if (!isRecord(p)) continue;
      if (p.type === 'text' && typeof p.content === 'string') texts.push(p.content);
      else if (p.type === 'tool_call' && str(p.name)) {
        calls.push({
          ...(str(p.id) ? { id: p.id as string } : {}),
          name: p.name as string,
          ...(p.arguments !== undefined ? { arguments: toolArgs(p.arguments) } : {}),
        });
      } else if (p.type === 'tool_call_response') {
        responses.push({
          role: 'tool',
          ...(str(p.id) ? { toolCallId: p.id as string } : {}),
          content: maybeJson(p.response ?? p.result),
        });
      } else if (p.type !== 'reasoning') others.push(p);
    }
    const out: ChatMessage[] = [];
    const content = others.length > 0 ? raw.parts : texts.length > 0 ? texts.join('\n') : undefined;
    if (content !== undefined || calls.length > 0 || responses.length === 0) {
      out.push({
        role,
        ...(name ? { name } : {}),
        ...(content !== undefined ? { content } : {}),
        ...(calls.length > 0 ? { toolCalls: calls } : {}),
      });
    }
    return out.concat(responses);
  }
  const toolCalls = toolCallsOf(raw.tool_calls ?? raw.toolCalls);
  const content = raw.content;
  const hasContent = content !== undefined && content !== null && !(content === '' && toolCalls);
  const toolCallId =
    str(raw.tool_call_id) ?? str(raw.toolCallId) ?? str(raw.id && role === 'tool' ? raw.id : undefined);
  return [
    {
      role,
      ...(name ? { name } : {}),
      ...(hasContent ? { content: maybeJsonIfTool(content, role) } : {}),
      ...(toolCalls ? { toolCalls } : {}),
      ...(toolCallId ? { toolCallId } : {}),
    },
  ];
}

const maybeJsonIfTool = (content: unknown, role: string) => (role === 'tool' ? maybeJson(content) : content);

/** Names of tool definitions: `[{type, name}]`, OpenAI's `[{type, function: {name}}]`, or plain names. */
export function toolNames(raw: unknown): string[] {
  const parsed = maybeJson(raw);
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((d) => {
    if (typeof d === 'string') return [d];
    if (!isRecord(d)) return [];
    const name = str(d.name) ?? (isRecord(d.function) ? str(d.function.name) : undefined);
    return name ? [name] : [];
  });
}
