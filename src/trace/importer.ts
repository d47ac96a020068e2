/**
 * The contract every input format implements. The loader does the I/O (streaming lines or
 * parsing a whole document) and hands parsed JSON values to a format's reader; the reader turns
 * them into traces and reports what it cannot read through the sink. Readers are pure: no I/O.
 */
import type { TraceInput } from './schema.js';

export const INPUT_FORMATS = [
  'native',
  'otel',
  'openinference',
  'langfuse',
  'records',
  'openai-messages',
  'openai-agents',
] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

export interface ImportProblem {
  /** 1-based line of the record at fault, for line-oriented input. */
  line?: number;
  /** The field or JSON path at fault, e.g. `usage.prompt_tokens` or `[3].traj[7].tool_calls`. */
  field?: string;
  message: string;
}

export interface ImportSink {
  /** Report a record (or part of one) that could not be read; the reader goes on with the rest. */
  problem(p: ImportProblem): void;
  /** Something the report should say about how the input was read that is no bad record. */
  note?(message: string): void;
  /**
   * Part of a record that was read, but not as it says (a tool result that answers no call it can
   * be matched to): a note naming its line and field, not an input error, since the rest of the
   * record is sound.
   */
  warning?(p: ImportProblem): void;
}

export interface ReaderOptions {
  /**
   * Input that cannot be read twice (a pipe, stdin), so no first pass says where a trace ends: a
   * grouping reader holds at most this many traces open and closes the least recently appended
   * one early when another opens. Unset for files: their traces are closed by close().
   */
  maxOpenTraces?: number;
}

/** A trace as an importer emits it, with the line it started on when the input is line-oriented. */
export interface ImportedTrace {
  trace: TraceInput;
  line?: number;
  /**
   * The trace is the value the reader was pushed (or a shallow copy of it, adding no nesting): the
   * loader checked that value's nesting before any reader saw it, so validation need not walk it
   * again (trace/nesting.ts). Unset for traces an importer builds.
   */
  isPushedValue?: true;
}

export interface TraceReader {
  /**
   * One parsed value: a JSONL line (with its line number) or a whole JSON document (line 1 or
   * undefined). Returns the traces that are complete now; a format that groups records by id
   * holds them until close() or end() (or until its window of open traces is full, see
   * ReaderOptions).
   */
  push(value: unknown, line?: number): ImportedTrace[];
  /** End of input: every trace still held. */
  end(): ImportedTrace[];
  /**
   * Formats that group records by trace id: the key a trace id as found in the raw bytes (see
   * lastLines.ts) groups under, e.g. OTLP ids in lower-case hex; undefined when no record could be
   * keyed by it.
   */
  groupKey?(rawId: string): string | undefined;
  /**
   * Every record of the trace with this key has been pushed (the loader knows from a first pass
   * over the file): its trace now, if any is held, and nothing more is held for it.
   */
  close?(key: string): ImportedTrace[];
}

export interface Importer {
  format: InputFormat;
  /** True when a parsed value (a JSONL line or a whole JSON document) looks like this format. */
  sniff(value: unknown): boolean;
  createReader(sink: ImportSink, options?: ReaderOptions): TraceReader;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
