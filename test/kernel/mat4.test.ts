/** mat4 kernels against gl-matrix (float64) and three.js on seeded random inputs. */
import fc from 'fast-check';
import { mat4 as gm } from 'gl-matrix';
import { Matrix4, Quaternion } from 'three';
import { describe, expect, it } from 'vitest';
import * as mat4 from '../../src/kernel/mat4.js';
import * as trs from '../../src/kernel/trs.js';
import type { NumericArray } from '../../src/kernel/types.js';
import {
  arbMat4,
  arbQuat,
  arbScale,
  arbVec3,
  expectClose,
  expectExact,
  expectIdentical,
  expectRelClose,
  RUNS,
  rng,
  uniform,
} from './helpers.js';

const F = (a: ArrayLike<number>) => Float64Array.from(a);
const m16 = () => new Float64Array(16);
const I = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

function composed(t: NumericArray, q: NumericArray, s: NumericArray): Float64Array {
  const m = m16();
  trs.compose(m, 0, t, 0, q, 0, s, 0);
  return m;
}

/** An affine matrix: translate · rotate · scale, with scales in ±[0.1, 5]. */
const arbAffine = fc.tuple(arbVec3(), arbQuat, arbScale).map(([t, q, s]) => composed(t, q, s));
/** A general matrix with uniform entries in [-2, 2] (fast-check's doubles are too often degenerate). */
const arbUniformMat4 = fc.integer().map((seed) => {
  const r = rng(seed);
  return Array.from({ length: 16 }, () => uniform(r, -2, 2));
});
/** A rigid matrix: translate · rotate. */
const arbRigid = fc.tuple(arbVec3(), arbQuat).map(([t, q]) => composed(t, q, [1, 1, 1]));

