/**
 * The built-in attribution rules' ids, in the order they are tried, as a list of literals: the
 * `toHaveRootCause({ rule })` option is typed and checked by it. A test keeps it equal to the
 * rules' own ids (rules/index.ts).
 */
export const ATTRIBUTION_RULE_IDS = [
  'UNRECOVERED_FAILURE',
  'DEPARTS_FROM_EXPECTED',
  'INJECTION_OBEYED',
  'LOOP_START',
  'ANSWER_REPEATS',
  'BUSIEST_AGENT_PRIOR',
] as const;
export type AttributionRuleId = (typeof ATTRIBUTION_RULE_IDS)[number];
