/**
 * The automaton behind both passes over untrusted text: an Aho–Corasick automaton of the pattern
 * triggers, made deterministic by subset construction, with one extra edge: any non-word character
 * leads to the start of the word triggers. Word triggers only count at the start of a word (after
 * a character other than [A-Za-z0-9_], or at the start of the text), exactly as `\b` sees it;
 * anywhere triggers count anywhere. ASCII letters are folded to lowercase.
 *
 * A word also starts after a written escape `\n`, `\r` or `\t` (a backslash, then the letter):
 * text serialised twice (YAML or JSON inside a string) shows its line breaks that way, and
 * `normaliseForScan` turns them back into whitespace, so "…Claude.\nBefore you…" holds "before"
 * at a word start once normalised. The automaton must see it there too (its passes are a superset
 * of the normalised text's triggers), so a third NFA node marks "just after a backslash".
 *
 * - The prefilter (`prefilter.ts`) only needs to know whether some trigger occurs: its table sends
 *   every transition into a state that completes a trigger to one accepting sink.
 * - The trigger finder (`triggerFinder.ts`) walks on after a match and reads, in `outputs`, which
 *   triggers end in each state.
 * Both are compiled from one automaton, built once (it takes a noticeable part of a small run).
 */

export const ALPHABET = 128;

const BACKSLASH = 0x5c;
/** The letters of the escapes `\\n`, `\\r`, `\\t`, either case (the automaton folds case). */
const ESCAPE_LETTERS = [0x6e, 0x72, 0x74];
const ESCAPE_CHARS = [BACKSLASH, ...ESCAPE_LETTERS];

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
  // ── the trie (NFA): node 0 is the root (anywhere triggers), node 1 the word-start node, node 2
  // the mark "after a backslash" (no children: it only decides where words start) ──
  const children: Map<number, number>[] = [new Map(), new Map(), new Map()];
  /** The trigger indexes that end at each trie node. */
  const ends: number[][] = [[], [], []];
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
  // The backslash and the escape letters decide where words start: each needs its own class.
  for (const c of ESCAPE_CHARS) used.add(c);
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
  const classCount = classChar.length;
  /** 1 for the classes of non-word characters: after one, word triggers may start. */
  const nonWordClass = new Uint8Array(classCount);
  for (let k = 0; k < classCount; k++) {
    const ch = classChar[k]!;
    nonWordClass[k] = ch === -2 || (ch >= 0 && !isWordChar(ch)) ? 1 : 0;
  }
  const backslashClass = classOf[BACKSLASH]!;
  const escapeLetterClass = new Uint8Array(classCount);
  for (const c of ESCAPE_LETTERS) escapeLetterClass[classOf[c]!] = 1;
  /**
   * The root nodes active after class k from a state whose root nodes are `roots` (a prefix of
   * [0, 1, 2]): the root always; the word-start node after a non-word character or an escape
   * letter that follows a backslash; the backslash mark after a backslash.
   */
  const rootsAfter = (roots: number, k: number): number[] =>
    k === backslashClass
      ? [0, 1, 2]
      : nonWordClass[k] || (roots === 3 && escapeLetterClass[k])
        ? [0, 1]
        : [0];
  /** How many of the root nodes 0, 1, 2 a set holds (sets are sorted, and 2 comes with 1). */
  const rootsOf = (set: number[]): number => (set[2] === 2 ? 3 : set[1] === 1 ? 2 : 1);
  /** The children of the root [0] and of the word-start node [1], by class. */
  const rootChildren = [0, 1].map((root) => {
    const byClass: number[][] = Array.from({ length: classCount }, () => []);
    for (const [ch, child] of children[root]!) byClass[classOf[ch]!]!.push(child);
    return byClass;
  });
  /** The set after class k: the given deeper children, plus the roots' children and the roots. */
  const next = (roots: number, k: number, deeper: number[]): number => {
    const set = [...deeper, ...rootChildren[0]![k]!];
    if (roots >= 2) set.push(...rootChildren[1]![k]!);
    set.sort((a, b) => a - b);
    return stateOf([...rootsAfter(roots, k), ...set]);
  };
  // The states of root nodes only (after a word character, after a non-word character, after a
  // backslash): their rows are worked out class by class, once.
  const baseOf = [0, stateOf([0]), start, stateOf([0, 1, 2])];
  const rows: Int32Array[] = [new Int32Array(classCount)];
  // Every other state holds the same root nodes as one of those, so a transition that no deeper
  // node takes goes where it goes from that state: a row starts as a copy of its row, and only the
  // classes a deeper node has a child for are worked out. Those are taken in class order, so states
  // are numbered as a class-by-class walk would number them. (Asking every class of every state
  // built ~30,000 sets; this builds ~3,000.)
  const moved: number[][] = Array.from({ length: classCount }, () => []);
  const touched: number[] = [];
  for (let s = 1; s < sets.length; s++) {
    const set = sets[s]!;
    const roots = rootsOf(set);
    if (baseOf[roots] === s) {
      const row = new Int32Array(classCount);
      for (let k = 0; k < classCount; k++) row[k] = next(roots, k, []);
      rows.push(row);
      continue;
    }
    // The three base states are states 1–3 (made above), so their rows exist by now.
    const row = rows[baseOf[roots]!]!.slice();
    touched.length = 0;
    for (const n of set) {
      if (n <= 2) continue;
      for (const [ch, child] of children[n]!) {
        const k = classOf[ch]!;
        if (moved[k]!.length === 0) touched.push(k);
        moved[k]!.push(child);
      }
    }
    touched.sort((a, b) => a - b);
    for (const k of touched) {
      row[k] = next(roots, k, moved[k]!);
      moved[k] = [];
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
