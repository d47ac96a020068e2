import { describe, expect, it } from 'vitest';
import { stepCountInflation } from '../../../src/detect/detectors/structural/stepCountInflation.js';
import { llm, makeTrace, tool } from '../../helpers/traceBuilder.js';
import { runDetector, testDetector } from '../tester.js';

const steps = (n: number) => makeTrace(Array.from({ length: n }, (_, i) => (i % 2 ? tool('search') : llm())));
const baseline = { p75: 10, runs: 24 };

testDetector(stepCountInflation, {
  valid: [
    { name: 'no baseline yet: no static fallback, never fires', trace: steps(200) },
    { name: 'just under: exactly 2 × P75 steps', baseline, trace: steps(20) },
    {
      name: 'inflation_factor raises the limit (3 × 10 = 30)',
      baseline,
      inflationFactor: 3,
      trace: steps(25),
    },
    { name: 'a degenerate baseline (P75 0) is ignored', baseline: { p75: 0, runs: 20 }, trace: steps(50) },
  ],
  invalid: [
    {
      name: 'just over: 21 steps against 2 × 10',
      baseline,
      trace: steps(21),
      signals: [
        {
          steps: [21],
          severity: 'medium',
          message:
            "run took 21 steps, 2.1× this agent's usual (P75 baseline of 24 runs: 2× 10 = 20); step 21 is past the limit",
          confidence: 0.86,
        },
      ],
    },
    {
      name: 'twice the limit: names every step past it',
      baseline,
      trace: steps(40),
      signals: [
        {
          steps: Array.from({ length: 20 }, (_, k) => 21 + k),
          message: 'steps 21–40 are past the limit',
          confidence: 0.92,
        },
      ],
    },
    {
      name: 'config baseline_multiplier 1.5 with a fractional P75 (1.5 × 7.5 = 11.25)',
      baseline: { p75: 7.5, runs: 50 },
      config: { baseline_multiplier: 1.5 },
      trace: steps(12),
      signals: [{ steps: [12], message: '1.5× 7.5 = 11.3' }],
    },
  ],
});

describe('STEP_COUNT_INFLATION evidence', () => {
  it('records the count and the baseline', () => {
    const [s] = runDetector(stepCountInflation, steps(25), { baseline });
    expect(s?.evidence).toMatchObject({
      stepCount: 25,
      rule: 'baseline',
      p75: 10,
      runs: 24,
      multiplier: 2,
      limit: 20,
    });
  });
});
