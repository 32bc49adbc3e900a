/**
 * How many cases each IK property runs: 100,000 in `npm test` (CI), 10,000,000 under `npm run fuzz`
 * (which sets FUZZ_RUNS), or whatever FUZZ_RUNS says.
 */
export const PROPERTY_RUNS = Number(process.env.FUZZ_RUNS ?? 100_000);

/** The seed of every IK property: runs are reproducible; change it only on purpose. */
export const PROPERTY_SEED = 20261123;
