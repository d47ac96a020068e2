import { findProvider } from '@pydantic/genai-prices';
import { describe, expect, it } from 'vitest';
import {
  cheapAlternativeCost,
  cheapAlternativeFor,
  classifyModel,
  CURRENT_CHEAP_MODELS,
  DEFAULT_CHEAP_ALTERNATIVE_MODEL,
  DEFAULT_EXPENSIVE_MIN_USD_PER_1M,
  modelFamily,
  modelListed,
  type ModelTierSettings,
} from '../../../src/pricing/modelTier.js';
import { createPricer } from '../../../src/pricing/pricer.js';

const defaults: ModelTierSettings = {
  expensive_min_usd_per_1m: DEFAULT_EXPENSIVE_MIN_USD_PER_1M,
  expensive_models: [],
  cheap_models: [],
};
const pricer = createPricer();
const tier = (model: string, s: Partial<ModelTierSettings> = {}) =>
  classifyModel(model, undefined, pricer, { ...defaults, ...s });

describe('model tiers from the price table', () => {
  it.each(['gpt-4', 'gpt-4-32k', 'gpt-4-turbo', 'claude-3-opus-20240229', 'claude-3-sonnet', 'claude-2.1'])(
    "%s is expensive (the reference's expensive list)",
    (m) => expect(tier(m)).toMatchObject({ tier: 'expensive', source: 'price-table' }),
  );
  it.each(['gpt-3.5-turbo', 'gpt-3.5-turbo-16k', 'claude-3-haiku-20240307', 'gpt-4o-mini', 'gpt-4o'])(
    '%s is cheap',
    (m) => expect(tier(m).tier).toBe('cheap'),
  );
  it('blends 3:1 input:output (gpt-4: (3×30 + 60) / 4 = $37.50 per 1M)', () => {
    expect(tier('gpt-4').blendedUsdPer1M).toBeCloseTo(37.5, 6);
  });
  it('threshold is inclusive: gpt-4o ($4.375) is expensive at 4.375, cheap just above', () => {
    expect(tier('gpt-4o', { expensive_min_usd_per_1m: 4.375 }).tier).toBe('expensive');
    expect(tier('gpt-4o', { expensive_min_usd_per_1m: 4.376 }).tier).toBe('cheap');
  });
  it('unknown models are neither', () =>
    expect(tier('my-local-llm')).toEqual({ tier: 'unknown', source: 'unknown' }));
  it('config lists win over the price rule; expensive wins over cheap', () => {
    expect(tier('gpt-4o-mini', { expensive_models: ['gpt-4o-mini'] })).toMatchObject({
      tier: 'expensive',
      source: 'config-list',
    });
    expect(tier('gpt-4', { cheap_models: ['gpt-4'] }).tier).toBe('cheap');
    expect(tier('my-local-llm', { expensive_models: ['my-local-llm'] }).tier).toBe('expensive');
    expect(tier('gpt-4', { cheap_models: ['gpt-4'], expensive_models: ['gpt-4'] }).tier).toBe('expensive');
  });
  it('price overrides from config are classified too', () => {
    const p = createPricer({ 'my-local-llm': { inputPer1M: 10, outputPer1M: 10 } });
    expect(classifyModel('my-local-llm', undefined, p, defaults)).toMatchObject({
      tier: 'expensive',
      source: 'price-override',
    });
  });
});

describe('modelListed', () => {
  it('matches exact names and dated/numbered versions, not sibling models', () => {
    expect(modelListed('GPT-4', ['gpt-4'])).toBe(true);
    expect(modelListed('gpt-4-0613', ['gpt-4'])).toBe(true);
    expect(modelListed('gpt-4-32k', ['gpt-4'])).toBe(true);
    expect(modelListed('openai/gpt-4', ['gpt-4'])).toBe(true);
    expect(modelListed('gpt-4o', ['gpt-4'])).toBe(false);
    expect(modelListed('gpt-4-turbo', ['gpt-4'])).toBe(false);
    expect(modelListed('gpt-4o-mini', ['gpt-4o'])).toBe(false);
    expect(modelListed('claude-3-opus-latest', ['claude-3-opus'])).toBe(true);
    expect(modelListed('claude-3-opus-20240229', ['claude-3-*'])).toBe(true);
  });
});

describe('cheapAlternativeCost', () => {
  it('prices the same tokens on the alternative (gpt-3.5-turbo $0.50/$1.50: 8 + 5 tokens = $0.0000115)', () => {
    expect(cheapAlternativeCost(pricer, 'gpt-3.5-turbo', { inputTokens: 8, outputTokens: 5 })).toBeCloseTo(
      0.0000115,
      12,
    );
  });
  it('undefined for a model nobody can price', () => {
    expect(cheapAlternativeCost(pricer, 'nope-model', { inputTokens: 8, outputTokens: 5 })).toBeUndefined();
  });
});

