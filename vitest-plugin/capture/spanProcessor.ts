/**
 * The span processor behind captureTrace: it keeps the spans started inside a capture (a context
 * carrying a capture) and nothing else. Spans started outside every capture cost one context
 * lookup and are never retained, so the processor can sit on an application's own provider for
 * the whole test run without growing.
 */
import { createContextKey, trace, type Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace';

/** The context key a capture travels under (a unique symbol: no other code's key collides with it). */
export const CAPTURE_KEY = createContextKey('tracejury.capture');

/**
 * The spans of one captureTrace call. `ended` holds them in the order they ended, which is the
 * order an exporter writes them (the importer breaks start-time ties by it).
 */
export class Capture {
  readonly ended: ReadableSpan[] = [];
  /** Span ids started in this capture: children whose context lost our key find it through these. */
  readonly spanIds = new Set<string>();
  /** The trace id of the first span started: the id the capture's trace is read under. */
  traceId: string | undefined;
  /** Spans started and not yet ended. */
  open = 0;
  started = 0;
  /** Set once the capture is read or dropped: spans that end later are not kept. */
  closed = false;
  private onIdle: (() => void) | undefined;

  /** Resolves once every span started in the capture has ended, or after `ms`, whichever is first. */
  settle(ms: number): Promise<void> {
    if (this.open === 0 || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.onIdle = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.onIdle = done;
    });
  }

  spanStarted(spanId: string, traceId: string): void {
    this.traceId ??= traceId;
    this.started++;
    this.open++;
    this.spanIds.add(spanId);
  }

  spanEnded(span: ReadableSpan): void {
    this.open--;
    this.ended.push(span);
    if (this.open === 0) this.onIdle?.();
  }

  close(): void {
    this.closed = true;
    this.spanIds.clear();
    this.onIdle?.();
  }
}

/** Captures in progress, so that a span whose context lost the key is still found by its parent. */
const active = new Set<Capture>();
/** The capture of each span being recorded; a WeakMap, so a span that never ends is not pinned. */
const owners = new WeakMap<object, Capture>();

export function openCapture(): Capture {
  const capture = new Capture();
  active.add(capture);
  return capture;
}

export function closeCapture(capture: Capture): void {
  capture.close();
  active.delete(capture);
}

/**
 * Drops every capture in progress and the spans they hold: for a test harness after each test,
 * so that a capture a timed-out test left open neither leaks nor collects the next test's spans.
 */
export function resetCapture(): void {
  for (const c of active) c.close();
  active.clear();
}

/** Captures in progress and the spans they hold (started or ended): what the processor retains. */
export function retained(): { captures: number; spans: number } {
  let spans = 0;
  for (const c of active) spans += c.ended.length + c.open;
  return { captures: active.size, spans };
}

function captureOf(parentContext: Context): Capture | undefined {
  const byKey = parentContext.getValue(CAPTURE_KEY) as Capture | undefined;
  if (byKey) return byKey.closed ? undefined : byKey;
  if (active.size === 0) return undefined;
  // An instrumentation that builds its parent context from a bare span context
  // (trace.setSpanContext(ROOT_CONTEXT, …)) drops our key; its parent's id still names the capture.
  const parentId = trace.getSpanContext(parentContext)?.spanId;
  if (parentId === undefined) return undefined;
  for (const c of active) if (c.spanIds.has(parentId)) return c;
  return undefined;
}

class CaptureProcessor implements SpanProcessor {
  onStart(span: Span, parentContext: Context): void {
    const capture = captureOf(parentContext);
    if (!capture) return;
    owners.set(span, capture);
    const { spanId, traceId } = span.spanContext();
    capture.spanStarted(spanId, traceId);
  }

  onEnd(span: ReadableSpan): void {
    // The SDK hands onEnd the very object onStart saw (the span is its own ReadableSpan).
    const capture = owners.get(span);
    if (!capture) return;
    owners.delete(span);
    if (!capture.closed) capture.spanEnded(span);
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    resetCapture();
    return Promise.resolve();
  }
}

const processor = new CaptureProcessor();
let handWired = false;

/**
 * The processor captureTrace files spans with, for wiring by hand: add it to your provider's
 * `spanProcessors` when captureTrace cannot attach itself to the provider you registered.
 */
export function tracejuryProcessor(): SpanProcessor {
  handWired = true;
  return processor;
}

/** The processor, without marking it wired by hand (for the attaching code). */
export function captureProcessor(): SpanProcessor {
  return processor;
}

/** Whether a user took the processor for their own provider's `spanProcessors`. */
export function isHandWired(): boolean {
  return handWired;
}
