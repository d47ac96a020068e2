/**
 * The `tiers:` section of tracejury.yml: which detectors tier 2 may decide, whether gray-zone signals
 * escalate further, and which may only rise.
 */
import { z } from 'zod';
import { DEFAULT_NO_DOWNGRADE } from './escalate.js';
import { DEFAULT_STATE_DELTA_DETECTORS, STATE_DELTA_RULES } from './stateDeltas.js';

export { DEFAULT_NO_DOWNGRADE, DEFAULT_STATE_DELTA_DETECTORS };

/** `detectorId` checks the ids in noDowngrade (with did-you-mean); the config module passes the registry's. */
export function tiersSectionSchema(detectorId: z.ZodType<string>) {
  return z
    .object({
      stateDeltas: z
        .array(
          detectorId.refine((id) => id in STATE_DELTA_RULES, {
            error: (issue) =>
              `${JSON.stringify(issue.input)} has no tier-2 rule; tier 2 decides ${DEFAULT_STATE_DELTA_DETECTORS.join(', ')}`,
          }),
        )
        .describe(
          'Detectors whose gray-zone signals tier 2 (state deltas: what repeated calls returned, what the run did next) ' +
            'decides before embeddings and judges; default: every detector with a tier-2 rule, [] turns tier 2 off',
        ),
      escalate: z
        .boolean()
        .describe(
          'Send gray-zone signals (confidence 0.35–0.65) to tier 3 (embeddings) and then to the tribunal when judges are configured',
        ),
      noDowngrade: z
        .array(detectorId)
        .describe('Detector ids whose confidence a judge may raise but never lower'),
      budgetUsd: z
        .number()
        .positive()
        .describe(
          'Run budget for judges in USD: once spent, no more gray-zone signals are escalated; they go to review',
        ),
    })
    .partial()
    .strict()
    .describe(
      'How gray-zone signals are escalated: tier 2 (state deltas), tier 3 (embeddings), tier 4 (judges)',
    );
}
