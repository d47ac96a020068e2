/**
 * The `baselines:` section of tracejury.yml: how many good runs switch the adaptive rule on, how
 * many are kept, and whether the input's own good runs stand in for a store that has too few.
 */
import { z } from 'zod';

export const DEFAULT_BASELINES = { minRuns: 20, window: 50, fromInput: true };

export const BaselinesSectionSchema = z
  .object({
    minRuns: z
      .number()
      .int()
      .min(1)
      .default(DEFAULT_BASELINES.minRuns)
      .describe(
        'Successful runs of an agent version before the adaptive P75 rule replaces the static limits',
      ),
    window: z
      .number()
      .int()
      .min(1)
      .default(DEFAULT_BASELINES.window)
      .describe('Most recent successful runs kept per agent version (at least minRuns)'),
    fromInput: z
      .boolean()
      .default(DEFAULT_BASELINES.fromInput)
      .describe(
        "An agent version with fewer than minRuns runs in the store is compared against its good runs in the input (or the base branch's report) when those number minRuns",
      ),
  })
  .partial()
  .strict()
  .describe(
    'Per-agent P75 baselines: when they replace the static thresholds, and where their runs come from',
  )
  .superRefine((b, ctx) => {
    // The window holds at most `window` runs, so more than that could never be reached and the
    // adaptive rule would never switch on. (Defaults are filled in here: window 10 alone clashes
    // with the default minRuns 20.)
    const minRuns = b.minRuns ?? DEFAULT_BASELINES.minRuns;
    const window = b.window ?? DEFAULT_BASELINES.window;
    if (minRuns > window) {
      ctx.addIssue({
        code: 'custom',
        path: ['minRuns'],
        message:
          `minRuns (${minRuns}) is greater than window (${window}; defaults ` +
          `${DEFAULT_BASELINES.minRuns} and ${DEFAULT_BASELINES.window}): the window never holds ` +
          'that many runs, so the adaptive baseline rule would never switch on',
      });
    }
  });
