/**
 * Priority and suppression of the waste detectors on ONE trace (reference:
 * cost-waste-detectors.md, "Detector Priority & Suppression").
 *
 * Detectors are taken in `meta.priority` order (lower first; the input order breaks ties). A
 * detector claims the trace when it has at least one signal that is not suppressed. A detector
 * whose `meta.suppressedBy` names a detector that has already claimed the trace gets every signal
 * marked `suppressedBy: '<ID of that detector>'` (the highest-priority claimer when several are
 * named): the signals stay in the record but are not counted in waste totals, and a suppressed
 * detector does not claim the trace.
 *
 * A detector that does not name a claimer is independent of it, yet still never charges a call
 * twice: each of its signals that charges a step a claimer's counted signal already charged is
 * marked suppressed by that claimer, and its other signals stand. The steps a signal charges are
 * its evidence's `wastedSteps` when it lists them (a retry loop charges its calls after the
 * first, a fallback failure its expensive call), else its `steps`. The function is pure: inputs
 * are not modified.
 *
 * Only what counts may claim or charge: a gray-zone signal (confidence at or below
 * GRAY_ZONE_UPPER, see grayZone.ts) is not a confirmed finding, so it neither makes its detector
 * claim the trace nor reserves its steps; it can still be marked suppressed by a confirmed claimer.
 * A signal without a confidence is taken as confirmed.
 *
 * Shadow results (`shadow: true`) never change live ones: live results get exactly the marks they
 * would get with the shadow detectors disabled. Shadow results are marked as they would be if the
 * shadow detectors went live (one pass over all results), so a shadow signal that a live
 * higher-priority detector would suppress is shown as such, and promoting a shadow detector shows
 * no surprise.
 *
 * The waste detectors' rules (src/detect/detectors/waste), from the reference's suppression table:
 * RETRY_LOOP claims first; FALLBACK_STORM and FALLBACK_FAILURE are suppressed by RETRY_LOOP
 * (`suppress_if_retry_loop: true`), FALLBACK_FAILURE also by FALLBACK_STORM (a storm already
 * charges the expensive fallback call); OVERKILL_MODEL by FALLBACK_STORM and FALLBACK_FAILURE — the
 * source tool's report for its demo log shows no overkill on traces they claimed — but not by
 * RETRY_LOOP: the table says `overkill_model: suppress_if_retry_loop: false  # Independent of retry
 * patterns`. (Its "Example Suppression" prose, where the retry loop makes overkill skip the trace,
 * contradicts the table, and its 3-call loop is below its own `max_retries: 3`; the table is the
 * normative part.) So on a gpt-4 retry loop over a short prompt, the loop charges the repeats in full
 * and overkill charges only the first call, the one the loop counts as needed.
 *
 * Structural detectors that charge waste (a `priority`, kind other than `waste`: TOOL_LOOP,
 * RETRY_STORM, … — the order is wastePriority.ts) take part at the level of the call. Their signal
 * reports a failure whatever its dollars, so it is never suppressed: the calls of its rule
 * (`evidence.wastedSteps` as the detector lists them) that a claimer's counted signal already
 * charged — or an earlier counted signal of the same detector — move to
 * `evidence.wasteChargedBy: { <ID>: steps }`, and the signal charges the rest. Its confirmed
 * signals then reserve what they charge, for the detectors after it. The rule's calls stay
 * `wastedSteps` ∪ `wasteChargedBy`, so applying this again (once escalation has decided gray-zone
 * signals, see `settleWaste` in runner.ts) gives the charges for the final confidences.
 */
import type { DetectorMeta } from './detector.js';
import { dict } from '../util/dict.js';
import { isConfirmed } from './grayZone.js';

export interface WasteSignalLike {
  suppressedBy?: string;
  confidence?: number;
  steps?: readonly number[];
  evidence?: Record<string, unknown>;
}

export interface WasteDetectorResult<S extends WasteSignalLike> {
  /** `kind` absent is taken as `waste`. */
  meta: Pick<DetectorMeta, 'id' | 'priority' | 'suppressedBy'> & { kind?: DetectorMeta['kind'] };
  signals: S[];
  /** Shadow results are reported but never suppress live ones (see the module comment). */
  shadow?: boolean;
}

/** The steps whose cost the signal counts as waste (see the module comment). */
export function chargedSteps(s: WasteSignalLike): readonly number[] {
  const listed = s.evidence?.wastedSteps;
  if (Array.isArray(listed) && listed.every((n) => typeof n === 'number')) return listed as number[];
  return s.steps ?? [];
}

