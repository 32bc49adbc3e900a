/** skinPalette against three.js: `bone.matrixWorld × boneInverse`, and Skeleton.boneMatrices. */
import { Bone, Matrix4, Skeleton } from 'three';
import { describe, expect, it } from 'vitest';
import { localToModel } from '../../src/kernel/local-to-model.js';
import * as mat4 from '../../src/kernel/mat4.js';
import { PALETTE_3X4, PALETTE_MAT4, skinPalette, skinPalettes } from '../../src/kernel/skin-palette.js';
import {
  expectClose,
  expectIdentical,
  expectRelClose,
  randInt,
  randomQuat,
  randomSkeleton,
  randomVec3,
  rng,
  type Skeleton as Sk,
  slice,
  threeHierarchy,
  uniform,
} from './helpers.js';

/** Moderate scales so that inverse bind matrices stay well conditioned down deep chains. */
const mildScale = (r: () => number): [number, number, number] => [
  uniform(r, 0.6, 1.6) * (r() < 0.15 ? -1 : 1),
  uniform(r, 0.6, 1.6),
  uniform(r, 0.6, 1.6),
];

function model(sk: Sk): Float64Array {
  const m = new Float64Array(16 * sk.n);
  localToModel(m, sk.parents, sk.t, sk.r, sk.s, 0, sk.n);
  return m;
}

/** A random choice of skin joints, in an order unrelated to the skeleton's. */
function pickJoints(r: () => number, n: number): Int32Array {
  const all = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = randInt(r, 0, i);
    [all[i], all[j]] = [all[j], all[i]];
  }
  return Int32Array.from(all.slice(0, randInt(r, 1, n)));
}

/** The same skeleton, moved: new rotations everywhere, new translations and scales on some joints. */
function posed(r: () => number, bind: Sk): Sk {
  const p: Sk = { ...bind, t: bind.t.slice(), r: bind.r.slice(), s: bind.s.slice() };
  for (let i = 0; i < p.n; i++) {
    p.r.set(randomQuat(r), 4 * i);
    if (r() < 0.3) p.t.set(randomVec3(r, 2), 3 * i);
    if (r() < 0.3) p.s.set(mildScale(r), 3 * i);
  }
  return p;
}

