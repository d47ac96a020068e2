/**
 * How this Vitest run was started, as a command a user can type again: `npx vitest run` with the
 * options that choose the project (--config, --root, --dir, --project) and without file filters,
 * which the worker replaces with the test's own file. A cassette miss prints it with
 * TRACEJURY_CASSETTE=record, so recording the missing answers is one copied line.
 */
import path from 'node:path';

/** Options kept from the command line: they decide which config and files the run sees. */
const KEPT = new Set(['--config', '-c', '--root', '-r', '--dir', '--project']);

/** A word as a POSIX shell reads it back: quoted only when it has to be. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function runCommandOf(argv: readonly string[] = process.argv): string {
  const base = ['npx', 'vitest', 'run'];
  const script = argv[1] ?? '';
  // Started some other way (startVitest from a script): the plain command is the best guess.
  if (!/vitest/.test(path.basename(path.dirname(script))) && !/vitest/.test(path.basename(script)))
    return base.join(' ');
  const kept: string[] = [];
  const args = argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [flag] = arg.split('=', 1);
    if (!KEPT.has(flag!)) continue;
    if (arg.includes('=')) kept.push(arg);
    else if (args[i + 1] !== undefined) kept.push(arg, args[++i]!);
  }
  return [...base, ...kept].map(shellWord).join(' ');
}
