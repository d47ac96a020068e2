import { describe, expect, it } from 'vitest';
import { costSpike } from '../../../src/detect/detectors/structural/costSpike.js';
import { llm, makeTrace, tool } from '../../helpers/traceBuilder.js';
import { runDetector, testDetector } from '../tester.js';

const t = (inputTokens: number, outputTokens = 0) => llm({ usage: { inputTokens, outputTokens } });

testDetector(costSpike, {
  valid: [
    {
      name: 'static: exactly 50,000 tokens',
      trace: makeTrace([t(20_000, 5_000), tool('x'), t(20_000, 5_000)]),
    },
    {
      name: 'baseline says normal although static would fire (60,000 ≤ 3 × 25,000)',
      baseline: { p75: 25_000, runs: 30 },
      trace: makeTrace([t(30_000, 1_000), t(28_000, 1_000)]),
    },
    {
      name: 'raised max_tokens moves the static boundary',
      config: { max_tokens: 100_000 },
      trace: makeTrace([t(60_000)]),
    },
  ],
  invalid: [
    {
      name: 'static: just over 50,000 tokens',
      trace: makeTrace([t(20_000, 5_000), tool('x'), t(20_000, 5_001)]),
      signals: [
        {
          steps: [1, 3],
          severity: 'medium',
          message:
            'run used 50,001 tokens (40,000 in, 10,001 out) over 2 LLM calls (static fallback: > 50,000 tokens); largest: step 3 with 25,001 tokens (steps 1–3)',
          confidence: 0.8,
        },
      ],
    },
    {
      // One call is its own largest: the step span names it once, and "1 LLM call" is singular.
      name: 'static: twice the limit is strong',
      trace: makeTrace([t(100_000, 1)]),
      signals: [
        {
          steps: [1],
          confidence: 0.92,
          message:
            'run used 100,001 tokens (100,000 in, 1 out) over 1 LLM call (static fallback: > 50,000 tokens) (step 1)',
        },
      ],
    },
    {
      name: 'baseline fires where static would not (40,000 > 3 × 10,000)',
      baseline: { p75: 10_000, runs: 25 },
      trace: makeTrace([t(20_000), t(20_000)]),
      signals: [{ message: 'P75 baseline of 25 runs: 3× 10,000 tokens = 30,000 tokens', confidence: 0.86 }],
    },
    {
      name: 'inflation_factor overrides the multiplier',
      baseline: { p75: 10_000, runs: 25 },
      inflationFactor: 2,
      trace: makeTrace([t(25_000)]),
      signals: [{ message: '2× 10,000 tokens = 20,000 tokens' }],
    },
    {
      name: 'lowered max_tokens moves the static boundary',
      config: { max_tokens: 10_000 },
      trace: makeTrace([t(8_000), llm({ usage: { inputTokens: 0, outputTokens: 0 } }), t(3_000)]),
      signals: [{ steps: [1, 3], message: '> 10,000 tokens' }],
    },
  ],
});

describe('COST_SPIKE evidence', () => {
  it('records totals and never charges waste', () => {
    const [s] = runDetector(costSpike, makeTrace([t(40_000, 20_000)]));
    expect(s?.evidence).toMatchObject({
      totalTokens: 60_000,
      inputTokens: 40_000,
      outputTokens: 20_000,
      rule: 'static',
      limit: 50_000,
    });
    expect(s?.wasteUsd).toBeUndefined();
    expect(s?.wasteTokens).toBeUndefined();
  });
});
