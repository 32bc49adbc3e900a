import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Two cores on CI: keep workers at two so asset-heavy suites do not thrash.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    reporters: ['default', './scripts/summary-reporter.mjs'],
  },
});
