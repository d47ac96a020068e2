/**
 * The cassette: recorded judge answers in a JSONL file (default `.tracejury/cassette.jsonl`) that
 * is committed, so CI replays verdicts without an API key. One entry a line, sorted by key, one
 * line per key, fields in a fixed order: the file a recording leaves is the same bytes whoever
 * recorded it and however many times, so its diff shows only answers that changed. Each line
 * names, beside the hash it is looked up by, what it decides (the trace, the test or detector, the
 * rubric) and the judge (provider, model), so a reviewer of that diff can tell whose verdict an
 * edited line would change; every verdict replayed from it says so (`replayed`).
 *
 * Recording rewrites the file rather than appending to it. Several writers may record into one file
 * at once (the test workers of a Vitest run, two CI jobs on one checkout), so each write takes a
 * lock file beside the cassette, reads the file as it is on disk now, merges this process's new
 * entries into it (an entry replaces the one with its key; an identical answer keeps the line on
 * file, recordedAt included) and renames a temporary file over it. Writes of one process go
 * through one promise chain and are batched: the entries recorded while a write runs go in the next.
 *
 * The mode — `replay` (CI: the cassette or nothing), `record` (call every judge and record), `auto`
 * (replay, call and record on a miss) — comes from the config, the plugin's option, `--cassette`,
 * or the TRACEJURY_CASSETTE environment variable, which wins over the config so that recording is
 * one command: `TRACEJURY_CASSETTE=record npx vitest run`.
 */
import { open, mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { UsageError } from '../trace/paths.js';
import { fsErrorReason } from '../util/fsError.js';
import { nearest } from '../util/nearest.js';

export const CASSETTE_MODES = ['auto', 'replay', 'record'] as const;
export type CassetteMode = (typeof CASSETTE_MODES)[number];
export const DEFAULT_CASSETTE_PATH = '.tracejury/cassette.jsonl';
/** The environment variable that sets the cassette mode of a run, over the config. */
export const CASSETTE_ENV = 'TRACEJURY_CASSETTE';

export const CassetteEntrySchema = z.object({
  /** The hash of what was asked (provider, model, prompt, options): what a replay looks up. */
  key: z.string(),
  /**
   * What the answer decides, in plain words beside the hash, for a reviewer of the cassette's diff:
   * the trace judged, the test or detector it was judged for, and the rubric. Written since issue
   * 29; lines without them (older cassettes) replay all the same: the key alone is looked up.
   */
  traceId: z.string().optional(),
  name: z.string().optional(),
  rubric: z.string().optional(),
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

/**
 * The mode TRACEJURY_CASSETTE asks for, or undefined when it is unset or empty. Any other value is
 * an error, with the nearest mode: a misspelt `recrod` must not quietly replay.
 */
export function cassetteModeFromEnv(
  env: Record<string, string | undefined> = process.env,
): CassetteMode | undefined {
  const value = env[CASSETTE_ENV]?.trim();
  if (!value) return undefined;
  if ((CASSETTE_MODES as readonly string[]).includes(value)) return value as CassetteMode;
  const hint = nearest(value, CASSETTE_MODES);
  throw new CassetteModeError(
    `${CASSETTE_ENV}=${JSON.stringify(value)}: expected one of ${CASSETTE_MODES.join(', ')}` +
      (hint ? ` — did you mean "${hint}"?` : ''),
  );
}

export class CassetteModeError extends UsageError {
  override name = 'CassetteModeError';
}

function serialise(e: CassetteEntry): string {
  // Explicit field order keeps lines byte-stable whatever order the entry was built in.
  return JSON.stringify({
    key: e.key,
    ...(e.traceId !== undefined ? { traceId: e.traceId } : {}),
    ...(e.name !== undefined ? { name: e.name } : {}),
    ...(e.rubric !== undefined ? { rubric: e.rubric } : {}),
    provider: e.provider,
    model: e.model,
    answer: e.answer,
    usage: { inputTokens: e.usage.inputTokens, outputTokens: e.usage.outputTokens },
    httpStatus: e.httpStatus,
    usedStructuredOutput: e.usedStructuredOutput,
    recordedAt: e.recordedAt,
  });
}

/** Everything but when it was recorded: a new recording of the same answer changes nothing on file. */
function sameAnswer(a: CassetteEntry, b: CassetteEntry): boolean {
  return (
    a.provider === b.provider &&
    a.model === b.model &&
    a.answer === b.answer &&
    a.httpStatus === b.httpStatus &&
    a.usedStructuredOutput === b.usedStructuredOutput &&
    a.usage.inputTokens === b.usage.inputTokens &&
    a.usage.outputTokens === b.usage.outputTokens
  );
}

interface ParsedFile {
  entries: Map<string, CassetteEntry>;
  /** Lines that are not entries, as `path:line: reason`. */
  problems: string[];
  /** Those lines' text, kept as they are when the file is rewritten (a hand edit is not lost). */
  unreadable: string[];
}

function parseCassette(path: string, text: string): ParsedFile {
  const entries = new Map<string, CassetteEntry>();
  const problems: string[] = [];
  const unreadable: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      const entry = CassetteEntrySchema.parse(JSON.parse(line));
      // The last line for a key wins (a file appended to by an older version holds several).
      entries.set(entry.key, entry);
    } catch (err) {
      problems.push(`${path}:${i + 1}: ${(err as Error).message.split('\n')[0]}`);
      unreadable.push(line);
    }
  });
  return { entries, problems, unreadable };
}

/** The cassette file's text, or undefined when there is none yet. */
async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Why `path` cannot be a cassette (a directory, a device, a pipe: reading one could block or never
 * end), or undefined when it is a file or nothing yet. Checked before it is read.
 */
