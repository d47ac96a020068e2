/** Expands the CLI's paths, directories and globs into a sorted list of trace files. */
import { readdir, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { glob } from 'tinyglobby';
import { describeReadError, isFsError } from '../util/fsError.js';
import { isInside, realPathInside } from '../util/realPath.js';

export const TRACE_FILE_EXTENSIONS = ['.json', '.jsonl', '.ndjson'];

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface InputFile {
  /** Absolute path, for reading. */
  path: string;
  /** How reports name it: relative to cwd when the user wrote a relative path, else absolute. */
  name: string;
}

/** A file or directory that cannot be read, named as reports name files. */
export interface PathProblem {
  file: string;
  message: string;
}

/** Why a path that exists is not read: only regular files are, a pipe or device could block forever. */
function notARegularFile(info: Stats): string {
  const kind = info.isFIFO()
    ? 'a named pipe'
    : info.isSocket()
      ? 'a socket'
      : info.isCharacterDevice() || info.isBlockDevice()
        ? 'a device'
        : 'not a file or directory';
  return `not a regular file (${kind}); save the traces to a file and analyse that`;
}

async function walk(
  dir: string,
  out: string[],
  problem: (at: string, message: string) => void,
): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (!isFsError(err)) throw err;
    problem(dir, `${describeReadError(err, 'list')}; the trace files in it were not read`);
    return;
  }
  for (const e of entries) {
    if (e.name.startsWith('.') || e.name === 'node_modules') continue;
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      await walk(full, out, problem);
      continue;
    }
    if (!TRACE_FILE_EXTENSIONS.includes(path.extname(e.name).toLowerCase())) continue;
    if (e.isFile()) {
      out.push(full);
      continue;
    }
    // A symlink is followed to a file only, never into a directory, so a link to a parent cannot
    // loop the walk; a trace-named pipe, socket or dead link is reported rather than silently skipped.
    let info: Stats;
    try {
      info = await stat(full);
    } catch (err) {
      if (!isFsError(err)) throw err;
      problem(full, describeReadError(err));
      continue;
    }
    if (info.isFile()) out.push(full);
    else if (!info.isDirectory()) problem(full, notARegularFile(info));
  }
}

const GLOB_CHARS = /[*?[\]{}]/;

/** The folder a glob searches from: its path up to the first part with a glob character. */
function globBase(absoluteGlob: string): string {
  const parts = absoluteGlob.split(/[\\/]/);
  const fixed = parts.findIndex((p) => GLOB_CHARS.test(p));
  return parts.slice(0, fixed === -1 ? parts.length - 1 : fixed).join(path.sep) || path.sep;
}

export interface ExpandOptions {
  /**
   * The folder links may lead into (default: `cwd`). A file found in a directory or by a glob, or
   * named inside this folder, is read only when its real path is inside it: a committed link
   * (`traces/run.jsonl → /etc/passwd`, a linked folder) must not make tracejury read, and publish
   * as input errors, a file outside the checkout. An input the caller names outside this folder is
   * its own root: its directory's (or glob's) files must really be inside it.
   */
  within?: string;
}

const NO_TRACE_FILES = `no trace files found (looked for ${TRACE_FILE_EXTENSIONS.map((e) => `*${e}`).join(', ')}; hidden entries and node_modules are skipped)`;

/**
 * Files named by `inputs`, resolved against `cwd`, sorted by name, each once. A path that does not
 * exist or a glob that matches nothing is a usage error (a typo in CI should fail loudly); a file or
 * directory that exists but cannot be read, or a link that leads out of `options.within`, goes to
 * `onProblem`, so the readable ones are still read.
 */
export async function expandPaths(
  inputs: string[],
  cwd = process.cwd(),
  onProblem: (p: PathProblem) => void = (p) => {
    throw new UsageError(`${p.file}: ${p.message}`);
  },
  options: ExpandOptions = {},
): Promise<InputFile[]> {
  const within = path.resolve(cwd, options.within ?? cwd);
  /** Each file found: its name in reports, and the folder its real path must be inside (none: named outside, the caller's choice). */
  const files = new Map<string, { name: string; root: string | undefined }>();
  for (const given of inputs) {
    const absolute = path.resolve(cwd, given);
    const nameOf = (f: string) => (path.isAbsolute(given) ? f : path.relative(cwd, f) || '.');
    let problems = 0;
    const problem = (at: string, message: string) => {
      problems++;
      onProblem({ file: nameOf(at), message });
    };
    let info: Stats | undefined;
    try {
      info = await stat(absolute);
    } catch (err) {
      if (!isFsError(err)) throw err;
      // Anything but "not there" (a symlink loop, a directory we may not enter) is the input's
      // problem, not a typo.
      if (err.code !== 'ENOENT' && err.code !== 'ENOTDIR') {
        problem(absolute, describeReadError(err));
        continue;
      }
    }
    let found: string[];
    // Named inside `within`: everything it leads to stays inside `within`. Named outside it: a
    // directory's or a glob's files stay inside that directory; a file named is the caller's choice.
    let root: string | undefined = isInside(absolute, within) ? within : absolute;
    if (info?.isDirectory()) {
      found = [];
      await walk(absolute, found, problem);
      if (found.length === 0 && problems === 0) problem(absolute, NO_TRACE_FILES);
    } else if (info?.isFile()) {
      found = [absolute];
      if (root === absolute) root = undefined;
    } else if (info) {
      problem(absolute, notARegularFile(info));
      continue;
    } else if (GLOB_CHARS.test(given)) {
      if (root === absolute) root = globBase(absolute);
      found = await glob(given, { onlyFiles: true, dot: false, cwd, absolute: true });
      if (found.length === 0) throw new UsageError(`${given}: the pattern matched no files`);
    } else {
      throw new UsageError(`${given}: no such file or directory`);
    }
    for (const f of found) if (!files.has(f)) files.set(f, { name: nameOf(f), root });
  }
  const sorted = [...files.entries()]
    .map(([p, { name, root }]) => ({ path: p, name, root }))
    .sort((a, b) => a.name.localeCompare(b.name));
  // A symlink beside the file it points to (or two paths to one file) would read it twice: each
  // file is read once, under the first of its names.
  const seen = new Set<string>();
  const once: InputFile[] = [];
  for (const f of sorted) {
    let real = f.path;
    try {
      const check = await realPathInside(f.path, f.root ?? f.path);
      real = check.real;
      if (f.root !== undefined && !check.inside) {
        onProblem({ file: f.name, message: linkedOutside(f.root, cwd) });
        continue;
      }
    } catch (err) {
      if (!isFsError(err)) throw err;
      // Unreadable (a link loop): reading it says why, with the file's name.
    }
    if (seen.has(real)) continue;
    seen.add(real);
    once.push({ path: f.path, name: f.name });
  }
  return once;
}

/** Why a file found through a link out of its root is not read (the link's target is not named). */
function linkedOutside(root: string, cwd: string): string {
  const where = root === cwd ? 'the working directory' : root;
  return `a link to a file outside ${where}: not read (links are followed only to files inside ${where === 'the working directory' ? 'it' : 'that folder'})`;
}
