/**
 * The canonical order of the traces of one run: by input file (in the order the paths expand to),
 * then by the line whose reading completed the trace (a trace held to the end of its file completes
 * after its last line), then by its first line, then by its place among the traces completed
 * together. The loader emits traces in this order; with `--jobs N` each worker emits its shard in
 * this order and the main thread merges them by it, so the report is the same whatever N is.
 */
export interface TraceOrder {
  /** Index of the input file among the expanded paths. */
  file: number;
  /** Line whose reading completed the trace; Number.MAX_SAFE_INTEGER for the end of the file. */
  emit: number;
  /** The trace's first line (0 when the input is not line-oriented). */
  first: number;
  /** Place among the traces with the same file, emit and first line. */
  seq: number;
}

export const END_OF_FILE = Number.MAX_SAFE_INTEGER;

export function compareTraceOrder(a: TraceOrder, b: TraceOrder): number {
  return a.file - b.file || a.emit - b.emit || a.first - b.first || a.seq - b.seq;
}
