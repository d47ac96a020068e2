/**
 * Reading traces that are already in memory, synchronously: the text of a small file, or parsed
 * records (OTLP documents from a receiver, spans captured in a test, a Langfuse export object).
 * The same FileReader as the streaming loader does the work, so format detection, grouping,
 * validation, pricing and input errors are exactly those of `tracejury analyze`. Meant for inputs
 * that fit in memory: a test's recording, one OTLP request; the loader streams everything larger.
 */
import { fileAgentKey } from './agentKey.js';
import type { InputError } from './inputError.js';
import type { InputFormat } from './importer.js';
import { describeJsonError, emptyStats, FileReader, readJsonLine, type LoadStats } from './load.js';
import type { LoadedTrace } from './schema.js';
import { createPricer, type Pricer } from '../pricing/pricer.js';

export interface InMemoryOptions {
  /** Read as this format instead of detecting it. */
  inputFormat?: InputFormat;
  /** Prices LLM steps that record no cost (default: the built-in price table). */
  pricer?: Pricer;
  /** The agent of traces whose recording names none (default: `name`). */
  agent?: string;
  /** Relative names are keyed against this directory for the default agent (default process.cwd()). */
  cwd?: string;
}

export interface InMemoryResult {
  traces: LoadedTrace[];
  stats: LoadStats;
}

let defaultPricer: Pricer | undefined;

function readerFor(name: string, stats: LoadStats, options: InMemoryOptions) {
  stats.files = 1;
  stats.fileNames.push(name);
  const addError = (e: InputError) => {
    stats.errorCount++;
    stats.errors.push(e);
  };
  const pricer = options.pricer ?? (defaultPricer ??= createPricer());
  const reader = new FileReader(name, stats, addError, pricer, options.inputFormat, {
    option: options.agent,
    fileKey: fileAgentKey(name, options.cwd ?? process.cwd()),
  });
  return { reader, addError };
}

function count(stats: LoadStats, traces: LoadedTrace[], format: string | undefined): InMemoryResult {
  // As the loader counts them: input files (here, one) per format.
  if (format) stats.formats[format] = 1;
  return { traces, stats };
}

/**
 * Parsed records, each a JSON value as one line of a JSONL file would hold (an OTLP/JSON request,
 * a span, a native trace, a Langfuse trace, …), named `name` in errors and in `source.file`.
 */
export function readTraceValues(
  name: string,
  values: readonly unknown[],
  options: InMemoryOptions = {},
): InMemoryResult {
  const stats = emptyStats();
  const { reader } = readerFor(name, stats, options);
  const traces: LoadedTrace[] = [];
  for (const [i, value] of values.entries()) for (const t of reader.push(value, i + 1)) traces.push(t);
  for (const t of reader.end()) traces.push(t);
  return count(stats, traces, reader.format);
}

/**
 * The text of a trace file: one JSON document, or JSONL (one record per line). A document that
 * does not parse is read as JSONL, so that good lines survive and each bad one is named.
 */
export function readTraceText(name: string, text: string, options: InMemoryOptions = {}): InMemoryResult {
  const stats = emptyStats();
  const { reader, addError } = readerFor(name, stats, options);
  // Editors on Windows save a byte order mark; JSON.parse does not skip it.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') {
    addError({ file: name, message: 'no records: the input is empty or holds only whitespace' });
    return { traces: [], stats };
  }
  let doc: unknown;
  let parsed = false;
  const trimmed = body.trimStart();
  // A JSONL file of one record parses whole too; it is the same value either way.
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      doc = JSON.parse(body);
      parsed = true;
    } catch (err) {
      // Several lines of JSONL do not parse as one document; a single broken document does.
      if (!body.trim().includes('\n')) {
        addError({ file: name, line: 1, message: describeJsonError(err) });
        return { traces: [], stats };
      }
    }
  }
  if (parsed) return count(stats, reader.pushDocument(doc, body), reader.format);
  const traces: LoadedTrace[] = [];
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i++)
    for (const t of readJsonLine({ number: i + 1, text: lines[i]! }, name, reader, addError)) traces.push(t);
  for (const t of reader.end()) traces.push(t);
  return count(stats, traces, reader.format);
}
