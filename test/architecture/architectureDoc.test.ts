/**
 * ARCHITECTURE.md cannot drift from the code: its layer table is the one generated from
 * eslint.config.js LAYERS, every LAYERS key names a folder that exists, and every folder of src/
 * and vitest-plugin/ is described in it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { foldersOf, LAYERS, layersMarkdown } from '../../scripts/architecture-layers.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const doc = readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8');

describe('ARCHITECTURE.md', () => {
  it('holds the layer table generated from LAYERS (run `node scripts/architecture-layers.mjs`)', () => {
    expect(doc).toContain(layersMarkdown());
  });

  it('names every LAYERS key, and every key is a folder that exists', () => {
    for (const key of Object.keys(LAYERS)) {
      expect(doc, key).toContain(`\`${key}/\``);
      expect(existsSync(path.join(root, key)), `${key} is in LAYERS but not on disk`).toBe(true);
    }
  });

  it('describes every folder of src/ and vitest-plugin/', () => {
    const described = (top: 'src' | 'vitest-plugin') =>
      foldersOf(top).filter((name) => !new RegExp(`^- \`${top}/${name}/\` — `, 'm').test(doc));
    expect(described('src')).toEqual([]);
    expect(described('vitest-plugin')).toEqual([]);
  });

  it('is where the lint messages send contributors, not a document they do not have', () => {
    const config = readFileSync(path.join(root, 'eslint.config.js'), 'utf8');
    expect(config).toContain('ARCHITECTURE.md');
    expect(config).not.toContain('DESIGN.md');
  });
});
