/** The public library API: re-exports only. */
export { analyze, type AnalyzeOptions } from './analyze.js';
export { loadTraces, streamTraces, type LoadOptions, type LoadStats } from './trace/load.js';
export {
  TraceSchema,
  StepSchema,
  LlmStepSchema,
  ToolStepSchema,
  ToolStatusSchema,
  RetrievalStepSchema,
  StateStepSchema,
  MessageStepSchema,
  OutcomeSchema,
  traceJsonSchema,
  type Outcome,
  type Trace,
  type TraceInput,
  type Step,
  type ToolStatus,
  type LoadedTrace,
} from './trace/schema.js';
export { INPUT_FORMATS, type InputFormat, type Importer } from './trace/importer.js';
export { SignalSchema, SeveritySchema, severityRank, type Signal, type Severity } from './detect/signal.js';
export { defineDetector, type Detector, type DetectorMeta, type DetectContext } from './detect/detector.js';
export { detectors, findDetector } from './detect/registry.js';
export { parseConfig, loadConfig, configSchema, type Config } from './config/config.js';
export { unmatchedAgentSections } from './config/unmatchedAgents.js';
export { nearest } from './util/nearest.js';
export { ReportSchema, type Report } from './report/schema.js';
export { isFinding } from './report/finding.js';
export { renderMarkdown } from './report/renderMarkdown.js';
export { renderText } from './report/renderText.js';
export { redact, redactDeep } from './redact/redact.js';
export { logText, terminalText } from './redact/safeText.js';
export { createPricer, type Pricer } from './pricing/pricer.js';
export { VerdictSchema, JudgeEvalSchema, type Verdict, type JudgeEval } from './judge/verdict.js';
export { VERSION } from './version.js';
export { agentReliability } from './session/agentReliability.js';
export { agentConsistency } from './session/agentConsistency.js';
export { TraceSignalsSchema, type TraceSignals, type SessionMetricResult } from './session/signals.js';
export {
  runTribunal,
  createTribunalSession,
  TribunalConfigSchema,
  checkConsistency,
  validateResponse,
  compactCassette,
  cassetteModeFromEnv,
  CASSETTE_ENV,
  CASSETTE_MODES,
  BUILT_IN_RUBRICS,
  rubricProblem,
  JudgeSpecSchema,
  type TribunalOptions,
  type TribunalSession,
  type TribunalStats,
  type CassetteMode,
} from './judge/index.js';
export { escalateGrayZone } from './tiers/escalate.js';
export { DEFAULT_ROUTE_BY_FAILURE_MODE, judgesFor, routeOf, type JudgeRoute } from './tiers/routing.js';
export {
  postReview,
  reviewPayload,
  type ReviewPayload,
  type ReviewWebhook,
  type WebhookDeps,
  type WebhookResult,
} from './report/reviewWebhook.js';
export {
  applyStateDeltas,
  STATE_DELTA_RULES,
  type StateDeltaDecision,
  type StateDeltaRule,
  type Tier2Result,
} from './tiers/stateDeltas.js';
export { escalateWithEmbeddings, type Tier3Options, type Tier3Result } from './tiers/embeddings.js';
export {
  grounding,
  roleDrift,
  semanticLoop,
  taskVsOutput,
  type SemanticCheck,
} from './tiers/semanticChecks.js';
export { cosine, type Embedder } from './embed/embedder.js';
export { createLexicalEmbedder } from './embed/lexicalEmbedder.js';
export { createOpenAIEmbedder, EmbeddingError, type OpenAIEmbedderOptions } from './embed/openaiEmbedder.js';
export { createEmbeddingCache, withCache, type EmbeddingCache } from './embed/cache.js';
export type { EmbeddingsConfig } from './embed/config.js';
export {
  readTraceText,
  readTraceValues,
  type InMemoryOptions,
  type InMemoryResult,
} from './trace/readInMemory.js';
export {
  createTraceAnalyser,
  type TraceAnalyser,
  type TraceAnalyserOptions,
  type TraceAnalysis,
} from './traceAnalyser.js';
export { BUILT_IN_DETECTOR_IDS, type BuiltInDetectorId } from './detect/ids.js';
export { traceSignalsFromDetectors } from './session/fromDetectorSignals.js';
export {
  createSessionAccumulator,
  type SessionAccumulator,
  type SessionTraceInput,
  type SessionScoreEntry,
} from './session/sessions.js';
export { sessionFactsOf, type SessionFacts } from './session/traceFacts.js';
export {
  buildTestRunReport,
  type TestRunEntry,
  type TestRunOptions,
  type TestRunTrace,
} from './report/testRunReport.js';
export {
  TestResultSchema,
  TestRunSchema,
  SessionScoreSchema,
  TraceSummarySchema,
  ReportSignalSchema,
  type TestResult,
  type TestRun,
  type SessionScore,
  type TraceSummary,
  type ReportSignal,
} from './report/schema.js';
export { passHatK, passAtK } from './report/passK.js';
export { formatInputError, type InputError } from './trace/inputError.js';
export {
  prepareRun,
  tribunalSettingsFor,
  DEFAULT_STATE_DIR,
  type RunSetup,
  type RunSetupOptions,
} from './runSetup.js';
export type { TribunalSettings, EvaluateOptions } from './judge/tribunal.js';
export type { JudgeSpec } from './judge/providers.js';
export {
  matchTrajectory,
  type TrajectoryResult,
  type MissingCall,
  type ExtraCall,
  type MismatchedCall,
  type OutOfOrderCall,
  type AlignedCall,
  type CallMark,
} from './trajectory/matchTrajectory.js';
export { describeTrajectoryResult, type DescribeTrajectoryOptions } from './trajectory/describe.js';
export {
  ExpectedCallSchema,
  ExpectedTrajectorySchema,
  TrajectoryModeSchema,
  type ExpectedCall,
  type TrajectoryMode,
} from './trajectory/expected.js';
export {
  type MatchTrajectoryOptions,
  type ArgsOption,
  type ArgsRule,
  type ArgsComparator,
  type TrajectoryIgnore,
  DEFAULT_TRAJECTORY_MODE,
} from './trajectory/options.js';
export { diffReports, type DiffOptions } from './diff/diffReports.js';
export { ReportDiffSchema, type ReportDiff } from './diff/schema.js';
export { renderDiffMarkdown, type DiffMarkdownOptions } from './diff/renderMarkdown.js';
export { renderDiffText, type DiffTextOptions } from './diff/renderText.js';
export {
  RegressionSectionSchema,
  DEFAULT_REGRESSION,
  type RegressionSection,
  type RegressionPolicy,
} from './diff/config.js';
export { mergeReports } from './report/mergeReports.js';
export { formatUsd, stepsText } from './report/summarise.js';
export {
  renderHtmlReport,
  writeHtmlReport,
  type HtmlReportInput,
  type WriteHtmlReportOptions,
  type WrittenHtmlReport,
} from './report/html/render.js';
export { htmlReportAnchor, parseTraceAnchor, type TraceAnchor } from './report/html/anchor.js';
export {
  collectTraces,
  DEFAULT_HTML_TRACES_MB,
  type CollectedTraces,
  type CollectTracesOptions,
} from './report/html/collectTraces.js';
export { traceRefsOfReport, type TraceRef } from './report/html/traceRefs.js';
export type { TracesLeftOut } from './report/html/pageData.js';
export {
  renderDiffHtml,
  writeDiffHtml,
  diffTraceRefs,
  type DiffHtmlInput,
  type WriteDiffHtmlOptions,
} from './diff/renderHtml.js';
export {
  RootCauseSchema,
  AttributedSchema,
  UnattributedSchema,
  isAttributed,
  type RootCause,
  type Attributed,
  type Symptom,
} from './attribute/rootCause.js';
export { ATTRIBUTION_RULES, findRule } from './attribute/rules/index.js';
export { attributionFacts, type AttributionFacts, type Candidate } from './attribute/candidates.js';
export { chooseRootCause, type Choice } from './attribute/choose.js';
export { failureOf } from './attribute/failedRun.js';
export {
  AttributionSectionSchema,
  attributionSettings,
  DEFAULT_ROLES,
  type AgentRole,
  type AttributionSettings,
} from './attribute/config.js';
export type { AttributionRule, AttributionContext, CandidateDraft } from './attribute/rule.js';
export { AttributionTallySchema, type AttributionTally } from './report/schema.js';
export { ATTRIBUTION_RULE_IDS, type AttributionRuleId } from './attribute/ruleIds.js';
