/**
 * agent_consistency (session-metrics.md): overall stability. Only traces with a confidence signal
 * count; the other signals' penalties amplify the confidence risk; RMS over traces; score = 1 − RMS.
 */
import {
  clamp01,
  perTraceSignals,
  resolveOptions,
  risksOf,
  round4,
  withoutUndefined,
  type SessionMetricOptions,
  type SessionMetricResult,
  type TraceSignals,
} from './signals.js';

export function agentConsistency(
  traces: TraceSignals[],
  options?: SessionMetricOptions,
): SessionMetricResult {
  const { threshold, weights, maxListed } = resolveOptions(options);
  const evaluated: { traceId: string; of: ReturnType<typeof risksOf>; penalty: number }[] = [];
  const uncertainties: number[] = [];
  for (const t of traces) {
    if (t.signals.confidence === undefined) continue;
    const r = risksOf(t.signals);
    const penalty =
      (r.loop_risk === undefined ? 0 : weights.loop_detection * r.loop_risk) +
      (r.tool_risk === undefined ? 0 : weights.tool_correctness * r.tool_risk) +
      (r.coherence_risk === undefined ? 0 : weights.coherence * r.coherence_risk);
    const wu = (1 + penalty) * (weights.confidence * r.confidence_risk!);
    uncertainties.push(wu);
    evaluated.push({ traceId: t.traceId, of: r, penalty });
  }
  if (traces.length === 0 || traces.every((t) => Object.keys(t.signals).length === 0)) {
    return {
      score: 1,
      passed: true,
      reason: 'No traces or signals to evaluate.',
      metadata: { total_traces_in_session: traces.length, traces_evaluated: 0 },
    };
  }
  if (uncertainties.length === 0) {
    return {
      score: 1,
      passed: true,
      reason: 'No evaluable traces.',
      metadata: { total_traces_in_session: traces.length, traces_evaluated: 0 },
    };
  }
  const rms = Math.sqrt(uncertainties.reduce((a, wu) => a + wu * wu, 0) / uncertainties.length);
  const { per_trace_signals, per_trace_signals_omitted } = perTraceSignals(
    evaluated.map((e) => e.traceId),
    (i) => round4(uncertainties[i]!),
    (i) => ({
      ...withoutUndefined(evaluated[i]!.of),
      situational_penalty: round4(evaluated[i]!.penalty),
      weighted_uncertainty: round4(uncertainties[i]!),
    }),
    maxListed,
  );
  const score = clamp01(1 - rms);
  return {
    score,
    passed: score >= threshold,
    reason: `Consistency ${score.toFixed(2)}: RMS weighted uncertainty ${rms.toFixed(2)} over ${uncertainties.length} traces`,
    metadata: {
      total_traces_in_session: traces.length,
      traces_evaluated: uncertainties.length,
      raw_instability: round4(rms),
      signal_weights: weights,
      per_trace_signals,
      aggregation: { method: 'weighted_rms', rms_value: round4(rms) },
      ...(per_trace_signals_omitted !== undefined ? { per_trace_signals_omitted } : {}),
    },
  };
}
