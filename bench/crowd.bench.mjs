/**
 * Crowds: batched two-bone legs (TwoBoneBatch) next to the per-call TwoBoneIk, the textbook closed
 * form and Babylon's BoneIKController, in one process, on the leg rig and seeded targets of
 * bench/ik.bench.mjs (ik-setup.mjs; the peers' adapters are ik-peers.mjs's, unchanged).
 *
 * A "leg" is what ik.bench.mjs calls a solve: reset the leg to rest (rotations and model matrices
 * copied), write its target, solve, apply, forward kinematics of its joints. The batch does this
 * for BATCH legs at a time (characters of the 4-joint leg skeleton side by side in one set of
 * buffers: the reset is one copy of each buffer, then TwoBoneBatch.solve) and is timed per leg.
 *
 * Accuracy: every target solved once, outside the timing; the end's distance to reachable targets
 * (max and mean), the share of unreachable ones laid straight, the knee on its hinge; and the
 * batch's joint positions against TwoBoneIk's (the same bits are expected: max difference 0).
 * Allocation: bytes per leg over a run (harness.mjs; run with --expose-gc, as `npm run bench`).
 *
 * Run: node --expose-gc bench/crowd.bench.mjs (after npm run build). Results: stdout and
 * bench/results/crowd.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Matrix4 } from 'three';
import * as tendon from '../dist/index.js';
import { environment, measureAllocation, median, runWithV8Flags } from './harness.mjs';
import { babylonLeg, textbookLeg } from './ik-peers.mjs';
import {
  endAccuracy,
  HINGE_TOLERANCE_RAD,
  identityRestLocals,
  kneeOnHinge,
  kneeRest,
  LEG,
  legTargets,
  REACH_TOLERANCE,
  TARGET_COUNT,
} from './ik-setup.mjs';
import { tendonLeg } from './ik-tendon.mjs';

const ROUNDS = 9;
const ROUND_TARGET_NS = 60e6;
const WARMUP_NS = 250e6;
/** Legs per batch call. */
const BATCHES = [100, 1000];
/** Errors under this (metres) are doubles' rounding: equal accuracy. */
const ROUNDING = 1e-12;
/** The issue's targets, as ratios to peers in the same run. */
const RATIO_TARGETS = [
  { library: 'Babylon.js', times: 10 },
  { library: 'plain JS', times: 1 },
];

// ---------------------------------------------------------------------------------------------
// the batch adapter

/**
 * `batch` legs of the LEG rig (ik-setup.mjs), one character each, solved by one TwoBoneBatch:
 * hinge mode (the rest bend's hinge, as TwoBoneIk's default), the pole of every peer.
 * `{ library, name, run(count) → legs solved, probeAll() }`.
 */
