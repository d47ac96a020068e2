/**
 * Cheap vs expensive models, decided from the price table rather than from a hard-coded list.
 *
 * Rule: a model is `expensive` when its blended price — (3 × input + 1 × output) / 4 USD per 1M
 * tokens, the usual 3:1 prompt-heavy blend — is at least `expensive_min_usd_per_1m` (default $5),
 * and `cheap` otherwise. Rates come from `ctx.pricer.rates()` (the maintained @pydantic/genai-prices
 * table, or a price override from config). A model neither table nor config knows is `unknown`
 * and is never called cheap or expensive, so no waste detector charges it.
 *
 * With the default $5 threshold and today's table this reproduces the reference's lists for every
 * model the table knows: expensive = gpt-4 (blend $37.50), gpt-4-32k ($75), gpt-4-turbo ($15),
 * claude-3-opus ($30), claude-3-sonnet ($6), claude-2 / 2.1 ($12); cheap = gpt-3.5-turbo ($0.75),
 * gpt-3.5-turbo-16k ($3.25), claude-3-haiku ($0.50). Mid-priced current models fall on the cheap
 * side (gpt-4o $4.375, gpt-4.1 and o3 $3.50, gpt-5 $3.44, gemini-2.5-pro $4.375), claude-3.5/4
 * Sonnet ($6) and o1 ($26.25) on the expensive side.
 *
 * Overrides win over the price rule: `expensive_models` / `cheap_models` list model names matched
 * case-insensitively, exactly or as a dated/numbered version (`gpt-4` matches `gpt-4-0613` and
 * `gpt-4-32k` but not `gpt-4o` or `gpt-4-turbo`; `gpt-4o` does not match `gpt-4o-mini`); a
 * trailing `*` makes an entry a plain prefix (`claude-3-opus*`). A provider prefix on the
 * step's model (`openai/gpt-4`) is ignored for matching. `expensive_models` wins if a name is in both.
 */
import { z } from 'zod';
import type { ModelRates, Pricer, TokenUsage } from './pricer.js';

/** Default threshold on the blended price, USD per 1M tokens. */
export const DEFAULT_EXPENSIVE_MIN_USD_PER_1M = 5;

/**
 * Default "cheaper alternative" for OverkillModel. gpt-3.5-turbo is the model the reference
 * suggests for every expensive OpenAI model and the one its worked example prices ("gpt-3.5-turbo
 * would cost $0.00002"); with the table's $0.50 / $1.50 rates its cost for the example's 8 + 5
 * tokens is $0.0000115, so the example's waste comes out at $0.0003785 ≈ the reference's $0.00037.
 */
export const DEFAULT_CHEAP_ALTERNATIVE_MODEL = 'gpt-3.5-turbo';

/** zod fields every detector that needs model tiers spreads into its own config object. */
export const modelTierConfigShape = {
  expensive_min_usd_per_1m: z
    .number()
    .nonnegative()
    .default(DEFAULT_EXPENSIVE_MIN_USD_PER_1M)
    .describe('A model is expensive when (3 × input + output) / 4 USD per 1M tokens is at least this'),
  expensive_models: z
    .array(z.string())
    .default([])
    .describe('Models always treated as expensive, whatever the price table says'),
  cheap_models: z.array(z.string()).default([]).describe('Models always treated as cheap'),
};

export interface ModelTierSettings {
  expensive_min_usd_per_1m: number;
  expensive_models: readonly string[];
  cheap_models: readonly string[];
}

export type ModelTier = 'cheap' | 'expensive' | 'unknown';

export interface ModelTierResult {
  tier: ModelTier;
  /** Blended USD per 1M tokens, when the model could be priced. */
  blendedUsdPer1M?: number;
  /** What decided the tier. */
  source: 'config-list' | 'price-table' | 'price-override' | 'unknown';
}

const MILLION = 1_000_000;

/** (3 × input + output) / 4, in USD per 1M tokens. */
export function blendedUsdPer1M(rates: ModelRates): number {
  return ((3 * rates.inputPerToken + rates.outputPerToken) / 4) * MILLION;
}

function bareModel(model: string): string {
  const m = model.trim().toLowerCase();
  const slash = m.lastIndexOf('/');
  return slash >= 0 ? m.slice(slash + 1) : m;
}

