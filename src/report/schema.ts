/**
 * Report v1: what `tracejury analyze --format json` prints, what the Vitest reporter writes and
 * what the Action diffs against the base branch. Changing it is a contract change.
 */
import { z } from 'zod';
import { RootCauseSchema } from '../attribute/rootCause.js';
import { SeveritySchema, SignalSchema } from '../detect/signal.js';
import { SignalStatusSchema } from '../detect/status.js';
import { VerdictSchema } from '../judge/verdict.js';
import { InputErrorSchema, type InputError } from '../trace/inputError.js';
import { SessionCoverageSchema } from '../session/coverage.js';
import { tokenCount, usdAmount } from '../util/amounts.js';

export const REPORT_SCHEMA_VERSION = 1;
/**
 * Additions that old readers can ignore. 1: every signal carries `status` (finding, review,
 * suppressed, shadow), over which every count in the report is taken. 2: reports of a Vitest run
 * name the test of each trace, signal, verdict and session score (`test`), and list the tests
 * (`tests`, `testRun`) with their attempts, pass^k and pass@k. 3: a test may list where its
 * traces were saved (`tests[].savedTraces`: file and line of each, native JSONL), and a trace a
 * Vitest run read twice is in the report once; `decisions` (where each signal was decided: per
 * tier, dismissals, review), `baselines` (which baseline each baseline detector used, per agent
 * version) and `traces[].measures` (what a later run needs to take this report's good runs as its
 * baseline). 4: `verdicts[].replayed` and `verdicts[].judges[].replayed`: a verdict (or one judge's
 * answer) read from the judge cassette rather than asked in the run; `verdicts[].threshold` (what
 * the consensus score and confidence were held to); in a Vitest run, every trace a test captured or
 * was handed is in `traces` with its cost and findings, whether or not a matcher looked at it;
 * `traces[].task` (the task a run attempted, which `tracejury diff` pairs base and
 * head runs by) and `traces[].unmeasuredLlmCalls` / `totals.unmeasuredLlmCalls` (LLM calls with no
 * token counts and no recorded cost, whose cost is unknown rather than $0);
 * `sessionCoverage` — how many traces named a session (and were scored in
 * `sessions[]`) and how many named none (scored in no session: runs without a session or
 * conversation id are no longer grouped into one by agent);
 * failure attribution — `traces[].rootCause` (the step, agent and rule behind a
 * failed run, or why none was named) and `attribution` (failed runs and their causes per agent
 * and per rule).
 */
export const REPORT_SCHEMA_MINOR = 4;

/** The full name of the Vitest test (file > suite > test) a trace, signal or verdict belongs to. */
const TestNameSchema = z.string();

/** A signal as a report carries it: its final status always set. */
export const ReportSignalSchema = SignalSchema.extend({
  status: SignalStatusSchema,
  test: TestNameSchema.optional(),
});
export type ReportSignal = z.infer<typeof ReportSignalSchema>;

export { InputErrorSchema, type InputError };

