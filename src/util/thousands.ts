/**
 * Integers with thousands separators, as `toLocaleString('en-US')` writes them, without a trip
 * through Intl: the first Intl call of a process loads locale data (about 10 ms), which was a
 * visible part of a small run. Shared by detector messages and report renderers.
 */

/**
 * `n.toLocaleString('en-US')` for every n: safe integers are grouped by hand (1,234,567), which is
 * the same text without a trip through Intl; anything else (fractions, -0, huge or non-finite
 * numbers) goes to toLocaleString.
 */
export function fmtThousands(n: number): string {
  if (!Number.isFinite(n)) return 'n/a';
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(n < 0 ? -n : n);
  let out = digits;
  if (digits.length > 3) {
    let i = digits.length % 3 || 3;
    out = digits.slice(0, i);
    for (; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  }
  return n < 0 ? `-${out}` : out;
}

/** A count rounded to an integer, with thousands separators: 12,500. */
export function fmtInt(n: number): string {
  return fmtThousands(Math.round(n));
}

/** "1 call", "2,500 calls": a count with thousands separators and the word in the right number. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${fmtInt(n)} ${n === 1 ? word : many}`;
}
