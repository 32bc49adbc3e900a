/**
 * Cost of placing a character per frame, next to the cost of posing it, in one process.
 *
 * Posing: resetToRest + sampleClipClock (sampleClip at a time held in an array) + forwardKinematics + every skin's palette (what a game pays anyway).
 * Placement: contacts from the clip's track, two rays per foot into the ground (under the foot and
 * where it will land), the pelvis, two legs by two-bone IK with the feet turned to the ground, and
 * the head looking at a point (LookAt over torso, neck and head). Grounds: a heightfield of bumps
 * and the same terrain as a triangle mesh (its bounding volume hierarchy answering the rays).
 *
 * The robot (RobotExpressive, Walking) walks at its clip's ground speed over the terrain
 * (bench/terrain.mjs), on it in every frame. Rounds of
 * posing and placement alternate and medians are taken, so the ratio holds on a noisy machine.
 * Allocation: heap growth over up to 100,000 frames of placement, GC-checked (see harness.mjs);
 * also for a motion capture (CMU 02_01, a BVH whose legs end in toes) and a four-legged rig (the
 * Fox, ../shared/assets), whose feet take paths the robot's do not (toes, digitigrade paws, the
 * knee guard), walking the heightfield after 40,000 frames of warm-up.
 *
 * Run: npm run bench, or `node --expose-gc bench/placement.bench.mjs` after `npm run build`.
 */
import { readFileSync } from 'node:fs';
import {
  BarHang,
  computeContacts,
  createModelBuffer,
  FootPlacement,
  findRig,
  forwardKinematics,
  importBvh,
  importGltf,
  LadderClimb,
  LEG_REPORT,
  LookAt,
  Pose,
  RungRetarget,
  SamplerContext,
  sampleClipClock,
} from '../dist/index.js';
import { environment, measureAllocation, median, runWithV8Flags } from './harness.mjs';
import { bumps, WALK_Z } from './terrain.mjs';

const DT = 1 / 60;
const ROUNDS = 9;
const ROUND_FRAMES = 20_000;
const SCALE = 0.5;

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
  const world = new Float64Array([SCALE, 0, 0, 0, 0, SCALE, 0, 0, 0, 0, SCALE, 0, 0, 0, -WALK_Z, 1]);
  const speed = -track.groundVelocity[2] * SCALE;
  const target = new Float64Array([1, 1.5, 0]);
  // Numbers that change every frame live in typed arrays: a double in a closure or an object
  // field may be re-boxed on each write.
  // The sampler's own clock (sampleClipClock): compiled a second time for the second ground,
  // this loop did not inline sampleClip, and the time it passed was boxed (16 B a frame on the
  // mesh in every run until 26 November, night).
  const clock = context.clock;
  const poseFrame = () => {
    clock[0] += DT;
    // From rest: Walking has no channel for the torso, which the look turns (a pose not reset
    // kept last frame's turn there, and the look puts it back first: docs/placement.md).
    pose.resetToRest();
    sampleClipClock(clip, context, pose);
    forwardKinematics(pose, model);
    for (let i = 0; i < skins.length; i++) skins[i].computePalette(model, palettes[i]);
  };
  const feetFrame = () => {
    world[14] += speed * DT;
    if (world[14] > WALK_Z) world[14] -= 2 * WALK_Z;
    world[13] = 0;
    target[2] = world[14] + 2;
    // The clock and solveClock, not solve(…, DT, clock[0]), for the same reason.
    placement.clock[0] = DT;
    placement.clock[1] = clock[0];
    placement.solveClock(pose, model, world);
  };
  const placeFrame = () => {
    feetFrame();
    look.solve(pose, model, target, world, DT);
  };
  /** The share of `frames` frames in which every leg is placed (its weight above 0). */
  const placedShare = (frames) => {
    let placed = 0;
    for (let f = 0; f < frames; f++) {
      poseFrame();
      placeFrame();
      let all = true;
      for (let l = 0; l < rig.legs.length; l++)
        all &&= placement.report[LEG_REPORT.length * l + LEG_REPORT.weight] > 0;
      if (all) placed++;
    }
    return placed / frames;
  };
  return { poseFrame, feetFrame, placeFrame, placedShare };
}

function time(frame, frames) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < frames; i++) frame();
  return Number(process.hrtime.bigint() - start) / frames;
}

