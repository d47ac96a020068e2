/** Numbers, times and JSON as the viewer shows them. Money and counts come from the library's own formatters. */
export { formatUsd } from '../../../src/util/usd.js';
export { fmtInt, plural } from '../../../src/util/thousands.js';
export { stepsText } from '../../../src/util/steps.js';

/** "850 ms", "1.25 s", "12.5 s", "3 min 20 s". */
export function formatMs(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const min = Math.floor(ms / 60_000);
  return `${min} min ${Math.round((ms - min * 60_000) / 1000)} s`;
}

/** A score or rate in [0, 1] with two decimals. */
export const score2 = (x: number): string => x.toFixed(2);

/**
 * Text of a value from a trace: strings as they are (a string holding a JSON object or array, as
 * tool results often are, indented), anything else as indented JSON.
 */
export function valueText(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return /^\s*[[{]/.test(value) ? (indentedJson(value) ?? value) : value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

function indentedJson(text: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return undefined;
  }
}

/** One line of a value, cut to `max` characters. */
export function oneLine(value: unknown, max = 80): string {
  const text = valueText(value).replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** "file:line", or the file alone. */
export const fileLine = (file: string | undefined, line: number | undefined): string =>
  file === undefined ? '' : line !== undefined ? `${file}:${line}` : file;
