/**
 * Baselines from a report: the base branch's report, in a pull request's comparison, holds its
 * runs' measures (traces[].steps, tokens, durationMs and, since schema 1.3, measures), so its good
 * runs can stand in for a baseline store the CI job does not have. A run is good by the store's
 * rule (learn.ts): status ok, no failed outcome, no high or critical finding in the report. The
 * metrics a report lacks (a report before 1.3 has no largest prompt, longest step or LLM:tool
 * ratio) are left out, so their detectors keep to their fallback. Pure.
 */
import type { BaselineMetric } from '../detect/detector.js';
import type { Report, ReportSignal } from '../report/schema.js';
import { whyNotLearned } from './learn.js';
import { agentKey, type BaselineFile, type BaselineRun } from './store.js';
import { dict } from '../util/dict.js';

export function baselinesFromReport(report: Report, window: number): BaselineFile {
  const signalsOf = new Map<string, ReportSignal[]>();
  for (const s of report.signals) {
    const key = `${s.file ?? ''}\u0000${s.traceId}`;
    const list = signalsOf.get(key);
    if (list) list.push(s);
    else signalsOf.set(key, [s]);
  }
  const agents: BaselineFile['agents'] = dict();
  for (const t of report.traces) {
    if (whyNotLearned(t, signalsOf.get(`${t.file}\u0000${t.id}`) ?? []) !== undefined) continue;
    const metrics: Partial<Record<BaselineMetric, number>> = {
      stepCount: t.steps,
      totalTokens: t.tokens.input + t.tokens.output,
    };
    if (t.durationMs !== undefined) metrics.durationMs = t.durationMs;
    if (t.measures) {
      metrics.maxPromptTokens = t.measures.maxPromptTokens;
      metrics.llmToolRatio = t.measures.llmToolRatio;
      if (t.measures.maxStepDurationMs !== undefined)
        metrics.maxStepDurationMs = t.measures.maxStepDurationMs;
    }
    // A report keeps no run times: its own order stands for theirs.
    const run: BaselineRun = { traceId: t.id, metrics };
    (agents[agentKey(t.agentId, t.agentVersion)] ??= { runs: [] }).runs.push(run);
  }
  for (const a of Object.values(agents)) a.runs = a.runs.slice(-window);
  return { version: 2, agents };
}
