/**
 * Dollars as every report writes them: "$0.00", "$0.000412" under a cent, "$0.1234" under a dollar,
 * "$12.50" above. Pure and free of Node APIs: the HTML viewer bundles it too.
 */
export function formatUsd(usd: number): string {
  // Reports are validated finite; a value that is not still never reads as "$Infinity" or "$NaN".
  if (!Number.isFinite(usd)) return 'n/a';
  if (usd === 0) return '$0.00';
  if (usd < 0.01) return `$${usd.toFixed(6).replace(/0+$/, '')}`;
  return `$${usd.toFixed(usd < 1 ? 4 : 2)}`;
}
