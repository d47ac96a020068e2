/**
 * Tier 4 for gray-zone signals (detection-tiers.md): a detector confidence in [0.35, 0.65] is sent
 * to the tribunal; its consensus decides. The judge's score is "how healthy the run is", so the
 * failure's new confidence is 1 − score. No-downgrade detectors (high-precision rules) may only be
 * raised. An INDETERMINATE verdict leaves the signal in the gray zone, and so on the review list.
 */
import type { Detector } from '../detect/detector.js';
import { isGrayZone } from '../detect/grayZone.js';
import type { Signal } from '../detect/signal.js';
import type { TribunalSession } from '../judge/tribunal.js';
import type { Verdict } from '../judge/verdict.js';
import type { Trace } from '../trace/schema.js';
import { failureCase } from './failureCase.js';

export const DEFAULT_NO_DOWNGRADE = ['PROMPT_INJECTION_SIGNAL'];

export interface EscalationOptions {
  session: TribunalSession;
  noDowngrade: ReadonlySet<string>;
  describe: (detectorId: string) => Detector['meta'] | undefined;
}

export interface Escalated {
  signals: Signal[];
  verdicts: Verdict[];
}

export async function escalateGrayZone(
  trace: Trace,
  signals: Signal[],
  options: EscalationOptions,
): Promise<Escalated> {
  const verdicts: Verdict[] = [];
  const out: Signal[] = [];
  for (const signal of signals) {
    // Shadow detectors are still being evaluated: not worth a judge's money.
    if (!isGrayZone(signal) || signal.shadow) {
      out.push(signal);
      continue;
    }
    const meta = options.describe(signal.detector);
    const c = failureCase(trace, signal, meta?.description ?? signal.detector);
    const verdict = {
      ...(await options.session.evaluate({ ...c, traceId: trace.id })),
      name: signal.detector,
    };
    verdicts.push(verdict);
    if (verdict.indeterminate) {
      out.push({
        ...signal,
        evidence: {
          ...signal.evidence,
          escalation: `tribunal INDETERMINATE: ${verdict.reason ?? 'no reason given'}`,
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
        escalation: `tribunal ${verdict.passed ? 'found the run healthy' : 'confirmed the failure'} (score ${verdict.score.toFixed(2)}, confidence ${verdict.confidence.toFixed(2)}, ${verdict.modelsUsed.join(', ')})`,
        detectorConfidence: signal.confidence,
      },
    });
  }
  return { signals: out, verdicts };
}
