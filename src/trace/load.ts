/**
 * The streaming loader: files, directories and globs in; validated, priced traces out, one at a
 * time, as soon as each is complete. JSONL is read line by line so a multi-gigabyte file never sits
 * in memory whole; a pretty-printed JSON document is parsed whole (it cannot be split safely).
 * Every record that cannot be read becomes an InputError (file, line, field, message) and the
 * loader goes on with the rest.
 */
import { open, readFile, stat } from 'node:fs/promises';
import type { ZodError } from 'zod';
import { createPricer, type Pricer } from '../pricing/pricer.js';
import type { InputError } from './inputError.js';
import { fileAgentKey, keyAgent } from './agentKey.js';
import { parseTrace } from './fastParse.js';
import { importerFor, importers } from './formats/index.js';
import {
  INPUT_FORMATS,
  isRecord,
  type ImportedTrace,
  type Importer,
  type InputFormat,
  type TraceReader,
} from './importer.js';
import { arrayElementLines, jsonErrorPosition } from './jsonErrorPosition.js';
import { readLineBatches, type Line } from './lines.js';
import { expandPaths } from './paths.js';
import { describeReadError, isFsError } from '../util/fsError.js';
import type { LoadedTrace, Trace } from './schema.js';

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
  /** The agent of traces whose recording names none (`--agent` / `agent:`); else their file's path. */
  agent?: string;
}

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
}

/**
 * How many unrecognised leading JSON values are held, to be read (and reported one by one) in the
 * format a later record reveals. Past this, unrecognised records are only counted: a large JSON
 * file that is no trace format must not be held in memory.
 */
const SNIFF_LIMIT = 20;
/** A pretty-printed JSON document larger than this is not parsed whole. */
const MAX_DOCUMENT_BYTES = 512 * 1024 * 1024;

export function emptyStats(): LoadStats {
  return { files: 0, traces: 0, records: 0, errors: [], errorCount: 0, formats: {} };
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
function describeJsonError(err: unknown): string {
  let msg = (err instanceof Error ? err.message : String(err))
    .replace(/^JSON\.parse: /, '')
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, (c) => {
      if (c === '\n') return '\\n';
      if (c === '\r') return '\\r';
      if (c === '\t') return '\\t';
      return `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`;
    });
  if (msg.length > MAX_JSON_MESSAGE) msg = `${msg.slice(0, MAX_JSON_MESSAGE)}…`;
  return `not valid JSON (${msg})`;
}

/** One JSONL line: parsed and handed to the reader, or reported with its line number. Blank lines are skipped. */
function readJsonLine(
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

class FileReader {
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
    /** The option's agent, and the file's own agent key, for traces that name no agent. */
    private readonly agent: { option: string | undefined; fileKey: string },
  ) {
    if (forced) this.use(importerFor(forced));
  }

  get format(): string | undefined {
    return this.importer?.format;
  }

  private use(importer: Importer): void {
    this.importer = importer;
    this.reader = importer.createReader({
      problem: (p) => {
        const line = this.document ? (this.elementLine(p.field) ?? p.line) : p.line;
        this.addError({ file: this.file, ...p, ...(line !== undefined ? { line } : {}) });
      },
    });
  }

  /** One parsed JSON value; returns the traces it completed. */
  push(value: unknown, line: number | undefined): LoadedTrace[] {
    this.stats.records++;
    if (this.reader) return this.accept(this.reader.push(value, line));
    return this.detect(value, line);
  }

  /** A whole JSON document (line 1): read and ended at once, while its text is at hand for line numbers. */
  pushDocument(doc: unknown, text: string): LoadedTrace[] {
    if (Array.isArray(doc)) this.document = { text, elements: doc };
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
      message: `not a trace file: the first records match none of the formats tried (${INPUT_FORMATS.join(', ')}); force one with --input-format if you know it`,
    });
  }

  /** The line where element k of the open document starts, when `field` begins with `[k]`. */
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
      const keyed = keyAgent(item.trace, this.agent.option, this.agent.fileKey);
      const parsed = parseTrace(keyed.input);
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
    const files = await expandPaths(paths, options.cwd, addError);
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

    for (const { path: filePath, name: file } of files) {
      const cannotRead = unreadable.get(filePath);
      if (cannotRead !== undefined) {
        addError({ file, message: cannotRead });
        stats.files++;
        continue;
      }
      const size = sizes.get(filePath) ?? 0;
      if (size === 0) {
        addError({ file, message: 'empty file: no records to read' });
        stats.files++;
        continue;
      }
      const reader = new FileReader(file, stats, addError, pricer, options.inputFormat, {
        option: options.agent,
        fileKey: fileAgentKey(filePath, options.cwd ?? process.cwd()),
      });
      try {
        if (await looksBinary(filePath)) {
          addError({ file, message: 'binary file, not a trace file (expected JSON or JSONL text)' });
          stats.files++;
          bytesRead += size;
          continue;
        }
        yield* readFile_(filePath, file, size, reader, addError, (n) => {
          bytesRead += n;
          progress(file);
        });
      } catch (err) {
        // One unreadable file (permissions, I/O error) is that file's input error, not the run's end.
        if (!isFsError(err)) throw err;
        addError({ file, message: describeReadError(err) });
      }
      stats.files++;
      if (reader.format) stats.formats[reader.format] = (stats.formats[reader.format] ?? 0) + 1;
      progress(file, true);
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
  size: number,
  reader: FileReader,
  addError: (e: InputError) => void,
  onBytes: (n: number) => void,
): AsyncGenerator<LoadedTrace[]> {
  // 'unknown' until the first non-blank line: a file that stays so holds only whitespace.
  let mode: 'unknown' | 'jsonl' | 'document' = 'unknown';
  let counted = 0;
  const count = (n: number) => {
    counted += n;
    onBytes(n);
  };
  buffers: for await (const lines of readLineBatches(filePath, count)) {
    const out: LoadedTrace[] = [];
    for (const line of lines) {
      if (mode === 'unknown') {
        const text = line.text.trim();
        if (text === '') continue;
        try {
          const value: unknown = JSON.parse(text);
          mode = 'jsonl';
          for (const t of reader.push(value, line.number)) out.push(t);
          continue;
        } catch {
          // Nothing was read before the first record, so `out` is empty here.
          if ((text.startsWith('{') || text.startsWith('[')) && size <= MAX_DOCUMENT_BYTES) {
            mode = 'document';
            break buffers;
          }
          mode = 'jsonl';
        }
      }
      for (const t of readJsonLine(line, file, reader, addError)) out.push(t);
    }
    yield out;
  }
  if (mode === 'unknown') {
    addError({ file, message: 'no records: the file holds only whitespace' });
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
      const prettyDocument = /^[[{]\s*[[{]?$/.test(firstLine);
      if (prettyDocument) {
        const at = jsonErrorPosition(text);
        addError({
          file,
          line: at?.line,
          message: `${describeJsonError(err)}${at ? ` at line ${at.line}, column ${at.column}` : ''}`,
        });
        yield reader.end();
        return;
      }
      // JSONL whose first record is broken: read it line by line after all.
      const out: LoadedTrace[] = [];
      for (let i = 0; i < lines.length; i++) {
        for (const t of readJsonLine({ number: i + 1, text: lines[i]! }, file, reader, addError)) out.push(t);
      }
      yield out;
      yield reader.end();
      return;
    }
    yield reader.pushDocument(doc, text);
    return;
  }
  yield reader.end();
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
