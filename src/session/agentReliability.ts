/**
 * agent_reliability (session-metrics.md): worst-case failure risk across a session.
 * Per trace, max of weighted risks over the signals present; then the mean of the top-k risks
 * (k = max(1, ceil(0.15 n))) blended 0.9/0.1 with the single worst; score = 1 − that.
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

const TOP_K_PERCENTILE = 0.15;
const ENSEMBLE_WEIGHT = 0.1;
const FLAG_ABOVE = 0.5;

export function agentReliability(
  traces: TraceSignals[],
  options?: SessionMetricOptions,
): SessionMetricResult {
  const { threshold, weights, maxListed } = resolveOptions(options);
  const risks: { traceId: string; risk: number; of: ReturnType<typeof risksOf> }[] = [];
  for (const t of traces) {
    const r = risksOf(t.signals);
    // The largest weighted risk of the signals the trace has (none: not evaluated).
    let stepRisk: number | undefined;
    const weigh = (risk: number | undefined, weight: number) => {
      if (risk !== undefined)
        stepRisk = stepRisk === undefined ? weight * risk : Math.max(stepRisk, weight * risk);
    };
    weigh(r.confidence_risk, weights.confidence);
    weigh(r.loop_risk, weights.loop_detection);
    weigh(r.tool_risk, weights.tool_correctness);
    weigh(r.coherence_risk, weights.coherence);
    if (stepRisk === undefined) continue;
    risks.push({ traceId: t.traceId, risk: stepRisk, of: r });
  }
  if (traces.length === 0 || risks.length === 0) {
    const reason =
      traces.length === 0 || traces.every((t) => Object.keys(t.signals).length === 0)
        ? 'No traces or signals to evaluate.'
        : 'No evaluable traces.';
    return {
      score: 1,
      passed: true,
      reason,
      metadata: { total_traces_in_session: traces.length, traces_evaluated: 0 },
    };
  }
  const sorted = risks.map((r) => r.risk).sort((a, b) => b - a);
  const k = Math.max(1, Math.ceil(sorted.length * TOP_K_PERCENTILE));
  const meanTopK = sorted.slice(0, k).reduce((a, b) => a + b, 0) / k;
  const maxRisk = sorted[0]!;
  const rawRisk = (1 - ENSEMBLE_WEIGHT) * meanTopK + ENSEMBLE_WEIGHT * maxRisk;
  const score = clamp01(1 - rawRisk);
  const flagged = risks.filter((r) => r.risk > FLAG_ABOVE).map((r) => r.traceId);
  const { per_trace_signals, per_trace_signals_omitted } = perTraceSignals(
    risks.map((r) => r.traceId),
    (i) => round4(risks[i]!.risk),
    (i) => ({ ...withoutUndefined(risks[i]!.of), step_risk: round4(risks[i]!.risk) }),
    maxListed,
  );
  return {
    score,
    passed: score >= threshold,
    reason:
      `Reliability ${score.toFixed(2)} from the worst ${k} of ${risks.length} traces (mean risk ${meanTopK.toFixed(2)}, max ${maxRisk.toFixed(2)})` +
      (flagged.length
        ? `; flagged: ${flagged.slice(0, 5).join(', ')}${flagged.length > 5 ? ', …' : ''}`
        : ''),
    metadata: {
      total_traces_in_session: traces.length,
      traces_evaluated: risks.length,
      raw_risk: round4(rawRisk),
      signal_weights: weights,
      per_trace_signals,
      flagged_traces: flagged,
      aggregation: {
        method: 'max_compose_top_k',
        top_k_percentile: TOP_K_PERCENTILE,
        ensemble_weight: ENSEMBLE_WEIGHT,
        mean_top_k_risk: round4(meanTopK),
        max_risk: round4(maxRisk),
      },
      ...(per_trace_signals_omitted !== undefined ? { per_trace_signals_omitted } : {}),
    },
  };
}
