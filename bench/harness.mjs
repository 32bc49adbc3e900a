/**
 * What the benchmarks share: medians, allocation measured as heap growth with GC detection, and
 * the re-run with the V8 flags that make that measurement possible.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { constants, PerformanceObserver, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { REVISION } from 'three';

/**
 * The young generation must hold a whole allocation run's garbage, should there be any, without a
 * scavenge; min = max so that it does not start small and grow (growing needs scavenges).
 */
export const V8_FLAGS = ['--expose-gc', '--max-semi-space-size=256', '--min-semi-space-size=256'];

/** Median of a list of numbers. */
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** GC events, kept with their start time so that a run can count only its own. */
const gcEvents = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcEvents.push({ start: entry.startTime, kind: entry.detail?.kind ?? entry.kind });
  }
}).observe({ entryTypes: ['gc'] });

const GC_KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

/**
 * Bytes allocated per call of `run(count)`'s unit of work: the heapUsed delta over a run, less the
 * delta of a run of no calls (`run(0)`: the window itself, ~1.7 KB after the timer it awaits, which
 * over the slow solvers' short runs read as 0.2–1.7 bytes per call of solves that allocate
 * nothing). A GC during the run frees garbage the delta then misses, so a run that saw one is
 * repeated with the next (smaller) count; if the last still sees one, the result is a lower bound.
 * Other noise (the compiler finishing jobs: tens of KB now and then) only adds, so each measure is
 * the smallest of {@link ALLOCATION_RUNS} GC-free runs.
 *
 * @returns `{ count, bytesPerCall, baselineBytes, gcs, lowerBound, interrupted }`
 */
export async function measureAllocation(run, counts) {
  const smallest = async (count, interrupted) => {
    let best = null;
    for (let r = 0; r < ALLOCATION_RUNS; r++) {
      const result = await allocationRun(run, count);
      if (result.gcs.length > 0) interrupted.push(result);
      else if (best === null || result.bytes < best.bytes) best = result;
    }
    return best;
  };
  const baseline = await smallest(0, []);
  const baselineBytes = baseline === null ? 0 : baseline.bytes;
  const perCall = (result) => ({
    ...result,
    bytesPerCall: Math.max(0, result.bytes - baselineBytes) / result.count,
    baselineBytes,
  });
  const interrupted = [];
  for (const count of counts) {
    const best = await smallest(count, interrupted);
    if (best !== null) return { ...perCall(best), lowerBound: false, interrupted: interrupted.map(perCall) };
  }
  const last = interrupted.at(-1);
  return { ...perCall(last), lowerBound: true, interrupted: interrupted.slice(0, -1).map(perCall) };
}

/** Runs per count of {@link measureAllocation}, the smallest GC-free one kept. */
const ALLOCATION_RUNS = 3;

async function allocationRun(run, count) {
  globalThis.gc();
  // Let the forced GC's own entry arrive before the window opens.
  await new Promise((resolve) => setTimeout(resolve, 20));
  const start = performance.now();
  const before = process.memoryUsage().heapUsed;
  run(count);
  const after = process.memoryUsage().heapUsed;
  const end = performance.now();
  // GC entries are delivered asynchronously.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const gcs = gcEvents
    .filter((e) => e.start >= start && e.start <= end)
    .map((e) => GC_KINDS[e.kind] ?? e.kind);
  return { count, bytes: after - before, gcs };
}

let loopsMade = 0;

/**
 * The timed loop of one benchmark adapter: `run(count)` calls `solveOne(k)` for `count` targets
 * (k cycling through `0 … targetCount − 1`) and sums `readX()` into a sink so that the work cannot
 * be optimized away.
 *
 * Compiled afresh for every adapter (`new Function`, with a unique comment so that V8's
 * compilation cache does not hand back the same function): closures made from one piece of source
 * share V8's type feedback and optimized code, so adapters sharing one loop would time their
 * neighbours' polymorphism, not their own work (measured: tendon's two-bone solve took 340 ns alone
 * and 480 ns with three adapters sharing a loop). Each loop is as a user's single call site is.
 */
