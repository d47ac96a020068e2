import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    // Tests start loopback HTTP servers; keep them isolated per file.
    pool: 'forks',
  },
});
