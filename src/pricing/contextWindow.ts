/**
 * Context window size per model, from the same maintained table as prices (@pydantic/genai-prices:
 * `calcPrice(...).model.context_window`), with per-model overrides from config for custom or
 * self-hosted models.
 *
 * A table lookup costs tens of microseconds, so results (including "unknown") are cached per
 * (provider, model) for the life of the process: the table is static data bundled in the package.
 */
import { priceTableProviderId } from './pricer.js';
import { calcPrice } from '@pydantic/genai-prices';
import { z } from 'zod';

export const ContextWindowOverridesSchema = z
  .record(z.string(), z.number().int().positive())
  .describe('Context window in tokens per model id (case-insensitive), overriding the price table');
export type ContextWindowOverrides = z.infer<typeof ContextWindowOverridesSchema>;

const tableCache = new Map<string, number | null>();

function lookupTable(model: string, provider: string | undefined): number | undefined {
  const attempt = (providerId: string | undefined): number | undefined => {
    try {
      const r = calcPrice(
        { input_tokens: 1, output_tokens: 1 },
        model,
        providerId ? { providerId } : undefined,
      );
      const w = r?.model.context_window;
      return typeof w === 'number' && w > 0 ? w : undefined;
    } catch {
      return undefined;
    }
  };
  const providerId = priceTableProviderId(provider);
  // A provider name the table does not know must not stop the model-name match.
  return attempt(providerId) ?? (providerId ? attempt(undefined) : undefined);
}

/**
 * The model's context window in tokens, or undefined when neither config nor the table knows it.
 * Overrides match the model id case-insensitively.
 */
export function contextWindow(
  model: string,
  options: { provider?: string; overrides?: ContextWindowOverrides } = {},
): number | undefined {
  const { provider, overrides } = options;
  if (overrides) {
    const lower = model.toLowerCase();
    for (const [k, v] of Object.entries(overrides)) if (k.toLowerCase() === lower) return v;
  }
  const key = `${provider ?? ''}\u0000${model}`;
  let hit = tableCache.get(key);
  if (hit === undefined) {
    hit = lookupTable(model, provider) ?? null;
    tableCache.set(key, hit);
  }
  return hit ?? undefined;
}
