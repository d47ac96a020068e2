/**
 * The report's failure-attribution tally: how many runs failed, how many got a root cause, and the
 * causes per agent and per rule ("WebSurfer caused 9 of 14 failures"). Taken over the traces'
 * summaries, so a merged report or a Vitest run's report counts the same way.
 */
import type { AttributionTally, TraceSummary } from './schema.js';

function ranked<K extends string>(
  counts: Map<string, number>,
  key: K,
): ({ causes: number } & Record<K, string>)[] {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([name, causes]) => ({ [key]: name, causes }) as { causes: number } & Record<K, string>);
}

/** Undefined when no run failed. */
export function attributionTally(
  traces: Iterable<Pick<TraceSummary, 'rootCause'>>,
): AttributionTally | undefined {
  let failedRuns = 0;
  let attributed = 0;
  const agents = new Map<string, number>();
  const rules = new Map<string, number>();
  for (const t of traces) {
    const cause = t.rootCause;
    if (!cause) continue;
    failedRuns++;
    if (!('step' in cause)) continue;
    attributed++;
    agents.set(cause.agent, (agents.get(cause.agent) ?? 0) + 1);
    rules.set(cause.rule, (rules.get(cause.rule) ?? 0) + 1);
  }
  if (failedRuns === 0) return undefined;
  return { failedRuns, attributed, agents: ranked(agents, 'agent'), rules: ranked(rules, 'rule') };
}
