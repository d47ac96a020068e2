/**
 * Tier 4 for gray-zone signals (detection-tiers.md): a detector confidence in [0.35, 0.65] is sent
 * to the tribunal; its consensus decides. The judge's score is "how healthy the run is", so the
 * failure's new confidence is 1 − score. No-downgrade detectors (high-precision rules) may only be
 * raised. An INDETERMINATE verdict leaves the signal in the gray zone, and so on the review list.
 *
 * Each signal goes to the judge set of its failure mode's route (routing.ts); the route is in its
 * evidence. Once the run's judge spend reaches `budgetUsd`, no further case is escalated: such
 * signals stay in the gray zone with "run budget of $X reached" as their escalation evidence.
 */
import type { Detector } from '../detect/detector.js';
import { isGrayZone } from '../detect/grayZone.js';
import type { Signal } from '../detect/signal.js';
import type { JudgeSpec } from '../judge/providers.js';
import type { TribunalSession } from '../judge/tribunal.js';
import { replayedNote, type Verdict } from '../judge/verdict.js';
import type { Trace } from '../trace/schema.js';
import { failureCase } from './failureCase.js';
import type { JudgeRoute } from './routing.js';

export const DEFAULT_NO_DOWNGRADE = ['PROMPT_INJECTION_SIGNAL'];

export interface EscalationOptions {
  session: TribunalSession;
  noDowngrade: ReadonlySet<string>;
  describe: (detectorId: string) => Detector['meta'] | undefined;
  /** The route and judge set for a failure mode; absent: every case goes to the session's judges. */
  route?: (failureMode: string | undefined) => { route: JudgeRoute; judges?: JudgeSpec[] };
  /** Stop escalating once the session's judge spend (stats().judgeUsd) has reached this. */
  budgetUsd?: number;
}

export interface Escalated {
  signals: Signal[];
  verdicts: Verdict[];
  /** Gray-zone signals not escalated because the run budget was reached. */
  overBudget: number;
}

/** "run budget of $0.05 reached": the reason a case was not escalated. */
export function budgetReason(budgetUsd: number): string {
  return `run budget of $${budgetUsd} reached`;
}

export async function escalateGrayZone(
  trace: Trace,
  signals: Signal[],
  options: EscalationOptions,
): Promise<Escalated> {
  const verdicts: Verdict[] = [];
  const out: Signal[] = [];
  let overBudget = 0;
  for (const signal of signals) {
    // Shadow detectors are still being evaluated: not worth a judge's money.
    if (!isGrayZone(signal) || signal.shadow) {
      out.push(signal);
      continue;
    }
    if (options.budgetUsd !== undefined && options.session.stats().judgeUsd >= options.budgetUsd) {
      overBudget++;
      out.push({ ...signal, evidence: { ...signal.evidence, escalation: budgetReason(options.budgetUsd) } });
      continue;
    }
    const meta = options.describe(signal.detector);
    const routed = options.route?.(meta?.failureMode);
    const c = failureCase(trace, signal, meta?.description ?? signal.detector);
    const verdict = {
      ...(await options.session.evaluate({
        ...c,
        traceId: trace.id,
        // Named in the cassette beside the answer, for a reviewer of its diff.
        name: signal.detector,
        ...(routed?.judges ? { judges: routed.judges } : {}),
      })),
      name: signal.detector,
    };
    verdicts.push(verdict);
    const route = routed ? { route: routed.route } : {};
    if (verdict.indeterminate) {
      out.push({
        ...signal,
        evidence: {
          ...signal.evidence,
          escalation: `tribunal INDETERMINATE${replayedNote(verdict)}: ${verdict.reason ?? 'no reason given'}`,
          ...route,
        },
      });
      continue;
    }
    const judged = 1 - verdict.score;
    const confidence = options.noDowngrade.has(signal.detector)
      ? Math.max(signal.confidence, judged)
      : judged;
    out.push({
      ...signal,
      confidence,
      tier: 4,
      evidence: {
        ...signal.evidence,
        escalation: `tribunal ${verdict.passed ? 'found the run healthy' : 'confirmed the failure'}${replayedNote(verdict)} (score ${verdict.score.toFixed(2)}, confidence ${verdict.confidence.toFixed(2)}, ${verdict.modelsUsed.join(', ')})`,
        detectorConfidence: signal.confidence,
        ...route,
      },
    });
  }
  return { signals: out, verdicts, overBudget };
}
