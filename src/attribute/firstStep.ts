/** The smallest step number of a signal (a loop, not Math.min(...): a signal may name thousands). */
export function firstStep(steps: readonly number[]): number {
  let first = Infinity;
  for (const n of steps) if (n < first) first = n;
  return first;
}
