/**
 * What the plugin adds to the user's Vitest config: its setup file and settings, and test locations
 * (so the report and the Action's annotations name each test's line) unless the user chose.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureSetupFile, tracejury } from '../../../vitest-plugin/main/plugin.js';

const root = mkdtempSync(path.join(tmpdir(), 'tracejury-plugin-config-'));

describe("the plugin's config", () => {
  it('turns on includeTaskLocation when the config leaves it unset', () => {
    expect(tracejury().config({ root }).test.includeTaskLocation).toBe(true);
  });

  it("keeps the user's includeTaskLocation: false", () => {
    const added = tracejury().config({ root, test: { includeTaskLocation: false } }).test;
    expect(added.includeTaskLocation).toBe(false);
  });

  it('adds the setup file at the root of the plugin, where the worker code expects it', () => {
    // The plugin runs from vitest-plugin/main/ and resolves the setup file by path: a move of
    // either must not leave Vitest a file that does not exist.
    const config: { root: string; test?: { setupFiles?: string | string[] } } = { root };
    tracejury().config(config);
    const [setupFile] = config.test!.setupFiles as string[];
    expect(path.basename(setupFile!)).toBe('setup.ts');
    expect(path.relative(path.resolve(import.meta.dirname, '../../..'), setupFile!)).toBe(
      path.join('vitest-plugin', 'setup.ts'),
    );
    expect(existsSync(setupFile!)).toBe(true);
  });

  it("puts its setup file before the user's, which are kept", () => {
    // First, so captureTrace's tracer provider is registered before a user's setup file makes an
    // instrumentation (capture/globalTracing.ts): Vite would append a returned list after theirs.
    for (const setupFiles of ['./otel.ts', ['./otel.ts', './more.ts']]) {
      const config = { root, test: { setupFiles } };
      tracejury().config(config);
      const files = config.test.setupFiles as string[];
      expect(path.basename(files[0]!)).toBe('setup.ts');
      expect(files.slice(1)).toEqual([setupFiles].flat());
    }
  });

  it("puts its setup file first in a resolved project that lacks it, once (Vitest 5's shared-server projects)", () => {
    const config: { root: string; test?: { setupFiles?: string | string[] } } = { root };
    tracejury().config(config);
    const [setupFile] = config.test!.setupFiles as string[];
    const project = { config: { setupFiles: ['/project/user.setup.ts'] } };
    ensureSetupFile(project);
    expect(project.config.setupFiles).toEqual([setupFile, '/project/user.setup.ts']);
    // A project resolved with the config hook's list already has it: not added twice.
    ensureSetupFile(project);
    expect(project.config.setupFiles).toEqual([setupFile, '/project/user.setup.ts']);
  });
});
