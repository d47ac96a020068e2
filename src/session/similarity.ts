/**
 * Cheap, deterministic text and sequence similarity for the per-trace session signals: a lexical
 * token-set cosine (coherence of a trace's input and output) and bottom-k sketches of a trace's
 * tool calls and output (repeats across the traces of a session). Embeddings come later: whatever
 * computes coherence takes a `Similarity` function, and this lexical one is only the default.
 */

/** Similarity of two texts in [0, 1]; undefined when there is too little text to say. */
export type Similarity = (a: string, b: string) => number | undefined;

/** Characters of each text that are read: enough to say what it is about, bounded per trace. */
export const MAX_TEXT_CHARS = 8_000;
/** Distinct content words each side needs before the lexical similarity says anything. */
export const MIN_CONTENT_TOKENS = 3;

/** Function words that make unrelated English texts look alike. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have he her his how i if in ' +
    'into is it its me my no not of on or our please she so than that the their them then there these they ' +
    'this to us was we were what when where which who why will with would you your'
  ).split(' '),
);

/** Lower-cased words and numbers of a text (letters of any script), without function words. */
export function contentTokens(text: string): string[] {
  const words =
    text
      .slice(0, MAX_TEXT_CHARS)
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((w) => !STOP_WORDS.has(w) && (w.length > 1 || /\p{N}/u.test(w)));
}

/**
 * Cosine of the two texts' sets of content words: |A ∩ B| / √(|A| |B|). Undefined when either has
 * fewer than MIN_CONTENT_TOKENS distinct words ("2+2?" → "4" says nothing about coherence).
 */
export const lexicalSimilarity: Similarity = (a, b) => {
  const x = new Set(contentTokens(a));
  const y = new Set(contentTokens(b));
  if (x.size < MIN_CONTENT_TOKENS || y.size < MIN_CONTENT_TOKENS) return undefined;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return shared / Math.sqrt(x.size * y.size);
};

/**
 * The text of a recorded input or output: a string, chat messages' content, text parts, or the
 * string values of an object (`{ question: … }`), up to MAX_TEXT_CHARS. Tool-call requests and
 * other non-text values add nothing.
 */
export function textOf(value: unknown): string {
  return textParts(value).join('\n').slice(0, MAX_TEXT_CHARS);
}

/** The strings textOf joins (by newlines, then cut to MAX_TEXT_CHARS), in order. */
export function textParts(value: unknown): string[] {
  const parts: string[] = [];
  let length = 0;
  const visit = (v: unknown, depth: number): void => {
    if (length >= MAX_TEXT_CHARS || depth > 6 || v === null || v === undefined) return;
    if (typeof v === 'string') {
      parts.push(v);
      length += v.length + 1;
    } else if (Array.isArray(v)) {
      for (const item of v) visit(item, depth + 1);
    } else if (typeof v === 'object') {
      const o = v as Record<string, unknown>;
      // A chat message or a text part: its content, not its role or type.
      if ('role' in o || 'type' in o) {
        visit(o.content ?? o.text, depth + 1);
        return;
      }
      for (const value of Object.values(o)) visit(value, depth + 1);
    }
  };
  visit(value, 0);
  return parts;
}

/** FNV-1a's start, and one step of it: hash32 of a string made of pieces can be taken piece by piece. */
export const FNV_OFFSET = 0x811c9dc5;
export const fnvStep = (h: number, charCode: number): number => Math.imul(h ^ charCode, 0x01000193);

/** 32-bit FNV-1a: a fast, stable hash of a token (the same in every thread and on every run). */
export function hash32(s: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < s.length; i++) h = fnvStep(h, s.charCodeAt(i));
  return h >>> 0;
}

/** Hashes a fingerprint keeps: exact Jaccard for sets this small, an estimate beyond. */
export const SKETCH_SIZE = 32;

/** The SKETCH_SIZE smallest distinct hashes of the tokens, ascending (a bottom-k sketch). */
export function sketch(tokens: Iterable<string>, k = SKETCH_SIZE): number[] {
  const hashes = new Set<number>();
  for (const t of tokens) hashes.add(hash32(t));
  return [...hashes].sort((a, b) => a - b).slice(0, k);
}

/**
 * Jaccard similarity of the sets two sketches stand for: of the k smallest hashes of their union,
 * the share found in both. Exact when both sets had at most k members.
 */
export function sketchJaccard(a: readonly number[], b: readonly number[], k = SKETCH_SIZE): number {
  if (a.length === 0 || b.length === 0) return 0;
  let i = 0;
  let j = 0;
  let union = 0;
  let both = 0;
  // Walk both ascending lists to the k smallest hashes of their union.
  while (union < k && (i < a.length || j < b.length)) {
    const x = i < a.length ? a[i]! : Infinity;
    const y = j < b.length ? b[j]! : Infinity;
    if (x === y) {
      both++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
    union++;
  }
  return union === 0 ? 0 : both / union;
}