function tendonBatch(targets, batch) {
  const locals = identityRestLocals(LEG);
  const skeleton = tendon.Skeleton.create({
    names: LEG.names,
    parents: LEG.parents,
    restTranslations: locals.flatMap((l) => l.position),
    restRotations: locals.flatMap((l) => l.quaternion),
  });
  const [hip, knee, foot] = LEG.chain;
  const J = skeleton.jointCount;
  const crowd = new tendon.TwoBoneBatch(
    skeleton,
    [{ root: hip, middle: knee, end: foot, pole: true }],
    batch,
  );
  const pose = crowd.createPoseBuffers();
  const restRotations = pose.rotations.slice();
  const restModel = pose.model.slice();
  for (let i = 0; i < batch; i++) crowd.poles.set(LEG.pole, 3 * i);
  const p = targets.positions;
  const t = crowd.targets;
  const state = new Int32Array(1);
  const sink = new Float64Array(1);
  const lastFoot = 16 * ((batch - 1) * J + foot) + 12;
  /** One batch: reset, targets from the cursor on, solve. */
  const solveBatch = () => {
    pose.rotations.set(restRotations);
    pose.model.set(restModel);
    let k = state[0];
    for (let i = 0; i < 3 * batch; i += 3) {
      t[i] = p[3 * k];
      t[i + 1] = p[3 * k + 1];
      t[i + 2] = p[3 * k + 2];
      k = k + 1 === TARGET_COUNT ? 0 : k + 1;
    }
    state[0] = k;
    crowd.solve(pose);
  };
  return {
    library: 'tendon',
    name: `TwoBoneBatch hinge + pole, ${batch} legs a call`,
    run(count) {
      const calls = Math.max(1, Math.round(count / batch));
      let acc = 0;
      for (let c = 0; c < calls; c++) {
        solveBatch();
        acc += pose.model[lastFoot];
      }
      sink[0] += acc;
      return calls * batch;
    },
    rest: {
      thigh: new Matrix4().fromArray(restModel, 16 * hip),
      shin: new Matrix4().fromArray(restModel, 16 * knee),
    },
    /** Every target once, in order: probes as ik.bench.mjs's adapters give them. */
    probeAll() {
      state[0] = 0;
      const probes = [];
      for (let done = 0; done < TARGET_COUNT; done += batch) {
        solveBatch();
        for (let i = 0; i < batch && done + i < TARGET_COUNT; i++) {
          const at = (j) => 16 * (i * J + j);
          const position = (j) => Array.from(pose.model.subarray(at(j) + 12, at(j) + 15));
          probes.push({
            end: position(foot),
            thigh: new Matrix4().fromArray(pose.model, at(hip)),
            shin: new Matrix4().fromArray(pose.model, at(knee)),
            joints: [position(hip), position(knee), position(foot)],
          });
        }
      }
      state[0] = 0;
      return probes;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// accuracy, timing, allocation

const probeAll = (adapter) =>
  adapter.probeAll?.() ?? Array.from({ length: TARGET_COUNT }, (_, i) => adapter.probe(i));

function accuracy(adapter, targets, probes) {
  const ends = new Float64Array(3 * TARGET_COUNT);
  probes.forEach((probe, i) => {
    ends.set(probe.end, 3 * i);
  });
  const rest = kneeRest(adapter.rest.thigh, adapter.rest.shin);
  const onHinge = probes.filter((p) => kneeOnHinge(rest, p.thigh, p.shin, ...p.joints)).length;
  return {
    ...endAccuracy(targets, ends, LEG.points[LEG.chain[0]], LEG.reach),
    hingeShare: onHinge / TARGET_COUNT,
  };
}

/** The largest difference between two adapters' joint positions over every target. */
function maxJointDifference(a, b) {
  let max = 0;
  a.forEach((probe, i) => {
    probe.joints.forEach((joint, j) => {
      joint.forEach((x, k) => {
        max = Math.max(max, Math.abs(x - b[i].joints[j][k]));
      });
    });
  });
  return max;
}

function nsPerLeg(adapter, count) {
  const start = process.hrtime.bigint();
  const legs = adapter.run(count) ?? count;
  return Number(process.hrtime.bigint() - start) / legs;
}

function warmUp(adapter) {
  let count = 1000;
  let spent = 0;
  while (spent < WARMUP_NS) {
    spent += nsPerLeg(adapter, count) * count;
    count = Math.min(count * 2, 1_000_000);
  }
  const estimate = nsPerLeg(adapter, Math.max(1000, Math.round(20e6 / (spent / count))));
  return Math.max(1000, Math.round(ROUND_TARGET_NS / estimate));
}

/** Rounds with the adapters' order rotated each round (the machine is shared and noisy). */
function timeRounds(adapters, counts) {
  const rounds = adapters.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < adapters.length; k++) {
      const a = (k + r) % adapters.length;
      rounds[a].push(nsPerLeg(adapters[a], counts[a]));
    }
  }
  return rounds;
}

async function allocationPerLeg(adapter, ns) {
  const counts = [100_000, 10_000, 1_000].filter((n) => n * ns <= 400e6);
  // run(count) may round to whole batches: measure per leg actually solved.
  let legs = 0;
  const result = await measureAllocation(
    (count) => {
      legs = adapter.run(count) ?? count;
    },
    counts.length > 0 ? counts : [1000],
  );
  return { ...result, bytesPerLeg: (result.bytesPerCall * result.count) / Math.max(1, legs) };
}

// ---------------------------------------------------------------------------------------------

const fmt = {
  rate: (n) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)} M` : `${(n / 1e3).toFixed(1)} k`),
  err: (x) => (x === 0 ? '0' : x.toExponential(1)),
  pct: (x) => (x === null || x === undefined ? '–' : `${(100 * x).toFixed(1)}%`),
};

async function main() {
  if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');
  const started = performance.now();
  const targets = legTargets();
  const adapters = [
    ...BATCHES.map((b) => tendonBatch(targets, b)),
    tendonLeg(targets, { mode: 'hinge', pole: true }),
    textbookLeg(targets),
    babylonLeg(targets),
  ];
  const perCall = adapters.find((a) => a.name.startsWith('TwoBoneIk'));
  const perCallProbes = probeAll(perCall);
  for (const adapter of adapters) {
    console.error(`  accuracy: ${adapter.library} ${adapter.name}`);
    const probes = adapter === perCall ? perCallProbes : probeAll(adapter);
    adapter.accuracy = accuracy(adapter, targets, probes);
    if (adapter.probeAll !== undefined) adapter.vsPerCall = maxJointDifference(probes, perCallProbes);
  }
  const counts = adapters.map((a) => {
    console.error(`  warm-up: ${a.library} ${a.name}`);
    return warmUp(a);
  });
  const rounds = timeRounds(adapters, counts);
  const results = [];
  for (const [i, adapter] of adapters.entries()) {
    const ns = median(rounds[i]);
    results.push({
      library: adapter.library,
      solver: adapter.name,
      nsPerLeg: ns,
      legsPerSecond: 1e9 / ns,
      roundsNsPerLeg: rounds[i],
      accuracy: adapter.accuracy,
      maxJointDifferenceVsTwoBoneIk: adapter.vsPerCall ?? null,
      allocation: await allocationPerLeg(adapter, ns),
    });
  }
  console.log(
    `Crowd bench: two-bone legs (reset + solve + apply + FK of the leg), ${TARGET_COUNT} seeded targets, median of ${ROUNDS} rotated rounds of ~${ROUND_TARGET_NS / 1e6} ms; ` +
      `errors in metres over reachable targets; knee on hinge: off-axis ≤ ${HINGE_TOLERANCE_RAD} rad and bending forward; reach tolerance ${REACH_TOLERANCE} m.`,
  );
  const lead = results[0];
  const header = [
    'library',
    'solver',
    'legs/s',
    'ns/leg',
    'batch ×',
    'mean err',
    'max err',
    '≤ 0.1 mm',
    'unreach. straight',
    'knee on hinge',
    'B/leg',
    'vs TwoBoneIk',
  ];
  const rows = results.map((r) => [
    r.library,
    r.solver,
    fmt.rate(r.legsPerSecond),
    r.nsPerLeg.toFixed(0),
    `${(r.nsPerLeg / lead.nsPerLeg).toFixed(1)}×`,
    fmt.err(r.accuracy.meanError),
    fmt.err(r.accuracy.maxError),
    fmt.pct(r.accuracy.reachedShare),
    fmt.pct(r.accuracy.straightShare),
    fmt.pct(r.accuracy.hingeShare),
    `${r.allocation.bytesPerLeg.toFixed(2)}${r.allocation.lowerBound ? ' (≥, GC)' : ''}`,
    r.maxJointDifferenceVsTwoBoneIk === null ? '–' : `max Δ ${fmt.err(r.maxJointDifferenceVsTwoBoneIk)}`,
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c].length)));
  const line = (cells) => cells.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]) : cell.padStart(widths[c])));
  console.log(`\n## batched two-bone legs (batch × = ns per leg / ${lead.solver} ns per leg)`);
  console.log(line(header).join(' | '));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const row of rows) console.log(line(row).join(' | '));
  for (const { library, times } of RATIO_TARGETS) {
    const peer = results.find((r) => r.library === library);
    if (peer === undefined) continue;
    const ratio = peer.nsPerLeg / lead.nsPerLeg;
    // Equal accuracy: a max error at or under the peer's, or both at doubles' rounding (under
    // ROUNDING m: 8e-16 against 4e-16 is no difference of method).
    const better =
      lead.accuracy.maxError <= Math.max(peer.accuracy.maxError, ROUNDING) &&
      lead.accuracy.reachedShare >= peer.accuracy.reachedShare;
    console.log(
      `target ${times === 1 ? 'faster than' : `≥ ${times}×`} ${library} ${peer.solver} at equal or better accuracy: ` +
        `${lead.solver} is ${ratio.toFixed(1)}× as fast${better ? '' : ', but LESS accurate'}: ${ratio > times && better ? 'meets it' : 'does NOT meet it'}`,
    );
  }
  const out = new URL('./results/crowd.json', import.meta.url);
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  const meta = {
    ...environment(),
    targetCount: TARGET_COUNT,
    rounds: ROUNDS,
    roundTargetNs: ROUND_TARGET_NS,
    batches: BATCHES,
    seconds: (performance.now() - started) / 1000,
  };
  writeFileSync(out, `${JSON.stringify({ meta, results }, null, 2)}\n`);
  console.log(`\nwritten ${fileURLToPath(out)} in ${meta.seconds.toFixed(0)} s`);
}

await runWithV8Flags(import.meta.url, main);
