/**
 * The judge-call cache key and an in-memory LRU. The key is SHA-256 over (provider, model, prompt,
 * options actually sent), so a change to any of them, including capability gating dropping an
 * option, is a different entry.
 */
import { createHash } from 'node:crypto';

/** JSON with object keys sorted, so equal values always hash equally. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}

export function judgeCacheKey(parts: {
  provider: string;
  model: string;
  prompt: { system: string; user: string };
  options: Record<string, unknown>;
}): string {
  return createHash('sha256')
    .update(
      stableStringify({
        provider: parts.provider,
        model: parts.model,
        prompt: { system: parts.prompt.system, user: parts.prompt.user },
        options: parts.options,
      }),
    )
    .digest('hex');
}

/** Least-recently-used map: a Map keeps insertion order, so re-inserting on read moves to the end. */
export class LruCache<V> {
  private readonly map = new Map<string, V>();
  constructor(readonly maxEntries = 1000) {}

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.maxEntries) this.map.delete(this.map.keys().next().value as string);
  }

  get size(): number {
    return this.map.size;
  }

  clear(): void {
    this.map.clear();
  }
}
