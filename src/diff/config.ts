/**
 * The `regression:` section of tracejury.yml: what makes `tracejury diff` (and the Action's PR
 * check) fail when a head report is compared with its base. The gate is a one-sided test of
 * "worse" per quantity, with the chance of a false alarm across everything gated held at `alpha`
 * (gate.ts):
 *
 * ```yaml
 * regression:
 *   alpha: 0.05                        # false alarms across the gated quantities, at most
 *   gate: [success, findings, waste]   # what may fail it; add cost, judgeScore or a detector id
 *   minSeverity: high                  # `findings` is the share of runs with a finding this severe or worse
 *   minEffect:                         # a change smaller than this never fails
 *     success: 0.05                    #   5 points of success
 *     findings: 0.05                   #   5 points of runs with a finding
 *     waste: 0.2                       #   20 % of base's waste per run
 *   newSignals: false                  # { minSeverity: high }: also fail on a new finding of a task
 *                                      # clean in every base run (deterministic replays)
 * ```
 *
 * Keys of the first version keep a meaning: `wasteIncreasePct: 20` is `minEffect.waste: 0.2`
 * (false: waste is not gated); `verdictPassRateDrop: 0.1` is `minEffect.success: 0.1` (the
 * judges' pass rate is success when runs record no outcome; false: success is not gated). Each is
 * read with a warning naming its replacement (regressionWarnings).
 */
import { z } from 'zod';
import { BUILT_IN_DETECTOR_IDS } from '../detect/ids.js';
import { SEVERITIES, SeveritySchema, type Severity } from '../detect/signal.js';
import { didYouMean, nearest } from '../util/nearest.js';
import { quoted } from '../redact/safeText.js';

/** The quantities a diff compares, besides each detector's share of runs (named by detector id). */
const QUANTITY_IDS = ['success', 'findings', 'waste', 'cost', 'judgeScore'] as const;
export type QuantityName = (typeof QUANTITY_IDS)[number];

/** What the gate tests when the section does not say. */
const DEFAULT_GATED: readonly string[] = ['success', 'findings', 'waste'];

const NewSignalsObjectSchema = z
  .object({
    minSeverity: SeveritySchema.optional().describe(
      'A new finding of this severity or worse, on a task clean in every base run, fails the gate (default high)',
    ),
  })
  .strict();

const DROP_MESSAGE = 'expected a drop between 0 and 1 (0.1 is ten points) or false';
const POINTS_MESSAGE = 'expected a share between 0 and 1 (0.05 is five points)';
const RELATIVE_MESSAGE = 'expected a fraction of base’s value, 0 or more (0.2 is 20 %)';

const points = () => z.number({ error: POINTS_MESSAGE }).min(0, POINTS_MESSAGE).max(1, POINTS_MESSAGE);
const relative = () => z.number({ error: RELATIVE_MESSAGE }).min(0, RELATIVE_MESSAGE);

const MinEffectSchema = z
  .object({
    success: points()
      .optional()
      .describe('Success drops smaller than this never fail (default 0.05: 5 points)'),
    findings: points()
      .optional()
      .describe('Rises in the share of runs with a finding smaller than this never fail (default 0.05)'),
    detectors: points()
      .optional()
      .describe("Rises in a gated detector's share of runs smaller than this never fail (default 0.05)"),
    waste: relative()
      .optional()
      .describe('Rises in waste per run smaller than this fraction of base’s never fail (default 0.2: 20 %)'),
    cost: relative()
      .optional()
      .describe('Rises in cost per run smaller than this fraction of base’s never fail (default 0.2)'),
    judgeScore: points()
      .optional()
      .describe("Drops in the judges' mean score (0–1) smaller than this never fail (default 0.05)"),
  })
  .strict();

