/**
 * How far V8's heap may grow past the data alive after a full collection before the next one.
 * V8 picks a factor between 1.1 and 4 from how fast the program allocates; analyze allocates fast
 * (each trace parsed, scanned and dropped), so V8 picks near the top, and on a gigabyte of small
 * native traces the process peaked at 465 MB RSS for about 120 MB of live heap. Bounded, the peak
 * follows the live data: 261 MB at 30 %, 270 MB at 40 %, 281 MB at 45 %, 294 MB at 60 % on the
 * same gigabyte (MB of 2^20 bytes), for no CPU time measurable at 20 MB (the CI guard's inputs)
 * and a few per cent in full collections at a gigabyte (docs/performance.md, issue 32's last pass).
 *
 * The flag is V8's `--heap-growing-percent`, read at each collection, so setting it when the CLI
 * (or the Action) starts takes effect for the whole run. A user who chose V8's heap settings
 * themselves (the flag or `--max-old-space-size`, on node's command line or in NODE_OPTIONS)
 * keeps them.
 */
import v8 from 'node:v8';

export const HEAP_GROWING_PERCENT = 40;

const USER_HEAP_FLAG = /--(?:heap[-_]growing[-_]percent|max[-_]old[-_]space[-_]size)\b/;

/** The flag to set, or undefined when the user set V8's heap size or growth themselves. */
export function heapGrowthFlag(
  execArgv: readonly string[],
  nodeOptions: string | undefined,
): string | undefined {
  if (execArgv.some((arg) => USER_HEAP_FLAG.test(arg)) || USER_HEAP_FLAG.test(nodeOptions ?? ''))
    return undefined;
  return `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

/** Bounds the heap's growth for this process (see above); returns the flag set, if any. */
export function boundHeapGrowth(): string | undefined {
  const flag = heapGrowthFlag(process.execArgv, process.env.NODE_OPTIONS);
  if (flag) v8.setFlagsFromString(flag);
  return flag;
}
