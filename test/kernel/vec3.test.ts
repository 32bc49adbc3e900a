/** vec3 kernels against gl-matrix (float64) on seeded random inputs. */
import fc from 'fast-check';
import { vec3 as gv, mat3, mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import * as trs from '../../src/kernel/trs.js';
import * as vec3 from '../../src/kernel/vec3.js';
import { arbQuat, arbScale, arbVec3, expectClose, expectExact, RUNS } from './helpers.js';

const F = (a: ArrayLike<number>) => Float64Array.from(a);
const out3 = () => new Float64Array(3);

describe('vec3', () => {
  it('set and copy', () => {
    const o = [9, 9, 9, 9, 9];
    vec3.set(o, 1, 1, -2, 3);
    expect(o).toEqual([9, 1, -2, 3, 9]);
    const c = [0, 0, 0];
    vec3.copy(c, 0, o, 1);
    expect(c).toEqual([1, -2, 3]);
  });

  it('add, sub, scale, scaleAndAdd, cross, lerp match gl-matrix', () => {
    fc.assert(
      fc.property(arbVec3(), arbVec3(), fc.double({ min: -4, max: 4, noNaN: true }), (a, b, s) => {
        const o = out3();
        const g = out3();
        vec3.add(o, 0, a, 0, b, 0);
        expectExact(o, gv.add(g, F(a), F(b)), 'add');
        vec3.sub(o, 0, a, 0, b, 0);
        expectExact(o, gv.subtract(g, F(a), F(b)), 'sub');
        vec3.scale(o, 0, a, 0, s);
        expectExact(o, gv.scale(g, F(a), s), 'scale');
        vec3.scaleAndAdd(o, 0, a, 0, b, 0, s);
        expectExact(o, gv.scaleAndAdd(g, F(a), F(b), s), 'scaleAndAdd');
        vec3.cross(o, 0, a, 0, b, 0);
        expectExact(o, gv.cross(g, F(a), F(b)), 'cross');
        vec3.lerp(o, 0, a, 0, b, 0, s);
        expectClose(o, gv.lerp(g, F(a), F(b), s), 1e-13 * (1 + Math.abs(s)) * 10, 'lerp');
      }),
      RUNS,
    );
  });

  it('dot, length, lengthSq, distance match gl-matrix', () => {
    fc.assert(
      fc.property(arbVec3(), arbVec3(), (a, b) => {
        expect(vec3.dot(a, 0, b, 0)).toBe(gv.dot(F(a), F(b)));
        expect(vec3.lengthSq(a, 0)).toBe(gv.squaredLength(F(a)));
        expect(vec3.length(a, 0)).toBeCloseTo(gv.length(F(a)), 12);
        expect(vec3.distance(a, 0, b, 0)).toBeCloseTo(gv.distance(F(a), F(b)), 12);
      }),
      RUNS,
    );
  });

  it('cross is right-handed: x × y = z', () => {
    const o = out3();
    vec3.cross(o, 0, [1, 0, 0], 0, [0, 1, 0], 0);
    expectExact(o, [0, 0, 1]);
  });

  it('normalize gives unit vectors, matches gl-matrix, and keeps zero at zero', () => {
    fc.assert(
      fc.property(arbVec3(), (a) => {
        fc.pre(Math.hypot(...a) > 1e-150);
        const o = out3();
        vec3.normalize(o, 0, a, 0);
        expectClose(o, gv.normalize(out3(), F(a)), 1e-15, 'normalize');
        expect(Math.abs(vec3.length(o, 0) - 1)).toBeLessThan(4e-16);
      }),
      RUNS,
    );
    const z = [5, 5, 5];
    vec3.normalize(z, 0, [0, 0, 0], 0);
    expectExact(z, [0, 0, 0], 'normalize(0)');
  });

  it('normalizeScaled: gl-matrix’s direction at every scale, 1e-300 to 1e300; zero, NaN and infinity refused, out untouched', () => {
    fc.assert(
      fc.property(arbVec3(), fc.integer({ min: -300, max: 300 }), (a, e) => {
        fc.pre(Math.hypot(...a) > 1e-6);
        const o = out3();
        const s = 10 ** e;
        expect(vec3.normalizeScaled(o, 0, [a[0] * s, a[1] * s, a[2] * s], 0)).toBe(true);
        expectClose(o, gv.normalize(out3(), F(a)), 1e-15, `normalizeScaled at 1e${e}`);
        expect(Math.abs(vec3.length(o, 0) - 1)).toBeLessThan(4e-16);
      }),
      RUNS,
    );
    for (const bad of [
      [0, 0, 0],
      [Number.NaN, 1, 0],
      [1, Number.NaN, 0],
      [0, 1, Number.POSITIVE_INFINITY],
    ]) {
      const o = [5, 5, 5, 5];
      expect(vec3.normalizeScaled(o, 1, bad, 0)).toBe(false);
      expectExact(o, [5, 5, 5, 5], `normalizeScaled(${bad})`);
    }
    // In place, at offsets.
    const p = [7, 0, 3e-200, 4e-200];
    expect(vec3.normalizeScaled(p, 1, p, 1)).toBe(true);
    expectClose(p, [7, 0, 0.6, 0.8], 1e-16, 'in place');
  });

  it('lerp hits its endpoints exactly at t = 0 and t = 1', () => {
    fc.assert(
      fc.property(arbVec3(), arbVec3(), (a, b) => {
        const o = out3();
        vec3.lerp(o, 0, a, 0, b, 0, 0);
        expectExact(o, a, 'lerp t=0');
        vec3.lerp(o, 0, a, 0, b, 0, 1);
        // a + (b − a) is b up to one rounding of the subtraction.
        expectClose(o, b, 1e-14 * 10, 'lerp t=1');
      }),
      RUNS,
    );
  });

  it('transformPoint and transformDirection match gl-matrix transformMat4 / transformMat3', () => {
    fc.assert(
      fc.property(arbVec3(), arbQuat, arbScale, arbVec3(), (t, q, s, p) => {
        const m = new Float64Array(16);
        trs.compose(m, 0, t, 0, q, 0, s, 0);
        const o = out3();
        vec3.transformPoint(o, 0, m, 0, p, 0);
        expectClose(o, gv.transformMat4(out3(), F(p), m), 1e-13, 'transformPoint');
        vec3.transformDirection(o, 0, m, 0, p, 0);
        const m3 = mat3.fromMat4(new Float64Array(9), m);
        expectClose(o, gv.transformMat3(out3(), F(p), m3), 1e-13, 'transformDirection');
      }),
      RUNS,
    );
  });

  it('transformPoint uses the translation column (12, 13, 14); transformDirection ignores it', () => {
    const m = mat4.fromTranslation(new Float64Array(16), [10, 20, 30]) as Float64Array;
    m[4] = 2; // (row 0, column 1)
    const o = out3();
    vec3.transformPoint(o, 0, m, 0, [1, 1, 1], 0);
    expectExact(o, [13, 21, 31]);
    vec3.transformDirection(o, 0, m, 0, [1, 1, 1], 0);
    expectExact(o, [3, 1, 1]);
  });

  it('distanceInto: Math.hypot to rounding at every scale, where squares would overflow or underflow too', () => {
    const expo = fc.integer({ min: -1022, max: 1020 });
    fc.assert(
      fc.property(arbVec3(), arbVec3(), expo, (a, b, e) => {
        const o = [0, 7];
        vec3.distanceInto(o, 1, a, 0, b, 0);
        expect(o[0]).toBe(0);
        const plain = gv.distance(F(a), F(b));
        // gl-matrix squares: below 1e-154 its distance underflows, ours does not.
        expect(Math.abs(o[1] - plain)).toBeLessThanOrEqual(4e-16 * plain + 1e-150);
        // Both points scaled by a power of two, from subnormal to near overflow.
        const k = 2 ** e;
        const sa = a.map((x) => x * k);
        const sb = b.map((x) => x * k);
        vec3.distanceInto(o, 0, sa, 0, sb, 0);
        const want = Math.hypot(sa[0] - sb[0], sa[1] - sb[1], sa[2] - sb[2]);
        expect(Math.abs(o[0] - want)).toBeLessThanOrEqual(4e-16 * want + 5e-324);
      }),
      RUNS,
    );
    // Differences that overflow: points near ±1.8e308.
    const o = [0];
    vec3.distanceInto(o, 0, [1.5e308, 0, 0], 0, [-1.5e308, 0, 0], 0);
    expect(o[0]).toBe(Number.POSITIVE_INFINITY);
    vec3.distanceInto(o, 0, [1e308, 1e308, 0], 0, [-1e307, 0, 0], 0);
    expect(o[0]).toBeCloseTo(Math.hypot(1.1, 1) * 1e308, -300);
    vec3.distanceInto(o, 0, [3e-170, 4e-170, 0], 0, [0, 0, 0], 0);
    expect(o[0]).toBeCloseTo(5e-170, 180);
    // Coincident points (on the common path, vec3.ts) against a difference whose square underflows to 0.
    vec3.distanceInto(o, 0, [1.25, -0, 3], 0, [1.25, 0, 3], 0);
    expect(o[0]).toBe(0);
    vec3.distanceInto(o, 0, [0, 1e-170, 0], 0, [0, 0, 0], 0);
    expect(o[0]).toBe(1e-170);
  });

  it('pullIn: leaves a point within FAR as it is, bit for bit; brings a farther one to FAR along the same ray', () => {
    const o = [0, 0, 0];
    expect(vec3.pullIn(o, 0, [1e99, -3, 2], 0, [1, 2, 3], 0)).toBe(false);
    expect(o).toEqual([1e99, -3, 2]);
    for (const [p, origin] of [
      [
        [1e155, 2, -3],
        [0.5, 1, 2],
      ],
      [
        [-1.7e308, 1e308, 1.7e308],
        [1e3, -2, 0],
      ],
      [
        [3e101, 1e101, -2e101],
        [-1e100, 0, 0],
      ],
    ]) {
      expect(vec3.pullIn(o, 0, p, 0, origin, 0)).toBe(true);
      const d = [0, 1, 2].map((a) => o[a] - origin[a]);
      expect(Math.hypot(...d) / vec3.FAR).toBeCloseTo(1, 12);
      // The same direction: d against p − origin, computed scaled.
      const m = Math.max(...p.map(Math.abs));
      const want = [0, 1, 2].map((a) => p[a] / m - origin[a] / m);
      const cos =
        (d[0] * want[0] + d[1] * want[1] + d[2] * want[2]) / (Math.hypot(...d) * Math.hypot(...want));
      expect(1 - cos).toBeLessThan(1e-15);
    }
    // In place.
    const q = [1e200, 0, 0];
    vec3.pullIn(q, 0, q, 0, [0, 0, 0], 0);
    expect(q).toEqual([vec3.FAR, 0, 0]);
  });
});
