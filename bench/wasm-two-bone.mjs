/**
 * How much WebAssembly would buy the batched two-bone legs: TwoBoneBatch (100 legs a call) next to
 * the same common-leg kernel and forward kinematics compiled from AssemblyScript
 * (bench/wasm/two-bone.ts, built to two-bone.wasm), the textbook closed form and Babylon's
 * BoneIKController, on crowd.bench.mjs's leg rig and seeded targets, timed the same way (reset,
 * targets, solve, apply, forward kinematics of the leg; rounds rotated, medians). Before timing,
 * every target is solved by both and the bench stops unless the WebAssembly legs' rotations, model
 * matrices, errors and status equal TwoBoneBatch's to the bit.
 *
 * An experiment, not part of tendon: the kernel is not used by the library (docs/performance.md,
 * "WebAssembly").
 *
 * Run: `npm run build && node bench/wasm-two-bone.mjs` (about 15 s).
 */
import { readFileSync } from 'node:fs';
import * as tendon from '../dist/index.js';
import { twoBoneSolveLeg } from '../dist/kernel/two-bone-batch.js';
import { median, printTable, timeRounds, warmUp } from './harness.mjs';
import { babylonLeg, textbookLeg } from './ik-peers.mjs';
import { LEG, legTargets, TARGET_COUNT } from './ik-setup.mjs';
import { identitySkeleton } from './ik-tendon.mjs';
import { wasmCarver } from './wasm-memory.mjs';

const BATCH = 100;
const ROUNDS = Number(process.env.ROUNDS ?? 9);
const targets = legTargets();
const P = targets.positions;

const skeleton = identitySkeleton(LEG);
const [hip, knee, foot] = LEG.chain;
const J = skeleton.jointCount;

/** TwoBoneBatch over BATCH one-leg characters, reset to rest before each call. */
function tendonSide() {
  const batch = new tendon.TwoBoneBatch(
    skeleton,
    [{ root: hip, middle: knee, end: foot, pole: true }],
    BATCH,
  );
  const pose = batch.createPoseBuffers();
  for (let i = 0; i < BATCH; i++) batch.poles.set(LEG.pole, 3 * i);
  return { batch, pose, rest: { rotations: pose.rotations.slice(), model: pose.model.slice() } };
}

const wasmBytes = readFileSync(new URL('./wasm/two-bone.wasm', import.meta.url));
const { instance } = await WebAssembly.instantiate(wasmBytes, {
  env: {
    abort() {
      throw new Error('two-bone.wasm aborted');
    },
  },
});
const { memory, legs: wasmLegs } = instance.exports;

/** The same legs in WebAssembly's memory: buffers copied from a TwoBoneBatch's at rest. */
function wasmSide() {
  const t = tendonSide();
  const need = 1024 + 8 * BATCH * (J * 58 + 34 + 3 + 1) + 4 * BATCH * (J + 4) + BATCH + 4096;
  const carve = wasmCarver(memory, need);
  const v = {
    parents: carve(Int32Array, BATCH * J),
    translations: carve(Float64Array, 3 * BATCH * J),
    rotations: carve(Float64Array, 4 * BATCH * J),
    scales: carve(Float64Array, 3 * BATCH * J),
    model: carve(Float64Array, 16 * BATCH * J),
    restRotations: carve(Float64Array, 4 * BATCH * J),
    restModel: carve(Float64Array, 16 * BATCH * J),
    legs: carve(Int32Array, 4 * BATCH),
    settings: carve(Float64Array, 34 * BATCH),
    targets: carve(Float64Array, 3 * BATCH),
    errors: carve(Float64Array, BATCH),
    status: carve(Uint8Array, BATCH),
  };
  v.parents.set(t.batch.parents);
  v.translations.set(t.pose.translations);
  v.rotations.set(t.pose.rotations);
  v.scales.set(t.pose.scales);
  v.model.set(t.pose.model);
  v.restRotations.set(t.rest.rotations);
  v.restModel.set(t.rest.model);
  v.legs.set(t.batch.legs);
  // The settings as the batch's solve writes them (target and pole each call; the rest as set up).
  for (let i = 0; i < BATCH; i++) {
    const s = t.batch.settings[i];
    s.set(LEG.pole, 3); // TWO_BONE.pole
    v.settings.set(s, 34 * i);
  }
  const args = [
    v.model.byteOffset,
    v.parents.byteOffset,
    v.translations.byteOffset,
    v.rotations.byteOffset,
    v.scales.byteOffset,
    v.legs.byteOffset,
    v.settings.byteOffset,
    v.targets.byteOffset,
    v.errors.byteOffset,
    v.status.byteOffset,
    BATCH,
  ];
  // A leg the kernel declines (a rare branch: the general path's) is solved by tendon's kernel on
  // the same memory, as TwoBoneBatch would.
  const fallback = {
    settings: Array.from({ length: BATCH }, (_, i) => v.settings.subarray(34 * i, 34 * (i + 1))),
    memory: new Float64Array(4 * BATCH),
  };
  return { v, args, fallback };
}

