/**
 * toMeetSessionThreshold: the session metrics of session-metrics.md (agent_reliability,
 * agent_consistency) over the received traces — a list of traces, a glob or a file of many — taken
 * as one session. Each trace's signals come from the same session accumulator `analyze` uses
 * (session/sessions.ts): what the detectors found, the measured facts (failed tool steps, input/
 * output similarity, repeats within a recorded session) and the verdicts this test got for it; the
 * weights and default thresholds are tracejury.yml's `sessions:`. So a trace scores here what it
 * scores in the report of a run.
 *
 * It also takes per-trace session signals computed elsewhere — `{ traceId, signals: { confidence,
 * loop_detection, tool_correctness, coherence } }[]`, what `agentReliability` takes — and scores
 * them as they are.
 *
 * Async: the matcher is tracked (worker/pendingMatchers.ts), so a test that does not await it fails.
 */
import { z } from 'zod';
import {
  agentConsistency,
  agentReliability,
  createSessionAccumulator,
  loadTraces,
  sessionFactsOf,
  TraceSignalsSchema,
  type LoadedTrace,
  type SessionMetricResult,
  type SessionScore,
  type TraceSignals,
} from 'tracejury';
import { analyse, rememberSource, traceAnalyser, workerSettings } from '../worker/context.js';
import { currentTask, testFileOf } from '../worker/currentTask.js';
import { metaOf } from '../shared/meta.js';
import { receivedTraces, TRACE_SHAPES } from '../worker/received.js';
import { recordTrace } from '../worker/savedTraces.js';
import { trackAsyncMatcher } from '../worker/pendingMatchers.js';
import { checkArgument } from './checkArgs.js';
import { SessionThresholdsSchema } from './options.js';

interface MatcherThis {
  isNot: boolean;
}

const MATCHER = 'toMeetSessionThreshold';

/** Per-trace session signals, strict: `loop_detecton` is a typo to name, not a signal to skip. */
const SessionSignalsSchema = z
  .array(
    TraceSignalsSchema.extend({
      traceId: z.string().min(1),
      signals: TraceSignalsSchema.shape.signals.strict(),
    }).strict(),
  )
  .min(1);

const SHAPES =
  `${TRACE_SHAPES}, a glob of trace files, or per-trace session signals ` +
  '({ traceId, signals: { confidence, loop_detection, tool_correctness, coherence } }[], as agentReliability takes)';

/** An array of objects with `signals` and no steps: per-trace signals, checked as such. */
function looksLikeSessionSignals(received: unknown): received is unknown[] {
  return (
    Array.isArray(received) &&
    received.length > 0 &&
    received.every((r) => {
      const v = r as { signals?: unknown; steps?: unknown } | null;
      return typeof v === 'object' && v !== null && typeof v.signals === 'object' && !('steps' in v);
    })
  );
}

async function tracesOf(received: unknown): Promise<(LoadedTrace | Record<string, unknown>)[]> {
  if (
    typeof received !== 'string' &&
    !(Array.isArray(received) && received.length > 0 && received.every((r) => typeof r === 'string'))
  )
    return receivedTraces(received, SHAPES);
  const { root } = workerSettings();
  const { traces, stats } = await loadTraces(received as string | string[], {
    cwd: root,
    pricer: traceAnalyser().pricer,
  });
  if (stats.errorCount > 0) return receivedTraces(received, SHAPES); // the synchronous reader names the errors
  for (const t of traces) rememberSource(t);
  return traces;
}

/** Each trace's session signals, as `analyze` computes them for the trace. */
function signalsOfTraces(
  task: ReturnType<typeof currentTask>,
  traces: (LoadedTrace | Record<string, unknown>)[],
): { perTrace: TraceSignals[]; sessionId: string } {
  const verdicts = task ? metaOf(task).verdicts : [];
  const session = createSessionAccumulator();
  const sessionIds = new Set<string | undefined>();
  const perTrace = traces.map((t) => {
    const analysis = analyse(t);
    recordTrace(task, analysis);
    const { id, agentId, sessionId } = analysis.trace;
    sessionIds.add(sessionId);
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
  const sessionId = sessionIds.size === 1 ? ([...sessionIds][0] ?? 'session') : 'session';
  return { perTrace, sessionId };
}

async function meetsThresholds(
  self: MatcherThis,
  received: unknown,
  thresholds: z.output<typeof SessionThresholdsSchema>,
) {
  const task = currentTask(self);
  let scored: { perTrace: TraceSignals[]; sessionId: string };
  let what: string;
  if (looksLikeSessionSignals(received)) {
    const given = checkArgument(MATCHER, 'received', SessionSignalsSchema, received);
    scored = { perTrace: given, sessionId: 'session' };
    what = `${given.length} trace${given.length === 1 ? "'s" : "s'"} signals`;
  } else {
    const traces = await tracesOf(received);
    if (traces.length === 0) throw new Error(`${MATCHER}: no traces to score`);
    scored = signalsOfTraces(task, traces);
    what = `${traces.length} trace${traces.length === 1 ? '' : 's'}`;
  }
  const { perTrace, sessionId } = scored;
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
      self.isNot
        ? `expected the session of ${what} to miss its thresholds, but it met them: ${headline(results)}\n${results.map(line).join('\n')}`
        : `expected the session of ${what} to meet its thresholds: ${headline(failed)}\n${results.map(line).join('\n')}`,
  };
}

export function toMeetSessionThreshold(this: MatcherThis, received: unknown, thresholds: unknown = {}) {
  // Checked before anything runs, so a typo fails the test whether or not it is awaited.
  const checked = checkArgument(MATCHER, 'thresholds', SessionThresholdsSchema, thresholds);
  const task = currentTask(this);
  return trackAsyncMatcher(task, MATCHER, meetsThresholds(this, received, checked), testFileOf(task));
}
