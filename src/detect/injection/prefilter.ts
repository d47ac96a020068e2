/**
 * The cheap first pass of the injection scanner: one left-to-right walk over the raw text that
 * proves, for most benign fields, that no pattern of the catalogue can match, so the field is never
 * normalised, lowercased or run through a regex.
 *
 * A field passes (and gets the full scan) when it has any of:
 * - a character outside ASCII: NFKC, zero-width removal and Unicode tag characters can create
 *   matches, and every raw pattern looks for non-ASCII characters;
 * - a run of 24+ base64 / hex characters (a blob the full scan would decode);
 * - a trigger of a pattern (`InjectionPattern.triggers`), case-insensitively, at the start of a
 *   word when the trigger starts with a letter or digit (unless its pattern says `anywhere`),
 *   exactly as the full scan's keyword regexes look for them.
 *
 * On ASCII text `normaliseForScan` only lowercases and rewrites whitespace runs to one whitespace
 * character; a trigger never holds whitespace, so a trigger is in the normalised text (at a word
 * start) if and only if it is in the raw text (at a word start) ignoring case. The walk is
 * therefore a superset of the full scan's keyword check: it never rejects text the full scan
 * could report.
 *
 * The triggers are compiled into a DFA (an Aho–Corasick automaton with one extra edge: any
 * non-word character leads to the start of the word triggers), one table lookup per character.
 */

/** Runs of this many base64 (standard or URL-safe) characters are decoded by the full scan. */
export const MIN_BLOB_RUN = 24;
if (MIN_BLOB_RUN + 8 !== 32) throw new Error('walk() tests bit 5 of run + 8');
/** Longer than any trigger and than MIN_BLOB_RUN: how far the second half of a walk starts early. */
const OVERLAP = 64;

const ALPHABET = 128;
const isWordChar = (c: number) =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
const lower = (c: number) => (c >= 0x41 && c <= 0x5a ? c + 32 : c);

export interface TriggerScanner {
  /** True when the text may hold a match: non-ASCII, a long base64 run, or a trigger. */
  mayMatch(text: string): boolean;
  /** Number of DFA states (for tests). */
  readonly states: number;
}

/**
 * Compiles the triggers. `wordTriggers` only count at the start of a word (after a character other
 * than [A-Za-z0-9_], or at the start of the text); `anywhereTriggers` count anywhere. Triggers
 * are matched against the text with ASCII letters lowercased, so they are lowercased here too.
 */
