/**
 * The aim kernel and quat.rotationBetween (which it uses) at every angle (against quat.fromTo where that is accurate, and
 * near and at opposite vectors where it is not), aliasing, and aimLocal's degenerate inputs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AIM_DEGENERATE,
  AIM_FORWARD,
  AIM_RESULT,
  AIM_ROTATION,
  AIM_TARGET,
  AIM_WORK_SIZE,
  aimLocal,
} from '../../src/kernel/aim.js';
import * as quat from '../../src/kernel/quat.js';
import { rotationBetween } from '../../src/kernel/quat.js';
import { arbUnitVec3, RUNS } from './helpers.js';

type V3 = [number, number, number];

function rotate(q: Float64Array | number[], v: Float64Array | number[]): V3 {
  const out = new Float64Array(3);
  quat.rotateVec3(out, 0, q, 0, v, 0);
  return [out[0], out[1], out[2]];
}

function dist3(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

function normalize(v: ArrayLike<number>): V3 {
  const l = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / l, v[1] / l, v[2] / l];
}

const NO_HINT = new Float64Array(3);

describe('rotationBetween', () => {
  it('carries u onto v to 1e-15 and is the same rotation as quat.fromTo where that is accurate', () => {
    fc.assert(
      fc.property(arbUnitVec3, arbUnitVec3, (u, v) => {
        const q = new Float64Array(4);
        rotationBetween(q, 0, u, 0, v, 0, NO_HINT, 0);
        expect(Math.hypot(q[0], q[1], q[2], q[3])).toBeCloseTo(1, 15);
        expect(dist3(rotate(q, u), v)).toBeLessThanOrEqual(1e-15 * 4);
        const r = new Float64Array(4);
        quat.fromTo(r, 0, u, 0, v, 0);
        if (1 + (u[0] * v[0] + u[1] * v[1] + u[2] * v[2]) > 1e-6) {
          expect(1 - Math.abs(q[0] * r[0] + q[1] * r[1] + q[2] * r[2] + q[3] * r[3])).toBeLessThanOrEqual(
            1e-12,
          );
        }
      }),
      RUNS,
    );
  });

  it('near opposite (1e-6 … 1e-15 rad off): exact, and minimal (axis ⟂ u and v) down to 1e-11 rad', () => {
    fc.assert(
      fc.property(arbUnitVec3, arbUnitVec3, fc.integer({ min: 6, max: 15 }), (u, side, k) => {
        const s = normalize([
          side[1] * u[2] - side[2] * u[1],
          side[2] * u[0] - side[0] * u[2],
          side[0] * u[1] - side[1] * u[0],
        ]);
        const eps = 10 ** -k;
        const v = normalize([-u[0] + eps * s[0], -u[1] + eps * s[1], -u[2] + eps * s[2]]);
        const q = new Float64Array(4);
        rotationBetween(q, 0, u, 0, v, 0, NO_HINT, 0);
        expect(dist3(rotate(q, u), v)).toBeLessThanOrEqual(1e-15 * 4);
        if (k <= 11) {
          // The axis is the normal of the u–v plane: no component along u (no twist about it).
          // (p, the direction from u toward v, is known to ~1e-16 / eps.)
          expect(Math.abs(q[0] * u[0] + q[1] * u[1] + q[2] * u[2])).toBeLessThanOrEqual(1e-14 / eps);
        }
      }),
      RUNS,
    );
  });

  it('exactly opposite: a half turn about the hint made perpendicular, or any perpendicular axis', () => {
    fc.assert(
      fc.property(arbUnitVec3, arbUnitVec3, (u, hint) => {
        const v = [-u[0], -u[1], -u[2]];
        const q = new Float64Array(4);
        rotationBetween(q, 0, u, 0, v, 0, hint, 0);
        expect(Math.abs(q[3])).toBeLessThanOrEqual(1e-15);
        expect(dist3(rotate(q, u), v)).toBeLessThanOrEqual(4e-15);
        const k = hint[0] * u[0] + hint[1] * u[1] + hint[2] * u[2];
        const h = [hint[0] - k * u[0], hint[1] - k * u[1], hint[2] - k * u[2]];
        if (Math.hypot(h[0], h[1], h[2]) > 1e-3) {
          const axis = normalize(h);
          expect(1 - Math.abs(axis[0] * q[0] + axis[1] * q[1] + axis[2] * q[2])).toBeLessThanOrEqual(1e-12);
        }
        rotationBetween(q, 0, u, 0, v, 0, u, 0); // hint parallel to u: falls back
        expect(dist3(rotate(q, u), v)).toBeLessThanOrEqual(4e-15);
        expect(Number.isFinite(q[0] + q[1] + q[2] + q[3])).toBe(true);
      }),
      RUNS,
    );
  });

  it('equal vectors give the identity; out may alias u, v or the hint', () => {
    const u = normalize([0.3, -0.4, 0.5]);
    const q = new Float64Array(4);
    rotationBetween(q, 0, u, 0, u, 0, NO_HINT, 0);
    expect(Array.from(q)).toEqual([0, 0, 0, 1]);
    fc.assert(
      fc.property(arbUnitVec3, arbUnitVec3, fc.boolean(), (a, b, opposite) => {
        const v = opposite ? [-a[0], -a[1], -a[2]] : b;
        const expected = new Float64Array(4);
        rotationBetween(expected, 0, a, 0, v, 0, b, 0);
        for (const which of [0, 1, 2]) {
          // One array of 4 + 3 + 3 + 3 slots; out at 0 overlaps u, v or hint placed at 0.
          const buf = new Float64Array(16);
          const slots = [7, 10, 13];
          slots[which] = 0;
          buf.set(a, slots[0]);
          buf.set(v, slots[1]);
          buf.set(b, slots[2]);
          rotationBetween(buf, 0, buf, slots[0], buf, slots[1], buf, slots[2]);
          expect(Array.from(buf.subarray(0, 4))).toEqual(Array.from(expected));
        }
      }),
      RUNS,
    );
  });
});

describe('aimLocal', () => {
  it('a zero or non-finite target keeps the rotation and says degenerate', () => {
    const w = new Float64Array(AIM_WORK_SIZE);
    w.set([0, 1, 0], AIM_FORWARD);
    const l = Math.hypot(0.1, 0.2, 0.3, 0.9);
    w.set([0.1 / l, 0.2 / l, 0.3 / l, 0.9 / l], AIM_ROTATION);
    const q = Array.from(w.subarray(AIM_ROTATION, AIM_ROTATION + 4));
    for (const t of [
      [0, 0, 0],
      [Number.NaN, 1, 0],
      [Number.POSITIVE_INFINITY, 0, 0],
    ]) {
      w.set(t, AIM_TARGET);
      expect(aimLocal(w, 0) & AIM_DEGENERATE).toBe(AIM_DEGENERATE);
      expect(Array.from(w.subarray(AIM_RESULT, AIM_RESULT + 4))).toEqual(q);
    }
  });

  it('subnormal and huge targets are aimed at exactly (no underflow or overflow)', () => {
    const w = new Float64Array(AIM_WORK_SIZE);
    w.set([0, 0, 1], AIM_FORWARD);
    w.set([0, 0, 0, 1], AIM_ROTATION);
    for (const m of [5e-324, 1e-310, 1e-160, 1e160, 1e300, 1.7e308]) {
      const d = normalize([0.3, -0.6, 0.2]);
      w.set([d[0] * m, d[1] * m, d[2] * m], AIM_TARGET);
      const bits = aimLocal(w, 0);
      if (m === 5e-324) {
        // Only one component survives as a subnormal: still a direction, aimed at.
        expect(bits & AIM_DEGENERATE).toBe(0);
        continue;
      }
      expect(bits).toBe(0);
      const f = rotate(w.subarray(AIM_RESULT, AIM_RESULT + 4), [0, 0, 1]);
      expect(dist3(f, d)).toBeLessThanOrEqual(1e-15 * 4);
    }
  });
});