/** A dated or numbered version (`-0613`, `-20240229`, `-2024-08-06`), `-latest`, or `@…`. */
const VERSION_SUFFIX = /^(-\d[\w.-]*|-latest|@.*)$/;

/** True when `model` is named by one of `entries` (exact, versioned `entry-…`, or `prefix*`). */
export function modelListed(model: string, entries: readonly string[]): boolean {
  const full = model.trim().toLowerCase();
  const bare = bareModel(model);
  return entries.some((raw) => {
    const e = raw.trim().toLowerCase();
    if (e === '') return false;
    if (e.endsWith('*')) {
      const prefix = e.slice(0, -1);
      return full.startsWith(prefix) || bare.startsWith(prefix);
    }
    return [full, bare].some((m) => m === e || (m.startsWith(e) && VERSION_SUFFIX.test(m.slice(e.length))));
  });
}

export function classifyModel(
  model: string,
  provider: string | undefined,
  pricer: Pricer,
  settings: ModelTierSettings,
): ModelTierResult {
  const rates = pricer.rates(model, provider);
  const blended = rates ? blendedUsdPer1M(rates) : undefined;
  const withBlend = (r: Omit<ModelTierResult, 'blendedUsdPer1M'>): ModelTierResult =>
    blended === undefined ? r : { ...r, blendedUsdPer1M: blended };
  if (modelListed(model, settings.expensive_models))
    return withBlend({ tier: 'expensive', source: 'config-list' });
  if (modelListed(model, settings.cheap_models)) return withBlend({ tier: 'cheap', source: 'config-list' });
  if (!rates || blended === undefined) return { tier: 'unknown', source: 'unknown' };
  return {
    tier: blended >= settings.expensive_min_usd_per_1m ? 'expensive' : 'cheap',
    blendedUsdPer1M: blended,
    source: rates.source === 'config' ? 'price-override' : 'price-table',
  };
}

type TierClassifier = (model: string, provider?: string) => ModelTierResult;

/** Distinct (provider, model) pairs one classifier remembers; past that it classifies afresh. */
const MAX_CACHED_MODELS = 4096;

// Detectors ask for a classifier on every trace with the same pricer and settings objects (the
// runner resolves settings once per agent), so classifiers, and what they learnt, are kept per pair.
const classifiers = new WeakMap<Pricer, WeakMap<ModelTierSettings, TierClassifier>>();

/**
 * A classifier with its lookups cached, shared by every call with the same pricer and settings
 * objects (both are treated as immutable).
 */
export function tierClassifier(pricer: Pricer, settings: ModelTierSettings): TierClassifier {
  let bySettings = classifiers.get(pricer);
  if (!bySettings) {
    bySettings = new WeakMap();
    classifiers.set(pricer, bySettings);
  }
  let classifier = bySettings.get(settings);
  if (!classifier) {
    classifier = createTierClassifier(pricer, settings);
    bySettings.set(settings, classifier);
  }
  return classifier;
}

function createTierClassifier(pricer: Pricer, settings: ModelTierSettings): TierClassifier {
  const byProvider = new Map<string | undefined, Map<string, ModelTierResult>>();
  let size = 0;
  return (model, provider) => {
    let byModel = byProvider.get(provider);
    let hit = byModel?.get(model);
    if (!hit) {
      hit = classifyModel(model, provider, pricer, settings);
      if (size < MAX_CACHED_MODELS) {
        if (!byModel) {
          byModel = new Map();
          byProvider.set(provider, byModel);
        }
        byModel.set(model, hit);
        size++;
      }
    }
    return hit;
  };
}

/**
 * What the same tokens would have cost on the cheaper alternative model (priced from the table or
 * a config override), or undefined when that model cannot be priced.
 */
export function cheapAlternativeCost(
  pricer: Pricer,
  alternativeModel: string,
  usage: TokenUsage,
): number | undefined {
  const rates = pricer.rates(alternativeModel);
  if (!rates) return undefined;
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  return (
    (usage.inputTokens - cached) * rates.inputPerToken +
    cached * rates.cachedInputPerToken +
    usage.outputTokens * rates.outputPerToken
  );
}
