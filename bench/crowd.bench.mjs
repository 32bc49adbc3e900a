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
 * bench/results/crowd.json. `ROUND_MS=400` times the crowd frames in rounds of 400 ms instead of
 * 60 (each line then runs more frames in a row; the worker lines' split changes little).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { AnimationClip, AnimationMixer, Matrix4 } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { clone as cloneSkinned } from 'three/examples/jsm/utils/SkeletonUtils.js';
import { nodeCrowdWorker } from '../dist/crowd/node.js';
import * as tendon from '../dist/index.js';
import { bindThreeSkeleton, ThreeInstancedCrowd } from '../dist/three/index.js';
import { glbWithoutTextures } from './glb.mjs';
import { placedCrowdStep, placedWorlds } from './placement-step.mjs';
import { bumps, WALK_Z } from './terrain.mjs';

const { CROWD_STEP, CrowdWorkers } = tendon;

import {
  environment,
  measureAllocation,
  median,
  printTable,
  runWithV8Flags,
  timeRounds,
  warmUp,
} from './harness.mjs';
import { babylonLeg, babylonLook, textbookLeg, threeLookAt } from './ik-peers.mjs';
import {
  aimError,
  endAccuracy,
  HEAD,
  HINGE_TOLERANCE_RAD,
  headTargets,
  kneeOnHinge,
  kneeRest,
  LEG,
  legTargets,
  REACH_TOLERANCE,
  TARGET_COUNT,
} from './ik-setup.mjs';
import { identitySkeleton, tendonAim, tendonLeg } from './ik-tendon.mjs';

const ROUNDS = 9;
const ROUND_TARGET_NS = Number(process.env.ROUND_MS ?? 60) * 1e6;
if (!(ROUND_TARGET_NS > 0 && Number.isFinite(ROUND_TARGET_NS))) {
  throw new Error(`ROUND_MS=${process.env.ROUND_MS}: a positive number of milliseconds`);
}
const WARMUP_NS = 250e6;
/**
 * Each worker is a V8 of its own that compiles its code afresh, on its share of the frame's
 * characters only: the ~20 frames of WARMUP_NS left a placed line's workers half warm (2 workers
 * read 0.67× one thread; with 3 s of warm-up a line, 1.21×, and the scheduled line 0.30× → 0.91×,
 * in one run each). A game runs its workers for minutes.
 */
const WORKER_WARM_FRAMES = 300;
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
  const skeleton = identitySkeleton(LEG);
  const [hip, knee, foot] = LEG.chain;
  const J = skeleton.jointCount;
  const crowd = new tendon.TwoBoneBatch(
    skeleton,
    [{ root: hip, middle: knee, end: foot, pole: true }],
    batch,
  );
  const pose = crowd.createPoseBuffers();
  for (let i = 0; i < batch; i++) crowd.poles.set(LEG.pole, 3 * i);
  return {
    ...batchedAdapter({
      pose,
      out: crowd.targets,
      positions: targets.positions,
      batch,
      solve: () => crowd.solve(pose),
      sinkAt: 16 * ((batch - 1) * J + foot) + 12,
      probe: (i) => {
        const at = (j) => 16 * (i * J + j);
        const position = (j) => Array.from(pose.model.subarray(at(j) + 12, at(j) + 15));
        return {
          end: position(foot),
          thigh: new Matrix4().fromArray(pose.model, at(hip)),
          shin: new Matrix4().fromArray(pose.model, at(knee)),
          joints: [position(hip), position(knee), position(foot)],
        };
      },
    }),
    name: `TwoBoneBatch hinge + pole, ${batch} legs a call`,
    rest: {
      thigh: new Matrix4().fromArray(pose.model, 16 * hip),
      shin: new Matrix4().fromArray(pose.model, 16 * knee),
    },
  };
}

/**
 * A batched solver timed as ik.bench.mjs's adapters are: `batch` characters a call, each reset to
 * its pose at creation (rotations and model matrices copied back), given the next target of
 * `positions` (cycling) in `out`, then `solve()`. `sinkAt`: a model index read after each call (so
 * the work is not optimized away); `probe(i)`: character `i`'s result after a call.
 * `{ library, run(count) → solves, probeAll() }`.
 */
