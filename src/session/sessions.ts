/**
 * Session scores for a run: traces stream in (in the run's canonical order, so `--jobs N` gives
 * the same scores as `--jobs 1`), each is reduced to its four per-trace signals and dropped, and
 * `finish` scores each session with agent_reliability and agent_consistency.
 *
 * Grouping: a session is what the recording groups. Traces that name a `sessionId` (a session or
 * conversation id: `session.id`, `gen_ai.conversation.id`, Langfuse's `sessionId`, …) are grouped
 * by it, whatever their agent — a session is one conversation, even when several agents took
 * part. Traces that name none are scored in no session: independent runs of an agent (a benchmark's
 * tasks, the tests of a suite) are not one conversation, and scoring them as one made every run of
 * a failing task drag the others below the threshold. How many traces named no session is counted
 * (`withoutSession`), for the report to say.
 *
 * Repeats across traces: a trace whose tool calls and output are near-identical to one of the
 * previous PREVIOUS_RUNS traces of its session is a loop across traces (fromDetectorSignals.ts
 * loopFromRepeat). Only recorded sessions are compared this way: runs that name no session are
 * independent runs of an agent, and the same task run k times is expected to look the same.
 *
 * Memory: per trace of a recorded session, its ids and four numbers (a trace that names no session
 * is counted and dropped); per recorded session, the fingerprints (32
 * numbers each) of its last PREVIOUS_RUNS traces, for the MAX_TRACKED_SESSIONS sessions seen
 * most recently. A session not seen for that long starts its comparison afresh.
 */
import { agentConsistency } from './agentConsistency.js';
import { agentReliability } from './agentReliability.js';
import type { SessionSettings } from './config.js';
import type { SessionCoverage } from './coverage.js';
import { traceSignalsFromDetectors } from './fromDetectorSignals.js';
import type { SessionMetricResult, TraceSignals } from './signals.js';
import { sketchJaccard } from './similarity.js';
import type { SessionFacts } from './traceFacts.js';

/** Previous traces of a session a trace is compared with. */
export const PREVIOUS_RUNS = 3;
/** Recorded sessions whose recent fingerprints are kept. */
export const MAX_TRACKED_SESSIONS = 10_000;
/** Fingerprint entries a trace needs before it is compared: a one-word answer says nothing. */
export const MIN_FINGERPRINT = 3;
/** Per-trace entries a session's metadata lists (its worst traces); the rest are counted. */
export const MAX_PER_TRACE_LISTED = 20;
/** Flagged trace ids a session's metadata lists; the rest are counted. */
export const MAX_FLAGGED_LISTED = 50;

export type SessionMetricName = 'agent_reliability' | 'agent_consistency';

/** One score of one session, as Report v1's `sessions[]` holds it. */
export interface SessionScoreEntry extends SessionMetricResult {
  sessionId: string;
  metric: SessionMetricName;
}

type VerdictLike = { traceId: string; score: number; confidence: number; indeterminate: boolean };

export interface SessionTraceInput {
  traceId: string;
  agentId: string;
  sessionId?: string;
  /** The trace's final signals (after escalation). */
  signals: Parameters<typeof traceSignalsFromDetectors>[1];
  /** What was measured of the trace at detection time (traceFacts.ts). */
  facts?: SessionFacts;
  /** Verdicts on the trace: the decided one with the lowest score sets confidence and coherence. */
  verdicts?: readonly VerdictLike[];
}

export interface SessionAccumulator {
  /** Adds a trace; returns its per-trace signals. */
  add(input: SessionTraceInput): TraceSignals;
  finish(settings: SessionSettings): SessionScoreEntry[];
  /** finish's scores one at a time, each made as it is asked for (a run's report can spill them). */
  scores(settings: SessionSettings): Generator<SessionScoreEntry>;
  coverage(): SessionCoverage;
}

/**
 * A recorded session's traces, held compactly: their ids, and their four per-trace signals (every
 * one a number, traceSignalsFromDetectors) in one array of doubles, SIGNAL_KEYS.length a trace.
 * As objects they took about 100 bytes a trace more; `finish` makes them again, a session at a time.
 */
interface Group {
  ids: string[];
  values: number[];
  agents: Set<string>;
}

/** The per-trace signals in the order traceSignalsFromDetectors writes them (and the report shows them). */
const SIGNAL_KEYS = ['confidence', 'loop_detection', 'tool_correctness', 'coherence'] as const;

