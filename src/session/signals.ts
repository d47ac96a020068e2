import { z } from 'zod';

/** Per-trace signal scores in [0, 1] where 1 is good (session-metrics.md). Missing ones are skipped. */
export const TraceSignalsSchema = z.object({
  traceId: z.string(),
  signals: z.object({
    confidence: z.number().min(0).max(1).optional(),
    loop_detection: z.number().min(0).max(1).optional(),
    tool_correctness: z.number().min(0).max(1).optional(),
    coherence: z.number().min(0).max(1).optional(),
  }),
});
export type TraceSignals = z.infer<typeof TraceSignalsSchema>;

export const SignalWeightsSchema = z.object({
  confidence: z.number().nonnegative().default(1.0),
  loop_detection: z.number().nonnegative().default(1.0),
  tool_correctness: z.number().nonnegative().default(0.8),
  coherence: z.number().nonnegative().default(1.0),
});
export type SignalWeights = z.infer<typeof SignalWeightsSchema>;

export const SessionMetricOptionsSchema = z.object({
  threshold: z.number().min(0).max(1).default(0.5),
  weights: SignalWeightsSchema.partial().default({}),
  /**
   * List at most this many traces in `per_trace_signals` (the worst, by their risk), and count the
   * rest in `per_trace_signals_omitted`; default: every trace.
   */
  maxListed: z.number().int().nonnegative().optional(),
});
export type SessionMetricOptions = z.input<typeof SessionMetricOptionsSchema>;

export interface SessionMetricResult {
  score: number;
  passed: boolean;
  reason: string;
  metadata: Record<string, unknown>;
}

export const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
/** Metadata numbers are rounded to 4 places as in the reference's examples. */
export const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

export function resolveOptions(options: SessionMetricOptions | undefined) {
  const parsed = SessionMetricOptionsSchema.parse(options ?? {});
  return {
    threshold: parsed.threshold,
    weights: SignalWeightsSchema.parse(parsed.weights),
    maxListed: parsed.maxListed,
  };
}

/** A key an object orders before the others, ascending (an array index: "0", "17", not "017"). */
const isIndexKey = (key: string) => /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1;

/**
 * A metric's `per_trace_signals`: keyed by trace id (a trace id seen twice keeps its first place and
 * its last entry, as assigning to an object does), and with `maxListed` only the worst traces by
 * `risk` (the entry's rounded risk), worst first, ties in the order the whole object's keys would
 * have (session order, but ids that are array indexes first, ascending), with the count of the rest.
 * Entries are made only for the traces listed: in a session of thousands, nobody reads the rest.
 */
export function perTraceSignals(
  traceIds: readonly string[],
  risk: (i: number) => number,
  entry: (i: number) => Record<string, number>,
  maxListed: number | undefined,
): { per_trace_signals: Record<string, Record<string, number>>; per_trace_signals_omitted?: number } {
  const listed: Record<string, Record<string, number>> = {};
  if (maxListed === undefined) {
    for (let i = 0; i < traceIds.length; i++) listed[traceIds[i]!] = entry(i);
    return { per_trace_signals: listed };
  }
  // One place per distinct id, holding the index of its last entry.
  const place = new Map<string, number>();
  const last: number[] = [];
  for (let i = 0; i < traceIds.length; i++) {
    const at = place.get(traceIds[i]!);
    if (at === undefined) {
      place.set(traceIds[i]!, last.length);
      last.push(i);
    } else last[at] = i;
  }
  const risks = last.map((i) => risk(i));
  const index = last.map((i) => (isIndexKey(traceIds[i]!) ? Number(traceIds[i]) : -1));
  const keyOrder = (a: number, b: number) => {
    const x = index[a]!;
    const y = index[b]!;
    if (x >= 0 || y >= 0) return x < 0 ? 1 : y < 0 ? -1 : x - y;
    return a - b;
  };
  const order = last.map((_, p) => p).sort((a, b) => risks[b]! - risks[a]! || keyOrder(a, b));
  const kept = order.slice(0, maxListed);
  for (const p of kept) listed[traceIds[last[p]!]!] = entry(last[p]!);
  return {
    per_trace_signals: listed,
    ...(order.length > kept.length ? { per_trace_signals_omitted: order.length - kept.length } : {}),
  };
}

/** The four risks (1 − score) of the signals a trace has. */
export function risksOf(s: TraceSignals['signals']) {
  const risk = (v: number | undefined) => (v === undefined ? undefined : 1 - v);
  return {
    confidence_risk: risk(s.confidence),
    loop_risk: risk(s.loop_detection),
    tool_risk: risk(s.tool_correctness),
    coherence_risk: risk(s.coherence),
  };
}

export function withoutUndefined<T extends Record<string, number | undefined>>(o: T): Record<string, number> {
  return Object.fromEntries(
    Object.entries(o)
      .filter((e): e is [string, number] => e[1] !== undefined)
      .map(([k, v]) => [k, round4(v)]),
  );
}