function batchedAdapter({ pose, out, positions, batch, solve, sinkAt, probe }) {
  const restRotations = pose.rotations.slice();
  const restModel = pose.model.slice();
  const state = new Int32Array(1);
  const sink = new Float64Array(1);
  /** One batch: reset, targets from the cursor on, solve. */
  const solveBatch = () => {
    pose.rotations.set(restRotations);
    pose.model.set(restModel);
    let k = state[0];
    for (let i = 0; i < 3 * batch; i += 3) {
      out[i] = positions[3 * k];
      out[i + 1] = positions[3 * k + 1];
      out[i + 2] = positions[3 * k + 2];
      k = k + 1 === TARGET_COUNT ? 0 : k + 1;
    }
    state[0] = k;
    solve();
  };
  return {
    library: 'tendon',
    run(count) {
      const calls = Math.max(1, Math.round(count / batch));
      let acc = 0;
      for (let c = 0; c < calls; c++) {
        solveBatch();
        acc += pose.model[sinkAt];
      }
      sink[0] += acc;
      return calls * batch;
    },
    /** Every target once, in order: probes as ik.bench.mjs's adapters give them. */
    probeAll() {
      state[0] = 0;
      const probes = [];
      for (let done = 0; done < TARGET_COUNT; done += batch) {
        solveBatch();
        for (let i = 0; i < batch && done + i < TARGET_COUNT; i++) probes.push(probe(i));
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

async function legsMain() {
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
    return warmUp(a, { warmupNs: WARMUP_NS, roundNs: ROUND_TARGET_NS, min: 1000 });
  });
  const rounds = timeRounds(adapters, counts, ROUNDS);
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
  console.log(`\n## batched two-bone legs (batch × = ns per leg / ${lead.solver} ns per leg)`);
  printTable(header, rows, 2);
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
  return { seconds: (performance.now() - started) / 1000, results };
}

// ---------------------------------------------------------------------------------------------
// aims

/**
 * `batch` heads of the HEAD rig (ik-setup.mjs), one character each, turned by one AimBatch toward
 * the head targets (forward +Z, up +Y given every solve, as tendonAim with `up`): reset to rest
 * (one copy per buffer), targets written, solve. `{ library, name, run(count) → aims, probeAll() }`.
 */
function tendonAimBatch(targets, batch) {
  const skeleton = identitySkeleton(HEAD);
  const head = HEAD.joint;
  const J = skeleton.jointCount;
  const crowd = new tendon.Crowd(skeleton, batch);
  const aims = new tendon.AimBatch(skeleton, [{ joint: head, forward: [0, 0, 1], up: [0, 1, 0] }], batch);
  for (let i = 0; i < batch; i++) {
    aims.ups.set([0, 1, 0], 3 * i);
    aims.useUp[i] = 1;
  }
  return {
    ...batchedAdapter({
      pose: crowd,
      out: aims.targets,
      positions: targets.positions,
      batch,
      solve: () => aims.solve(crowd),
      sinkAt: 16 * ((batch - 1) * J + head) + 8,
      probe: (i) => {
        const o = 16 * (i * J + head);
        const m = crowd.model;
        return { origin: [m[o + 12], m[o + 13], m[o + 14]], axis: [m[o + 8], m[o + 9], m[o + 10]] };
      },
    }),
    name: `AimBatch + up, ${batch} heads a call`,
  };
}

async function aimMain() {
  const started = performance.now();
  const targets = headTargets();
  const adapters = [
    ...BATCHES.map((b) => tendonAimBatch(targets, b)),
    tendonAim(targets, { up: true }),
    babylonLook(targets),
    threeLookAt(targets),
  ];
  const probes = adapters.map((a) => probeAll(a));
  const perCall = probes[BATCHES.length];
  adapters.forEach((adapter, a) => {
    let max = 0;
    let sum = 0;
    let diff = 0;
    probes[a].forEach((probe, i) => {
      const e = aimError(probe.origin, probe.axis, targets.positions.subarray(3 * i, 3 * i + 3));
      max = Math.max(max, e);
      sum += e;
      for (let k = 0; k < 3; k++) diff = Math.max(diff, Math.abs(probe.axis[k] - perCall[i].axis[k]));
    });
    adapter.accuracy = { meanError: sum / TARGET_COUNT, maxError: max };
    if (adapter.probeAll !== undefined) adapter.vsPerCall = diff;
  });
  const counts = adapters.map((a) => warmUp(a, { warmupNs: WARMUP_NS, roundNs: ROUND_TARGET_NS, min: 1000 }));
  const rounds = timeRounds(adapters, counts, ROUNDS);
  const results = [];
  for (const [i, adapter] of adapters.entries()) {
    const ns = median(rounds[i]);
    results.push({
      library: adapter.library,
      solver: adapter.name,
      nsPerAim: ns,
      aimsPerSecond: 1e9 / ns,
      accuracy: adapter.accuracy,
      maxAxisDifferenceVsAimIk: adapter.vsPerCall ?? null,
      allocation: await allocationPerLeg(adapter, ns),
    });
  }
  const lead = results[0];
  console.log(`\n## batched aim: a head looks at a point (batch × = ns per aim / ${lead.solver} ns per aim)`);
  const header = [
    'library',
    'solver',
    'aims/s',
    'ns/aim',
    'batch ×',
    'mean err',
    'max err',
    'B/aim',
    'vs AimIk',
  ];
  const rows = results.map((r) => [
    r.library,
    r.solver,
    fmt.rate(r.aimsPerSecond),
    r.nsPerAim.toFixed(0),
    `${(r.nsPerAim / lead.nsPerAim).toFixed(1)}×`,
    fmt.err(r.accuracy.meanError),
    fmt.err(r.accuracy.maxError),
    `${r.allocation.bytesPerLeg.toFixed(2)}${r.allocation.lowerBound ? ' (≥, GC)' : ''}`,
    r.maxAxisDifferenceVsAimIk === null ? '–' : `max Δ ${fmt.err(r.maxAxisDifferenceVsAimIk)}`,
  ]);
  printTable(header, rows, 2);
  return { seconds: (performance.now() - started) / 1000, results };
}

// ---------------------------------------------------------------------------------------------
// a crowd frame

/**
 * Robots per crowd of the frame section, single-threaded with and without placement; three.js and
 * the per-robot objects run the first size only, the workers the first two.
 */
const CROWD_SIZES = [100, 1000, 10_000];
const WORKER_SIZES = CROWD_SIZES.slice(0, 2);
/** Workers of the crowd frame's parallel lines (this machine has 2 cores). */
const WORKERS = 2;
/**
 * The workers' young generation: this process runs with 256 MB semi-spaces (harness.mjs, V8_FLAGS,
 * for steady allocation counts), which every worker would get too; with them, a placed crowd's
 * 2 workers split a frame 1.05–1.38× in bench/crowd-memory.mjs, with 16 MB 1.38–1.73×.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 16 };
const DT = 1 / 60;
/** How far below its animated place each foot is sent (model units; the robot is 3 units tall). */
const FOOT_DROP = 0.05;

const asset = (file) => new URL(`../../shared/assets/${file}`, import.meta.url);

/**
 * tendon's crowd frame for `count` robots: every robot its own time of the walk; Crowd.sample,
 * Crowd.forwardKinematics, both legs of every robot by one TwoBoneBatch toward its animated foot
 * dropped by FOOT_DROP, and the 3×4 palettes of every skin into one Float32Array each. With
 * `workers` > 0, the same frame split across that many worker_threads by CrowdWorkers (tendon/node)
 * over SharedArrayBuffers: sample + FK on the workers (runSync: Atomics.wait), the targets written
 * on the main thread, legs + palettes on the workers; the same bits (test/crowd/workers.test.ts).
 * `caller`: the main thread runs a range too (callingThreadTakesPart).
 */
async function tendonCrowdFrame(
  { skeleton, clip, run, skins },
  count,
  workers = 0,
  caller = false,
  blend = false,
  ik = true,
) {
  const shared = workers > 0;
  const crowd = new tendon.Crowd(skeleton, count, { shared });
  for (let c = 0; c < count; c++) {
    crowd.setClip(c, clip);
    crowd.times[c] = (c * clip.duration) / count;
    if (blend) {
      // Each robot walking into its run at its own weight, none at 0 or 1 (all blended).
      crowd.setBlendClip(c, run);
      crowd.blendTimes[c] = (c * run.duration) / count;
      crowd.blendWeights[c] = 0.05 + 0.9 * ((c % 10) / 9);
    }
  }
  const J = skeleton.jointCount;
  const legs = robotLegs(skeleton);
  const batch = ik ? new tendon.TwoBoneBatch(skeleton, legs, count, { shared }) : null;
  const palettes = skins.map((skin) => {
    const length = 12 * skin.joints.length * count;
    return shared ? new Float32Array(new SharedArrayBuffer(4 * length)) : new Float32Array(length);
  });
  const pool = shared
    ? await CrowdWorkers.start(crowd, {
        workers,
        callingThreadTakesPart: caller,
        createWorker: nodeCrowdWorker({ resourceLimits: WORKER_LIMITS }),
        batch,
        palettes: skins.map((skin, s) => ({ skin, out: palettes[s], layout: '3x4' })),
      })
    : null;
  const feet = Int32Array.from(legs, (leg) => skeleton.jointIndex(leg.foot));
  const t = ik ? batch.targets : null;
  const model = crowd.model;
  const POSE = CROWD_STEP.sample | CROWD_STEP.forwardKinematics;
  const SOLVE = CROWD_STEP.legs | CROWD_STEP.palettes;
  return {
    name: `Crowd${blend ? ' (walk + run blended)' : ''}${ik ? ' + TwoBoneBatch (2 legs)' : ' (sample + FK), no IK,'} + 3×4 palettes, ${count} robots${shared ? `, ${workers} worker${workers > 1 ? 's' : ''}${caller ? ' + main thread' : ''}` : ''}`,
    count,
    workers,
    caller,
    blend,
    batch: ik ? batch : undefined,
    poseOnly: !ik,
    run(frames) {
      for (let f = 0; f < frames; f++) {
        for (let c = 0; c < count; c++) {
          crowd.times[c] += DT;
          crowd.blendTimes[c] += DT;
        }
        if (pool === null) {
          crowd.sample();
          crowd.forwardKinematics();
        } else pool.runSync(POSE);
        for (let c = 0, i = 0; ik && c < count; c++) {
          for (let l = 0; l < feet.length; l++, i++) {
            const o = 16 * (c * J + feet[l]) + 12;
            t[3 * i] = model[o];
            t[3 * i + 1] = model[o + 1] - FOOT_DROP;
            t[3 * i + 2] = model[o + 2];
          }
        }
        if (pool === null) {
          if (ik) batch.solve(crowd);
          for (let s = 0; s < skins.length; s++) crowd.skinPalettes(skins[s], palettes[s], '3x4');
        } else pool.runSync(SOLVE);
      }
    },
    /** µs per empty frame (steps 0) with runSync (Atomics.wait) and with await run (Atomics.waitAsync). */
    async roundTrip() {
      if (pool === null) return null;
      const n = 2000;
      for (let i = 0; i < 200; i++) pool.runSync(0);
      let start = process.hrtime.bigint();
      for (let i = 0; i < n; i++) pool.runSync(0);
      const sync = Number(process.hrtime.bigint() - start) / 1e3 / n;
      for (let i = 0; i < 200; i++) await pool.run(0);
      start = process.hrtime.bigint();
      for (let i = 0; i < n; i++) await pool.run(0);
      const asyncUs = Number(process.hrtime.bigint() - start) / 1e3 / n;
      return { sync, async: asyncUs };
    },
    close() {
      pool?.terminate();
    },
  };
}

/**
 * tendon's crowd frame with placement: Crowd.sample and forwardKinematics over every robot, then
 * each robot's own FootPlacement (contacts from the clip, rays into a heightfield of bumps under
 * and ahead of each foot, pelvis, both legs, feet turned to the ground) run on the crowd's own
 * arrays (Crowd.poseOf, Crowd.modelOf: nothing copied), then the 3×4 palettes of every skin
 * (placement-step.mjs). `chunk`: that many robots at a time through every step. `workers` > 0:
 * the frame on CrowdWorkers, the placement as a custom step of the bench's own worker script
 * (placement-worker.mjs); `caller`: the main thread runs a range too.
 */
async function tendonPlacedCrowdFrame(
  { skeleton, clip, skins },
  count,
  chunk = count,
  workers = 0,
  caller = false,
  lod = null,
) {
  const shared = workers > 0;
  const crowd = new tendon.Crowd(skeleton, count, { shared });
  for (let c = 0; c < count; c++) {
    crowd.setClip(c, clip);
    crowd.times[c] = (c * clip.duration * 0.6180339887498949) % clip.duration;
  }
  const memory = (ctor, length) =>
    shared ? new ctor(new SharedArrayBuffer(ctor.BYTES_PER_ELEMENT * length)) : new ctor(length);
  // Update rates (CrowdSchedule): the first `lod.near` robots every frame, the others every
  // `lod.period`th, dealt turns in blocks of `chunk`; each robot placed with its own wait.
  const schedule = lod === null ? null : new tendon.CrowdSchedule(count, { block: chunk, shared });
  if (schedule !== null) schedule.periods.fill(lod.period, lod.near);
  const data = {
    worlds: memory(Float64Array, 16 * count),
    clock: memory(Float64Array, 1),
    seconds: schedule === null ? null : schedule.seconds,
  };
  placedWorlds(data.worlds, count);
  const { step, robots } = placedCrowdStep(crowd, data);
  const palettes = skins.map((skin) => memory(Float32Array, 12 * skin.joints.length * count));
  const pool = shared
    ? await CrowdWorkers.start(crowd, {
        workers,
        callingThreadTakesPart: caller,
        chunk: chunk < count ? chunk : undefined,
        createWorker: nodeCrowdWorker({
          url: new URL('./placement-worker.mjs', import.meta.url),
          resourceLimits: WORKER_LIMITS,
        }),
        custom: { step, data },
        palettes: skins.map((skin, s) => ({ skin, out: palettes[s], layout: '3x4' })),
        schedule: schedule ?? undefined,
      })
    : null;
  const ALL = CROWD_STEP.sample | CROWD_STEP.forwardKinematics | CROWD_STEP.custom | CROWD_STEP.palettes;
  // Robots `from … end − 1`, a chunk at a time through every step, so a robot's arrays are still
  // in the caches from one step to the next (chunk = count: each step over the whole crowd).
  const placeRange = (from, end) => {
    for (let first = from; first < end; first += chunk) {
      const n = Math.min(chunk, end - first);
      crowd.sample('loop', first, n);
      crowd.forwardKinematics(first, n);
      step(first, n);
      for (let s = 0; s < skins.length; s++) crowd.skinPalettes(skins[s], palettes[s], '3x4', first, n);
    }
  };
  return {
    name: `Crowd + FootPlacement per robot (heightfield) + 3×4 palettes, ${count} robots${chunk < count ? `, ${chunk} at a time` : ''}${shared ? `, ${workers} worker${workers > 1 ? 's' : ''}${caller ? ' + main thread' : ''}` : ''}${lod === null ? '' : `, CrowdSchedule: ${lod.near} every frame, ${count - lod.near} every ${lod.period}th`}`,
    count,
    chunk,
    workers,
    caller,
    placed: true,
    lod,
    robots,
    run(frames) {
      for (let f = 0; f < frames; f++) {
        data.clock[0] = DT;
        for (let c = 0; c < count; c++) crowd.times[c] += DT;
        if (pool !== null) {
          schedule?.plan(DT);
          pool.runSync(ALL);
          continue;
        }
        if (schedule === null) {
          placeRange(0, count);
          continue;
        }
        const runs = schedule.plan(DT);
        for (let r = 0; r < runs; r++) {
          placeRange(schedule.runFirst[r], schedule.runFirst[r] + schedule.runCount[r]);
        }
      }
    },
    close() {
      pool?.terminate();
    },
  };
}

/**
 * The placed frame of tendonPlacedCrowdFrame (one thread, `chunk` robots at a time through every
 * step) with the library's CrowdPlacement instead of the bench's own step: the same robots, worlds,
 * travel and ground; what a user of CrowdPlacement pays against a hand-written loop.
 */
function tendonCrowdPlacementFrame({ skeleton, clip, skins }, count, chunk) {
  const crowd = new tendon.Crowd(skeleton, count);
  for (let c = 0; c < count; c++) {
    crowd.setClip(c, clip);
    crowd.times[c] = (c * clip.duration * 0.6180339887498949) % clip.duration;
  }
  const rig = tendon.findRig(skeleton);
  const placed = new tendon.CrowdPlacement(crowd, rig, { ground: bumps().heightfield });
  placedWorlds(placed.worlds, count);
  const track = tendon.computeContacts(clip, rig.legs);
  const speed = -track.groundVelocity[2] * 0.5; // the robots' scale in placedWorlds
  const worlds = placed.worlds;
  const palettes = skins.map((skin) => new Float32Array(12 * skin.joints.length * count));
  return {
    name: `Crowd + CrowdPlacement (heightfield) + 3×4 palettes, ${count} robots, ${chunk} at a time`,
    count,
    run(frames) {
      for (let f = 0; f < frames; f++) {
        for (let c = 0; c < count; c++) {
          crowd.times[c] += DT;
          worlds[16 * c + 14] += speed * DT;
          if (worlds[16 * c + 14] > WALK_Z) {
            worlds[16 * c + 14] -= 2 * WALK_Z;
            placed.placementOf(c).reset();
          }
        }
        for (let first = 0; first < count; first += chunk) {
          const n = Math.min(chunk, count - first);
          crowd.sample('loop', first, n);
          crowd.forwardKinematics(first, n);
          placed.solve(DT, first, n);
          for (let s = 0; s < skins.length; s++) crowd.skinPalettes(skins[s], palettes[s], '3x4', first, n);
        }
      }
    },
  };
}

/** The same frame with an object per robot: Pose, sampleClip, forwardKinematics, a TwoBoneIk per leg, Skin.computePalette. */
function tendonObjectsFrame({ skeleton, clip, skins }, count) {
  const legs = robotLegs(skeleton);
  const robots = Array.from({ length: count }, (_, c) => ({
    pose: new tendon.Pose(skeleton),
    context: new tendon.SamplerContext(clip),
    model: tendon.createModelBuffer(skeleton),
    ik: legs.map((leg) => new tendon.TwoBoneIk(skeleton, leg)),
    palettes: skins.map((skin) => skin.createPalette()),
    time: new Float64Array([(c * clip.duration) / count]),
  }));
  const feet = Int32Array.from(legs, (leg) => skeleton.jointIndex(leg.foot));
  const target = new Float64Array(3);
  return {
    name: `Pose, TwoBoneIk ×2, palettes per robot, ${count} robots`,
    count,
    run(frames) {
      for (let f = 0; f < frames; f++) {
        for (let c = 0; c < count; c++) {
          const r = robots[c];
          r.time[0] += DT;
          tendon.sampleClip(clip, r.context, r.time[0], r.pose, 'loop');
          tendon.forwardKinematics(r.pose, r.model);
          for (let l = 0; l < feet.length; l++) {
            const o = 16 * feet[l] + 12;
            target[0] = r.model[o];
            target[1] = r.model[o + 1] - FOOT_DROP;
            target[2] = r.model[o + 2];
            r.ik[l].solve(r.pose, r.model, target);
          }
          for (let s = 0; s < skins.length; s++) skins[s].computePalette(r.model, r.palettes[s]);
        }
      }
    },
  };
}

/**
 * three.js posing the same robots without IK: mixer.update, updateMatrixWorld, Skeleton.update.
 * Each robot is a GLTFLoader parse of its own (as frame.bench.mjs's one robot: one THREE.Skeleton
 * per glTF skin); with `cloned`, one parse and a `SkeletonUtils.clone` of its scene per robot, as
 * a page showing many characters would (geometry shared; each skinned mesh gets a Skeleton of its
 * own: the robot's three skinned meshes update three skeletons where a parse of its own updates
 * the one they share). A thousand parses would take 8 s and 1.5 GB here.
 */
async function threeCrowdFrame(glb, count, cloned = false) {
  const gltfs = [];
  for (let c = 0; c < (cloned ? 1 : count); c++) {
    gltfs.push(await new GLTFLoader().parseAsync(glb.slice(0), ''));
  }
  const source = gltfs[0].animations.find((c) => c.name === 'Walking');
  const tracks = source.tracks.filter((track) => !track.name.endsWith('.morphTargetInfluences'));
  const clip = new AnimationClip(source.name, source.duration, tracks);
  const scenes = cloned
    ? Array.from({ length: count }, () => cloneSkinned(gltfs[0].scene))
    : gltfs.map((gltf) => gltf.scene);
  const robots = scenes.map((root, c) => {
    const mixer = new AnimationMixer(root);
    mixer.clipAction(clip).play();
    mixer.update((c * clip.duration) / count);
    const skeletons = new Set();
    root.traverse((object) => {
      if (object.isSkinnedMesh) skeletons.add(object.skeleton);
    });
    return { root, mixer, skeletons: [...skeletons] };
  });
  return {
    name: `three.js AnimationMixer + updateMatrixWorld + Skeleton.update, no IK, ${count} robots${cloned ? ' (SkeletonUtils.clone)' : ''}`,
    count,
    three: true,
    cloned,
    run(frames) {
      for (let f = 0; f < frames; f++) {
        for (let c = 0; c < count; c++) {
          const r = robots[c];
          r.mixer.update(DT);
          r.root.updateMatrixWorld();
          for (let s = 0; s < r.skeletons.length; s++) r.skeletons[s].update();
        }
      }
    },
  };
}

/**
 * The drawing side of an instanced crowd, without IK: Crowd.sample and forwardKinematics, then
 * ThreeInstancedCrowd's writePalettes (3×4 palettes into its texture data) and update (every rigid
 * part's instance matrix from the model matrices, the skinned parts' from the world matrices):
 * what a page does on the CPU before three draws the crowd in one call per mesh.
 */
async function tendonInstancedFrame({ skeleton, clip }, glb, count) {
  const gltf = await new GLTFLoader().parseAsync(glb.slice(0), '');
  const drawn = new ThreeInstancedCrowd(bindThreeSkeleton(gltf.scene, { skeleton }), { capacity: count });
  const crowd = new tendon.Crowd(skeleton, count);
  const worlds = new Float64Array(16 * count);
  for (let c = 0; c < count; c++) {
    crowd.setClip(c, clip);
    crowd.times[c] = (c * clip.duration) / count;
    worlds.set(
      [0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0, 2 * (c % 32), 0, -2 * Math.floor(c / 32), 1],
      16 * c,
    );
  }
  return {
    name: `Crowd (sample + FK), no IK, + ThreeInstancedCrowd (writePalettes + update, ${drawn.group.children.length} meshes), ${count} robots`,
    count,
    run(frames) {
      for (let f = 0; f < frames; f++) {
        for (let c = 0; c < count; c++) crowd.times[c] += DT;
        crowd.sample();
        crowd.forwardKinematics();
        drawn.writePalettes(crowd);
        drawn.update(crowd, worlds);
      }
    },
  };
}

/** The robot's legs (Blender IK rig: the foot a separate bone, so each leg ends at an endLocal point). */
function robotLegs(skeleton) {
  const rest = tendon.createModelBuffer(skeleton);
  tendon.forwardKinematics(new tendon.Pose(skeleton), rest);
  return ['L', 'R'].map((s) => {
    const middle = skeleton.jointIndex(`LowerLeg.${s}`);
    const foot = skeleton.jointIndex(`Foot.${s}`);
    const inv = new Matrix4().fromArray(rest, 16 * middle).invert();
    const p = new Matrix4().fromArray(rest, 16 * foot);
    const local = new Matrix4().multiplyMatrices(inv, p).elements;
    return { root: `UpperLeg.${s}`, middle, endLocal: [local[12], local[13], local[14]], foot: `Foot.${s}` };
  });
}

/**
 * The process's CPU time over the wall time of each line's rounds (all threads: about 2 when two
 * threads of ours really run at once, about 1 when they only take turns on one core).
 */
const cpuShare = new Map();

function msPerFrame(line, frames) {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  line.run(frames);
  const ns = Number(process.hrtime.bigint() - start);
  const used = process.cpuUsage(cpu);
  const share = cpuShare.get(line) ?? { cpuUs: 0, wallUs: 0 };
  share.cpuUs += used.user + used.system;
  share.wallUs += ns / 1e3;
  cpuShare.set(line, share);
  return ns / 1e6 / frames;
}

async function frameMain() {
  const started = performance.now();
  const bytes = readFileSync(asset('gltf/RobotExpressive.glb'));
  const imported = await tendon.importGltf(bytes, { source: 'RobotExpressive.glb' });
  const entry = imported.skeletons.find((e) => e.clips.some((c) => c.name === 'Walking'));
  const robot = {
    skeleton: entry.skeleton,
    clip: entry.clips.find((c) => c.name === 'Walking'),
    run: entry.clips.find((c) => c.name === 'Running'),
    skins: entry.skins,
  };
  const glb = glbWithoutTextures(bytes);
  const lines = [
    ...(await Promise.all(CROWD_SIZES.map((n) => tendonCrowdFrame(robot, n)))),
    ...(await Promise.all(CROWD_SIZES.map((n) => tendonPlacedCrowdFrame(robot, n)))),
    await tendonPlacedCrowdFrame(robot, CROWD_SIZES[1], 16),
    await tendonPlacedCrowdFrame(robot, CROWD_SIZES[1], 16, 0, false, { near: 100, period: 4 }),
    await tendonPlacedCrowdFrame(robot, CROWD_SIZES[1], 16, WORKERS, false, { near: 100, period: 4 }),
    tendonCrowdPlacementFrame(robot, CROWD_SIZES[1], 16),
    await tendonPlacedCrowdFrame(robot, CROWD_SIZES[1], 16, WORKERS),
    await tendonPlacedCrowdFrame(robot, CROWD_SIZES[1], 16, WORKERS - 1, true),
    await tendonCrowdFrame(robot, CROWD_SIZES[1], 0, false, true),
    await tendonCrowdFrame(robot, CROWD_SIZES[1], 0, false, false, false),
    await tendonInstancedFrame(robot, glb, CROWD_SIZES[1]),
    tendonObjectsFrame(robot, CROWD_SIZES[0]),
    await threeCrowdFrame(glb, CROWD_SIZES[0]),
    await threeCrowdFrame(glb, CROWD_SIZES[1], true),
    ...(await Promise.all(WORKER_SIZES.map((n) => tendonCrowdFrame(robot, n, WORKERS)))),
    ...(await Promise.all(WORKER_SIZES.map((n) => tendonCrowdFrame(robot, n, WORKERS - 1, true)))),
  ];
  // Warm-up: ~WARMUP_NS per line, and WORKER_WARM_FRAMES frames at least on lines with workers;
  // then rounds of ~ROUND_TARGET_NS, the order rotated.
  const frames = lines.map((line) => {
    let spent = 0;
    let run = 0;
    let n = 1;
    const least = line.workers > 0 ? WORKER_WARM_FRAMES : 0;
    while (spent < WARMUP_NS * 1e-6 || run < least) {
      spent += msPerFrame(line, n) * n;
      run += n;
      n = Math.min(2 * n, 200);
    }
    return Math.max(2, Math.round((ROUND_TARGET_NS * 1e-6) / msPerFrame(line, 2)));
  });
  const rounds = lines.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < lines.length; k++) {
      const a = (k + r) % lines.length;
      if (r === 0) cpuShare.delete(lines[a]);
      rounds[a].push(msPerFrame(lines[a], frames[a]));
    }
  }
  const results = [];
  for (const [i, line] of lines.entries()) {
    const ms = median(rounds[i]);
    const alloc = await measureAllocation((n) => line.run(n), [Math.max(10, Math.round(200 / ms)), 10]);
    results.push({
      line: line.name,
      robots: line.count,
      msPerFrame: ms,
      usPerRobot: (1e3 * ms) / line.count,
      cpuOverWall: cpuShare.get(line).cpuUs / cpuShare.get(line).wallUs,
      bytesPerFrame: alloc.bytesPerCall,
      lowerBound: alloc.lowerBound,
    });
  }
  const reached = lines[0].batch.status.reduce((n, s) => n + (s & tendon.TWO_BONE_STATUS.reached ? 1 : 0), 0);
  console.log(
    `\n## a crowd frame: robots walking, each its own time (median of ${ROUNDS} rotated rounds of ~${ROUND_TARGET_NS / 1e6} ms)`,
  );
  const header = ['line', 'ms/frame', 'µs/robot', 'B/frame', 'CPU/wall'];
  const rows = results.map((r) => [
    r.line,
    r.msPerFrame.toFixed(3),
    r.usPerRobot.toFixed(2),
    `${r.bytesPerFrame.toFixed(1)}${r.lowerBound ? ' (≥, GC)' : ''}`,
    r.cpuOverWall.toFixed(2),
  ]);
  printTable(header, rows);
  const find = (pick) => results.find((_, i) => pick(lines[i]));
  const batched = (n) => find((l) => l.batch !== undefined && !(l.workers > 0) && !l.blend && l.count === n);
  const blended = find((l) => l.blend);
  const placed = (n) => find((l) => l.placed && l.chunk === l.count && !(l.workers > 0) && l.count === n);
  const chunked = find((l) => l.placed && l.chunk < l.count && !(l.workers > 0) && !l.lod);
  const scheduled = find((l) => l.placed && l.lod && !(l.workers > 0));
  const scheduledOnWorkers = find((l) => l.placed && l.lod && l.workers > 0);
  const placedOn = (caller) => find((l) => l.placed && l.workers > 0 && l.caller === caller && !l.lod);
  const three = find((l) => l.three && !l.cloned);
  const threeCloned = find((l) => l.three && l.cloned);
  const [small, , huge] = CROWD_SIZES;
  const linear = (at) => (at(huge).usPerRobot / at(small).usPerRobot).toFixed(2);
  const placedFeet = lines.find((l) => l.placed && !(l.workers > 0) && l.count === small).robots;
  const planted = placedFeet.reduce(
    (n, r) => n + (r === null ? 0 : r.placement.planted.reduce((k, p) => k + p, 0)),
    0,
  );
  console.log(
    `legs reached in the last frame of ${small} robots: ${reached} of ${2 * small}; ` +
      `feet planted by placement in the last frame of ${small}: ${planted} of ${2 * small}; ` +
      `cost per robot at ${huge} robots / at ${small} (1 = linear): ${linear(batched)} batched legs, ${linear(placed)} with placement; ` +
      `three.js (no IK) / Crowd per robot: ${(three.usPerRobot / batched(small).usPerRobot).toFixed(2)}× (batched legs), ` +
      `${(three.usPerRobot / placed(small).usPerRobot).toFixed(2)}× (with placement)`,
  );
  console.log(
    `${blended.robots} robots blending walk and run (both clips sampled, then blended): ${blended.msPerFrame.toFixed(3)} ms per frame, ` +
      `${(blended.usPerRobot / batched(blended.robots).usPerRobot).toFixed(2)}× the walk alone per robot`,
  );
  console.log(
    `${chunked.robots} robots with placement, ${chunked.line.match(/(\d+) at a time/)[1]} at a time through every step: ${chunked.msPerFrame.toFixed(3)} ms per frame, ` +
      `${(placed(chunked.robots).msPerFrame / chunked.msPerFrame).toFixed(2)}× faster than each step over the whole crowd`,
  );
  {
    const { near, period } = lines[results.indexOf(scheduled)].lod;
    const far = scheduled.robots - near;
    console.log(
      `${scheduled.robots} robots with placement on a CrowdSchedule (${near} every frame, ${far} every ${period}th, ` +
        `about ${near + far / period} placed a frame): ${scheduled.msPerFrame.toFixed(3)} ms per frame, ` +
        `${(chunked.msPerFrame / scheduled.msPerFrame).toFixed(2)}× faster than all of them every frame (16 at a time); ` +
        `on ${WORKERS} workers ${scheduledOnWorkers.msPerFrame.toFixed(3)} ms (${(scheduled.msPerFrame / scheduledOnWorkers.msPerFrame).toFixed(2)}× the one thread's, CPU/wall ${scheduledOnWorkers.cpuOverWall.toFixed(2)})`,
    );
  }
  {
    // The workers run their ranges 16 at a time (CrowdWorkers' chunk), as the chunked line does.
    const single = chunked;
    const [parallel, mixed] = [placedOn(false), placedOn(true)];
    console.log(
      `${single.robots} robots with placement, 16 at a time, ms per frame: one thread ${single.msPerFrame.toFixed(3)}; ` +
        `${WORKERS} workers ${parallel.msPerFrame.toFixed(3)} (speed-up ${(single.msPerFrame / parallel.msPerFrame).toFixed(2)}×, CPU/wall ${parallel.cpuOverWall.toFixed(2)}); ` +
        `${WORKERS - 1} worker + main thread ${mixed.msPerFrame.toFixed(3)} (${(single.msPerFrame / mixed.msPerFrame).toFixed(2)}×, CPU/wall ${mixed.cpuOverWall.toFixed(2)})`,
    );
  }
  for (const n of CROWD_SIZES) {
    console.log(
      `${n} robots with placement, one thread: ${placed(n).msPerFrame.toFixed(3)} ms per frame (target for 1,000: ≤ 2.5)`,
    );
  }
  // The issue's 2.5 ms was set as 5× three.js posing the robots without IK, at 12.7 µs a robot:
  // near three.js's one-robot frame on this machine (frame.bench.mjs), not its frame in a crowd of
  // 1,000 (docs/crowds.md, Speed). The ratio to the crowd line, measured here.
  console.log(
    `${threeCloned.robots} robots, three.js posing them without IK (SkeletonUtils.clone each): ${threeCloned.msPerFrame.toFixed(3)} ms per frame; ` +
      `with placement one thread ${(threeCloned.msPerFrame / placed(threeCloned.robots).msPerFrame).toFixed(2)}× faster, ` +
      `16 at a time ${(threeCloned.msPerFrame / chunked.msPerFrame).toFixed(2)}× (the issue asks 5× three.js; its 12.7 µs a robot is nearer three.js's one-robot frame)`,
  );
  {
    // The floor under any placement: posing alone, no IK.
    const pose = find((l) => l.poseOnly);
    console.log(
      `${pose.robots} robots posed alone (sample + FK + 3×4 palettes, no IK), one thread: ${pose.msPerFrame.toFixed(3)} ms per frame; ` +
        `with placement ${(placed(pose.robots).msPerFrame / pose.msPerFrame).toFixed(2)}× that`,
    );
  }
  for (const n of WORKER_SIZES) {
    const single = batched(n);
    const parallel = find((l) => l.batch !== undefined && l.workers > 0 && !l.caller && l.count === n);
    const mixed = find((l) => l.batch !== undefined && l.caller && l.count === n);
    const ratio = (r) => (single.msPerFrame / r.msPerFrame).toFixed(2);
    console.log(
      `${n} robots, batched legs, ms per frame: one thread ${single.msPerFrame.toFixed(3)}; ${WORKERS} workers ${parallel.msPerFrame.toFixed(3)} ` +
        `(speed-up ${ratio(parallel)}×); ${WORKERS - 1} worker + main thread ${mixed.msPerFrame.toFixed(3)} (${ratio(mixed)}×); ` +
        `${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}`,
    );
  }
  const trip = await lines.find((l) => l.workers > 0 && l.batch !== undefined).roundTrip();
  console.log(
    `an empty frame's round trip to ${WORKERS} workers (wake + report): runSync (Atomics.wait) ${trip.sync.toFixed(1)} µs, ` +
      `await run (Atomics.waitAsync) ${trip.async.toFixed(1)} µs`,
  );
  for (const line of lines) line.close?.();
  return { seconds: (performance.now() - started) / 1000, results, roundTripUs: trip };
}

