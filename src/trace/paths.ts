/** Expands the CLI's paths, directories and globs into a sorted list of trace files. */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'tinyglobby';

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

async function walk(dir: string, out: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  for (const e of entries) {
    if (e.name.startsWith('.') || e.name === 'node_modules') continue;
    const full = path.join(dir, e.name);
    if (e.isDirectory()) await walk(full, out);
    else if (e.isFile() && TRACE_FILE_EXTENSIONS.includes(path.extname(e.name).toLowerCase())) out.push(full);
  }
}

const GLOB_CHARS = /[*?[\]{}]/;

/** Files named by `inputs`, resolved against `cwd`, sorted by name, each once. */
export async function expandPaths(inputs: string[], cwd = process.cwd()): Promise<InputFile[]> {
  const files = new Map<string, string>();
  for (const given of inputs) {
    const absolute = path.resolve(cwd, given);
    const nameOf = (f: string) => (path.isAbsolute(given) ? f : path.relative(cwd, f));
    const info = await stat(absolute).catch(() => undefined);
    let found: string[];
    if (info?.isDirectory()) {
      found = [];
      await walk(absolute, found);
    } else if (info?.isFile()) {
      found = [absolute];
    } else if (GLOB_CHARS.test(given)) {
      found = await glob(given, { onlyFiles: true, dot: false, cwd, absolute: true });
      if (found.length === 0) throw new UsageError(`${given}: the pattern matched no files`);
    } else {
      throw new UsageError(`${given}: no such file or directory`);
    }
    for (const f of found) if (!files.has(f)) files.set(f, nameOf(f));
  }
  return [...files.entries()]
    .map(([p, name]) => ({ path: p, name }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
