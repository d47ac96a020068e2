import { describe, expect, it } from 'vitest';
import { fallbackStorm } from '../../../src/detect/detectors/waste/fallbackStorm.js';
import { runDetector, testDetector } from '../tester.js';
import { calls, type CallSpec } from './fixtures.js';

const blog = (model: string, t: number, cost?: number): CallSpec => ({
  model,
  prompt: 'Write a blog post',
  in: 50,
  out: 200,
  t,
  ...(cost !== undefined ? { cost } : {}),
});

testDetector(fallbackStorm, {
  valid: [
    {
      name: '3 calls on one model (just under min_distinct_models 2)',
      trace: calls([blog('gpt-4', 0, 0.015), blog('gpt-4', 5, 0.015), blog('gpt-4', 10, 0.015)]),
    },
    {
      name: '2 calls on 2 models (just under fallback_threshold 3)',
      trace: calls([blog('gpt-3.5-turbo', 0, 0.0005), blog('gpt-4', 5, 0.015)]),
    },
    {
      name: 'third call 10 min 1 s after the first (just over time_window 10 min)',
      trace: calls([
        blog('gpt-3.5-turbo', 0, 0.0005),
        blog('gpt-4', 5, 0.015),
        blog('claude-3-sonnet', 601, 0.009),
      ]),
    },
    {
      name: 'different prompts are different tasks (same_prompt default)',
      trace: calls([
        { ...blog('gpt-3.5-turbo', 0), prompt: 'Plan the trip' },
        { ...blog('gpt-4', 5), prompt: 'Book the hotel' },
        { ...blog('claude-3-sonnet', 10), prompt: 'Summarise the booking' },
      ]),
    },
    {
      name: 'min_distinct_models 3 with only 2 models',
      trace: calls([blog('gpt-3.5-turbo', 0, 0.0005), blog('gpt-4', 5, 0.015), blog('gpt-4', 10, 0.015)]),
      config: { min_distinct_models: 3 },
    },
  ],
  invalid: [
    {
      name: "the reference's example: gpt-3.5-turbo → gpt-4 → claude-3-sonnet in 10 s",
      trace: calls([
        blog('gpt-3.5-turbo', 0, 0.0005),
        blog('gpt-4', 5, 0.015),
        blog('claude-3-sonnet', 10, 0.009),
      ]),
      signals: [
        {
          steps: [1, 2, 3],
          severity: 'medium',
          confidence: 0.85,
          message:
            '3 models tried for the same prompt in 10 s (steps 1–3: gpt-3.5-turbo → gpt-4 → claude-3-sonnet): 2 calls on expensive models, $0.024 wasted',
          wasteUsd: 0.024,
          wasteTokens: 500,
        },
      ],
    },
    {
      name: 'span of exactly 10 min counts (at the threshold)',
      trace: calls([
        blog('gpt-3.5-turbo', 0, 0.0005),
        blog('gpt-4', 5, 0.015),
        blog('claude-3-sonnet', 600, 0.009),
      ]),
      signals: [{ steps: [1, 2, 3], wasteUsd: 0.024, message: 'in 10 min' }],
    },
    {
      name: 'priced from the table when no cost is recorded (gpt-4 50 in + 200 out = $0.0135 a call)',
      trace: calls([blog('gpt-3.5-turbo', 0), blog('gpt-4', 5), blog('gpt-4', 10)]),
      signals: [{ wasteUsd: 0.027, wasteTokens: 500 }],
    },
    {
      name: 'same_prompt false: the whole trace is one task',
      trace: calls([
        { ...blog('gpt-3.5-turbo', 0, 0.0005), prompt: 'Plan the trip' },
        { ...blog('gpt-4', 5, 0.015), prompt: 'Book the hotel' },
        { ...blog('claude-3-sonnet', 10, 0.009), prompt: 'Summarise the booking' },
      ]),
      config: { same_prompt: false },
      signals: [{ steps: [1, 2, 3], wasteUsd: 0.024, message: 'in one trace' }],
    },
    {
      name: 'two storms (two prompts) in one trace',
      trace: calls([
        blog('gpt-3.5-turbo', 0, 0.0005),
        blog('gpt-4', 5, 0.015),
        blog('claude-3-sonnet', 10, 0.009),
        { ...blog('gpt-3.5-turbo', 20, 0.001), prompt: 'Write a tweet' },
        { ...blog('gpt-4', 25, 0.002), prompt: 'Write a tweet' },
        { ...blog('gpt-4', 30, 0.003), prompt: 'Write a tweet' },
      ]),
      signals: [
        { steps: [1, 2, 3], wasteUsd: 0.024 },
        { steps: [4, 5, 6], wasteUsd: 0.005 },
      ],
    },
    {
      name: 'more than 5 calls is high severity',
      trace: calls([0, 1, 2, 3, 4, 5].map((t) => blog(t % 2 ? 'gpt-4' : 'gpt-3.5-turbo', t, 0.001))),
      signals: [{ severity: 'high', wasteUsd: 0.003, message: '3 calls on expensive models' }],
    },
    {
      // "Cost of expensive model calls": the cheap call in the middle is not charged, the
      // expensive first one is (charging the calls after the first gave $0.0095).
      name: 'expensive model first: gpt-4 → gpt-3.5-turbo → claude-3-sonnet charges the 2 expensive calls',
      trace: calls([
        blog('gpt-4', 0, 0.015),
        blog('gpt-3.5-turbo', 5, 0.0005),
        blog('claude-3-sonnet', 10, 0.009),
      ]),
      signals: [
        {
          steps: [1, 2, 3],
          wasteUsd: 0.024,
          wasteTokens: 500,
          message: '2 calls on expensive models, $0.024 wasted',
        },
      ],
    },
    {
      name: 'a storm of cheap models is reported with no waste',
      trace: calls([
        blog('gpt-3.5-turbo', 0, 0.0005),
        blog('claude-3-haiku', 5, 0.0003),
        blog('gpt-3.5-turbo', 10, 0.0005),
      ]),
      signals: [{ steps: [1, 2, 3], wasteUsd: 0, wasteTokens: 0, message: '0 calls on expensive models' }],
    },
    {
      name: 'a model the price table does not know is not charged',
      trace: calls([
        blog('gpt-3.5-turbo', 0, 0.0005),
        blog('my-inhouse-llm', 5, 0.02),
        blog('gpt-4', 10, 0.015),
      ]),
      signals: [{ wasteUsd: 0.015, wasteTokens: 250 }],
    },
    {
      name: '…and with expensive_models listing it',
      trace: calls([
        blog('gpt-3.5-turbo', 0, 0.0005),
        blog('my-inhouse-llm', 5, 0.02),
        blog('gpt-4', 10, 0.015),
      ]),
      config: { expensive_models: ['my-inhouse-llm'] },
      signals: [{ wasteUsd: 0.035, wasteTokens: 500 }],
    },
  ],
});

describe('FALLBACK_STORM evidence', () => {
  it('lists the expensive calls it charged as wastedSteps', () => {
    const [s] = runDetector(
      fallbackStorm,
      calls([blog('gpt-4', 0, 0.015), blog('gpt-3.5-turbo', 5, 0.0005), blog('claude-3-sonnet', 10, 0.009)]),
    );
    expect(s?.evidence).toMatchObject({ wastedSteps: [1, 3], firstModel: 'gpt-4' });
  });
});
