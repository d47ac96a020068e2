/**
 * Where a run's signals were decided, for the report's `decisions`: each signal that is neither
 * shadow nor suppressed counts once, at the tier in its `tier` field (every escalation tier sets it
 * on the signals it decides), whether the tier confirmed the failure or dismissed it, or under
 * review when it is still in the gray zone. A tier that dismisses a signal (confidence below the
 * gray zone) hands it over apart, since it leaves the signal list. The account depends only on
 * that contract, not on how any tier decides.
 */
import { GRAY_ZONE_LOWER } from '../detect/grayZone.js';
import type { Signal } from '../detect/signal.js';
import { statusOf } from '../detect/status.js';
import type { Decisions } from './schema.js';

type Tier = keyof Decisions['byTier'];

/** Tiers 1–4 decide; a signal that claims another tier is counted at the nearest. */
const tierOf = (s: Pick<Signal, 'tier'>): Tier => String(Math.min(4, Math.max(1, s.tier))) as Tier;

const perTier = (): Decisions['byTier'] => ({ '1': 0, '2': 0, '3': 0, '4': 0 });

export function createDecisionTally() {
  const byTier = perTier();
  const dismissed = perTier();
  let review = 0;
  return {
    /** A trace's final signals, and those a tier dismissed on the way. */
    add(signals: readonly Signal[], dismissedSignals: readonly Signal[]): void {
      for (const s of signals) {
        const status = statusOf(s);
        if (status === 'finding') byTier[tierOf(s)]++;
        else if (status === 'review') review++;
      }
      for (const s of dismissedSignals) {
        if (s.shadow || s.suppressedBy || !(s.confidence < GRAY_ZONE_LOWER)) continue;
        byTier[tierOf(s)]++;
        dismissed[tierOf(s)]++;
      }
    },
    finish(): Decisions {
      const signals = byTier['1'] + byTier['2'] + byTier['3'] + byTier['4'] + review;
      return { signals, byTier: { ...byTier }, dismissed: { ...dismissed }, review };
    },
  };
}
