/**
 * How many random draws a resampling test (the sign-flip and the permutation test) makes when no
 * exact method applies: 20,000, fewer when each draw weighs so many values that 20,000 of them
 * would take more than a second or so, and never fewer than 2,000.
 */
const DEFAULT_DRAWS = 20_000;
/** Draws × values weighed per draw, at most. */
const MAX_WORK = 60_000_000;
const MIN_DRAWS = 2_000;

/** The draws for a test whose every draw weighs `values` values. */
export function monteCarloDraws(values: number): number {
  return Math.max(MIN_DRAWS, Math.min(DEFAULT_DRAWS, Math.floor(MAX_WORK / Math.max(1, values))));
}
