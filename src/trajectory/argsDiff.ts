/**
 * A short text diff of two argument values, path by path, for a reviewer reading a failed test:
 *
 *     - passengers[0].dob: "1990-04-05"
 *     + passengers[0].dob: "1990-05-04"
 *
 * `-` is the expected value, `+` the recorded one (as Vitest prints Expected / Received). Object key
 * order is ignored (as in argsEqual); arrays are compared index by index. A key present on one side
 * only gets only its `-` or `+` line — unless the argument mode allows it: `superset` leaves out the
 * keys only the recorded call has, `subset` the keys only the expected call has, so the diff shows
 * what failed the comparison, not what the mode let through.
 */
import { definedKeys, isPlainObject } from './argsEqual.js';
import { redactAndCut } from '../redact/safeText.js';

/** At most this many lines; the rest is counted in a last "… and N more" line. */
export const MAX_DIFF_LINES = 12;
/** Values longer than this (as JSON) are cut with an ellipsis. */
const MAX_VALUE_CHARS = 80;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function keyPath(path: string, key: string): string {
  if (IDENTIFIER.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

/** A value as one line of JSON, cut to a readable length. */
export function showValue(value: unknown, maxChars = MAX_VALUE_CHARS): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  // Redacted before the cut: a failure message shows arguments, which may hold a key.
  return redactAndCut(text, maxChars);
}

/** Which one-sided keys the comparison allowed (and the diff leaves out). */
export type DiffMode = 'exact' | 'superset' | 'subset';

function collect(expected: unknown, actual: unknown, path: string, out: string[], mode: DiffMode): void {
  if (Object.is(expected, actual) || expected === actual) return;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const n = Math.max(expected.length, actual.length);
    for (let i = 0; i < n; i++) {
      const p = `${path}[${i}]`;
      if (i >= actual.length) out.push(`- ${p}: ${showValue(expected[i])}`);
      else if (i >= expected.length) out.push(`+ ${p}: ${showValue(actual[i])}`);
      else collect(expected[i], actual[i], p, out, mode);
    }
    return;
  }
  if (isPlainObject(expected) && isPlainObject(actual)) {
    const keys = definedKeys(expected);
    for (const k of definedKeys(actual)) if (expected[k] === undefined) keys.push(k);
    for (const k of keys) {
      const p = keyPath(path, k);
      if (actual[k] === undefined) {
        if (mode !== 'subset') out.push(`- ${p}: ${showValue(expected[k])}`);
      } else if (expected[k] === undefined) {
        if (mode !== 'superset') out.push(`+ ${p}: ${showValue(actual[k])}`);
      } else collect(expected[k], actual[k], p, out, mode);
    }
    return;
  }
  const p = path === '' ? '(args)' : path;
  out.push(`- ${p}: ${showValue(expected)}`, `+ ${p}: ${showValue(actual)}`);
}

/**
 * The differences between expected and actual arguments, one line per path, at most
 * MAX_DIFF_LINES lines. Empty when the two are deeply equal.
 */
export function argsDiff(
  expected: unknown,
  actual: unknown,
  maxLines = MAX_DIFF_LINES,
  mode: DiffMode = 'exact',
): string {
  const lines: string[] = [];
  collect(expected, actual, '', lines, mode);
  if (lines.length > maxLines) {
    const rest = lines.length - (maxLines - 1);
    return [...lines.slice(0, maxLines - 1), `… and ${rest} more lines`].join('\n');
  }
  return lines.join('\n');
}
