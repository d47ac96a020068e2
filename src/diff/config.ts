/**
 * The `regression:` section of tracejury.yml: what makes `tracejury diff` (and the Action's PR
 * check) fail when a head report is compared with its base.
 *
 * ```yaml
 * regression:
 *   newSignals: { minSeverity: high } # a new finding this severe or worse fails (false: never)
 *   wasteIncreasePct: 20              # waste per trace up by more than 20 % and beyond noise fails
 *   verdictPassRateDrop: 0.1          # the judges' pass rate down by more than 0.1 and beyond noise fails
 * ```
 */
import { z } from 'zod';
import { SEVERITIES, SeveritySchema, type Severity } from '../detect/signal.js';
import { nearest } from '../util/nearest.js';
import { quoted } from '../redact/safeText.js';

const NewSignalsObjectSchema = z
  .object({
    minSeverity: SeveritySchema.optional().describe(
      'A new finding of this severity or worse fails the gate (default high)',
    ),
  })
  .strict();

const DROP_MESSAGE = 'expected a drop between 0 and 1 (0.1 is ten points) or false';

export const RegressionSectionSchema = z
  .object({
    newSignals: z
      .union([z.literal(false), NewSignalsObjectSchema], {
        error: (issue) => {
          if (typeof issue.input !== 'object' || issue.input === null)
            return 'expected { minSeverity } or false (new findings never fail the gate)';
          const got = (issue.input as { minSeverity?: unknown }).minSeverity;
          const hint = typeof got === 'string' ? nearest(got, SEVERITIES) : undefined;
          return (
            `minSeverity: expected one of ${SEVERITIES.join(', ')}, got ${quoted(got)}` +
            (hint ? ` — did you mean "${hint}"?` : '')
          );
        },
      })
      .optional()
      .describe('New findings (not in the base report) that fail the gate; false: none do'),
    wasteIncreasePct: z
      .union([z.number().nonnegative(), z.literal(false)], {
        error: () => 'expected a percentage (20 means 20 %) or false (waste never fails the gate)',
      })
      .optional()
      .describe(
        'Fail when waste per trace rose by more than this percentage and beyond noise (default 20; false: never)',
      ),
    verdictPassRateDrop: z
      .union([z.number().min(0, DROP_MESSAGE).max(1, DROP_MESSAGE), z.literal(false)], {
        error: () => DROP_MESSAGE,
      })
      .optional()
      .describe(
        "Fail when the judges' pass rate fell by more than this (0–1) and beyond noise (default 0.1; false: never)",
      ),
  })
  .strict()
  .describe('What makes `tracejury diff` fail: new findings, waste per trace, the judges’ pass rate');

export type RegressionSection = z.input<typeof RegressionSectionSchema>;

export interface RegressionPolicy {
  /** New findings at this severity or worse fail; false: new findings never fail. */
  newSignals: { minSeverity: Severity } | false;
  /** Waste per trace up by more than this percentage (and labelled `up`) fails; false: never. */
  wasteIncreasePct: number | false;
  /** Verdict pass rate down by more than this (and labelled `down`) fails; false: never. */
  verdictPassRateDrop: number | false;
}

const DEFAULT_MIN_SEVERITY: Severity = 'high';

export const DEFAULT_REGRESSION: RegressionPolicy = {
  newSignals: { minSeverity: DEFAULT_MIN_SEVERITY },
  wasteIncreasePct: 20,
  verdictPassRateDrop: 0.1,
};

/** The section as written (or nothing) with every default filled in. Throws on an invalid section. */
export function regressionPolicy(section: RegressionSection | undefined): RegressionPolicy {
  const s = RegressionSectionSchema.parse(section ?? {});
  return {
    newSignals:
      s.newSignals === false ? false : { minSeverity: s.newSignals?.minSeverity ?? DEFAULT_MIN_SEVERITY },
    wasteIncreasePct: s.wasteIncreasePct ?? DEFAULT_REGRESSION.wasteIncreasePct,
    verdictPassRateDrop: s.verdictPassRateDrop ?? DEFAULT_REGRESSION.verdictPassRateDrop,
  };
}
