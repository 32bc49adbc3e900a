import { describe, expect, it } from 'vitest';
import { makeAdditiveClip } from '../../src/animation/additive.js';
import type { Clip } from '../../src/animation/clip.js';
import { createJointMask } from '../../src/animation/joint-mask.js';
import { Mixer } from '../../src/animation/mixer.js';
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import { TendonError } from '../../src/errors.js';
import { importGltf } from '../../src/io/gltf.js';
import { Pose } from '../../src/pose/pose.js';
import { readAsset } from '../helpers/assets.js';

const robot = (await importGltf(readAsset('gltf', 'RobotExpressive.glb'))).skeletons[0];
const skeleton = robot.skeleton;
const clip = (name: string): Clip => robot.clips.find((c) => c.name === name)!;

function sampled(c: Clip, t: number): Pose {
  const pose = new Pose(skeleton);
  sampleClip(c, new SamplerContext(c), t, pose);
  return pose;
}

function sameRotation(a: Float64Array, b: Float64Array, j: number, tolerance: number): void {
  const d = Math.abs(
    a[4 * j] * b[4 * j] +
      a[4 * j + 1] * b[4 * j + 1] +
      a[4 * j + 2] * b[4 * j + 2] +
      a[4 * j + 3] * b[4 * j + 3],
  );
  expect(1 - d).toBeLessThan(tolerance);
}

