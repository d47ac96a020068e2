// The README and docs/cli.md show `tracejury analyze examples/traces` and what it prints: run the
// command (with a fresh state directory, as on a new clone) and fail when a block shows anything
// the command does not print, so the documents stay true.
//   npm run build && node scripts/check-readme-output.mjs
//
// A block is a plain ``` fence whose first line is `$ tracejury <args>`. docs/cli.md ("What you
// get") shows the whole output, compared line for line. The README shows an excerpt: a line that is
// only `…` stands for lines left out, and every other line must be the command's, in its order,
// each run of shown lines contiguous in the output.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ELIDED = '…';

/** The shown-output blocks of a markdown file, with the line each starts on. */
function outputBlocks(file) {
  const text = readFileSync(path.join(root, file), 'utf8');
  const blocks = [];
  for (const m of text.matchAll(/^```\n\$ tracejury (.+)\n([\s\S]*?)\n```$/gm)) {
    blocks.push({ file, line: text.slice(0, m.index).split('\n').length, args: m[1], shown: m[2] });
  }
  return blocks;
}

const trimEnds = (lines) => lines.map((l) => l.trimEnd());

function run(args) {
  const result = spawnSync(
    process.execPath,
    [
      path.join(root, 'build/cli/bin.js'),
      ...args.split(/\s+/),
      '--state-dir',
      mkdtempSync(path.join(tmpdir(), 'tj-readme-')),
    ],
    { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', CI: 'true' } },
  );
  return trimEnds(result.stdout.replace(/\n+$/, '').split('\n'));
}

/** Where `shown` first differs from `actual`, or undefined when every shown line is the command's. */
function firstDifference(shown, actual) {
  // Runs of shown lines between `…` lines; the first is anchored at the output's start unless the
  // block opens with `…`, the last at its end unless it closes with one.
  const runs = [[]];
  shown.forEach((line, i) => (line === ELIDED ? runs.push([]) : runs.at(-1).push({ line, at: i })));
  let from = 0;
  for (const [r, lines] of runs.entries()) {
    if (lines.length === 0) continue;
    const first = r === 0;
    const last = r === runs.length - 1;
    const fits = (start) => lines.every((l, k) => actual[start + k] === l.line);
    let start = -1;
    if (first) start = fits(0) ? 0 : -1;
    else if (last) start = fits(actual.length - lines.length) ? actual.length - lines.length : -1;
    else for (let s = from; s + lines.length <= actual.length && start < 0; s++) if (fits(s)) start = s;
    if (start < 0 || start < from) {
      // Name a line of the run the output does not have there: for an anchored run the first that
      // differs, else the first the rest of the output lacks (or the run's first line).
      const anchor = first ? 0 : last ? actual.length - lines.length : -1;
      const bad =
        anchor >= 0
          ? lines.find((l, k) => actual[anchor + k] !== l.line)
          : lines.find((l) => !actual.slice(from).includes(l.line));
      return { shownLine: (bad ?? lines[0]).at, text: (bad ?? lines[0]).line };
    }
    from = start + lines.length;
  }
  if (runs.length === 1 && actual.length !== shown.length)
    return { shownLine: shown.length, text: '(the block ends here, the output goes on)' };
  return undefined;
}

const blocks = [...outputBlocks('README.md'), ...outputBlocks('docs/cli.md')];
const problems = [];
for (const file of ['README.md', 'docs/cli.md'])
  if (!blocks.some((b) => b.file === file)) problems.push(`${file}: no block starting with "$ tracejury …"`);
if (!blocks.some((b) => b.file === 'docs/cli.md' && !b.shown.split('\n').includes(ELIDED)))
  problems.push('docs/cli.md: the "What you get" block must show the whole output (no "…" lines)');

const outputs = new Map();
for (const block of blocks) {
  if (!outputs.has(block.args)) outputs.set(block.args, run(block.args));
  const actual = outputs.get(block.args);
  const diff = firstDifference(trimEnds(block.shown.split('\n')), actual);
  if (diff) {
    const line = block.line + 2 + diff.shownLine;
    problems.push(
      `${block.file}:${line}: differs from the output of \`tracejury ${block.args}\`:\n` +
        `  shown:  ${diff.text}\n` +
        `  Paste the output of \`npm run build && node build/cli/bin.js ${block.args}\` into the block` +
        ' (in the README, keep whole lines and mark what is left out with a line "…").',
    );
  } else {
    console.log(`${block.file}:${block.line}: matches \`tracejury ${block.args}\``);
  }
}
if (problems.length > 0) {
  for (const p of problems) console.error(p);
  process.exit(1);
}
