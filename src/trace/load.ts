/**
 * The streaming loader: files, directories, globs and `-` (stdin) in; validated, priced traces
 * out, one at a time, as soon as each is complete. JSONL is read line by line so a multi-gigabyte
 * file never sits in memory whole; a pretty-printed JSON document is parsed whole (it cannot be
 * split safely). Every record that cannot be read becomes an InputError (file, line, field,
 * message) and the loader goes on with the rest.
 *
 * Formats that group records by trace id (records, span-per-line OTLP, loose Langfuse
 * observations) would have to hold every record until the end of the file, since the records of
 * one trace may be anywhere. For a file on disk, a first pass over its bytes (lastLines.ts) finds
 * the last line of every trace id, and the reader is told to close the trace right after that line:
 * what is held is the traces open at that point of the file, however large the file. A pipe cannot
 * be read twice: there the reader holds a window of open traces (ReaderOptions.maxOpenTraces).
 *
 * Order of traces: as each is complete — for grouping formats, in the order their last record was
 * read (ties, e.g. several traces in one OTLP document line, by their first line), then the traces
 * the first pass could not key, in the order of their first record.
 */
import { open, readFile, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { ZodError } from 'zod';
import { createPricer, type Pricer } from '../pricing/pricer.js';
import { formatInputError, type InputError } from './inputError.js';
import { fileAgentKey, keyAgent } from './agentKey.js';
import { keyTask } from './taskKey.js';
import { parseTrace } from './fastParse.js';
import { importerFor, importers } from './formats/index.js';
import {
  INPUT_FORMATS,
  isRecord,
  type ImportedTrace,
  type Importer,
  type ImportProblem,
  type InputFormat,
  type TraceReader,
} from './importer.js';
import { arrayElementLines, jsonErrorPosition } from './jsonErrorPosition.js';
import { lastLinesOfTraceIds } from './lastLines.js';
import { END_OF_FILE } from './order.js';
import { planShard, type ShardPlan } from './shardPlan.js';
import { fileOwner } from './shard.js';
import { readLineBatches, type Line } from './lines.js';
import { expandPaths } from './paths.js';
import { describeReadError, isFsError } from '../util/fsError.js';
import type { LoadedTrace, Trace } from './schema.js';
import { redactAndCut } from '../redact/safeText.js';
import { fieldOf, nestingProblem } from './nesting.js';
import { dict } from '../util/dict.js';

export interface LoadOptions {
  /** Skip detection and read every file as this format. */
  inputFormat?: InputFormat;
  pricer?: Pricer;
  /** Called now and then with progress, for a TTY progress line. */
  onProgress?: (p: LoadProgress) => void;
  /** At most this many errors are kept in the list (all are counted). */
  maxErrors?: number;
  /** Relative paths are resolved against this (default process.cwd()). */
  cwd?: string;
  /** The folder links may lead into (default `cwd`; paths.ts ExpandOptions). */
  within?: string;
  /** Read only this shard of the traces (a worker thread of `--jobs N`). */
  shard?: { index: number; count: number };
  /** What the path `-` reads (default process.stdin). */
  stdin?: Readable;
  /**
   * Reading a pipe (stdin), at most this many traces of a grouping format are held open; the least
   * recently appended is closed early when another opens (default DEFAULT_MAX_OPEN_TRACES).
   */
  maxOpenTraces?: number;
  /** The agent of traces whose recording names none (`--agent` / `agent:`); else their file's path. */
  agent?: string;
  /** Where in a trace's metadata its task is, when the recording names none (`taskKey:`). */
  taskKey?: string;
}

/** The path that means stdin, and how reports name it. */
export const STDIN_PATH = '-';
export const STDIN_NAME = '<stdin>';

/**
 * Open traces held while reading a pipe: a few hundred concurrent runs interleaved fit whole, and
 * at a few hundred kilobytes a trace the window stays well under the memory budget.
 */
export const DEFAULT_MAX_OPEN_TRACES = 500;

/** The first line of a pretty-printed JSON document: a lone bracket (or two). */
const PRETTY_DOCUMENT_START = /^[[{]\s*[[{]?$/;

/** Notes listed in the report; more are counted in one last note. */
const MAX_NOTES = 20;

export interface LoadProgress {
  file: string;
  filesDone: number;
  files: number;
  traces: number;
  bytesRead: number;
  bytesTotal: number;
}

export interface LoadStats {
  files: number;
  traces: number;
  /** Parsed input records: JSONL lines, or top-level documents. */
  records: number;
  errors: InputError[];
  errorCount: number;
  formats: Record<string, number>;
  /** What the report should say about how the input was read (not errors), e.g. a trace split on a pipe. */
  notes: string[];
  /** Notes past MAX_NOTES, only counted. */
  notesDropped: number;
  /** The input files in the order they were read (how reports order input errors). */
  fileNames: string[];
}

/**
 * How many unrecognised leading JSON values are held, to be read (and reported one by one) in the
 * format a later record reveals. Past this, unrecognised records are only counted: a large JSON
 * file that is no trace format must not be held in memory.
 */
const SNIFF_LIMIT = 20;
/**
 * A pretty-printed JSON document larger than this is not parsed whole: its text and the values
 * parsed from it are all in memory at once (a 64 MB document took 330 MB), and the memory budget
 * is 300 MB whatever the input. Larger ones are refused with how to write them as JSONL.
 */
export const MAX_DOCUMENT_BYTES = 32 * 1024 * 1024;

/** A Report v1 (`tracejury analyze --out report.json`, the Vitest plugin's report.json) given as input. */
function isTracejuryReport(value: unknown): boolean {
  const v = value as { schemaVersion?: unknown; tool?: { name?: unknown } } | null | undefined;
  return (
    typeof v === 'object' && v !== null && typeof v.schemaVersion === 'number' && v.tool?.name === 'tracejury'
  );
}

export function emptyStats(): LoadStats {
  return {
    files: 0,
    traces: 0,
    records: 0,
    errors: [],
    errorCount: 0,
    fileNames: [],
    formats: dict(),
    notes: [],
    notesDropped: 0,
  };
}

/** Turns a zod error into a path like `steps[2].usage.inputTokens`. */
function zodField(error: ZodError): { field?: string; message: string } {
  const issue = error.issues[0];
  if (!issue) return { message: 'invalid trace' };
  const field = issue.path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join('');
  return { field: field || undefined, message: issue.message };
}

/** The input error of a trace that failed validation: the field, and the message naming the trace. */
export function invalidTraceError(file: string, trace: unknown, error: ZodError, line?: number): InputError {
  const { field, message } = zodField(error);
  const id = isRecord(trace) ? trace.id : undefined;
  return {
    file,
    ...(line !== undefined ? { line } : {}),
    ...(field !== undefined ? { field } : {}),
    message: `${typeof id === 'string' ? `trace ${id}: ` : ''}${message}`,
  };
}

/** Longest JSON.parse message kept: V8 quotes some input around the bad token, other engines may quote more. */
const MAX_JSON_MESSAGE = 200;

/** JSON.parse's message on one line: the input it quotes may hold newlines or terminal escapes. */
export function describeJsonError(err: unknown): string {
  const msg = (err instanceof Error ? err.message : String(err))
    .replace(/^JSON\.parse: /, '')
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, (c) => {
      if (c === '\n') return '\\n';
      if (c === '\r') return '\\r';
      if (c === '\t') return '\\t';
      return `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`;
    });
  return `not valid JSON (${redactAndCut(msg, MAX_JSON_MESSAGE + 1)})`;
}

/** One JSONL line: parsed and handed to the reader, or reported with its line number. Blank lines are skipped. */
export function readJsonLine(
  line: Line,
  file: string,
  reader: FileReader,
  addError: (e: InputError) => void,
): LoadedTrace[] {
  const text = line.text.trim();
  if (text === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    addError({ file, line: line.number, message: describeJsonError(err) });
    return [];
  }
  return reader.push(value, line.number);
}

/** Fills costUsd of every LLM step: recorded cost wins, else tokens × price; unknown models stay unpriced. */
export function priceTrace(trace: Trace, pricer: Pricer): void {
  for (const step of trace.steps) {
    if (step.type !== 'llm') continue;
    if (step.costUsd !== undefined) {
      step.costSource ??= 'recorded';
      continue;
    }
    const priced = pricer.cost(step.model, step.usage, step.provider);
    if (priced) {
      step.costUsd = priced.usd;
      step.costSource = priced.source;
    } else {
      step.costSource = 'unknown';
    }
  }
}

async function looksBinary(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(8192);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}

/** A whole JSON document being read, so that errors about one element of a top-level array can name its line. */
interface OpenDocument {
  text: string;
  elements: unknown[];
  lines?: number[];
  indexOf?: Map<unknown, number>;
}

export class FileReader {
  private importer: Importer | undefined;
  private reader: TraceReader | undefined;
  /** The first unrecognised values, read in the format a later record reveals. */
  private pending: { value: unknown; line: number | undefined }[] = [];
  /** Unrecognised values past SNIFF_LIMIT: only counted, with the lines they span. */
  private skipped = 0;
  private firstSkipped: number | undefined;
  private lastSkipped: number | undefined;
  private document: OpenDocument | undefined;

  constructor(
    private readonly file: string,
    private readonly stats: LoadStats,
    private readonly addError: (e: InputError) => void,
    private readonly pricer: Pricer,
    forced: InputFormat | undefined,
    /**
     * The option's agent, and the file's own agent key, for traces that name no agent; the
     * metadata path of a trace's task, for traces that name none (taskKey.ts).
     */
    private readonly agent: { option: string | undefined; fileKey: string; taskKey?: string | undefined },
    /** Set when reading a pipe: the window of open traces a grouping reader holds. */
    private readonly maxOpenTraces?: number,
  ) {
    if (forced) this.use(importerFor(forced));
  }

  get format(): string | undefined {
    return this.importer?.format;
  }

  /** True once the format is known and its reader groups records by a trace id it can be told to close. */
  get groupsByTraceId(): boolean {
    return this.reader?.close !== undefined && this.reader.groupKey !== undefined;
  }

  /** The key the reader groups a raw trace id under (see TraceReader.groupKey). */
  groupKey(rawId: string): string | undefined {
    return this.reader?.groupKey?.(rawId);
  }

  /** The traces of these keys are complete: built, validated, in the order of their first line. */
  close(keys: readonly string[]): LoadedTrace[] {
    const reader = this.reader;
    if (!reader?.close) return [];
    const imported: ImportedTrace[] = [];
    for (const key of keys) for (const t of reader.close(key)) imported.push(t);
    if (imported.length > 1) imported.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    return this.accept(imported);
  }

  private use(importer: Importer): void {
    this.importer = importer;
    this.reader = importer.createReader(
      {
        problem: (p) => this.addError(this.located(p)),
        note: (message) => this.addNote(`${this.file}: ${message}`),
        warning: (p) => this.addNote(formatInputError(this.located(p))),
      },
      this.maxOpenTraces !== undefined ? { maxOpenTraces: this.maxOpenTraces } : {},
    );
  }

  /** A reader's problem as an error of this file, at the line of the document element its field names. */
  private located(p: ImportProblem): InputError {
    const line = this.elementLine(p.field) ?? p.line;
    return { file: this.file, ...p, ...(line !== undefined ? { line } : {}) };
  }

  private addNote(note: string): void {
    if (this.stats.notes.length < MAX_NOTES) this.stats.notes.push(note);
    else this.stats.notesDropped++;
  }

  /** One parsed JSON value; returns the traces it completed. */
  push(value: unknown, line: number | undefined): LoadedTrace[] {
    this.stats.records++;
    // Importers walk records recursively: one nested past the bound is refused before any does.
    const deep = nestingProblem(value);
    if (deep) {
      const field = fieldOf(deep.path);
      const at = this.elementLine(field) ?? line;
      this.addError({
        file: this.file,
        ...(at !== undefined ? { line: at } : {}),
        field,
        message: deep.message,
      });
      return [];
    }
    if (this.reader) return this.accept(this.reader.push(value, line));
    return this.detect(value, line);
  }

  /** A whole JSON document (line 1): read and ended at once, while its text is at hand for line numbers. */
  pushDocument(doc: unknown, text: string): LoadedTrace[] {
    if (Array.isArray(doc)) {
      // An element nested past the bound is that element's error; the others are still read.
      const deep = doc.map((element) => nestingProblem(element, { depth: 1 }));
      if (deep.some(Boolean)) {
        const lines = arrayElementLines(text);
        deep.forEach((problem, k) => {
          if (problem)
            this.addError({
              file: this.file,
              ...(lines[k] !== undefined ? { line: lines[k] } : {}),
              field: fieldOf([k, ...problem.path]),
              message: problem.message,
            });
        });
        const kept = deep.flatMap((problem, k) => (problem ? [] : [k]));
        doc = kept.map((k) => (doc as unknown[])[k]);
        this.document = { text, elements: doc as unknown[], lines: kept.map((k) => lines[k]!) };
      } else this.document = { text, elements: doc };
    }
    try {
      return this.push(doc, 1).concat(this.end());
    } finally {
      this.document = undefined;
    }
  }

  /**
   * Until a value matches a format, each is tried against every importer. The first SNIFF_LIMIT are
   * held and read in the format found, so each gets its own error; later ones only counted. A file
   * with no match at all is reported once, as not a trace file, at its end.
   */
  private detect(value: unknown, line: number | undefined): LoadedTrace[] {
    const found = importers.find((i) => i.sniff(value));
    if (!found) {
      if (this.pending.length < SNIFF_LIMIT) this.pending.push({ value, line });
      else {
        this.skipped++;
        this.firstSkipped ??= line;
        this.lastSkipped = line;
      }
      return [];
    }
    this.use(found);
    const held = this.pending;
    this.pending = [];
    const out = held.flatMap((p) => this.accept(this.reader!.push(p.value, p.line)));
    if (this.skipped > 0) {
      const lines =
        this.firstSkipped === undefined
          ? ''
          : this.firstSkipped === this.lastSkipped
            ? ` (line ${this.firstSkipped})`
            : ` (lines ${this.firstSkipped}–${this.lastSkipped})`;
      this.addError({
        file: this.file,
        line: this.firstSkipped,
        message: `${this.skipped} more record${this.skipped === 1 ? '' : 's'}${lines} match none of the formats tried (${INPUT_FORMATS.join(', ')}) and were skipped; the file is read as ${found.format} from line ${line ?? 1}`,
      });
    }
    return out.concat(this.accept(this.reader!.push(value, line)));
  }

  end(): LoadedTrace[] {
    if (!this.reader && this.pending.length > 0) this.giveUp();
    return this.reader ? this.accept(this.reader.end()) : [];
  }

  private giveUp(): void {
    const first = this.pending[0];
    this.pending = [];
    this.addError({
      file: this.file,
      line: first?.line,
      message: isTracejuryReport(first?.value)
        ? 'a tracejury report, not a trace file: it holds the summaries of an analysis, not the recorded runs; ' +
          'compare two reports with `tracejury diff base.json head.json`, or analyze the traces the report was made from'
        : `not a trace file: the first records match none of the formats tried (${INPUT_FORMATS.join(', ')}); force one with --input-format if you know it`,
    });
  }

  /** The line where element k of the open document starts, when `field` begins with `[k]`. */
  /** The line of the open document's element a field starts with (`[3].…`); undefined without a document. */
  private elementLine(field: string | undefined): number | undefined {
    const k = field === undefined ? undefined : /^\[(\d+)\]/.exec(field)?.[1];
    return k === undefined ? undefined : this.lineOfElement(Number(k));
  }

  private lineOfElement(k: number): number | undefined {
    const doc = this.document;
    if (!doc) return undefined;
    doc.lines ??= arrayElementLines(doc.text);
    return doc.lines[k];
  }

  /** Where a trace that is itself an element of the open document (the native format) starts. */
  private lineOfTrace(trace: unknown): number | undefined {
    const doc = this.document;
    if (!doc) return undefined;
    doc.indexOf ??= new Map(doc.elements.map((e, i) => [e, i]));
    const k = doc.indexOf.get(trace);
    return k === undefined ? undefined : this.lineOfElement(k);
  }

  private accept(imported: ImportedTrace[]): LoadedTrace[] {
    const out: LoadedTrace[] = [];
    for (const item of imported) {
      const keyed = keyAgent(keyTask(item.trace, this.agent.taskKey), this.agent.option, this.agent.fileKey);
      // push() checked the nesting of every value a reader was given; keyAgent adds a string.
      const parsed = parseTrace(keyed.input, { nestingChecked: item.isPushedValue === true });
      if (!parsed.success) {
        const line = (this.document && this.lineOfTrace(item.trace)) ?? item.line;
        this.addError(invalidTraceError(this.file, item.trace, parsed.error, line));
        continue;
      }
      priceTrace(parsed.data, this.pricer);
      out.push({
        trace: parsed.data,
        source: {
          file: this.file,
          format: this.importer!.format,
          ...(item.line ? { line: item.line } : {}),
          agentIdFrom: keyed.from,
        },
      });
    }
    this.stats.traces += out.length;
    return out;
  }
}

/**
 * Streams the traces of every file under `paths`. `stats` fills in as the stream is consumed and
 * is complete once iteration ends.
 */
export function streamTraces(
  paths: string[],
  options: LoadOptions = {},
): { traces: AsyncIterable<LoadedTrace>; stats: LoadStats } {
  const { batches, stats } = streamTraceBatches(paths, options);
  async function* traces(): AsyncGenerator<LoadedTrace> {
    for await (const batch of batches) yield* batch;
  }
  return { traces: traces(), stats };
}

/**
 * streamTraces, a few traces at a time: the hot loops (analyze, baseline update) take one async
 * step per batch instead of several per trace.
 */
export function streamTraceBatches(
  paths: string[],
  options: LoadOptions = {},
): { batches: AsyncIterable<LoadedTrace[]>; stats: LoadStats } {
  const stats = emptyStats();
  const pricer = options.pricer ?? createPricer();
  const maxErrors = options.maxErrors ?? 1000;
  const addError = (e: InputError) => {
    stats.errorCount++;
    if (stats.errors.length < maxErrors) stats.errors.push(e);
  };

  async function* generate(): AsyncGenerator<LoadedTrace[]> {
    // `-` is stdin, read after the files (it may be given once; a second `-` would read nothing).
    const readStdin = paths.includes(STDIN_PATH);
    const filePaths = paths.filter((p) => p !== STDIN_PATH);
    // With --jobs every worker expands the same paths; the first reports their problems.
    const pathProblem = !options.shard || options.shard.index === 0 ? addError : () => {};
    const files =
      filePaths.length > 0
        ? await expandPaths(filePaths, options.cwd, pathProblem, { within: options.within })
        : [];
    let bytesTotal = 0;
    const sizes = new Map<string, number>();
    /** Files that went away or became unreadable since the paths were expanded. */
    const unreadable = new Map<string, string>();
    for (const f of files) {
      try {
        const size = (await stat(f.path)).size;
        sizes.set(f.path, size);
        bytesTotal += size;
      } catch (err) {
        if (!isFsError(err)) throw err;
        unreadable.set(f.path, describeReadError(err));
      }
    }
    let bytesRead = 0;
    let lastProgress = 0;
    const progress = (file: string, force = false) => {
      if (!options.onProgress) return;
      const now = Date.now();
      if (!force && now - lastProgress < 200) return;
      lastProgress = now;
      options.onProgress({
        file,
        filesDone: stats.files,
        files: files.length,
        traces: stats.traces,
        bytesRead,
        bytesTotal,
      });
    };

    stats.fileNames = files.map((f) => f.name);
    const shard = options.shard;
    for (const [fileIndex, { path: filePath, name: file }] of files.entries()) {
      // With --jobs, file-level problems and counts belong to the worker that owns the file.
      const ownsFile = !shard || fileOwner(fileIndex, shard.count) === shard.index;
      const size = sizes.get(filePath) ?? 0;
      const cannotRead = unreadable.get(filePath);
      if (cannotRead !== undefined || size === 0) {
        if (ownsFile) {
          addError({ file, message: cannotRead ?? 'empty file: no records to read' });
          stats.files++;
        }
        continue;
      }
      let plan: ShardPlan | undefined;
      try {
        if (await looksBinary(filePath)) {
          if (ownsFile) {
            addError({ file, message: 'binary file, not a trace file (expected JSON or JSONL text)' });
            stats.files++;
          }
          bytesRead += size;
          continue;
        }
        plan = shard ? await planShard(filePath, size, shard, options.inputFormat) : undefined;
      } catch (err) {
        if (!isFsError(err)) throw err;
        if (ownsFile) {
          addError({ file, message: describeReadError(err) });
          stats.files++;
        }
        continue;
      }
      if (plan === undefined && !ownsFile) {
        // Another worker reads this file whole.
        bytesRead += size;
        continue;
      }
      const reader = new FileReader(file, stats, addError, pricer, plan?.format ?? options.inputFormat, {
        option: options.agent,
        fileKey: fileAgentKey(filePath, options.cwd ?? process.cwd()),
        taskKey: options.taskKey,
      });
      try {
        yield* readFile_(filePath, file, fileIndex, size, reader, addError, plan, (n) => {
          bytesRead += n;
          progress(file);
        });
      } catch (err) {
        // One unreadable file (permissions, I/O error) is that file's input error, not the run's end.
        if (!isFsError(err)) throw err;
        if (ownsFile) addError({ file, message: describeReadError(err) });
      }
      if (ownsFile) {
        stats.files++;
        if (reader.format) stats.formats[reader.format] = (stats.formats[reader.format] ?? 0) + 1;
      }
      progress(file, true);
    }
    if (readStdin) {
      const maxOpen = options.maxOpenTraces ?? DEFAULT_MAX_OPEN_TRACES;
      const reader = new FileReader(
        STDIN_NAME,
        stats,
        addError,
        pricer,
        options.inputFormat,
        { option: options.agent, fileKey: STDIN_NAME, taskKey: options.taskKey },
        maxOpen,
      );
      yield* readPipe(options.stdin ?? process.stdin, reader, files.length, addError, (n) => {
        bytesRead += n;
        progress(STDIN_NAME);
      });
      stats.files++;
      if (reader.format) stats.formats[reader.format] = (stats.formats[reader.format] ?? 0) + 1;
      progress(STDIN_NAME, true);
    }
  }

  return { batches: generate(), stats };
}

/**
 * Reads one file as JSONL when its first non-blank line is a whole JSON value, otherwise as one
 * JSON document; a document that does not parse is read again as JSONL so that its good lines
 * survive and each bad one is named. Yields the traces of each batch of lines together.
 */
async function* readFile_(
  filePath: string,
  file: string,
  fileIndex: number,
  size: number,
  reader: FileReader,
  addError: (e: InputError) => void,
  plan: ShardPlan | undefined,
  onBytes: (n: number) => void,
): AsyncGenerator<LoadedTrace[]> {
  const emit = orderTagger(fileIndex);
  // 'unknown' until the first non-blank line: a file that stays so holds only whitespace.
  let mode: 'unknown' | 'jsonl' | 'document' = 'unknown';
  let counted = 0;
  const count = (n: number) => {
    counted += n;
    onBytes(n);
  };
  /** Grouping formats: the trace keys to close after each line, from the first pass; undefined before it. */
  let closeAt: Map<number, string[]> | undefined;
  /** The lines of closeAt in order, and the next one to close at. */
  let closeLines: number[] = [];
  let nextClose = 0;
  /** Closes the traces whose last line is before `line` (or at it, with `inclusive`). */
  const closeUpTo = (line: number, inclusive: boolean, out: LoadedTrace[]) => {
    while (nextClose < closeLines.length) {
      const at = closeLines[nextClose]!;
      if (at > line || (at === line && !inclusive)) break;
      nextClose++;
      // With --jobs a trace's last line may be another worker's line, which is never read here.
      emit(reader.close(closeAt!.get(at)!), at, out);
      closeAt!.delete(at);
    }
  };
  buffers: for await (const lines of readLineBatches(filePath, count, plan?.select)) {
    const out: LoadedTrace[] = [];
    for (const line of lines) {
      if (closeAt) closeUpTo(line.number, false, out);
      const lineOut: LoadedTrace[] = [];
      if (mode === 'unknown') {
        const text = line.text.trim();
        if (text === '') continue;
        try {
          const value: unknown = JSON.parse(text);
          mode = 'jsonl';
          for (const t of reader.push(value, line.number)) lineOut.push(t);
        } catch {
          // Nothing was read before the first record, so `out` is empty here.
          if ((text.startsWith('{') || text.startsWith('[')) && size <= MAX_DOCUMENT_BYTES) {
            mode = 'document';
            break buffers;
          }
          if (PRETTY_DOCUMENT_START.test(text)) {
            const mb = (n: number) => Math.round(n / (1024 * 1024));
            addError({
              file,
              line: line.number,
              message: `a pretty-printed JSON document of ${mb(size)} MB; documents over ${mb(MAX_DOCUMENT_BYTES)} MB are not read whole, to keep memory bounded: write it as JSONL, one trace or record per line (e.g. jq -c '.[]' FILE > FILE.jsonl for a top-level array)`,
            });
            return;
          }
          mode = 'jsonl';
          for (const t of readJsonLine(line, file, reader, addError)) lineOut.push(t);
        }
      } else {
        for (const t of readJsonLine(line, file, reader, addError)) lineOut.push(t);
      }
      if (!closeAt && reader.groupsByTraceId) {
        // The format is known now (usually at the first record): find where each trace ends.
        const closing = await closingLines(filePath, reader, line.number, plan);
        closeAt = closing.later;
        closeLines = [...closeAt.keys()].sort((x, y) => x - y);
        for (const t of reader.close(closing.now)) lineOut.push(t);
      }
      if (closeAt) {
        const keys = closeAt.get(line.number);
        if (keys) {
          closeAt.delete(line.number);
          nextClose++;
          for (const t of reader.close(keys)) lineOut.push(t);
        }
      }
      emit(lineOut, line.number, out);
    }
    yield out;
  }
  if (closeAt && closeAt.size > 0) {
    const out: LoadedTrace[] = [];
    closeUpTo(END_OF_FILE, true, out);
    yield out;
  }
  if (mode === 'unknown') {
    // Split by line (--jobs), this worker may own no line of a file that has records.
    if (!plan) addError({ file, message: 'no records: the file holds only whitespace' });
    return;
  }
  if (mode === 'document') {
    let text = await readFile(filePath, 'utf8');
    // The line reader stopped after its first buffer: the rest of the file counts as read now.
    if (size > counted) onBytes(size - counted);
    // Editors on Windows save a byte order mark; trim() drops it from a JSONL line, JSON.parse does not.
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (err) {
      const lines = text.split('\n');
      // A pretty-printed document opens with a lone bracket; anything else was meant as JSONL.
      const firstLine = lines.find((l) => l.trim() !== '')?.trim() ?? '';
      const prettyDocument = PRETTY_DOCUMENT_START.test(firstLine);
      if (prettyDocument) {
        const at = jsonErrorPosition(text);
        addError({
          file,
          line: at?.line,
          message: `${describeJsonError(err)}${at ? ` at line ${at.line}, column ${at.column}` : ''}`,
        });
        yield emit(reader.end(), END_OF_FILE, [], false);
        return;
      }
      // JSONL whose first record is broken: read it line by line after all.
      const out: LoadedTrace[] = [];
      for (let i = 0; i < lines.length; i++) {
        emit(readJsonLine({ number: i + 1, text: lines[i]! }, file, reader, addError), i + 1, out);
      }
      yield out;
      yield emit(reader.end(), END_OF_FILE, [], false);
      return;
    }
    yield emit(reader.pushDocument(doc, text), END_OF_FILE, [], false);
    return;
  }
  yield emit(reader.end(), END_OF_FILE, [], false);
}

/**
 * Tags traces with their place in the canonical order (trace/order.ts) as they are emitted: the
 * traces completed by one line, in the order of their first line. Returns `out`.
 */
function orderTagger(fileIndex: number) {
  return (
    traces: LoadedTrace[],
    emitLine: number,
    out: LoadedTrace[] = [],
    byFirstLine = true,
  ): LoadedTrace[] => {
    if (byFirstLine && traces.length > 1) traces.sort((a, b) => (a.source.line ?? 0) - (b.source.line ?? 0));
    for (const [seq, t] of traces.entries()) {
      t.source.order = { file: fileIndex, emit: emitLine, first: t.source.line ?? 0, seq };
      out.push(t);
    }
    return out;
  };
}

/**
 * The first pass (lastLines.ts) as the loader uses it: for each trace key of the reader's format,
 * the line after which its trace is complete. Keys whose last line is at or before `current`
 * (already read when the format became known) are complete now.
 */
async function closingLines(
  filePath: string,
  reader: FileReader,
  current: number,
  plan: ShardPlan | undefined,
): Promise<{ now: string[]; later: Map<number, string[]> }> {
  const lastByRawId =
    plan?.lastByRawId ??
    (await lastLinesOfTraceIds(filePath, { langfuseHeaders: reader.format === 'langfuse' }));
  // Several raw ids may stand for one key (an OTLP id in upper and lower case): the last line wins.
  const lastByKey = new Map<string, number>();
  for (const [rawId, last] of lastByRawId) {
    const key = reader.groupKey(rawId);
    // Another worker's trace (--jobs): its lines were never read here.
    if (key === undefined || (plan && !plan.ownsKey(key))) continue;
    const before = lastByKey.get(key);
    if (before === undefined || before < last) lastByKey.set(key, last);
  }
  lastByRawId.clear();
  const now: string[] = [];
  const later = new Map<number, string[]>();
  for (const [key, last] of lastByKey) {
    if (last <= current) now.push(key);
    else {
      const keys = later.get(last);
      if (keys) keys.push(key);
      else later.set(last, [key]);
    }
  }
  return { now, later };
}

/**
 * Reads a pipe (stdin) as JSONL. It cannot be read twice, so there is no first pass: a grouping
 * reader holds a window of open traces (see ReaderOptions.maxOpenTraces). A pretty-printed JSON
 * document would have to be held whole, so it is refused with what to do instead.
 */
async function* readPipe(
  stream: AsyncIterable<Buffer>,
  reader: FileReader,
  fileIndex: number,
  addError: (e: InputError) => void,
  onBytes: (n: number) => void,
): AsyncGenerator<LoadedTrace[]> {
  const file = STDIN_NAME;
  const emit = orderTagger(fileIndex);
  let sawRecord = false;
  /** A document was refused: the rest is read (so that the writer does not fail) and ignored. */
  let refused = false;
  for await (const lines of readLineBatches(stream, onBytes)) {
    if (refused) continue;
    const out: LoadedTrace[] = [];
    for (const line of lines) {
      if (!sawRecord) {
        const text = line.text.trim();
        if (text === '') continue;
        sawRecord = true;
        // A lone bracket opens a pretty-printed document, which is no JSONL.
        if (PRETTY_DOCUMENT_START.test(text)) {
          addError({
            file,
            line: line.number,
            message:
              "a pretty-printed JSON document cannot be read from a pipe (it would be held whole); save it to a file and analyse that, or pipe JSONL (one record per line, e.g. jq -c '.[]')",
          });
          refused = true;
          break;
        }
      }
      emit(readJsonLine(line, file, reader, addError), line.number, out);
    }
    yield out;
  }
  if (refused) return;
  if (!sawRecord) {
    addError({ file, message: 'no records: the input is empty or holds only whitespace' });
    return;
  }
  yield emit(reader.end(), END_OF_FILE, [], false);
}

/** Loads everything into memory: convenient for small inputs and the library API. */
export async function loadTraces(
  paths: string | string[],
  options: LoadOptions = {},
): Promise<{ traces: LoadedTrace[]; stats: LoadStats }> {
  const { traces, stats } = streamTraces(Array.isArray(paths) ? paths : [paths], options);
  const all: LoadedTrace[] = [];
  for await (const t of traces) all.push(t);
  return { traces: all, stats };
}