describe('Mixer', () => {
  it('with one layer, evaluates exactly what sampleClip gives; with none, the rest pose', () => {
    const mixer = new Mixer(skeleton);
    const out = new Pose(skeleton);
    out.translations.fill(9);
    mixer.evaluate(out);
    expect(out.translations).toEqual(skeleton.restTranslations);
    const layer = mixer.addLayer({ clip: clip('Walking') });
    mixer.advance(0.3);
    expect(layer.time).toBeCloseTo(0.3, 15);
    mixer.evaluate(out);
    const expected = sampled(clip('Walking'), 0.3);
    expect(out.rotations).toEqual(expected.rotations);
    expect(out.translations).toEqual(expected.translations);
  });

  it('blends two layers by normalized weights, per joint', () => {
    const mixer = new Mixer(skeleton);
    const walk = mixer.addLayer({ clip: clip('Walking'), weight: 3, time: 0.2 });
    mixer.addLayer({ clip: clip('Running'), weight: 1, time: 0.2 });
    const out = new Pose(skeleton);
    mixer.evaluate(out);
    const a = sampled(clip('Walking'), 0.2);
    const b = sampled(clip('Running'), 0.2);
    for (let j = 0; j < skeleton.jointCount; j++) {
      for (let c = 0; c < 3; c++) {
        expect(out.translations[3 * j + c]).toBeCloseTo(
          0.75 * a.translations[3 * j + c] + 0.25 * b.translations[3 * j + c],
          12,
        );
      }
      // The rotation lies between the two, nearer the heavier layer.
      const qa = a.rotations.subarray(4 * j, 4 * j + 4);
      const qb = b.rotations.subarray(4 * j, 4 * j + 4);
      const qo = out.rotations.subarray(4 * j, 4 * j + 4);
      const dot = (x: Float64Array, y: Float64Array) =>
        Math.abs(x[0] * y[0] + x[1] * y[1] + x[2] * y[2] + x[3] * y[3]);
      expect(dot(qo, qa)).toBeGreaterThanOrEqual(dot(qo, qb) - 1e-12);
      expect(Math.hypot(...qo)).toBeCloseTo(1, 14);
    }
    // Weight 0 drops a layer entirely: back to the single-layer result.
    walk.weight = 0;
    mixer.evaluate(out);
    expect(out.rotations).toEqual(b.rotations);
  });

  it('blends the same bits at any scale of the weights, from 5e-324 to 1e308', () => {
    // Until 27 November weights of 1e155 summed the rotations past the doubles (a zero
    // quaternion), 1e308 to NaN, and 5e-324 under them (the rest pose; a hostile test).
    const blend = (a: number, b: number) => {
      const mixer = new Mixer(skeleton);
      mixer.addLayer({ clip: clip('Walking'), weight: a, time: 0.2 });
      mixer.addLayer({ clip: clip('Running'), weight: b, time: 0.2 });
      const out = new Pose(skeleton);
      mixer.evaluate(out);
      return [...out.translations, ...out.rotations, ...out.scales];
    };
    const unit = blend(3, 1);
    expect(unit.every(Number.isFinite)).toBe(true);
    // Powers of two times 3 and 1: the same bits; other scales, the same to rounding.
    for (const k of [2 ** 500, 2 ** -500, 2 ** 1000, 2 ** -1070])
      expect(blend(3 * k, k), `${k}`).toEqual(unit);
    for (const [a, b] of [
      [1e155, 1e155 / 3],
      [1e308, 1e308 / 3],
      [3 * 5e-324, 5e-324],
    ]) {
      const out = blend(a, b);
      const off = Math.max(...out.map((v, k) => Math.abs(v - unit[k])));
      expect(off, `${a}, ${b}`).toBeLessThan(1e-9);
    }
  });

  it('restricts a layer to a masked subtree', () => {
    const mixer = new Mixer(skeleton);
    mixer.addLayer({ clip: clip('Walking'), time: 0.4 });
    const upper = createJointMask(skeleton, ['Torso']);
    mixer.addLayer({ clip: clip('Wave'), time: 0.4, mask: upper, weight: 1e9 });
    const out = new Pose(skeleton);
    mixer.evaluate(out);
    const walk = sampled(clip('Walking'), 0.4);
    const wave = sampled(clip('Wave'), 0.4);
    const torso = skeleton.jointIndex('Torso');
    for (let j = 0; j < skeleton.jointCount; j++) {
      const inUpper = skeleton.isAncestor(torso, j);
      expect(upper[j]).toBe(inUpper ? 1 : 0);
      sameRotation(out.rotations, inUpper ? wave.rotations : walk.rotations, j, 1e-15);
    }
  });

  it('adds an additive layer: the clip relative to a reference, put back on that reference, is the clip', () => {
    const reference = sampled(clip('Idle'), 0);
    const additive = makeAdditiveClip(clip('Yes'), reference);
    const mixer = new Mixer(skeleton);
    mixer.addLayer({ clip: clip('Idle'), time: 0, mode: 'clamp', speed: 0 });
    const nod = mixer.addLayer({ clip: additive, additive: true, time: 0.7 });
    const out = new Pose(skeleton);
    mixer.evaluate(out);
    const yes = sampled(clip('Yes'), 0.7);
    const animated = new Set([...clip('Yes').targets]);
    for (const j of animated) {
      sameRotation(out.rotations, yes.rotations, j, 1e-14);
      for (let c = 0; c < 3; c++)
        expect(out.translations[3 * j + c]).toBeCloseTo(yes.translations[3 * j + c], 12);
    }
    // Weight 0 leaves the base pose bit for bit.
    nod.weight = 0;
    mixer.evaluate(out);
    expect(out.rotations).toEqual(reference.rotations);
  });

  it('rejects invalid layers with typed errors and leaves the output untouched', () => {
    const mixer = new Mixer(skeleton);
    const fox = importGltf(readAsset('gltf', 'Fox.glb'));
    const expectCode = (fn: () => unknown, code: string) => {
      try {
        fn();
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(TendonError);
        expect((error as TendonError).code).toBe(code);
      }
    };
    expectCode(() => mixer.addLayer({ clip: clip('Walking'), weight: -1 }), 'mixer/invalid-layer');
    expectCode(() => mixer.addLayer({ clip: clip('Walking'), weight: Number.NaN }), 'mixer/invalid-layer');
    expectCode(
      () => mixer.addLayer({ clip: clip('Walking'), mask: new Float32Array(3) }),
      'mixer/invalid-layer',
    );
    expectCode(() => mixer.advance(Number.NaN), 'animation/invalid-time');
    expectCode(() => createJointMask(skeleton, ['NoSuchBone']), 'skeleton/unknown-joint');
    expectCode(() => createJointMask(skeleton, [999]), 'animation/invalid-mask');
    const layer = mixer.addLayer({ clip: clip('Walking') });
    layer.time = Number.POSITIVE_INFINITY;
    const out = new Pose(skeleton);
    out.translations.fill(5);
    expectCode(() => mixer.evaluate(out), 'mixer/invalid-layer');
    expect(out.translations.every((v) => v === 5)).toBe(true);
    return fox.then((f) => {
      expectCode(() => mixer.addLayer({ clip: f.skeletons[0].clips[0] }), 'mixer/invalid-layer');
    });
  });
  it('rejects a mask entry that is not a number in [0, 1] (set after addLayer too), naming layer and joint, output untouched', () => {
    const n = skeleton.jointCount;
    const expectMaskError = (mixer: Mixer, joint: number) => {
      const out = new Pose(skeleton);
      out.translations.fill(5);
      out.rotations.fill(5);
      try {
        mixer.evaluate(out);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(TendonError);
        expect((error as TendonError).code).toBe('mixer/invalid-layer');
        expect((error as TendonError).message).toContain('Mixer layer "Running');
        expect((error as TendonError).message).toContain(`mask[${joint}]`);
        expect((error as TendonError).message).toContain(`"${skeleton.names[joint]}"`);
      }
      expect(out.translations.every((v) => v === 5)).toBe(true);
      expect(out.rotations.every((v) => v === 5)).toBe(true);
    };
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0.5, 1.5]) {
      const mask = new Float32Array(n).fill(1);
      mask[3] = bad;
      // As an option of addLayer.
      expect(() => new Mixer(skeleton).addLayer({ clip: clip('Running'), mask: mask.slice() })).toThrow(
        /mask\[3\]/,
      );
      // Blended with a base layer, and written into the public field after addLayer.
      const blended = new Mixer(skeleton);
      blended.addLayer({ clip: clip('Walking') });
      blended.addLayer({ clip: clip('Running') }).mask = mask.slice();
      expectMaskError(blended, 3);
      // On an additive layer (where NaN used to replace the base rotation by identity).
      const additive = new Mixer(skeleton);
      additive.addLayer({ clip: clip('Walking') });
      additive.addLayer({
        clip: makeAdditiveClip(clip('Running'), sampled(clip('Idle'), 0)),
        additive: true,
      }).mask = mask.slice();
      expectMaskError(additive, 3);
    }
    // The bounds themselves are valid.
    const edges = new Float32Array(n).fill(0);
    edges[3] = 1;
    const mixer = new Mixer(skeleton);
    mixer.addLayer({ clip: clip('Walking') });
    mixer.addLayer({ clip: clip('Running'), mask: edges });
    expect(() => mixer.evaluate(new Pose(skeleton))).not.toThrow();
  });

  it('rejects a wrap mode other than loop or clamp at addLayer and at evaluate, output untouched', () => {
    for (const mode of ['Clamp', 'bogus', '', undefined as unknown as string, 1 as unknown as string]) {
      if (mode !== undefined) {
        expect(() =>
          new Mixer(skeleton).addLayer({ clip: clip('Walking'), time: 1.5, mode: mode as 'clamp' }),
        ).toThrow(expect.objectContaining({ code: 'mixer/invalid-layer' }));
      }
      const mixer = new Mixer(skeleton);
      const layer = mixer.addLayer({ clip: clip('Walking'), time: 1.5 });
      layer.mode = mode as 'clamp';
      const out = new Pose(skeleton);
      out.translations.fill(5);
      expect(() => mixer.evaluate(out)).toThrow(expect.objectContaining({ code: 'mixer/invalid-layer' }));
      expect(out.translations.every((v) => v === 5)).toBe(true);
    }
    // The valid modes still evaluate exactly what sampleClip gives.
    for (const mode of ['loop', 'clamp'] as const) {
      const mixer = new Mixer(skeleton);
      mixer.addLayer({ clip: clip('Walking'), time: 100.25, mode });
      const out = new Pose(skeleton);
      mixer.evaluate(out);
      const expected = new Pose(skeleton);
      sampleClip(clip('Walking'), new SamplerContext(clip('Walking')), 100.25, expected, mode);
      expect(out.rotations).toEqual(expected.rotations);
      expect(out.translations).toEqual(expected.translations);
    }
  });
});
