/**
 * Strict mode's alignment of expected calls with recorded calls, in order. The recorded calls come
 * in batches: the calls one model response issued together (parallel tool calls) have no order
 * among themselves, so a batch matches a stretch of the expected calls in any order; a call
 * nothing says was issued with others is a batch of one.
 *
 * A dynamic programme over (expected calls aligned, batches aligned) keeps the pairs that can stand
 * in order and maximises, in this order of importance:
 * 1. exact pairs (same name, arguments accepted): two swapped calls are then one call out of order
 *    (the caller pairs it afterwards), not two argument errors;
 * 2. same-name pairs whose arguments differ: one mismatch rather than a missing plus an extra call,
 *    so one inserted or dropped call leaves every call after it aligned;
 * 3. pairs whose call did not fail: of a failed attempt and its successful retry, the retry is the
 *    expected call and the attempt the extra one.
 * Within a batch the pairs are a matching (pairCalls.ts); a batch may take a stretch of expected
 * calls up to twice its size (the rest of the stretch missing), which keeps the search polynomial
 * and never changes whether a trajectory passes (a passing stretch is exactly the batch's size).
 * What is left unpaired is for the caller to pair regardless of order.
 */
import { pairCalls } from './pairCalls.js';

export type AlignedEvent =
  | { kind: 'pair'; expected: number; actual: number; exact: boolean }
  | { kind: 'missing'; expected: number }
  | { kind: 'extra'; actual: number };

export interface AlignInput {
  expectedNames: readonly string[];
  actualNames: readonly string[];
  /** Indices into actualNames, one array per batch, batches in trace order. */
  batches: readonly (readonly number[])[];
  accepts: (expected: number, actual: number) => boolean;
  failed: (actual: number) => boolean;
}

/** An expected call (absolute index) paired with a recorded call, and whether the pair is exact. */
interface Pair {
  expected: number;
  actual: number;
  exact: boolean;
}

