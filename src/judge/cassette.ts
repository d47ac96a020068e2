/**
 * The cassette: recorded judge answers in a JSONL file (default `.tracejury/cassette.jsonl`) that
 * is committed, so CI replays verdicts without an API key. One entry a line, fields in a fixed
 * order; on load the last line for a key wins.
 *
 * Writes go through one promise chain per file (one writer per process), and each entry is a single
 * `O_APPEND` write of one line, so concurrent verdicts, and parallel test workers appending to the
 * same file, do not interleave lines. `compactCassette` rewrites the file sorted by key with one
 * line per key, for a stable diff before committing.
 */
import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';

export const CASSETTE_MODES = ['auto', 'replay', 'record'] as const;
export type CassetteMode = (typeof CASSETTE_MODES)[number];
export const DEFAULT_CASSETTE_PATH = '.tracejury/cassette.jsonl';

export const CassetteEntrySchema = z.object({
  key: z.string(),
  provider: z.enum(['openai', 'anthropic']),
  model: z.string(),
  /** The judge's answer text (for Anthropic tool use, the tool input as JSON). */
  answer: z.string(),
  usage: z.object({ inputTokens: z.number().nonnegative(), outputTokens: z.number().nonnegative() }),
  httpStatus: z.number().int(),
  usedStructuredOutput: z.boolean(),
  recordedAt: z.string(),
});
export type CassetteEntry = z.infer<typeof CassetteEntrySchema>;

function serialise(e: CassetteEntry): string {
  // Explicit field order keeps lines byte-stable whatever order the entry was built in.
  return JSON.stringify({
    key: e.key,
    provider: e.provider,
    model: e.model,
    answer: e.answer,
    usage: { inputTokens: e.usage.inputTokens, outputTokens: e.usage.outputTokens },
    httpStatus: e.httpStatus,
    usedStructuredOutput: e.usedStructuredOutput,
    recordedAt: e.recordedAt,
  });
}

export class Cassette {
  private entries = new Map<string, CassetteEntry>();
  private loading: Promise<void> | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Lines that could not be read, as `path:line: reason`. */
  readonly problems: string[] = [];

  constructor(readonly path: string) {}

  load(): Promise<void> {
    this.loading ??= this.read();
    return this.loading;
  }

  private async read(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        const entry = CassetteEntrySchema.parse(JSON.parse(line));
        this.entries.set(entry.key, entry);
      } catch (err) {
        this.problems.push(`${this.path}:${i + 1}: ${(err as Error).message.split('\n')[0]}`);
      }
    });
  }

  get(key: string): CassetteEntry | undefined {
    return this.entries.get(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Stores an entry and appends it to the file; identical answers already on file are not rewritten. */
  record(entry: CassetteEntry): Promise<void> {
    const prev = this.entries.get(entry.key);
    this.entries.set(entry.key, entry);
    if (
      prev &&
      prev.answer === entry.answer &&
      prev.httpStatus === entry.httpStatus &&
      prev.usedStructuredOutput === entry.usedStructuredOutput
    ) {
      return this.writing;
    }
    const line = serialise(entry) + '\n';
    this.writing = this.writing
      .then(async () => {
        await mkdir(dirname(this.path), { recursive: true });
        await appendFile(this.path, line, { encoding: 'utf8', flag: 'a' });
      })
      .catch((err: unknown) => {
        this.problems.push(`${this.path}: write failed: ${(err as Error).message}`);
      });
    return this.writing;
  }

  /** Resolves when every write issued so far is on disk. */
  flush(): Promise<void> {
    return this.writing;
  }

  /** Rewrites the file with one line per key, sorted by key (atomic rename). */
  async compact(): Promise<void> {
    await this.load();
    await this.flush();
    const sorted = [...this.entries.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const tmp = `${this.path}.${process.pid}.tmp`;
    this.writing = this.writing.then(async () => {
      await mkdir(dirname(this.path), { recursive: true });
      await writeFile(tmp, sorted.map((e) => serialise(e) + '\n').join(''), 'utf8');
      await rename(tmp, this.path);
    });
    return this.writing;
  }
}

const open = new Map<string, Cassette>();

/** The process-wide cassette for `path`: every session writing the file shares its single writer. */
export function openCassette(path: string = DEFAULT_CASSETTE_PATH): Cassette {
  const abs = resolve(path);
  let c = open.get(abs);
  if (!c) {
    c = new Cassette(abs);
    open.set(abs, c);
  }
  return c;
}

/** Sorts and de-duplicates a cassette file in place. */
export function compactCassette(path: string = DEFAULT_CASSETTE_PATH): Promise<void> {
  return openCassette(path).compact();
}

/** Forgets loaded cassettes (tests that rewrite files between runs). */
export function closeAllCassettes(): void {
  open.clear();
}
