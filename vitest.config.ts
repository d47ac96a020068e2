import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The plugin imports the library by the package's own name; the project's tests use the source.
    alias: [{ find: /^tracejury$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    // Tests start loopback HTTP servers; keep them isolated per file.
    pool: 'forks',
  },
});
