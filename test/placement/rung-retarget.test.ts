/**
 * CMU 01_03 (climbing a ladder, hanging, climbing again) played on a ladder whose rungs are lower
 * and closer together than the captured one: every hold lands on its new rung, and the IK adds at most 10° to a joint from one frame to the next.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import { importBvh } from '../../src/io/bvh.js';
import { RungRetarget } from '../../src/placement/rung-retarget.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { findRig } from '../../src/rig/find-rig.js';
import { assetsDir } from '../helpers/assets.js';
import { CMU_SCALE } from './characters.js';

/** CMU 01_03 and its rig. */
function ladderClip() {
  const { skeleton, clip } = importBvh(
    readFileSync(`${assetsDir}bvh/cmu_01_03_climb_ladder_hang.bvh`, 'utf8'),
  );
  return { skeleton, clip, rig: findRig(skeleton) };
}

/** The captured rungs: about 25 cm apart from 25 cm up (4.4 units); the new: 22.6 cm from 22.6 cm. */
const RUNGS = { capturedFirstRung: 4.4, capturedSpacing: 4.4, firstRung: 4, spacing: 4 };

describe('RungRetarget', () => {
  it('puts the CMU ladder clip on a ladder of other rungs: holds within 1 cm of their new rungs', () => {
    const { skeleton, clip, rig } = ladderClip();
    const retarget = new RungRetarget(clip, rig, RUNGS);
    const animated = new Pose(skeleton);
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    const before = createModelBuffer(skeleton);
    const context = new SamplerContext(clip);
    let holds = 0;
    let shifted = 0;
    let maxError = 0;
    let maxStep = 0;
    const added = new Float64Array(4 * skeleton.jointCount);
    for (let f = 0; f < clip.duration * 60; f++) {
      const t = f / 60;
      sampleClip(clip, context, t, animated, 'clamp');
      pose.copyFrom(animated);
      forwardKinematics(pose, model);
      before.set(model);
      retarget.apply(pose, model, t);
      // The rotation IK adds to each joint, and its change from the last frame.
      for (let o = 0; o < added.length; o += 4) {
        const a = animated.rotations;
        const p = pose.rotations;
        const [ax, ay, az, aw] = [-a[o], -a[o + 1], -a[o + 2], a[o + 3]];
        const x = aw * p[o] + ax * p[o + 3] + ay * p[o + 2] - az * p[o + 1];
        const y = aw * p[o + 1] - ax * p[o + 2] + ay * p[o + 3] + az * p[o];
        const z = aw * p[o + 2] + ax * p[o + 1] - ay * p[o] + az * p[o + 3];
        const w = aw * p[o + 3] - ax * p[o] - ay * p[o + 1] - az * p[o + 2];
        if (f > 0) {
          const d = Math.min(
            1,
            Math.abs(x * added[o] + y * added[o + 1] + z * added[o + 2] + w * added[o + 3]),
          );
          maxStep = Math.max(maxStep, (2 * Math.acos(d) * 180) / Math.PI);
        }
        added.set([x, y, z, w], o);
      }
      for (let i = 0; i < 4; i++) {
        if (retarget.holding[i] !== 1) continue;
        holds++;
        if (retarget.shifts[i] !== 0) shifted++;
        const o = 16 * retarget.joints[i] + 12;
        const error = Math.hypot(
          model[o] - before[o],
          model[o + 1] - (before[o + 1] + retarget.shifts[i]),
          model[o + 2] - before[o + 2],
        );
        maxError = Math.max(maxError, error * CMU_SCALE);
      }
    }
    expect(holds).toBeGreaterThan(1000);
    // Held rungs moved: hands on the bar 2.4 units (13 cm) lower, feet by 0.4-1.2 units per rung.
    expect(shifted).toBeGreaterThan(300);
    expect(
      new Set(retarget.holds.flatMap((h) => [...h].filter((_, k) => k % 3 === 2).map((x) => x.toFixed(1)))),
    ).toEqual(new Set(['0.0', '-0.4', '-0.8', '-1.2', '-2.0', '-2.4']));
    expect(maxError).toBeLessThanOrEqual(0.01);
    expect(maxStep).toBeLessThanOrEqual(10);
  });

  it('refuses an option out of range from the constructor, naming it (placement/invalid-option)', () => {
    const { clip, rig } = ladderClip();
    const bad: [string, Record<string, unknown>][] = [
      ['sampleRate', { sampleRate: 0 }],
      ['sampleRate', { sampleRate: -60 }],
      ['sampleRate', { sampleRate: Number.NaN }],
      ['sampleRate', { sampleRate: Number.POSITIVE_INFINITY }],
      ['sampleRate', { sampleRate: 0.5 }],
      ['sampleRate', { sampleRate: 1e9 }],
      ['stillSpeed', { stillSpeed: Number.NaN }],
      ['stillSpeed', { stillSpeed: -1 }],
      ['stillSpeed', { stillSpeed: 0 }],
      ['minDuration', { minDuration: Number.NaN }],
      ['minDuration', { minDuration: -1 }],
      ['minDuration', { minDuration: 2 * clip.duration }],
      ['capturedFirstRung', { capturedFirstRung: -1e308 }],
      ['firstRung', { firstRung: -1 }],
      ['spacing', { spacing: 0 }],
      ['capturedSpacing', { capturedSpacing: '4.4' }],
    ];
    for (const [name, options] of bad) {
      expect(() => new RungRetarget(clip, rig, { ...RUNGS, ...options } as never), name).toThrow(
        expect.objectContaining({
          code: 'placement/invalid-option',
          message: expect.stringContaining(`${name} is`),
        }),
      );
    }
    // The low ends of the ranges are in them, and still read the clip's holds.
    const coarse = new RungRetarget(clip, rig, { ...RUNGS, sampleRate: 10, minDuration: 0 });
    expect(coarse.holds.every((h) => h.length > 0)).toBe(true);
  });

  it('refuses a pose with a NaN in a limb before it moves anything (pose/not-finite, the joint named)', () => {
    const { skeleton, clip, rig } = ladderClip();
    const retarget = new RungRetarget(clip, rig, RUNGS);
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    sampleClip(clip, new SamplerContext(clip), 3, pose, 'clamp');
    forwardKinematics(pose, model);
    const elbow = rig.arms[0].middle;
    pose.rotations[4 * elbow + 2] = Number.NaN;
    const [translations, rotations, before] = [
      pose.translations.slice(),
      pose.rotations.slice(),
      model.slice(),
    ];
    expect(() => retarget.apply(pose, model, 3)).toThrow(
      expect.objectContaining({
        code: 'pose/not-finite',
        message: expect.stringContaining(`"${skeleton.names[elbow]}"`),
      }),
    );
    expect([...pose.translations]).toEqual([...translations]);
    expect([...pose.rotations]).toEqual([...rotations]);
    expect([...model]).toEqual([...before]);
  });
});
