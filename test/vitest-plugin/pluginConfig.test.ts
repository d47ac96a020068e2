/**
 * What the plugin adds to the user's Vitest config: its setup file and settings, and test locations
 * (so the report and the Action's annotations name each test's line) unless the user chose.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tracejury } from '../../vitest-plugin/plugin.js';

const root = mkdtempSync(path.join(tmpdir(), 'tracejury-plugin-config-'));

describe("the plugin's config", () => {
  it('turns on includeTaskLocation when the config leaves it unset', () => {
    expect(tracejury().config({ root }).test.includeTaskLocation).toBe(true);
  });

  it("keeps the user's includeTaskLocation: false", () => {
    const added = tracejury().config({ root, test: { includeTaskLocation: false } }).test;
    expect(added.includeTaskLocation).toBe(false);
    expect(added.setupFiles).toHaveLength(1);
  });
});
