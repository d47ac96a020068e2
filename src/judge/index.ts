export * from './verdict.js';
export { runTribunal, createTribunalSession, JudgeNotAllowedError } from './tribunal.js';
export type {
  TribunalOptions,
  TribunalSettings,
  EvaluateOptions,
  TribunalSession,
  TribunalStats,
  ModelCost,
  CassetteOptions,
  Finding,
} from './tribunal.js';
export {
  DEFAULT_THRESHOLD,
  DEFAULT_JUDGE_TIMEOUT_MS,
  DEFAULT_BUDGET_MS,
  BREAKER_MIN_VERDICTS,
  BREAKER_MAX_INDETERMINATE_RATE,
} from './tribunal.js';
export { TribunalConfigSchema, CassetteConfigSchema, settingsFromConfig } from './config.js';
export type { TribunalConfig, TribunalConfigInput } from './config.js';
export { checkConsistency } from './stage0Consistency.js';
export type { ConsistencyFinding, ConsistencyKind, TextSpan } from './stage0Consistency.js';
export { validateResponse, parseJsonText, toZodSchema, isZodSchema, formatPath } from './stage1Schema.js';
export type { SchemaError, SchemaResult, ResponseSchema, JsonSchema } from './stage1Schema.js';
export {
  capabilitiesFor,
  isModelAllowed,
  DEFAULT_ALLOWED_MODELS,
  ModelCapabilitiesSchema,
  CapabilityOverridesSchema,
} from './capabilities.js';
export type { ModelCapabilities, CapabilityOverrides, JudgeProvider } from './capabilities.js';
export { BUILT_IN_RUBRICS, DEFAULT_RUBRIC, resolveRubric, rubricProblem, RubricError } from './rubrics.js';
export type { BuiltInRubricName } from './rubrics.js';
export { buildJudgePrompt } from './prompt.js';
export type { JudgePrompt } from './prompt.js';
export { JudgeAnswerSchema, parseJudgeAnswer, JUDGE_ANSWER_JSON_SCHEMA } from './answer.js';
export type { JudgeAnswer } from './answer.js';
export { consensus, median, trimmedMean, central, disagreement, HIGH_DISAGREEMENT } from './consensus.js';
export type { Consensus, JudgeVote } from './consensus.js';
export { parseRetryAfter, backoffDelay, isRetryableStatus } from './retry.js';
export { LruCache, judgeCacheKey, stableStringify } from './cache.js';
export {
  Cassette,
  CassetteEntrySchema,
  openCassette,
  compactCassette,
  closeAllCassettes,
  CASSETTE_MODES,
  CASSETTE_ENV,
  DEFAULT_CASSETTE_PATH,
  cassetteModeFromEnv,
  CassetteModeError,
} from './cassette.js';
export type { CassetteEntry, CassetteMode } from './cassette.js';
export { JudgeSpecSchema, buildRequest, JudgeHttpError } from './providers.js';
export type { JudgeSpec, ProviderRequest } from './providers.js';
