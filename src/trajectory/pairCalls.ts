/**
 * Pairs expected calls with recorded calls regardless of order (the unordered, subset and superset
 * modes, the calls of one batch in strict mode, and what strict alignment leaves over). Exact pairs
 * (same name, arguments accepted) come first and are a maximum matching, so a loose expectation (no
 * `args`) never takes the only call a stricter one could match; what is left pairs greedily, in
 * order, by name alone, as mismatches. Among equal candidates the `preferred` calls are taken first
 * (calls that did not fail: a failed attempt and its retry, the retry is the expected call).
 */

/** Indices into the expected and actual lists given to pairCalls. */
export interface Pairing {
  exact: [expected: number, actual: number][];
  mismatched: [expected: number, actual: number][];
  missing: number[];
  extra: number[];
}

export function pairCalls(
  expectedNames: readonly string[],
  actualNames: readonly string[],
  accepts: (expected: number, actual: number) => boolean,
  preferred: (actual: number) => boolean = () => true,
): Pairing {
  const rank = (a: number) => (preferred(a) ? 0 : 1);
  const byPreference = (x: number, y: number) => rank(x) - rank(y) || x - y;
  const byName = new Map<string, number[]>();
  actualNames.forEach((name, a) => {
    const list = byName.get(name);
    if (list) list.push(a);
    else byName.set(name, [a]);
  });
  // Candidates of each expected call, preferred calls first, each group in trace order; the
  // comparator runs once per same-name pair.
  for (const list of byName.values()) list.sort(byPreference);
  const candidates = expectedNames.map((name, e) => (byName.get(name) ?? []).filter((a) => accepts(e, a)));

  const ownerOf = new Array<number>(actualNames.length).fill(-1);
  const partnerOf = new Array<number>(expectedNames.length).fill(-1);
  // Greedy first: most real inputs are matched here and need no augmenting search.
  candidates.forEach((list, e) => {
    const a = list.find((c) => ownerOf[c] === -1);
    if (a !== undefined) {
      ownerOf[a] = e;
      partnerOf[e] = a;
    }
  });
  // Then Kuhn's augmenting paths for the expected calls still unpaired.
  const augment = (e: number, seen: Uint8Array): boolean => {
    for (const a of candidates[e]!) {
      if (seen[a]) continue;
      seen[a] = 1;
      const owner = ownerOf[a]!;
      if (owner === -1 || augment(owner, seen)) {
        ownerOf[a] = e;
        partnerOf[e] = a;
        return true;
      }
    }
    return false;
  };
  for (let e = 0; e < expectedNames.length; e++) {
    if (partnerOf[e] === -1 && candidates[e]!.length > 0) augment(e, new Uint8Array(actualNames.length));
  }

  const exact: [number, number][] = [];
  partnerOf.forEach((a, e) => {
    if (a !== -1) exact.push([e, a]);
  });
  const mismatched: [number, number][] = [];
  const missing: number[] = [];
  for (let e = 0; e < expectedNames.length; e++) {
    if (partnerOf[e] !== -1) continue;
    const a = (byName.get(expectedNames[e]!) ?? []).find((c) => ownerOf[c] === -1);
    if (a === undefined) {
      missing.push(e);
      continue;
    }
    ownerOf[a] = e;
    mismatched.push([e, a]);
  }
  const extra: number[] = [];
  ownerOf.forEach((owner, a) => {
    if (owner === -1) extra.push(a);
  });
  return { exact, mismatched, missing, extra };
}
