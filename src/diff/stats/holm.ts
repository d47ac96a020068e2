/**
 * Holm's step-down correction (Holm 1979), weighted: it holds the chance of any false alarm among
 * the hypotheses tested together at `alpha` whatever their dependence, and is uniformly more
 * powerful than Bonferroni. With equal weights it is the textbook procedure: order the p-values,
 * compare the i-th smallest with alpha / (m − i + 1), stop at the first that is not below.
 * Weighted (Holm's own generalisation): hypothesis i starts with the share w_i of alpha; each one
 * rejected hands its share to those left, so the i-th in order of p/w is compared with
 * alpha · w_i / (sum of the weights not yet rejected).
 *
 * Adjusted p-values are the smallest alpha at which each would be rejected:
 * max over the steps up to it of min(1, p_(j) · W_j / w_(j)), W_j the weight left at step j.
 */
export interface HolmResult {
  adjusted: number[];
  rejected: boolean[];
}

export function holm(pValues: readonly number[], alpha: number, weights?: readonly number[]): HolmResult {
  const m = pValues.length;
  const w = weights ?? pValues.map(() => 1);
  if (w.length !== m) throw new RangeError('holm: one weight per p-value');
  for (const x of w)
    if (!(x > 0) || !Number.isFinite(x)) throw new RangeError(`holm: weight ${x} is not positive`);
  for (const p of pValues) if (!(p >= 0 && p <= 1)) throw new RangeError(`holm: ${p} is not a p-value`);
  const order = pValues.map((_, i) => i).sort((a, b) => pValues[a]! / w[a]! - pValues[b]! / w[b]! || a - b);
  let left = w.reduce((a, b) => a + b, 0);
  let running = 0;
  let stopped = false;
  const adjusted = new Array<number>(m).fill(1);
  const rejected = new Array<boolean>(m).fill(false);
  for (const i of order) {
    running = Math.max(running, Math.min(1, (pValues[i]! * left) / w[i]!));
    adjusted[i] = running;
    if (!stopped && pValues[i]! <= (alpha * w[i]!) / left) rejected[i] = true;
    else stopped = true;
    left -= w[i]!;
  }
  return { adjusted, rejected };
}
