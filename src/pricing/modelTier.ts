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
import { findProvider } from '@pydantic/genai-prices';
import { z } from 'zod';
import { priceTableProviderId, type ModelRates, type Pricer, type TokenUsage } from './pricer.js';
import { own } from '../util/dict.js';

/** Default threshold on the blended price, USD per 1M tokens. */
export const DEFAULT_EXPENSIVE_MIN_USD_PER_1M = 5;

/**
 * The `cheap_alternative_model` setting that asks for a current cheap model of the call's own
 * provider (see `cheapAlternativeFor`) instead of one fixed model.
 */
export const AUTO_CHEAP_ALTERNATIVE = 'auto';

/**
 * Current cheap models per provider (price-table provider ids), most preferred first: each
 * provider's current small *non-reasoning* model. The reference suggested gpt-3.5-turbo, which
 * OpenAI has retired; a suggestion must name a model one can switch to today. Non-reasoning,
 * because the waste is priced on the same tokens, and a reasoning model (gpt-5-mini, o4-mini)
 * would spend hidden reasoning tokens on top. A test checks every entry is in the price table, not
 * marked deprecated there, and cheap at the default threshold; update this list when a provider
 * retires one (the table's `deprecated` flag also skips an entry at run time).
 */
export const CURRENT_CHEAP_MODELS: Readonly<Record<string, readonly string[]>> = {
  openai: ['gpt-4.1-mini', 'gpt-4o-mini'],
  anthropic: ['claude-haiku-4-5'],
  google: ['gemini-2.5-flash-lite', 'gemini-2.5-flash'],
};

/** The alternative when the call's provider cannot be told and has no cheap model of its own. */
export const DEFAULT_CHEAP_ALTERNATIVE_MODEL = 'gpt-4.1-mini';

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
  provider?: string,
): number | undefined {
  return pricer.quote(alternativeModel, usage, provider)?.usd;
}

export interface CheapAlternative {
  model: string;
  /** Price-table provider id to price it with, when known. */
  provider?: string;
}

/**
 * The provider whose cheap model to suggest for a call: the model family when its name says
 * (claude-* is Anthropic's even on Vertex or Bedrock, gemini-* Google's, gpt-* / o1… OpenAI's),
 * else the provider the price table priced it under, else the trace's provider.
 */
export function modelFamily(model: string, provider: string | undefined, pricer: Pricer): string | undefined {
  const bare = bareModel(model);
  if (bare.startsWith('claude')) return 'anthropic';
  if (bare.startsWith('gemini')) return 'google';
  if (/^(gpt-|o\d|chatgpt-)/.test(bare)) return 'openai';
  return pricer.rates(model, provider)?.provider ?? priceTableProviderId(provider);
}

/** Models of the table that are not chat/completion models, never suggested as an alternative. */
const NOT_CHAT =
  /embed|tts|transcri|whisper|audio|realtime|image|moderation|search|research|^ft:|computer-use/;

function deprecatedInTable(model: string, provider: string | undefined): boolean {
  if (!provider) return false;
  try {
    return findProvider({ providerId: provider })?.models.find((m) => m.id === model)?.deprecated === true;
  } catch {
    return false;
  }
}

const alternatives = new WeakMap<Pricer, Map<string, CheapAlternative | null>>();

/**
 * A current cheap model to suggest instead of an expensive call, from the price table:
 * 1. the first of CURRENT_CHEAP_MODELS[family] that the table (or a price override) prices, that
 *    the table does not mark deprecated and that is cheap at `expensive_min_usd_per_1m`;
 * 2. else the cheapest such chat model of the family's provider in the table (input and output
 *    priced above 0);
 * 3. else DEFAULT_CHEAP_ALTERNATIVE_MODEL, when it is priced and cheap; else undefined.
 */
export function cheapAlternativeFor(
  pricer: Pricer,
  model: string,
  provider: string | undefined,
  settings: Pick<ModelTierSettings, 'expensive_min_usd_per_1m'>,
): CheapAlternative | undefined {
  const family = modelFamily(model, provider, pricer);
  const key = `${family ?? ''}\u0000${settings.expensive_min_usd_per_1m}`;
  let byFamily = alternatives.get(pricer);
  if (!byFamily) {
    byFamily = new Map();
    alternatives.set(pricer, byFamily);
  }
  let hit = byFamily.get(key);
  if (hit === undefined) {
    hit = findAlternative(pricer, family, settings.expensive_min_usd_per_1m) ?? null;
    byFamily.set(key, hit);
  }
  return hit ?? undefined;
}

function findAlternative(
  pricer: Pricer,
  family: string | undefined,
  threshold: number,
): CheapAlternative | undefined {
  const usable = (id: string, providerId: string | undefined): ModelRates | undefined => {
    const r = pricer.rates(id, providerId);
    if (!r || r.inputPerToken <= 0 || r.outputPerToken <= 0) return undefined;
    if (blendedUsdPer1M(r) >= threshold || deprecatedInTable(r.model, r.provider)) return undefined;
    return r;
  };
  const pick = (id: string, providerId: string | undefined): CheapAlternative | undefined => {
    const r = usable(id, providerId);
    if (!r) return undefined;
    return providerId ? { model: id, provider: providerId } : { model: id };
  };
  for (const id of family ? (own(CURRENT_CHEAP_MODELS, family) ?? []) : []) {
    const found = pick(id, family);
    if (found) return found;
  }
  if (family) {
    let best: { id: string; blended: number } | undefined;
    let table: ReturnType<typeof findProvider>;
    try {
      table = findProvider({ providerId: family });
    } catch {
      table = undefined;
    }
    for (const m of table?.id === family ? table.models : []) {
      if (m.deprecated || NOT_CHAT.test(m.id)) continue;
      const r = usable(m.id, family);
      if (!r || r.model !== m.id) continue;
      const blended = blendedUsdPer1M(r);
      if (!best || blended < best.blended) best = { id: m.id, blended };
    }
    if (best) return { model: best.id, provider: family };
  }
  return pick(DEFAULT_CHEAP_ALTERNATIVE_MODEL, 'openai');
}
