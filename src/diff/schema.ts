/** ReportDiff v1: what `tracejury diff --format json` prints and `diffReports` returns. */
import { z } from 'zod';
import { SeveritySchema } from '../detect/signal.js';
import { AttributionDiffSchema } from './attribution.js';
import { ReviewItemSchema } from '../report/schema.js';
import { GateFailureSchema } from './gate.js';
import { DiffSignalSchema } from './match.js';
import { NoiseSectionSchema } from './noise.js';
import { SessionDiffSchema } from './sessions.js';
import { DetectorDiffSchema, SeverityDiffSchema, TotalsDiffSchema } from './totals.js';
import { VerdictDiffSchema } from './verdicts.js';

export const REPORT_DIFF_VERSION = 1;

const SideSchema = z.object({
  generatedAt: z.string(),
  toolVersion: z.string(),
  traces: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
  gatePassed: z.boolean(),
});

export const ReportDiffSchema = z.object({
  diffVersion: z.literal(REPORT_DIFF_VERSION),
  tool: z.object({ name: z.literal('tracejury'), version: z.string() }),
  base: SideSchema,
  head: SideSchema,
  /** The regression policy the gate applied (defaults filled in). */
  regression: z.object({
    newSignals: z.union([z.literal(false), z.object({ minSeverity: SeveritySchema })]),
    wasteIncreasePct: z.union([z.number(), z.literal(false)]),
    verdictPassRateDrop: z.union([z.number(), z.literal(false)]),
  }),
  totals: TotalsDiffSchema,
  /** Findings and waste per detector with a finding on either side, most waste first. */
  detectors: z.array(DetectorDiffSchema),
  severities: SeverityDiffSchema,
  noise: NoiseSectionSchema,
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
    /**
     * The same failures as data, one per reason in its order: the rule, its limit, what fired it.
     * Optional (added after diffVersion 1 was published): a diff written before has reasons only.
     */
    failures: z.array(GateFailureSchema).optional(),
  }),
  notes: z.array(z.string()),
});
export type ReportDiff = z.infer<typeof ReportDiffSchema>;
