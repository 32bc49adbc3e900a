/**
 * The two-bone solver at and across full reach (hinge mode): the root's roll follows the hinge axis,
 * which a straight leg still has, not the knee's side of the hip–target line, which there is
 * rounding noise. And a limb whose end is a point of its middle bone (`endLocal`), as the robot's
 * Blender IK legs are.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TwoBoneIk } from '../../src/ik/two-bone.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { findRig } from '../../src/rig/find-rig.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';
import { robot } from '../placement/characters.js';

const runs = Number(process.env.FUZZ_RUNS ?? 2000);

function angleDeg(a: Float64Array, ao: number, b: Float64Array, bo: number): number {
  const d = Math.abs(a[ao] * b[bo] + a[ao + 1] * b[bo + 1] + a[ao + 2] * b[bo + 2] + a[ao + 3] * b[bo + 3]);
  return (2 * Math.acos(Math.min(1, d)) * 180) / Math.PI;
}

/** A leg straight at rest along −Y, its knee hinged about +X (bends forward). */
function straightLeg() {
  const skeleton = Skeleton.create({
    names: ['hip', 'knee', 'ankle'],
    parents: [-1, 0, 1],
    restTranslations: [0, 1, 0, 0, -0.45, 0, 0, -0.45, 0],
  });
  const ik = new TwoBoneIk(skeleton, { root: 0, middle: 1, end: 2, hingeAxis: [1, 0, 0] });
  return { skeleton, ik, pose: new Pose(skeleton), model: createModelBuffer(skeleton) };
}

describe('TwoBoneIk at full reach (hinge mode)', () => {
  it('turns the thigh by little when a target crosses full reach, whatever noise the knee key has', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e-6, max: 1e-6, noNaN: true }),
        fc.double({ min: -0.3, max: 0.3, noNaN: true }),
        fc.double({ min: -0.3, max: 0.3, noNaN: true }),
        (noise, tx, tz) => {
          const { ik, pose, model } = straightLeg();
          // A float32-noisy knee key: the input leg straight to within `noise` radians.
          pose.rotations.set([noise, 0, 0, 1], 4);
          pose.rotations.set([0, noise * 0.5, 0, 1], 0);
          const previous = new Float64Array(4);
          let first = true;
          // The target walks through full reach and back, 1 mm a frame.
          for (let k = -20; k <= 20; k++) {
            pose.rotations.set([noise, 0, 0, 1], 4);
            pose.rotations.set([0, noise * 0.5, 0, 1], 0);
            forwardKinematics(pose, model);
            const d = 0.9 - 0.001 * Math.abs(k);
            const l = Math.hypot(tx, 1, tz);
            ik.solve(pose, model, [(tx * d) / l, 1 - d / l, (tz * d) / l]);
            if (!first) expect(angleDeg(pose.rotations, 0, previous, 0)).toBeLessThan(3);
            previous.set(pose.rotations.subarray(0, 4));
            first = false;
          }
        },
      ),
      { numRuns: runs / 10, seed: 21 },
    );
  });

  it('keeps the knee bending forward: the same bend plane on either side of a straight input', () => {
    const { ik, pose, model } = straightLeg();
    const kneeZ: number[] = [];
    for (const noise of [1e-6, -1e-6]) {
      pose.resetToRest();
      pose.rotations.set([noise, 0, 0, 1], 4);
      forwardKinematics(pose, model);
      ik.solve(pose, model, [0.05, 0.3, 0.1]);
      kneeZ.push(model[16 + 14]);
    }
    expect(kneeZ[0]).toBeGreaterThan(0);
    expect(kneeZ[1]).toBeCloseTo(kneeZ[0], 9);
  });
});

describe('TwoBoneIk with an end given as a point of the middle bone (endLocal)', () => {
  it("reaches targets with the robot's legs, whose feet are separate bones", async () => {
    const { skeleton } = await robot();
    const rig = findRig(skeleton);
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    for (const leg of rig.legs) {
      const ik = new TwoBoneIk(skeleton, {
        root: leg.root,
        middle: leg.middle,
        endLocal: leg.endLocal as [number, number, number],
      });
      expect(ik.end).toBe(-1);
      expect(ik.mode).toBe('hinge');
      fc.assert(
        fc.property(
          fc.double({ min: -0.3, max: 0.3, noNaN: true }),
          fc.double({ min: 0.5, max: 1.35, noNaN: true }),
          (dz, dy) => {
            pose.resetToRest();
            forwardKinematics(pose, model);
            const hip = model.subarray(16 * leg.root + 12, 16 * leg.root + 15);
            const target = [hip[0], hip[1] - dy, hip[2] + dz]; // between the fold (0.32) and the reach (1.54)
            const status = ik.solve(pose, model, target);
            const m = 16 * leg.middle;
            const p = leg.endLocal as readonly number[];
            const tip = [0, 1, 2].map(
              (r) =>
                model[m + r] * p[0] + model[m + 4 + r] * p[1] + model[m + 8 + r] * p[2] + model[m + 12 + r],
            );
            const error = Math.hypot(tip[0] - target[0], tip[1] - target[1], tip[2] - target[2]);
            expect(error).toBeCloseTo(status.error, 12);
            expect(status.reached).toBe(true); // in one solve, float32 scale noise and all
            expect(error).toBeLessThan(1.5e-6);
          },
        ),
        { numRuns: 200, seed: 4 },
      );
      expect(() => ik.solve(pose, model, [0, 1, 0], null, [0, 0, 0, 1])).toThrow(
        expect.objectContaining({ code: 'ik/invalid-option' }),
      );
    }
  });

  it('refuses both an end joint and an end point, or neither', () => {
    const { skeleton } = straightLeg();
    expect(() => new TwoBoneIk(skeleton, { root: 0, middle: 1 })).toThrow(
      expect.objectContaining({ code: 'ik/invalid-option' }),
    );
    expect(() => new TwoBoneIk(skeleton, { root: 0, middle: 1, end: 2, endLocal: [0, -0.45, 0] })).toThrow(
      expect.objectContaining({ code: 'ik/invalid-option' }),
    );
  });
});

describe('TwoBoneIk with a stale model buffer', () => {
  it.each([
    ['translation', 'translations', 3 * 1 + 1],
    ['scale', 'scales', 3 * 2],
    ["end's rotation", 'rotations', 4 * 2 + 3],
  ] as const)('refuses a NaN put into a %s after forward kinematics, writing nothing', (_, field, index) => {
    const { ik, pose, model } = straightLeg();
    pose.rotations.set([0.2, 0, 0, 0.9797958971132712], 4);
    forwardKinematics(pose, model);
    pose[field][index] = Number.NaN;
    const before = [pose.rotations.slice(), model.slice()];
    expect(() => ik.solve(pose, model, [0.1, 0.3, 0.2])).toThrow(
      expect.objectContaining({ code: 'pose/not-finite' }),
    );
    expect([pose.rotations, model]).toEqual(before);
  });
});