describe('skinPalette', () => {
  it('equals three.js bone.matrixWorld × boneInverse (inverses from Skeleton.calculateInverses)', () => {
    const r = rng(314);
    for (let trial = 0; trial < 100; trial++) {
      const bind = randomSkeleton(r, randInt(r, 1, 16), mildScale);
      const pose = posed(r, bind);
      const joints = pickJoints(r, bind.n);
      const k = joints.length;

      // tendon: inverse bind matrices from the bind pose, palette from the posed model matrices
      const bindModel = model(bind);
      const inverseBind = new Float64Array(16 * k);
      for (let j = 0; j < k; j++)
        expect(mat4.invert(inverseBind, 16 * j, bindModel, 16 * joints[j])).toBe(true);
      const palette = new Float64Array(16 * k);
      skinPalette(palette, model(pose), joints, inverseBind);

      // three.js: bones in the bind pose, calculateInverses, then the posed bones
      const bindBones = threeHierarchy(bind, () => new Bone());
      const skel = new Skeleton(Array.from(joints, (j) => bindBones[j]));
      skel.calculateInverses();
      const poseBones = threeHierarchy(pose, () => new Bone());
      for (let j = 0; j < k; j++) {
        const expected = new Matrix4().multiplyMatrices(
          poseBones[joints[j]].matrixWorld,
          skel.boneInverses[j],
        );
        expectRelClose(slice(palette, 16 * j, 16), expected.elements, 1e-11, `skin joint ${j}`);
      }
    }
  });

  it('is the identity in the bind pose', () => {
    const r = rng(2);
    for (let trial = 0; trial < 50; trial++) {
      const bind = randomSkeleton(r, randInt(r, 1, 12), mildScale);
      const joints = pickJoints(r, bind.n);
      const m = model(bind);
      const inverseBind = new Float64Array(16 * joints.length);
      for (let j = 0; j < joints.length; j++) mat4.invert(inverseBind, 16 * j, m, 16 * joints[j]);
      const palette = new Float64Array(16 * joints.length);
      skinPalette(palette, m, joints, inverseBind);
      for (let j = 0; j < joints.length; j++) {
        expectClose(
          slice(palette, 16 * j, 16),
          [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
          1e-11,
          'bind',
        );
      }
    }
  });

  it('is model[joints[k]] · inverseBind[k] (general multiply), last row exactly 0 0 0 1', () => {
    const r = rng(3);
    for (let trial = 0; trial < 50; trial++) {
      const sk = randomSkeleton(r, randInt(r, 1, 20));
      const m = model(sk);
      const joints = pickJoints(r, sk.n);
      const other = model(randomSkeleton(r, joints.length));
      const palette = new Float64Array(16 * joints.length);
      skinPalette(palette, m, joints, other);
      for (let j = 0; j < joints.length; j++) {
        const want = new Float64Array(16);
        mat4.multiply(want, 0, m, 16 * joints[j], other, 16 * j);
        expectIdentical(slice(palette, 16 * j, 16), want, `joint ${j}`);
        expectIdentical([palette[16 * j + 3], palette[16 * j + 7], palette[16 * j + 11]], [0, 0, 0], 'row 3');
        expect(palette[16 * j + 15]).toBe(1);
      }
    }
  });

  it('writes a Float32Array palette (GPU layout) that rounds the double palette and matches three’s boneMatrices', () => {
    const r = rng(4);
    for (let trial = 0; trial < 30; trial++) {
      const bind = randomSkeleton(r, randInt(r, 1, 12), mildScale);
      const pose = posed(r, bind);
      const bindBones = threeHierarchy(bind, () => new Bone());
      const skel = new Skeleton(bindBones);
      skel.calculateInverses();
      const poseBones = threeHierarchy(pose, () => new Bone());
      skel.bones = poseBones;
      skel.update();

      const joints = Int32Array.from({ length: bind.n }, (_, i) => i);
      const inverseBind = new Float64Array(16 * bind.n);
      for (let j = 0; j < bind.n; j++) inverseBind.set(skel.boneInverses[j].elements, 16 * j);
      const p64 = new Float64Array(16 * bind.n);
      const p32 = new Float32Array(16 * bind.n);
      skinPalette(p64, model(pose), joints, inverseBind);
      skinPalette(p32, model(pose), joints, inverseBind);
      expectIdentical(p32, Float32Array.from(p64), 'float32 = fround(float64)');
      expectRelClose(p32, skel.boneMatrices as Float32Array, 1e-6, 'vs three boneMatrices');
    }
  });

  it('with no skin joints writes nothing', () => {
    const out = new Float64Array(16).fill(5);
    skinPalette(out, new Float64Array(16), new Int32Array(0), new Float64Array(0));
    expect(out.every((x) => x === 5)).toBe(true);
  });
});

describe('skinPalettes (a crowd)', () => {
  /** A crowd of `count` poses of one random skeleton, side by side, and their model matrices. */
  function crowd(r: () => number, count: number) {
    const bind = randomSkeleton(r, randInt(r, 1, 14), mildScale);
    const poses = Array.from({ length: count }, () => posed(r, bind));
    const models = poses.map(model);
    const all = new Float64Array(16 * bind.n * count);
    models.forEach((m, c) => {
      all.set(m, 16 * bind.n * c);
    });
    const joints = pickJoints(r, bind.n);
    const bindModel = model(bind);
    const inverseBind = new Float64Array(16 * joints.length);
    for (let j = 0; j < joints.length; j++) mat4.invert(inverseBind, 16 * j, bindModel, 16 * joints[j]);
    return { n: bind.n, models, all, joints, inverseBind };
  }

  it('4×4: each character’s palette is skinPalette’s, bit for bit (Float32 and Float64)', () => {
    const r = rng(15);
    for (let trial = 0; trial < 40; trial++) {
      const count = randInt(r, 1, 6);
      const { n, models, all, joints, inverseBind } = crowd(r, count);
      const k = joints.length;
      for (const Out of [Float32Array, Float64Array]) {
        const palettes = new Out(PALETTE_MAT4 * k * count);
        skinPalettes(palettes, PALETTE_MAT4, all, n, joints, inverseBind, 0, count);
        for (let c = 0; c < count; c++) {
          const one = new Out(16 * k);
          skinPalette(one, models[c], joints, inverseBind);
          expectIdentical(slice(palettes, 16 * k * c, 16 * k), one, `character ${c}`);
        }
      }
    }
  });

  it('3×4: the 4×4 palette’s top three rows, row after row, a quarter smaller', () => {
    const r = rng(16);
    for (let trial = 0; trial < 40; trial++) {
      const count = randInt(r, 1, 6);
      const { n, all, joints, inverseBind } = crowd(r, count);
      const k = joints.length;
      const full = new Float32Array(PALETTE_MAT4 * k * count);
      const rows = new Float32Array(PALETTE_3X4 * k * count);
      skinPalettes(full, PALETTE_MAT4, all, n, joints, inverseBind, 0, count);
      skinPalettes(rows, PALETTE_3X4, all, n, joints, inverseBind, 0, count);
      expect(rows.length * 4).toBe(full.length * 3);
      for (let e = 0; e < k * count; e++) {
        // Row i of entry e: column-major elements i, 4 + i, 8 + i, 12 + i of the 4×4.
        const want = [0, 1, 2].flatMap((i) => [0, 4, 8, 12].map((c) => full[16 * e + c + i]));
        expectIdentical(slice(rows, 12 * e, 12), want, `entry ${e}`);
      }
      // A point skinned through the rows lands where the 4×4 puts it.
      const [x, y, z] = [0.3, -1.2, 0.7];
      const e = k * count - 1;
      for (let i = 0; i < 3; i++) {
        const viaRows =
          rows[12 * e + 4 * i] * x +
          rows[12 * e + 4 * i + 1] * y +
          rows[12 * e + 4 * i + 2] * z +
          rows[12 * e + 4 * i + 3];
        const viaMat4 =
          full[16 * e + i] * x + full[16 * e + 4 + i] * y + full[16 * e + 8 + i] * z + full[16 * e + 12 + i];
        expect(viaRows).toBe(viaMat4);
      }
    }
  });

  it('writes the characters of its range only', () => {
    const r = rng(17);
    const { n, all, joints, inverseBind } = crowd(r, 4);
    const k = joints.length;
    const palettes = new Float32Array(PALETTE_3X4 * k * 4).fill(7);
    skinPalettes(palettes, PALETTE_3X4, all, n, joints, inverseBind, 1, 2);
    expect(Array.from(slice(palettes, 0, 12 * k)).every((x) => x === 7)).toBe(true);
    expect(Array.from(slice(palettes, 36 * k, 12 * k)).every((x) => x === 7)).toBe(true);
    expect(Array.from(slice(palettes, 12 * k, 24 * k)).some((x) => x !== 7)).toBe(true);
  });
});
