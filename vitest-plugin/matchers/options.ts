/**
 * What each matcher takes, as zod schemas: checked when the matcher runs (Vitest does not type-check
 * test files, so for most users this check is the only one) and the source of the matcher types in
 * types.ts. Objects are strict: a misspelt key is an error naming the nearest one, never an option
 * silently left at its default — a testing tool must not turn a typo into a green test.
 */
import { z } from 'zod';
import {
  ATTRIBUTION_RULE_IDS,
  CASSETTE_MODES,
  JudgeSpecSchema,
  SeveritySchema,
  type EvaluateOptions,
  type MatchTrajectoryOptions,
  type TrajectoryIgnore,
} from 'tracejury';

const share = (what: string) => z.number().min(0).max(1).describe(what);

export const SignalMatcherOptionsSchema = z.strictObject({
  /** Only signals at least this confident count (default 0: any finding or gray-zone case). */
  minConfidence: share('Only signals at least this confident count').optional(),
  /** Only signals of exactly this severity count. */
  severity: SeveritySchema.optional(),
});
export type SignalMatcherOptions = z.input<typeof SignalMatcherOptionsSchema>;

export const NoSignalsOptionsSchema = z.strictObject({
  /** Count signals at or above this severity (default 'low': all). */
  minSeverity: SeveritySchema.optional(),
});
export type NoSignalsOptions = z.input<typeof NoSignalsOptionsSchema>;

/** toHaveWasteBelow's bound: dollars, ≥ 0 (0 asks for no waste at all). */
export const WasteBoundSchema = z.number().nonnegative().finite();

export const SessionThresholdsSchema = z.strictObject({
  /** agent_reliability must reach this (0–1). Neither given: both, at tracejury.yml's `sessions:` thresholds. */
  reliability: share('agent_reliability must reach this').optional(),
  /** agent_consistency must reach this (0–1). */
  consistency: share('agent_consistency must reach this').optional(),
});
export type SessionThresholds = z.input<typeof SessionThresholdsSchema>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * toMatchTrajectory's options. The keys are checked here; what each value may be (the modes, the
 * argument rules) is the library's matchTrajectory's to check, with the types it declares, so the
 * matcher and the library cannot drift apart.
 */
export const TrajectoryMatcherOptionsSchema = z.strictObject({
  /** strict unless given (see types.ts). */
  mode: z.custom<MatchTrajectoryOptions['mode']>().optional(),
  args: z.custom<MatchTrajectoryOptions['args']>().optional(),
  ignore: z
    .strictObject({
      tools: z.custom<TrajectoryIgnore['tools']>().optional(),
      failedCalls: z.custom<TrajectoryIgnore['failedCalls']>().optional(),
    })
    .optional(),
});
export type TrajectoryMatcherOptions = z.input<typeof TrajectoryMatcherOptionsSchema>;

/** Values that are objects the tribunal uses as they are (a zod schema, a pricer, a cache). */
const opaque = <T>(what: string) =>
  z.custom<T>((v) => isObject(v) || typeof v === 'function', { error: `expected ${what}` });

/**
 * Every runTribunal option; `judges` defaults to tracejury.yml's `tribunal.judges` and the cassette
 * to `.tracejury/cassette.jsonl`. The response is what `expect` received (a trace's final output,
 * or the value itself) unless `response` is given.
 */
export const TribunalMatcherOptionsSchema = z.strictObject({
  judges: z.array(JudgeSpecSchema.strict()).optional(),
  threshold: share('consensus score and confidence must reach this').optional(),
  /** A built-in rubric name, a name from `rubrics` or tracejury.yml's `tribunal.rubrics`, or rubric text. */
  rubric: z.string().min(1).optional(),
  rubrics: z.record(z.string(), z.string().min(1)).optional(),
  judgeTimeoutMs: z.number().int().positive().optional(),
  budgetMs: z.number().int().positive().optional(),
  cassette: z
    .union([
      z.literal(false),
      z.strictObject({ path: z.string().min(1).optional(), mode: z.enum(CASSETTE_MODES).optional() }),
    ])
    .optional(),
  allowedModels: z.array(z.string().min(1)).optional(),
  capabilities: opaque<EvaluateOptions['capabilities']>('per-model capability overrides').optional(),
  concurrency: z.number().int().positive().optional(),
  maxRetries: z.number().int().nonnegative().optional(),
  backoffBaseMs: z.number().nonnegative().optional(),
  env: z.record(z.string(), z.string().optional()).optional(),
  pricer: opaque<EvaluateOptions['pricer']>('a pricer from createPricer()').optional(),
  memoryCache: z
    .union([z.literal(false), opaque<Exclude<EvaluateOptions['memoryCache'], false>>('an LruCache')])
    .optional(),
  /** The response under test, in place of what `expect` received. */
  response: z.unknown().optional(),
  /** What the judges should know: task, tool results, documents. Fenced as untrusted data. */
  context: z.unknown().optional(),
  /** A zod schema or a JSON Schema the response must satisfy (stage 1). */
  schema: opaque<EvaluateOptions['schema']>('a zod schema or a JSON Schema object').optional(),
  traceId: z.string().optional(),
  name: z.string().optional(),
});
export type TribunalMatcherOptions = z.input<typeof TribunalMatcherOptionsSchema>;

/**
 * toHaveRootCause's expectation: each field given must be the failed run's root cause's. None given:
 * the run failed and a root cause was named.
 */
export const RootCauseMatcherOptionsSchema = z.strictObject({
  /** The agent that owns the root-cause step. */
  agent: z.string().min(1).optional(),
  /** The root-cause step, numbered from 1 as findings number steps. */
  step: z.number().int().min(1).optional(),
  /** The attribution rule that chose it. */
  rule: z.enum(ATTRIBUTION_RULE_IDS).optional(),
});
export type RootCauseMatcherOptions = z.input<typeof RootCauseMatcherOptionsSchema>;
