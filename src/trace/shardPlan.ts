/**
 * How one worker of `--jobs N` reads one large file (see shard.ts for the rules): decided before
 * the file is read, from its first record and, for the grouping formats, the first pass over its
 * bytes, so that every worker decides the same. `undefined` means the file is read whole by its
 * owner.
 */
import { open } from 'node:fs/promises';
import { importerFor, importers } from './formats/index.js';
import type { InputFormat } from './importer.js';
import { lastLinesOfTraceIds, lineTraceId, type FileShape } from './lastLines.js';
import { keyOwner, lineOwner, lineShardMinBytes, type Shard } from './shard.js';

export interface ShardPlan {
  /** The file's format, detected once from its first record: every worker reads it the same. */
  format: InputFormat;
  /** Whether a line (its bytes, before decoding) is this worker's. */
  select(line: Buffer, lineNumber: number): boolean;
  /** Whether a trace key is this worker's. */
  ownsKey(key: string): boolean;
  /** The first pass, already made to plan the split (grouping formats). */
  lastByRawId?: Map<string, number>;
}

/** The longest first line looked at; a file whose first record is longer is read whole. */
const MAX_FIRST_LINE = 16 * 1024 * 1024;

/** The first non-blank line of a file, or undefined past MAX_FIRST_LINE. */
async function firstLine(filePath: string): Promise<string | undefined> {
  const handle = await open(filePath, 'r');
  try {
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(1 << 16);
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      const chunk = buf.subarray(0, bytesRead);
      let from = 0;
      let nl = chunk.indexOf(0x0a);
      while (nl !== -1) {
        const line = Buffer.concat([...chunks, chunk.subarray(from, nl)])
          .toString('utf8')
          .trim();
        if (line !== '') return line;
        chunks.length = 0;
        length = 0;
        from = nl + 1;
        nl = chunk.indexOf(0x0a, from);
      }
      chunks.push(chunk.subarray(from));
      length += bytesRead - from;
      if (length > MAX_FIRST_LINE) return undefined;
    }
    const rest = Buffer.concat(chunks).toString('utf8').trim();
    return rest === '' ? undefined : rest;
  } finally {
    await handle.close();
  }
}

export async function planShard(
  filePath: string,
  size: number,
  shard: Shard,
  forced: InputFormat | undefined,
): Promise<ShardPlan | undefined> {
  if (size < lineShardMinBytes()) return undefined;
  const text = await firstLine(filePath);
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined; // a document, or JSONL whose first record is broken: read whole
  }
  const importer = forced ? importerFor(forced) : importers.find((i) => i.sniff(value));
  if (!importer) return undefined;
  const { index, count } = shard;
  const ownsBlock = (lineNumber: number) => lineOwner(lineNumber, count) === index;
  // Only the native reader keeps nothing between lines; the chat-transcript reader makes ids unique
  // across the file, so it must see every line.
  if (importer.format === 'native') {
    return { format: importer.format, select: (_line, n) => ownsBlock(n), ownsKey: () => true };
  }
  const probe = importer.createReader({ problem: () => {}, note: () => {} });
  const groupKey = probe.groupKey;
  if (!probe.close || !groupKey) return undefined;
  const langfuseHeaders = importer.format === 'langfuse';
  const shape: FileShape = { multiIdLines: 0 };
  const lastByRawId = await lastLinesOfTraceIds(filePath, { langfuseHeaders, shape });
  // A line with two trace ids (OTLP documents, ids nested in metadata) cannot go to one worker by id.
  if (shape.multiIdLines > 0) return undefined;
  const ownsKey = (key: string) => keyOwner(key, count) === index;
  return {
    format: importer.format,
    select: (line, n) => {
      const raw = lineTraceId(line, 0, line.length, langfuseHeaders);
      const key = raw === undefined ? undefined : groupKey(raw);
      // A line with no id is a bad record (or a kind the reader keys otherwise): dealt by block.
      return key === undefined ? ownsBlock(n) : ownsKey(key);
    },
    ownsKey,
    lastByRawId,
  };
}
