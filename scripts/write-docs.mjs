// Writes the generated reference pages from their templates and the built code:
//   docs/detectors.md      from docs/templates/detectors.md and each detector's meta and settings
//   docs/configuration.md  from docs/templates/configuration.md and the tracejury.yml schema
// `npm run build && node scripts/write-docs.mjs`; test/docs/generatedDocs.test.ts and .ci/run fail
// when the committed pages differ from what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { configurationPage } from '../build/config/docs.js';
import { detectorsPage } from '../build/detect/docs.js';

const root = new URL('../', import.meta.url);
const read = (file) => readFileSync(new URL(file, root), 'utf8');

for (const [page, template, render] of [
  ['docs/detectors.md', 'docs/templates/detectors.md', detectorsPage],
  ['docs/configuration.md', 'docs/templates/configuration.md', configurationPage],
]) {
  writeFileSync(new URL(page, root), render(read(template)));
}
