/**
 * The first pass over a JSONL file on disk, for the formats that group records by trace id
 * (records, span-per-line OTLP, loose Langfuse observations): for every trace id, the last line it
 * appears on. With it the loader tells the reader "this trace is complete" right after that line,
 * so a trace is emitted and forgotten as soon as its last record is read, whatever the order of the
 * records, and memory does not grow with the file.
 *
 * No record is parsed. The pass looks for the keys that carry a trace id in the bytes:
 * - `"traceId"` and `"trace_id"` — records (`traceId` / `trace_id`), flat OTLP spans, OTLP/JSON
 *   documents (`traceId` of every span), the JS console exporter (`traceId`), the Python console
 *   exporter (`context.trace_id`), Langfuse observations (`traceId`);
 * - with `langfuseHeaders`, the top-level `"id"` of a line that has an `"observations"` key: a
 *   Langfuse trace header, whose observations may come on other lines. Only asked for Langfuse
 *   files: a search for a needle absent from the file costs as much as the rest of the pass.
 * The value after the colon is read when it is a string (escapes decoded as JSON does) or a number
 * (as String(number) writes it, which is how the records reader keys a numeric traceId).
 *
 * Why matching bytes is sound: inside a JSON string a quote is escaped, so `"traceId"` followed by
 * optional whitespace and a colon only occurs as a key. A key found where no reader looks (in
 * `metadata`, say) only makes a trace wait longer, never shorter. What the pass cannot see — a key
 * name written with \u escapes, a trace id in a form no reader uses — leaves the trace unclosed: it
 * is held until the end of the file, as before this pass existed (correct, only not bounded).
 *
 * Memory: the map holds one id and one number per trace; nothing else from the file is kept.
 */
import { open } from 'node:fs/promises';

const CHUNK = 1 << 20;
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
// Needles as latin1 strings (one-byte text): no Buffer is made for them.
const TRACE = '"trace';
const OBSERVATIONS = '"observations"';

const isSpace = (b: number | undefined): boolean => b === 0x20 || b === 0x09 || b === 0x0d;

function skipSpace(buf: Buffer, i: number, end: number): number {
  while (i < end && isSpace(buf[i])) i++;
  return i;
}

