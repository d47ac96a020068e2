/**
 * What a command is given and what it returns: its streams, working directory and environment
 * (so tests drive the CLI in-process), and an exit code. bin.ts is the only place that touches
 * process.exit.
 */
export interface CliIO {
  stdout: { write(s: string): unknown; isTTY?: boolean };
  stderr: { write(s: string): unknown; isTTY?: boolean };
  /**
   * stdout without the terminal filter (main.ts puts the filter on `stdout`), for machine formats
   * alone: JSON and HTML whose serialisers escaped every control character themselves, so that
   * no filter rewrites them into something their readers cannot parse (output.ts).
   */
  rawStdout?: { write(s: string): unknown };
  cwd: string;
  env: Record<string, string | undefined>;
}

export const EXIT = { ok: 0, gateFailed: 1, usage: 2 } as const;

/** One `tracejury <name>` command: main.ts dispatches to it and prints its help for `--help`. */
export interface Command {
  name: string;
  help: string;
  run(args: string[], io: CliIO): number | Promise<number>;
}
