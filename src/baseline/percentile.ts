/** Percentile with linear interpolation between closest ranks (numpy's default). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  return percentileOfSorted(
    [...values].sort((a, b) => a - b),
    p,
  );
}

/** `percentile` of values already sorted ascending (the same arithmetic, without the copy and sort). */
export function percentileOfSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}
