import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { tracejury } from 'tracejury/vitest';

export default defineConfig({
  // This folder is the project root, whether Vitest is started here or with --config from elsewhere.
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [
    tracejury({
      config: 'tracejury.yml',
      // `node record-cassette.mjs` sets this to record the judges' answers again; otherwise the
      // cassette mode of tracejury.yml (replay) holds.
      ...(process.env.TRACEJURY_CASSETTE === 'record' ? { cassette: 'record' } : {}),
    }),
  ],
  test: {
    include: ['evals/**/*.test.ts'],
  },
});
