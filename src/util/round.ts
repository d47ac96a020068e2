/** A score or ratio to three decimals, as confidences and ratios are written in signals. */
export const round3 = (n: number): number => Math.round(n * 1000) / 1000;
