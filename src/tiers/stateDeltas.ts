/**
 * Tier 2 for gray-zone signals (detection-tiers.md, "State delta analysis"): between the rules and
 * the embeddings, a deterministic and free look at how the run's state changed around the signal —
 * what each repeated call returned against the ones before it, whether the run's course changed
 * afterwards, how fast the calls came, which fields appeared or vanished. It needs no
 * configuration (no judges, no embeddings) and runs before tier 3.
 *
 * Each detector that can report in the gray zone has its rule (STATE_DELTA_RULES). A rule decides
 * a failure (confidence 0.70–0.90), no failure (below 0.35: the signal is dropped, as tier 3 and the
 * judges drop what they clear), or leaves the signal in the gray zone for the next tier. Every
 * decision says why in the signal's evidence: `tier2: { decision, reason, facts }`, and for a decided
 * signal `escalation` (as the higher tiers write it), `detectorConfidence` and `tier: 2`.
 *
 * `tiers.stateDeltas` in tracejury.yml lists the detectors tier 2 may decide (default: every one
 * with a rule; `[]` turns tier 2 off).
 */
import { GRAY_ZONE_LOWER, GRAY_ZONE_UPPER, isGrayZone } from '../detect/grayZone.js';
import type { Signal } from '../detect/signal.js';
import type { Trace } from '../trace/schema.js';
import { repeatedCalls } from './stateDeltas/repeatedCalls.js';
import type { StateDeltaDecision, StateDeltaRule } from './stateDeltas/rule.js';

export type { StateDeltaDecision, StateDeltaRule };

/** The detectors tier 2 has a rule for: those whose signals can land in the gray zone. */
export const STATE_DELTA_RULES: Readonly<Record<string, StateDeltaRule>> = {
  TOOL_LOOP: repeatedCalls,
  TOOL_THRASHING: repeatedCalls,
};

export const DEFAULT_STATE_DELTA_DETECTORS: readonly string[] = Object.keys(STATE_DELTA_RULES);

export interface Tier2Result {
  /** The signals after tier 2, without those it resolved as no failure (they are in `cleared`). */
  signals: Signal[];
  cleared: Signal[];
  /** Gray-zone signals tier 2 examined, and how many it resolved (either way). */
  checked: number;
  resolved: number;
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** The signal as tier 2 leaves it, and whether tier 2 resolved it. */
function decide(signal: Signal, d: StateDeltaDecision): { signal: Signal; resolved: boolean } {
  const tier2 = { decision: d.decision, reason: d.reason, facts: d.facts };
  const confidence = d.confidence === undefined ? undefined : clamp01(d.confidence);
  const resolves =
    confidence !== undefined &&
    d.decision !== 'undecided' &&
    (d.decision === 'failure' ? confidence > GRAY_ZONE_UPPER : confidence < GRAY_ZONE_LOWER);
  if (!resolves)
    return {
      signal: { ...signal, evidence: { ...signal.evidence, tier2: { ...tier2, decision: 'undecided' } } },
      resolved: false,
    };
  return {
    signal: {
      ...signal,
      confidence,
      tier: 2,
      evidence: {
        ...signal.evidence,
        escalation: `tier 2 (state deltas) ${d.decision === 'failure' ? 'confirmed the failure' : 'found no failure'}: ${d.reason}`,
        detectorConfidence: signal.confidence,
        tier2,
      },
    },
    resolved: true,
  };
}

/**
 * Tier 2 over one trace's signals: each gray-zone, non-shadow signal of a detector in `detectors`
 * that has a rule is decided by it. Other signals pass unchanged.
 */
export function applyStateDeltas(
  trace: Trace,
  signals: readonly Signal[],
  detectors: ReadonlySet<string>,
): Tier2Result {
  let checked = 0;
  let resolved = 0;
  const kept: Signal[] = [];
  const cleared: Signal[] = [];
  for (const signal of signals) {
    const rule = STATE_DELTA_RULES[signal.detector];
    // Shadow detectors are still being evaluated: their signals stay as their detector made them.
    if (!rule || !detectors.has(signal.detector) || signal.shadow || !isGrayZone(signal)) {
      kept.push(signal);
      continue;
    }
    checked++;
    const out = decide(signal, rule(trace, signal));
    if (out.resolved) resolved++;
    (out.resolved && out.signal.confidence < GRAY_ZONE_LOWER ? cleared : kept).push(out.signal);
  }
  return { signals: kept, cleared, checked, resolved };
}
