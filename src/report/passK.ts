/**
 * pass^k and pass@k as τ-bench defines them, from n attempts of which c passed: pass^k is the
 * chance that k attempts drawn without replacement all pass, C(c,k)/C(n,k) — the reliability an
 * agent needs when every user gets it right or not; pass@k the chance that at least one does,
 * 1 − C(n−c,k)/C(n,k). Both for k = 1..n, index k-1.
 */

/** C(n,k) as a float, by the multiplicative formula (exact enough for the few attempts tests run). */
function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

export function passHatK(n: number, c: number): number[] {
  return Array.from({ length: n }, (_, i) => choose(c, i + 1) / choose(n, i + 1));
}

export function passAtK(n: number, c: number): number[] {
  return Array.from({ length: n }, (_, i) => 1 - choose(n - c, i + 1) / choose(n, i + 1));
}

/** The mean at each k over the lists long enough to have it (tests may run different numbers of times). */
export function meanByK(lists: readonly (readonly number[])[]): number[] {
  const longest = Math.max(0, ...lists.map((l) => l.length));
  return Array.from({ length: longest }, (_, i) => {
    const at = lists.filter((l) => l.length > i).map((l) => l[i]!);
    return at.reduce((a, x) => a + x, 0) / at.length;
  });
}
