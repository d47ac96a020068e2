/**
 * The attribute stage: for each run that failed (its recorded outcome, an error status, or a
 * finding that fails the gate), the root cause chosen among what the attribution rules named at
 * detection, now that escalation and the deferred baseline detectors have settled which findings
 * stand. In the gray zone (rules disagree, or only the prior named a step) the judges may choose
 * among the candidates; without judges, the rules' answer stands.
 */
import { chooseRootCause } from '../../attribute/choose.js';
import type { AttributionSettings } from '../../attribute/config.js';
import { failureOf } from '../../attribute/failedRun.js';
import type { RootCause } from '../../attribute/rootCause.js';
import { judgeRootCause } from '../../attribute/tribunal.js';
import type { Severity } from '../../detect/signal.js';
import { statusOf } from '../../detect/status.js';
import type { TribunalSession } from '../../judge/tribunal.js';
import type { Config } from '../../config/config.js';
import type { Decided } from './decided.js';
import type { Escalation } from './escalate.js';

/** Said of a failed run whose trace the rules never saw (they run only where a run may fail). */
export const NOT_EXAMINED = 'the attribution rules did not examine this run';

export interface AttributionStage {
  settings: AttributionSettings;
  failOn: readonly Severity[];
  /** Judges for the gray zone, when configured and `attribution.tribunal` is on. */
  tribunal?: TribunalSession;
  /** The run's judge budget, and what every session has spent so far. */
  budgetUsd?: number;
  spentUsd(): number;
}

/** The stage for a run: the config's settings, the gate's severities, escalation's judges. */
export function prepareAttribution(
  config: Config,
  escalation: Escalation,
  failOn: readonly Severity[],
): AttributionStage {
  const judges = escalation.attributionTribunal;
  const detectorJudges = escalation.tribunal;
  return {
    settings: config.attribution,
    failOn,
    ...(judges ? { tribunal: judges } : {}),
    ...(escalation.budgetUsd !== undefined ? { budgetUsd: escalation.budgetUsd } : {}),
    spentUsd: () =>
      (detectorJudges?.stats().judgeUsd ?? 0) +
      (judges && judges !== detectorJudges ? judges.stats().judgeUsd : 0),
  };
}

/** The run's root cause, or undefined for a run that did not fail (or with attribution off). */
export async function attributeTrace(d: Decided, stage: AttributionStage): Promise<RootCause | undefined> {
  if (!stage.settings.enabled) return undefined;
  const { summary } = d.result;
  const failure = failureOf(
    { status: summary.status, ...(summary.outcome ? { outcome: summary.outcome } : {}) },
    d.signals,
    stage.failOn,
  );
  if (failure === undefined) return undefined;
  const facts = d.result.attribution;
  if (!facts) return { unattributed: NOT_EXAMINED };
  const choice = chooseRootCause(facts.candidates, d.signals, facts.failures);
  const { tribunal } = stage;
  if (!choice.grayZone || !tribunal || !('step' in choice.rootCause)) return choice.rootCause;
  if (stage.budgetUsd !== undefined && stage.spentUsd() >= stage.budgetUsd) return choice.rootCause;
  const findings = d.signals.filter((s) => statusOf(s) === 'finding' && s.steps.length > 0);
  const judged = await judgeRootCause(
    tribunal,
    {
      traceId: summary.id,
      failure,
      ...(facts.task !== undefined ? { task: facts.task } : {}),
      candidates: choice.grayZone,
    },
    choice.rootCause,
    findings,
  );
  return judged.rootCause;
}