let declinedLegs = 0;
const T = tendonSide();
const W = wasmSide();

/** One call of each: reset, targets k … k + BATCH − 1 (cycling), solve. */
function tendonCall(k) {
  T.pose.rotations.set(T.rest.rotations);
  T.pose.model.set(T.rest.model);
  for (let i = 0; i < 3 * BATCH; i += 3) {
    T.batch.targets[i] = P[3 * k];
    T.batch.targets[i + 1] = P[3 * k + 1];
    T.batch.targets[i + 2] = P[3 * k + 2];
    k = k + 1 === TARGET_COUNT ? 0 : k + 1;
  }
  T.batch.solve(T.pose);
  return k;
}
function wasmCall(k) {
  const { v, args } = W;
  v.rotations.set(v.restRotations);
  v.model.set(v.restModel);
  for (let i = 0; i < 3 * BATCH; i += 3) {
    v.targets[i] = P[3 * k];
    v.targets[i + 1] = P[3 * k + 1];
    v.targets[i + 2] = P[3 * k + 2];
    k = k + 1 === TARGET_COUNT ? 0 : k + 1;
  }
  if (wasmLegs(...args) > 0) {
    const { fallback } = W;
    for (let i = 0; i < BATCH; i++) {
      if (v.status[i] !== 255) continue;
      declinedLegs++;
      twoBoneSolveLeg(
        v.model,
        v.parents,
        v.translations,
        v.rotations,
        v.scales,
        v.legs,
        fallback.settings[i],
        fallback.memory,
        v.errors,
        v.status,
        i,
      );
    }
  }
  return k;
}

// The bits: every target once through both.
{
  let mismatches = 0;
  for (let k = 0; k < TARGET_COUNT; k += BATCH) {
    tendonCall(k);
    wasmCall(k);
    const same = (a, b) => a.every((x, i) => Object.is(x, b[i]));
    if (
      !same(T.pose.rotations, W.v.rotations) ||
      !same(T.pose.model, W.v.model) ||
      !same(T.batch.errors, W.v.errors) ||
      !same(T.batch.status, W.v.status)
    ) {
      mismatches++;
    }
  }
  if (mismatches > 0) throw new Error(`WebAssembly legs differ from TwoBoneBatch's in ${mismatches} calls`);
  console.log(
    `bits: ${TARGET_COUNT} legs (${declinedLegs} left to tendon's general path), WebAssembly's rotations, model matrices, errors and status equal TwoBoneBatch's`,
  );
}

/** A batched adapter as crowd.bench.mjs times them: run(count) → legs solved. */
function batched(name, call) {
  const state = { k: 0 };
  return {
    library: name.split(' ')[0],
    name,
    run(count) {
      const calls = Math.max(1, Math.round(count / BATCH));
      let k = state.k;
      for (let c = 0; c < calls; c++) k = call(k);
      state.k = k;
      return calls * BATCH;
    },
  };
}

const adapters = [
  batched(`tendon TwoBoneBatch, ${BATCH} legs a call`, tendonCall),
  batched(`WebAssembly (AssemblyScript) common leg, ${BATCH} legs a call`, wasmCall),
  { ...textbookLeg(targets), library: 'plain JS', name: 'textbook closed form' },
  { ...babylonLeg(targets), name: `Babylon.js BoneIKController + pole` },
];
const counts = adapters.map((a) => warmUp(a, { warmupNs: 300e6, roundNs: 60e6, min: 1000 }));
const rounds = timeRounds(adapters, counts, ROUNDS);
const ns = rounds.map(median);
const babylon = ns[3];
printTable(
  ['solver', 'ns/leg', 'legs/s', '× Babylon', 'tendon batch / this'],
  adapters.map((a, i) => [
    a.name,
    ns[i].toFixed(0),
    `${(1e9 / ns[i] / 1e6).toFixed(2)} M`,
    `${(babylon / ns[i]).toFixed(2)}×`,
    `${(ns[0] / ns[i]).toFixed(2)}×`,
  ]),
);
