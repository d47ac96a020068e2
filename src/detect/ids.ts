/**
 * The ids of the built-in detectors as a type, so that `toHaveSignal('TOOL_LOOP')` is checked by
 * the compiler and a typo is an error in the editor rather than a test that can never fail.
 * test/detect/ids.test.ts keeps this list equal to the registry's.
 */
export const BUILT_IN_DETECTOR_IDS = [
  'TOOL_LOOP',
  'TOOL_THRASHING',
  'LLM_TRUNCATION_LOOP',
  'RETRY_STORM',
  'EMPTY_LLM_RESPONSE',
  'CASCADING_TOOL_FAILURE',
  'SLOW_STEP',
  'CONTEXT_BLOAT',
  'GOAL_ABANDONMENT',
  'REASONING_STALL',
  'STEP_COUNT_INFLATION',
  'FIRST_STEP_FAILURE',
  'RAG_EMPTY_RETRIEVAL',
  'TOOL_AVOIDANCE',
  'COST_SPIKE',
  'SESSION_LATENCY',
  'HARNESS_REJECTION',
  'PROMPT_INJECTION_SIGNAL',
  'STATE_HASH_LOOP',
  'TOKEN_BUDGET',
  'COST_BUDGET',
  'CONTEXT_WINDOW_PRESSURE',
  'CROSS_FIELD_INCONSISTENCY',
  'DOMAIN_CONSTRAINT_VIOLATION',
  'STATE_VELOCITY_ANOMALY',
  'TYPE_DRIFT',
  'FIELD_DISAPPEARANCE',
  'RETRY_LOOP',
  'FALLBACK_STORM',
  'FALLBACK_FAILURE',
  'OVERKILL_MODEL',
] as const;

export type BuiltInDetectorId = (typeof BUILT_IN_DETECTOR_IDS)[number];
