/** The `tiers:` section of tracejury.yml: whether gray-zone signals escalate, and which may only rise. */
import { z } from 'zod';
import { DEFAULT_NO_DOWNGRADE } from './escalate.js';

export { DEFAULT_NO_DOWNGRADE };

/** `detectorId` checks the ids in noDowngrade (with did-you-mean); the config module passes the registry's. */
export function tiersSectionSchema(detectorId: z.ZodType<string>) {
  return z
    .object({
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
    .strict();
}