export const TraceSummarySchema = z.object({
  id: z.string(),
  file: z.string(),
  /** The line of its file the trace starts on (1-based), when the input is line-oriented. */
  line: z.number().int().positive().optional(),
  format: z.string(),
  agentId: z.string(),
  agentVersion: z.string().optional(),
  sessionId: z.string().optional(),
  status: z.enum(['ok', 'error', 'running']),
  steps: z.number().int().nonnegative(),
  llmCalls: z.number().int().nonnegative(),
  toolCalls: z.number().int().nonnegative(),
  tokens: z.object({ input: tokenCount(), output: tokenCount() }),
  costUsd: usdAmount(),
  /** LLM steps whose model could not be priced (not counted in costUsd). */
  unpricedLlmCalls: z.number().int().nonnegative(),
  /**
   * LLM steps with no token counts and no recorded cost (priced at $0 from nothing): their cost is
   * unknown, not zero (schema 1.4; absent when none).
   */
  unmeasuredLlmCalls: z.number().int().positive().optional(),
  /** The task the run attempted (the trace's `taskId`): what `tracejury diff` pairs runs by (1.4). */
  task: z.string().optional(),
  durationMs: z.number().nonnegative().optional(),
  signals: z.number().int().nonnegative(),
  /**
   * Spans (or records) of kinds the importer knows are agent work but does not read as steps
   * (an embedding call, an operation it does not know): the trace was read in part.
   */
  unreadSpans: z.number().int().nonnegative().optional(),
  /** Whether the run succeeded, when the recording says so (see the trace's `outcome`). */
  outcome: z.object({ success: z.boolean(), score: z.number().optional(), source: z.string() }).optional(),
  /** Where agentId came from: the recording, `--agent` / `agent:` (option), or the file's path (file). */
  agentIdFrom: z.enum(['recorded', 'option', 'file']).optional(),
  test: TestNameSchema.optional(),
  /**
   * A failed run's root cause (schema 1.4): the step where it went wrong, the agent that owns it,
   * the rule that chose it, its confidence and evidence, and the findings that follow from it — or
   * `unattributed` with the reason. Absent for runs that did not fail.
   */
  rootCause: RootCauseSchema.optional(),
  /**
   * The run-level values the baseline detectors compare that the fields above do not hold (steps,
   * tokens and durationMs are the others), so that a later run can take this report's good runs
   * as its baseline (schema 1.3).
   */
  measures: z
    .object({
      maxPromptTokens: z.number().nonnegative(),
      llmToolRatio: z.number().nonnegative(),
      maxStepDurationMs: z.number().nonnegative().optional(),
    })
    .optional(),
});
export type TraceSummary = z.infer<typeof TraceSummarySchema>;

export const WasteSchema = z.object({
  totalUsd: usdAmount(),
  totalTokens: tokenCount(),
  byDetector: z.record(
    z.string(),
    z.object({ usd: usdAmount(), tokens: tokenCount(), signals: z.number().int().nonnegative() }),
  ),
});

export const SessionScoreSchema = z.object({
  sessionId: z.string(),
  metric: z.enum(['agent_reliability', 'agent_consistency']),
  score: z.number().min(0).max(1),
  passed: z.boolean(),
  reason: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  test: TestNameSchema.optional(),
});
export type SessionScore = z.infer<typeof SessionScoreSchema>;

export const ReportVerdictSchema = VerdictSchema.extend({ test: TestNameSchema.optional() });

/** What a trajectory match found, in counts (the test's failure message has the details). */
export const TrajectoryResultSchema = z.object({
  traceId: z.string(),
  mode: z.enum(['strict', 'unordered', 'subset', 'superset']),
  pass: z.boolean(),
  missing: z.number().int().nonnegative(),
  extra: z.number().int().nonnegative(),
  mismatched: z.number().int().nonnegative(),
  /** Strict mode: calls that happened, but not where the expected list has them. */
  outOfOrder: z.number().int().nonnegative(),
});

/**
 * One Vitest test. `passHatK[k-1]` is pass^k (the chance that k attempts drawn from its n all
 * pass: C(c,k)/C(n,k) for c passing attempts) and `passAtK[k-1]` pass@k (that at least one does:
 * 1 − C(n−c,k)/C(n,k)), as τ-bench defines them; present when the test ran more than once.
 */
export const TestResultSchema = z.object({
  name: TestNameSchema,
  file: z.string(),
  /** The line the test is declared on (1-based), when Vitest reported it. */
  line: z.number().int().positive().optional(),
  state: z.enum(['passed', 'failed', 'skipped']),
  attempts: z.number().int().nonnegative(),
  passedAttempts: z.number().int().nonnegative(),
  passHatK: z.array(z.number().min(0).max(1)).optional(),
  passAtK: z.array(z.number().min(0).max(1)).optional(),
  /** The plugin's passRate applied: the share of attempts that had to pass, and whether it was met. */
  passRate: z.object({ required: z.number().min(0).max(1), met: z.boolean() }).optional(),
  traces: z.array(z.string()),
  trajectories: z.array(TrajectoryResultSchema).optional(),
  /** The first line of each failure, redacted. */
  errors: z.array(z.string()).optional(),
  /**
   * Where the test's traces were saved (the plugin's `saveTraces`; by default those of failing
   * tests): native JSONL, redacted, one trace a line, file relative to the project root. Since 1.3.
   */
  savedTraces: z
    .array(z.object({ id: z.string(), file: z.string(), line: z.number().int().positive() }))
    .optional(),
});
export type TestResult = z.infer<typeof TestResultSchema>;

