/**
 * Crowd on the real robot (RobotExpressive, its own clips and skin): each character sampled at its
 * own clip and time, forward kinematics over the whole crowd and the skin palettes (4×4 and 3×4)
 * against a Pose per character with sampleClip, forwardKinematics and skinPalette, bit for bit
 * (Object.is on every number), frame after frame; the crowd as a TwoBoneBatch's pose.
 */
import { describe, expect, it } from 'vitest';
import { Clip } from '../../src/animation/clip.js';
import { Mixer } from '../../src/animation/mixer.js';
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import { TendonError } from '../../src/errors.js';
import { TwoBoneBatch } from '../../src/ik/two-bone-batch.js';
import { importGltf } from '../../src/io/gltf.js';
import { skinPalette } from '../../src/kernel/skin-palette.js';
import { TWO_BONE_STATUS } from '../../src/kernel/two-bone-batch.js';
import { computeContacts } from '../../src/placement/contacts.js';
import { FootPlacement } from '../../src/placement/foot-placement.js';
import { PlaneGround } from '../../src/placement/plane-ground.js';
import { Crowd } from '../../src/pose/crowd.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { findRig } from '../../src/rig/find-rig.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';
import { Skin } from '../../src/skin/skin.js';
import { readAsset } from '../helpers/assets.js';
import { restPointIn } from '../placement/characters.js';

const robot = (await importGltf(readAsset('gltf', 'RobotExpressive.glb'), { source: 'RobotExpressive.glb' }))
  .skeletons[0];
const { skeleton, clips } = robot;
const skin = robot.skins[0];
const J = skeleton.jointCount;

function expectSame(actual: ArrayLike<number>, wanted: ArrayLike<number>, what: string): void {
  expect(actual.length).toBe(wanted.length);
  for (let i = 0; i < actual.length; i++) {
    if (!Object.is(actual[i], wanted[i]))
      expect.fail(`${what}[${i}]: crowd ${actual[i]}, per character ${wanted[i]}`);
  }
}