/** The walk's events, in sequence order: pairs, missing expected calls and extra recorded calls. */
export function alignCalls(input: AlignInput): AlignedEvent[] {
  const { expectedNames, actualNames, batches, failed } = input;
  const n = expectedNames.length;
  const m = actualNames.length;
  const nb = batches.length;

  // The comparator may be the caller's own function: ask it once per same-name pair.
  const known = new Uint8Array(n * m);
  const accepts = (e: number, a: number): boolean => {
    const k = known[e * m + a]!;
    if (k !== 0) return k === 2;
    const yes = input.accepts(e, a);
    known[e * m + a] = yes ? 2 : 1;
    return yes;
  };

  // Pair values: any number of the lesser kinds never outweighs one of a greater kind. Within a
  // batch of several calls the failed-call preference is left out of the value (one response does
  // not hold an attempt and its retry), which lets a batch's values grow one expected call at a time.
  const most = Math.min(n, m);
  const mismatchValue = most + 1;
  const exactValue = (most + 1) * mismatchValue;
  const pairValue = (exact: boolean, a: number) => (exact ? exactValue : mismatchValue) + (failed(a) ? 0 : 1);

  /** The longest stretch of expected calls one batch may take: its own size, and as many missing. */
  const maxStretch = (e: number, b: number) =>
    Math.min(n - e, batches[b]!.length === 1 ? 1 : 2 * batches[b]!.length);

  /**
   * values[k]: what batch b is worth against expected[e, e + k), for k = 0 … maxStretch. For a
   * batch of several calls: a maximum matching of exact pairs grown by one augmenting path per
   * expected call, plus, per tool name, as many mismatches as the calls left on both sides allow.
   */
  const single = [0, 0];
  const stretchValues = (e: number, b: number): readonly number[] => {
    const members = batches[b]!;
    const top = maxStretch(e, b);
    if (members.length === 1) {
      // The common case, once per (e, b): no allocation.
      const a = members[0]!;
      single[1] = expectedNames[e] === actualNames[a] ? pairValue(accepts(e, a), a) : 0;
      return single;
    }
    const values = [0];
    const left = new Map<string, number>();
    for (const a of members) left.set(actualNames[a]!, (left.get(actualNames[a]!) ?? 0) + 1);
    const ownerOf = new Map<number, number>();
    const candidates: number[][] = [];
    const augment = (i: number, seen: Set<number>): boolean => {
      for (const a of candidates[i - e]!) {
        if (seen.has(a)) continue;
        seen.add(a);
        const owner = ownerOf.get(a);
        if (owner === undefined || augment(owner, seen)) {
          ownerOf.set(a, i);
          return true;
        }
      }
      return false;
    };
    let exact = 0;
    let sameName = 0;
    for (let i = e; i < e + top; i++) {
      const name = expectedNames[i]!;
      candidates.push(members.filter((a) => actualNames[a] === name && accepts(i, a)));
      if (augment(i, new Set())) exact++;
      const free = left.get(name) ?? 0;
      if (free > 0) {
        left.set(name, free - 1);
        sameName++;
      }
      values.push(exact * exactValue + (sameName - exact) * mismatchValue);
    }
    return values;
  };

  /** The pairs behind stretchValues(e, b)[k]. */
  const stretchPairs = (e: number, k: number, b: number): Pair[] => {
    const members = batches[b]!;
    if (members.length === 1) {
      const a = members[0]!;
      return expectedNames[e] === actualNames[a] ? [{ expected: e, actual: a, exact: accepts(e, a) }] : [];
    }
    const paired = pairCalls(
      expectedNames.slice(e, e + k),
      members.map((a) => actualNames[a]!),
      (i, j) => accepts(e + i, members[j]!),
      (j) => !failed(members[j]!),
    );
    return [
      ...paired.exact.map(([i, j]) => ({ expected: e + i, actual: members[j]!, exact: true })),
      ...paired.mismatched.map(([i, j]) => ({ expected: e + i, actual: members[j]!, exact: false })),
    ];
  };

  // best[e][b]: the greatest value aligning expected[e..] with batches[b..] (suffixes, so that the
  // walk below reads forwards and prefers pairing early calls).
  const width = nb + 1;
  const best = new Float64Array((n + 1) * width);
  for (let e = n - 1; e >= 0; e--) {
    for (let b = nb - 1; b >= 0; b--) {
      let v = Math.max(best[(e + 1) * width + b]!, best[e * width + b + 1]!);
      const members = batches[b]!;
      if (members.length === 1) {
        // The common case, inline: a batch of one pairs with one expected call or none.
        const a = members[0]!;
        if (expectedNames[e] === actualNames[a]) {
          v = Math.max(v, pairValue(accepts(e, a), a) + best[(e + 1) * width + b + 1]!);
        }
      } else {
        const values = stretchValues(e, b);
        for (let k = 1; k < values.length; k++) {
          if (values[k]! > 0) v = Math.max(v, values[k]! + best[(e + k) * width + b + 1]!);
        }
      }
      best[e * width + b] = v;
    }
  }

  const events: AlignedEvent[] = [];
  let e = 0;
  let b = 0;
  while (e < n || b < nb) {
    const here = best[e * width + b]!;
    if (e < n && b < nb) {
      const values = stretchValues(e, b);
      const k = values.findIndex((v, k) => k > 0 && v > 0 && v + best[(e + k) * width + b + 1]! === here);
      if (k > 0) {
        const pairs = stretchPairs(e, k, b);
        const partner = new Map(pairs.map((p) => [p.expected, p]));
        for (let i = e; i < e + k; i++) {
          const p = partner.get(i);
          events.push(p ? { kind: 'pair', ...p } : { kind: 'missing', expected: i });
        }
        const used = new Set(pairs.map((p) => p.actual));
        for (const a of batches[b]!) if (!used.has(a)) events.push({ kind: 'extra', actual: a });
        e += k;
        b++;
        continue;
      }
    }
    if (b < nb && (e === n || best[e * width + b + 1]! === here)) {
      for (const a of batches[b]!) events.push({ kind: 'extra', actual: a });
      b++;
    } else {
      events.push({ kind: 'missing', expected: e });
      e++;
    }
  }
  return events;
}
