/**
 * The automaton behind both passes over untrusted text: an Aho–Corasick automaton of the pattern
 * triggers, made deterministic by subset construction, with one extra edge: any non-word character
 * leads to the start of the word triggers. Word triggers only count at the start of a word (after
 * a character other than [A-Za-z0-9_], or at the start of the text), exactly as `\b` sees it;
 * anywhere triggers count anywhere. ASCII letters are folded to lowercase.
 *
 * - The prefilter (`prefilter.ts`) only needs to know whether some trigger occurs: its table sends
 *   every transition into a state that completes a trigger to one accepting sink.
 * - The trigger finder (`triggerFinder.ts`) walks on after a match and reads, in `outputs`, which
 *   triggers end in each state.
 * Both are compiled from one automaton, built once (it takes a noticeable part of a small run).
 */

export const ALPHABET = 128;

export const isWordChar = (c: number) =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
const lower = (c: number) => (c >= 0x41 && c <= 0x5a ? c + 32 : c);

export interface TriggerDfa {
  /** Number of states; state 0 is no state (tables may use it as a sink). */
  states: number;
  start: number;
  /** The triggers: word triggers, then anywhere triggers (the indexes `outputs` uses). */
  triggers: readonly string[];
  longestTrigger: number;
  /** Character class of each ASCII character (case-folded; unused characters share two classes). */
  classOf: Int32Array;
  /** rows[state][class] → next state. */
  rows: Int32Array[];
  /** Indexes (into word triggers, then anywhere triggers) of the triggers that end in each state. */
  outputs: number[][];
}

/**
 * Builds the automaton. Triggers holding a non-ASCII character are left out (text holding them
 * is not ASCII, and both passes treat non-ASCII text apart).
 */
export function buildTriggerDfa(
  wordTriggers: readonly string[],
  anywhereTriggers: readonly string[],
): TriggerDfa {
  // ── the trie (NFA): node 0 is the root (anywhere triggers), node 1 the word-start node ──
  const children: Map<number, number>[] = [new Map(), new Map()];
  /** The trigger indexes that end at each trie node. */
  const ends: number[][] = [[], []];
  const insert = (from: number, trigger: string, index: number) => {
    let node = from;
    for (let i = 0; i < trigger.length; i++) {
      const c = lower(trigger.charCodeAt(i));
      if (c >= ALPHABET) return;
      let next = children[node]!.get(c);
      if (next === undefined) {
        next = children.length;
        children.push(new Map());
        ends.push([]);
        children[node]!.set(c, next);
      }
      node = next;
    }
    ends[node]!.push(index);
  };
  wordTriggers.forEach((t, i) => insert(1, t, i));
  anywhereTriggers.forEach((t, i) => insert(0, t, wordTriggers.length + i));
  if (ends[0]!.length > 0 || ends[1]!.length > 0) throw new Error('an empty trigger would match everything');

  // ── character classes: characters that occur in no trigger behave alike (word or not) ──
  const classOf = new Int32Array(ALPHABET).fill(-1);
  const classChar: number[] = [];
  const used = new Set<number>();
  for (const m of children) for (const c of m.keys()) used.add(c);
  for (let c = 0; c < ALPHABET; c++) {
    if (lower(c) === c && used.has(c)) classOf[c] = classChar.push(c) - 1;
  }
  const otherWord = classChar.push(-1) - 1;
  const otherNonWord = classChar.push(-2) - 1;
  for (let c = 0; c < ALPHABET; c++) {
    const lc = lower(c);
    if (classOf[lc]! >= 0) classOf[c] = classOf[lc]!;
    else classOf[c] = isWordChar(c) ? otherWord : otherNonWord;
  }

  // ── subset construction: a state is the set of trie nodes active after a prefix ──
  const sets: number[][] = [[]]; // index 0: no state
  const outputs: number[][] = [[]];
  const ids = new Map<string, number>();
  const stateOf = (set: number[]): number => {
    const key = set.join(',');
    let id = ids.get(key);
    if (id === undefined) {
      id = sets.push(set) - 1;
      outputs.push(set.flatMap((n) => ends[n]!).sort((a, b) => a - b));
      ids.set(key, id);
    }
    return id;
  };
  const start = stateOf([0, 1]);
  // Most transitions advance no trie node: they lead back to the root (plus the word-start node
  // after a non-word character), which are looked up once here rather than by key every time.
  const afterWord = stateOf([0]);
  const rows: Int32Array[] = [new Int32Array(classChar.length)];
  const moved: number[] = [];
  for (let s = 1; s < sets.length; s++) {
    const row = new Int32Array(classChar.length);
    for (let k = 0; k < classChar.length; k++) {
      const ch = classChar[k]!;
      const nonWord = ch === -2 || (ch >= 0 && !isWordChar(ch));
      moved.length = 0;
      if (ch >= 0) {
        for (const n of sets[s]!) {
          const child = children[n]!.get(ch);
          if (child !== undefined) moved.push(child);
        }
      }
      if (moved.length === 0) row[k] = nonWord ? start : afterWord;
      else row[k] = stateOf([0, ...(nonWord ? [1] : []), ...moved.sort((a, b) => a - b)]);
    }
    rows.push(row);
  }
  const triggers = [...wordTriggers, ...anywhereTriggers];
  return {
    states: sets.length,
    start,
    triggers,
    longestTrigger: Math.max(0, ...triggers.map((t) => t.length)),
    classOf,
    rows,
    outputs,
  };
}