/**
 * How a frame's workers are woken and heard, measured empty (no characters' work): CrowdWorkers'
 * Atomics (notify to wake; the caller blocked in Atomics.wait, or awaiting Atomics.waitAsync) next
 * to a message to each of WORKERS worker_threads and its answer (postMessage, the other way).
 */
async function tripMain() {
  const { Worker } = await import('node:worker_threads');
  const N = 4000;
  const echo = Array.from(
    { length: WORKERS },
    () =>
      new Worker(
        "require('node:worker_threads').parentPort.on('message', (m) => require('node:worker_threads').parentPort.postMessage(m));",
        {
          eval: true,
        },
      ),
  );
  const answers = echo.map((w) => new Promise((resolve) => w.once('online', resolve)));
  await Promise.all(answers);
  const frameByMessage = () =>
    Promise.all(
      echo.map(
        (w) =>
          new Promise((resolve) => {
            w.once('message', resolve);
            w.postMessage(0);
          }),
      ),
    );
  for (let i = 0; i < 500; i++) await frameByMessage();
  let start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await frameByMessage();
  const message = Number(process.hrtime.bigint() - start) / 1e3 / N;
  for (const w of echo) await w.terminate();
  const skeleton = tendon.Skeleton.create({ names: ['root'], parents: [-1] });
  const crowd = new tendon.Crowd(skeleton, 2 * WORKERS, { shared: true });
  const pool = await CrowdWorkers.start(crowd, {
    workers: WORKERS,
    createWorker: nodeCrowdWorker({ resourceLimits: WORKER_LIMITS }),
  });
  for (let i = 0; i < 500; i++) pool.runSync(0);
  start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) pool.runSync(0);
  const wait = Number(process.hrtime.bigint() - start) / 1e3 / N;
  for (let i = 0; i < 500; i++) await pool.run(0);
  start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await pool.run(0);
  const waitAsync = Number(process.hrtime.bigint() - start) / 1e3 / N;
  pool.terminate();
  console.log(
    `\n## an empty frame's round trip to ${WORKERS} workers, µs (mean of ${N}; ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)})\n` +
      `Atomics, caller in Atomics.wait (runSync): ${wait.toFixed(1)}; Atomics, caller awaiting Atomics.waitAsync (run): ${waitAsync.toFixed(1)}; ` +
      `postMessage there and back: ${message.toFixed(1)}`,
  );
  return { wait, waitAsync, message };
}

async function main() {
  if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');
  const wanted = process.argv.slice(2);
  const run = (id) => wanted.length === 0 || wanted.includes(id);
  const out = {};
  if (run('legs')) out.legs = await legsMain();
  if (run('aim')) out.aim = await aimMain();
  if (run('frame')) out.frame = await frameMain();
  if (run('trip')) out.trip = await tripMain();
  const file = new URL('./results/crowd.json', import.meta.url);
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  const meta = {
    ...environment(),
    targetCount: TARGET_COUNT,
    rounds: ROUNDS,
    roundTargetNs: ROUND_TARGET_NS,
    batches: BATCHES,
    crowdSizes: CROWD_SIZES,
  };
  writeFileSync(file, `${JSON.stringify({ meta, ...out }, null, 2)}\n`);
  console.log(`\nwritten ${fileURLToPath(file)}`);
}

await runWithV8Flags(import.meta.url, main);
