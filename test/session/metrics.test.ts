import { describe, expect, it } from 'vitest';
import { agentConsistency } from '../../src/session/agentConsistency.js';
import { agentReliability } from '../../src/session/agentReliability.js';

describe('agent_reliability', () => {
  it('max-composes weighted risks per trace and blends the top-k mean with the worst trace', () => {
    // 10 traces: k = ceil(1.5) = 2. Risks: trace-7 → max(0.65, 0.72, 0.8×0.10, 0.15) = 0.72.
    const traces = Array.from({ length: 10 }, (_, i) => ({
      traceId: `trace-${i}`,
      signals: { confidence: 0.9, loop_detection: 0.95 },
    }));
    traces[7] = {
      traceId: 'trace-7',
      signals: { confidence: 0.35, loop_detection: 0.28, tool_correctness: 0.9, coherence: 0.85 },
    } as never;
    const r = agentReliability(traces);
    const meanTopK = (0.72 + 0.1) / 2;
    expect(r.score).toBeCloseTo(1 - (0.9 * meanTopK + 0.1 * 0.72), 10);
    expect(r.metadata).toMatchObject({
      total_traces_in_session: 10,
      traces_evaluated: 10,
      flagged_traces: ['trace-7'],
      aggregation: {
        method: 'max_compose_top_k',
        top_k_percentile: 0.15,
        ensemble_weight: 0.1,
        max_risk: 0.72,
      },
      signal_weights: { confidence: 1, loop_detection: 1, tool_correctness: 0.8, coherence: 1 },
    });
    expect((r.metadata.per_trace_signals as Record<string, object>)['trace-7']).toEqual({
      confidence_risk: 0.65,
      loop_risk: 0.72,
      tool_risk: 0.1,
      coherence_risk: 0.15,
      step_risk: 0.72,
    });
    expect(r.passed).toBe(r.score >= 0.5);
  });

  it('skips missing signals instead of treating them as zero, and weights tool risk by 0.8', () => {
    const r = agentReliability([{ traceId: 'a', signals: { tool_correctness: 0 } }]);
    expect(r.score).toBeCloseTo(0.2, 10);
  });

  it('scores 1.0 with the documented reasons on empty input', () => {
    expect(agentReliability([])).toMatchObject({
      score: 1,
      passed: true,
      reason: 'No traces or signals to evaluate.',
    });
    expect(agentReliability([{ traceId: 'a', signals: {} }]).reason).toBe(
      'No traces or signals to evaluate.',
    );
  });

  it('fails below the threshold', () => {
    const r = agentReliability([{ traceId: 'a', signals: { confidence: 0.3 } }], { threshold: 0.5 });
    expect(r.score).toBeCloseTo(0.3, 10);
    expect(r.passed).toBe(false);
  });
});

describe('agent_consistency', () => {
  it('amplifies confidence risk by the other penalties and aggregates by RMS', () => {
    const r = agentConsistency([
      {
        traceId: 'a',
        signals: { confidence: 0.88, loop_detection: 0.95, tool_correctness: 0.92, coherence: 0.97 },
      },
      { traceId: 'b', signals: { confidence: 0.6 } },
      { traceId: 'skipped', signals: { loop_detection: 0.1 } },
    ]);
    const penaltyA = 0.05 + 0.8 * 0.08 + 0.03;
    const wuA = (1 + penaltyA) * 0.12;
    const wuB = 0.4;
    const rms = Math.sqrt((wuA ** 2 + wuB ** 2) / 2);
    expect(r.score).toBeCloseTo(1 - rms, 10);
    expect(r.metadata).toMatchObject({
      total_traces_in_session: 3,
      traces_evaluated: 2,
      aggregation: { method: 'weighted_rms' },
    });
    expect(
      (r.metadata.per_trace_signals as Record<string, { situational_penalty: number }>).a!
        .situational_penalty,
    ).toBeCloseTo(0.144, 4);
  });

  it('needs a confidence signal: without any it has no evaluable traces', () => {
    expect(agentConsistency([{ traceId: 'a', signals: { coherence: 0.2 } }])).toMatchObject({
      score: 1,
      reason: 'No evaluable traces.',
    });
  });

  it('a single trace is evaluated normally', () => {
    expect(agentConsistency([{ traceId: 'a', signals: { confidence: 0.7 } }]).score).toBeCloseTo(0.7, 10);
  });
});

describe('per-trace lists bounded by maxListed', () => {
  /** The whole list cut afterwards, as the report did before the metrics bounded it themselves. */
  function cutAfterwards(metadata: Record<string, unknown>, max: number) {
    const entries = Object.entries(metadata.per_trace_signals as Record<string, Record<string, number>>);
    const risk = (e: Record<string, number>) => e.step_risk ?? e.weighted_uncertainty ?? 0;
    const kept = entries
      .map((e, i) => ({ e, i }))
      .sort((a, b) => risk(b.e[1]) - risk(a.e[1]) || a.i - b.i)
      .slice(0, max)
      .map((x) => x.e);
    return {
      ...metadata,
      per_trace_signals: Object.fromEntries(kept),
      ...(entries.length > kept.length ? { per_trace_signals_omitted: entries.length - kept.length } : {}),
    };
  }

  // Ties (risk levels repeat), a trace id seen twice, ids that are array indexes (an object lists
  // them first) and ids that only look like one, traces without confidence.
  const levels = [1, 0.9, 0.9, 0.75, 0.5, 0.5, 0.5, 0.2];
  const oddIds: Record<number, string> = { 13: '017', 14: '4294967295', 15: '4294967294', 16: '0', 22: '-1' };
  const traces = Array.from({ length: 60 }, (_, i) => ({
    traceId: oddIds[i] ?? (i % 17 === 5 ? 'again' : i % 9 === 0 ? String(100 - i) : `t${i}`),
    signals: {
      ...(i % 7 === 3 ? {} : { confidence: levels[i % levels.length]! }),
      loop_detection: levels[(i * 3) % levels.length]!,
      ...(i % 4 === 0 ? { tool_correctness: 0.4 } : {}),
    },
  }));

  it.each([
    ['agent_reliability', agentReliability],
    ['agent_consistency', agentConsistency],
  ] as const)('%s lists what cutting the whole list afterwards kept, in the same order', (_, metric) => {
    const whole = metric(traces);
    for (const max of [0, 1, 5, 20, 100]) {
      const listed = metric(traces, { maxListed: max });
      expect({ ...listed, metadata: listed.metadata }).toEqual({
        ...whole,
        metadata: cutAfterwards(whole.metadata, max),
      });
      // Key order too: the report is written in it.
      expect(JSON.stringify(listed.metadata)).toBe(JSON.stringify(cutAfterwards(whole.metadata, max)));
    }
  });
});
