/**
 * "Did you mean …?" for model names in config and on the command line: the model ids of the price
 * table's main providers (openrouter's hundreds of aliases left out, they would suggest odd names),
 * and the names priced under `prices:`.
 */
import { findProvider } from '@pydantic/genai-prices';
import { nearest } from '../util/nearest.js';

const PROVIDERS = ['openai', 'anthropic', 'google', 'mistral', 'groq', 'deepseek', 'x-ai', 'cohere'];

let known: string[] | undefined;

/** Model ids the price table knows for the main providers (read once). */
export function knownModelIds(): readonly string[] {
  if (known) return known;
  const ids = new Set<string>();
  for (const providerId of PROVIDERS) {
    try {
      for (const m of findProvider({ providerId })?.models ?? []) ids.add(m.id);
    } catch {
      // A provider the table no longer has: its names are simply not suggested.
    }
  }
  known = [...ids];
  return known;
}

/** The nearest known model name to `name`, or undefined when none is close enough to be a typo. */
export function nearestModel(name: string, priced: readonly string[] = []): string | undefined {
  return nearest(name, [...priced, ...knownModelIds()]);
}