/**
 * A clip walking the heightfield with its feet placed (no posing timed): one frame a call. The
 * world moves the character against its feet's ground velocity (an in-place clip) and wraps it
 * within the terrain.
 */
function walker(skeleton, clip, scale, ground) {
  const rig = findRig(skeleton);
  const track = computeContacts(clip, rig.legs, { loop: true });
  const placement = new FootPlacement(skeleton, rig, { ground });
  placement.setContactTrack(track);
  const pose = new Pose(skeleton);
  const model = createModelBuffer(skeleton);
  const context = new SamplerContext(clip);
  const world = new Float64Array([scale, 0, 0, 0, 0, scale, 0, 0, 0, 0, scale, 0, 0, 0, 0, 1]);
  const speed = -track.groundVelocity[2] * scale;
  const clock = context.clock;
  return () => {
    clock[0] += DT;
    if (clock[0] >= clip.duration) clock[0] -= clip.duration;
    world[14] += speed * DT;
    if (world[14] > WALK_Z) world[14] -= 2 * WALK_Z;
    sampleClipClock(clip, context, pose);
    forwardKinematics(pose, model);
    placement.clock[0] = DT;
    placement.clock[1] = clock[0];
    placement.solveClock(pose, model, world);
  };
}

/** Bytes per frame of the other rigs' placement (the robot's are measured with its timing). */
async function otherRigs(ground) {
  const asset = (file) => new URL(`../../shared/assets/${file}`, import.meta.url);
  const cmu = importBvh(
    readFileSync(new URL('../examples/assets/cmu_02_01_walk.bvh', import.meta.url), 'utf8'),
  );
  const fox = (await importGltf(readFileSync(asset('gltf/Fox.glb')), { source: 'Fox.glb' })).skeletons[0];
  const rigs = [
    ['CMU 02_01', walker(cmu.skeleton, cmu.clip, 0.0254 / 0.45, ground)],
    [
      'Fox Walk',
      walker(
        fox.skeleton,
        fox.clips.find((c) => c.name === 'Walk'),
        0.01,
        ground,
      ),
    ],
  ];
  rigs.push(['BarHang', await hanger(), 'the robot hanging, swinging, moving hand over hand']);
  rigs.push(...(await climbers()));
  const results = [];
  for (const [name, frame, what = 'placement on the heightfield'] of rigs) {
    for (let i = 0; i < 40_000; i++) frame();
    const allocation = await measureAllocation(
      (count) => {
        for (let i = 0; i < count; i++) frame();
      },
      [100_000, 10_000, 1_000],
    );
    results.push({ rig: name, bytesPerFrame: allocation.bytesPerCall });
    console.log(
      `  ${name.padEnd(12)} ${what}: ${allocation.bytesPerCall.toFixed(1)} B/frame${allocation.lowerBound ? ' (lower bound)' : ''}`,
    );
  }
  return results;
}

/** The robot's skeleton and its Idle clip, read once for the bar hang and the climb. */
let idleRobotRead = null;
function idleRobot() {
  idleRobotRead ??= (async () => {
    const file = new URL('../examples/assets/RobotExpressive.glb', import.meta.url);
    const { skeleton, clips } = (await importGltf(readFileSync(file), { source: 'RobotExpressive.glb' }))
      .skeletons[0];
    return { skeleton, idle: clips.find((c) => c.name === 'Idle') };
  })();
  return idleRobotRead;
}

/**
 * The robot hanging from a bar over its idle clip (BarHang: swinging, pushed every 100 frames,
 * moving hand over hand and stopping): one frame a call, every number through an array.
 */
async function hanger() {
  const { skeleton, idle } = await idleRobot();
  const hang = new BarHang(skeleton, findRig(skeleton), {
    from: [-2, 2.4, 0],
    to: [2, 2.4, 0],
    scale: SCALE,
  });
  const pose = new Pose(skeleton);
  const model = createModelBuffer(skeleton);
  const context = new SamplerContext(idle);
  const count = new Int32Array(1);
  return () => {
    const i = count[0]++;
    context.clock[0] = (i % 120) / 60;
    pose.resetToRest();
    sampleClipClock(idle, context, pose);
    forwardKinematics(pose, model);
    if (i % 100 === 0) hang.pushBody(0, 0, 5);
    if (i % 1000 === 700) hang.setWeight(0.5, 0.25);
    if (i % 1000 === 850) hang.setWeight(1, 0.25);
    hang.clock[0] = DT;
    hang.clock[1] = i % 1000 < 500 ? 0.01 : i % 1000 < 600 ? 0 : -0.01;
    hang.updateClock(pose, model);
  };
}