/** A gated name: a quantity, or a detector id (UPPER_SNAKE); a near miss of either is an error. */
const GatedNameSchema = z.string().superRefine((name, ctx) => {
  if ((QUANTITY_IDS as readonly string[]).includes(name)) return;
  if (/^[A-Z][A-Z0-9_]*$/.test(name)) {
    if ((BUILT_IN_DETECTOR_IDS as readonly string[]).includes(name)) return;
    const hint = nearest(name, BUILT_IN_DETECTOR_IDS);
    // A custom detector's id is fine; one a letter away from a built-in one is a typo.
    if (hint === undefined) return;
    ctx.addIssue({ code: 'custom', message: `unknown detector ${quoted(name)} — did you mean "${hint}"?` });
    return;
  }
  ctx.addIssue({
    code: 'custom',
    message:
      `expected one of ${QUANTITY_IDS.join(', ')} or a detector id (TOOL_LOOP), got ${quoted(name)}` +
      didYouMean(name, QUANTITY_IDS),
  });
});

export const RegressionSectionSchema = z
  .object({
    alpha: z
      .number({ error: 'expected a false-alarm rate between 0 and 0.5 (0.05 is 5 %)' })
      .gt(0, 'expected a false-alarm rate between 0 and 0.5 (0.05 is 5 %)')
      .max(0.5, 'expected a false-alarm rate between 0 and 0.5 (0.05 is 5 %)')
      .optional()
      .describe(
        'The chance that a pull request that changed nothing fails the gate, across every gated quantity (default 0.05)',
      ),
    gate: z
      .array(GatedNameSchema)
      .optional()
      .describe(
        'The quantities that may fail the gate: success, findings, waste, cost, judgeScore, or a detector id for its share of runs (default [success, findings, waste])',
      ),
    minSeverity: SeveritySchema.optional().describe(
      '`findings` is the share of runs with a finding of this severity or worse (default high)',
    ),
    minEffect: MinEffectSchema.optional().describe(
      'Per quantity, the smallest change toward worse that may fail the gate',
    ),
    newSignals: z
      .union([z.literal(false), NewSignalsObjectSchema], {
        error: (issue) => {
          if (typeof issue.input !== 'object' || issue.input === null)
            return 'expected { minSeverity } or false (new findings never fail the gate on their own)';
          const got = (issue.input as { minSeverity?: unknown }).minSeverity;
          const hint = typeof got === 'string' ? nearest(got, SEVERITIES) : undefined;
          return (
            `minSeverity: expected one of ${SEVERITIES.join(', ')}, got ${quoted(got)}` +
            (hint ? ` — did you mean "${hint}"?` : '')
          );
        },
      })
      .optional()
      .describe(
        'Off by default. { minSeverity }: a new finding at that severity, on a task clean in every base run, fails the gate on its own (for deterministic replays)',
      ),
    wasteIncreasePct: z
      .union([z.number().nonnegative(), z.literal(false)], {
        error: () => 'expected a percentage (20 means 20 %) or false (waste never fails the gate)',
      })
      .optional()
      .describe('Replaced by minEffect.waste (20 here is 0.2 there); false takes waste out of the gate'),
    verdictPassRateDrop: z
      .union([z.number().min(0, DROP_MESSAGE).max(1, DROP_MESSAGE), z.literal(false)], {
        error: () => DROP_MESSAGE,
      })
      .optional()
      .describe(
        "Replaced by minEffect.success (the judges' pass rate is success when runs record no outcome); false takes success out of the gate",
      ),
  })
  .strict()
  .describe(
    'What makes `tracejury diff` fail: a one-sided test of "worse" per quantity (success, the share of runs with a finding, waste per run, …), with false alarms held at alpha',
  );

export type RegressionSection = z.input<typeof RegressionSectionSchema>;

export const RegressionPolicySchema = z.object({
  alpha: z.number(),
  /** Quantity names and detector ids that may fail the gate. */
  gate: z.array(z.string()),
  minSeverity: SeveritySchema,
  minEffect: z.object({
    success: z.number(),
    findings: z.number(),
    detectors: z.number(),
    waste: z.number(),
    cost: z.number(),
    judgeScore: z.number(),
  }),
  newSignals: z.union([z.literal(false), z.object({ minSeverity: SeveritySchema })]),
});
export type RegressionPolicy = z.infer<typeof RegressionPolicySchema>;

