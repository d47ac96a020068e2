/**
 * Command options as data: each option's flag, argument, help text and how its value is read.
 * The same record drives parsing (`parseCommandArgs`, which also converts and checks each value)
 * and the "Options:" block of the command's --help (`optionsHelp`), so the two cannot disagree.
 * Options more than one command takes are defined here once.
 */
import { parseArgs } from 'node:util';
import { INPUT_FORMATS, type InputFormat } from '../trace/importer.js';
import { UsageError } from '../trace/paths.js';
import { nearest } from '../util/nearest.js';

/** An option that takes a value (`--limit N`), read by `parse` when given (else kept as the string). */
export interface ValueOption<T = unknown> {
  /** The placeholder --help shows after the flag: FILE, N, … */
  argument: string;
  /** --help's text; a newline continues it on the next line, under the first. */
  description: string;
  parse?: (value: string) => T;
}

/** An option that is on or off (`--no-progress`). */
export interface FlagOption {
  description: string;
}

export type OptionSpec = ValueOption | FlagOption;
export type OptionSpecs = Record<string, OptionSpec>;

type ValueOf<S> = S extends { argument: string; parse: (value: string) => infer T }
  ? T
  : S extends { argument: string }
    ? string
    : boolean;

export type OptionValues<O extends OptionSpecs> = { [K in keyof O]?: ValueOf<O[K]> };

function takesValue(spec: OptionSpec): spec is ValueOption {
  return 'argument' in spec;
}

/**
 * The options and positionals of one command, each value read by its option's `parse`. An unknown
 * option is reported in one short line that names the command and the nearest valid option
 * (Node's own message explains `--` positionals instead).
 */
export function parseCommandArgs<O extends OptionSpecs>(
  command: string,
  args: string[],
  options: O,
): { values: OptionValues<O>; positionals: string[] } {
  const config = Object.fromEntries(
    Object.entries(options).map(([name, spec]) => [
      name,
      { type: takesValue(spec) ? ('string' as const) : ('boolean' as const) },
    ]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: config });
  } catch (err) {
    const code = err instanceof Error && 'code' in err ? String(err.code) : '';
    const unknown =
      code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && /'(-{1,2}[^']+)'/.exec((err as Error).message);
    if (!unknown) throw err;
    const known = Object.keys(options).map((o) => `--${o}`);
    const hint = nearest(unknown[1]!, known);
    throw new UsageError(
      `${command}: unknown option ${unknown[1]}${hint ? ` — did you mean ${hint}?` : ''} (options: ${known.join(', ')})`,
    );
  }
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(parsed.values)) {
    const spec = options[name]!;
    values[name] = takesValue(spec) && spec.parse ? spec.parse(value as string) : value;
  }
  return { values: values as OptionValues<O>, positionals: parsed.positionals };
}

/** The column option descriptions start at in --help. */
const DESCRIPTION_COLUMN = 25;

/** The "Options:" block of a command's --help, in `order` (default: the options' own order). */
export function optionsHelp<O extends OptionSpecs>(
  options: O,
  order: (keyof O & string)[] = Object.keys(options),
): string {
  const lines = order.map((name) => {
    const spec = options[name]!;
    const flag = `--${name}${takesValue(spec) ? ` ${spec.argument}` : ''}`;
    const description = spec.description.replaceAll('\n', `\n${' '.repeat(DESCRIPTION_COLUMN)}`);
    return `  ${flag.padEnd(DESCRIPTION_COLUMN - 3)} ${description}`;
  });
  return `Options:\n${lines.join('\n')}`;
}

/** `[--agent NAME] [--state-dir DIR] …`: the options in a usage line, in `order`. */
export function optionsUsage<O extends OptionSpecs>(
  options: O,
  order: (keyof O & string)[] = Object.keys(options),
): string {
  return order
    .map((name) => {
      const spec = options[name]!;
      return `[--${name}${takesValue(spec) ? ` ${spec.argument}` : ''}]`;
    })
    .join(' ');
}

// ---- Options several commands take ----

export const configOption = {
  argument: 'FILE',
  description: 'tracejury.yml / detectors.yml (default: found in the working directory)',
} satisfies ValueOption;

export const inputFormatOption = {
  argument: 'F',
  description: `${INPUT_FORMATS.join(' | ')} (default: detected per file)`,
  parse: (value: string): InputFormat => {
    if ((INPUT_FORMATS as readonly string[]).includes(value)) return value as InputFormat;
    throw new UsageError(`--input-format ${value}: expected one of ${INPUT_FORMATS.join(', ')}`);
  },
} satisfies ValueOption<InputFormat>;

export const stateDirOption = {
  argument: 'DIR',
  description: 'baselines and cassette (default: .tracejury)',
} satisfies ValueOption;

export const agentOption = {
  argument: 'NAME',
  description:
    "the agent of traces that name none (default: agent: in config, else the\nfile's path), for baselines",
  parse: (value: string): string => {
    if (value.trim() === '') throw new UsageError('--agent needs a name');
    return value;
  },
} satisfies ValueOption<string>;

/** --limit N: items each list of the text and markdown output shows. */
export function limitOption(description: string) {
  return {
    argument: 'N',
    description,
    parse: (value: string): number => {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1)
        throw new UsageError(`--limit ${value}: expected a whole number of list items, 1 or more`);
      return n;
    },
  } satisfies ValueOption<number>;
}
