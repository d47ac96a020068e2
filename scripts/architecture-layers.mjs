// The layer table of ARCHITECTURE.md, generated from eslint.config.js LAYERS so the document says
// what the lint rule enforces. `node scripts/architecture-layers.mjs` rewrites the table;
// test/architecture/architectureDoc.test.ts fails when it is out of date.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LAYERS } from '../eslint.config.js';

export { LAYERS };

const root = fileURLToPath(new URL('..', import.meta.url));
export const START = '<!-- layers-table:start -->';
export const END = '<!-- layers-table:end -->';

/** The folders directly under `top` (src or vitest-plugin), sorted. */
export function foldersOf(top) {
  return readdirSync(`${root}/${top}`, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

const list = (names) => (names.length ? names.map((n) => `${n}/`).join(', ') : 'none');

/**
 * One row per folder of src/ and vitest-plugin/: the folders beside it that it may import (every
 * other one is a lint error), from LAYERS; a folder LAYERS does not name has no rule yet.
 */
export function layersMarkdown() {
  const rows = ['src', 'vitest-plugin'].flatMap((top) =>
    foldersOf(top).map((name) => {
      const forbidden = LAYERS[`${top}/${name}`];
      const may = forbidden
        ? list(foldersOf(top).filter((f) => f !== name && !forbidden.includes(f)))
        : 'any (no rule in LAYERS)';
      return `| \`${top}/${name}/\` | ${may} |`;
    }),
  );
  return [
    '| Folder | May import (any other folder beside it is a lint error) |',
    '| --- | --- |',
    ...rows,
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = `${root}/ARCHITECTURE.md`;
  const text = readFileSync(file, 'utf8');
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  if (a < 0 || b < a) throw new Error(`ARCHITECTURE.md needs ${START} … ${END}`);
  writeFileSync(file, text.slice(0, a + START.length) + '\n\n' + layersMarkdown() + '\n\n' + text.slice(b));
}