export const TestRunSchema = z.object({
  tests: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  /** Tests that ran more than once (repeats or retries): what passHatK and passAtK average over. */
  repeated: z.number().int().nonnegative(),
  /** Mean over repeated tests with at least k attempts, index k-1. */
  passHatK: z.array(z.number().min(0).max(1)),
  passAtK: z.array(z.number().min(0).max(1)),
});
export type TestRun = z.infer<typeof TestRunSchema>;

export const ReviewItemSchema = z.object({
  traceId: z.string(),
  detector: z.string().optional(),
  reason: z.string(),
  file: z.string().optional(),
  /** The case comes from a detector in shadow mode: worth a look, never a gate failure. */
  shadow: z.boolean().optional(),
  /** The detector's confidence, still in the gray zone. */
  confidence: z.number().min(0).max(1).optional(),
  /** What each tier gathered (the detector's evidence, the escalation's outcome and route), redacted. */
  evidence: z.record(z.string(), z.unknown()).optional(),
});

/** Minimum traces with an outcome before per-detector precision is computed (fewer say little). */
export const MIN_OUTCOMES_FOR_PRECISION = 10;

export const OutcomesSchema = z.object({
  /** Traces whose recording says whether they succeeded. */
  recorded: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  succeeded: z.number().int().nonnegative(),
  /**
   * Per detector, its findings (see report/finding.ts) on runs that failed and on runs that
   * succeeded, and precision = onFailed / (onFailed + onSucceeded). Only when at least
   * MIN_OUTCOMES_FOR_PRECISION traces have an outcome.
   */
  byDetector: z
    .record(
      z.string(),
      z.object({
        onFailed: z.number().int().nonnegative(),
        onSucceeded: z.number().int().nonnegative(),
        precision: z.number().min(0).max(1),
      }),
    )
    .optional(),
});
export type Outcomes = z.infer<typeof OutcomesSchema>;

/** Counts per escalation tier: 1 rules, 2 state deltas, 3 embeddings, 4 judges. */
const PerTierSchema = z.object({
  '1': z.number().int().nonnegative(),
  '2': z.number().int().nonnegative(),
  '3': z.number().int().nonnegative(),
  '4': z.number().int().nonnegative(),
});

/**
 * Where the run's signals were decided (schema 1.3). Every signal that is neither shadow nor
 * suppressed is counted once: at the tier that decided it, whether it confirmed the failure or
 * dismissed it (a dismissed signal is not in `signals`), or under `review` when no tier could.
 */
export const DecisionsSchema = z.object({
  /** Signals decided or left for review: the sum of byTier and review. */
  signals: z.number().int().nonnegative(),
  byTier: PerTierSchema,
  /** The part of byTier that the tier dismissed as no failure. */
  dismissed: PerTierSchema,
  /** Left for human review (tier 5): in the gray zone after every tier. */
  review: z.number().int().nonnegative(),
});
export type Decisions = z.infer<typeof DecisionsSchema>;

/** Where a baseline detector's baseline came from: see BaselineUse in baseline/account.ts. */
export const BaselineUseSchema = z.object({
  /** The agent version (its store key: agent id, then `@version`). */
  agent: z.string(),
  traces: z.number().int().nonnegative(),
  /**
   * Per baseline detector: `store`, `base-report` (the base branch's report), `input` (the agent's
   * good runs in this input) or `static` (its fallback thresholds), and the runs behind it; for
   * `static`, the most good runs any source had, fewer than baselines.minRuns.
   */
  detectors: z.record(
    z.string(),
    z.object({
      source: z.enum(['store', 'base-report', 'input', 'static']),
      runs: z.number().int().nonnegative(),
    }),
  ),
});

export type BaselineUse = z.infer<typeof BaselineUseSchema>;

/** Failed runs and their root causes, counted per agent and per rule (schema 1.4). */
export const AttributionTallySchema = z.object({
  /** Runs that failed: a failed outcome, an error status, or a finding that fails the gate. */
  failedRuns: z.number().int().nonnegative(),
  /** Of those, how many got a root cause (the rest are unattributed). */
  attributed: z.number().int().nonnegative(),
  /** Root causes per agent, most first. */
  agents: z.array(z.object({ agent: z.string(), causes: z.number().int().positive() })),
  /** Root causes per rule, most first. */
  rules: z.array(z.object({ rule: z.string(), causes: z.number().int().positive() })),
});
export type AttributionTally = z.infer<typeof AttributionTallySchema>;

