/**
 * The content words of a text as similarity.ts's `contentTokens` defines them (lower-cased runs of
 * letters and digits, without function words and one-letter words), read without a string per
 * word: each word is an offset and a length into the lower-cased text, with its FNV-1a hash.
 *
 * Why: the session facts read every trace's input and output, up to MAX_TEXT_CHARS each, and a
 * prompt is thousands of words. A regex match, an array of strings and a Set of them per text were
 * a sixth of a whole run's time and much of its garbage; this reads the same words in one pass over
 * the characters, into buffers that are reused from trace to trace. Text with a character beyond
 * ASCII takes contentTokens' own path (Unicode letters and case mapping), so the words are the same
 * whatever the text holds (test/session/contentWords.test.ts compares both on every kind of text).
 */
import { contentTokens, FNV_OFFSET, fnvStep, MAX_TEXT_CHARS, STOP_WORDS } from './similarity.js';

const SPACE = 0x20;

/** Stop words by hash, for the check made on every short word; the low 16 bits of their hashes, marked. */
const STOP_BY_HASH = new Map<number, string>();
const STOP_LOW_BITS = new Uint8Array(1 << 16);
for (const w of STOP_WORDS) {
  let h = FNV_OFFSET;
  for (let i = 0; i < w.length; i++) h = fnvStep(h, w.charCodeAt(i));
  STOP_BY_HASH.set(h >>> 0, w);
  STOP_LOW_BITS[h & 0xffff] = 1;
}
/** The longest stop word: longer words are never looked up. */
const MAX_STOP_LENGTH = Math.max(...[...STOP_WORDS].map((w) => w.length));

function isStopWord(text: string, start: number, len: number, hash: number): boolean {
  // Most words are no stop word: their hash's low bits say so without a lookup.
  if (len > MAX_STOP_LENGTH || STOP_LOW_BITS[hash & 0xffff] === 0) return false;
  const stop = STOP_BY_HASH.get(hash);
  if (stop === undefined || stop.length !== len) return false;
  for (let k = 0; k < len; k++) if (text.charCodeAt(start + k) !== stop.charCodeAt(k)) return false;
  return true;
}

/** A text's content words in order: offsets and lengths into `text`, and each word's hash32. */
export class WordList {
  /** The lower-cased text the words are in (for text beyond ASCII: the words joined by spaces). */
  text = '';
  /** The text read was ASCII (it was read here, not by contentTokens). */
  ascii = true;
  count = 0;
  starts = new Int32Array(256);
  lengths = new Int32Array(256);
  hashes = new Uint32Array(256);

  /** Reads the content words of `source` (its first MAX_TEXT_CHARS characters). */
  read(source: string): this {
    const text = source.slice(0, MAX_TEXT_CHARS).toLowerCase();
    this.text = text;
    this.count = 0;
    this.ascii = true;
    let start = -1;
    let h = FNV_OFFSET;
    for (let i = 0; i <= text.length; i++) {
      const c = i < text.length ? text.charCodeAt(i) : SPACE;
      if (c >= 0x80) return this.readWords(contentTokens(source));
      // Lower-cased already: ASCII letters and digits are a–z and 0–9.
      if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) {
        if (start < 0) {
          start = i;
          h = FNV_OFFSET;
        }
        h = fnvStep(h, c);
        continue;
      }
      if (start < 0) continue;
      const len = i - start;
      const hash = h >>> 0;
      const first = text.charCodeAt(start);
      // One letter says nothing; one digit may (a count, a version).
      if (!(len === 1 && !(first >= 0x30 && first <= 0x39)) && !isStopWord(text, start, len, hash))
        this.push(start, len, hash);
      start = -1;
    }
    return this;
  }

  /** The words contentTokens read (text beyond ASCII), joined by spaces so that offsets still work. */
  private readWords(words: readonly string[]): this {
    this.text = words.join(' ');
    this.count = 0;
    this.ascii = false;
    let at = 0;
    for (const w of words) {
      let h = FNV_OFFSET;
      for (let k = 0; k < w.length; k++) h = fnvStep(h, w.charCodeAt(k));
      this.push(at, w.length, h >>> 0);
      at += w.length + 1;
    }
    return this;
  }

  private push(start: number, len: number, hash: number): void {
    if (this.count === this.starts.length) {
      const grow = <T extends Int32Array | Uint32Array>(a: T, make: (n: number) => T): T => {
        const b = make(a.length * 2);
        b.set(a);
        return b;
      };
      this.starts = grow(this.starts, (n) => new Int32Array(n));
      this.lengths = grow(this.lengths, (n) => new Int32Array(n));
      this.hashes = grow(this.hashes, (n) => new Uint32Array(n));
    }
    this.starts[this.count] = start;
    this.lengths[this.count] = len;
    this.hashes[this.count] = hash;
    this.count++;
  }

  /** The i-th word (for tests and messages; the hot paths read offsets). */
  word(i: number): string {
    return this.text.slice(this.starts[i]!, this.starts[i]! + this.lengths[i]!);
  }

  /** Whether word i of this list and word j of `other` are the same word. */
  same(i: number, other: WordList, j: number): boolean {
    const len = this.lengths[i]!;
    if (len !== other.lengths[j] || this.hashes[i] !== other.hashes[j]) return false;
    const a = this.starts[i]!;
    const b = other.starts[j]!;
    for (let k = 0; k < len; k++)
      if (this.text.charCodeAt(a + k) !== other.text.charCodeAt(b + k)) return false;
    return true;
  }
}

/**
 * The distinct words of a WordList: an open-addressing table of word indices keyed by hash. Slots
 * are stamped with the build they belong to, so reusing the table costs nothing to clear.
 */
