/**
 * Tier 3's view of an embedding model: texts in, one vector per text out (same order). `offline`
 * embedders cost nothing and need no network (the lexical one); the others report what they spent.
 */
export interface Embedder {
  /** Named in the report's evidence and notes (`openai-compatible:text-embedding-3-small`). */
  name: string;
  offline: boolean;
  embed(texts: string[]): Promise<number[][]>;
  /** The model the vectors come from (part of the cache key; priced when the price table knows it). */
  model?: string;
  /** Tokens the provider reported and calls made so far (absent for offline embedders). */
  usage?(): { tokens: number; calls: number };
}

/** Cosine similarity; 0 when either vector is all zeros or the lengths differ. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  if (na === 0 || nb === 0) return 0;
  return dot / Math.sqrt(na * nb);
}
