/**
 * The command a cassette miss tells the user to run again with TRACEJURY_CASSETTE=record: how this
 * Vitest run was started, keeping the options that choose the project and dropping file filters
 * (the worker adds the test's own file).
 */
import { describe, expect, it } from 'vitest';
import { runCommandOf } from '../../../vitest-plugin/main/runCommand.js';

const VITEST = '/repo/node_modules/vitest/vitest.mjs';

describe('runCommandOf', () => {
  it('keeps --config, --root, --dir and --project, in either form, and drops filters and other flags', () => {
    expect(runCommandOf(['node', VITEST, 'run'])).toBe('npx vitest run');
    expect(
      runCommandOf([
        'node',
        VITEST,
        'run',
        '--config',
        'examples/vitest/vitest.config.ts',
        'evals/support',
        '--reporter=verbose',
        '--project=unit',
        '-r',
        'packages/agent',
      ]),
    ).toBe('npx vitest run --config examples/vitest/vitest.config.ts --project=unit -r packages/agent');
  });

  it('quotes what a shell would split, and falls back to the plain command when Vitest was started otherwise', () => {
    expect(runCommandOf(['node', VITEST, 'run', '--config', 'my evals/vitest.config.ts'])).toBe(
      "npx vitest run --config 'my evals/vitest.config.ts'",
    );
    expect(runCommandOf(['node', '/repo/scripts/run-evals.mjs', '--config', 'x.ts'])).toBe('npx vitest run');
  });
});