describe('mat4', () => {
  it('identity and copy', () => {
    const o = new Array<number>(18).fill(9);
    mat4.identity(o, 1);
    expect(o).toEqual([9, ...I, 9]);
    const c = m16();
    mat4.copy(c, 0, o, 1);
    expectExact(c, I);
  });

  it('copy within one array handles overlapping ranges in both directions (memmove)', () => {
    for (const shift of [-15, -7, -1, 1, 7, 15]) {
      const buf = Array.from({ length: 48 }, (_, i) => i);
      const expected = buf.slice();
      expected.copyWithin(16 + shift, 16, 32);
      mat4.copy(buf, 16 + shift, buf, 16);
      expect(buf).toEqual(expected);
    }
  });

  it('multiply matches gl-matrix mat4.multiply on general matrices', () => {
    fc.assert(
      fc.property(arbMat4, arbMat4, (a, b) => {
        const o = m16();
        mat4.multiply(o, 0, a, 0, b, 0);
        expectClose(o, gm.multiply(m16(), F(a), F(b)), 1e-14, 'multiply');
      }),
      RUNS,
    );
  });

  it('multiply is column-major and applies b first: T(t) · S(s) translates by t, not s·t', () => {
    const T = gm.fromTranslation(m16(), [1, 2, 3]) as Float64Array;
    const S = gm.fromScaling(m16(), [2, 3, 4]) as Float64Array;
    const o = m16();
    mat4.multiply(o, 0, T, 0, S, 0);
    expectExact(o, [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1]);
    mat4.multiply(o, 0, S, 0, T, 0);
    expectExact(o, [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 2, 6, 12, 1]);
  });

  it('multiplyAffine equals multiply on affine inputs, with an exact 0 0 0 1 last row', () => {
    fc.assert(
      fc.property(arbAffine, arbAffine, (a, b) => {
        const o = m16();
        const g = m16();
        mat4.multiplyAffine(o, 0, a, 0, b, 0);
        mat4.multiply(g, 0, a, 0, b, 0);
        expectExact(o, g, 'multiplyAffine vs multiply');
        expectIdentical([o[3], o[7], o[11], o[15]], [0, 0, 0, 1], 'last row');
        const three = new Matrix4().multiplyMatrices(
          new Matrix4().fromArray(Array.from(a)),
          new Matrix4().fromArray(Array.from(b)),
        );
        expectRelClose(o, three.elements, 1e-14, 'vs three multiplyMatrices');
      }),
      RUNS,
    );
  });

  it('invert matches gl-matrix mat4.invert, and A · A⁻¹ = I', () => {
    fc.assert(
      fc.property(arbUniformMat4, (a) => {
        const det = gm.determinant(F(a));
        fc.pre(Math.abs(det) > 1e-3);
        const o = m16();
        expect(mat4.invert(o, 0, a, 0)).toBe(true);
        const g = gm.invert(m16(), F(a));
        expect(g).not.toBeNull();
        expectRelClose(o, g as Float64Array, 1e-14, 'invert vs gl-matrix');
        // residual scales with the condition number; these are mildly conditioned
        const p = m16();
        mat4.multiply(p, 0, a, 0, o, 0);
        let norm = 0;
        for (let i = 0; i < 16; i++) norm = Math.max(norm, Math.abs(o[i]));
        expectClose(p, I, 1e-13 * norm * 8, 'A A⁻¹');
      }),
      RUNS,
    );
  });

  it('invert of TRS matrices matches three.js Matrix4.invert', () => {
    fc.assert(
      fc.property(arbAffine, (a) => {
        const o = m16();
        expect(mat4.invert(o, 0, a, 0)).toBe(true);
        const t = new Matrix4().fromArray(Array.from(a)).invert();
        expectRelClose(o, t.elements, 1e-13, 'invert vs three');
        const p = m16();
        mat4.multiply(p, 0, o, 0, a, 0);
        expectClose(p, I, 1e-13 * 50, 'A⁻¹ A');
      }),
      RUNS,
    );
  });

  it('invert returns false on singular matrices and leaves out untouched', () => {
    const singular: number[][] = [
      new Array(16).fill(0),
      Array.from(composed([1, 2, 3], [0, 0, 0, 1], [1, 0, 1])), // zero scale on y
      Array.from(composed([1, 2, 3], [0.5, 0.5, 0.5, 0.5], [0, 2, 3])), // zero scale on x, rotated
      [1, 2, 3, 4, 2, 4, 6, 8, 0, 1, 0, 1, 5, 6, 7, 8], // column 1 = 2 · column 0 (exact integers)
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], // rank 2, det exactly 0 in doubles
      [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0], // projective, w row zero
      [1e-80, 0, 0, 0, 0, 1e-80, 0, 0, 0, 0, 1e-80, 0, 0, 0, 0, 1e-80], // subnormal: no finite 1/det
      [Number.NaN, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
      [Number.POSITIVE_INFINITY, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
    ];
    for (const a of singular) {
      const out = Array.from({ length: 20 }, (_, i) => 100 + i);
      const before = out.slice();
      expect(mat4.invert(out, 2, a, 0)).toBe(false);
      expectIdentical(out, before, `invert(${a}) touched out`);
      // and in place: the input stays as it was
      const inPlace = a.slice();
      expect(mat4.invert(inPlace, 0, inPlace, 0)).toBe(false);
      expectIdentical(inPlace, a, 'in-place singular invert touched its input');
    }
  });

  it('invertAffine equals invert and three.js on affine matrices (scaled, mirrored, sheared)', () => {
    fc.assert(
      fc.property(arbAffine, arbAffine, (a, b) => {
        // A product of two TRS matrices with non-uniform scales is sheared.
        const m = m16();
        mat4.multiply(m, 0, a, 0, b, 0);
        const o = m16();
        const g = m16();
        expect(mat4.invertAffine(o, 0, m, 0)).toBe(true);
        expect(mat4.invert(g, 0, m, 0)).toBe(true);
        expectRelClose(o, g, 1e-12, 'invertAffine vs invert');
        expectIdentical([o[3], o[7], o[11], o[15]], [0, 0, 0, 1], 'last row');
        const t = new Matrix4().fromArray(Array.from(m)).invert();
        expectRelClose(o, t.elements, 1e-12, 'invertAffine vs three');
        const p = m16();
        mat4.multiply(p, 0, o, 0, m, 0);
        let norm = 0;
        for (let i = 0; i < 16; i++) norm = Math.max(norm, Math.abs(o[i]), Math.abs(m[i]));
        expectClose(p, I, 1e-13 * norm * norm * 8, 'A⁻¹ A');
      }),
      RUNS,
    );
  });

  it('invertAffine returns false on singular or non-finite matrices and leaves out untouched', () => {
    const singular: number[][] = [
      new Array(16).fill(0),
      Array.from(composed([1, 2, 3], [0, 0, 0, 1], [1, 0, 1])),
      Array.from(composed([1, 2, 3], [0.5, 0.5, 0.5, 0.5], [0, 2, 3])),
      [1, 2, 3, 0, 2, 4, 6, 0, 0, 1, 0, 0, 5, 6, 7, 1], // column 1 = 2 · column 0
      [1e-120, 0, 0, 0, 0, 1e-120, 0, 0, 0, 0, 1e-120, 0, 0, 0, 0, 1], // determinant underflows
      [1e-105, 0, 0, 0, 0, 1e-105, 0, 0, 0, 0, 1e-105, 0, 0, 0, 0, 1], // subnormal: no finite 1/det
      [Number.NaN, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
      [Number.POSITIVE_INFINITY, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
    ];
    for (const a of singular) {
      const out = Array.from({ length: 20 }, (_, i) => 100 + i);
      const before = out.slice();
      expect(mat4.invertAffine(out, 2, a, 0)).toBe(false);
      expectIdentical(out, before, `invertAffine(${a}) touched out`);
      const inPlace = a.slice();
      expect(mat4.invertAffine(inPlace, 0, inPlace, 0)).toBe(false);
      expectIdentical(inPlace, a, 'in-place singular invertAffine touched its input');
    }
  });

  it('invertRigid equals invert on rigid matrices', () => {
    fc.assert(
      fc.property(arbRigid, (a) => {
        const o = m16();
        const g = m16();
        mat4.invertRigid(o, 0, a, 0);
        expect(mat4.invert(g, 0, a, 0)).toBe(true);
        expectClose(o, g, 1e-14 * 20, 'invertRigid vs invert');
        expectIdentical([o[3], o[7], o[11], o[15]], [0, 0, 0, 1], 'last row');
      }),
      RUNS,
    );
  });

  it('determinant matches gl-matrix, equals sx·sy·sz for TRS, and is multiplicative', () => {
    fc.assert(
      fc.property(arbMat4, arbQuat, arbScale, arbVec3(), (a, q, s, t) => {
        expect(mat4.determinant(a, 0)).toBeCloseTo(gm.determinant(F(a)), 13);
        const m = composed(t, q, s);
        const d = mat4.determinant(m, 0);
        expect(Math.abs(d - s[0] * s[1] * s[2])).toBeLessThan(1e-13 * Math.max(1, Math.abs(d)));
        const ab = m16();
        mat4.multiply(ab, 0, a, 0, m, 0);
        const want = mat4.determinant(a, 0) * d;
        expect(Math.abs(mat4.determinant(ab, 0) - want)).toBeLessThan(1e-12 * Math.max(1, Math.abs(d) * 64));
      }),
      RUNS,
    );
  });

  it("mirrored: the sign of the linear part's determinant (a TRS mirrors when sx·sy·sz < 0), at an offset", () => {
    fc.assert(
      fc.property(arbMat4, arbQuat, arbScale, arbVec3(), (a, q, s, t) => {
        // The 3×3 determinant, by gl-matrix's 4×4 one with the translation and last row cleared.
        const linear = F(a);
        linear.set([0, 0, 0, 1], 12);
        linear[3] = linear[7] = linear[11] = 0;
        const d = gm.determinant(linear);
        if (Math.abs(d) > 1e-12) expect(mat4.mirrored(a, 0)).toBe(d < 0);
        const m = composed(t, q, s);
        const at = new Float64Array(21);
        at.set(m, 5);
        expect(mat4.mirrored(at, 5)).toBe(s[0] * s[1] * s[2] < 0);
      }),
      RUNS,
    );
  });

  it('fromQuat matches gl-matrix mat4.fromQuat and three.js makeRotationFromQuaternion', () => {
    fc.assert(
      fc.property(arbQuat, (q) => {
        const o = m16();
        mat4.fromQuat(o, 0, q, 0);
        expectClose(o, gm.fromQuat(m16(), F(q)), 1e-15 * 4, 'fromQuat vs gl-matrix');
        const t = new Matrix4().makeRotationFromQuaternion(new Quaternion(q[0], q[1], q[2], q[3]));
        expectClose(o, t.elements, 1e-15 * 4, 'fromQuat vs three');
        expectIdentical(
          [o[3], o[7], o[11], o[12], o[13], o[14], o[15]],
          [0, 0, 0, 0, 0, 0, 1],
          'no translation',
        );
        expect(mat4.determinant(o, 0)).toBeCloseTo(1, 14);
      }),
      RUNS,
    );
  });

  it('fromQuat: index 6 (row 2, column 1, 0-based) is 2(yz + wx) and index 9 is 2(yz − wx)', () => {
    const [x, y, z, w] = [1 / Math.sqrt(30), 2 / Math.sqrt(30), 3 / Math.sqrt(30), 4 / Math.sqrt(30)];
    const o = m16();
    mat4.fromQuat(o, 0, [x, y, z, w], 0);
    expect(o[6]).toBeCloseTo(2 * (y * z + w * x), 15); // 20/30
    expect(o[9]).toBeCloseTo(2 * (y * z - w * x), 15); // 4/30
    expect(o[6]).toBeCloseTo(2 / 3, 15);
    expect(o[9]).toBeCloseTo(4 / 30, 15);
    expect(o[1]).toBeCloseTo(2 * (x * y + w * z), 15);
    expect(o[2]).toBeCloseTo(2 * (x * z - w * y), 15);
    expect(o[4]).toBeCloseTo(2 * (x * y - w * z), 15);
    expect(o[8]).toBeCloseTo(2 * (x * z + w * y), 15);
    expect(o[0]).toBeCloseTo(1 - 2 * (y * y + z * z), 15);
    expect(o[5]).toBeCloseTo(1 - 2 * (x * x + z * z), 15);
    expect(o[10]).toBeCloseTo(1 - 2 * (x * x + y * y), 15);
  });
});
