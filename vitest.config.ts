import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Two cores on CI: keep workers at two so asset-heavy suites do not thrash.
    pool: 'forks',
    maxWorkers: 2,
    // The IK properties run 100,000 cases each: ~10-40 s alone, over a minute on a machine shared
    // with other work. The limit catches a hang, not slowness (timings belong to npm run bench).
    testTimeout: 180_000,
    reporters: ['default', './scripts/summary-reporter.mjs'],
  },
});
