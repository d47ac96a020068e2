import { describe, expect, it } from 'vitest';
import { draggingTraces, sessionRows } from '../../report-ui/src/model/sessions.js';
import type { SessionScore } from '../../src/report/schema.js';

const score = (
  sessionId: string,
  metric: SessionScore['metric'],
  value: number,
  metadata: Record<string, unknown>,
): SessionScore => ({
  sessionId,
  metric,
  score: value,
  passed: value >= 0.5,
  reason: 'r',
  metadata: { threshold: 0.5, total_traces_in_session: 3, ...metadata },
});

describe('session rows', () => {
  it('puts both scores of a session on one row, failing and lowest sessions first', () => {
    const rows = sessionRows([
      score('ok', 'agent_reliability', 0.9, {}),
      score('ok', 'agent_consistency', 0.95, {}),
      score('bad', 'agent_reliability', 0.2, {}),
      score('bad', 'agent_consistency', 0.7, {}),
    ]);
    expect(rows.map((r) => [r.sessionId, r.passed, r.reliability?.score, r.consistency?.score])).toEqual([
      ['bad', false, 0.2, 0.7],
      ['ok', true, 0.9, 0.95],
    ]);
  });

  it('names the traces that drag a session down, flagged and riskiest first', () => {
    const d = draggingTraces({
      per_trace_signals: {
        calm: { step_risk: 0 },
        mid: { step_risk: 0.4 },
        worst: { step_risk: 0.9 },
        odd: { step_risk: 'x' },
      },
      flagged_traces: ['flag-only'],
    });
    expect(d).toEqual([
      { traceId: 'flag-only', risk: 0, flagged: true },
      { traceId: 'worst', risk: 0.9, flagged: false },
      { traceId: 'mid', risk: 0.4, flagged: false },
    ]);
    const rows = sessionRows([
      score('s', 'agent_reliability', 0.3, { per_trace_signals: { t1: { step_risk: 0.7 } } }),
      score('s', 'agent_consistency', 0.6, {
        per_trace_signals: { t1: { weighted_uncertainty: 0.2 }, t2: { weighted_uncertainty: 0.3 } },
      }),
    ]);
    expect(rows[0]!.dragging.map((x) => [x.traceId, x.risk])).toEqual([
      ['t1', 0.7],
      ['t2', 0.3],
    ]);
  });
});
