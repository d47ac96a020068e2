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
import type { InputError } from '../report/schema.js';
import { parseTrace } from './fastParse.js';
import { importerFor, importers } from './formats/index.js';
import {
  INPUT_FORMATS,
  type ImportedTrace,
  type Importer,
  type InputFormat,
  type TraceReader,
} from './importer.js';
import { jsonErrorPosition } from './jsonErrorPosition.js';
import { readLineBatches, type Line } from './lines.js';
import { expandPaths } from './paths.js';
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

/** How many JSON values a file may start with before we give up recognising its format. */
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

function describeJsonError(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return `not valid JSON (${msg.replace(/^JSON\.parse: /, '')})`;
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

class FileReader {
  private importer: Importer | undefined;
  private reader: TraceReader | undefined;
  private pending: { value: unknown; line: number | undefined }[] = [];
  private sniffed = 0;
  private gaveUp = false;

  constructor(
    private readonly file: string,
    private readonly stats: LoadStats,
    private readonly addError: (e: InputError) => void,
    private readonly pricer: Pricer,
    forced: InputFormat | undefined,
  ) {
    if (forced) this.use(importerFor(forced));
  }

  get format(): string | undefined {
    return this.importer?.format;
  }

  private use(importer: Importer): void {
    this.importer = importer;
    this.reader = importer.createReader({
      problem: (p) => this.addError({ file: this.file, ...p }),
    });
  }

  /** One parsed JSON value; returns the traces it completed. */
  push(value: unknown, line: number | undefined): LoadedTrace[] {
    this.stats.records++;
    if (this.gaveUp) return [];
    if (!this.reader) {
      const found = importers.find((i) => i.sniff(value));
      if (!found) {
        this.pending.push({ value, line });
        if (++this.sniffed >= SNIFF_LIMIT) this.giveUp();
        return [];
      }
      this.use(found);
      const held = this.pending;
      this.pending = [];
      const out = held.flatMap((p) => this.accept(this.reader!.push(p.value, p.line)));
      return out.concat(this.accept(this.reader!.push(value, line)));
    }
    return this.accept(this.reader.push(value, line));
  }

  end(): LoadedTrace[] {
    if (!this.reader && this.pending.length > 0) this.giveUp();
    return this.reader ? this.accept(this.reader.end()) : [];
  }

  private giveUp(): void {
    this.gaveUp = true;
    const first = this.pending[0];
    this.pending = [];
    this.addError({
      file: this.file,
      line: first?.line,
      message: `not a trace file: the first records match none of the formats tried (${INPUT_FORMATS.join(', ')}); force one with --input-format if you know it`,
    });
  }

  private accept(imported: ImportedTrace[]): LoadedTrace[] {
    const out: LoadedTrace[] = [];
    for (const item of imported) {
      const parsed = parseTrace(item.trace);
      if (!parsed.success) {
        const { field, message } = zodField(parsed.error);
        const id = (item.trace as { id?: unknown }).id;
        this.addError({
          file: this.file,
          line: item.line,
          field,
          message: `${typeof id === 'string' ? `trace ${id}: ` : ''}${message}`,
        });
        continue;
      }
      priceTrace(parsed.data, this.pricer);
      out.push({
        trace: parsed.data,
        source: { file: this.file, format: this.importer!.format, ...(item.line ? { line: item.line } : {}) },
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
    const files = await expandPaths(paths, options.cwd);
    let bytesTotal = 0;
    const sizes = new Map<string, number>();
    for (const f of files) {
      const size = (await stat(f.path)).size;
      sizes.set(f.path, size);
      bytesTotal += size;
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
      const size = sizes.get(filePath) ?? 0;
      if (size === 0) {
        addError({ file, message: 'empty file: no records to read' });
        stats.files++;
        continue;
      }
      if (await looksBinary(filePath)) {
        addError({ file, message: 'binary file, not a trace file (expected JSON or JSONL text)' });
        stats.files++;
        bytesRead += size;
        continue;
      }
      const reader = new FileReader(file, stats, addError, pricer, options.inputFormat);
      yield* readFile_(filePath, file, size, reader, addError, (n) => {
        bytesRead += n;
        progress(file);
      });
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
  let mode: 'unknown' | 'jsonl' | 'document' = 'unknown';
  buffers: for await (const lines of readLineBatches(filePath, onBytes)) {
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
  if (mode === 'document') {
    const text = await readFile(filePath, 'utf8');
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
    yield reader.push(doc, 1);
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
