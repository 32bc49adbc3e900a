/**
 * The importers' fuzzer (scripts/fuzz-io.ts) on a fixed seed: 200 mutated inputs per format, each
 * imported in a worker. Every input must end as a success or a TendonError naming the file: no
 * other exception, no timeout, nothing held past 64 MB above the input. `npm run fuzz:io` runs
 * 10,000 per format.
 */
import { describe, expect, it } from 'vitest';
import { makeInputs, runInputs } from '../../scripts/fuzz-io.js';

describe('importers under mutated files', () => {
  it.each(['glb', 'gltf', 'bvh'] as const)(
    '%s: 200 inputs, each a success or a TendonError naming the file',
    async (format) => {
      // 2 s rather than the fuzzer's 1 s: the test shares 2 cores with the rest of the suite.
      const report = await runInputs(makeInputs(format, 200, 7), 2000);
      expect(report.examples).toEqual([]);
      expect(report.counts.success + report.counts['typed error']).toBe(200);
      // The mutations must reach past the first check: some inputs still import.
      expect(report.counts.success).toBeGreaterThan(0);
      expect(report.counts['typed error']).toBeGreaterThan(0);
    },
    120_000,
  );
});
