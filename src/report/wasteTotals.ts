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
  const tally = createWasteTally();
  for (const s of signals) tally.add(s);
  return tally.finish();
}

/** The same totals, signal by signal as they come (the report's accumulator). */
export function createWasteTally() {
  const byDetector: Report['waste']['byDetector'] = dict();
  let totalUsd = 0;
  let totalTokens = 0;
  return {
    add(s: WasteCountable) {
      if (s.wasteUsd === undefined || statusOf(s) !== 'finding') return;
      const entry = (byDetector[s.detector] ??= { usd: 0, tokens: 0, signals: 0 });
      entry.usd += s.wasteUsd;
      entry.tokens += s.wasteTokens ?? 0;
      entry.signals++;
      totalUsd += s.wasteUsd;
      totalTokens += s.wasteTokens ?? 0;
    },
    finish: (): Report['waste'] => ({ totalUsd, totalTokens, byDetector }),
  };
}
