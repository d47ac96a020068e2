/**
 * Strict mode's alignment of expected calls with recorded calls, in order: an edit distance on tool
 * names, so one inserted or dropped call costs one gap and leaves every call after it aligned.
 * Costs: an exact pair 0, a same-name pair with different arguments 1 (a mismatch, cheaper than a
 * missing plus an extra call), a gap 1; two calls of different names are never paired.
 */

export interface Alignment {
  /** Same-name pairs in order; `exact` is false when the arguments differ. */
  pairs: { expected: number; actual: number; exact: boolean }[];
  /** Expected calls aligned with nothing. */
  missing: number[];
  /** Recorded calls aligned with nothing. */
  extra: number[];
}

const NOT_PAIRED = 0;
const MISMATCH = 1;
const EXACT = 2;

export function alignCalls(
  expectedNames: readonly string[],
  actualNames: readonly string[],
  accepts: (expected: number, actual: number) => boolean,
): Alignment {
  const n = expectedNames.length;
  const m = actualNames.length;
  const width = m + 1;
  const kind = new Uint8Array(n * m);
  for (let e = 0; e < n; e++) {
    for (let a = 0; a < m; a++) {
      if (expectedNames[e] === actualNames[a]) kind[e * m + a] = accepts(e, a) ? EXACT : MISMATCH;
    }
  }
  // cost[e][a]: the cheapest alignment of expected[e..] with actual[a..] (suffixes, so that the
  // walk below reads forwards and prefers pairing early calls).
  const cost = new Uint32Array((n + 1) * width);
  for (let e = n; e >= 0; e--) {
    for (let a = m; a >= 0; a--) {
      if (e === n) cost[e * width + a] = m - a;
      else if (a === m) cost[e * width + a] = n - e;
      else {
        let best = 1 + Math.min(cost[(e + 1) * width + a]!, cost[e * width + a + 1]!);
        const k = kind[e * m + a]!;
        if (k !== NOT_PAIRED) best = Math.min(best, (k === EXACT ? 0 : 1) + cost[(e + 1) * width + a + 1]!);
        cost[e * width + a] = best;
      }
    }
  }

  const result: Alignment = { pairs: [], missing: [], extra: [] };
  let e = 0;
  let a = 0;
  while (e < n || a < m) {
    const here = cost[e * width + a]!;
    if (e < n && a < m) {
      const k = kind[e * m + a]!;
      if (k !== NOT_PAIRED && (k === EXACT ? 0 : 1) + cost[(e + 1) * width + a + 1]! === here) {
        result.pairs.push({ expected: e, actual: a, exact: k === EXACT });
        e++;
        a++;
        continue;
      }
    }
    if (a < m && (e === n || 1 + cost[e * width + a + 1]! === here)) {
      result.extra.push(a);
      a++;
    } else {
      result.missing.push(e);
      e++;
    }
  }
  return result;
}
