/**
 * A deterministic offline embedder: hashed character 3-grams and word unigrams (lower-cased) into
 * a fixed number of dimensions, L2-normalised. Texts that share words and fragments score high,
 * unrelated texts near 0. No model, no network, no cost: tier 3 uses it when no `embeddings:`
 * endpoint is configured, and the report says so.
 */
import type { Embedder } from './embedder.js';

export const LEXICAL_EMBEDDER_NAME = 'offline-lexical';
export const LEXICAL_DIMENSIONS = 512;

/** FNV-1a, 32 bits: stable across runs and platforms. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function lexicalVector(text: string, dimensions = LEXICAL_DIMENSIONS): number[] {
  const v = new Array<number>(dimensions).fill(0);
  const lower = text.toLowerCase();
  const add = (feature: string, weight: number) => {
    const h = fnv1a(feature);
    // One bit of the hash picks the sign, so collisions cancel rather than pile up.
    v[h % dimensions]! += (h & 0x80000000 ? -1 : 1) * weight;
  };
  for (const word of lower.match(/[\p{L}\p{N}_]+/gu) ?? []) add(`w:${word}`, 1);
  const squeezed = ` ${lower.replace(/\s+/g, ' ').trim()} `;
  for (let i = 0; i + 3 <= squeezed.length; i++) add(`c:${squeezed.slice(i, i + 3)}`, 0.5);
  let norm = 0;
  for (const x of v) norm += x * x;
  if (norm === 0) return v;
  const inv = 1 / Math.sqrt(norm);
  return v.map((x) => x * inv);
}

export function createLexicalEmbedder(dimensions = LEXICAL_DIMENSIONS): Embedder {
  return {
    name: LEXICAL_EMBEDDER_NAME,
    offline: true,
    model: `lexical-${dimensions}`,
    embed: (texts) => Promise.resolve(texts.map((t) => lexicalVector(t, dimensions))),
  };
}
