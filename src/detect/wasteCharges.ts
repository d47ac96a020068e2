/**
 * Who charges each wasted LLM call of one trace, and what the structural detectors' charges cost:
 * priority and suppression (suppression.ts) over the results of the detectors that charge waste,
 * then the dollars of each structural signal's charged calls — the step's recorded cost, else
 * tokens × price through the pricer (the calls' own tier, cached tokens), as the cost-waste
 * detectors price theirs (waste/common.ts). Only signals that fired are priced: a trace without
 * such signals costs nothing here.
 */
import type { Pricer } from '../pricing/pricer.js';
import type { Trace } from '../trace/schema.js';
import type { DetectorMeta, SignalDraft } from './detector.js';
import { roundUsd, sumStepsWaste } from './detectors/waste/common.js';
import { applyWasteSuppression, chargedSteps, chargesCalls } from './suppression.js';

export interface ChargingResult<S extends SignalDraft = SignalDraft> {
  meta: DetectorMeta;
  signals: S[];
  shadow: boolean;
}

/** The results with suppression applied and the structural signals priced (inputs unchanged). */
export function settleCharges<S extends SignalDraft, R extends ChargingResult<S>>(
  trace: Trace,
  results: readonly R[],
  pricer: Pricer,
): R[] {
  const settled = applyWasteSuppression<S, R>(results);
  for (const r of settled) {
    if (!chargesCalls(r.meta)) continue;
    for (const s of r.signals) {
      // Suppression made a fresh copy of the signal and its evidence: they may be written.
      const charged = chargedSteps(s);
      if (charged.length === 0) {
        // Nothing of its own to charge (another detector charges its calls, or none was redundant
        // as a whole): no dollar figure, rather than a $0 that reads as "free".
        delete s.wasteUsd;
        delete s.wasteTokens;
        delete s.evidence!.costSources;
        continue;
      }
      const waste = sumStepsWaste(trace, charged, pricer);
      s.wasteUsd = roundUsd(waste.usd);
      s.wasteTokens = waste.tokens;
      s.evidence!.costSources = waste.costSources;
    }
  }
  return settled;
}
