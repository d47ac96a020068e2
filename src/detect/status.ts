/**
 * One status per signal, so that every count in a report (the gate, waste totals, summaries,
 * outcomes) is taken over the same set:
 * - `finding`: confident (above the gray zone), not suppressed, from a live detector — counts
 *   toward the gate and every total;
 * - `review`: in the gray zone (0.35–0.65), escalated or waiting for a human (tier 5);
 * - `suppressed`: waste already charged by a higher-priority detector (`suppressedBy` names it);
 * - `shadow`: from a detector in shadow mode, reported and never counted.
 * Signals below the gray zone are negative and never reach a report.
 */
import { z } from 'zod';
import { GRAY_ZONE_UPPER } from './grayZone.js';
import type { Signal } from './signal.js';

export const SIGNAL_STATUSES = ['finding', 'review', 'suppressed', 'shadow'] as const;
export const SignalStatusSchema = z.enum(SIGNAL_STATUSES);
export type SignalStatus = z.infer<typeof SignalStatusSchema>;

export function signalStatus(s: Pick<Signal, 'suppressedBy' | 'shadow' | 'confidence'>): SignalStatus {
  if (s.suppressedBy) return 'suppressed';
  if (s.shadow) return 'shadow';
  return s.confidence > GRAY_ZONE_UPPER ? 'finding' : 'review';
}

/** The signal's status: the one a report set, else worked out from the signal. */
export function statusOf(
  s: Pick<Signal, 'suppressedBy' | 'shadow' | 'confidence'> & { status?: SignalStatus },
): SignalStatus {
  return s.status ?? signalStatus(s);
}
