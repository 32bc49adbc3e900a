import fc from 'fast-check';
import { Bone, Quaternion } from 'three';
import { describe, expect, it } from 'vitest';
import { TendonError } from '../../src/errors.js';
import {
  createModelBuffer,
  forwardKinematics,
  forwardKinematicsSubtree,
} from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';
import { maxRelativeError } from '../helpers/assets.js';

/** A random parent-first skeleton with random rest TRS, including negative and tiny scales. */
const skeletonArb = fc.integer({ min: 1, max: 24 }).chain((n) =>
  fc
    .tuple(
      fc.array(fc.nat(), { minLength: n, maxLength: n }),
      fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: 3 * n, maxLength: 3 * n }),
      fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 4 * n, maxLength: 4 * n }),
      fc.array(fc.constantFrom(0.01, 0.5, 1, 2, 100, -1), { minLength: 3 * n, maxLength: 3 * n }),
    )
    .map(([p, t, r, s]) => {
      const rot = r.map((v, i) => (i % 4 === 3 ? v + 1.5 : v));
      return Skeleton.create({
        names: p.map((_, i) => `j${i}`),
        parents: p.map((v, i) => (i === 0 || v % 5 === 0 ? -1 : v % i)),
        restTranslations: t,
        restRotations: rot,
        restScales: s,
      });
    }),
);

function threeModel(pose: Pose): number[][] {
  const s = pose.skeleton;
  const bones: Bone[] = [];
  for (let j = 0; j < s.jointCount; j++) {
    const bone = new Bone();
    bone.position.fromArray(pose.translations, 3 * j);
    bone.quaternion.copy(new Quaternion().fromArray(pose.rotations, 4 * j));
    bone.scale.fromArray(pose.scales, 3 * j);
    bones.push(bone);
    if (s.parents[j] >= 0) bones[s.parents[j]].add(bone);
  }
  for (const bone of bones) if (bone.parent === null) bone.updateMatrixWorld(true);
  return bones.map((b) => b.matrixWorld.elements);
}

describe('forwardKinematics', () => {
  it('matches a three.js Object3D hierarchy for random skeletons and scales', () => {
    fc.assert(
      fc.property(skeletonArb, (skeleton) => {
        const pose = new Pose(skeleton);
        const model = createModelBuffer(skeleton);
        forwardKinematics(pose, model);
        const expected = threeModel(pose);
        for (let j = 0; j < skeleton.jointCount; j++) {
          expect(maxRelativeError(model.subarray(16 * j, 16 * j + 16), expected[j])).toBeLessThan(1e-12);
        }
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('updates a subtree after one joint changes exactly as a full pass does', () => {
    fc.assert(
      fc.property(skeletonArb, fc.nat(), (skeleton, pick) => {
        const pose = new Pose(skeleton);
        const partial = createModelBuffer(skeleton);
        forwardKinematics(pose, partial);
        const joint = pick % skeleton.jointCount;
        pose.rotations.set([0.3, -0.2, 0.1, 0.927], 4 * joint);
        pose.translations[3 * joint] += 0.25;
        forwardKinematicsSubtree(pose, partial, joint);
        const full = createModelBuffer(skeleton);
        forwardKinematics(pose, full);
        expect([...partial]).toEqual([...full]);
      }),
      { seed: 11, numRuns: 300 },
    );
  });

  it('rejects a wrong buffer or joint with typed errors and writes nothing', () => {
    const skeleton = Skeleton.create({ names: ['a', 'b'], parents: [-1, 0] });
    const pose = new Pose(skeleton);
    const small = new Float64Array(16).fill(7);
    expect(() => forwardKinematics(pose, small)).toThrowError(TendonError);
    expect([...small]).toEqual(new Array(16).fill(7));
    const model = createModelBuffer(skeleton);
    try {
      forwardKinematicsSubtree(pose, model, 2);
      expect.unreachable();
    } catch (error) {
      expect((error as TendonError).code).toBe('pose/joint-out-of-range');
    }
  });
});

describe('Pose', () => {
  it('starts at rest, copies, clones and resets', () => {
    const skeleton = Skeleton.create({
      names: ['a', 'b'],
      parents: [-1, 0],
      restTranslations: [0, 1, 0, 0, 2, 0],
    });
    const pose = new Pose(skeleton);
    expect([...pose.translations]).toEqual([0, 1, 0, 0, 2, 0]);
    pose.translations[4] = 9;
    const copy = pose.clone();
    expect(copy.translations[4]).toBe(9);
    expect(copy.translations).not.toBe(pose.translations);
    pose.resetToRest();
    expect(pose.translations[4]).toBe(2);
    // The skeleton's rest pose is not shared with the pose.
    expect(skeleton.restTranslations[4]).toBe(2);
    const other = new Pose(Skeleton.create({ names: ['a', 'b'], parents: [-1, 0] }));
    expect(() => pose.copyFrom(other)).toThrowError(/different skeletons/);
  });
});
