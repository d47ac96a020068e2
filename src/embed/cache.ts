/**
 * Embeddings cached by SHA-256 of (embedder name, model, text): an in-memory LRU in front of an
 * append-only `<stateDir>/embeddings.jsonl`, read on the first lookup (only its newest `max`
 * entries are kept in memory). A second run over the same traces makes no HTTP call.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Embedder } from './embedder.js';

export const EMBEDDINGS_CACHE_FILE = 'embeddings.jsonl';
export const DEFAULT_CACHE_ENTRIES = 10_000;

export function embeddingKey(name: string, model: string, text: string): string {
  return createHash('sha256')
    .update(JSON.stringify([name, model, text]))
    .digest('hex');
}

export interface EmbeddingCache {
  get(key: string): number[] | undefined;
  set(key: string, vector: number[]): void;
  /** Entries in memory. */
  size(): number;
}

export interface EmbeddingCacheOptions {
  /** Where embeddings.jsonl lives; in memory only when absent. */
  stateDir?: string;
  max?: number;
}

export function createEmbeddingCache(options: EmbeddingCacheOptions = {}): EmbeddingCache {
  const max = options.max ?? DEFAULT_CACHE_ENTRIES;
  const file = options.stateDir ? path.join(options.stateDir, EMBEDDINGS_CACHE_FILE) : undefined;
  // A Map keeps insertion order: re-inserting on a hit makes the first key the least recently used.
  const lru = new Map<string, number[]>();
  let loaded = false;

  const remember = (key: string, vector: number[]) => {
    lru.delete(key);
    lru.set(key, vector);
    if (lru.size > max) lru.delete(lru.keys().next().value!);
  };

  const load = () => {
    if (loaded) return;
    loaded = true;
    if (!file || !existsSync(file)) return;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return;
    }
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const e = JSON.parse(line) as { k?: unknown; v?: unknown };
        if (typeof e.k === 'string' && Array.isArray(e.v) && e.v.every((x) => typeof x === 'number'))
          remember(e.k, e.v as number[]);
      } catch {
        // A line cut by a crash: skip it, the rest still count.
      }
    }
  };

  return {
    get(key) {
      load();
      const v = lru.get(key);
      if (v) remember(key, v);
      return v;
    },
    set(key, vector) {
      load();
      remember(key, vector);
      if (!file) return;
      try {
        mkdirSync(path.dirname(file), { recursive: true });
        appendFileSync(file, `${JSON.stringify({ k: key, v: vector })}\n`);
      } catch {
        // A read-only state dir costs a second call next run, not this run.
      }
    },
    size: () => lru.size,
  };
}

/** The embedder with a cache in front: only texts never seen before are sent, once each. */
export function withCache(embedder: Embedder, cache: EmbeddingCache): Embedder {
  const model = embedder.model ?? '';
  return {
    ...embedder,
    async embed(texts) {
      const keys = texts.map((t) => embeddingKey(embedder.name, model, t));
      const out: (number[] | undefined)[] = keys.map((k) => cache.get(k));
      const missing = new Map<string, number>();
      texts.forEach((t, i) => {
        if (!out[i] && !missing.has(t)) missing.set(t, i);
      });
      const fresh = new Map<string, number[]>();
      if (missing.size > 0) {
        const vectors = await embedder.embed([...missing.keys()]);
        [...missing.entries()].forEach(([text, i], j) => {
          fresh.set(text, vectors[j]!);
          cache.set(keys[i]!, vectors[j]!);
        });
      }
      return texts.map((t, i) => out[i] ?? fresh.get(t)!);
    },
  };
}