export function compileTriggerScanner(
  wordTriggers: readonly string[],
  anywhereTriggers: readonly string[],
): TriggerScanner {
  // ── the trie (NFA): node 0 is the root (anywhere triggers), node 1 the word-start node ──
  const children: Map<number, number>[] = [new Map(), new Map()];
  const terminal: boolean[] = [false, false];
  const insert = (from: number, trigger: string) => {
    let node = from;
    for (let i = 0; i < trigger.length; i++) {
      const c = lower(trigger.charCodeAt(i));
      if (c >= ALPHABET) return; // a non-ASCII trigger: the text holding it passes anyway
      let next = children[node]!.get(c);
      if (next === undefined) {
        next = children.length;
        children.push(new Map());
        terminal.push(false);
        children[node]!.set(c, next);
      }
      node = next;
    }
    terminal[node] = true;
  };
  for (const t of wordTriggers) insert(1, t);
  for (const t of anywhereTriggers) insert(0, t);
  if (terminal[0] || terminal[1]) throw new Error('an empty trigger would match everything');
  if ([...wordTriggers, ...anywhereTriggers].some((t) => t.length >= OVERLAP))
    throw new Error(`a trigger of ${OVERLAP}+ characters would defeat the split walk`);

  // ── subset construction: a DFA state is the set of trie nodes active after a prefix ──
  // Characters that occur in no trigger behave alike (word or not), so they share one class.
  const classOf = new Int32Array(ALPHABET).fill(-1);
  const classChar: number[] = [];
  for (let c = 0; c < ALPHABET; c++) {
    const lc = lower(c);
    if (lc !== c) continue;
    let used = false;
    for (const m of children) if (m.has(c)) used = true;
    if (used) classOf[c] = classChar.push(c) - 1;
  }
  const OTHER_WORD = classChar.push(-1) - 1;
  const OTHER_NONWORD = classChar.push(-2) - 1;
  for (let c = 0; c < ALPHABET; c++) {
    const lc = lower(c);
    if (classOf[lc]! >= 0) classOf[c] = classOf[lc]!;
    else classOf[c] = isWordChar(c) ? OTHER_WORD : OTHER_NONWORD;
  }

  const ACCEPT = 0;
  const sets: number[][] = [[]]; // index 0: the accepting sink
  const ids = new Map<string, number>();
  const stateOf = (set: number[]): number => {
    if (set.some((n) => terminal[n])) return ACCEPT;
    const key = set.join(',');
    let id = ids.get(key);
    if (id === undefined) {
      id = sets.push(set) - 1;
      ids.set(key, id);
    }
    return id;
  };
  const START = stateOf([0, 1]);
  const rows: Int32Array[] = [new Int32Array(classChar.length)];
  for (let s = 1; s < sets.length; s++) {
    const row = new Int32Array(classChar.length);
    for (let k = 0; k < classChar.length; k++) {
      const ch = classChar[k]!;
      const next = new Set<number>([0]);
      if (ch === -2 || (ch >= 0 && !isWordChar(ch))) next.add(1);
      if (ch >= 0) {
        for (const n of sets[s]!) {
          const child = children[n]!.get(ch);
          if (child !== undefined) next.add(child);
        }
      }
      row[k] = stateOf([...next].sort((a, b) => a - b));
    }
    rows.push(row);
  }
  const states = sets.length;
  if (states > 0xffff) throw new Error('trigger automaton too large');

  // ── the table: state × byte → state (0 accepts). The text is scanned as UTF-8, so any byte of
  // a non-ASCII character (0x80–0xff) accepts; ASCII letters were folded to lowercase above. ──
  const delta = new Uint16Array(states * 256);
  for (let s = 1; s < states; s++) {
    for (let c = 0; c < ALPHABET; c++) delta[s * 256 + c] = rows[s]![classOf[c]!]!;
  }
  /** -1 for base64 characters (standard or URL-safe), 0 for the rest: `run = (run + 1) & RUN[b]`. */
  const RUN = new Int32Array(256);
  for (let c = 0; c < ALPHABET; c++) {
    RUN[c] = (isWordChar(c) && c !== 0x5f) || c === 0x2b || c === 0x2f || c === 0x5f || c === 0x2d ? -1 : 0;
  }
  let buf = new Uint8Array(1 << 16);

  return {
    states,
    mayMatch(text: string): boolean {
      if (text.length * 3 > buf.length) buf = new Uint8Array(Math.max(text.length * 3, buf.length * 2));
      return walk(buf, encoder.encodeInto(text, buf).written, delta, RUN, START);
    },
  };
}

/**
 * The hot loop, over the UTF-8 bytes. Two halves of the text are walked at once (independent
 * chains of table lookups run in parallel on the CPU); the second half starts `OVERLAP` bytes
 * early in the start state, so a trigger or a base64 run across the middle is still seen whole
 * (starting there as if at a word start can only add hits, never lose one).
 */
function walk(bytes: Uint8Array, n: number, delta: Uint16Array, RUN: Int32Array, start: number): boolean {
  const half = n >> 1;
  const j0 = half > OVERLAP ? half - OVERLAP : 0;
  let a = start;
  let b = start;
  let runA = 0;
  let runB = 0;
  let long = 0;
  let i = 0;
  let j = j0;
  // Chain A walks [0, half), chain B walks [j0, n); B has at least as many bytes as A.
  for (; i < half; i++, j++) {
    const x = bytes[i]!;
    const y = bytes[j]!;
    a = delta[(a << 8) | x]!;
    b = delta[(b << 8) | y]!;
    if (a === 0 || b === 0) return true;
    runA = (runA + 1) & RUN[x]!;
    runB = (runB + 1) & RUN[y]!;
    // run + 8 is below 32 until the run reaches MIN_BLOB_RUN (24), then passes through 32–39:
    // bit 5 of the OR is set exactly when some run reached 24.
    long |= (runA + 8) | (runB + 8);
  }
  for (; j < n; j++) {
    const y = bytes[j]!;
    b = delta[(b << 8) | y]!;
    if (b === 0) return true;
    runB = (runB + 1) & RUN[y]!;
    long |= runB + 8;
  }
  return (long & 32) !== 0;
}

const encoder = new TextEncoder();
