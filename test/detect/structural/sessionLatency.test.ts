import { describe, expect, it } from 'vitest';
import { sessionLatency } from '../../../src/detect/detectors/structural/sessionLatency.js';
import { llm, makeTrace, tool } from '../../helpers/traceBuilder.js';
import { runDetector, testDetector } from '../tester.js';

const at = (ms: number) => new Date(Date.UTC(2025, 0, 1) + ms).toISOString();
const span = (ms: number) => ({ startedAt: at(0), endedAt: at(ms) });

testDetector(sessionLatency, {
  valid: [
    { name: 'static: exactly 5 minutes', trace: makeTrace([llm()], span(300_000)) },
    { name: 'duration cannot be measured', trace: makeTrace([llm(), tool('x')]) },
    {
      name: 'baseline says normal although static would fire (6 min ≤ 3 × 3 min)',
      baseline: { p75: 180_000, runs: 20 },
      trace: makeTrace([llm()], span(360_000)),
    },
    {
      name: 'raised max_duration_ms moves the static boundary',
      config: { max_duration_ms: 600_000 },
      trace: makeTrace([llm()], span(400_000)),
    },
  ],
  invalid: [
    {
      name: 'static: just over 5 minutes, naming the three longest steps',
      trace: makeTrace(
        [
          llm({ durationMs: 10_000 }),
          tool('a', { durationMs: 120_000 }),
          llm({ durationMs: 5_000 }),
          tool('b', { durationMs: 90_000 }),
          llm({ durationMs: 60_000 }),
        ],
        span(301_000),
      ),
      signals: [
        {
          steps: [2, 4, 5],
          severity: 'medium',
          message:
            'run took 301,000 ms (static fallback: > 5 min); longest steps: step 2 (2 min), step 4 (1.5 min), step 5 (1 min)',
          confidence: 0.8,
        },
      ],
    },
    {
      name: 'without timestamps the duration is the sum of step durations',
      trace: makeTrace([tool('a', { durationMs: 200_000 }), llm({ durationMs: 200_000 })]),
      signals: [{ steps: [1, 2], message: 'run took 6.7 min' }],
    },
    {
      name: 'baseline fires where static would not (2 min > 3 × 30 s)',
      baseline: { p75: 30_000, runs: 48 },
      trace: makeTrace([llm()], span(120_000)),
      signals: [
        {
          steps: [],
          message: 'run took 2 min (P75 baseline of 48 runs: 3× 30 s = 1.5 min)',
          confidence: 0.86,
        },
      ],
    },
    {
      name: 'static: twice the limit is strong',
      trace: makeTrace([llm()], span(600_000)),
      signals: [{ confidence: 0.92 }],
    },
    {
      name: 'lowered max_duration_ms moves the static boundary',
      config: { max_duration_ms: 60_000 },
      trace: makeTrace([llm()], span(61_000)),
      signals: [{ message: '> 1 min' }],
    },
  ],
});

describe('SESSION_LATENCY evidence', () => {
  it('says which rule was used', () => {
    const [s] = runDetector(sessionLatency, makeTrace([llm()], span(100_000)), {
      baseline: { p75: 20_000, runs: 20 },
    });
    expect(s?.evidence).toMatchObject({
      durationMs: 100_000,
      rule: 'baseline',
      p75: 20_000,
      multiplier: 3,
      limit: 60_000,
    });
  });
});
