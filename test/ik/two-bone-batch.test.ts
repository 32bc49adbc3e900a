/**
 * TwoBoneBatch on the real robot (RobotExpressive: Blender IK legs whose foot is a separate bone,
 * so each leg ends at an endLocal point; float32 scale noise in its bones, for which TwoBoneIk
 * takes its second pass on over half of these legs): a crowd of walking robots, each at its own
 * time of the clip, its feet sent to seeded targets (down a step, up a kerb, out of reach), against
 * a TwoBoneIk per leg per robot, bit for bit (Object.is on every rotation and model matrix number:
 * the same kernel does the work).
 */
import { describe, expect, it } from 'vitest';
import type { Clip } from '../../src/animation/clip.js';
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import { TendonError } from '../../src/errors.js';
import { TwoBoneIk } from '../../src/ik/two-bone.js';
import { TwoBoneBatch, type TwoBoneBatchLimb } from '../../src/ik/two-bone-batch.js';
import { TWO_BONE } from '../../src/kernel/two-bone.js';
import { TWO_BONE_STATUS } from '../../src/kernel/two-bone-batch.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';
import { rng as random } from '../kernel/helpers.js';
import { robot } from '../placement/characters.js';

function expectSame(actual: Float64Array, wanted: Float64Array, what: string): void {
  expect(actual.length).toBe(wanted.length);
  for (let i = 0; i < actual.length; i++) {
    if (!Object.is(actual[i], wanted[i]))
      expect.fail(`${what}[${i}]: batch ${actual[i]}, per call ${wanted[i]}`);
  }
}

