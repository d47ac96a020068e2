/**
 * Spans received over OTLP, gathered into traces. An exporter's BatchSpanProcessor flushes
 * whatever spans have ended (every 5 s, or when its queue fills), and a SimpleSpanProcessor sends
 * each span in its own request, possibly over parallel connections, so one trace arrives in
 * pieces and not necessarily in order. Spans are therefore grouped by trace id across requests,
 * and a trace is complete when
 *
 * - its root has arrived: a span with no parent, or whose parent the span itself marks as remote
 *   (OTLP `flags` bits 8 and 9: the agent continued a trace begun in another process, the test's
 *   say). A span whose parent simply has not arrived yet is not a root: children end, and are
 *   exported, before their parents; and
 * - no new span for it came within a quiet period, for the requests still in flight.
 *
 * or when the receiver is flushed or closed, when every trace held is complete whatever it lacks
 * (as the file loader ends the traces of a file at its end). Each time a trace completes it is
 * imported again from all its spans (traces in a test are small), so that the importer sees the
 * whole span tree and its result is exactly what `tracejury analyze` would read from a file
 * holding those spans. A span arriving after its trace completed reopens it; the last complete
 * reading stays visible until the new one is ready.
 *
 * Spans waiting for their root are bounded (`maxWaitingSpans`): an agent that never sends its root
 * span, or a sender of endless rootless spans, would otherwise hold them all until the receiver
 * closes. Past the bound, the traces that went longest without a new span are dropped whole, and
 * so are their later spans (the ids of the last MAX_DROPPED_IDS dropped traces are remembered),
 * all counted in `dropped()`. Dropped, not completed as they stand: a trace without its root, or a
 * root without the steps sent before it, would be judged as if it were the agent's whole run, and
 * a test could pass on a fragment; a trace that is missing says so in waitForTrace's message.
 *
 * Complete traces are bounded too (`maxTraces`): past it, the trace completed longest ago is let go
 * with its spans (and any of its spans that comes later), counted in `letGo()`.
 */
import { readTraceValues, type InputFormat, type Trace } from 'tracejury';
import { rememberSource, traceAnalyser } from '../worker/context.js';

export interface TraceAssemblerOptions {
  /** How long a trace with its root must go without a new span to be complete. */
  quietPeriodMs: number;
  inputFormat?: InputFormat;
  agent?: string;
  /** Spans of traces whose root has not arrived, held at most; past it the stalest are dropped. */
  maxWaitingSpans: number;
  /** Complete traces held at most; past it the one completed longest ago is let go. */
  maxTraces: number;
  /** Called whenever a trace completes (again). */
  onComplete(): void;
}

/** Traces dropped for the bound on waiting spans, and their spans (counted as they arrive). */
export interface DroppedTraces {
  traces: number;
  spans: number;
  /** The first few dropped trace ids, for messages. */
  examples: string[];
}

/** Complete traces let go for the bound on complete traces (held the longest). */
export interface LetGoTraces {
  traces: number;
  /** Spans that came for them afterwards, dropped too. */
  lateSpans: number;
  /** The last few let go, for messages. */
  examples: string[];
}

/** Dropped trace ids remembered, so that a dropped trace's late spans are dropped too. */
const MAX_DROPPED_IDS = 10_000;
const MAX_EXAMPLES = 5;

/** The spans of one trace that came in one ScopeSpans of one request, with their resource and scope. */
interface SpanChunk {
  resource: unknown;
  scope: unknown;
  spans: unknown[];
}

interface TraceGroup {
  traceId: string;
  /** Keyed `request:resourceSpans index:scopeSpans index`, in arrival order. */
  chunks: Map<string, SpanChunk>;
  spanIds: Set<string>;
  spanCount: number;
  hasRoot: boolean;
  timer?: NodeJS.Timeout;
  /** The traces last imported from the group (usually one), once it has completed. */
  complete?: Trace[];
  /** A span came after the last import. */
  changed: boolean;
}

/** What is known of a trace that has not completed (for messages). */
export interface PendingTrace {
  traceId: string;
  spans: number;
  hasRoot: boolean;
}

/** Bits of OTLP Span.flags (trace.proto SpanFlags): whether the parent is known to be remote, and is. */
const HAS_IS_REMOTE = 0x100;
const IS_REMOTE = 0x200;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A trace or span id as the importer keys it: hex (lower-cased) as OTLP/JSON writes it, or base64
 * as a proto3 JSON encoder writes it, decoded to hex. All zeros is no id.
 */
