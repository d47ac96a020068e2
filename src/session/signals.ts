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
  return { threshold: parsed.threshold, weights: SignalWeightsSchema.parse(parsed.weights) };
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
