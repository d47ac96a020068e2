/** Expands the CLI's paths, directories and globs into a sorted list of trace files. */
import { stat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'tinyglobby';

export const TRACE_FILE_EXTENSIONS = ['.json', '.jsonl', '.ndjson'];

export class UsageError extends Error {
  override name = 'UsageError';
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

export async function expandPaths(inputs: string[]): Promise<string[]> {
  const files = new Set<string>();
  for (const input of inputs) {
    const info = await stat(input).catch(() => undefined);
    if (info?.isDirectory()) {
      const found: string[] = [];
      await walk(input, found);
      found.forEach((f) => files.add(f));
    } else if (info?.isFile()) {
      files.add(input);
    } else if (GLOB_CHARS.test(input)) {
      const found = await glob(input, { onlyFiles: true, dot: false });
      if (found.length === 0) throw new UsageError(`${input}: the pattern matched no files`);
      found.forEach((f) => files.add(f));
    } else {
      throw new UsageError(`${input}: no such file or directory`);
    }
  }
  return [...files].sort();
}
