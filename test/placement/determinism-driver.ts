/**
 * The placement workload of the cross-engine determinism test: a synthetic walker placed over a
 * heightfield, a mesh and steps (feet, pelvis, locks, tilt, the joint-step limit, a landing moved
 * past a step's nose, look-at), a climb retargeted onto other rungs, then climbing a ladder and
 * hanging from a bar and from a ledge, every number of every pose written out as its IEEE-754 bits. Bundled and run in V8
 * and in QuickJS; the two strings must be equal.
 */
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import { BarHang } from '../../src/placement/bar-hang.js';
import { FootPlacement } from '../../src/placement/foot-placement.js';
import { HeightfieldGround } from '../../src/placement/heightfield-ground.js';
import { LadderClimb } from '../../src/placement/ladder-climb.js';
import { LookAt } from '../../src/placement/look-at.js';
import { MeshGround } from '../../src/placement/mesh-ground.js';
import { ProfileGround } from '../../src/placement/profile-ground.js';
import { RungRetarget } from '../../src/placement/rung-retarget.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { syntheticWalker, syntheticWalkerContacts } from './synthetic-walker.js';

function bits(values: Float64Array, out: string[]): void {
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  let hex = '';
  for (let i = 0; i < bytes.length; i++) hex += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
  out.push(hex);
}

/** Runs `frames` frames of each scene; returns the bits of every pose and model buffer. */
export function run(frames: number): string {
  const walker = syntheticWalker();
  const { skeleton, clip, rig } = walker;
  const table = [0, 0.07, 0.1, 0.07, 0, -0.07, -0.1, -0.07];
  const columns = 33;
  const rows = 17;
  const heights: number[] = [];
  const positions: number[] = [];
  const indices: number[] = [];
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < columns; i++) {
      const h = table[i % 8] * 0.7 + table[(i + 2 * j) % 8] * 0.3;
      heights.push(h);
      positions.push(-2 + 0.25 * i, h, -1 + 0.25 * j);
      if (i + 1 < columns && j + 1 < rows) {
        const a = j * columns + i;
        indices.push(a, a + columns, a + 1, a + 1, a + columns, a + columns + 1);
      }
    }
  }
  const grounds = [
    new HeightfieldGround({ originX: -2, originZ: -1, cellSize: 0.25, columns, rows, heights }),
    new MeshGround(positions, indices),
    // 15 cm steps down, laid where a foot lands just past a nose: a landing moved past it
    // (edgeClearance: the nose found by bisection, the move eased in).
    new ProfileGround(
      [1, 0],
      [-1e3, 0.45, -1.2, 0.45, -1.2, 0.3, -0.95, 0.3, -0.95, 0.15, -0.7, 0.15, -0.7, 0, 1e3, 0],
    ),
  ];
  const out: string[] = [];
  const pose = new Pose(skeleton);
  const model = createModelBuffer(skeleton);
  const context = new SamplerContext(clip);
  // Written-out contacts: locks, landings and the ground's speed take part.
  const track = syntheticWalkerContacts(walker);
  const world = new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -1.5, 0, 0.3, 1]);
  const target = new Float64Array([0.5, 1.5, 2]);
  for (const ground of grounds) {
    // On the mesh, the joint-step limit too (its half-angle cosine and sine, and its cuts).
    const maxTurnSpeed = ground instanceof MeshGround ? 3 : Number.POSITIVE_INFINITY;
    const placement = new FootPlacement(skeleton, rig, { ground, maxTurnSpeed });
    placement.setContactTrack(track);
    const look = new LookAt(skeleton, rig, { coneAngle: 0.7 });
    for (let f = 0; f < frames; f++) {
      const time = f / 60;
      if (f === frames >> 1) placement.setWeight(0, 0.2);
      if (f === (frames >> 1) + 20) placement.setWeight(1, 0.2);
      sampleClip(clip, context, time, pose);
      forwardKinematics(pose, model);
      world[12] = -1.5 + 0.9 * time;
      placement.solve(pose, model, world, 1 / 60, time);
      target[0] = 0.5 + 0.01 * f;
      look.solve(pose, model, target, world, 1 / 60);
      bits(pose.translations, out);
      bits(pose.rotations, out);
      bits(model, out);
    }
  }
  // The walk's hands, still beside the body, read as holds on a rung of a captured ladder (25 cm
  // apart): played on rungs 23 cm apart, the arms bend 6 cm lower, eased out part way and back.
  const retarget = new RungRetarget(clip, rig, {
    capturedFirstRung: 0.25,
    capturedSpacing: 0.25,
    firstRung: 0.23,
    spacing: 0.23,
  });
  for (let f = 0; f < frames; f++) {
    sampleClip(clip, context, f / 60, pose);
    forwardKinematics(pose, model);
    if (f === 3) retarget.setWeight(0.4, 0.05);
    if (f === 8) retarget.setWeight(1, 0.05);
    retarget.apply(pose, model, f / 60, 1 / 60);
    bits(pose.translations, out);
    bits(pose.rotations, out);
    bits(retarget.shifts, out);
  }
  const climb = new LadderClimb(skeleton, rig, {
    ladder: { bottom: [0, 0, 0], facing: [0, -1], rungCount: 6, spacing: 0.3 },
  });
  const hang = new BarHang(skeleton, rig, { from: [-1, 2.2, 0], to: [1, 2.2, 0] });
  // A ledge: stopped against its wall (at first, and pushed into it), then pushed away from it.
  const ledge = new BarHang(skeleton, rig, { from: [-1, 2.2, 0], to: [1, 2.2, 0], ledgeWall: 0.1 });
  for (let f = 0; f < frames; f++) {
    forwardKinematics(pose.resetToRest(), model);
    // Eased out and back in (smoothstep weights, limbs turned part of the way).
    if (f === 2) climb.setWeight(0.2, 0.05);
    if (f === 5) climb.setWeight(1, 0.05);
    climb.update(pose, model, 0.05, 1 / 60);
    bits(pose.rotations, out);
    bits(climb.world, out);
    forwardKinematics(pose.resetToRest(), model);
    if (f === 3) hang.pushBody(0, 0, 30);
    if (f === 2) hang.setWeight(0.3, 0.05);
    if (f === 6) hang.setWeight(1, 0.05);
    hang.update(pose, model, 1 / 60, 0.004);
    bits(pose.rotations, out);
    bits(hang.world, out);
    forwardKinematics(pose.resetToRest(), model);
    if (f === 1) ledge.pushBody(0, 0, -200);
    if (f === 3) ledge.pushBody(0, 0, 200);
    ledge.update(pose, model, 1 / 60);
    bits(pose.rotations, out);
    bits(ledge.world, out);
  }
  return out.join('\n');
}
