/** The `baselines:` section of tracejury.yml: how many good runs switch the adaptive rule on, and how many are kept. */
import { z } from 'zod';

export const DEFAULT_BASELINES = { minRuns: 20, window: 50 };

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
  })
  .partial()
  .strict()
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
