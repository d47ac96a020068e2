/**
 * Words as real attacks spell them: "iunstructions", "previuos", "ignroe". A word is near another
 * when it starts with the same letter and one edit turns it into the other (two for words of nine
 * letters or more), an edit being an insertion, a deletion, a substitution or a swap of two
 * neighbours (restricted Damerau–Levenshtein). Words are short and the distance is bounded, so each
 * comparison costs at most a few hundred steps.
 */

/** Longest word compared (longer tokens are no word of the lists below). */
const MAX_LEN = 24;

/** The restricted Damerau–Levenshtein distance of a and b, or `max + 1` once it exceeds `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a.length > MAX_LEN || b.length > MAX_LEN) return max + 1;
  const cols = b.length + 1;
  let prev2 = new Array<number>(cols).fill(0);
  let prev = Array.from({ length: cols }, (_, j) => j);
  let cur = new Array<number>(cols).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[b.length]!;
}

/** The edits a word of this length may be away from its target and still be that word. */
const allowance = (target: string) => (target.length >= 9 ? 2 : target.length >= 5 ? 1 : 0);

/** Whether `word` is `target` or a misspelling of it (same first letter, within the allowance). */
export function isNear(word: string, target: string): boolean {
  if (word === target) return true;
  if (word.length === 0 || word[0] !== target[0]) return false;
  const max = allowance(target);
  return max > 0 && editDistance(word, target, max) <= max;
}

/** Whether `word` is near one of `targets`. */
export const isNearOneOf = (word: string, targets: readonly string[]): boolean =>
  targets.some((t) => isNear(word, t));
