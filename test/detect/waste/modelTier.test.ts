import { describe, expect, it } from 'vitest';
import {
  cheapAlternativeCost,
  classifyModel,
  DEFAULT_EXPENSIVE_MIN_USD_PER_1M,
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
