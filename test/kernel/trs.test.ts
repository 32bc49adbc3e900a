/**
 * trs.compose / trs.decompose against gl-matrix `mat4.fromRotationTranslationScale` and three.js
 * `Matrix4.compose` / `Matrix4.decompose`.
 */
import fc from 'fast-check';
import { mat4 as gm } from 'gl-matrix';
import { Matrix4, Quaternion, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import * as mat4 from '../../src/kernel/mat4.js';
import * as trs from '../../src/kernel/trs.js';
import type { NumericArray } from '../../src/kernel/types.js';
import {
  arbQuat,
  arbScale,
  arbVec3,
  embed,
  expectAllFinite,
  expectClose,
  expectExact,
  expectGarbageUntouched,
  expectIdentical,
  expectRelClose,
  expectSameRotation,
  RUNS,
  randomQuat,
  randomScale,
  randomVec3,
  rng,
  slice,
} from './helpers.js';

const F = (a: ArrayLike<number>) => Float64Array.from(a);
const m16 = () => new Float64Array(16);

function composed(t: NumericArray, q: NumericArray, s: NumericArray): Float64Array {
  const m = m16();
  trs.compose(m, 0, t, 0, q, 0, s, 0);
  return m;
}

function decomposed(m: NumericArray) {
  const t = [0, 0, 0];
  const q = [0, 0, 0, 0];
  const s = [0, 0, 0];
  const ok = trs.decompose(t, 0, q, 0, s, 0, m, 0);
  return { t, q, s, ok };
}

describe('trs.compose', () => {
  it('matches gl-matrix fromRotationTranslationScale and three.js Matrix4.compose', () => {
    fc.assert(
      fc.property(arbVec3(), arbQuat, arbScale, (t, q, s) => {
        const m = composed(t, q, s);
        expectClose(m, gm.fromRotationTranslationScale(m16(), F(q), F(t), F(s)), 1e-14, 'vs gl-matrix');
        const three = new Matrix4().compose(
          new Vector3(...t),
          new Quaternion(q[0], q[1], q[2], q[3]),
          new Vector3(...s),
        );
        expectClose(m, three.elements, 1e-14, 'vs three');
        expectIdentical([m[3], m[7], m[11], m[15]], [0, 0, 0, 1], 'last row');
        expectIdentical([m[12], m[13], m[14]], t, 'translation column');
      }),
      RUNS,
    );
  });

  it('is translate · rotate · scale (scale first, in the bone frame)', () => {
    fc.assert(
      fc.property(arbVec3(), arbQuat, arbScale, (t, q, s) => {
        const T = gm.fromTranslation(m16(), F(t));
        const R = m16();
        mat4.fromQuat(R, 0, q, 0);
        const S = gm.fromScaling(m16(), F(s));
        const want = gm.multiply(m16(), T, gm.multiply(m16(), R, S));
        expectClose(composed(t, q, s), want, 1e-14, 'T·R·S');
      }),
      RUNS,
    );
  });

  it('misprint guard: index 6 = 2(yz + wx)·sy and index 9 = 2(yz − wx)·sz on q ∝ (1, 2, 3, 4)', () => {
    const n = Math.sqrt(30);
    const [x, y, z, w] = [1 / n, 2 / n, 3 / n, 4 / n];
    const m = composed([0, 0, 0], [x, y, z, w], [1, 1, 1]);
    expect(m[6]).toBeCloseTo(2 * (y * z + w * x), 15);
    expect(m[6]).toBeCloseTo(20 / 30, 15);
    expect(m[9]).toBeCloseTo(2 * (y * z - w * x), 15);
    expect(m[9]).toBeCloseTo(4 / 30, 15);
    const ms = composed([5, 6, 7], [x, y, z, w], [2, 3, 5]);
    expect(ms[6]).toBeCloseTo((20 / 30) * 3, 14); // column 1 carries sy
    expect(ms[9]).toBeCloseTo((4 / 30) * 5, 14); // column 2 carries sz
    expect(ms[1]).toBeCloseTo(2 * (x * y + w * z) * 2, 14); // column 0 carries sx
  });
});

describe('trs.composeAfter', () => {
  it('is compose followed by mat4.multiplyAffine, bit for bit (scaled, mirrored parents)', () => {
    fc.assert(
      fc.property(arbVec3(), arbQuat, arbScale, arbVec3(), arbQuat, arbScale, (pt, pq, ps, t, q, s) => {
        const parent = composed(pt, pq, ps);
        const want = m16();
        mat4.multiplyAffine(want, 0, parent, 0, composed(t, q, s), 0);
        const got = m16();
        trs.composeAfter(got, 0, parent, 0, t, 0, q, 0, s, 0);
        expectIdentical(got, want, 'composeAfter vs compose + multiplyAffine');
      }),
      RUNS,
    );
  });
});

describe('trs.decompose', () => {
  it('round-trips compose with positive scales: t exact, s and ±q to 1e-14', () => {
    const pos = arbScale.map((s) => s.map(Math.abs));
    fc.assert(
      fc.property(arbVec3(), arbQuat, pos, (t, q, s) => {
        const d = decomposed(composed(t, q, s));
        expect(d.ok).toBe(true);
        expectIdentical(d.t, t, 't');
        expectRelClose(d.s, s, 1e-14, 's');
        // the rotation is recovered up to the conditioning of the column normalization
        expectSameRotation(d.q, q, 1e-14, 'q');
        expect(Math.abs(Math.hypot(...d.q) - 1)).toBeLessThan(4.5e-16);
      }),
      RUNS,
    );
  });

  it('with any scale signs: recomposes to the same matrix; mirrored matrices get a negative X scale', () => {
    fc.assert(
      fc.property(arbVec3(), arbQuat, arbScale, (t, q, s) => {
        const m = composed(t, q, s);
        const d = decomposed(m);
        expect(d.ok).toBe(true);
        const mirrored = s[0] * s[1] * s[2] < 0;
        expect(d.s[0] < 0).toBe(mirrored);
        expect(d.s[1]).toBeGreaterThan(0);
        expect(d.s[2]).toBeGreaterThan(0);
        expectRelClose(composed(d.t, d.q, d.s), m, 1e-14, 'recomposed');
        // |scale| is recovered whatever the signs
        expectRelClose(d.s.map(Math.abs), s.map(Math.abs), 1e-14, '|s|');
      }),
      RUNS,
    );
  });

  it('matches three.js Matrix4.decompose (including mirrored matrices)', () => {
    fc.assert(
      fc.property(arbVec3(), arbQuat, arbScale, (t, q, s) => {
        const m = composed(t, q, s);
        const d = decomposed(m);
        const tp = new Vector3();
        const tq = new Quaternion();
        const ts = new Vector3();
        new Matrix4().fromArray(Array.from(m)).decompose(tp, tq, ts);
        expectExact(d.t, [tp.x, tp.y, tp.z], 't');
        expectRelClose(d.s, [ts.x, ts.y, ts.z], 1e-14, 's');
        expectSameRotation(d.q, [tq.x, tq.y, tq.z, tq.w], 1e-14, 'q');
      }),
      RUNS,
    );
  });

  it('a hand-made mirror: reflection through the xy plane, rotated and translated', () => {
    const h = Math.SQRT1_2;
    const R = composed([1, 2, 3], [0, h, 0, h], [1, 1, 1]);
    const Z = gm.fromScaling(m16(), [1, 1, -1]);
    const m = gm.multiply(m16(), R, Z) as Float64Array;
    expect(mat4.determinant(m, 0)).toBeLessThan(0);
    const d = decomposed(m);
    expect(d.ok).toBe(true);
    expectClose(d.s, [-1, 1, 1], 1e-15, 's');
    expectIdentical(d.t, [1, 2, 3], 't');
    expectRelClose(composed(d.t, d.q, d.s), m, 1e-15, 'recomposed');
    // proper rotation: det R(q) = +1
    const rq = m16();
    mat4.fromQuat(rq, 0, d.q, 0);
    expect(mat4.determinant(rq, 0)).toBeCloseTo(1, 14);
  });

  it('decomposes the identity into (0,0,0), (0,0,0,1), (1,1,1) exactly', () => {
    const d = decomposed([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    expect(d.ok).toBe(true);
    expectExact(d.t, [0, 0, 0]);
    expectExact(d.q, [0, 0, 0, 1]);
    expectExact(d.s, [1, 1, 1]);
  });

  it('a zero scale returns false with the identity rotation, the translation and the scales, never NaN', () => {
    const cases: [number[], number[]][] = [
      [[0, 1, 1], randomQuat(rng(1))],
      [[2, 0, 3], randomQuat(rng(2))],
      [[2, 3, 0], randomQuat(rng(3))],
      [[0, 0, 0], randomQuat(rng(4))],
      [[0, -2, 0.5], randomQuat(rng(5))],
      [
        [-0, 1, 1],
        [0, 0, 0, 1],
      ],
    ];
    for (const [s, q] of cases) {
      const m = composed([4, -5, 6], q, s);
      const t = [9, 9, 9];
      const qo = [9, 9, 9, 9];
      const so = [9, 9, 9];
      expect(trs.decompose(t, 0, qo, 0, so, 0, m, 0)).toBe(false);
      expectAllFinite([...t, ...qo, ...so], `decompose scale ${s}`);
      expectIdentical(qo, [0, 0, 0, 1], 'q');
      expectExact(t, [4, -5, 6], 't');
      expectClose(so.map(Math.abs), s.map(Math.abs), 1e-15, 's');
      expect(so.filter((x) => x === 0).length).toBe(s.filter((x) => x === 0).length);
    }
  });

  it('reads and writes only its slots at non-zero offsets inside larger arrays', () => {
    const r = rng(77);
    for (let trial = 0; trial < 50; trial++) {
      const src = composed(randomVec3(r, 5), randomQuat(r), randomScale(r));
      const ref = decomposed(src);
      const mb = embed(src, 3, r);
      const mBefore = mb.slice();
      const tb = embed([0, 0, 0], 5, r);
      const qb = embed([0, 0, 0, 0], 2, r);
      const sb = embed([0, 0, 0], 7, r);
      const [tB, qB, sB] = [tb.slice(), qb.slice(), sb.slice()];
      expect(trs.decompose(tb, 5, qb, 2, sb, 7, mb, 3)).toBe(true);
      expectIdentical(slice(tb, 5, 3), ref.t, 't');
      expectIdentical(slice(qb, 2, 4), ref.q, 'q');
      expectIdentical(slice(sb, 7, 3), ref.s, 's');
      expectIdentical(mb, mBefore, 'm is read only');
      expectGarbageUntouched(tb, tB, 5, 3, 't buffer');
      expectGarbageUntouched(qb, qB, 2, 4, 'q buffer');
      expectGarbageUntouched(sb, sB, 7, 3, 's buffer');
    }
  });

  it('outputs may share the matrix array: q over the rotation block, s and t at the same offset', () => {
    const r = rng(78);
    for (let trial = 0; trial < 50; trial++) {
      const src = composed(randomVec3(r, 5), randomQuat(r), randomScale(r));
      const ref = decomposed(src);
      // t in place of the translation column, q over columns 0–1, s over column 2
      const buf = embed(src, 4, r);
      expect(trs.decompose(buf, 4 + 12, buf, 4, buf, 4 + 8, buf, 4)).toBe(true);
      expectIdentical(slice(buf, 16, 3), ref.t, 't');
      expectIdentical(slice(buf, 4, 4), ref.q, 'q');
      expectIdentical(slice(buf, 12, 3), ref.s, 's');
      // each output at exactly the matrix's offset
      for (const which of ['t', 'q', 's'] as const) {
        const b = embed(src, 4, r);
        const t = which === 't' ? b : [0, 0, 0];
        const q = which === 'q' ? b : [0, 0, 0, 0];
        const s = which === 's' ? b : [0, 0, 0];
        trs.decompose(t, which === 't' ? 4 : 0, q, which === 'q' ? 4 : 0, s, which === 's' ? 4 : 0, b, 4);
        expectIdentical(slice(t, which === 't' ? 4 : 0, 3), ref.t, `${which} aliased: t`);
        expectIdentical(slice(q, which === 'q' ? 4 : 0, 4), ref.q, `${which} aliased: q`);
        expectIdentical(slice(s, which === 's' ? 4 : 0, 3), ref.s, `${which} aliased: s`);
      }
    }
  });

  it('q and s may overlap the matrix at any shifted offset', () => {
    const r = rng(79);
    for (let trial = 0; trial < 20; trial++) {
      const src = composed(randomVec3(r, 5), randomQuat(r), randomScale(r));
      const ref = decomposed(src);
      for (let shift = -3; shift <= 15; shift++) {
        const b = embed(src, 8, r);
        const q = [0, 0, 0, 0];
        trs.decompose([0, 0, 0], 0, b, 8 + shift, [0, 0, 0], 0, b, 8);
        expectIdentical(slice(b, 8 + shift, 4), ref.q, `q at shift ${shift}`);
        if (shift >= -2) {
          const b2 = embed(src, 8, r);
          trs.decompose([0, 0, 0], 0, q, 0, b2, 8 + shift, b2, 8);
          expectIdentical(slice(b2, 8 + shift, 3), ref.s, `s at shift ${shift}`);
        }
      }
    }
  });

  // decompose reads the translation before writing t, so t may overlap it one or two slots on.
  it('t may overlap the matrix translation at a shifted offset', () => {
    const r = rng(80);
    const src = composed([4, -5, 6], randomQuat(r), [1, 2, 3]);
    for (let shift = -2; shift <= 15; shift++) {
      const b = embed(src, 8, r);
      trs.decompose(b, 8 + shift, [0, 0, 0, 0], 0, [0, 0, 0], 0, b, 8);
      expectIdentical(slice(b, 8 + shift, 3), [4, -5, 6], `t at shift ${shift}`);
    }
  });
});
