/**
 * Token → USD through the maintained price table of @pydantic/genai-prices, with per-model
 * overrides from config for custom or self-hosted models.
 *
 * Looking a model up in the table costs tens of microseconds, far too much to do per step on a
 * multi-gigabyte input, so a model's rate card (its unit rates at every tier of the table) is
 * resolved once per (provider, model) and cached; each call is then priced at the tier its own
 * prompt falls in (the table's rule: a tier applies when the call's input tokens, cached ones
 * included, exceed its start), with cache reads and cache writes at their own rates. Only token
 * prices are read: per-request and per-search fees are not, since traces do not count searches.
 * The report says which models were priced from the table and which were unknown.
 */
import { calcPrice } from '@pydantic/genai-prices';
import { z } from 'zod';

export const ModelPriceOverrideSchema = z.strictObject({
  inputPer1M: z.number().nonnegative().describe('USD per million input tokens'),
  outputPer1M: z.number().nonnegative().describe('USD per million output tokens'),
  cachedInputPer1M: z
    .number()
    .nonnegative()
    .optional()
    .describe('USD per million input tokens read from the prompt cache (default: inputPer1M)'),
  cacheWritePer1M: z
    .number()
    .nonnegative()
    .optional()
    .describe('USD per million input tokens written to the prompt cache (default: inputPer1M)'),
});
export const PriceOverridesSchema = z
  .object({
    defaultModel: z
      .string()
      .min(1)
      .optional()
      .describe('The model to price calls whose model is not named ("unknown", as in τ-bench runs) as'),
  })
  .catchall(
    ModelPriceOverrideSchema.describe("A model's prices, under the model's name (e.g. acme-llm-70b)"),
  );
export type PriceOverrides = z.infer<typeof PriceOverridesSchema>;

/** USD per token of each kind of token, at one tier. */
export interface UnitRates {
  inputPerToken: number;
  outputPerToken: number;
  /** Input tokens read from the prompt cache. */
  cachedInputPerToken: number;
  /** Input tokens written to the prompt cache. */
  cacheWritePerToken: number;
}

/** A long-context tier: its rates apply to a call whose prompt has more than `aboveInputTokens` tokens. */
export interface RateTier extends UnitRates {
  aboveInputTokens: number;
}

/** A model's rate card: the base-tier rates, and the higher tiers when the table has any. */
export interface ModelRates extends UnitRates {
  /** The model id as the price table (or the override) names it. */
  model: string;
  provider?: string;
  /** Higher tiers by ascending start; absent when the model has one price whatever the prompt size. */
  tiers?: RateTier[];
  source: 'price-table' | 'config';
}

export interface TokenUsage {
  /** Every input token of the call, cached ones included. */
  inputTokens: number;
  outputTokens: number;
  /** The part of inputTokens read from the prompt cache. */
  cachedInputTokens?: number;
  /** The part of inputTokens written to the prompt cache. */
  cacheWriteInputTokens?: number;
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

/** A price of the table: USD per million, flat or by tier of the call's input tokens. */
type TablePrice = number | { base: number; tiers: readonly { start: number; price: number }[] } | undefined;

/** The price in force for a call whose input is just over `start` (the table's rule: a tier applies above its start). */
function priceAbove(price: TablePrice, start: number): number | undefined {
  if (price === undefined) return undefined;
  if (typeof price === 'number') return price;
  let p = price.base;
  for (const t of price.tiers) if (t.start <= start) p = t.price;
  return p;
}

/**
 * The unit rates of a table entry above `start` input tokens (-1: the base tier). A model without
 * a cache price charges cached tokens as input, as the table's own calculation does.
 */
function ratesAbove(prices: Record<string, TablePrice>, start: number): UnitRates {
  const input = priceAbove(prices.input_mtok, start) ?? 0;
  return {
    inputPerToken: input / MILLION,
    outputPerToken: (priceAbove(prices.output_mtok, start) ?? 0) / MILLION,
    cachedInputPerToken: (priceAbove(prices.cache_read_mtok, start) ?? input) / MILLION,
    cacheWritePerToken: (priceAbove(prices.cache_write_mtok, start) ?? input) / MILLION,
  };
}

/** The model's rate card from the table: base rates, and one tier per distinct tier start of its token prices. */
function rateCard(prices: Record<string, TablePrice>): Pick<ModelRates, keyof UnitRates | 'tiers'> {
  const starts = new Set<number>();
  for (const key of ['input_mtok', 'output_mtok', 'cache_read_mtok', 'cache_write_mtok']) {
    const p = prices[key];
    if (typeof p === 'object') for (const t of p.tiers) starts.add(t.start);
  }
  const tiers = [...starts]
    .sort((a, b) => a - b)
    .map((start) => ({ aboveInputTokens: start, ...ratesAbove(prices, start) }));
  return { ...ratesAbove(prices, -1), ...(tiers.length > 0 ? { tiers } : {}) };
}

function lookupTable(model: string, provider: string | undefined): ModelRates | undefined {
  const providerId = priceTableProviderId(provider);
  const attempt = (providerIdToUse: string | undefined): ModelRates | undefined => {
    try {
      const opts = providerIdToUse ? { providerId: providerIdToUse } : undefined;
      // One token finds the entry and the prices in force today; the rates are read off it.
      const found = calcPrice({ input_tokens: 1, output_tokens: 0 }, model, opts);
      if (!found) return undefined;
      return {
        model: found.model.id,
        provider: found.provider.id,
        ...rateCard(found.model_price as Record<string, TablePrice>),
        source: 'price-table' as const,
      };
    } catch {
      return undefined;
    }
  };
  // A provider name the table does not know must not stop the model-name match.
  return attempt(providerId) ?? (providerId ? attempt(undefined) : undefined);
}

/** The rates a call pays: those of the highest tier its input tokens (cached included) exceed. */
function ratesForPrompt(rates: ModelRates, inputTokens: number): UnitRates {
  let r: UnitRates = rates;
  for (const t of rates.tiers ?? []) if (inputTokens > t.aboveInputTokens) r = t;
  return r;
}

/**
 * USD of one call at `rates`: cache reads and cache writes at their rates (each capped at what the
 * input leaves), the rest of the input at the input rate, output at the output rate, all at the
 * tier of the call's own prompt size.
 */
function priceUsage(rates: ModelRates, usage: TokenUsage): number {
  const r = ratesForPrompt(rates, usage.inputTokens);
  const read = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  const write = Math.min(usage.cacheWriteInputTokens ?? 0, usage.inputTokens - read);
  return (
    (usage.inputTokens - read - write) * r.inputPerToken +
    read * r.cachedInputPerToken +
    write * r.cacheWritePerToken +
    usage.outputTokens * r.outputPerToken
  );
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
          cacheWritePerToken: (override.cacheWritePer1M ?? override.inputPer1M) / MILLION,
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
    return { usd: priceUsage(r, usage), source: r.source };
  }

  function cost(model: string, usage: TokenUsage, provider?: string): PricedCost | undefined {
    const priced = quote(model, usage, provider);
    if (!priced) unknown.set(model, (unknown.get(model) ?? 0) + 1);
    return priced;
  }

  return { rates, cost, quote, unknownModels: () => new Map(unknown) };
}
