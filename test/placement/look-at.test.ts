/**
 * LookAt on the robot: the head's forward turns to a point (shared with the neck and torso by
 * shares), stays upright, eases in and out, and keeps within its cone.
 */
import { describe, expect, it } from 'vitest';
import { LookAt } from '../../src/placement/look-at.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { findRig } from '../../src/rig/find-rig.js';
import { robot } from './characters.js';

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** The head's forward (the rest pose's +Z carried by its rotation) in model space, normalized. */
function headForward(model: Float64Array, rest: Float64Array, head: number): number[] {
  // Forward in the head's frame is its rest rotation's inverse applied to +Z; carried to model
  // space by its current matrix: equivalently the current matrix times (rest matrix⁻¹ · +Z).
  const r = rest.subarray(16 * head, 16 * head + 16);
  const m = model.subarray(16 * head, 16 * head + 16);
  // Rest columns are orthogonal with equal lengths: the inverse's 3x3 is the transpose over length².
  const len2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  const local = [r[2] / len2, r[6] / len2, r[10] / len2];
  const f = [0, 1, 2].map((k) => m[k] * local[0] + m[4 + k] * local[1] + m[8 + k] * local[2]);
  const l = Math.hypot(f[0], f[1], f[2]);
  return f.map((x) => x / l);
}

describe('LookAt', () => {
  it("turns the robot's head to a point in front, sharing the turn with neck and torso", async () => {
    const { skeleton } = await robot();
    const rig = findRig(skeleton);
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    forwardKinematics(pose, model);
    const rest = model.slice();
    const look = new LookAt(skeleton, rig, { smoothTime: 0 });
    expect(look.joints.map((j) => skeleton.names[j])).toEqual(['Torso', 'Neck', 'Head']);
    const head = rig.head;
    const eye = model.subarray(16 * head + 12, 16 * head + 15).slice();
    const target = [eye[0] + 1.2, eye[1] + 0.4, eye[2] + 2];
    look.solve(pose, model, target, IDENTITY, 1 / 60);
    const f = headForward(model, rest, head);
    const p = model.subarray(16 * head + 12, 16 * head + 15);
    const d = [target[0] - p[0], target[1] - p[1], target[2] - p[2]];
    const dl = Math.hypot(d[0], d[1], d[2]);
    const cos = (f[0] * d[0] + f[1] * d[1] + f[2] * d[2]) / dl;
    expect(cos).toBeGreaterThan(0.9999);
    // The neck and torso took part of the turn.
    for (const name of ['Torso', 'Neck']) {
      const j = skeleton.jointIndex(name);
      expect(Math.abs(pose.rotations[4 * j + 3] - skeleton.restRotations[4 * j + 3])).toBeGreaterThan(1e-4);
    }
  });

  it('holds within the cone for a point behind, and eases out to the animation', async () => {
    const { skeleton } = await robot();
    const rig = findRig(skeleton);
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    const look = new LookAt(skeleton, rig, { coneAngle: 0.5 });
    forwardKinematics(pose, model);
    look.solve(pose, model, [0, 3, -5], IDENTITY, 1 / 60);
    for (const solver of look.solvers) expect(solver.status.clamped).toBe(true);
    look.setWeight(0, 0.2);
    for (let f = 0; f < 13; f++) {
      pose.resetToRest();
      forwardKinematics(pose, model);
      look.solve(pose, model, [0, 3, 5], IDENTITY, 1 / 60);
    }
    expect(look.weight).toBe(0);
    expect(pose.rotations).toEqual(skeleton.restRotations);
  });
});
