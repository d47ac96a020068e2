/**
 * docs/cli.md's diff walkthrough ("A real diff") runs as written: its shell block, with the scratch
 * folder in a temporary directory and `tracejury` the CLI in process. Its first line once copied
 * `examples` into a folder it never made, and the next command found no `examples/traces`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';

const root = path.resolve(import.meta.dirname, '../..');

/** The commands of the first sh block under `### A real diff`, comments dropped. */
function walkthrough(): string[] {
  const page = readFileSync(path.join(root, 'docs/cli.md'), 'utf8');
  const section = page.slice(page.indexOf('### A real diff'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

describe("docs/cli.md's diff walkthrough", () => {
  it('runs as written: the scratch folder is made, each report written, the diff read', async () => {
    const commands = walkthrough();
    expect(commands[0]).toMatch(/&& cd \/tmp\/tj$/);
    const scratch = path.join(mkdtempSync(path.join(tmpdir(), 'tj-walkthrough-')), 'tj');
    // The setup line, from the repository's root as the page's reader runs it, into a folder of ours.
    const setup = commands[0]!.replace(/ && cd \/tmp\/tj$/, '').replaceAll('/tmp/tj', scratch);
    execFileSync('bash', ['-c', setup], { cwd: root });
    expect(existsSync(path.join(scratch, 'examples/traces'))).toBe(true);

    const rest = commands.slice(1);
    expect(rest.map((c) => c.split(' ').slice(0, 2).join(' '))).toEqual([
      'tracejury analyze',
      'tracejury analyze',
      'tracejury diff',
    ]);
    for (const command of rest.slice(0, 2)) {
      const { code, stderr } = await cli(command.split(' ').slice(1), scratch);
      expect([0, 1], stderr).toContain(code);
    }
    expect(existsSync(path.join(scratch, 'base.json'))).toBe(true);
    expect(existsSync(path.join(scratch, 'head.json'))).toBe(true);
    // Without the edit the page leaves to the reader, head is base again: the gate passes.
    const diff = await cli(rest[2]!.split(' ').slice(1), scratch);
    expect(diff.stderr).toBe('');
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('Regression gate: passed');
  });
});
