/**
 * How much WebAssembly would buy the crowd's posing: Crowd.sample (one looping clip),
 * Crowd.forwardKinematics and Crowd.skinPalettes ('3x4') on 1,000 walking robots, next to the same
 * arithmetic compiled from AssemblyScript (bench/wasm/kernels.ts, built to kernels.wasm; scalar,
 * and forward kinematics with f64x2 SIMD too). The WebAssembly side reads copies of the crowd's arrays placed in its own memory; each
 * result must equal tendon's to the bit, or the bench stops. Times are medians of alternating
 * rounds in one process; the ratio is tendon's time over WebAssembly's.
 *
 * An experiment, not part of tendon: the kernels are not used by the library (docs/performance.md,
 * "WebAssembly").
 *
 * Run: `npm run build && node bench/wasm-kernels.mjs` (about 20 s).
 */
import { readFileSync } from 'node:fs';
import * as tendon from '../dist/index.js';
import { median } from './harness.mjs';
import { wasmCarver } from './wasm-memory.mjs';

const COUNT = 1000;
const ROUNDS = 7;
const ROUND_MS = 300;

const bytes = readFileSync(new URL('../examples/assets/RobotExpressive.glb', import.meta.url));
const imported = await tendon.importGltf(bytes, { source: 'RobotExpressive.glb' });
const { skeleton, clips, skins } = imported.skeletons[0];
const walk = clips.find((c) => c.name === 'Walking');
const J = skeleton.jointCount;
const crowd = new tendon.Crowd(skeleton, COUNT);
for (let c = 0; c < COUNT; c++) {
  crowd.setClip(c, walk);
  crowd.times[c] = (c * walk.duration * 0.6180339887498949) % walk.duration;
}
crowd.sample();

const wasm = readFileSync(new URL('./wasm/kernels.wasm', import.meta.url));
const { instance } = await WebAssembly.instantiate(wasm, {
  env: {
    abort() {
      throw new Error('kernels.wasm aborted');
    },
  },
});
const { memory, fk, fkSimd, palettes, sample } = instance.exports;
const need =
  1024 +
  4 * J +
  8 * COUNT * J * (3 + 4 + 3 + 16) +
  skins.reduce(
    (n, skin) => n + 4 * skin.joints.length + 128 * skin.joints.length + 48 * COUNT * skin.joints.length,
    0,
  ) +
  16 * 16 +
  24 * walk.trackCount +
  8 * (walk.times.length + walk.values.length + 64) +
  COUNT * (8 + 4 * walk.trackCount) +
  1024;
const carve = wasmCarver(memory, need);
const parents = carve(Int32Array, J);
parents.set(skeleton.parents);
const translations = carve(Float64Array, crowd.translations.length);
const rotations = carve(Float64Array, crowd.rotations.length);
const scales = carve(Float64Array, crowd.scales.length);
translations.set(crowd.translations);
rotations.set(crowd.rotations);
scales.set(crowd.scales);
const model = carve(Float64Array, crowd.model.length);
const skinsIn = skins.map((skin) => {
  const joints = carve(Int32Array, skin.joints.length);
  joints.set(skin.joints);
  const inverseBind = carve(Float64Array, skin.inverseBindMatrices.length);
  inverseBind.set(skin.inverseBindMatrices);
  return { joints, inverseBind, out: carve(Float32Array, 12 * COUNT * skin.joints.length) };
});
// The clip's track table, slerp's series weights (computed as src/kernel/quat.ts computes them),
// and each robot's time and key cursors.
const tracks = carve(Int32Array, 6 * walk.trackCount);
for (let i = 0; i < walk.trackCount; i++) {
  tracks.set(
    [
      walk.targets[i],
      walk.paths[i],
      walk.interpolations[i],
      walk.timeOffsets[i],
      walk.keyCounts[i],
      walk.valueOffsets[i],
    ],
    6 * i,
  );
}
const keyTimes = carve(Float64Array, walk.times.length);
keyTimes.set(walk.times);
const keyValues = carve(Float64Array, walk.values.length);
keyValues.set(walk.values);
const series = carve(Float64Array, 64);
for (let i = 1; i < 64; i++) series[i] = 1 / (i * (2 * i + 1));
const clock = carve(Float64Array, COUNT);
clock.set(crowd.times);
const cursors = carve(Int32Array, COUNT * walk.trackCount);
const tendonPalettes = skins.map((skin) => new Float32Array(12 * COUNT * skin.joints.length));

