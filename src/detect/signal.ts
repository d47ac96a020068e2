import { z } from 'zod';
import { tokenCount, usdAmount } from '../util/amounts.js';

export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export const SeveritySchema = z.enum(SEVERITIES);
export type Severity = z.infer<typeof SeveritySchema>;

/** Rank of a severity: higher is worse. */
export function severityRank(s: Severity): number {
  return SEVERITIES.length - SEVERITIES.indexOf(s);
}

export const SignalSchema = z.object({
  detector: z.string(),
  traceId: z.string(),
  severity: SeveritySchema,
  /** 0–1. Below 0.35 negative, above 0.65 positive, in between escalated to the next tier. */
  confidence: z.number().min(0).max(1),
  /** Tier that produced (or last resolved) the signal: 1 rules, 2 state deltas, 3 embeddings, 4 tribunal, 5 human. */
  tier: z.number().int().min(1).max(5),
  /** Shadow signals are reported but never fail a gate or annotate a PR. */
  shadow: z.boolean().default(false),
  /** Step numbers (1-based, in trace order) the signal is about. */
  steps: z.array(z.number().int().positive()),
  message: z.string(),
  evidence: z.record(z.string(), z.unknown()).optional(),
  wasteUsd: usdAmount().optional(),
  wasteTokens: tokenCount().optional(),
  /** Set when a higher-priority detector already claimed this waste: kept for the record, not counted. */
  suppressedBy: z.string().optional(),
  /** The file the trace came from, so equal trace ids from different files stay distinct. */
  file: z.string().optional(),
  /**
   * finding | review | suppressed | shadow (status.ts): set when the report is built, after
   * escalation; every count in a report is taken over `finding`.
   */
  status: z.enum(['finding', 'review', 'suppressed', 'shadow']).optional(),
});
export type Signal = z.infer<typeof SignalSchema>;
