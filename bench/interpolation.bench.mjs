/**
 * Rotation interpolation between keys: cost and accuracy of tendon's trig-free slerp, nlerp, and
 * three.js's Quaternion.slerpFlat, on the key pairs of the real clips (glTF at 24–30 fps, CMU
 * motion capture at 120 Hz).
 *
 * Accuracy: largest angle (radians) between each method's result and exact slerp computed with
 * Math.acos/Math.sin, over 9 interpolation factors per key pair. Cost: ns per call, medians of
 * alternating rounds (a shared, noisy machine). Run: `npm run bench` (or this file after a build).
 */
import { readFileSync } from 'node:fs';
import { Quaternion } from 'three';
import { importBvh, importGltf } from '../dist/index.js';
import { quat } from '../dist/kernel/index.js';

const asset = (file) => new URL(`../../shared/assets/${file}`, import.meta.url);

/** Consecutive rotation key pairs of a clip, as [a, b] Float64Array(4)s. */
function keyPairs(clip) {
  const pairs = [];
  for (let i = 0; i < clip.trackCount; i++) {
    if (clip.paths[i] !== 1 || clip.interpolations[i] !== 1) continue;
    const v = clip.valueOffsets[i];
    for (let k = 0; k + 1 < clip.keyCounts[i]; k++) {
      pairs.push([
        clip.values.slice(v + 4 * k, v + 4 * k + 4),
        clip.values.slice(v + 4 * k + 4, v + 4 * k + 8),
      ]);
    }
  }
  return pairs;
}

function exactSlerp(a, b, t) {
  let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const s = d < 0 ? -1 : 1;
  d = Math.min(1, Math.abs(d));
  const theta = Math.acos(d);
  if (theta < 1e-12) return normalize([0, 1, 2, 3].map((c) => a[c] * (1 - t) + s * b[c] * t));
  const w0 = Math.sin((1 - t) * theta) / Math.sin(theta);
  const w1 = (s * Math.sin(t * theta)) / Math.sin(theta);
  return normalize([0, 1, 2, 3].map((c) => a[c] * w0 + b[c] * w1));
}

function normalize(q) {
  const l = Math.hypot(...q);
  return q.map((x) => x / l);
}

/**
 * Rotation angle between two unit quaternions, from the chord |p ∓ q| (acos of a dot product near
 * 1 would lose half the digits).
 */
function angle(p, q) {
  const s = p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3] < 0 ? -1 : 1;
  const chord = Math.hypot(p[0] - s * q[0], p[1] - s * q[1], p[2] - s * q[2], p[3] - s * q[3]);
  return 4 * Math.asin(Math.min(1, chord / 2));
}

const methods = {
  'tendon slerp (trig-free)': (out, a, b, t) => quat.slerp(out, 0, a, 0, b, 0, t),
  nlerp: (out, a, b, t) => quat.nlerp(out, 0, a, 0, b, 0, t),
  'three.js slerpFlat': (out, a, b, t) => Quaternion.slerpFlat(out, 0, a, 0, b, 0, t),
};

async function loadPairs() {
  const sets = [];
  const robot = await importGltf(readFileSync(asset('gltf/RobotExpressive.glb')));
  sets.push(['RobotExpressive (24 fps)', robot.skeletons[0].clips.flatMap(keyPairs)]);
  const fox = await importGltf(readFileSync(asset('gltf/Fox.glb')));
  sets.push(['Fox', fox.skeletons[0].clips.flatMap(keyPairs)]);
  const walk = importBvh(readFileSync(asset('bvh/cmu_02_01_walk.bvh'), 'utf8'));
  sets.push(['CMU 02_01 walk (120 Hz)', keyPairs(walk.clip)]);
  return sets;
}

function accuracy(pairs) {
  const out = new Float64Array(4);
  const worst = {};
  for (const name of Object.keys(methods)) worst[name] = 0;
  for (const [a, b] of pairs) {
    for (let i = 1; i < 10; i++) {
      const t = i / 10;
      const exact = exactSlerp(a, b, t);
      for (const [name, f] of Object.entries(methods)) {
        f(out, a, b, t);
        worst[name] = Math.max(worst[name], angle(out, exact));
      }
    }
  }
  return worst;
}

function cost(pairs) {
  const out = new Float64Array(4);
  const n = pairs.length;
  const medians = {};
  const rounds = {};
  for (const name of Object.keys(methods)) rounds[name] = [];
  const calls = 400_000;
  for (let round = 0; round < 7; round++) {
    for (const [name, f] of Object.entries(methods)) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < calls; i++) {
        const pair = pairs[i % n];
        f(out, pair[0], pair[1], (i & 15) / 16);
      }
      rounds[name].push(Number(process.hrtime.bigint() - start) / calls);
    }
  }
  for (const [name, values] of Object.entries(rounds)) {
    values.sort((x, y) => x - y);
    medians[name] = values[values.length >> 1];
  }
  return medians;
}

const sets = await loadPairs();
console.log('Rotation interpolation between keys: max angle to exact slerp (rad), ns per call');
console.log(
  `${'key pairs'.padEnd(32)}| ${Object.keys(methods)
    .map((m) => m.padEnd(26))
    .join('| ')}`,
);
for (const [name, pairs] of sets) {
  const worst = accuracy(pairs);
  console.log(
    `${`${name}, ${pairs.length}`.padEnd(32)}| ${Object.keys(methods)
      .map((m) => worst[m].toExponential(1).padEnd(26))
      .join('| ')}`,
  );
}
const all = sets.flatMap(([, pairs]) => pairs);
const ns = cost(all);
console.log(
  `${'ns per call (all pairs)'.padEnd(32)}| ${Object.keys(methods)
    .map((m) => ns[m].toFixed(1).padEnd(26))
    .join('| ')}`,
);
