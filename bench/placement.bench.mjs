/**
 * Cost of placing a character per frame, next to the cost of posing it, in one process.
 *
 * Posing: sampleClip + forwardKinematics + every skin's palette (what a game pays anyway).
 * Placement: contacts from the clip's track, two rays per foot into the ground (under the foot and
 * where it will land), the pelvis, two legs by two-bone IK with the feet turned to the ground, and
 * the head looking at a point (LookAt over torso, neck and head). Grounds: a heightfield of bumps
 * and the same terrain as a triangle mesh (its bounding volume hierarchy answering the rays).
 *
 * The robot (RobotExpressive, Walking) walks at its clip's ground speed over the terrain. Rounds of
 * posing and placement alternate and medians are taken, so the ratio holds on a noisy machine.
 * Allocation: heap growth over up to 100,000 frames of placement, GC-checked (see harness.mjs).
 *
 * Run: npm run bench, or `node --expose-gc bench/placement.bench.mjs` after `npm run build`.
 */
import { readFileSync } from 'node:fs';
import {
  computeContacts,
  createModelBuffer,
  FootPlacement,
  findRig,
  forwardKinematics,
  HeightfieldGround,
  importGltf,
  LookAt,
  MeshGround,
  Pose,
  SamplerContext,
  sampleClip,
} from '../dist/index.js';
import { environment, measureAllocation, median, runWithV8Flags } from './harness.mjs';

const DT = 1 / 60;
const ROUNDS = 9;
const ROUND_FRAMES = 20_000;
const SCALE = 0.5;

/** Bumps 10 cm high, 2 m apart, from a table of sines (no Math.sin in what reaches a pose). */
function terrain() {
  const columns = 161;
  const rows = 41;
  const cell = 0.25;
  const table = [0, 0.0707, 0.1, 0.0707, 0, -0.0707, -0.1, -0.0707];
  const heights = new Float64Array(columns * rows);
  for (let j = 0; j < rows; j++)
    for (let i = 0; i < columns; i++)
      heights[j * columns + i] = table[j % 8] * 0.5 + table[(i + j) % 8] * 0.5;
  const options = { originX: -5, originZ: -20, cellSize: cell, columns, rows, heights };
  const positions = [];
  const indices = [];
  for (let j = 0; j < rows; j++)
    for (let i = 0; i < columns; i++) positions.push(-5 + i * cell, heights[j * columns + i], -20 + j * cell);
  for (let j = 0; j + 1 < rows; j++) {
    for (let i = 0; i + 1 < columns; i++) {
      const a = j * columns + i;
      indices.push(a, a + columns, a + 1, a + 1, a + columns, a + columns + 1);
    }
  }
  return { heightfield: new HeightfieldGround(options), mesh: new MeshGround(positions, indices) };
}

async function setup(ground) {
  const file = new URL('../examples/assets/RobotExpressive.glb', import.meta.url);
  const imported = await importGltf(readFileSync(file), { source: 'RobotExpressive.glb' });
  const { skeleton, skins, clips } = imported.skeletons[0];
  const clip = clips.find((c) => c.name === 'Walking');
  const rig = findRig(skeleton);
  const track = computeContacts(clip, rig.legs);
  const placement = new FootPlacement(skeleton, rig, { ground });
  placement.setContactTrack(track);
  const look = new LookAt(skeleton, rig);
  const pose = new Pose(skeleton);
  const model = createModelBuffer(skeleton);
  const context = new SamplerContext(clip);
  const palettes = skins.map((s) => s.createPalette());
  const world = new Float64Array([SCALE, 0, 0, 0, 0, SCALE, 0, 0, 0, 0, SCALE, 0, 0, 0, -18, 1]);
  const speed = -track.groundVelocity[2] * SCALE;
  const target = new Float64Array([1, 1.5, 0]);
  // Numbers that change every frame live in typed arrays: a double in a closure or an object
  // field may be re-boxed on each write.
  const clock = new Float64Array(1);
  const poseFrame = () => {
    clock[0] += DT;
    sampleClip(clip, context, clock[0], pose);
    forwardKinematics(pose, model);
    for (let i = 0; i < skins.length; i++) skins[i].computePalette(model, palettes[i]);
  };
  const feetFrame = () => {
    world[14] += speed * DT;
    if (world[14] > 18) world[14] -= 36;
    world[13] = 0;
    target[2] = world[14] + 2;
    placement.solve(pose, model, world, DT, clock[0]);
  };
  const placeFrame = () => {
    feetFrame();
    look.solve(pose, model, target, world, DT);
  };
  return { poseFrame, feetFrame, placeFrame };
}

function time(frame, frames) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < frames; i++) frame();
  return Number(process.hrtime.bigint() - start) / frames;
}

async function main() {
  const grounds = terrain();
  console.log('Placement per character frame vs posing it (RobotExpressive Walking, 60 Hz)');
  console.log(`  ${environment().cpu}, ${environment().node}`);
  const results = [];
  for (const [name, ground] of Object.entries(grounds)) {
    const { poseFrame, feetFrame, placeFrame } = await setup(ground);
    const both = () => {
      poseFrame();
      placeFrame();
    };
    const feetOnly = () => {
      poseFrame();
      feetFrame();
    };
    // Warm up both paths.
    time(both, 20_000);
    time(feetOnly, 20_000);
    const posing = [];
    const placing = [];
    const feet = [];
    for (let r = 0; r < ROUNDS; r++) {
      const p = time(poseFrame, ROUND_FRAMES);
      posing.push(p);
      // Placement needs a fresh pose each frame: time pose + place, less the pose alone; the
      // feet alone (no look-at) the same way.
      const all = time(both, ROUND_FRAMES);
      const f = time(feetOnly, ROUND_FRAMES);
      placing.push(all - p);
      feet.push(f - p);
    }
    const pose = median(posing);
    const place = median(placing);
    const feetNs = median(feet);
    const allocation = await measureAllocation(
      (count) => {
        for (let i = 0; i < count; i++) both();
      },
      [100_000, 10_000, 1_000],
    );
    results.push({
      ground: name,
      poseNs: pose,
      placeNs: place,
      ratio: place / pose,
      feetNs,
      feetRatio: feetNs / pose,
      lookRatio: (place - feetNs) / pose,
      bytesPerFrame: allocation.bytesPerCall,
    });
    console.log(
      `  ${name.padEnd(12)} pose ${(pose / 1000).toFixed(2)} µs   placement ${(place / 1000).toFixed(2)} µs   ratio ${(place / pose).toFixed(2)}× (target ≤ 1×)   ${allocation.bytesPerCall.toFixed(1)} B/frame${allocation.lowerBound ? ' (lower bound)' : ''}`,
    );
    console.log(
      `  ${''.padEnd(12)} of which feet ${(feetNs / 1000).toFixed(2)} µs (${(feetNs / pose).toFixed(2)}×), look-at ${((place - feetNs) / 1000).toFixed(2)} µs (${((place - feetNs) / pose).toFixed(2)}×)`,
    );
  }
  return results;
}

await runWithV8Flags(import.meta.url, main);
