import { fallbackFailure } from '../../../src/detect/detectors/waste/fallbackFailure.js';
import { testDetector } from '../tester.js';
import { calls, type CallSpec } from './fixtures.js';

const cheap = (t: number, extra: Partial<CallSpec> = {}): CallSpec => ({
  model: 'gpt-3.5-turbo',
  prompt: 'Translate: Hello world',
  in: 10,
  out: 5,
  cost: 0.00002,
  output: 'Hola mundo',
  t,
  ...extra,
});
const gpt4 = (t: number, extra: Partial<CallSpec> = {}): CallSpec => ({
  ...cheap(t),
  model: 'gpt-4',
  cost: 0.00039,
  ...extra,
});

testDetector(fallbackFailure, {
  valid: [
    { name: 'expensive first, then cheap (wrong order)', trace: calls([gpt4(0), cheap(30)]) },
    { name: 'fallback 301 s later (just over time_window_seconds 300)', trace: calls([cheap(0), gpt4(301)]) },
    {
      name: 'the cheap call failed: the fallback was needed',
      trace: calls([cheap(0, { error: 'rate limited' }), gpt4(30)]),
    },
    { name: 'different prompts', trace: calls([cheap(0), gpt4(30, { prompt: 'Translate: Good night' })]) },
    {
      name: 'gpt-4o is cheap by the table (blend $4.375 < $5): cheap → cheap',
      trace: calls([cheap(0), gpt4(30, { model: 'gpt-4o' })]),
    },
    {
      name: 'empty_output_is_failure: an empty cheap answer justified the fallback',
      trace: calls([cheap(0, { output: '', out: 0 }), gpt4(2)]),
      config: { empty_output_is_failure: true },
    },
    {
      name: 'a model the price table does not know is never tiered',
      trace: calls([cheap(0), gpt4(30, { model: 'my-local-llm' })]),
    },
    {
      name: 'cheap_models override: gpt-4 treated as cheap',
      trace: calls([cheap(0), gpt4(30)]),
      config: { cheap_models: ['gpt-4'] },
    },
  ],
  invalid: [
    {
      name: "the reference's example: gpt-3.5-turbo answered, gpt-4 called 30 s later",
      trace: calls([cheap(0), gpt4(30)]),
      signals: [
        {
          steps: [1, 2],
          severity: 'medium',
          confidence: 0.85,
          message:
            'gpt-4 called 30 s after gpt-3.5-turbo answered the same prompt (steps 1–2): unnecessary fallback, $0.00039 wasted',
          wasteUsd: 0.00039,
          wasteTokens: 15,
        },
      ],
    },
    {
      name: 'exactly 300 s apart counts (at the threshold)',
      trace: calls([cheap(0), gpt4(300)]),
      signals: [{ steps: [1, 2], wasteUsd: 0.00039 }],
    },
    {
      name: 'priced from the table: gpt-4 28 in + 65 out = $0.00474 (medium)',
      trace: calls([cheap(0, { cost: undefined }), gpt4(5, { cost: undefined, in: 28, out: 65 })]),
      signals: [{ wasteUsd: 0.00474, wasteTokens: 93, severity: 'medium' }],
    },
    {
      name: 'waste above $0.01 is high: gpt-4 12 in + 260 out = $0.01596',
      trace: calls([cheap(0, { cost: undefined }), gpt4(5, { cost: undefined, in: 12, out: 260 })]),
      signals: [{ wasteUsd: 0.01596, wasteTokens: 272, severity: 'high' }],
    },
    {
      name: 'an empty cheap answer without an error: still found with its waste, but in the gray zone for review',
      trace: calls([cheap(0, { output: '', out: 0 }), gpt4(2, { cost: 0.00525, in: 25, out: 150 })]),
      signals: [
        {
          wasteUsd: 0.00525,
          wasteTokens: 175,
          confidence: 0.5,
          message: "gpt-3.5-turbo's answer was empty, so the fallback may have been needed",
        },
      ],
    },
    {
      name: 'Anthropic tiers from the table: claude-3-haiku → claude-3-opus (350 in + 125 out = $0.014625)',
      trace: calls([
        cheap(0, { model: 'claude-3-haiku-20240307', cost: undefined }),
        gpt4(3, { model: 'claude-3-opus-20240229', cost: undefined, in: 350, out: 125 }),
      ]),
      signals: [{ wasteUsd: 0.014625, wasteTokens: 475, severity: 'high' }],
    },
    {
      name: 'expensive_models override: gpt-4o-mini → gpt-4o',
      trace: calls([cheap(0, { model: 'gpt-4o-mini' }), gpt4(3, { model: 'gpt-4o', cost: 0.0001 })]),
      config: { expensive_models: ['gpt-4o'] },
      signals: [{ wasteUsd: 0.0001 }],
    },
    {
      name: 'lower expensive_min_usd_per_1m: gpt-4o becomes expensive at $4',
      trace: calls([cheap(0), gpt4(3, { model: 'gpt-4o', cost: 0.0001 })]),
      config: { expensive_min_usd_per_1m: 4 },
      signals: [{ wasteUsd: 0.0001 }],
    },
    {
      name: 'two fallbacks in one trace',
      trace: calls([
        cheap(0),
        gpt4(5),
        cheap(60, { prompt: 'Translate: Bye' }),
        gpt4(70, { prompt: 'Translate: Bye' }),
      ]),
      signals: [{ steps: [1, 2] }, { steps: [3, 4] }],
    },
  ],
});
