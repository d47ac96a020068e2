#!/usr/bin/env node
import { safeWriter } from '../redact/safeText.js';
import { boundHeapGrowth } from '../util/heapGrowth.js';
import { runCli } from './main.js';

// Before any work: the heap's growth is read at each collection (heapGrowth.ts).
boundHeapGrowth();

/**
 * A reader that stops early (`tracejury analyze … --format json | head -c 100`) closes stdout: the
 * rest of the report has nowhere to go, which is the reader's choice, not an error. Later writes
 * are dropped and the run ends quietly with its gate's exit code; any other stdout error is a real one.
 */
let stdoutClosed = false;
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  stdoutClosed = true;
});
const stdout = {
  write: (s: string) => (stdoutClosed ? false : process.stdout.write(s)),
  get isTTY() {
    return process.stdout.isTTY;
  },
};

runCli(process.argv.slice(2), {
  stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // An internal error's message may quote data: written as every other output is (runCli's safeIO).
    safeWriter(process.stderr).write(
      `tracejury: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exitCode = 2;
  },
);