/**
 * The robot climbing a ladder over its idle clip (LadderClimb: from the ground to rung 6 and back
 * down, every ~900 frames, the delta a computed number), and CMU 01_03's ladder climb retargeted
 * to other rungs (RungRetarget): one frame a call, every number through an array.
 */
async function climbers() {
  const { skeleton, idle } = await idleRobot();
  const climb = new LadderClimb(skeleton, findRig(skeleton), {
    ladder: { bottom: [0, 0, 0], facing: [0, 1], rungCount: 10, spacing: 0.3 },
    scale: SCALE,
  });
  const pose = new Pose(skeleton);
  const model = createModelBuffer(skeleton);
  const context = new SamplerContext(idle);
  const count = new Int32Array(1);
  const ladder = () => {
    const i = count[0]++;
    context.clock[0] = (i % 120) / 60;
    pose.resetToRest();
    sampleClipClock(idle, context, pose);
    forwardKinematics(pose, model);
    // Eased half out and back in once a climb each way (setWeight: a call now and then).
    if (i % 450 === 200) climb.setWeight(0.5, 0.25);
    if (i % 450 === 300) climb.setWeight(1, 0.25);
    climb.clock[0] = ((i % 900 < 450 ? 1.2 : -1.2) * (1 + (i % 3) / 1000)) / 60;
    climb.clock[1] = DT;
    climb.updateClock(pose, model);
  };
  const bvh = importBvh(
    readFileSync(new URL('../../shared/assets/bvh/cmu_01_03_climb_ladder_hang.bvh', import.meta.url), 'utf8'),
  );
  const retarget = new RungRetarget(bvh.clip, findRig(bvh.skeleton), {
    capturedFirstRung: 4.4,
    capturedSpacing: 4.4,
    firstRung: 4,
    spacing: 4,
  });
  const cPose = new Pose(bvh.skeleton);
  const cModel = createModelBuffer(bvh.skeleton);
  const cContext = new SamplerContext(bvh.clip);
  const cCount = new Int32Array(1);
  const rungs = () => {
    const i = cCount[0]++;
    // Eased out part way and back in every 7.5 s, as the climb is.
    if (i % 450 === 200) retarget.setWeight(0.5, 0.25);
    if (i % 450 === 300) retarget.setWeight(1, 0.25);
    cContext.clock[0] = (i / 60) % bvh.clip.duration;
    sampleClipClock(bvh.clip, cContext, cPose);
    forwardKinematics(cPose, cModel);
    retarget.clock[0] = cContext.clock[0];
    retarget.clock[1] = DT;
    retarget.applyClock(cPose, cModel);
  };
  return [
    ['LadderClimb', ladder, 'the robot up a ladder and down'],
    ['RungRetarget', rungs, 'CMU 01_03 moved onto other rungs'],
  ];
}

async function main() {
  const grounds = bumps();
  console.log('Placement per character frame vs posing it (RobotExpressive Walking, 60 Hz)');
  console.log(`  ${environment().cpu}, ${environment().node}`);
  const results = [];
  for (const [name, ground] of Object.entries(grounds)) {
    const { poseFrame, feetFrame, placeFrame, placedShare } = await setup(ground);
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
    // One loop of the walk over the terrain (36 m at ~2 m/s), after the timing.
    const placed = placedShare(1100);
    results.push({
      ground: name,
      placedShare: placed,
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
      `  ${''.padEnd(12)} of which feet ${(feetNs / 1000).toFixed(2)} µs (${(feetNs / pose).toFixed(2)}×), look-at ${((place - feetNs) / 1000).toFixed(2)} µs (${((place - feetNs) / pose).toFixed(2)}×); both feet placed in ${(100 * placed).toFixed(1)}% of frames`,
    );
  }
  console.log('Allocation of placement on other rigs, a bar hang and climbs (after warm-up)');
  const others = await otherRigs(grounds.heightfield);
  return { robot: results, others };
}

await runWithV8Flags(import.meta.url, main);