/** Index of the quote that closes the string whose opening quote is at `open`, or -1 before `end`. */
function closingQuote(buf: Buffer, open: number, end: number): number {
  let k = buf.indexOf(QUOTE, open + 1);
  while (k !== -1 && k < end) {
    let backslashes = 0;
    while (buf[k - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return k;
    k = buf.indexOf(QUOTE, k + 1);
  }
  return -1;
}

/** The JSON value starting at `i` (after the colon), as the id a reader would key it by. */
function idValue(buf: Buffer, i: number, end: number): string | undefined {
  const first = buf[i];
  if (first === QUOTE) {
    // Ids are short: a byte loop finds the closing quote (and any escape) cheaper than a search
    // and a sub-buffer per record.
    let escaped = false;
    let close = i + 1;
    for (; close < end; close++) {
      const b = buf[close];
      if (b === QUOTE) break;
      if (b === BACKSLASH) {
        escaped = true;
        close++;
      }
    }
    if (close >= end) return undefined;
    if (!escaped) return buf.toString('utf8', i + 1, close);
    try {
      return JSON.parse(buf.toString('utf8', i, close + 1)) as string;
    } catch {
      return undefined;
    }
  }
  if (first === 0x2d || (first !== undefined && first >= 0x30 && first <= 0x39)) {
    let k = i + 1;
    while (k < end && /[0-9.eE+-]/.test(String.fromCharCode(buf[k]!))) k++;
    const n = Number(buf.toString('latin1', i, k));
    return Number.isFinite(n) ? String(n) : undefined;
  }
  return undefined;
}

/** The string value of the `"id"` key at depth 1 of the JSON object on [start, end), if any. */
function topLevelId(buf: Buffer, start: number, end: number): string | undefined {
  let depth = 0;
  for (let i = start; i < end; i++) {
    const b = buf[i];
    if (b === QUOTE) {
      const close = closingQuote(buf, i, end);
      if (close === -1) return undefined;
      if (depth === 1 && close === i + 3 && buf[i + 1] === 0x69 && buf[i + 2] === 0x64) {
        const colon = skipSpace(buf, close + 1, end);
        if (buf[colon] === COLON) return idValue(buf, skipSpace(buf, colon + 1, end), end);
      }
      i = close;
    } else if (b === 0x7b || b === 0x5b) depth++;
    else if (b === 0x7d || b === 0x5d) depth--;
  }
  return undefined;
}

/** After `"trace` at `at`: the end of `"traceId"` or `"trace_id"`, or -1 for another word. */
function traceKeyEnd(buf: Buffer, at: number): number {
  const k = at + TRACE.length;
  if (buf[k] === 0x49 && buf[k + 1] === 0x64 && buf[k + 2] === QUOTE) return k + 3;
  if (buf[k] === 0x5f && buf[k + 1] === 0x69 && buf[k + 2] === 0x64 && buf[k + 3] === QUOTE) return k + 4;
  return -1;
}

/**
 * Counts lines as the loader does (line n starts after the (n-1)th newline) while matches are
 * found in increasing order of position.
 */
class LineCounter {
  private at: number;
  constructor(
    private readonly buf: Buffer,
    start: number,
    private line: number,
  ) {
    this.at = start;
  }
  /** The line of the byte at `pos`; positions must not decrease between calls. */
  lineOf(pos: number): number {
    let nl = this.buf.indexOf(NEWLINE, this.at);
    while (nl !== -1 && nl < pos) {
      this.line++;
      nl = this.buf.indexOf(NEWLINE, nl + 1);
    }
    this.at = pos;
    return this.line;
  }
}

/**
 * Records the trace ids found in whole lines [start, end) of `buf`, whose first line is
 * `firstLine`, into `last` (id → last line seen). Returns the number of the line after `end`.
 */
export function scanTraceIds(
  buf: Buffer,
  start: number,
  end: number,
  firstLine: number,
  last: Map<string, number>,
  langfuseHeaders = false,
  shape?: FileShape,
): number {
  const lines = new LineCounter(buf, start, firstLine);
  let prevLine = 0;
  let prevId: string | undefined;
  for (
    let at = buf.indexOf(TRACE, start, 'latin1');
    at !== -1 && at < end;
    at = buf.indexOf(TRACE, at + 1, 'latin1')
  ) {
    const keyEnd = traceKeyEnd(buf, at);
    if (keyEnd === -1) continue;
    const colon = skipSpace(buf, keyEnd, end);
    if (buf[colon] !== COLON) continue;
    const id = idValue(buf, skipSpace(buf, colon + 1, end), end);
    if (id === undefined) continue;
    const line = lines.lineOf(at);
    last.set(id, line);
    if (shape) {
      if (line === prevLine && id !== prevId) shape.multiIdLines++;
      prevLine = line;
      prevId = id;
    }
  }
  // Langfuse trace headers: their own id is the trace id their loose observations carry.
  const headers = new LineCounter(buf, start, firstLine);
  const firstHeader = langfuseHeaders ? buf.indexOf(OBSERVATIONS, start, 'latin1') : -1;
  for (let at = firstHeader; at !== -1 && at < end;) {
    const lineStart = buf.lastIndexOf(NEWLINE, at) + 1;
    let lineEnd = buf.indexOf(NEWLINE, at);
    if (lineEnd === -1 || lineEnd > end) lineEnd = end;
    const id = topLevelId(buf, Math.max(lineStart, start), lineEnd);
    if (id !== undefined) {
      const line = headers.lineOf(at);
      if ((last.get(id) ?? 0) < line) last.set(id, line);
    }
    at = buf.indexOf(OBSERVATIONS, lineEnd, 'latin1');
  }
  return lines.lineOf(end);
}

/** What the pass saw of the file's shape, besides the ids. */
export interface FileShape {
  /** Lines that carry two different trace ids (OTLP documents, ids nested in metadata). */
  multiIdLines: number;
}

/**
 * The trace id a line is grouped under, as the first pass reads it: the first `"traceId"` /
 * `"trace_id"` value, else (with `langfuseHeaders`) the top-level id of a Langfuse trace header.
 */
export function lineTraceId(
  buf: Buffer,
  start: number,
  end: number,
  langfuseHeaders = false,
): string | undefined {
  for (
    let at = buf.indexOf(TRACE, start, 'latin1');
    at !== -1 && at < end;
    at = buf.indexOf(TRACE, at + 1, 'latin1')
  ) {
    const keyEnd = traceKeyEnd(buf, at);
    if (keyEnd === -1) continue;
    const colon = skipSpace(buf, keyEnd, end);
    if (buf[colon] !== COLON) continue;
    const id = idValue(buf, skipSpace(buf, colon + 1, end), end);
    if (id !== undefined) return id;
  }
  if (langfuseHeaders) {
    const at = buf.indexOf(OBSERVATIONS, start, 'latin1');
    if (at !== -1 && at < end) return topLevelId(buf, start, end);
  }
  return undefined;
}

/** For every trace id in the JSONL file, the last line (1-based) it appears on. */
export async function lastLinesOfTraceIds(
  file: string,
  options: { langfuseHeaders?: boolean; shape?: FileShape } = {},
): Promise<Map<string, number>> {
  const headers = options.langfuseHeaders ?? false;
  const last = new Map<string, number>();
  const handle = await open(file, 'r');
  try {
    // Two buffers: the next chunk is read into one while the other is scanned, so the scan does not
    // wait for the disk (or the page cache copy) and the pass costs little more than its searches.
    let current = Buffer.allocUnsafe(2 * CHUNK);
    let next = Buffer.allocUnsafe(2 * CHUNK);
    /** Bytes at the start of `current` holding the unfinished last line of the previous chunk. */
    let held = 0;
    let line = 1;
    let reading = handle.read(current, 0, CHUNK, null);
    for (;;) {
      const { bytesRead } = await reading;
      if (bytesRead === 0) break;
      held += bytesRead;
      const lastNewline = current.lastIndexOf(NEWLINE, held - 1);
      if (lastNewline === -1) {
        // A line longer than what is held: read on into the same buffer, grown when full.
        if (current.length - held < CHUNK) {
          const bigger = Buffer.allocUnsafe(2 * current.length);
          current.copy(bigger, 0, 0, held);
          current = bigger;
        }
        reading = handle.read(current, held, CHUNK, null);
        continue;
      }
      const end = lastNewline + 1;
      const tail = held - end;
      if (next.length < tail + CHUNK) next = Buffer.allocUnsafe(2 * (tail + CHUNK));
      current.copy(next, 0, end, held);
      reading = handle.read(next, tail, CHUNK, null);
      // A view that ends with the whole lines: searches stop there, not in stale bytes beyond.
      line = scanTraceIds(current.subarray(0, end), 0, end, line, last, headers, options.shape);
      [current, next] = [next, current];
      held = tail;
    }
    if (held > 0) scanTraceIds(current.subarray(0, held), 0, held, line, last, headers, options.shape);
  } finally {
    await handle.close();
  }
  return last;
}
