/**
 * A list of JSON values kept in a temporary file rather than in memory: one compact JSON text a
 * line (JSON.stringify escapes every control character, so a value never spans lines), appended as
 * values come and read back one at a time, as often as needed. A report over a gigabyte of small
 * traces lists hundreds of thousands of them; as objects they would be most of the run's memory.
 *
 * The file lives in its own directory under os.tmpdir(); `remove()` deletes it (idempotent), and a
 * process that exits before that (an uncaught error) deletes it on the way out.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Appends are written in pieces of about this many characters. */
const WRITE_CHUNK = 1 << 20;
/** Reads take this many bytes at a time. */
const READ_CHUNK = 1 << 20;

export interface SpillFile<T> {
  append(value: T): void;
  /** The values appended so far. */
  readonly length: number;
  /** The values in the order they were appended, parsed one at a time (the file stays). */
  values(): Generator<T>;
  /** Deletes the file and its directory; reading after it is an error. */
  remove(): void;
}

export function createSpillFile<T>(name: string): SpillFile<T> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tracejury-report-'));
  const file = path.join(dir, `${name}.jsonl`);
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
  return {
    append(value) {
      if (removed) throw new Error(`the spill file ${file} was removed`);
      pending += `${JSON.stringify(value)}\n`;
      length++;
      if (pending.length >= WRITE_CHUNK) flush();
    },
    get length() {
      return length;
    },
    *values() {
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
        for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
          yield JSON.parse(text.slice(start, nl)) as T;
          start = nl + 1;
        }
        rest = text.slice(start);
      }
      rest += decoder.decode();
      if (rest.length > 0) yield JSON.parse(rest) as T;
    },
    remove,
  };
}
