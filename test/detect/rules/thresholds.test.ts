import { describe, expect, it } from 'vitest';
import { contextWindowPressure } from '../../../src/detect/detectors/rules/contextWindowPressure.js';
import { costBudget } from '../../../src/detect/detectors/rules/costBudget.js';
import { ruleDetectors } from '../../../src/detect/detectors/rules/index.js';
import { tokenBudget } from '../../../src/detect/detectors/rules/tokenBudget.js';
import { contextWindow } from '../../../src/pricing/contextWindow.js';
import { llm, makeTrace } from '../../helpers/traceBuilder.js';
import { runDetector, testDetector } from '../tester.js';

const call = (inputTokens: number, outputTokens = 0, fields: Parameters<typeof llm>[0] = {}) =>
  llm({ usage: { inputTokens, outputTokens }, ...fields });

testDetector(tokenBudget, {
  valid: [
    { name: 'one call just under the per-call budget', trace: makeTrace([call(90_000, 9_999)]) },
    { name: 'one call exactly at the budget', trace: makeTrace([call(90_000, 10_000)]) },
    {
      name: 'trace total exactly at its budget',
      trace: makeTrace([call(400, 100), call(400, 100)]),
      config: { max_tokens_per_trace: 1_000 },
    },
  ],
  invalid: [
    {
      name: 'one call just over the per-call budget',
      trace: makeTrace([call(100), call(90_000, 10_001)]),
      signals: [{ steps: [2], severity: 'medium', message: 'Step 2: one LLM call', confidence: 0.8 }],
    },
    {
      name: 'trace total just over its budget: step where it ran out',
      trace: makeTrace([call(400, 100), call(400, 100), call(1)]),
      config: { max_tokens_per_trace: 1_000 },
      signals: [{ steps: [3], message: 'over the per-trace budget of 1,000' }],
    },
  ],
});

testDetector(costBudget, {
  valid: [
    {
      name: 'cost exactly at the budget',
      trace: makeTrace([call(1, 0, { costUsd: 0.5 }), call(1, 0, { costUsd: 0.5 })]),
    },
    { name: 'unpriceable model', trace: makeTrace([call(10_000_000, 0, { model: 'no-such-model-xyz' })]) },
  ],
  invalid: [
    {
      name: 'recorded costs just over the budget',
      trace: makeTrace([
        call(1, 0, { costUsd: 0.5 }),
        call(1, 0, { costUsd: 0.5 }),
        call(1, 0, { costUsd: 0.01 }),
      ]),
      signals: [{ steps: [3], severity: 'medium', message: '$0.01 over the budget of $1.00' }],
    },
    {
      name: 'cost computed from the price table when the step has none',
      trace: makeTrace([call(100_001, 0, { model: 'my-model' })]),
      prices: { 'my-model': { inputPer1M: 10, outputPer1M: 0 } },
      signals: [{ steps: [1], message: '$0.000010 over the budget' }],
    },
    {
      name: 'custom budget',
      trace: makeTrace([call(1, 0, { costUsd: 0.11 })]),
      config: { max_cost_usd: 0.1 },
      signals: [{ steps: [1], message: 'over the budget of $0.10' }],
    },
  ],
});

describe('TOKEN_BUDGET charges no waste', () => {
  it('carries the overage in evidence, not in wasteTokens', () => {
    const signals = runDetector(tokenBudget, makeTrace([call(90_000, 10_001)]), {
      config: { max_tokens_per_trace: 50_000 },
    });
    expect(signals.map((s) => s.evidence?.overageTokens)).toEqual([1, 50_001]);
    for (const s of signals) {
      expect(s.wasteTokens).toBeUndefined();
      expect(s.wasteUsd).toBeUndefined();
    }
  });
});

describe('COST_BUDGET charges no waste', () => {
  // An overrun is not waste: the waste detectors charge the calls that bought nothing, and adding
  // the overage on top counted those dollars twice (waste above the trace's total cost).
  it('carries the overage in evidence and the message, not in wasteUsd / wasteTokens', () => {
    const [s] = runDetector(
      costBudget,
      makeTrace([call(1, 0, { costUsd: 0.5 }), call(1, 0, { costUsd: 0.5 }), call(1, 0, { costUsd: 0.5 })]),
    );
    expect(s).toBeDefined();
    expect(s!.wasteUsd).toBeUndefined();
    expect(s!.wasteTokens).toBeUndefined();
    expect(s!.evidence).toMatchObject({ costUsd: 1.5, budgetUsd: 1, overageUsd: 0.5 });
    expect(s!.message).toContain('$0.50 over the budget of $1.00');
  });
});

// gpt-4o-mini has a 128,000-token window in the price table: 90 % is 115,200.
testDetector(contextWindowPressure, {
  valid: [
    { name: 'just under 90 % of the window', trace: makeTrace([call(115_199)]) },
    {
      name: 'unknown model: no window, no signal',
      trace: makeTrace([call(10_000_000, 0, { model: 'my-local-model' })]),
    },
    {
      name: 'override under the threshold',
      trace: makeTrace([call(7_000, 0, { model: 'my-local-model' })]),
      config: { context_windows: { 'my-local-model': 8_192 } },
    },
  ],
  invalid: [
    {
      name: 'exactly 90 % of the window',
      trace: makeTrace([call(115_200)]),
      signals: [{ steps: [1], severity: 'medium', confidence: 0.8, message: 'filled 90 %' }],
    },
    {
      name: 'above 100 % of the window is high',
      trace: makeTrace([call(100), call(130_000)]),
      signals: [
        { steps: [2], severity: 'high', confidence: 0.96, message: 'larger than the context window' },
      ],
    },
    {
      name: 'window from config for a self-hosted model',
      trace: makeTrace([call(8_000, 0, { model: 'My-Local-Model' })]),
      config: { context_windows: { 'my-local-model': 8_192 } },
      signals: [{ steps: [1], severity: 'medium' }],
    },
  ],
});

describe('contextWindow', () => {
  it('reads the window from the price table and caches unknown models', () => {
    expect(contextWindow('gpt-4o-mini')).toBe(128_000);
    expect(contextWindow('gpt-4o-mini', { provider: 'openai' })).toBe(128_000);
    expect(contextWindow('definitely-not-a-model')).toBeUndefined();
    expect(contextWindow('definitely-not-a-model')).toBeUndefined();
    expect(contextWindow('GPT-4o-mini', { overrides: { 'gpt-4o-mini': 1000 } })).toBe(1000);
  });
});

describe('ruleDetectors', () => {
  it('lists the rule detectors with unique ids and snake_case config keys', () => {
    const ids = ruleDetectors.map((d) => d.meta.id);
    expect(ids).toEqual([
      'PROMPT_INJECTION_SIGNAL',
      'STATE_HASH_LOOP',
      'TOKEN_BUDGET',
      'COST_BUDGET',
      'CONTEXT_WINDOW_PRESSURE',
    ]);
    for (const d of ruleDetectors) {
      expect(d.meta.tier).toBe(1);
      expect(d.meta.configKey).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(() => d.meta.config.parse({})).not.toThrow();
    }
  });
});