describe('TwoBoneBatch', () => {
  it('solves a crowd of walking robots’ legs to TwoBoneIk’s bits, frame after frame', async () => {
    const { skeleton, rig, clips } = await robot();
    const walk = clips.get('Walking') as Clip;
    const limbs: TwoBoneBatchLimb[] = rig.legs.map((leg) => ({
      root: leg.root,
      middle: leg.middle,
      endLocal: leg.endLocal as [number, number, number],
      pole: true,
    }));
    const count = 24;
    const J = skeleton.jointCount;
    const batch = new TwoBoneBatch(skeleton, limbs, count);
    const crowd = batch.createPoseBuffers();
    const poses = Array.from({ length: count }, () => new Pose(skeleton));
    const models = poses.map(() => createModelBuffer(skeleton));
    const contexts = poses.map(() => new SamplerContext(walk));
    // (The per-call solver takes the limb's options, not the batch's pole flag.)
    const solvers = poses.map(() =>
      limbs.map(({ root, middle, endLocal }) => new TwoBoneIk(skeleton, { root, middle, endLocal })),
    );
    const next = random(15);
    let reached = 0;
    let outOfReach = 0;
    for (let frame = 0; frame < 5; frame++) {
      for (let c = 0; c < count; c++) {
        // Each robot its own time of the walk.
        sampleClip(walk, contexts[c], (c * walk.duration) / count + frame / 30, poses[c]);
        forwardKinematics(poses[c], models[c]);
        crowd.translations.set(poses[c].translations, 3 * J * c);
        crowd.rotations.set(poses[c].rotations, 4 * J * c);
        crowd.scales.set(poses[c].scales, 3 * J * c);
        crowd.model.set(models[c], 16 * J * c);
        rig.legs.forEach((leg, l) => {
          const i = c * limbs.length + l;
          // The foot moved by up to 0.4 down or up and 0.3 sideways (the robot is 3 units tall): a
          // step, a kerb, and now and then out of reach.
          const f = 16 * leg.foot + 12;
          const target = [
            models[c][f] + 0.6 * (next() - 0.5),
            models[c][f + 1] + 0.8 * (next() - 0.5),
            models[c][f + 2] + 0.6 * (next() - 0.5),
          ];
          const p = 16 * leg.pole + 12;
          const pole = [models[c][p], models[c][p + 1], models[c][p + 2]];
          batch.targets.set(target, 3 * i);
          batch.poles.set(pole, 3 * i);
          const status = solvers[c][l].solve(poses[c], models[c], target, pole);
          if (status.reached) reached++;
          if (status.outOfReach) outOfReach++;
        });
      }
      expect(batch.solve(crowd)).toBe(0);
      for (let c = 0; c < count; c++) {
        expectSame(crowd.rotations.subarray(4 * J * c, 4 * J * (c + 1)), poses[c].rotations, 'rotations');
        expectSame(crowd.model.subarray(16 * J * c, 16 * J * (c + 1)), models[c], 'model');
        for (let l = 0; l < limbs.length; l++) {
          const i = c * limbs.length + l;
          const st = solvers[c][l].status;
          expect(Object.is(batch.errors[i], st.error)).toBe(true);
          const flags =
            (st.reached ? TWO_BONE_STATUS.reached : 0) |
            (st.outOfReach ? TWO_BONE_STATUS.outOfReach : 0) |
            (st.clamped ? TWO_BONE_STATUS.clamped : 0) |
            (st.degenerate ? TWO_BONE_STATUS.degenerate : 0);
          expect(batch.status[i]).toBe(flags);
          // Reached: within the default tolerance, 1e-6 of the leg's length (about 1.3 units).
          if (st.reached) expect(batch.errors[i]).toBeLessThan(2e-6);
        }
      }
    }
    // The seeded targets cover both outcomes.
    expect(reached).toBeGreaterThan(100);
    expect(outOfReach).toBeGreaterThan(5);
  });

  it('flags a leg with a NaN target and solves the others', async () => {
    const { skeleton, rig } = await robot();
    const limbs: TwoBoneBatchLimb[] = rig.legs.map((leg) => ({
      root: leg.root,
      middle: leg.middle,
      endLocal: leg.endLocal as [number, number, number],
    }));
    const batch = new TwoBoneBatch(skeleton, limbs, 3);
    const crowd = batch.createPoseBuffers();
    const before = crowd.rotations.slice();
    const J = skeleton.jointCount;
    for (let i = 0; i < batch.legCount; i++) {
      const hip = 16 * ((i >> 1) * J + rig.legs[i & 1].root) + 12;
      batch.targets.set(
        [crowd.model[hip] + 0.3, crowd.model[hip + 1] - 1, crowd.model[hip + 2] + 0.2],
        3 * i,
      );
    }
    batch.targets[3 * 3 + 1] = Number.NaN; // character 1, right leg
    expect(batch.solve(crowd)).toBe(1);
    expect(batch.status[3]).toBe(TWO_BONE_STATUS.invalid);
    expect(batch.errors[3]).toBeNaN();
    const right = rig.legs[1];
    for (const j of [right.root, right.middle]) {
      const o = 4 * (J + j);
      expectSame(crowd.rotations.subarray(o, o + 4), before.subarray(o, o + 4), 'untouched');
    }
    for (const i of [0, 1, 2, 4, 5]) {
      expect(batch.status[i] & TWO_BONE_STATUS.invalid).toBe(0);
      expect(batch.errors[i]).toBeLessThan(1e-6);
    }
  });

  it('flags a leg whose settings were edited out of range (weight, softness), writing nothing of it', async () => {
    const { skeleton, rig } = await robot();
    const limbs: TwoBoneBatchLimb[] = rig.legs.map((leg) => ({
      root: leg.root,
      middle: leg.middle,
      endLocal: leg.endLocal as [number, number, number],
    }));
    const J = skeleton.jointCount;
    for (const [key, bad] of [
      ['weight', 2],
      ['weight', -0.5],
      ['softness', 1],
      ['softness', -0.1],
    ] as const) {
      const batch = new TwoBoneBatch(skeleton, limbs, 2);
      const crowd = batch.createPoseBuffers();
      for (let i = 0; i < batch.legCount; i++) {
        const hip = 16 * ((i >> 1) * J + rig.legs[i & 1].root) + 12;
        batch.targets.set(
          [crowd.model[hip] + 0.3, crowd.model[hip + 1] - 1, crowd.model[hip + 2] + 0.2],
          3 * i,
        );
      }
      const before = crowd.rotations.slice();
      batch.settings[2][TWO_BONE[key]] = bad; // character 1, left leg
      expect(batch.solve(crowd), `${key} ${bad}`).toBe(1);
      expect(batch.status[2]).toBe(TWO_BONE_STATUS.invalid);
      const left = rig.legs[0];
      for (const j of [left.root, left.middle]) {
        const o = 4 * (J + j);
        expectSame(crowd.rotations.subarray(o, o + 4), before.subarray(o, o + 4), `${key} ${bad}`);
      }
      for (const i of [0, 1, 3]) expect(batch.errors[i]).toBeLessThan(1e-6);
    }
  });

  it('flags a leg whose twist bone holds a NaN or a zero rotation, writing nothing of it', () => {
    // Until 27 November the leg was flagged invalid after it had been written (45 model numbers,
    // 33 of them NaN; a hostile test).
    const skeleton = Skeleton.create({
      names: ['pelvis', 'hip', 'hipTwist', 'knee', 'ankle'],
      parents: [-1, 0, 1, 2, 3],
      restTranslations: [0, 1, 0, 0.1, 0, 0, 0, -0.2, 0, 0, -0.25, 0.05, 0, -0.4, -0.05],
    });
    const batch = new TwoBoneBatch(skeleton, [{ root: 1, middle: 3, end: 4 }], 3);
    const crowd = batch.createPoseBuffers();
    for (let i = 0; i < 3; i++) batch.targets.set([0.2, 0.4, 0.2], 3 * i);
    crowd.rotations.set([Number.NaN, 0, 0, 1], 4 * (5 + 2));
    crowd.rotations.set([0, 0, 0, 0], 4 * (10 + 2));
    const rotations = crowd.rotations.slice();
    const model = crowd.model.slice();
    expect(batch.solve(crowd)).toBe(2);
    expect(Array.from(batch.status)).toEqual([
      batch.status[0],
      TWO_BONE_STATUS.invalid,
      TWO_BONE_STATUS.invalid,
    ]);
    expect(batch.status[0] & TWO_BONE_STATUS.reached).toBe(TWO_BONE_STATUS.reached);
    expect(crowd.rotations.subarray(20)).toEqual(rotations.subarray(20));
    expect(crowd.model.subarray(80)).toEqual(model.subarray(80));
  });

  it('refuses buffers of another size and a bad count', async () => {
    const { skeleton, rig } = await robot();
    const limb = { root: rig.legs[0].root, middle: rig.legs[0].middle, endLocal: rig.legs[0].endLocal };
    const batch = new TwoBoneBatch(skeleton, [limb as TwoBoneBatchLimb], 2);
    const crowd = batch.createPoseBuffers();
    expect(() => batch.solve({ ...crowd, model: new Float64Array(16) })).toThrow(TendonError);
    expect(() => new TwoBoneBatch(skeleton, [], 1.5)).toThrow(TendonError);
    expect(
      () => new TwoBoneBatch(skeleton, [{ ...(limb as TwoBoneBatchLimb), endRotation: true }], 1),
    ).toThrow(TendonError);
  });
});
