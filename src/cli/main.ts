/**
 * The `tracejury` command: it only wires the commands (src/cli/commands/, one module each) —
 * dispatch, the top-level help, the version, and an unknown command's error. `runCli` takes its
 * streams and returns the exit code, so tests drive it in-process; bin.ts is the only place that
 * touches process.exit.
 */
import { safeWriter } from '../redact/safeText.js';
import { UsageError } from '../trace/paths.js';
import { nearest } from '../util/nearest.js';
import { VERSION } from '../version.js';
import { analyzeCommand } from './commands/analyze.js';
import { baselineCommand } from './commands/baseline.js';
import { diffCommand } from './commands/diff.js';
import { mergeCommand } from './commands/merge.js';
import { schemaCommand } from './commands/schema.js';
import { GLOSSARY } from './glossary.js';
import { EXIT, type CliIO, type Command } from './io.js';

export { EXIT, type CliIO } from './io.js';

const COMMANDS: Command[] = [analyzeCommand, baselineCommand, diffCommand, mergeCommand, schemaCommand];

const HELP = `tracejury ${VERSION} — evals for LLM agents in CI

Usage:
  tracejury analyze <paths or globs…> [options]   detectors, waste and the gate over recorded traces
  tracejury baseline update|show|reset …          per-agent P75 baselines from good runs
  tracejury diff <base.json> <head.json> [options] compare two reports; fail on a regression
  tracejury merge <partial reports…> [options]    one report from the shards of a matrix run
  tracejury schema trace|config|report            print a JSON Schema (for editors and validators)
  tracejury --version | --help

Run tracejury <command> --help for a command's options and exit codes.

${GLOSSARY}
`;

/** `--help` / `-h` anywhere before a `--` terminator asks for help, whatever the command. */
function asksForHelp(args: readonly string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}

function commandNamed(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}

function unknownCommand(name: string): UsageError {
  const hint = nearest(
    name,
    COMMANDS.map((c) => c.name),
  );
  return new UsageError(
    hint
      ? `unknown command "${name}" — did you mean ${hint}? (run tracejury --help)`
      : `unknown command "${name}"; run tracejury --help`,
  );
}

/**
 * Every command writes through streams made safe once, here: what a report or trace put in an
 * agent id, a version or a message can neither drive the terminal (control characters are shown;
 * the CLI's own colours pass) nor start a workflow command in the Actions log (`::…` lines are
 * neutralised). Renderers still make each field one line (terminalText); this is the backstop.
 * Machine formats (JSON, HTML) escape every control character in their serialiser and go to
 * `rawStdout`: rewritten by the filter they would no longer parse.
 */
function safeIO(io: CliIO): CliIO {
  return {
    ...io,
    stdout: safeWriter(io.stdout),
    stderr: safeWriter(io.stderr),
    rawStdout: io.rawStdout ?? io.stdout,
  };
}

export async function runCli(argv: string[], given: CliIO): Promise<number> {
  const io = safeIO(given);
  const [name, ...rest] = argv;
  if (name !== undefined && asksForHelp(rest)) {
    io.stdout.write(commandNamed(name)?.help ?? HELP);
    return EXIT.ok;
  }
  try {
    switch (name) {
      case '--version':
      case '-v':
        io.stdout.write(`${VERSION}\n`);
        return EXIT.ok;
      case undefined:
        // No command is a usage error: usage goes to stderr, as every error does.
        io.stderr.write(HELP);
        return EXIT.usage;
      case '--help':
      case '-h':
      case 'help':
        io.stdout.write(HELP);
        return EXIT.ok;
    }
    const command = commandNamed(name);
    if (!command) throw unknownCommand(name);
    return await command.run(rest, io);
  } catch (err) {
    // User errors get a message, never a stack trace; anything else is a bug worth a trace.
    const isUser =
      err instanceof UsageError ||
      (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'));
    if (isUser) {
      io.stderr.write(`tracejury: ${(err as Error).message}\n`);
      return EXIT.usage;
    }
    throw err;
  }
}