function idKey(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const s = raw.trim();
  if (s === '') return undefined;
  let hex: string | undefined;
  if (/^[0-9a-f]{16}$|^[0-9a-f]{32}$/i.test(s)) hex = s.toLowerCase();
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(s)) {
    const bytes = Buffer.from(s, 'base64');
    if (bytes.length === 8 || bytes.length === 16) hex = bytes.toString('hex');
  }
  if (hex === undefined) return s;
  return /^0+$/.test(hex) ? undefined : hex;
}

function isRootSpan(span: Record<string, unknown>): boolean {
  if (idKey(span.parentSpanId) === undefined) return true;
  const flags = typeof span.flags === 'number' ? span.flags : 0;
  return (flags & HAS_IS_REMOTE) !== 0 && (flags & IS_REMOTE) !== 0;
}

export class TraceAssembler {
  private readonly groups = new Map<string, TraceGroup>();
  /** Groups still waiting for their root, the one that went longest without a span first. */
  private readonly waiting = new Map<string, TraceGroup>();
  /** Recently dropped trace ids (insertion order: oldest first). */
  private readonly droppedIds = new Set<string>();
  private readonly droppedCount: DroppedTraces = { traces: 0, spans: 0, examples: [] };
  /** Complete groups, the one completed longest ago first (the first let go past maxTraces). */
  private readonly completed = new Map<string, TraceGroup>();
  /** Recently let-go trace ids (insertion order: oldest first), so their late spans stay out. */
  private readonly letGoIds = new Set<string>();
  private readonly letGoCount: LetGoTraces = { traces: 0, lateSpans: 0, examples: [] };

  constructor(private readonly options: TraceAssemblerOptions) {}

  /**
   * Adds the spans of one OTLP/JSON request. Returns how many spans were taken, how many were
   * rejected for having no trace id (the importer, reading the request, says why), and how many
   * belonged to a trace already dropped for the bound on waiting spans.
   */
  add(
    request: number,
    document: Record<string, unknown>,
  ): { accepted: number; rejected: number; dropped: number } {
    let accepted = 0;
    let rejected = 0;
    let dropped = 0;
    const touched = new Set<TraceGroup>();
    const resourceSpans = Array.isArray(document.resourceSpans) ? document.resourceSpans : [];
    resourceSpans.forEach((rs, i) => {
      if (!isRecord(rs)) return;
      const scopes = Array.isArray(rs.scopeSpans) ? rs.scopeSpans : [];
      scopes.forEach((ss, j) => {
        if (!isRecord(ss) || !Array.isArray(ss.spans)) return;
        for (const span of ss.spans) {
          const traceId = isRecord(span) ? idKey(span.traceId) : undefined;
          if (!isRecord(span) || traceId === undefined) {
            rejected++;
            continue;
          }
          // Let go when complete (maxTraces): a later part of it is not taken back.
          if (this.letGoIds.has(traceId)) {
            dropped++;
            this.letGoCount.lateSpans++;
            continue;
          }
          // Its trace was dropped: a later part of it is no trace either.
          if (this.droppedIds.has(traceId)) {
            dropped++;
            this.droppedCount.spans++;
            continue;
          }
          const group = this.group(traceId);
          const spanId = idKey(span.spanId);
          // An exporter that timed out waiting for our answer sends the batch again: keep the
          // first copy, as the importer does with a span repeated in one file.
          if (spanId !== undefined && group.spanIds.has(spanId)) continue;
          if (spanId !== undefined) group.spanIds.add(spanId);
          const chunkKey = `${request}:${i}:${j}`;
          let chunk = group.chunks.get(chunkKey);
          if (!chunk) {
            chunk = { resource: rs.resource, scope: ss.scope, spans: [] };
            group.chunks.set(chunkKey, chunk);
          }
          chunk.spans.push(span);
          group.spanCount++;
          if (isRootSpan(span)) group.hasRoot = true;
          group.changed = true;
          touched.add(group);
          accepted++;
        }
      });
    });
    for (const group of touched) {
      this.schedule(group);
      // Moved to the end: the stalest waiting trace stays first.
      this.waiting.delete(group.traceId);
      if (!group.hasRoot) this.waiting.set(group.traceId, group);
    }
    this.dropStalest();
    return { accepted, rejected, dropped };
  }

  /** Traces dropped so far for the bound on waiting spans. */
  dropped(): DroppedTraces {
    return { ...this.droppedCount, examples: [...this.droppedCount.examples] };
  }

  /** Complete traces let go so far for the bound on complete traces. */
  letGo(): LetGoTraces {
    return { ...this.letGoCount, examples: [...this.letGoCount.examples] };
  }

  /** Spans held by traces whose root has not arrived. */
  waitingSpans(): number {
    let n = 0;
    for (const group of this.waiting.values()) n += group.spanCount;
    return n;
  }

