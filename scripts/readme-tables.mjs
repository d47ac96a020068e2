// Regenerates the generated parts of README.md from the built registry: `node scripts/readme-tables.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';
import { detectorTableMarkdown } from '../build/detect/docs.js';

const file = new URL('../README.md', import.meta.url);
const text = readFileSync(file, 'utf8');
const start = '<!-- detectors-table:start -->';
const end = '<!-- detectors-table:end -->';
const a = text.indexOf(start);
const b = text.indexOf(end);
if (a < 0 || b < a) throw new Error(`README.md needs ${start} … ${end}`);
writeFileSync(
  file,
  text.slice(0, a + start.length) + '\n\n' + detectorTableMarkdown() + '\n' + text.slice(b),
);
