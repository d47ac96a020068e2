/**
 * Tier 4 routing by failure mode: which judge set (`tribunal.routes.low | default | high`) hears a
 * gray-zone signal, by the failure mode of its detector (`meta.failureMode`).
 *
 * The table follows the judge tiers of reference/detection-tiers.md ("Tier 4: LLM-as-Judge — Model
 * routing by failure mode"): low-stakes failure modes go to a cheap, fast model, the common
 * behavioural ones to the default judges, and the high-stakes ones to the strongest judges. Its
 * F-codes are not ours, so the mapping is by stakes:
 *
 * - low: the failure is a number the trace already measured (money, tokens, time, step counts);
 *   a judge only confirms it is waste, and being wrong costs little.
 * - default: behaviour that needs reading the steps (loops, retries, stalls, failing or avoided
 *   tools, truncation, empty answers, a failing first step, turns the harness rejected).
 * - high: failures that make the run's result wrong or unsafe, where a miss is expensive — prompt
 *   injection, corrupted state, answers without grounding, an abandoned goal.
 *
 * Failure modes not in the table (a custom detector's) take the default route. `tribunal.failureModes`
 * overrides any entry. A route with no judges configured falls back to `tribunal.judges`.
 */
import type { JudgeRoute } from '../judge/config.js';
import type { JudgeSpec } from '../judge/providers.js';

export type { JudgeRoute };

export const DEFAULT_ROUTE_BY_FAILURE_MODE: Readonly<Record<string, JudgeRoute>> = {
  // low: measured quantities
  cost: 'low',
  budget: 'low',
  latency: 'low',
  inflation: 'low',
  context: 'low',
  context_overflow: 'low',
  // default: behaviour read from the steps
  loop: 'default',
  retry: 'default',
  stall: 'default',
  'tool-failure': 'default',
  'tool-avoidance': 'default',
  truncation: 'default',
  'empty-response': 'default',
  'early-failure': 'default',
  rejection: 'default',
  // high: a wrong or unsafe result
  injection: 'high',
  state_corruption: 'high',
  grounding: 'high',
  abandonment: 'high',
};

/** The route of a failure mode: the config's override, else the table, else `default`. */
export function routeOf(
  failureMode: string | undefined,
  overrides: Readonly<Record<string, JudgeRoute>> = {},
): JudgeRoute {
  if (failureMode === undefined) return 'default';
  return overrides[failureMode] ?? DEFAULT_ROUTE_BY_FAILURE_MODE[failureMode] ?? 'default';
}

export interface RoutingConfig {
  routes?: Partial<Record<JudgeRoute, { judges: JudgeSpec[] }>>;
  failureModes?: Record<string, JudgeRoute>;
}

export interface RoutedJudges {
  route: JudgeRoute;
  /** The route's judges; absent when the route is not configured (the session's judges hear it). */
  judges?: JudgeSpec[];
}

/** The judge set for a failure mode under a `tribunal:` section. */
export function judgesFor(failureMode: string | undefined, config: RoutingConfig): RoutedJudges {
  const route = routeOf(failureMode, config.failureModes);
  const set = config.routes?.[route];
  return set && set.judges.length > 0 ? { route, judges: set.judges } : { route };
}

/** Every judge a routing config names (for the allow-list check before a run). */
export function routedJudges(config: RoutingConfig): JudgeSpec[] {
  return Object.values(config.routes ?? {}).flatMap((s) => s?.judges ?? []);
}