describe('Crowd', () => {
  it('samples, poses and skins each robot as its own Pose would, to the bit, frame after frame', () => {
    const count = 7;
    const crowd = new Crowd(skeleton, count);
    const poses = Array.from({ length: count }, () => new Pose(skeleton));
    const models = poses.map(() => createModelBuffer(skeleton));
    // Character 6 has no clip: it stays at rest.
    const picked = Array.from({ length: count - 1 }, (_, c) => clips[c % clips.length]);
    const contexts = picked.map((clip) => new SamplerContext(clip));
    picked.forEach((clip, c) => {
      crowd.setClip(c, clip);
    });
    const k = skin.joints.length;
    const mat4 = new Float32Array(16 * k * count);
    const rows = new Float32Array(12 * k * count);
    for (let frame = 0; frame < 4; frame++) {
      for (let c = 0; c < count; c++) crowd.times[c] = 0.37 * c + frame / 24 + (c === 2 ? 100 : 0);
      crowd.sample();
      crowd.forwardKinematics();
      crowd.skinPalettes(skin, mat4);
      crowd.skinPalettes(skin, rows, '3x4');
      for (let c = 0; c < count; c++) {
        if (c < picked.length) sampleClip(picked[c], contexts[c], crowd.times[c], poses[c]);
        forwardKinematics(poses[c], models[c]);
        expectSame(
          crowd.translations.subarray(3 * J * c, 3 * J * (c + 1)),
          poses[c].translations,
          'translations',
        );
        expectSame(crowd.rotations.subarray(4 * J * c, 4 * J * (c + 1)), poses[c].rotations, 'rotations');
        expectSame(crowd.scales.subarray(3 * J * c, 3 * J * (c + 1)), poses[c].scales, 'scales');
        expectSame(crowd.model.subarray(16 * J * c, 16 * J * (c + 1)), models[c], 'model');
        const one = new Float32Array(16 * k);
        skinPalette(one, models[c], skin.joints, skin.inverseBindMatrices);
        expectSame(mat4.subarray(16 * k * c, 16 * k * (c + 1)), one, 'palette 4×4');
        for (let e = 0; e < k; e++) {
          const want = [0, 1, 2].flatMap((i) => [0, 4, 8, 12].map((col) => one[16 * e + col + i]));
          expectSame(rows.subarray(12 * (k * c + e), 12 * (k * c + e + 1)), want, 'palette 3×4');
        }
      }
    }
    // The robots really differ (different clips and times).
    expect(crowd.rotations.subarray(0, 4 * J)).not.toEqual(crowd.rotations.subarray(4 * J, 8 * J));
  });

  it('is a TwoBoneBatch’s pose: the same parents, legs solved in place', () => {
    const count = 3;
    const crowd = new Crowd(skeleton, count);
    const walk = clips.find((c) => c.name === 'Walking') ?? clips[0];
    for (let c = 0; c < count; c++) {
      crowd.setClip(c, walk);
      crowd.times[c] = 0.2 * c;
    }
    crowd.sample();
    crowd.forwardKinematics();
    const leg = {
      root: 'UpperLeg.L',
      middle: 'LowerLeg.L',
      endLocal: restPointIn(skeleton, skeleton.jointIndex('LowerLeg.L'), skeleton.jointIndex('Foot.L')),
    };
    const batch = new TwoBoneBatch(skeleton, [leg], count);
    expect(batch.parents).toEqual(crowd.parents);
    const hip = skeleton.jointIndex('UpperLeg.L');
    for (let c = 0; c < count; c++) {
      const h = 16 * (c * J + hip) + 12;
      batch.targets.set([crowd.model[h] + 0.2, crowd.model[h + 1] - 1, crowd.model[h + 2] + 0.3], 3 * c);
    }
    expect(batch.solve(crowd)).toBe(0);
    for (let c = 0; c < count; c++) {
      expect(batch.status[c] & TWO_BONE_STATUS.reached).toBe(TWO_BONE_STATUS.reached);
    }
  });

  it('updates in slices (sample, FK, legs, palettes) to the bits of the whole, and touches nothing outside', () => {
    const count = 7;
    const whole = new Crowd(skeleton, count);
    const sliced = new Crowd(skeleton, count);
    const leg = {
      root: 'UpperLeg.R',
      middle: 'LowerLeg.R',
      endLocal: restPointIn(skeleton, skeleton.jointIndex('LowerLeg.R'), skeleton.jointIndex('Foot.R')),
    };
    const batches = [new TwoBoneBatch(skeleton, [leg], count), new TwoBoneBatch(skeleton, [leg], count)];
    const k = skin.joints.length;
    const palettes = [new Float32Array(12 * k * count), new Float32Array(12 * k * count)];
    [whole, sliced].forEach((crowd) => {
      for (let c = 0; c < count; c++) {
        crowd.setClip(c, clips[(c + 1) % clips.length]);
        crowd.times[c] = 0.3 * c;
      }
    });
    const foot = skeleton.jointIndex('Foot.R');
    const frame = (crowd: Crowd, b: number, first: number, n: number) => {
      crowd.sample('loop', first, n);
      crowd.forwardKinematics(first, n);
      for (let c = first; c < first + n; c++) {
        const o = 16 * (c * J + foot) + 12;
        batches[b].targets.set([crowd.model[o], crowd.model[o + 1] - 0.1, crowd.model[o + 2] + 0.05], 3 * c);
      }
      expect(batches[b].solve(crowd, first, n)).toBe(0);
      crowd.skinPalettes(skin, palettes[b], '3x4', first, n);
    };
    frame(whole, 0, 0, count);
    frame(sliced, 1, 0, 3);
    // Before the second slice: characters 3… are still at rest in the sliced crowd.
    expectSame(
      sliced.rotations.subarray(4 * J * 3),
      new Crowd(skeleton, count).rotations.subarray(4 * J * 3),
      'rest',
    );
    expect(Array.from(palettes[1].subarray(12 * k * 3)).every((x) => x === 0)).toBe(true);
    frame(sliced, 1, 3, count - 3);
    expectSame(sliced.rotations, whole.rotations, 'rotations');
    expectSame(sliced.model, whole.model, 'model');
    expectSame(palettes[1], palettes[0], 'palettes');
    expectSame(batches[1].errors, batches[0].errors, 'errors');
    expectSame(batches[1].status, batches[0].status, 'status');
    expect(() => whole.forwardKinematics(5, 3)).toThrow(
      expect.objectContaining({
        code: 'argument/invalid',
        message: expect.stringContaining('characters 5 … 7 are not in 0 … 6'),
      }),
    );
    // A range given as strings is named as given ('2' + 1 − 1 read as characters 2 … 20).
    expect(() => whole.forwardKinematics('2' as unknown as number, 1)).toThrow(
      expect.objectContaining({
        code: 'argument/invalid',
        message: expect.stringContaining("first '2' and count 1 are not whole numbers"),
      }),
    );
    expect(() => whole.sample('loop', -1)).toThrow(TendonError);
    expect(() => batches[0].solve(whole, 2, 6)).toThrow(
      expect.objectContaining({ code: 'argument/invalid' }),
    );
  });

  it('blends a second clip per character as a Mixer with two base layers would, to the bit', () => {
    const walk = clips.find((c) => c.name === 'Walking') ?? clips[0];
    const run = clips.find((c) => c.name === 'Running') ?? clips[1];
    // Weights 0 and 1 sample one clip (as sampleClip); between, the blend. Character 5 has none.
    const weights = [0, 0.25, 0.5, 0.999, 1, 0.5];
    const count = weights.length;
    const crowd = new Crowd(skeleton, count);
    const mixers = weights.map(() => new Mixer(skeleton));
    const layers = mixers.map((m) => [m.addLayer({ clip: walk }), m.addLayer({ clip: run })]);
    const contexts = weights.map(() => [new SamplerContext(walk), new SamplerContext(run)]);
    const pose = new Pose(skeleton);
    for (let c = 0; c < count; c++) {
      crowd.setClip(c, walk);
      if (c < 5) crowd.setBlendClip(c, run);
    }
    expect(crowd.blendClipOf(1)).toBe(run);
    expect(crowd.blendClipOf(5)).toBe(null);
    for (let frame = 0; frame < 5; frame++) {
      for (let c = 0; c < count; c++) {
        crowd.times[c] = 0.3 * c + frame / 30;
        crowd.blendTimes[c] = 0.2 * c + frame / 20;
        crowd.blendWeights[c] = weights[c];
      }
      crowd.sample();
      for (let c = 0; c < count; c++) {
        const w = c < 5 ? weights[c] : 0;
        if (w > 0 && w < 1) {
          layers[c][0].time = crowd.times[c];
          layers[c][0].weight = 1 - w;
          layers[c][1].time = crowd.blendTimes[c];
          layers[c][1].weight = w;
          mixers[c].evaluate(pose);
        } else {
          pose.resetToRest();
          if (w === 0) sampleClip(walk, contexts[c][0], crowd.times[c], pose);
          else sampleClip(run, contexts[c][1], crowd.blendTimes[c], pose);
        }
        expectSame(crowd.rotations.subarray(4 * J * c, 4 * J * (c + 1)), pose.rotations, `rotations ${c}`);
        expectSame(
          crowd.translations.subarray(3 * J * c, 3 * J * (c + 1)),
          pose.translations,
          `translations ${c}`,
        );
        expectSame(crowd.scales.subarray(3 * J * c, 3 * J * (c + 1)), pose.scales, `scales ${c}`);
      }
    }
    // The blend is neither clip.
    const at = (c: number) => Array.from(crowd.rotations.subarray(4 * J * c, 4 * J * (c + 1)));
    expect(at(2)).not.toEqual(at(0));
    // A weight outside [0, 1] or a blend time that is not finite: refused before anything is
    // written (new times, so that a write would show).
    for (let c = 0; c < count; c++) crowd.times[c] += 0.37;
    const before = crowd.rotations.slice();
    crowd.blendWeights[3] = 1.5;
    expect(() => crowd.sample()).toThrow(expect.objectContaining({ code: 'argument/invalid' }));
    crowd.blendWeights[3] = 0.5;
    crowd.blendTimes[4] = Number.POSITIVE_INFINITY;
    expect(() => crowd.sample()).toThrow(expect.objectContaining({ code: 'animation/invalid-time' }));
    expectSame(crowd.rotations, before, 'untouched');
    expect(() => crowd.setBlendClip(count, run)).toThrow(
      expect.objectContaining({ code: 'argument/invalid' }),
    );
  });

  it('blends over the rest pose at every weight: a joint only one clip animates does not keep a stale pose', () => {
    // Two joints; clip A turns b only, clip B turns a only.
    const sk = Skeleton.create({ names: ['a', 'b'], parents: [-1, 0], restTranslations: [0, 0, 0, 0, 1, 0] });
    const s = Math.sqrt(0.96);
    const turn = (joint: string, name: string) =>
      Clip.create(sk, {
        name,
        tracks: [{ joint, path: 'rotation', times: [0, 1], values: [0, 0, 0, 1, 0.2, 0, 0, s] }],
      });
    const a = turn('b', 'A');
    const b = turn('a', 'B');
    const crowd = new Crowd(sk, 3);
    const mixer = new Mixer(sk);
    const [la, lb] = [mixer.addLayer({ clip: a }), mixer.addLayer({ clip: b })];
    const pose = new Pose(sk);
    for (let c = 0; c < 3; c++) {
      crowd.setClip(c, a);
      crowd.setBlendClip(c, b);
    }
    // Character 1 goes 0.5 → 1 → 0 → 0.3; the others stay at 0.5 and are sampled only in frame 0.
    for (const [frame, w] of [0.5, 1, 0, 0.3].entries()) {
      crowd.times[1] = 0.1 * frame + 0.05;
      crowd.blendTimes[1] = 0.2 * frame + 0.1;
      crowd.blendWeights[1] = w;
      for (const c of [0, 2]) {
        crowd.times[c] = 0.4;
        crowd.blendTimes[c] = 0.6;
        crowd.blendWeights[c] = 0.5;
      }
      const others = crowd.rotations.slice();
      if (frame === 0) crowd.sample();
      else crowd.sample('loop', 1, 1);
      la.time = crowd.times[1];
      la.weight = 1 - w;
      lb.time = crowd.blendTimes[1];
      lb.weight = w;
      mixer.evaluate(pose);
      expectSame(crowd.rotations.subarray(8, 16), pose.rotations, `frame ${frame} rotations`);
      expectSame(crowd.translations.subarray(6, 12), pose.translations, `frame ${frame} translations`);
      if (frame > 0) {
        // The slice touched character 1 alone.
        expectSame(crowd.rotations.subarray(0, 8), others.subarray(0, 8), 'character 0');
        expectSame(crowd.rotations.subarray(16, 24), others.subarray(16, 24), 'character 2');
      }
    }
    // A character without a second clip is not checked for its blend weight; one with is.
    const plain = new Crowd(sk, 1);
    plain.setClip(0, a);
    plain.blendWeights[0] = Number.NaN;
    expect(() => plain.sample()).not.toThrow();
    plain.setBlendClip(0, b);
    expect(() => plain.sample()).toThrow(expect.objectContaining({ code: 'argument/invalid' }));
  });

  it('places each robot on the crowd’s own arrays (poseOf, modelOf) to the bits of a Pose of its own', () => {
    const count = 3;
    const crowd = new Crowd(skeleton, count);
    const walk = clips.find((c) => c.name === 'Walking') ?? clips[0];
    const rig = findRig(skeleton);
    const track = computeContacts(walk, rig.legs);
    // A 20° slope: placement changes the pose (checked below), so agreeing says something.
    const ground = new PlaneGround([0, 0, 0], [0, 0.9396926207859084, -0.3420201433256687]);
    const placed = () => {
      const p = new FootPlacement(skeleton, rig, { ground });
      p.setContactTrack(track);
      return p;
    };
    const viewed = Array.from({ length: count }, placed);
    const owned = Array.from({ length: count }, placed);
    const poses = Array.from({ length: count }, (_, c) => crowd.poseOf(c));
    const models = Array.from({ length: count }, (_, c) => crowd.modelOf(c));
    const ownPoses = Array.from({ length: count }, () => new Pose(skeleton));
    const ownModels = Array.from({ length: count }, () => createModelBuffer(skeleton));
    const animated = new Float64Array(crowd.rotations.length);
    const world = Float64Array.of(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);
    for (let c = 0; c < count; c++) crowd.setClip(c, walk);
    for (let frame = 0; frame < 30; frame++) {
      for (let c = 0; c < count; c++) crowd.times[c] = 0.31 * c + frame / 60;
      crowd.sample();
      crowd.forwardKinematics();
      animated.set(crowd.rotations);
      for (let c = 0; c < count; c++) {
        ownPoses[c].translations.set(poses[c].translations);
        ownPoses[c].rotations.set(poses[c].rotations);
        ownPoses[c].scales.set(poses[c].scales);
        ownModels[c].set(models[c]);
        world[13] = 0.05 * c;
        viewed[c].solve(poses[c], models[c], world, 1 / 60, crowd.times[c]);
        owned[c].solve(ownPoses[c], ownModels[c], world, 1 / 60, crowd.times[c]);
        expectSame(crowd.rotations.subarray(4 * J * c, 4 * J * (c + 1)), ownPoses[c].rotations, 'rotations');
        expectSame(
          crowd.translations.subarray(3 * J * c, 3 * J * (c + 1)),
          ownPoses[c].translations,
          'translations',
        );
        expectSame(crowd.model.subarray(16 * J * c, 16 * J * (c + 1)), ownModels[c], 'model');
      }
    }
    // Placement acted on the crowd's arrays.
    expect(crowd.rotations).not.toEqual(animated);
  });

  it('views a pose only over arrays of the skeleton’s size, and a character only in range', () => {
    const crowd = new Crowd(skeleton, 2);
    expect(() => crowd.poseOf(2)).toThrow(expect.objectContaining({ code: 'argument/invalid' }));
    expect(() => crowd.modelOf(-1)).toThrow(expect.objectContaining({ code: 'argument/invalid' }));
    expect(crowd.modelOf(1).length).toBe(16 * J);
    // A character's pose starts from rest at every sample (the placement controllers skip their
    // check for a pose given again unanimated); a Pose of its own, or a view of other arrays, does not.
    expect(crowd.poseOf(1).startsFromRest).toBe(true);
    expect(new Pose(skeleton).startsFromRest).toBe(false);
    const good = {
      translations: new Float64Array(3 * J),
      rotations: new Float64Array(4 * J),
      scales: new Float64Array(3 * J),
    };
    const view = Pose.view(skeleton, good);
    expect(view.rotations).toBe(good.rotations);
    expect(view.clone().rotations).not.toBe(good.rotations);
    expect(() => Pose.view(skeleton, { ...good, rotations: new Float64Array(4 * J - 1) })).toThrow(
      expect.objectContaining({ code: 'argument/invalid', message: expect.stringContaining('rotations') }),
    );
    expect(() =>
      Pose.view(skeleton, { ...good, scales: Array(3 * J).fill(1) as unknown as Float64Array }),
    ).toThrow(expect.objectContaining({ code: 'argument/invalid' }));
    expect(() => Pose.view(skeleton, null as unknown as typeof good)).toThrow(TendonError);
    // A plain pose after a view is its own again.
    expect(new Pose(skeleton).rotations).not.toBe(good.rotations);
  });

  it('refuses a bad time or mode before writing, a foreign clip or skin, a wrong palette size', () => {
    const crowd = new Crowd(skeleton, 2);
    crowd.setClip(0, clips[0]);
    crowd.setClip(1, clips[1]);
    const before = crowd.rotations.slice();
    crowd.times[1] = Number.NaN;
    expect(() => crowd.sample()).toThrow(expect.objectContaining({ code: 'animation/invalid-time' }));
    expectSame(crowd.rotations, before, 'untouched');
    crowd.times[1] = 0;
    expect(() => crowd.sample('bounce' as 'loop')).toThrow(TendonError);
    expect(() => crowd.setClip(2, clips[0])).toThrow(TendonError);
    const other = new Crowd(Skeleton.create({ names: ['a'], parents: [-1] }), 1);
    expect(() => other.setClip(0, clips[0])).toThrow(
      expect.objectContaining({ code: 'clip/skeleton-mismatch' }),
    );
    expect(() => crowd.skinPalettes(skin, new Float32Array(5))).toThrow(
      expect.objectContaining({ code: 'pose/buffer-size' }),
    );
    // Not a skin, not a palette: a TendonError naming it, not a TypeError; an integer or plain
    // array of the right length was written with the numbers truncated.
    const size = 16 * skin.joints.length * 2;
    const refusals: [unknown, unknown, string, RegExp][] = [
      [null, new Float32Array(size), 'argument/invalid', /Crowd\.skinPalettes: the skin is null, not a Skin/],
      [{ skeleton }, new Float32Array(size), 'argument/invalid', /the skin is a Object, not a Skin/],
      [
        skin,
        null,
        'argument/invalid',
        /Crowd\.skinPalettes: out is null, not a Float32Array or a Float64Array/,
      ],
      [skin, new Int8Array(size), 'argument/invalid', /out is a Int8Array/],
      // A skeleton and joints but no inverse bind matrices: taken until 27 November, NaN written
      // (a hostile test).
      [
        { skeleton, joints: skin.joints, inverseBindMatrices: new Float64Array(0) },
        new Float32Array(size),
        'argument/invalid',
        /the skin is a Object, not a Skin/,
      ],
      [skin, new Array(size).fill(0), 'argument/invalid', /out is an array of/],
    ];
    for (const [s, out, code, text] of refusals) {
      const palette = out;
      expect(() => crowd.skinPalettes(s as typeof skin, palette as Float32Array)).toThrow(
        expect.objectContaining({ code, message: expect.stringMatching(text) }),
      );
      if (palette instanceof Int8Array || Array.isArray(palette)) {
        expect(Array.from(palette).every((v) => v === 0)).toBe(true);
      }
    }
    // Both float arrays are palettes, as for Skin.computePalette.
    crowd.skinPalettes(skin, new Float64Array(size));
    // A Skin whose joints were edited after it was made: refused, naming the joint.
    const edited = new Skin(skeleton, { joints: Array.from(skin.joints) });
    edited.joints[1] = 99;
    const written = new Float32Array(size).fill(7);
    expect(() => crowd.skinPalettes(edited, written)).toThrow(
      expect.objectContaining({
        code: 'skin/joint-out-of-range',
        message: expect.stringContaining("skin's joint 1 is 99"),
      }),
    );
    expect(written.every((v) => v === 7)).toBe(true);
    expect(() => new Crowd(skeleton, -1)).toThrow(TendonError);
  });
});
