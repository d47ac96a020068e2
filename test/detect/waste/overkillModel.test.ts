import { overkillModel } from '../../../src/detect/detectors/waste/overkillModel.js';
import { testDetector } from '../tester.js';
import { calls, type CallSpec } from './fixtures.js';

const simple = (extra: Partial<CallSpec> = {}): CallSpec => ({
  model: 'gpt-4',
  prompt: 'What is 2+2?',
  in: 8,
  out: 5,
  cost: 0.00039,
  t: 0,
  ...extra,
});
const words = (n: number) => Array.from({ length: n }, () => 'word').join(' ');

testDetector(overkillModel, {
  valid: [
    // The reference: "Short prompts (<20 tokens)", strict like its "<150 characters".
    { name: '20 prompt tokens (at max_prompt_tokens 20, not under)', trace: calls([simple({ in: 20 })]) },
    { name: '21 prompt tokens (over max_prompt_tokens 20)', trace: calls([simple({ in: 21 })]) },
    {
      name: 'prompt of exactly 150 chars (not under max_prompt_chars 150)',
      trace: calls([simple({ prompt: 'x'.repeat(150) })]),
    },
    { name: 'cheap model', trace: calls([simple({ model: 'gpt-3.5-turbo', cost: 0.00002 })]) },
    { name: 'the call failed', trace: calls([simple({ error: 'timeout' })]) },
    { name: 'structured prompt (code fence)', trace: calls([simple({ prompt: 'Fix: ```x=1```' })]) },
    {
      name: 'no recorded tokens: 27 words ≈ 20 tokens (at the threshold)',
      trace: calls([simple({ prompt: words(27), in: 0, cost: undefined })]),
    },
    {
      // Nothing says the prompt is short: no recorded tokens and no prompt text to estimate from.
      name: 'no recorded prompt tokens and no prompt text',
      trace: calls([simple({ prompt: undefined, in: 0 })]),
    },
    { name: 'cheap_models override', trace: calls([simple()]), config: { cheap_models: ['gpt-4'] } },
    {
      name: 'gpt-4o is cheap by the table at the default $5 threshold',
      trace: calls([simple({ model: 'gpt-4o' })]),
    },
  ],
  invalid: [
    {
      // The reference prices its alternative on gpt-3.5-turbo, which OpenAI has retired; the default
      // is now a current cheap OpenAI model from the table: gpt-4.1-mini, $0.40 / $1.60 per 1M.
      name: "the reference's example: gpt-4 for 'What is 2+2?' ($0.00039 − $0.0000112 on gpt-4.1-mini)",
      trace: calls([simple()]),
      signals: [
        {
          steps: [1],
          severity: 'medium',
          confidence: 0.8,
          message:
            'gpt-4 used for a short prompt of 8 tokens, 12 characters (step 1): $0.00039 vs $0.0000112 on gpt-4.1-mini (34.8×), $0.000379 wasted',
          wasteUsd: 0.0003788,
          wasteTokens: 13,
        },
      ],
    },
    {
      name: '19 prompt tokens and 149 chars (just under both thresholds)',
      trace: calls([simple({ in: 19, prompt: 'x'.repeat(149), cost: 0.0009 })]),
      signals: [{ wasteUsd: 0.0009 - (19 * 0.4 + 5 * 1.6) / 1e6, wasteTokens: 24 }],
    },
    {
      name: 'priced from the table when no cost is recorded: $0.00054 − $0.0000112',
      trace: calls([simple({ cost: undefined })]),
      signals: [{ wasteUsd: 0.0005288, wasteTokens: 13 }],
    },
    {
      // Both sides priced from the same estimate: gpt-4 $30/$60, gpt-4.1-mini $0.40/$1.60 per 1M.
      name: 'no recorded prompt tokens: 26 words ≈ 19 tokens (under), both sides priced with 19',
      trace: calls([simple({ prompt: words(26), in: 0, cost: undefined })]),
      signals: [
        {
          wasteUsd: (19 * 30 + 5 * 60 - (19 * 0.4 + 5 * 1.6)) / 1e6,
          wasteTokens: 24,
          message: '~19 tokens, 129 characters (step',
        },
      ],
    },
    {
      // A recorded cost and no usage at all (t2.jsonl overkill_nousage): the alternative was priced
      // at 0 tokens, so the whole $0.00039 was charged. Now: 'What is 2+2?' ≈ 2 tokens,
      // '2+2 equals 4' ≈ 2 tokens, alternative 2 × $0.40 + 2 × $1.60 per 1M = $0.000004.
      name: 'recorded cost, no usage: the alternative is priced from the estimated tokens',
      trace: calls([simple({ in: 0, out: 0, output: '2+2 equals 4' })]),
      signals: [
        {
          wasteUsd: 0.00039 - 0.000004,
          wasteTokens: 4,
          message: '~2 tokens, 12 characters (step 1): $0.00039 vs $0.000004 on gpt-4.1-mini',
        },
      ],
    },
    {
      name: 'cheap_alternative_model gpt-4o-mini ($0.15/$0.60): $0.00039 − $0.0000042',
      trace: calls([simple()]),
      config: { cheap_alternative_model: 'gpt-4o-mini' },
      signals: [{ wasteUsd: 0.0003858 }],
    },
    {
      name: 'every call is reported: two short gpt-4 calls in one trace',
      trace: calls([
        simple(),
        simple({ prompt: 'What is the capital of France?', in: 10, out: 8, cost: 0.00054, t: 5 }),
      ]),
      signals: [
        { steps: [1], wasteUsd: 0.0003788 },
        { steps: [2], wasteUsd: 0.00054 - (10 * 0.4 + 8 * 1.6) / 1e6, wasteTokens: 18 },
      ],
    },
    {
      name: 'expensive_models override: gpt-4o',
      trace: calls([simple({ model: 'gpt-4o', cost: 0.0001 })]),
      config: { expensive_models: ['gpt-4o'] },
      signals: [{ wasteUsd: 0.0001 - 0.0000112 }],
    },
    {
      // An explicit setting still wins over the provider's current cheap model.
      name: 'cheap_alternative_model gpt-3.5-turbo, set explicitly: $0.00039 − $0.0000115',
      trace: calls([simple()]),
      config: { cheap_alternative_model: 'gpt-3.5-turbo' },
      signals: [{ wasteUsd: 0.0003785, message: 'on gpt-3.5-turbo (33.9×)' }],
    },
    {
      // Anthropic's current cheap model for an expensive Anthropic one: claude-haiku-4-5, $1 / $5
      // per 1M; claude-3-opus $15 / $75: 8 × 15 + 5 × 75 = $0.000495 − (8 × 1 + 5 × 5) = $0.000462.
      name: 'claude-3-opus: compared with claude-haiku-4-5, not an OpenAI model',
      trace: calls([simple({ model: 'claude-3-opus-20240229', provider: 'anthropic', cost: undefined })]),
      signals: [
        {
          wasteUsd: (8 * 15 + 5 * 75 - (8 * 1 + 5 * 5)) / 1e6,
          message: 'vs $0.000033 on claude-haiku-4-5',
        },
      ],
    },
    {
      // The family comes from the name: a Claude model served through Vertex is still Anthropic's.
      name: 'claude-3-opus on Vertex (provider google): still claude-haiku-4-5',
      trace: calls([simple({ model: 'claude-3-opus', provider: 'vertex_ai', cost: undefined })]),
      signals: [{ message: 'on claude-haiku-4-5' }],
    },
    {
      name: 'waste above $0.10 is high',
      trace: calls([simple({ cost: 0.2 })]),
      signals: [{ severity: 'high' }],
    },
  ],
});
