/**
 * detection-tiers.md: confidence < 0.35 is negative, > 0.65 positive, in between escalates to the
 * next enabled tier (and, when none can decide, to human review).
 */
import type { Signal } from './signal.js';

export const GRAY_ZONE_LOWER = 0.35;
export const GRAY_ZONE_UPPER = 0.65;

/**
 * A finding that counts (for gates, totals and waste suppression): above the gray zone and not
 * suppressed. A draft without a confidence yet is taken as confirmed.
 */
export function isConfirmed(s: Pick<Signal, 'suppressedBy'> & { confidence?: number }): boolean {
  return (s.confidence === undefined || s.confidence > GRAY_ZONE_UPPER) && !s.suppressedBy;
}

export function isGrayZone(s: Signal): boolean {
  return s.confidence >= GRAY_ZONE_LOWER && s.confidence <= GRAY_ZONE_UPPER && !s.suppressedBy;
}
