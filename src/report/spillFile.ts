/**
 * A list of JSON values kept in a temporary file rather than in memory: each value's JSON text as
 * the caller's `toJson` writes it (the report's own text of it, so writing the report copies it),
 * ended by a NUL (JSON.stringify escapes every control character, so no text holds one), appended
 * as values come and read back one at a time, as often as needed. A report over a gigabyte of
 * small traces lists hundreds of thousands of them; as objects they would be most of the run's
 * memory.
 *
 * The file lives in its own directory under os.tmpdir(); `remove()` deletes it (idempotent), and a
 * process that exits before that (an uncaught error) deletes it on the way out.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Appends are written in pieces of about this many characters, and reads take this many bytes at
 * a time: small enough that the strings they make stay out of V8's large-object space, which only
 * a full collection frees (jsonChunks.ts, CHUNK).
 */
const WRITE_CHUNK = 1 << 15;
const READ_CHUNK = 1 << 15;

export interface SpillFile<T> {
  append(value: T): void;
  /** The values appended so far. */
  readonly length: number;
  /** The values' JSON texts in the order they were appended, one at a time (the file stays). */
  texts(): Generator<string>;
  /** The values in the order they were appended, parsed one at a time (the file stays). */
  values(): Generator<T>;
  /** Deletes the file and its directory; reading after it is an error. */
  remove(): void;
}

/** The byte that ends each value's text. */
const END = '\u0000';

export function createSpillFile<T>(name: string, toJson: (value: T) => string): SpillFile<T> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tracejury-report-'));
  const file = path.join(dir, `${name}.spill`);
  const fd = openSync(file, 'w+');
  let pending = '';
  let length = 0;
  let removed = false;
  // One buffer for every write and one for every read: a buffer made per write is garbage outside
  // the heap that only a full collection frees, and runs of small traces seldom have one.
  const writeBuffer = Buffer.allocUnsafe(WRITE_CHUNK * 3 + 4);
  let readBuffer: Buffer | undefined;
  const flush = () => {
    if (pending.length === 0) return;
    if (pending.length * 3 <= writeBuffer.length) {
      const n = writeBuffer.write(pending, 0, 'utf8');
      writeSync(fd, writeBuffer, 0, n);
    } else writeSync(fd, pending);
    pending = '';
  };
  const removeOnExit = () => remove();
  process.once('exit', removeOnExit);
  function remove() {
    if (removed) return;
    removed = true;
    process.removeListener('exit', removeOnExit);
    try {
      closeSync(fd);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const list: SpillFile<T> = {
    append(value) {
      if (removed) throw new Error(`the spill file ${file} was removed`);
      pending += toJson(value) + END;
      length++;
      if (pending.length >= WRITE_CHUNK) flush();
    },
    get length() {
      return length;
    },
    *texts() {
      if (removed) throw new Error(`the spill file ${file} was removed`);
      flush();
      const buffer = (readBuffer ??= Buffer.allocUnsafe(READ_CHUNK));
      const decoder = new TextDecoder('utf-8');
      let position = 0;
      let rest = '';
      for (;;) {
        const n = readSync(fd, buffer, 0, buffer.length, position);
        if (n === 0) break;
        position += n;
        const text = rest + decoder.decode(buffer.subarray(0, n), { stream: true });
        let start = 0;
        for (let end = text.indexOf(END); end !== -1; end = text.indexOf(END, start)) {
          yield text.slice(start, end);
          start = end + 1;
        }
        rest = text.slice(start);
      }
      rest += decoder.decode();
      if (rest.length > 0) throw new Error(`the spill file ${file} ends inside a value`);
    },
    *values() {
      for (const text of list.texts()) yield JSON.parse(text) as T;
    },
    remove,
  };
  return list;
}
