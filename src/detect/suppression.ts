/**
 * Priority and suppression of the waste detectors on ONE trace (reference:
 * cost-waste-detectors.md, "Detector Priority & Suppression").
 *
 * Detectors are taken in `meta.priority` order (lower first; the input order breaks ties). A
 * detector claims the trace when it has at least one signal that is not suppressed. A detector
 * whose `meta.suppressedBy` names a detector that has already claimed the trace gets every signal
 * marked `suppressedBy: '<ID of that detector>'` (the highest-priority claimer when several are
 * named): the signals stay in the record but are not counted in waste totals, and a suppressed
 * detector does not claim the trace. Detectors with an empty or absent `suppressedBy` are
 * independent. The function is pure: inputs are not modified.
 *
 * The waste detectors' rules (src/detect/detectors/waste): RETRY_LOOP claims first;
 * FALLBACK_STORM is suppressed by RETRY_LOOP; FALLBACK_FAILURE by RETRY_LOOP and FALLBACK_STORM
 * (a storm already charges the expensive fallback call); OVERKILL_MODEL by all three — the source
 * tool's report for its demo log shows no overkill on traces a higher detector claimed, although
 * their expensive short-prompt calls qualify, and charging them again would count the same call twice.
 */
import type { DetectorMeta } from './detector.js';

export interface WasteDetectorResult<S extends { suppressedBy?: string }> {
  meta: Pick<DetectorMeta, 'id' | 'priority' | 'suppressedBy'>;
  signals: S[];
}

export function applyWasteSuppression<S extends { suppressedBy?: string }, R extends WasteDetectorResult<S>>(
  results: readonly R[],
): R[] {
  const order = results
    .map((r, i) => ({ r, i }))
    .sort((a, b) => (a.r.meta.priority ?? Infinity) - (b.r.meta.priority ?? Infinity) || a.i - b.i);
  /** Claimers in the order they claimed (= priority order). */
  const claimed: string[] = [];
  const out: R[] = new Array<R>(results.length);
  for (const { r, i } of order) {
    const names = r.meta.suppressedBy ?? [];
    const by = claimed.find((id) => names.includes(id));
    const signals =
      by === undefined
        ? r.signals.map((s) => ({ ...s }))
        : r.signals.map((s) => ({ ...s, suppressedBy: by }));
    if (signals.some((s) => s.suppressedBy === undefined)) claimed.push(r.meta.id);
    out[i] = { ...r, signals };
  }
  return out;
}
