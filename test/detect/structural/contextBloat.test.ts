import { describe, expect, it } from 'vitest';
import { contextBloat } from '../../../src/detect/detectors/structural/contextBloat.js';
import { llm, makeTrace, tool } from '../../helpers/traceBuilder.js';
import { runDetector, testDetector } from '../tester.js';

const p = (inputTokens: number) => llm({ usage: { inputTokens, outputTokens: 50 } });

testDetector(contextBloat, {
  valid: [
    { name: 'static: just under 3× growth', trace: makeTrace([p(1_000), tool('x'), p(2_000), p(2_999)]) },
    {
      name: 'small prompts that triple are not bloat (last < 2,000)',
      trace: makeTrace([p(500), p(1_000), p(1_500)]),
    },
    { name: 'only 2 LLM calls', trace: makeTrace([p(1_000), p(5_000)]) },
    {
      name: 'baseline says normal although static would fire (4× growth, max 4,000 ≤ 2 × 3,000)',
      baseline: { p75: 3_000, runs: 20 },
      trace: makeTrace([p(1_000), p(2_500), p(4_000)]),
    },
    {
      name: 'raised growth_factor moves the boundary',
      config: { growth_factor: 4 },
      trace: makeTrace([p(1_000), p(2_000), p(3_500)]),
    },
    {
      name: 'raised min_prompt_tokens skips the run',
      config: { min_prompt_tokens: 5_000 },
      trace: makeTrace([p(1_000), p(2_000), p(4_000)]),
    },
  ],
  invalid: [
    {
      name: 'static: exactly 3× from first to last',
      trace: makeTrace([p(1_000), tool('x'), p(2_000), tool('y'), p(3_000)]),
      signals: [
        {
          steps: [1, 5],
          severity: 'medium',
          message:
            'prompt grew 3× from 1,000 tokens (step 1) to 3,000 tokens (step 5) over 3 LLM calls (static fallback: ≥ 3× growth)',
          confidence: 0.8,
        },
      ],
    },
    {
      name: 'static: first call without recorded usage is skipped, 6× growth is strong',
      trace: makeTrace([llm({ usage: { inputTokens: 0, outputTokens: 0 } }), p(1_000), p(3_000), p(6_000)]),
      signals: [{ steps: [2, 4], message: 'grew 6×', confidence: 0.9 }],
    },
    {
      name: 'baseline fires where static would not (flat 3,200 > 2 × 1,500)',
      baseline: { p75: 1_500, runs: 42 },
      trace: makeTrace([p(3_000), p(3_200), p(3_100)]),
      signals: [
        {
          steps: [2],
          message:
            "largest prompt reached 3,200 tokens at step 2, 2.1× this agent's usual (P75 baseline of 42 runs: 2× 1,500 tokens = 3,000 tokens)",
          confidence: 0.86,
        },
      ],
    },
    {
      name: 'inflation_factor overrides the multiplier',
      baseline: { p75: 1_000, runs: 20 },
      inflationFactor: 4,
      trace: makeTrace([p(3_000), p(3_500), p(4_100)]),
      signals: [{ steps: [3], message: '4× 1,000 tokens = 4,000 tokens' }],
    },
    {
      name: 'lowered growth_factor moves the boundary',
      config: { growth_factor: 2 },
      trace: makeTrace([p(1_000), p(1_500), p(2_000)]),
      signals: [{ steps: [1, 3], message: '≥ 2× growth' }],
    },
  ],
});

describe('CONTEXT_BLOAT evidence', () => {
  it('records the first and last prompt and the rule', () => {
    const [s] = runDetector(contextBloat, makeTrace([p(1_000), p(2_000), p(4_000)]));
    expect(s?.evidence).toMatchObject({
      rule: 'static',
      firstPromptTokens: 1_000,
      lastPromptTokens: 4_000,
      growth: 4,
    });
  });
});
