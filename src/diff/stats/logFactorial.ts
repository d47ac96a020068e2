/**
 * ln(n!) for the exact tests (binomial and hypergeometric terms). A table of running sums up to
 * TABLE_SIZE, and Stirling's series with four correction terms beyond, where its error is below
 * one part in 1e16.
 */
const TABLE_SIZE = 256;
const TABLE = (() => {
  const t = new Float64Array(TABLE_SIZE);
  for (let i = 2; i < TABLE_SIZE; i++) t[i] = t[i - 1]! + Math.log(i);
  return t;
})();

export function logFactorial(n: number): number {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`logFactorial: ${n} is not a non-negative integer`);
  if (n < TABLE_SIZE) return TABLE[n]!;
  const inv = 1 / n;
  const inv2 = inv * inv;
  return (
    n * Math.log(n) -
    n +
    0.5 * Math.log(2 * Math.PI * n) +
    inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 / 1680)))
  );
}

/** ln C(n, k). */
export function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}