  /** Drops the traces that went longest without a span until the waiting spans are within the bound. */
  private dropStalest(): void {
    let held = this.waitingSpans();
    for (const group of this.waiting.values()) {
      if (held <= this.options.maxWaitingSpans) break;
      held -= group.spanCount;
      clearTimeout(group.timer);
      this.waiting.delete(group.traceId);
      this.groups.delete(group.traceId);
      this.droppedIds.add(group.traceId);
      if (this.droppedIds.size > MAX_DROPPED_IDS)
        this.droppedIds.delete(this.droppedIds.values().next().value!);
      this.droppedCount.traces++;
      this.droppedCount.spans += group.spanCount;
      if (this.droppedCount.examples.length < MAX_EXAMPLES) this.droppedCount.examples.push(group.traceId);
    }
  }

  /** Complete traces, in the order their first span arrived. */
  traces(): Trace[] {
    return [...this.groups.values()].flatMap((g) => g.complete ?? []);
  }

  /** Traces with spans not yet read into a complete trace. */
  pending(): PendingTrace[] {
    return [...this.groups.values()]
      .filter((g) => g.changed)
      .map((g) => ({ traceId: g.traceId, spans: g.spanCount, hasRoot: g.hasRoot }));
  }

  /** Completes every trace now, whether or not its root or quiet period came. */
  flush(): void {
    let any = false;
    for (const group of this.groups.values()) {
      clearTimeout(group.timer);
      if (group.changed) {
        this.read(group);
        any = true;
      }
    }
    if (any) this.options.onComplete();
  }

  /** Stops the timers (the held spans stay readable through flush()). */
  dispose(): void {
    for (const group of this.groups.values()) clearTimeout(group.timer);
  }

  private group(traceId: string): TraceGroup {
    let group = this.groups.get(traceId);
    if (!group) {
      group = {
        traceId,
        chunks: new Map(),
        spanIds: new Set(),
        spanCount: 0,
        hasRoot: false,
        changed: false,
      };
      this.groups.set(traceId, group);
    }
    return group;
  }

  /** (Re)starts the quiet period of a trace that has its root. */
  private schedule(group: TraceGroup): void {
    clearTimeout(group.timer);
    if (!group.hasRoot) return;
    group.timer = setTimeout(() => {
      this.read(group);
      this.options.onComplete();
    }, this.options.quietPeriodMs);
    // A receiver left open must not keep the test process alive.
    group.timer.unref();
  }

  private read(group: TraceGroup): void {
    group.timer = undefined;
    group.changed = false;
    // Complete now (flushed, if its root never came): no longer waiting.
    this.waiting.delete(group.traceId);
    const document = {
      resourceSpans: [...group.chunks.values()].map((c) => ({
        ...(c.resource !== undefined ? { resource: c.resource } : {}),
        scopeSpans: [{ ...(c.scope !== undefined ? { scope: c.scope } : {}), spans: c.spans }],
      })),
    };
    // Problems in the spans were reported when their request arrived (see receiver.ts); this
    // reading only builds the trace.
    const { traces } = readTraceValues('<otlp-receiver>', [document], {
      ...(this.options.inputFormat ? { inputFormat: this.options.inputFormat } : {}),
      ...(this.options.agent ? { agent: this.options.agent } : {}),
      pricer: traceAnalyser().pricer,
    });
    // Matchers report where a trace came from (file, format) through its remembered source.
    for (const t of traces) rememberSource(t);
    group.complete = traces.map((t) => t.trace);
    // Completed (again) now: the last to be let go.
    this.completed.delete(group.traceId);
    this.completed.set(group.traceId, group);
    this.letGoOldest();
  }

  /**
   * Lets go of the traces completed longest ago until at most maxTraces complete ones are held: a
   * sender of endless traces (or a long suite that never reads them) must not grow the heap without
   * end. Their ids are remembered so their late spans stay out, and they are counted (letGo()).
   */
  private letGoOldest(): void {
    for (const group of this.completed.values()) {
      if (this.completed.size <= this.options.maxTraces) break;
      clearTimeout(group.timer);
      this.completed.delete(group.traceId);
      this.groups.delete(group.traceId);
      this.waiting.delete(group.traceId);
      this.letGoIds.add(group.traceId);
      if (this.letGoIds.size > MAX_DROPPED_IDS) this.letGoIds.delete(this.letGoIds.values().next().value!);
      this.letGoCount.traces++;
      this.letGoCount.examples.push(group.traceId);
      if (this.letGoCount.examples.length > MAX_EXAMPLES) this.letGoCount.examples.shift();
    }
  }
}
