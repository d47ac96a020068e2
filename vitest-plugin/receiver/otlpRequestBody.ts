/**
 * The body of an OTLP/HTTP request, read within a size bound and a time bound: its encoding (JSON
 * or protobuf, from Content-Type), its compression (Content-Encoding), and the bytes themselves.
 * The size bound holds for the bytes on the wire and again for the decompressed bytes, so that a
 * small gzip body cannot unpack into more memory than a plain one may take; the time bound ends an
 * upload that stalls, which would otherwise hold its connection and buffer open indefinitely.
 */
import type { IncomingMessage } from 'node:http';
import { gunzip } from 'node:zlib';

export type OtlpEncoding = 'json' | 'protobuf';

/** A request the receiver answers with an error status; the message says why. */
export class RequestError extends Error {
  constructor(
    readonly status: 400 | 408 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

/** The encoding Content-Type names (parameters such as charset are ignored), or undefined. */
export function encodingOf(contentType: string | undefined): OtlpEncoding | undefined {
  const media = contentType?.split(';')[0]?.trim().toLowerCase();
  if (media === 'application/json') return 'json';
  // application/x-protobuf is what the OTLP spec names; application/protobuf is its registered
  // successor, which some clients send.
  if (media === 'application/x-protobuf' || media === 'application/protobuf') return 'protobuf';
  return undefined;
}

const MiB = 1024 * 1024;
const bytesText = (n: number) =>
  n % MiB === 0 ? `${n / MiB} MiB` : n % 1024 === 0 ? `${n / 1024} KiB` : `${n} bytes`;

/**
 * Reads the whole body, refusing (413) one over `maxBytes` before or as it arrives, and (408) one
 * that has not fully arrived `timeoutMs` after reading began.
 */
export function readBody(req: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tooLarge = () =>
      new RequestError(413, `request body larger than the receiver's limit of ${bytesText(maxBytes)}`);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      // Not read at all: the rest is discarded unbuffered while the 413 goes out.
      req.resume();
      reject(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    const refuse = (err: RequestError) => {
      refused = true;
      chunks.length = 0;
      clearTimeout(timer);
      reject(err);
    };
    const timer = setTimeout(
      () =>
        refuse(
          new RequestError(
            408,
            `request body not received within ${timeoutMs} ms (${size} bytes came${Number.isFinite(declared) ? ` of ${declared}` : ''})`,
          ),
        ),
      timeoutMs,
    );
    // A stalled sender must not keep the test process alive.
    timer.unref();
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > maxBytes) refuse(tooLarge());
      else chunks.push(chunk);
    });
    req.on('end', () => {
      clearTimeout(timer);
      if (!refused) resolve(Buffer.concat(chunks, size));
    });
    req.on('error', (err) => {
      if (!refused) refuse(new RequestError(400, `request body could not be read: ${err.message}`));
    });
  });
}

/** The body with its Content-Encoding undone; gzip's output is bounded by `maxBytes` too. */
export async function decompress(
  body: Buffer,
  contentEncoding: string | undefined,
  maxBytes: number,
): Promise<Buffer> {
  const coding = (contentEncoding ?? '').trim().toLowerCase();
  if (coding === '' || coding === 'identity') return body;
  if (coding !== 'gzip' && coding !== 'x-gzip')
    throw new RequestError(415, `unsupported Content-Encoding "${coding}" (expected gzip or none)`);
  return new Promise((resolve, reject) => {
    gunzip(body, { maxOutputLength: maxBytes }, (err, out) => {
      if (!err) resolve(out);
      else if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
        reject(
          new RequestError(413, `decompressed request body larger than the limit of ${bytesText(maxBytes)}`),
        );
      else reject(new RequestError(400, `request body is not valid gzip: ${err.message}`));
    });
  });
}
