/**
 * A time as importers meet it: an ISO 8601 string (a date-time without a zone is UTC, see
 * parseIsoMs) or a unix epoch number, whose unit is told apart by size — below 1e11 seconds (as
 * Python's time.time() writes them, fractions allowed), below 1e14 milliseconds, below 1e17
 * microseconds, else nanoseconds. Milliseconds since 1970, or undefined when it is neither.
 */
import { parseIsoMs } from './measure.js';

/** The largest time a Date can hold, in ms either side of 1970; beyond it toISOString throws. */
const MAX_DATE_MS = 8.64e15;

/** Milliseconds since 1970 from a unix epoch number in s, ms, µs or ns, told apart by size. */
export function epochToMs(n: number): number | undefined {
  if (!Number.isFinite(n)) return undefined;
  const size = Math.abs(n);
  const ms = size < 1e11 ? n * 1e3 : size < 1e14 ? n : size < 1e17 ? n / 1e3 : n / 1e6;
  const rounded = Math.round(ms);
  return Math.abs(rounded) <= MAX_DATE_MS ? rounded : undefined;
}

export function parseTimestamp(value: unknown): number | undefined {
  if (typeof value === 'number') return epochToMs(value);
  if (typeof value !== 'string') return undefined;
  const t = parseIsoMs(value);
  return Number.isFinite(t) ? t : undefined;
}
