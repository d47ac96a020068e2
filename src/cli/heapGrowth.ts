/**
 * How far V8's heap may grow past the data alive after a full collection before the next one.
 * V8 picks a factor between 1.1 and 4 from how fast the program allocates; analyze allocates fast
 * (each trace parsed, scanned and dropped), so V8 picks near the top, and on a gigabyte of small
 * traces the process held two to three times the data it used: 444 MB peak RSS for about 120 MB of
 * live heap. A bound of HEAP_GROWING_PERCENT % makes the peak follow the live data (docs/performance.md,
 * "What memory holds"), for a few per cent more CPU time in full collections.
 *
 * The flag is V8's `--heap-growing-percent`, read at each collection, so setting it when the CLI
 * starts takes effect for the whole run. A user who chose V8's heap settings themselves (the flag
 * or `--max-old-space-size`, on node's command line or in NODE_OPTIONS) keeps them.
 */
import v8 from 'node:v8';

export const HEAP_GROWING_PERCENT = 40;

const USER_HEAP_FLAG = /--(?:heap[-_]growing[-_]percent|max[-_]old[-_]space[-_]size)\b/;

/** The flag to set, or undefined when the user set V8's heap size or growth themselves. */
export function heapGrowthFlag(execArgv: readonly string[], nodeOptions: string | undefined): string | undefined {
  if (execArgv.some((arg) => USER_HEAP_FLAG.test(arg)) || USER_HEAP_FLAG.test(nodeOptions ?? '')) return undefined;
  return `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

/** Bounds the heap's growth for this process (see above); returns the flag set, if any. */
export function boundHeapGrowth(): string | undefined {
  const flag = heapGrowthFlag(process.execArgv, process.env.NODE_OPTIONS);
  if (flag) v8.setFlagsFromString(flag);
  return flag;
}