async function unusableReason(path: string): Promise<string | undefined> {
  let info;
  try {
    info = await stat(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    return fsErrorReason(err);
  }
  if (info.isFile()) return undefined;
  return info.isDirectory()
    ? 'it is a directory'
    : info.isCharacterDevice() || info.isBlockDevice()
      ? 'it is a device, not a file'
      : info.isFIFO()
        ? 'it is a named pipe, not a file'
        : 'it is not a regular file';
}

function render(file: ParsedFile): string {
  const sorted = [...file.entries.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return [...sorted.map(serialise), ...file.unreadable].map((l) => `${l}\n`).join('');
}

/** A lock older than this was left by a process that died mid-write (a write takes milliseconds). */
const STALE_LOCK_MS = 30_000;
/** How long a writer waits for another's lock before giving up with an error. */
const LOCK_WAIT_MS = 60_000;

async function withLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lock, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const age = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > STALE_LOCK_MS) {
        await unlink(lock).catch(() => undefined);
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(
          `${lock} is held by another writer for over ${LOCK_WAIT_MS / 1000} s; remove it if no run is recording`,
        );
      await new Promise((r) => setTimeout(r, Math.min(10 * 2 ** Math.min(attempt, 4), 150)));
    }
  }
  try {
    return await fn();
  } finally {
    await unlink(lock).catch(() => undefined);
  }
}

export class Cassette {
  private entries = new Map<string, CassetteEntry>();
  /** Recorded here and not yet on disk. */
  private pending = new Map<string, CassetteEntry>();
  private loading: Promise<void> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private writeQueued = false;
  /** Lines that could not be read, and writes that failed, as `path[:line]: reason`. */
  readonly problems: string[] = [];
  /**
   * Why the path cannot be a cassette at all (a directory, a device, unreadable), once loaded:
   * every judge call through it fails with this, naming the path, instead of an internal error.
   */
  unusable: string | undefined;

  constructor(readonly path: string) {}

  load(): Promise<void> {
    this.loading ??= this.read();
    return this.loading;
  }

  private async read(): Promise<void> {
    this.unusable = await unusableReason(this.path);
    if (this.unusable) return;
    let text: string | undefined;
    try {
      text = await readIfExists(this.path);
    } catch (err) {
      this.unusable = fsErrorReason(err);
      return;
    }
    if (text === undefined) return;
    const parsed = parseCassette(this.path, text);
    for (const [key, entry] of parsed.entries) if (!this.pending.has(key)) this.entries.set(key, entry);
    this.problems.push(...parsed.problems);
  }

  get(key: string): CassetteEntry | undefined {
    return this.entries.get(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Stores an entry and writes it to the file, replacing any entry with its key; an answer already
   * on file (the same text, status and usage) leaves the file as it is.
   */
  record(entry: CassetteEntry): Promise<void> {
    this.entries.set(entry.key, entry);
    this.pending.set(entry.key, entry);
    return this.scheduleWrite();
  }

  private scheduleWrite(): Promise<void> {
    // One write in the chain takes everything recorded until it starts.
    if (this.writeQueued) return this.writing;
    this.writeQueued = true;
    this.writing = this.writing
      .then(async () => {
        this.writeQueued = false;
        const batch = this.pending;
        this.pending = new Map();
        await this.merge(batch);
      })
      .catch((err: unknown) => {
        this.problems.push(`${this.path}: write failed: ${(err as Error).message}`);
      });
    return this.writing;
  }

  /** Under the lock: the file as it is now, with `batch` merged in, sorted, renamed into place. */
  private async merge(batch: Map<string, CassetteEntry>): Promise<void> {
    const unusable = await unusableReason(this.path);
    if (unusable) throw new Error(`${this.path}: ${unusable}`);
    await mkdir(dirname(this.path), { recursive: true });
    await withLock(this.path, async () => {
      const text = await readIfExists(this.path);
      const file = parseCassette(this.path, text ?? '');
      for (const [key, entry] of batch) {
        const onFile = file.entries.get(key);
        // The same answer stays as it is on file, unless the line lacks what it decides (an older
        // cassette's): then it gains its plain fields once.
        const labelled = onFile?.rubric !== undefined || entry.rubric === undefined;
        if (onFile && sameAnswer(onFile, entry) && labelled) continue;
        file.entries.set(key, entry);
      }
      const next = render(file);
      if (next === text) return;
      const tmp = `${this.path}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(tmp, next, 'utf8');
      await rename(tmp, this.path);
    });
  }

  /** Resolves when every write issued so far is on disk. */
  flush(): Promise<void> {
    return this.writing;
  }

  /** Rewrites the file sorted by key with one line per key (files an older version appended to). */
  async compact(): Promise<void> {
    const done = this.writing.then(() => this.merge(new Map()));
    // The chain goes on after a failed compaction; the caller sees the failure.
    this.writing = done.catch(() => undefined);
    return done;
  }
}

const opened = new Map<string, Cassette>();

/** The process-wide cassette for `path`: every session writing the file shares its single writer. */
export function openCassette(path: string = DEFAULT_CASSETTE_PATH): Cassette {
  const abs = resolve(path);
  let c = opened.get(abs);
  if (!c) {
    c = new Cassette(abs);
    opened.set(abs, c);
  }
  return c;
}

/** Sorts and de-duplicates a cassette file in place. */
export function compactCassette(path: string = DEFAULT_CASSETTE_PATH): Promise<void> {
  return openCassette(path).compact();
}

/** Forgets loaded cassettes (tests that rewrite files between runs). */
export function closeAllCassettes(): void {
  opened.clear();
}
