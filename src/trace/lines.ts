/**
 * Line reading for JSONL that never holds more than a few lines (plus one read buffer) in memory.
 * Faster than node:readline because it splits Buffers and decodes each line once.
 */
import { createReadStream } from 'node:fs';

export interface Line {
  /** 1-based line number. */
  number: number;
  text: string;
}

const NEWLINE = 0x0a;

/**
 * Lines handed on together: one async step per batch rather than per line. A batch is parsed
 * whole before its first trace is analysed, and everything made of it stays alive until its last
 * one has been: each garbage collection of V8's young generation copies what is alive, so a batch
 * is bounded by the bytes of its lines as well as by their number. Sixteen lines of a few hundred
 * bytes (spans, LLM-call records) cost one async step; one trace of 30 KB goes alone, and a
 * collection finds it and little else alive (with sixteen such traces a batch, collecting garbage
 * took a sixth of a run).
 */
const LINES_PER_BATCH = 16;
const BYTES_PER_BATCH = 32 * 1024;

/** The lines of a file (or of a stream of bytes, such as stdin), a batch at a time (see above). */
export async function* readLineBatches(
  source: string | AsyncIterable<Buffer>,
  onBytes?: (n: number) => void,
  /** Lines this returns false for are counted but neither decoded nor yielded (another worker's). */
  select?: (line: Buffer, lineNumber: number) => boolean,
): AsyncGenerator<Line[]> {
  const stream = typeof source === 'string' ? createReadStream(source, { highWaterMark: 1 << 20 }) : source;
  let carry: Buffer[] = [];
  let lineNo = 0;
  const decode = (buf: Buffer) => {
    // Tolerate CRLF files.
    const end = buf.length > 0 && buf[buf.length - 1] === 0x0d ? buf.length - 1 : buf.length;
    return buf.toString('utf8', 0, end);
  };
  for await (const raw of stream as AsyncIterable<Buffer | string>) {
    // A stream someone set an encoding on yields strings.
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    onBytes?.(chunk.length);
    let lines: Line[] = [];
    let bytes = 0;
    let start = 0;
    let nl = chunk.indexOf(NEWLINE, start);
    while (nl !== -1) {
      lineNo++;
      let piece = chunk.subarray(start, nl);
      if (carry.length > 0) {
        carry.push(piece);
        piece = Buffer.concat(carry);
        carry = [];
      }
      if (select && !select(piece, lineNo)) {
        start = nl + 1;
        nl = chunk.indexOf(NEWLINE, start);
        continue;
      }
      lines.push({ number: lineNo, text: decode(piece) });
      bytes += piece.length;
      if (lines.length === LINES_PER_BATCH || bytes >= BYTES_PER_BATCH) {
        yield lines;
        lines = [];
        bytes = 0;
      }
      start = nl + 1;
      nl = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) carry.push(chunk.subarray(start));
    if (lines.length > 0) yield lines;
  }
  if (carry.length > 0) {
    lineNo++;
    const piece = Buffer.concat(carry);
    if (!select || select(piece, lineNo)) yield [{ number: lineNo, text: decode(piece) }];
  }
}
