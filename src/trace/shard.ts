/**
 * Which worker thread reads what, with `--jobs N`. Every worker walks the same list of files; a
 * small file, a JSON document, or a file whose lines cannot be split safely is read whole by one
 * worker (files are dealt round-robin); a large JSONL file is split by line, each worker parsing
 * only its own lines:
 * - formats whose records are grouped by trace id (records, OTLP spans, Langfuse observations):
 *   a line goes to the worker its trace id hashes to, so every record of a trace meets in one
 *   worker. Only when no line carries two different ids (the first pass checks); otherwise the
 *   file is read whole by one worker;
 * - formats with one trace a line (native, chat transcripts): blocks of lines are dealt round-robin.
 */
export interface Shard {
  index: number;
  count: number;
}

/**
 * Files smaller than this are read whole by one worker: splitting them costs more than it saves.
 * TRACEJURY_LINE_SHARD_MIN_BYTES lowers it, for tests of the split on small files.
 */
export function lineShardMinBytes(): number {
  const given = Number(process.env.TRACEJURY_LINE_SHARD_MIN_BYTES);
  return Number.isFinite(given) && given >= 0 ? given : 4 * 1024 * 1024;
}

/** Lines dealt together in the one-trace-a-line formats: neighbours share read buffers. */
const LINE_BLOCK = 64;

/** The worker that reads file `fileIndex` whole (and reports its file-level problems). */
export function fileOwner(fileIndex: number, count: number): number {
  return fileIndex % count;
}

/** The worker of a trace id: FNV-1a over its UTF-16 code units. */
export function keyOwner(key: string, count: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % count;
}

/** The worker of a line in a one-trace-a-line file. */
export function lineOwner(lineNumber: number, count: number): number {
  return Math.floor((lineNumber - 1) / LINE_BLOCK) % count;
}
