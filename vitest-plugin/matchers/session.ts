/**
 * toMeetSessionThreshold: the session metrics of session-metrics.md (agent_reliability,
 * agent_consistency) over the received traces — a list of traces, a glob or a file of many — taken
 * as one session. Each trace's signals come from the same session accumulator `analyze` uses
 * (session/sessions.ts): what the detectors found, the measured facts (failed tool steps, input/
 * output similarity, repeats within a recorded session) and the verdicts this test got for it; the
 * weights and default thresholds are tracejury.yml's `sessions:`. So a trace scores here what it
 * scores in the report of a run.
 */
import {
  agentConsistency,
  agentReliability,
  createSessionAccumulator,
  loadTraces,
  sessionFactsOf,
  type LoadedTrace,
  type SessionMetricResult,
  type SessionScore,
} from 'tracejury';
import { analyse, rememberSource, traceAnalyser, workerSettings } from '../worker/context.js';
import { currentTask } from '../worker/currentTask.js';
import { metaOf, recordAnalysis } from '../shared/meta.js';
import { receivedTraces } from '../worker/received.js';
import type { SessionThresholds } from '../types.js';

interface MatcherThis {
  isNot: boolean;
}

async function tracesOf(received: unknown): Promise<(LoadedTrace | Record<string, unknown>)[]> {
  if (
    typeof received !== 'string' &&
    !(Array.isArray(received) && received.every((r) => typeof r === 'string'))
  )
    return receivedTraces(received);
  const { root } = workerSettings();
  const { traces, stats } = await loadTraces(received as string | string[], {
    cwd: root,
    pricer: traceAnalyser().pricer,
  });
  if (stats.errorCount > 0) return receivedTraces(received); // the synchronous reader names the errors
  for (const t of traces) rememberSource(t);
  return traces;
}

function check(value: number | undefined, name: string): void {
  if (value !== undefined && !(value >= 0 && value <= 1))
    throw new TypeError(`toMeetSessionThreshold: ${name} must be between 0 and 1, got ${String(value)}`);
}

export async function toMeetSessionThreshold(
  this: MatcherThis,
  received: unknown,
  thresholds: SessionThresholds = {},
) {
  check(thresholds.reliability, 'reliability');
  check(thresholds.consistency, 'consistency');
  const task = currentTask(this);
  const traces = await tracesOf(received);
  if (traces.length === 0) throw new Error('toMeetSessionThreshold: no traces to score');
  const verdicts = task ? metaOf(task).verdicts : [];
  const session = createSessionAccumulator();
  const perTrace = traces.map((t) => {
    const analysis = analyse(t);
    recordAnalysis(task, analysis);
    const { id, agentId, sessionId } = analysis.trace;
    return session.add({
      traceId: id,
      agentId,
      ...(sessionId !== undefined ? { sessionId } : {}),
      signals: analysis.signals,
      // Measured here, not in every analysis: only this matcher needs them.
      facts: sessionFactsOf(analysis.trace),
      verdicts,
    });
  });
  const settings = traceAnalyser().config.sessions;
  const both = thresholds.reliability === undefined && thresholds.consistency === undefined;
  const results: { metric: SessionScore['metric']; threshold: number; result: SessionMetricResult }[] = [];
  if (both || thresholds.reliability !== undefined) {
    const threshold = thresholds.reliability ?? settings.reliabilityThreshold;
    results.push({
      metric: 'agent_reliability',
      threshold,
      result: agentReliability(perTrace, { threshold, weights: settings.weights }),
    });
  }
  if (both || thresholds.consistency !== undefined) {
    const threshold = thresholds.consistency ?? settings.consistencyThreshold;
    results.push({
      metric: 'agent_consistency',
      threshold,
      result: agentConsistency(perTrace, { threshold, weights: settings.weights }),
    });
  }
  const sessionIds = new Set(traces.map((t) => analyse(t).trace.sessionId));
  const sessionId = sessionIds.size === 1 ? ([...sessionIds][0] ?? 'session') : 'session';
  if (task)
    for (const r of results)
      metaOf(task).sessions.push({
        sessionId,
        metric: r.metric,
        score: r.result.score,
        passed: r.result.passed,
        reason: r.result.reason,
        metadata: r.result.metadata,
      });
  const failed = results.filter((r) => !r.result.passed);
  const line = (r: (typeof results)[number]) =>
    `  - ${r.metric} ${r.result.score.toFixed(2)} ${r.result.passed ? '≥' : '<'} ${r.threshold}: ${r.result.reason}`;
  // The first line carries the scores: it is what the report and the PR comment show of a failure.
  const headline = (rs: typeof results) =>
    rs
      .map((r) => `${r.metric} ${r.result.score.toFixed(2)} ${r.result.passed ? '≥' : '<'} ${r.threshold}`)
      .join(', ');
  return {
    pass: failed.length === 0,
    message: () =>
      this.isNot
        ? `expected the session of ${traces.length} traces to miss its thresholds, but it met them: ${headline(results)}\n${results.map(line).join('\n')}`
        : `expected the session of ${traces.length} traces to meet its thresholds: ${headline(failed)}\n${results.map(line).join('\n')}`,
  };
}