/** A detector whose signals charge calls without ever being suppressed: a structural one with a priority. */
export function chargesCalls(meta: { kind?: DetectorMeta['kind']; priority?: number }): boolean {
  return meta.priority !== undefined && meta.kind !== undefined && meta.kind !== 'waste';
}

/** Who charges which of a structural signal's calls instead of it (`evidence.wasteChargedBy`). */
function chargedElsewhere(s: WasteSignalLike): Record<string, readonly number[]> {
  const by = s.evidence?.wasteChargedBy;
  return by && typeof by === 'object' && !Array.isArray(by) ? (by as Record<string, number[]>) : {};
}

/** Every call a structural signal's rule counts: those it charges and those charged by others. */
export function ruleCalls(s: WasteSignalLike): number[] {
  const steps = new Set<number>();
  const listed = s.evidence?.wastedSteps;
  if (Array.isArray(listed)) for (const n of listed) if (typeof n === 'number') steps.add(n);
  for (const list of Object.values(chargedElsewhere(s)))
    if (Array.isArray(list)) for (const n of list) if (typeof n === 'number') steps.add(n);
  return [...steps].sort((a, b) => a - b);
}

export function applyWasteSuppression<S extends WasteSignalLike, R extends WasteDetectorResult<S>>(
  results: readonly R[],
): R[] {
  const out: R[] = new Array<R>(results.length);
  const all = results.map((_, i) => i);
  if (!results.some((r) => r.shadow)) {
    suppress(results, all, out);
    return out;
  }
  // Every result as if live; only the shadow ones keep these marks.
  const asIfLive: R[] = new Array<R>(results.length);
  suppress(results, all, asIfLive);
  const live = all.filter((i) => !results[i]!.shadow);
  suppress(results, live, out);
  for (const i of all) if (results[i]!.shadow) out[i] = asIfLive[i]!;
  return out;
}

/** Suppression among `results[i]` for i in `indices`, writing each into `out[i]`. */
function suppress<S extends WasteSignalLike, R extends WasteDetectorResult<S>>(
  results: readonly R[],
  indices: readonly number[],
  out: R[],
): void {
  const order = indices
    .map((i) => ({ r: results[i]!, i }))
    .sort((a, b) => (a.r.meta.priority ?? Infinity) - (b.r.meta.priority ?? Infinity) || a.i - b.i);
  /** Claimers in the order they claimed (= priority order), with the steps their counted signals charge. */
  const claimed: { id: string; steps: Set<number> }[] = [];
  for (const { r, i } of order) {
    if (chargesCalls(r.meta)) {
      out[i] = chargeCalls(r, claimed);
      continue;
    }
    const names = r.meta.suppressedBy ?? [];
    const by = claimed.find((c) => names.includes(c.id))?.id;
    const signals =
      by === undefined
        ? r.signals.map((s) => {
            const charged = chargedSteps(s);
            const overlap = claimed.find((c) => charged.some((n) => c.steps.has(n)))?.id;
            return overlap === undefined ? { ...s } : { ...s, suppressedBy: overlap };
          })
        : r.signals.map((s) => ({ ...s, suppressedBy: by }));
    // Only a confirmed signal may claim the trace and reserve the steps it charges.
    const counted = signals.filter(isConfirmed);
    if (counted.length > 0) {
      const steps = new Set<number>();
      for (const s of counted) for (const n of chargedSteps(s)) steps.add(n);
      claimed.push({ id: r.meta.id, steps });
    }
    out[i] = { ...r, signals };
  }
}

/**
 * A structural detector's signals in order: each charges the calls of its rule that no claimer and
 * no earlier counted signal of its own charges (see the module comment); the detector then claims
 * what its counted signals charge.
 */
function chargeCalls<S extends WasteSignalLike, R extends WasteDetectorResult<S>>(
  r: R,
  claimed: { id: string; steps: Set<number> }[],
): R {
  const own = new Set<number>();
  const signals = r.signals.map((s) => {
    const kept: number[] = [];
    const by = dict<number[]>();
    for (const n of ruleCalls(s)) {
      const owner = claimed.find((c) => c.steps.has(n))?.id ?? (own.has(n) ? r.meta.id : undefined);
      if (owner === undefined) kept.push(n);
      else (by[owner] ??= []).push(n);
    }
    const { wasteChargedBy: _stale, ...evidence } = s.evidence ?? {};
    const charged = {
      ...s,
      evidence: {
        ...evidence,
        wastedSteps: kept,
        ...(Object.keys(by).length > 0 ? { wasteChargedBy: by } : {}),
      },
    };
    if (isConfirmed(charged)) for (const n of kept) own.add(n);
    return charged;
  });
  if (own.size > 0) claimed.push({ id: r.meta.id, steps: own });
  return { ...r, signals };
}
