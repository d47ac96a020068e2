// The README's "What you get" block shows a command and its output: run the command (with a fresh
// state directory, as on a new clone) and fail when the output differs, so the README stays true.
//   npm run build && node scripts/check-readme-output.mjs
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const block = /## What you get\n\n```\n\$ tracejury (.+)\n([\s\S]*?)\n```\n/.exec(readme);
if (!block) {
  console.error('README.md: no "## What you get" block starting with "$ tracejury …"');
  process.exit(1);
}
const args = block[1].split(/\s+/);
const shown = block[2];
const run = spawnSync(
  process.execPath,
  [
    path.join(root, 'build/cli/bin.js'),
    ...args,
    '--state-dir',
    mkdtempSync(path.join(tmpdir(), 'tj-readme-')),
  ],
  {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', CI: 'true' },
  },
);
const actual = run.stdout.replace(/\n+$/, '');
const trimEnds = (s) =>
  s
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n');
if (trimEnds(actual) !== trimEnds(shown)) {
  const a = shown.split('\n');
  const b = actual.split('\n');
  const at = a.findIndex((l, i) => l.trimEnd() !== (b[i] ?? '').trimEnd());
  console.error(`README.md "What you get" differs from \`tracejury ${block[1]}\` at its line ${at + 1}:`);
  console.error(`  README: ${a[at] ?? '(nothing)'}`);
  console.error(`  output: ${b[at] ?? '(nothing)'}`);
  console.error(
    'Paste the output of `npm run build && node build/cli/bin.js ' + block[1] + '` into the block.',
  );
  process.exit(1);
}
console.log(`README "What you get" matches \`tracejury ${block[1]}\``);
