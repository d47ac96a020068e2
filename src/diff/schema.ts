/** ReportDiff v2: what `tracejury diff --format json` prints and `diffReports` returns. */
import { z } from 'zod';
import { AttributionDiffSchema } from './attribution.js';
import { ReviewItemSchema } from '../report/schema.js';
import { RegressionPolicySchema } from './config.js';
import { GateFailureSchema } from './gate.js';
import { DiffSignalSchema } from './match.js';
import { OutcomesDiffSchema } from './outcomes.js';
import { QuantitySchema } from './quantity.js';
import { SessionDiffSchema } from './sessions.js';
import { DetectorDiffSchema, SeverityDiffSchema, TotalsDiffSchema } from './totals.js';
import { VerdictDiffSchema } from './verdicts.js';

/**
 * 2: the regression gate is a statistical test (`quantities`, `outcomes`, `costs`, the gate's
 * `decidedBy`); `regression` is the new policy; the bootstrap `noise` section and the verdicts'
 * noise are replaced by the quantities.
 */
export const REPORT_DIFF_VERSION = 2;

const SideSchema = z.object({
  generatedAt: z.string(),
  toolVersion: z.string(),
  traces: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
  gatePassed: z.boolean(),
  /** The report's own gate's first reason, when it failed. */
  gateReason: z.string().optional(),
  /** A Vitest run's tests: how many, how many failed. */
  tests: z
    .object({ total: z.number().int().nonnegative(), failed: z.number().int().nonnegative() })
    .optional(),
});

export const CostCoverageSchema = z.object({
  llmCalls: z.number().int().nonnegative(),
  /** Calls of models with no price and no recorded cost. */
  unpriced: z.number().int().nonnegative(),
  /** Calls with no token counts and no recorded cost. */
  unmeasured: z.number().int().nonnegative(),
  /** Whose cost is known: every call's, some, or none (then cost and waste are unknown, not $0). */
  known: z.enum(['all', 'some', 'none']),
});

export const ReportDiffSchema = z.object({
  diffVersion: z.literal(REPORT_DIFF_VERSION),
  tool: z.object({ name: z.literal('tracejury'), version: z.string() }),
  base: SideSchema,
  head: SideSchema,
  /** The regression policy the gate applied (defaults filled in). */
  regression: RegressionPolicySchema,
  totals: TotalsDiffSchema,
  /** Findings and waste per detector with a finding on either side, most waste first. */
  detectors: z.array(DetectorDiffSchema),
  severities: SeverityDiffSchema,
  /** How much of each side's cost is known. */
  costs: z.object({ base: CostCoverageSchema, head: CostCoverageSchema }),
  /** Success per side, per agent, and the tasks that flipped; null when no side records success. */
  outcomes: OutcomesDiffSchema.nullable(),
  /**
   * Each quantity compared: success, the share of runs with a finding at the gate's severity,
   * waste, cost, the judges' score, and each detector's share of runs; with the pairing, the change,
   * its interval, the test, p-values and the gate's decision.
   */
  quantities: z.array(QuantitySchema),
  signals: z.object({
    /** Findings in head with no match in base, worst first. */
    new: z.array(DiffSignalSchema),
    /** Findings in base with no match in head, worst first. */
    resolved: z.array(DiffSignalSchema),
    persisting: z.number().int().nonnegative(),
  }),
  verdicts: VerdictDiffSchema,
  sessions: z.array(SessionDiffSchema),
  /** Head's review list: what no automatic tier could decide. */
  review: z.array(ReviewItemSchema),
  /** Failed runs and their causes per agent, base and head (optional: added after diffVersion 1). */
  attribution: AttributionDiffSchema.optional(),
  gate: z.object({
    passed: z.boolean(),
    reasons: z.array(z.string()),
    /** The same failures as data, one per reason in its order: the rule, its limit, what fired it. */
    failures: z.array(GateFailureSchema),
    /** What decided a failure: a quantity id (success first), `newSignals` or `comparable`; null when it passed. */
    decidedBy: z.string().nullable(),
    /** The false-alarm rate held across the gated quantities, by Holm's correction. */
    alpha: z.number(),
  }),
  notes: z.array(z.string()),
});
export type ReportDiff = z.infer<typeof ReportDiffSchema>;
