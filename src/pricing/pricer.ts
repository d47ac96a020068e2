/**
 * Token → USD through the maintained price table of @pydantic/genai-prices, with per-model
 * overrides from config for custom or self-hosted models.
 *
 * Looking a model up in the table costs tens of microseconds, far too much to do per step on a
 * multi-gigabyte input, so unit rates are resolved once per (provider, model) and cached. Tiered
 * (long-context) prices are therefore priced at their base tier; the report says which models were
 * priced from the table and which were unknown.
 */
import { calcPrice } from '@pydantic/genai-prices';
import { z } from 'zod';

export const ModelPriceOverrideSchema = z.strictObject({
  inputPer1M: z.number().nonnegative().describe('USD per million input tokens'),
  outputPer1M: z.number().nonnegative().describe('USD per million output tokens'),
  cachedInputPer1M: z.number().nonnegative().optional().describe('USD per million cached input tokens'),
});
export const PriceOverridesSchema = z
  .object({
    defaultModel: z
      .string()
      .min(1)
      .optional()
      .describe('The model to price calls whose model is not named ("unknown", as in τ-bench runs) as'),
  })
  .catchall(ModelPriceOverrideSchema);
export type PriceOverrides = z.infer<typeof PriceOverridesSchema>;

export interface ModelRates {
  /** The model id as the price table (or the override) names it. */
  model: string;
  provider?: string;
  inputPerToken: number;
  outputPerToken: number;
  cachedInputPerToken: number;
  source: 'price-table' | 'config';
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
}

export interface PricedCost {
  usd: number;
  source: 'price-table' | 'config';
}

export interface Pricer {
  /** Unit rates for a model, or undefined when neither the table nor config knows it. */
  rates(model: string, provider?: string): ModelRates | undefined;
  /**
   * Cost of one LLM call of a trace, priced once when the trace is loaded: undefined (and the
   * model counted as unknown for that call) when it cannot be priced.
   */
  cost(model: string, usage: TokenUsage, provider?: string): PricedCost | undefined;
  /**
   * The same price, counting nothing: for detectors and judges that price calls again (or price
   * their own calls), so that `unknownModels` counts each LLM call of the input once.
   */
  quote(model: string, usage: TokenUsage, provider?: string): PricedCost | undefined;
  /** Models seen by cost() that could not be priced, with how many calls each. */
  unknownModels(): Map<string, number>;
}

const MILLION = 1_000_000;

/** Maps the provider names that traces use onto the price table's provider ids. */
export function priceTableProviderId(provider: string | undefined): string | undefined {
  if (!provider) return undefined;
  const p = provider.toLowerCase();
  if (p.includes('openai') || p === 'azure' || p === 'az.ai.openai') return 'openai';
  if (p.includes('anthropic') || p === 'claude') return 'anthropic';
  if (p.includes('gemini') || p.includes('google') || p.includes('vertex')) return 'google';
  if (p.includes('bedrock')) return 'aws';
  return p;
}

function lookupTable(model: string, provider: string | undefined): ModelRates | undefined {
  const providerId = priceTableProviderId(provider);
  const attempt = (providerIdToUse: string | undefined) => {
    try {
      const opts = providerIdToUse ? { providerId: providerIdToUse } : undefined;
      const input = calcPrice({ input_tokens: MILLION, output_tokens: 0 }, model, opts);
      if (!input) return undefined;
      const output = calcPrice({ input_tokens: 0, output_tokens: MILLION }, model, opts);
      const cached = calcPrice(
        { input_tokens: MILLION, cache_read_tokens: MILLION, output_tokens: 0 },
        model,
        opts,
      );
      return {
        model: input.model.id,
        provider: input.provider.id,
        inputPerToken: input.total_price / MILLION,
        outputPerToken: (output?.total_price ?? 0) / MILLION,
        cachedInputPerToken: (cached?.total_price ?? input.total_price) / MILLION,
        source: 'price-table' as const,
      };
    } catch {
      return undefined;
    }
  };
  // A provider name the table does not know must not stop the model-name match.
  return attempt(providerId) ?? (providerId ? attempt(undefined) : undefined);
}

/** A call whose recording names no model: an empty name, or the importers' "unknown". */
export function isUnnamedModel(model: string): boolean {
  const m = model.trim().toLowerCase();
  return m === '' || m === 'unknown';
}

export function createPricer(prices: PriceOverrides = {}): Pricer {
  const { defaultModel, ...rest } = prices;
  const overrides = rest as Record<string, z.infer<typeof ModelPriceOverrideSchema>>;
  const cache = new Map<string, ModelRates | null>();
  const unknown = new Map<string, number>();
  const overrideKeys = new Map(Object.keys(overrides).map((k) => [k.toLowerCase(), k]));

  function resolve(model: string, provider: string | undefined): ModelRates | null {
    const overrideKey = overrideKeys.get(model.toLowerCase());
    const override = overrideKey ? overrides[overrideKey] : undefined;
    return override
      ? {
          model,
          provider,
          inputPerToken: override.inputPer1M / MILLION,
          outputPerToken: override.outputPer1M / MILLION,
          cachedInputPerToken: (override.cachedInputPer1M ?? override.inputPer1M) / MILLION,
          source: 'config',
        }
      : (lookupTable(model, provider) ?? null);
  }

  function rates(model: string, provider?: string): ModelRates | undefined {
    const key = `${provider ?? ''}\u0000${model}`;
    let hit = cache.get(key);
    if (hit === undefined) {
      hit = resolve(model, provider);
      // Gateways name models with their provider in front (LiteLLM `openai/gpt-4o-mini`,
      // OpenRouter `anthropic/claude-3.5-sonnet`): the name after the last slash, with the segment
      // before it as the provider unless the trace gave one.
      const slash = model.lastIndexOf('/');
      if (hit === null && slash > 0 && slash < model.length - 1) {
        const prefix = model.slice(0, slash).split('/').pop();
        hit = resolve(model.slice(slash + 1), provider ?? prefix);
      }
      cache.set(key, hit);
    }
    return hit ?? undefined;
  }

  function quote(model: string, usage: TokenUsage, provider?: string): PricedCost | undefined {
    // A call that names no model is priced as the configured default model, when there is one.
    const r =
      defaultModel !== undefined && isUnnamedModel(model) ? rates(defaultModel) : rates(model, provider);
    if (!r) return undefined;
    const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
    const usd =
      (usage.inputTokens - cached) * r.inputPerToken +
      cached * r.cachedInputPerToken +
      usage.outputTokens * r.outputPerToken;
    return { usd, source: r.source };
  }

  function cost(model: string, usage: TokenUsage, provider?: string): PricedCost | undefined {
    const priced = quote(model, usage, provider);
    if (!priced) unknown.set(model, (unknown.get(model) ?? 0) + 1);
    return priced;
  }

  return { rates, cost, quote, unknownModels: () => new Map(unknown) };
}