export const DEFAULT_REGRESSION: RegressionPolicy = {
  alpha: 0.05,
  gate: [...DEFAULT_GATED],
  minSeverity: 'high',
  minEffect: { success: 0.05, findings: 0.05, detectors: 0.05, waste: 0.2, cost: 0.2, judgeScore: 0.05 },
  newSignals: false,
};

const DEFAULT_NEW_SIGNALS_SEVERITY: Severity = 'high';

/** The section as written (or nothing) with every default filled in. Throws on an invalid section. */
export function regressionPolicy(section: RegressionSection | undefined): RegressionPolicy {
  const s = RegressionSectionSchema.parse(section ?? {});
  let gate = [...new Set(s.gate ?? DEFAULT_GATED)];
  const minEffect = { ...DEFAULT_REGRESSION.minEffect, ...s.minEffect };
  // The first version's keys, read as what replaced them (unless the new key is set too).
  if (s.wasteIncreasePct === false) gate = gate.filter((g) => g !== 'waste');
  else if (s.wasteIncreasePct !== undefined && s.minEffect?.waste === undefined)
    minEffect.waste = s.wasteIncreasePct / 100;
  if (s.verdictPassRateDrop === false) gate = gate.filter((g) => g !== 'success');
  else if (s.verdictPassRateDrop !== undefined && s.minEffect?.success === undefined)
    minEffect.success = s.verdictPassRateDrop;
  return {
    alpha: s.alpha ?? DEFAULT_REGRESSION.alpha,
    gate,
    minSeverity: s.minSeverity ?? DEFAULT_REGRESSION.minSeverity,
    minEffect,
    newSignals:
      s.newSignals === undefined || s.newSignals === false
        ? false
        : { minSeverity: s.newSignals.minSeverity ?? DEFAULT_NEW_SIGNALS_SEVERITY },
  };
}

/**
 * A warning per key of the first version, naming what it is read as (the section is valid: the
 * schema has checked it). `path` of each names the key, for the file line.
 */
export function regressionWarnings(
  section: RegressionSection | undefined,
): { path: string[]; message: string }[] {
  const out: { path: string[]; message: string }[] = [];
  if (section?.wasteIncreasePct !== undefined)
    out.push({
      path: ['regression', 'wasteIncreasePct'],
      message:
        section.wasteIncreasePct === false
          ? 'regression.wasteIncreasePct: false is read as leaving waste out of regression.gate; write regression.gate without waste instead'
          : `regression.wasteIncreasePct is read as regression.minEffect.waste: ${section.wasteIncreasePct / 100} (waste per run fails only when its rise is beyond noise, after the correction across gated quantities, and at least that share of base's); write that instead`,
    });
  if (section?.verdictPassRateDrop !== undefined)
    out.push({
      path: ['regression', 'verdictPassRateDrop'],
      message:
        section.verdictPassRateDrop === false
          ? "regression.verdictPassRateDrop: false is read as leaving success out of regression.gate (the judges' pass rate is success when runs record no outcome); write regression.gate without success instead"
          : `regression.verdictPassRateDrop is read as regression.minEffect.success: ${section.verdictPassRateDrop} (the judges' pass rate is success when runs record no outcome); write that instead`,
    });
  return out;
}

/** The setting of a quantity's minimum effect (a detector's share: regression.minEffect.detectors). */
export function minEffectSetting(id: string): string {
  return `regression.minEffect.${(QUANTITY_IDS as readonly string[]).includes(id) ? id : 'detectors'}`;
}

/**
 * A quantity's minimum effect in its own unit: waste and cost are set as a fraction of base's
 * value per run (`baseMean`), the others as points or score.
 */
export function absoluteMinEffect(id: string, baseMean: number | null, policy: RegressionPolicy): number {
  const m = policy.minEffect;
  switch (id) {
    case 'success':
    case 'findings':
    case 'judgeScore':
      return m[id];
    case 'waste':
    case 'cost':
      return m[id] * Math.abs(baseMean ?? 0);
    default:
      return m.detectors;
  }
}
