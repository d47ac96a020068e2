/**
 * Where a path really leads, and whether that is inside a root: the one check every reader of a
 * path that data or a checkout names makes (trace inputs found in a directory or by a glob, the
 * trace files a report names, the saved traces the Action uploads, the judge cassette). A path
 * checked only as written (`path.relative`) is fooled by a link anywhere along it — a committed
 * `.tracejury/traces/cache → /home/runner/.ssh`, a `traces/run.jsonl → /etc/passwd` — so both the
 * path and the root are followed through every link first (`realpath`), then compared.
 *
 * A path that does not exist yet (a cassette to record) is followed as far as it exists: its
 * nearest existing folder's real path with the rest appended, which is where a write would land.
 */
import { realpathSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';

export interface RealPathCheck {
  /** Whether `real` is `root` (followed) or inside it. */
  inside: boolean;
  /** The path followed through every link (of its existing part). */
  real: string;
}

/** `rel` (from path.relative) stays inside: not `..`, not `../…`, not absolute (another drive). */
function staysInside(rel: string): boolean {
  return rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/** Whether `file` is `root` or inside it, as written (no link followed): for paths already real. */
export function isInside(file: string, root: string): boolean {
  return staysInside(path.relative(path.resolve(root), path.resolve(file)));
}

const isMissing = (err: unknown) =>
  ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException | undefined)?.code ?? '');

/** `file`'s real path; for a path that does not exist, its nearest existing folder's, with the rest. */
export function realPathSync(file: string): string {
  const absolute = path.resolve(file);
  let existing = absolute;
  for (;;) {
    try {
      return path.join(realpathSync(existing), path.relative(existing, absolute));
    } catch (err) {
      const parent = path.dirname(existing);
      if (!isMissing(err) || parent === existing) throw err;
      existing = parent;
    }
  }
}

/** realPathSync, without blocking. */
export async function realPathOf(file: string): Promise<string> {
  const absolute = path.resolve(file);
  let existing = absolute;
  for (;;) {
    try {
      return path.join(await realpath(existing), path.relative(existing, absolute));
    } catch (err) {
      const parent = path.dirname(existing);
      if (!isMissing(err) || parent === existing) throw err;
      existing = parent;
    }
  }
}

/** Where `file` really leads, and whether that is inside `root` (also followed through its links). */
export function realPathInsideSync(file: string, root: string): RealPathCheck {
  const real = realPathSync(file);
  return { inside: isInside(real, realPathSync(root)), real };
}

/** realPathInsideSync, without blocking. */
export async function realPathInside(file: string, root: string): Promise<RealPathCheck> {
  const [real, realRoot] = await Promise.all([realPathOf(file), realPathOf(root)]);
  return { inside: isInside(real, realRoot), real };
}
