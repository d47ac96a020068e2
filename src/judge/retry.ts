/**
 * Retry policy for judge calls. 429 and 5xx are retried with exponential backoff that honours the
 * server's `retry-after-ms` / `Retry-After` (seconds or an HTTP date), but never past the judge's
 * remaining time: when the wait would not fit, the call fails now with the last status.
 */

export interface HeaderSource {
  get(name: string): string | null | undefined;
}

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || (status >= 500 && status <= 599);
}

/** Milliseconds the server asked us to wait, or undefined when it did not say. */
export function parseRetryAfter(headers: HeaderSource | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms != null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = headers.get('retry-after');
  if (ra == null || ra.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return Math.max(0, Number(ra) * 1000);
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface BackoffOptions {
  baseMs?: number;
  maxMs?: number;
}

/** Exponential backoff (base · 2^attempt, capped) or the server's wish if it asked for longer. */
export function backoffDelay(
  attempt: number,
  retryAfterMs: number | undefined,
  opts: BackoffOptions = {},
): number {
  const base = opts.baseMs ?? 200;
  const max = opts.maxMs ?? 4000;
  const exp = Math.min(max, base * 2 ** attempt);
  return retryAfterMs === undefined ? exp : Math.max(retryAfterMs, 0);
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
