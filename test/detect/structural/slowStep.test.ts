import { describe, expect, it } from 'vitest';
import { slowStep } from '../../../src/detect/detectors/structural/slowStep.js';
import { llm, makeTrace, retrieval, tool } from '../../helpers/traceBuilder.js';
import { runDetector, testDetector } from '../tester.js';

const baseline = { p75: 4_000, runs: 30 };

testDetector(slowStep, {
  valid: [
    {
      name: 'static: exactly at the limits (tool 15 s, LLM 30 s) does not fire',
      trace: makeTrace([tool('fetch', { durationMs: 15_000 }), llm({ durationMs: 30_000 })]),
    },
    {
      name: 'static: an LLM call of 20 s is slow for a tool but fine for an LLM',
      trace: makeTrace([llm({ durationMs: 20_000 }), retrieval({ durationMs: 9_000 })]),
    },
    { name: 'steps without durations are never slow', trace: makeTrace([llm(), tool('fetch')]) },
    {
      name: 'baseline says normal although static would fire (tool 20 s, limit 2 × 12 s)',
      baseline: { p75: 12_000, runs: 40 },
      trace: makeTrace([tool('crawl', { durationMs: 20_000 })]),
    },
    {
      name: 'raised tool_ms moves the static boundary',
      config: { tool_ms: 20_000 },
      trace: makeTrace([tool('fetch', { durationMs: 19_000 })]),
    },
  ],
  invalid: [
    {
      name: 'static: tool just over 15 s',
      trace: makeTrace([llm(), tool('web_fetch', { durationMs: 15_001 })]),
      signals: [
        {
          steps: [2],
          severity: 'medium',
          message:
            /^tool web_fetch took 15,001 ms, over its limit \(static fallback: tool steps > 15 s\) \(step 2\)$/,
          confidence: 0.8,
        },
      ],
    },
    {
      name: 'static: LLM just over 30 s, and a retrieval timed like a tool',
      trace: makeTrace([llm({ durationMs: 30_500, model: 'o3' }), retrieval({ durationMs: 16_000 })]),
      signals: [
        { steps: [1], severity: 'medium', message: 'LLM call o3 took 30.5 s' },
        { steps: [2], severity: 'medium', message: 'retrieval took 16 s' },
      ],
    },
    {
      name: 'static: far beyond (more than 2× the limit) is high',
      trace: makeTrace([tool('crawl', { durationMs: 31_000 })]),
      signals: [{ steps: [1], severity: 'high', message: '2.1× its limit', confidence: 0.92 }],
    },
    {
      name: 'baseline fires where static would not (LLM 9 s over 2 × 4 s)',
      baseline,
      trace: makeTrace([llm({ durationMs: 3_000 }), llm({ durationMs: 9_000 })]),
      signals: [
        {
          steps: [2],
          severity: 'medium',
          message: 'P75 baseline of 30 runs: 2× 4 s = 8 s',
          confidence: 0.86,
        },
      ],
    },
    {
      name: 'inflation_factor overrides the multiplier (1.5 × 4 s = 6 s)',
      baseline,
      inflationFactor: 1.5,
      trace: makeTrace([tool('fetch', { durationMs: 7_000 })]),
      signals: [{ steps: [1], message: '1.5× 4 s = 6 s' }],
    },
    {
      name: 'config baseline_multiplier 3 (12 s limit) with a step at 25 s is high',
      baseline,
      config: { baseline_multiplier: 3 },
      trace: makeTrace([tool('fetch', { durationMs: 11_000 }), tool('fetch', { durationMs: 25_000 })]),
      signals: [{ steps: [2], severity: 'high' }],
    },
    {
      name: 'a degenerate baseline (P75 0) falls back to the static rule',
      baseline: { p75: 0, runs: 25 },
      trace: makeTrace([tool('fetch', { durationMs: 100 }), tool('fetch', { durationMs: 16_000 })]),
      signals: [{ steps: [2], message: 'static fallback' }],
    },
  ],
});

describe('SLOW_STEP evidence', () => {
  it('says which rule was used', () => {
    const [b] = runDetector(slowStep, makeTrace([tool('x', { durationMs: 9_000 })]), { baseline });
    expect(b?.evidence).toMatchObject({
      rule: 'baseline',
      p75: 4_000,
      runs: 30,
      multiplier: 2,
      limit: 8_000,
      durationMs: 9_000,
    });
    const [s] = runDetector(slowStep, makeTrace([tool('x', { durationMs: 16_000 })]));
    expect(s?.evidence).toMatchObject({ rule: 'static', limit: 15_000 });
  });
});