export class WordSet {
  size = 0;
  /** The list index of each distinct word (its first occurrence), `size` of them. */
  members = new Int32Array(256);
  private list = new WordList();
  private slots = new Int32Array(1024);
  private stamps = new Uint32Array(1024);
  private stamp = 0;

  /** Fills the set with the distinct words of `list` (which must not change while the set is used). */
  build(list: WordList): this {
    this.list = list;
    this.size = 0;
    if (this.members.length < list.count) this.members = new Int32Array(list.count * 2);
    if (this.slots.length < list.count * 2) {
      let n = this.slots.length;
      while (n < list.count * 2) n *= 2;
      this.slots = new Int32Array(n);
      this.stamps = new Uint32Array(n);
      this.stamp = 0;
    }
    this.stamp++;
    if (this.stamp === 0xffffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
    for (let i = 0; i < list.count; i++) if (this.find(list, i) < 0) this.insert(i);
    return this;
  }

  /** Whether word j of `other` is in the set. */
  has(other: WordList, j: number): boolean {
    return this.find(other, j) >= 0;
  }

  /** The index (in this set's list) of word j of `other`, or −1. */
  private find(other: WordList, j: number): number {
    const mask = this.slots.length - 1;
    for (let slot = other.hashes[j]! & mask; ; slot = (slot + 1) & mask) {
      if (this.stamps[slot] !== this.stamp) return -1;
      const i = this.slots[slot]!;
      if (this.list.same(i, other, j)) return i;
    }
  }

  private insert(i: number): void {
    const mask = this.slots.length - 1;
    let slot = this.list.hashes[i]! & mask;
    while (this.stamps[slot] === this.stamp) slot = (slot + 1) & mask;
    this.stamps[slot] = this.stamp;
    this.slots[slot] = i;
    this.members[this.size++] = i;
  }
}

/** Parts shorter than this are read every time: looking them up would cost about as much. */
const MIN_CACHED_PART = 1024;
/** Distinct long parts remembered; past it the memory starts afresh. */
const MAX_CACHED_PARTS = 512;

/**
 * The distinct content words of long text parts seen before, by content: every call of an agent
 * repeats its system prompt, and a call log's trace input holds it (thousands of characters). A
 * part is remembered the second time it is seen (a part seen once, a user's request, costs a map
 * entry), as its distinct words joined by spaces; only ASCII parts are (see WordList.read).
 */
export class PartWords {
  private readonly known = new Map<string, string | number>();
  private readonly list = new WordList();
  private readonly set = new WordSet();

  /** The part's distinct words joined by spaces, when it is remembered. */
  distinct(part: string): string | undefined {
    if (part.length < MIN_CACHED_PART) return undefined;
    const known = this.known.get(part);
    if (typeof known === 'string') return known;
    if (known === undefined) {
      if (this.known.size >= MAX_CACHED_PARTS) this.known.clear();
      this.known.set(part, 1);
      return undefined;
    }
    const list = this.list.read(part);
    if (!list.ascii) return undefined;
    const set = this.set.build(list);
    const words: string[] = [];
    for (let m = 0; m < set.size; m++) words.push(list.word(set.members[m]!));
    const distinct = words.join(' ');
    this.known.set(part, distinct);
    return distinct;
  }
}

/**
 * Reads into `list` the words of `parts` joined by newlines and cut to MAX_TEXT_CHARS (textOf's
 * text), for their distinct words only: a remembered part stands in as its distinct words, so the
 * words are not in text order and may repeat across parts. The same distinct words as reading the
 * joined text: a newline ends a word, the cut part is read as cut, and text beyond ASCII is read
 * whole. Returns false when the joined text is empty.
 */
export function readDistinctParts(list: WordList, parts: readonly string[], known: PartWords): boolean {
  const pieces: string[] = [];
  let at = 0;
  let remembered = false;
  for (let i = 0; i < parts.length && at < MAX_TEXT_CHARS; i++) {
    const part = parts[i]!;
    // Where this part ends in the joined text; the part that crosses MAX_TEXT_CHARS is cut.
    const whole = at + part.length <= MAX_TEXT_CHARS;
    const distinct = whole ? known.distinct(part) : undefined;
    if (distinct !== undefined) remembered = true;
    pieces.push(distinct ?? (whole ? part : part.slice(0, MAX_TEXT_CHARS - at)));
    at += part.length + 1;
  }
  const joined = pieces.join('\n');
  list.read(joined);
  // A remembered part is ASCII, but another part may not be: then the joined text is read whole.
  if (remembered && !list.ascii) list.read(parts.join('\n'));
  return parts.length > 1 || (parts.length === 1 && parts[0]!.length > 0);
}

/**
 * The k smallest distinct numbers offered, ascending: a bottom-k sketch kept as it is built, the
 * same as sorting every distinct hash and keeping the first k.
 */
export class BottomK {
  /** The kept numbers, ascending, in the first `count` places (no array grows or shifts). */
  private readonly kept: Float64Array;
  private count = 0;
  constructor(private readonly k: number) {
    this.kept = new Float64Array(k);
  }

  offer(h: number): void {
    const v = this.kept;
    const n = this.count;
    if (n === this.k && h >= v[n - 1]!) return;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (v[mid]! < h) lo = mid + 1;
      else hi = mid;
    }
    if (lo < n && v[lo] === h) return;
    // Shift the larger ones up by one (the largest falls off when all k places are taken).
    v.copyWithin(lo + 1, lo, n === this.k ? n - 1 : n);
    v[lo] = h;
    if (n < this.k) this.count++;
  }

  /** The kept numbers, ascending. */
  get values(): number[] {
    // A loop, not Array.from of a subarray (a view object and an iterator for ≤ k numbers).
    const out: number[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.kept[i]!);
    return out;
  }
}
