/**
 * A list kept in a temporary file: each value's text as the caller writes it, read back in order
 * as often as asked, whatever characters the values hold and however the reads split them.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { topLevelElementJson } from '../../src/report/jsonAtDepth.js';
import { createSpillFile } from '../../src/report/spillFile.js';

describe('createSpillFile', () => {
  it('gives back every value and its text in order, across reads of a megabyte, as often as asked', () => {
    const list = createSpillFile<{ i: number; text: string }>('values', topLevelElementJson);
    try {
      // Hostile text: NUL and other controls, line breaks, a bidi override, astral characters
      // whose UTF-8 bytes straddle the 1 MB read boundary somewhere in 3,000 values of ~1 KB.
      const values = Array.from({ length: 3000 }, (_, i) => ({
        i,
        text: `\u0000\n\r\u2028\u202e😀${'é🙂'.repeat(i % 400)}`,
      }));
      for (const v of values) list.append(v);
      expect(list.length).toBe(3000);
      for (let pass = 0; pass < 2; pass++) expect([...list.values()]).toEqual(values);
      const texts = [...list.texts()];
      expect(texts[7]).toBe(topLevelElementJson(values[7]));
      // The text is the report's own, indented for an element of a top-level array.
      expect(texts[0]).toContain('\n      "i": 0');
    } finally {
      list.remove();
    }
  });

  it('is empty before any append, and an error to read once removed (its directory gone)', () => {
    const list = createSpillFile<number>('empty', (n) => JSON.stringify(n));
    expect([...list.values()]).toEqual([]);
    list.append(1);
    const file = (() => {
      try {
        list.remove();
        list.values().next();
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    })();
    expect(file).toMatch(/^the spill file .*empty\.spill was removed$/);
    expect(existsSync(path.dirname(file.replace(/^the spill file | was removed$/g, '')))).toBe(false);
    expect(() => list.append(2)).toThrow(/was removed/);
    list.remove(); // idempotent
  });
});
