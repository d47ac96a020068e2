/**
 * Where a command's output goes, for every command that writes a report or a diff: the format
 * (`--format`, else `--out`'s extension, else the command's default), the `--out` file checked
 * writable before any work is done, the output written a piece at a time, and the one-line summary
 * stdout gets when the output went to a file.
 *
 * The formats are data: a format is one entry in OUTPUT_FORMATS (its file extensions and the name
 * --help gives it), and each command that writes one maps it to a renderer
 * (`Record<OutputFormat, …>`), so the compiler names every command a new format still lacks.
 */
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { escapeJsonText } from '../redact/jsonText.js';
import { writePieces } from '../report/html/render.js';
import { UsageError } from '../trace/paths.js';
import { fsErrorReason, isFsError } from '../util/fsError.js';
import type { CliIO } from './io.js';
import type { ValueOption } from './options.js';

/**
 * Each output format: the extensions of an --out file that choose it, its name in --help, and
 * whether it is a machine format. A machine format's serialiser escapes every control and bidi
 * character itself (JSON as `\u007f`, HTML in its text and embedded JSON), so it goes to stdout
 * unfiltered: the terminal filter, which shows `\x7f` for a person to read, would make the JSON
 * invalid. Text and markdown are for people, and keep the filter.
 */
export const OUTPUT_FORMATS = {
  text: { extensions: [], label: 'text', machine: false },
  json: { extensions: ['.json'], label: 'JSON', machine: true },
  markdown: { extensions: ['.md', '.markdown'], label: 'markdown', machine: false },
  html: { extensions: ['.html', '.htm'], label: 'HTML', machine: true },
} as const satisfies Record<string, { extensions: readonly string[]; label: string; machine: boolean }>;

export type OutputFormat = keyof typeof OUTPUT_FORMATS;

const FORMAT_NAMES = Object.keys(OUTPUT_FORMATS) as OutputFormat[];

function isOutputFormat(value: string): value is OutputFormat {
  return (FORMAT_NAMES as string[]).includes(value);
}

/** "a, b or c" */
function orList(words: readonly string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** --format F, with the command's default listed first. */
export function formatOption(defaultFormat: OutputFormat) {
  const names = [defaultFormat, ...FORMAT_NAMES.filter((f) => f !== defaultFormat)];
  return {
    argument: 'F',
    description: `${names.join(' | ')} (default: ${defaultFormat}, or from --out's extension)`,
    parse: (value: string): OutputFormat => {
      if (isOutputFormat(value)) return value;
      throw new UsageError(`--format ${value}: expected ${orList(FORMAT_NAMES)}`);
    },
  } satisfies ValueOption<OutputFormat>;
}

/** "(.json → JSON, .md → markdown, unless --format)": which extension writes which format. */
export function extensionsHelp(): string {
  const mapped = Object.values(OUTPUT_FORMATS)
    .filter((f) => f.extensions.length > 0)
    .map((f) => `${f.extensions[0]} → ${f.label}`);
  return `(${mapped.join(', ')}, unless --format)`;
}

/** --out FILE. */
export function outOption(description: string) {
  return { argument: 'FILE', description } satisfies ValueOption;
}

/**
 * `value` as JSON for stdout (`--format json` of a command without a report: baseline show): its
 * control and bidi characters escaped, written past the terminal filter as every machine format is.
 */
export function writeJsonToStdout(io: CliIO, value: unknown): void {
  (io.rawStdout ?? io.stdout).write(`${escapeJsonText(JSON.stringify(value, null, 2))}\n`);
}

/** --out FILE without --format: the format its extension names, else text. */
export function formatOfFile(file: string): OutputFormat {
  const ext = path.extname(file).toLowerCase();
  const found = FORMAT_NAMES.find((f) => (OUTPUT_FORMATS[f].extensions as readonly string[]).includes(ext));
  return found ?? 'text';
}

/** Creates the output's directory and fails, naming --out, when the output could not go there. */
function checkWritable(outFile: string, given: string): void {
  try {
    mkdirSync(path.dirname(outFile), { recursive: true });
    if (existsSync(outFile) && statSync(outFile).isDirectory())
      throw Object.assign(new Error('is a directory'), { code: 'EISDIR', syscall: 'open' });
    accessSync(existsSync(outFile) ? outFile : path.dirname(outFile), constants.W_OK);
  } catch (err) {
    if (!isFsError(err)) throw err;
    throw new UsageError(`--out ${given}: cannot write the report there: ${fsErrorReason(err)}`);
  }
}

export interface Output {
  format: OutputFormat;
  /** Colour only for a terminal that wants it, never in a file. */
  color: boolean;
  /**
   * The pieces to the --out file, then `summary(out)` on stdout; without --out, the pieces to
   * stdout. A file that cannot be written is a usage error naming --out and `what` it was.
   */
  write(pieces: Iterable<string>, summary: (out: string) => string): void;
}

/**
 * The output a command's --format and --out ask for. Call it before the work: a file that cannot
 * be written is known before minutes of analysis, not after.
 */
export function openOutput(
  values: { format?: OutputFormat | undefined; out?: string | undefined },
  io: CliIO,
  options: { defaultFormat: OutputFormat; what: string },
): Output {
  const given = values.out;
  const format = values.format ?? (given ? formatOfFile(given) : options.defaultFormat);
  const file = given === undefined ? undefined : path.resolve(io.cwd, given);
  if (file) checkWritable(file, given!);
  return {
    format,
    color: Boolean(io.stdout.isTTY) && !io.env.NO_COLOR && !given,
    write(pieces, summary) {
      if (!file) {
        const stdout = OUTPUT_FORMATS[format].machine ? (io.rawStdout ?? io.stdout) : io.stdout;
        for (const piece of pieces) stdout.write(piece);
        return;
      }
      try {
        writePieces(file, pieces);
      } catch (err) {
        if (!isFsError(err)) throw err;
        throw new UsageError(`--out ${given}: cannot write ${options.what}: ${fsErrorReason(err)}`);
      }
      io.stdout.write(summary(given!));
    },
  };
}
