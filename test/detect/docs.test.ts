import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectorTableMarkdown } from '../../src/detect/docs.js';
import { detectors } from '../../src/detect/registry.js';

describe('README detector reference', () => {
  it('is the table generated from the registry (run `npm run build && node scripts/readme-tables.mjs`)', () => {
    const readme = readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
    expect(readme).toContain(detectorTableMarkdown());
  });

  it('lists every built-in detector once, with unique ids and config keys', () => {
    const table = detectorTableMarkdown();
    for (const d of detectors) expect(table).toContain(`| \`${d.meta.id}\` | \`${d.meta.configKey}\` |`);
    expect(new Set(detectors.map((d) => d.meta.id)).size).toBe(detectors.length);
    expect(new Set(detectors.map((d) => d.meta.configKey)).size).toBe(detectors.length);
  });
});