export function timedLoop(solveOne, readX, targetCount) {
  loopsMade++;
  const make = new Function(
    'solveOne',
    'readX',
    'targetCount',
    `// timed loop ${loopsMade}
    const sink = new Float64Array(1);
    const state = new Int32Array(1);
    return (count) => {
      let k = state[0];
      let acc = 0;
      for (let n = 0; n < count; n++) {
        solveOne(k);
        acc += readX();
        k = k + 1 === targetCount ? 0 : k + 1;
      }
      state[0] = k;
      sink[0] += acc;
    };`,
  );
  return make(solveOne, readX, targetCount);
}

/**
 * Nanoseconds per solve of `adapter.run(count)`, which may return how many it solved (a batch
 * rounds to whole batches) or nothing (then `count`).
 */
export function nsPerSolve(adapter, count) {
  const start = process.hrtime.bigint();
  const solved = adapter.run(count) ?? count;
  return Number(process.hrtime.bigint() - start) / solved;
}

/**
 * Warms `adapter` up for about `warmupNs`, then sizes a round of about `roundNs` from a
 * post-warm-up sample: the solves per round (at least `min`).
 */
export function warmUp(adapter, { warmupNs, roundNs, min }) {
  let count = min;
  let spent = 0;
  while (spent < warmupNs) {
    spent += nsPerSolve(adapter, count) * count;
    count = Math.min(count * 2, 1_000_000);
  }
  const estimate = nsPerSolve(adapter, Math.max(min, Math.round(20e6 / (spent / count))));
  return Math.max(min, Math.round(roundNs / estimate));
}

/**
 * `rounds` rounds of `counts[a]` solves of each adapter, the adapters' order rotated each round so
 * that none always runs right after another (the machine is shared and noisy): ns per solve, per
 * adapter, per round.
 */
export function timeRounds(adapters, counts, rounds) {
  const out = adapters.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < adapters.length; k++) {
      const a = (k + r) % adapters.length;
      out[a].push(nsPerSolve(adapters[a], counts[a]));
    }
  }
  return out;
}

/**
 * Prints a table: each column as wide as its widest cell, the first `left` columns left-aligned and
 * the others right-aligned. A row shorter than the header (a line that was skipped, with a note)
 * is left-aligned and does not size the columns.
 */
export function printTable(header, rows, left = 1) {
  const full = rows.filter((row) => row.length === header.length);
  const widths = header.map((h, c) => Math.max(h.length, ...full.map((row) => row[c].length)));
  const line = (cells) =>
    cells.map((cell, c) =>
      c < left || cells.length < header.length ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c]),
    );
  console.log(line(header).join(' | '));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const row of rows) console.log(line(row).join(' | '));
}

/**
 * Runs `main` when this process has the V8 flags; otherwise re-runs the calling file with them
 * (`npm run bench` cannot pass flags beyond --expose-gc) and exits with its status.
 */
export async function runWithV8Flags(moduleUrl, main) {
  if (process.execArgv.some((arg) => arg.startsWith('--max-semi-space-size'))) {
    await main();
    return;
  }
  const child = spawnSync(
    process.execPath,
    [...V8_FLAGS, fileURLToPath(moduleUrl), ...process.argv.slice(2)],
    {
      stdio: 'inherit',
    },
  );
  process.exit(child.status ?? 1);
}

/** Where a result was measured, for the JSON beside it: the machine, the engines, the flags. */
export function environment() {
  return {
    date: new Date().toISOString(),
    node: process.version,
    v8: process.versions.v8,
    three: REVISION,
    cpu: os.cpus()[0]?.model,
    cores: os.cpus().length,
    execArgv: process.execArgv,
  };
}
