import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { tracejury } from 'tracejury/vitest';

export default defineConfig({
  // This folder is the project root, whether Vitest is started here or with --config from elsewhere.
  root: fileURLToPath(new URL('.', import.meta.url)),
  // The cassette mode is tracejury.yml's (replay); `TRACEJURY_CASSETTE=record npx vitest run` records.
  plugins: [tracejury({ config: 'tracejury.yml' })],
  test: {
    include: ['evals/**/*.test.ts'],
  },
});
