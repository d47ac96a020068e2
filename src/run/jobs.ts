/**
 * How many threads a run uses. Workers pay for themselves only on large inputs: each starts by
 * loading tracejury's modules (~0.1–0.3 s), and on a few megabytes that is the whole run.
 */
import { stat } from 'node:fs/promises';
import { expandPaths } from '../trace/paths.js';

/** Below this much input a run stays in one thread whatever --jobs says. */
export const PARALLEL_MIN_BYTES = 32 * 1024 * 1024;

/** TRACEJURY_PARALLEL_MIN_BYTES lowers the threshold, for tests and benchmarks of the workers on small inputs. */
function parallelMinBytes(): number {
  const given = Number(process.env.TRACEJURY_PARALLEL_MIN_BYTES);
  return Number.isFinite(given) && given >= 0 ? given : PARALLEL_MIN_BYTES;
}

/**
 * The threads to use for these paths: `requested`, or 1 when the input is small. Problems with
 * the paths are left to the loader, which reports them.
 */
export async function effectiveJobs(
  paths: string[],
  requested: number,
  cwd: string,
): Promise<{ count: number; bytes: number; files: number }> {
  if (requested <= 1) return { count: 1, bytes: 0, files: 0 };
  let files;
  try {
    files = await expandPaths(paths, cwd, () => {});
  } catch {
    return { count: 1, bytes: 0, files: 0 };
  }
  let bytes = 0;
  for (const f of files) {
    try {
      bytes += (await stat(f.path)).size;
    } catch {
      // Reported by the loader.
    }
  }
  return { count: bytes < parallelMinBytes() ? 1 : requested, bytes, files: files.length };
}
