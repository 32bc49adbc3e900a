/**
 * The workload of the cross-engine determinism test: seeded two-bone, aim, FABRIK and CCD solves
 * (with joint limits), trig-free slerp sampling and forward kinematics, with every resulting number written out as its IEEE-754 bits.
 * It is bundled and run both in V8 (Node) and in QuickJS; the two strings must be equal.
 */
import { Clip } from '../../src/animation/clip.js';
import { AimIk } from '../../src/ik/aim.js';
import { CcdIk } from '../../src/ik/ccd.js';
import { FabrikIk } from '../../src/ik/fabrik.js';
import type { JointLimit } from '../../src/ik/joint-limits.js';
import { TwoBoneIk } from '../../src/ik/two-bone.js';
import { sampleTracks } from '../../src/kernel/keyframes.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';

function bits(values: Float64Array, out: string[]): void {
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  let hex = '';
  for (let i = 0; i < bytes.length; i++) hex += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
  out.push(hex);
}

/** Runs the workload; returns the bits of every pose and matrix it produced. */
export function run(solves: number): string {
  const skeleton = Skeleton.create({
    names: ['pelvis', 'hip', 'knee', 'ankle'],
    parents: [-1, 0, 1, 2],
    restTranslations: [0, 1, 0, 0.1, -0.05, 0, 0, -0.45, 0.03, 0, -0.42, -0.03],
    restRotations: [0.1, 0.2, 0, 0.9746794344808963, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1],
    restScales: [0.7, 0.7, 0.7, 1, 1, 1, 1, 1, 1, 1, 1, 1],
  });
  const pose = new Pose(skeleton);
  const model = createModelBuffer(skeleton);
  const out: string[] = [];
  const hinge = new TwoBoneIk(skeleton, { root: 'hip', middle: 'knee', end: 'ankle' });
  const least = new TwoBoneIk(skeleton, {
    root: 'hip',
    middle: 'knee',
    end: 'ankle',
    mode: 'least-motion',
    softness: 0.05,
  });
  const target = new Float64Array(3);
  const pole = new Float64Array(3);
  // A linear congruential generator: integer arithmetic, identical everywhere.
  let seed = 12345;
  const next = (): number => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  for (let i = 0; i < solves; i++) {
    pose.resetToRest();
    forwardKinematics(pose, model);
    target[0] = next() - 0.4;
    target[1] = next() * 1.2;
    target[2] = next() - 0.5;
    pole[0] = next();
    pole[1] = 1;
    pole[2] = next() + 0.5;
    (i % 2 === 0 ? hinge : least).solve(pose, model, target, i % 3 === 0 ? pole : null);
    bits(pose.rotations, out);
    bits(model, out);
  }
  // The options as users give them, in radians with no exact cosine (a bend range, a twist, a
  // cone, a hinge range): tendon's own cosines and sines make the set-up agree on every engine.
  const ranged = new TwoBoneIk(skeleton, {
    root: 'hip',
    middle: 'knee',
    end: 'ankle',
    bendRange: [0.1, 2.5],
    twist: 0.3,
    softness: 0.07,
  });
  for (let i = 0; i < solves; i++) {
    pose.resetToRest();
    forwardKinematics(pose, model);
    target[0] = next() - 0.4;
    target[1] = next() * 1.2;
    target[2] = next() - 0.5;
    ranged.twist = next() * 6 - 3;
    ranged.solve(pose, model, target, i % 2 === 0 ? pole : null);
    bits(pose.rotations, out);
  }
  // A five-joint chain below a rotated, scaled base: limits at exact angles, and in radians.
  const chain = Skeleton.create({
    names: ['base', 'c0', 'c1', 'c2', 'c3', 'c4', 'tip'],
    parents: [-1, 0, 1, 2, 3, 4, 5],
    restTranslations: [0, 1, 0, 0.1, 0.2, 0, 0, 0.5, 0, 0, 0.4, 0, 0, 0.3, 0, 0, 0.2, 0, 0, 0.1, 0],
    restRotations: [
      0.1, 0.2, 0, 0.9746794344808963, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1,
    ],
    restScales: [0.7, 0.7, 0.7, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
  });
  const limits: (JointLimit | null)[] = [
    null,
    { kind: 'hinge', axis: [1, 0, 0], min: 0, max: Math.PI },
    { kind: 'cone', angle: Math.PI, twistMin: -Math.PI, twistMax: 0 },
    null,
    null,
  ];
  const joints = ['c0', 'c1', 'c2', 'c3', 'c4'];
  const fabrik = new FabrikIk(chain, { joints, limits, maxIterations: 30 });
  const ccd = new CcdIk(chain, { joints, limits, maxIterations: 30 });
  // Without limits FABRIK runs positional passes and extrapolates them: that path too.
  const free = new FabrikIk(chain, { joints, maxIterations: 30 });
  const aim = new AimIk(chain, { joint: 'c3', up: [0, 0, 1] });
  const coned = new AimIk(chain, {
    joint: 'c2',
    up: [0, 0, 1],
    coneAngle: 0.7,
    twistMin: -0.4,
    twistMax: 0.9,
  });
  const radians: (JointLimit | null)[] = [
    null,
    { kind: 'hinge', axis: [1, 0, 0], min: 0.1, max: 2.3 },
    { kind: 'cone', angle: 0.7, twistMin: -0.5, twistMax: 0.6 },
    null,
    null,
  ];
  const limited = new FabrikIk(chain, { joints, limits: radians, maxIterations: 30 });
  const chainPose = new Pose(chain);
  const chainModel = createModelBuffer(chain);
  const up = new Float64Array([0, 0, 1]);
  for (let i = 0; i < solves / 3; i++) {
    chainPose.resetToRest();
    forwardKinematics(chainPose, chainModel);
    target[0] = next() - 0.5;
    target[1] = next() * 1.5 + 0.5;
    target[2] = next() - 0.5;
    (i % 3 === 0 ? fabrik : i % 3 === 1 ? ccd : free).solve(chainPose, chainModel, target);
    aim.solve(chainPose, chainModel, target, up);
    bits(chainPose.rotations, out);
    chainPose.resetToRest();
    forwardKinematics(chainPose, chainModel);
    limited.solve(chainPose, chainModel, target);
    coned.solve(chainPose, chainModel, target, up);
    bits(chainPose.rotations, out);
    bits(chainModel, out);
  }
  const clip = Clip.create(skeleton, {
    tracks: [
      {
        joint: 2,
        path: 'rotation',
        times: [0, 1, 2],
        values: [0, 0, 0, 1, 0.6, 0, 0, 0.8, 0, 0.28, 0.96, 0],
      },
    ],
  });
  const cursors = new Int32Array(1);
  for (let i = 0; i < 200; i++) {
    sampleTracks(clip, cursors, i / 99, pose.translations, pose.rotations, pose.scales);
    forwardKinematics(pose, model);
    bits(pose.rotations, out);
    bits(model, out);
  }
  return out.join('');
}