export const ReportSchema = z.object({
  schemaVersion: z.literal(REPORT_SCHEMA_VERSION),
  /** Absent in reports written before 1.1. */
  schemaMinor: z.number().int().nonnegative().optional(),
  tool: z.object({ name: z.literal('tracejury'), version: z.string() }),
  generatedAt: z.string(),
  inputs: z.object({
    files: z.number().int().nonnegative(),
    traces: z.number().int().nonnegative(),
    records: z.number().int().nonnegative(),
    errors: z.array(InputErrorSchema),
    /** Error count, which may exceed errors.length when the list was capped. */
    errorCount: z.number().int().nonnegative(),
    formats: z.record(z.string(), z.number().int().nonnegative()),
  }),
  totals: z.object({
    steps: z.number().int().nonnegative(),
    llmCalls: z.number().int().nonnegative(),
    toolCalls: z.number().int().nonnegative(),
    inputTokens: tokenCount(),
    outputTokens: tokenCount(),
    costUsd: usdAmount(),
    /** Models with no recorded cost and no price: their calls are not in costUsd. */
    unknownModels: z.array(z.object({ model: z.string(), calls: z.number().int().nonnegative() })),
    /**
     * LLM calls with no token counts and no recorded cost: counted at $0 in costUsd, their real
     * cost unknown (schema 1.4; absent when none).
     */
    unmeasuredLlmCalls: z.number().int().positive().optional(),
  }),
  traces: z.array(TraceSummarySchema),
  signals: z.array(ReportSignalSchema),
  waste: WasteSchema,
  verdicts: z.array(ReportVerdictSchema),
  sessions: z.array(SessionScoreSchema),
  /** Traces in named sessions and traces in none (schema 1.4; absent in older reports and Vitest runs). */
  sessionCoverage: SessionCoverageSchema.optional(),
  review: z.array(ReviewItemSchema),
  /**
   * Judges are configured but never ran (no API key and no cassette entry): how many escalated
   * cases that left for review, and why. Absent when every judge call ran or was replayed.
   */
  judgesNotRun: z.object({ cases: z.number().int().positive(), reason: z.string() }).optional(),
  cost: z.object({
    judgeUsd: usdAmount(),
    byTier: z.record(z.string(), usdAmount()),
    /** Judge spend keyed `provider:model` (provider and model also as fields since 1.2). */
    byModel: z
      .record(
        z.string(),
        z.object({
          calls: z.number().int().nonnegative(),
          usd: usdAmount(),
          provider: z.string().optional(),
          model: z.string().optional(),
          cachedCalls: z.number().int().nonnegative().optional(),
        }),
      )
      .optional(),
    /** Judge spend per provider. */
    byProvider: z
      .record(z.string(), z.object({ calls: z.number().int().nonnegative(), usd: usdAmount() }))
      .optional(),
    /** Detection spend (every tier) divided by the traces analysed; 0 with no traces. */
    perTraceUsd: usdAmount().optional(),
  }),
  gate: z.object({
    passed: z.boolean(),
    reasons: z.array(z.string()),
    /** Input errors that did not fail the gate because they were allowed (--allow-input-errors). */
    allowedInputErrors: z.number().int().positive().optional(),
    /** The severities of findings that fail the gate (absent in reports before 1.1). */
    failOn: z.array(SeveritySchema).optional(),
  }),
  /** Recorded outcomes and the detectors' precision against them; absent when no trace has one. */
  outcomes: OutcomesSchema.optional(),
  /** Where each signal was decided (schema 1.3; absent in older reports). */
  decisions: DecisionsSchema.optional(),
  /** Failure attribution's tally (schema 1.4): absent when no run failed, and in older reports. */
  attribution: AttributionTallySchema.optional(),
  /**
   * Which baseline each baseline detector used, per agent version of the run (schema 1.3; absent
   * in older reports and when no baseline detector is enabled).
   */
  baselines: z.array(BaselineUseSchema).optional(),
  notes: z.array(z.string()).default([]),
  /** A Vitest run's tests (schema 1.2); absent in reports of `tracejury analyze`. */
  tests: z.array(TestResultSchema).optional(),
  testRun: TestRunSchema.optional(),
});
export type Report = z.infer<typeof ReportSchema>;
