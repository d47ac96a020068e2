/**
 * The one rule for what counts as waste in totals: confirmed findings (above the gray zone, not
 * suppressed by a higher-priority waste detector) of live detectors. Shadow detectors are still
 * being evaluated, so their dollars are shown per signal but not added up.
 */
import { statusOf } from '../detect/status.js';
import type { Signal } from '../detect/signal.js';
import type { Report } from './schema.js';
import { dict } from '../util/dict.js';

export type WasteCountable = Pick<
  Signal,
  'detector' | 'confidence' | 'shadow' | 'suppressedBy' | 'wasteUsd' | 'wasteTokens' | 'status'
>;

export function wasteTotals(signals: Iterable<WasteCountable>): Report['waste'] {
  const byDetector: Report['waste']['byDetector'] = dict();
  let totalUsd = 0;
  let totalTokens = 0;
  for (const s of signals) {
    if (s.wasteUsd === undefined || statusOf(s) !== 'finding') continue;
    const entry = (byDetector[s.detector] ??= { usd: 0, tokens: 0, signals: 0 });
    entry.usd += s.wasteUsd;
    entry.tokens += s.wasteTokens ?? 0;
    entry.signals++;
    totalUsd += s.wasteUsd;
    totalTokens += s.wasteTokens ?? 0;
  }
  return { totalUsd, totalTokens, byDetector };
}