function groupTraces(group: Group): TraceSignals[] {
  const traces: TraceSignals[] = [];
  const width = SIGNAL_KEYS.length;
  for (let i = 0; i < group.ids.length; i++) {
    const signals: TraceSignals['signals'] = {};
    for (let k = 0; k < width; k++) signals[SIGNAL_KEYS[k]!] = group.values[i * width + k]!;
    traces.push({ traceId: group.ids[i]!, signals });
  }
  return traces;
}

export function createSessionAccumulator(options: { maxTracked?: number } = {}): SessionAccumulator {
  const maxTracked = options.maxTracked ?? MAX_TRACKED_SESSIONS;
  const recorded = new Map<string, Group>();
  let grouped = 0;
  let withoutSession = 0;
  /** Recent fingerprints per recorded session, least recently seen first. */
  const recent = new Map<string, number[][]>();

  function repeatSimilarity(sessionId: string, fingerprint: readonly number[]): number | undefined {
    if (fingerprint.length < MIN_FINGERPRINT) return undefined;
    const previous = recent.get(sessionId) ?? [];
    let max: number | undefined;
    for (const p of previous) max = Math.max(max ?? 0, sketchJaccard(p, fingerprint));
    previous.push([...fingerprint]);
    if (previous.length > PREVIOUS_RUNS) previous.shift();
    recent.delete(sessionId);
    recent.set(sessionId, previous);
    if (recent.size > maxTracked) recent.delete(recent.keys().next().value!);
    return max;
  }

  return {
    add({ traceId, agentId, sessionId, signals, facts, verdicts = [] }) {
      let verdict: VerdictLike | undefined;
      for (const v of verdicts)
        if (v.traceId === traceId && !v.indeterminate && (!verdict || v.score < verdict.score)) verdict = v;
      const repeat =
        sessionId !== undefined && facts ? repeatSimilarity(sessionId, facts.fingerprint) : undefined;
      const traceSignals = traceSignalsFromDetectors(traceId, signals, verdict, {
        ...(facts
          ? {
              toolSteps: facts.toolSteps,
              failedToolSteps: facts.failedToolSteps,
              ...(facts.ioSimilarity !== undefined ? { ioSimilarity: facts.ioSimilarity } : {}),
            }
          : {}),
        ...(repeat !== undefined ? { repeatSimilarity: repeat } : {}),
      });
      if (sessionId === undefined) {
        withoutSession++;
        return traceSignals;
      }
      let group = recorded.get(sessionId);
      if (!group) recorded.set(sessionId, (group = { ids: [], values: [], agents: new Set() }));
      group.ids.push(traceSignals.traceId);
      for (const key of SIGNAL_KEYS) group.values.push(traceSignals.signals[key]!);
      group.agents.add(agentId);
      grouped++;
      return traceSignals;
    },

    coverage: () => ({ sessions: recorded.size, grouped, withoutSession }),

    finish: (settings) => [...scores(settings)],
    scores,
  };

  function* scores(settings: SessionSettings): Generator<SessionScoreEntry> {
    for (const [sessionId, group] of recorded) {
      const traces = groupTraces(group);
      const context = {
        grouped_by: 'sessionId',
        agent_ids: [...group.agents].sort().slice(0, 10),
      };
      const metrics: [SessionMetricName, SessionMetricResult, number][] = [
        [
          'agent_reliability',
          agentReliability(traces, {
            threshold: settings.reliabilityThreshold,
            weights: settings.weights,
            maxListed: MAX_PER_TRACE_LISTED,
          }),
          settings.reliabilityThreshold,
        ],
        [
          'agent_consistency',
          agentConsistency(traces, {
            threshold: settings.consistencyThreshold,
            weights: settings.weights,
            maxListed: MAX_PER_TRACE_LISTED,
          }),
          settings.consistencyThreshold,
        ],
      ];
      for (const [metric, result, threshold] of metrics)
        yield {
          sessionId,
          metric,
          ...result,
          metadata: { ...bounded(result.metadata), threshold, ...context },
        };
    }
  }
}

/**
 * The metadata with its flagged ids bounded for the report: MAX_FLAGGED_LISTED of them, with the
 * count of the rest (the metrics list only the MAX_PER_TRACE_LISTED worst traces themselves). A
 * session of a million traces stays a few kilobytes.
 */
function bounded(metadata: Record<string, unknown>): Record<string, unknown> {
  const out = { ...metadata };
  const flagged = metadata.flagged_traces as string[] | undefined;
  if (flagged && flagged.length > MAX_FLAGGED_LISTED) {
    out.flagged_traces = flagged.slice(0, MAX_FLAGGED_LISTED);
    out.flagged_traces_omitted = flagged.length - MAX_FLAGGED_LISTED;
  }
  return out;
}