describe('cheap alternatives: current models from the price table', () => {
  const pricer = createPricer();
  const settings = { expensive_min_usd_per_1m: DEFAULT_EXPENSIVE_MIN_USD_PER_1M };
  const RETIRED = /gpt-3\.5|claude-2|claude-instant|claude-v1|text-davinci|claude-3-haiku/;

  it.each(Object.entries(CURRENT_CHEAP_MODELS).flatMap(([p, ms]) => ms.map((m) => [p, m] as const)))(
    '%s %s is in the table, priced, not marked deprecated and cheap',
    (provider, model) => {
      const entry = findProvider({ providerId: provider })?.models.find((m) => m.id === model);
      expect(entry).toBeDefined();
      expect(entry!.deprecated).not.toBe(true);
      const rates = pricer.rates(model, provider);
      expect(rates).toMatchObject({ model, provider, source: 'price-table' });
      expect(rates!.inputPerToken).toBeGreaterThan(0);
      expect(rates!.outputPerToken).toBeGreaterThan(0);
      expect(
        classifyModel(model, provider, pricer, { ...settings, expensive_models: [], cheap_models: [] }).tier,
      ).toBe('cheap');
      expect(model).not.toMatch(RETIRED);
    },
  );

  it.each([
    ['gpt-4', undefined, 'openai'],
    ['gpt-4-32k', 'openai', 'openai'],
    ['o1', 'openai', 'openai'],
    ['gpt-4-turbo', 'azure', 'openai'],
    ['claude-3-opus', undefined, 'anthropic'],
    ['claude-opus-4-1', 'anthropic', 'anthropic'],
    ['claude-3-opus', 'vertex_ai', 'anthropic'],
  ] as const)('%s (provider %s) gets a current cheap %s model', (model, provider, family) => {
    expect(
      classifyModel(model, provider, pricer, { ...settings, expensive_models: [], cheap_models: [] }).tier,
    ).toBe('expensive');
    const alt = cheapAlternativeFor(pricer, model, provider, settings);
    expect(alt).toEqual({ model: CURRENT_CHEAP_MODELS[family]![0], provider: family });
    expect(alt!.model).not.toMatch(RETIRED);
    expect(pricer.rates(alt!.model, alt!.provider)).toBeDefined();
  });

  it('gemini-3-pro-preview blends at its base tier ($4.50, cheap); listed as expensive it gets a current cheap google model', () => {
    // Its > 200k-token tier (input $4, output $18) is what long prompts pay, not the model's price.
    const priced = classifyModel('gemini-3-pro-preview', 'google', pricer, {
      ...settings,
      expensive_models: [],
      cheap_models: [],
    });
    expect(priced).toMatchObject({ tier: 'cheap', blendedUsdPer1M: 4.5 });
    const listed = { ...settings, expensive_models: ['gemini-3-pro-preview'], cheap_models: [] };
    expect(classifyModel('gemini-3-pro-preview', 'google', pricer, listed).tier).toBe('expensive');
    expect(cheapAlternativeFor(pricer, 'gemini-3-pro-preview', 'google', listed)).toEqual({
      model: CURRENT_CHEAP_MODELS.google![0],
      provider: 'google',
    });
  });

  it('a provider with no curated list gets its cheapest current chat model from the table', () => {
    const alt = cheapAlternativeFor(pricer, 'mistral-large-latest', 'mistral', settings);
    expect(alt?.provider).toBe('mistral');
    const rates = pricer.rates(alt!.model, 'mistral')!;
    expect(rates.inputPerToken).toBeGreaterThan(0);
    expect(
      findProvider({ providerId: 'mistral' })?.models.find((m) => m.id === alt!.model)?.deprecated,
    ).not.toBe(true);
  });

  it('a model priced only by config, with no provider, falls back to the default (a current OpenAI model)', () => {
    const custom = createPricer({ 'in-house-xl': { inputPer1M: 50, outputPer1M: 100 } });
    expect(cheapAlternativeFor(custom, 'in-house-xl', undefined, settings)).toEqual({
      model: DEFAULT_CHEAP_ALTERNATIVE_MODEL,
      provider: 'openai',
    });
    expect(DEFAULT_CHEAP_ALTERNATIVE_MODEL).toBe(CURRENT_CHEAP_MODELS.openai![0]);
  });

  it('the family comes from the model name first', () => {
    expect(modelFamily('anthropic/claude-3-opus', undefined, pricer)).toBe('anthropic');
    expect(modelFamily('gemini-2.5-pro', 'vertex', pricer)).toBe('google');
    expect(modelFamily('o3-pro', undefined, pricer)).toBe('openai');
  });
});
