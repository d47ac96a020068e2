/**
 * The sessions stage and the report's accumulation: each decided trace is added to its session's
 * scores and to the report (its summary and signals; the trace itself is gone by now), and the
 * agents of the run are counted for the baselines account and for config sections that name none
 * of them. The caller's onTrace gets each trace here, in the report's order.
 */
import type { AgentSeen } from '../../baseline/account.js';
import { agentKey } from '../../baseline/store.js';
import type { Signal } from '../../detect/signal.js';
import {
  countedSignals,
  createReportAccumulator,
  type ReportAccumulator,
  type ReportAccumulatorOptions,
} from '../../report/build.js';
import { createSessionAccumulator, type SessionAccumulator } from '../../session/sessions.js';
import type { LoadedTrace } from '../../trace/schema.js';
import type { Decided } from './decided.js';

export interface RunCollector {
  add(decided: Decided): void;
  report: ReportAccumulator;
  sessions: SessionAccumulator;
  /** Agent versions of the run, with their trace counts, for the baselines account. */
  agentsSeen: ReadonlyMap<string, AgentSeen>;
  /** Agent ids of the run, for tracejury.yml sections that name none of them. */
  agentIdsSeen: ReadonlySet<string>;
}

export function createRunCollector(
  onTrace?: (loaded: LoadedTrace, signals: readonly Signal[]) => void,
  options: ReportAccumulatorOptions = {},
): RunCollector {
  const report = createReportAccumulator(options);
  const sessions = createSessionAccumulator();
  const agentsSeen = new Map<string, AgentSeen>();
  const agentIdsSeen = new Set<string>();
  return {
    report,
    sessions,
    agentsSeen,
    agentIdsSeen,
    add({ result, signals, dismissed, verdicts, rootCause }) {
      report.addSummary(
        { ...result.summary, signals: countedSignals(signals), ...(rootCause ? { rootCause } : {}) },
        signals,
        result.unreadSpans,
        dismissed,
      );
      sessions.add({
        traceId: result.summary.id,
        agentId: result.summary.agentId,
        ...(result.summary.sessionId !== undefined ? { sessionId: result.summary.sessionId } : {}),
        signals,
        facts: result.sessionSignals,
        verdicts,
      });
      if (onTrace && result.loaded) onTrace(result.loaded, signals);
      const { agentId, agentVersion } = result.summary;
      agentIdsSeen.add(agentId);
      const key = agentKey(agentId, agentVersion);
      const seen = agentsSeen.get(key);
      if (seen) seen.traces++;
      else
        agentsSeen.set(key, { agentId, ...(agentVersion !== undefined ? { agentVersion } : {}), traces: 1 });
    },
  };
}