const fkArguments = [
  parents.byteOffset,
  translations.byteOffset,
  rotations.byteOffset,
  scales.byteOffset,
  model.byteOffset,
  J,
  COUNT,
];
const lines = {
  'tendon Crowd.sample': () => crowd.sample(),
  'wasm sample': () =>
    sample(
      tracks.byteOffset,
      walk.trackCount,
      keyTimes.byteOffset,
      keyValues.byteOffset,
      series.byteOffset,
      walk.duration,
      clock.byteOffset,
      cursors.byteOffset,
      translations.byteOffset,
      rotations.byteOffset,
      scales.byteOffset,
      J,
      COUNT,
    ),
  'tendon Crowd.forwardKinematics': () => crowd.forwardKinematics(),
  'wasm fk': () => fk(...fkArguments),
  'wasm fk, f64x2 SIMD': () => fkSimd(...fkArguments),
  'tendon Crowd.skinPalettes 3x4': () => {
    for (let s = 0; s < skins.length; s++) crowd.skinPalettes(skins[s], tendonPalettes[s], '3x4');
  },
  'wasm palettes 3x4': () => {
    for (const { joints, inverseBind, out } of skinsIn) {
      palettes(
        out.byteOffset,
        model.byteOffset,
        J,
        joints.byteOffset,
        joints.length,
        inverseBind.byteOffset,
        COUNT,
      );
    }
  },
};

/** Stops the bench unless `actual` holds `expected`'s bits. */
function sameBits(name, actual, expected) {
  for (let k = 0; k < expected.length; k++) {
    if (!Object.is(actual[k], expected[k])) {
      throw new Error(`${name}: element ${k} is ${actual[k]}, tendon's ${expected[k]}`);
    }
  }
}
// Some robots' times before the clip and past its end, so that the loop's wrap is checked too.
for (let c = 0; c < COUNT; c += 3) crowd.times[c] += (c % 2 === 0 ? -1 : 2) * walk.duration;
clock.set(crowd.times);
lines['tendon Crowd.sample']();
// The joints no track animates keep their rest values, as the crowd's do.
translations.set(crowd.translations);
rotations.set(crowd.rotations);
scales.set(crowd.scales);
for (const { track, stride, into } of [
  { track: 0, stride: 3, into: translations },
  { track: 1, stride: 4, into: rotations },
  { track: 2, stride: 3, into: scales },
]) {
  // Overwrite every animated channel, so that the comparison below tests the sampling.
  for (let i = 0; i < walk.trackCount; i++) {
    if (walk.paths[i] !== track) continue;
    for (let c = 0; c < COUNT; c++)
      into.fill(Number.NaN, (c * J + walk.targets[i]) * stride, (c * J + walk.targets[i] + 1) * stride);
  }
}
lines['wasm sample']();
sameBits('wasm sample (translations)', translations, crowd.translations);
sameBits('wasm sample (rotations)', rotations, crowd.rotations);
sameBits('wasm sample (scales)', scales, crowd.scales);
// The clip holds linear keys only (translations and rotations): the kernel's step, one-key and
// scale paths are not checked by this clip, and not claimed.
lines['tendon Crowd.forwardKinematics']();
for (const name of ['wasm fk', 'wasm fk, f64x2 SIMD']) {
  model.fill(Number.NaN);
  lines[name]();
  sameBits(name, model, crowd.model);
}
lines['tendon Crowd.skinPalettes 3x4']();
for (const { out } of skinsIn) out.fill(Number.NaN);
lines['wasm palettes 3x4']();
for (let s = 0; s < skinsIn.length; s++) sameBits('wasm palettes 3x4', skinsIn[s].out, tendonPalettes[s]);

const times = Object.fromEntries(Object.keys(lines).map((name) => [name, []]));
for (let r = 0; r < ROUNDS + 1; r++) {
  for (const [name, run] of Object.entries(lines)) {
    let frames = 0;
    const start = performance.now();
    while (performance.now() - start < ROUND_MS) {
      run();
      frames++;
    }
    // The first round warms up.
    if (r > 0) times[name].push((performance.now() - start) / frames);
  }
}
const ms = (name) => median(times[name]);
const bases = {
  sample: 'tendon Crowd.sample',
  fk: 'tendon Crowd.forwardKinematics',
  palettes: 'tendon Crowd.skinPalettes 3x4',
};
console.log(
  `${COUNT} robots (${J} joints, ${skins.length} skin${skins.length > 1 ? 's' : ''}), ms per frame, median of ${ROUNDS} rounds; every WebAssembly result tendon's to the bit`,
);
for (const name of Object.keys(lines)) {
  const base = name.includes('palettes') ? bases.palettes : name.includes('sample') ? bases.sample : bases.fk;
  const ratio = name.startsWith('wasm') ? `  (${(ms(base) / ms(name)).toFixed(2)}× tendon)` : '';
  console.log(`  ${name.padEnd(32)} ${ms(name).toFixed(3)}${ratio}`);
}
const js = ms(bases.sample) + ms(bases.fk) + ms(bases.palettes);
const wasmTotal = ms('wasm sample') + ms('wasm fk, f64x2 SIMD') + ms('wasm palettes 3x4');
console.log(
  `  posing (sample + FK + palettes): tendon ${js.toFixed(3)}, wasm ${wasmTotal.toFixed(3)} (${(js / wasmTotal).toFixed(2)}× tendon)`,
);
