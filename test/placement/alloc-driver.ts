/**
 * Bytes a frame of a climb or a retarget once V8 has compiled them, run in a child process of its
 * own (test/helpers/steady-allocation.ts): `node --expose-gc driver.mjs <ladder|rung> <assetsDir>`
 * prints, per window of 2,000 frames after 30,000 warm ones, the young generation's growth over
 * the window divided by its frames. The young generation is made large enough that no scavenge falls inside a
 * window. The argument each frame passes is computed, not a constant: a caller's double, as a game
 * loop passes it.
 */
import { readFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import { importBvh } from '../../src/io/bvh.js';
import { importGltf } from '../../src/io/gltf.js';
import { LadderClimb } from '../../src/placement/ladder-climb.js';
import { RungRetarget } from '../../src/placement/rung-retarget.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { findRig } from '../../src/rig/find-rig.js';

declare const gc: () => void;

async function frames(which: string, assets: string): Promise<(i: number) => void> {
  if (which === 'ladder') {
    const { skeleton, clips } = (await importGltf(readFileSync(`${assets}gltf/RobotExpressive.glb`)))
      .skeletons[0];
    const idle = clips.find((c) => c.name === 'Idle');
    if (idle === undefined) throw new Error('no Idle clip');
    const climb = new LadderClimb(skeleton, findRig(skeleton), {
      ladder: { bottom: [0, 0, 0], facing: [0, 1], rungCount: 10, spacing: 0.3 },
      scale: 0.5,
    });
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    const context = new SamplerContext(idle);
    // From the ground below to rung 6 and back, about every 900 frames: every limb at full weight.
    // (Past the top a hand lets go at a weight between 0 and 1, which the two-bone kernel solves by
    // its general path; parts of it, called that seldom, stay unoptimized and box their doubles:
    // the kernel's, not measured here.)
    return (i) => {
      sampleClip(idle, context, (i / 60) % idle.duration, pose);
      forwardKinematics(pose, model);
      climb.update(pose, model, ((i % 900 < 450 ? 1.2 : -1.2) * (1 + (i % 3) / 1000)) / 60);
    };
  }
  const { skeleton, clip } = importBvh(readFileSync(`${assets}bvh/cmu_01_03_climb_ladder_hang.bvh`, 'utf8'));
  const retarget = new RungRetarget(clip, findRig(skeleton), {
    capturedFirstRung: 4.4,
    capturedSpacing: 4.4,
    firstRung: 4,
    spacing: 4,
  });
  const pose = new Pose(skeleton);
  const model = createModelBuffer(skeleton);
  const context = new SamplerContext(clip);
  return (i) => {
    const t = (i / 60) % clip.duration;
    sampleClip(clip, context, t, pose);
    forwardKinematics(pose, model);
    retarget.apply(pose, model, t);
  };
}

const [which, assets] = process.argv.slice(2);
const frame = await frames(which, assets);
let i = 0;
for (; i < 30000; i++) frame(i);
// The young generation's growth: what a frame allocates lands there (the compiler's code and
// metadata, made on other threads for other reasons, land in the old spaces and are not counted).
const young = () =>
  getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_used_size ?? 0;
const windows: number[] = [];
for (let w = 0; w < 5; w++) {
  gc();
  const before = young();
  for (let k = 0; k < 2000; k++, i++) frame(i);
  windows.push((young() - before) / 2000);
}
console.log(JSON.stringify(windows));
