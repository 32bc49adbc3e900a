/**
 * Joint-limit kernels against a trigonometric reference: clampRotation (swing–twist, hinge and
 * cone), hingeFromTo, aimJoint; and the compilation of limits (defaults, conversions).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileJointLimits, type JointLimit } from '../../src/ik/joint-limits.js';
import {
  AT_TWIST_MAX,
  AT_TWIST_MIN,
  aimJoint,
  clampRotation,
  halfAngleBound,
  hingeFromTo,
  LIMIT_AXIS,
  LIMIT_CONE,
  LIMIT_CONE_KIND,
  LIMIT_HINGE,
  LIMIT_KIND,
  LIMIT_NONE,
  LIMIT_REST,
  LIMIT_STRIDE,
  LIMIT_TWIST,
  twistAtBound,
} from '../../src/kernel/joint-limits.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';
import {
  type Quat,
  qconj,
  qmul,
  swingTwist as splitSwingTwist,
  turnAbout,
  type Vec,
} from '../helpers/chains.js';
import { PROPERTY_RUNS, PROPERTY_SEED } from './runs.js';

const RUNS = { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS };

function rotate(q: Quat, v: Vec): Vec {
  const r = qmul(qmul(q, [v[0], v[1], v[2], 0]), qconj(q));
  return [r[0], r[1], r[2]];
}
function normQ(q: Quat): Quat {
  const n = Math.hypot(...q);
  return n < 1e-6 ? [0, 0, 0, 1] : [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}
function normV(v: Vec): Vec {
  const n = Math.hypot(...v);
  return n < 1e-6 ? [0, 1, 0] : [v[0] / n, v[1] / n, v[2] / n];
}
/** The angle between two rotations, treating q and −q alike. */
function rotationDistance(a: Quat, b: Quat): number {
  const d = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
  return 2 * Math.acos(Math.min(1, d));
}

/**
 * Swing–twist split of `d` about unit `a` (test/helpers/chains.ts): [swing angle, twist angle in
 * (−π, π]]. A half turn is both −π and π: reported as π (every range that holds one holds the other
 * unless it ends short of ±π, where the clamp rebuilds an exact bound anyway).
 */
function swingTwist(d: Quat, a: Vec): [number, number] {
  const [swing, twist] = splitSwingTwist(d, a);
  return [swing, twist <= -Math.PI + 1e-12 ? Math.PI : twist];
}

function record(kind: number, axis: Vec, twist: [number, number], cone: number, rest: Quat): Float64Array {
  const r = new Float64Array(LIMIT_STRIDE);
  r[LIMIT_KIND] = kind;
  r.set(axis, LIMIT_AXIS);
  r.set(
    [Math.cos(twist[0] / 2), Math.sin(twist[0] / 2), Math.cos(twist[1] / 2), Math.sin(twist[1] / 2)],
    LIMIT_TWIST,
  );
  r.set([Math.cos(cone / 2), Math.sin(cone / 2)], LIMIT_CONE);
  r.set(rest, LIMIT_REST);
  return r;
}

const unit = fc.double({ min: -1, max: 1, noNaN: true });
const quatArb = fc.tuple(unit, unit, unit, unit).map((q) => normQ(q as Quat));
const axisArb = fc.tuple(unit, unit, unit).map((v) => normV(v as Vec));
const rangeArb = fc
  .tuple(
    fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
    fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
  )
  .map(([a, b]): [number, number] => [a, Math.min(Math.PI, a + b)]);

/** An angle difference brought into (−π, π]. */
function circular(a: number): number {
  const r = ((((a + Math.PI) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI)) - Math.PI;
  return r === -Math.PI ? Math.PI : r;
}

/** `angle` if within `range`, else the bound nearer to it on the circle. */
function nearestInRange(angle: number, range: [number, number]): number {
  if (angle >= range[0] && angle <= range[1]) return angle;
  return Math.abs(circular(angle - range[0])) <= Math.abs(circular(angle - range[1])) ? range[0] : range[1];
}

describe('clampRotation', () => {
  it('hinge: the result turns only about the axis, its angle clamped to the range (atan2 reference)', () => {
    const q = new Float64Array(4);
    fc.assert(
      fc.property(quatArb, quatArb, axisArb, rangeArb, (input, rest, axis, range) => {
        const limit = record(LIMIT_HINGE, axis, range, 0, rest);
        q.set(input);
        clampRotation(q, 0, limit, 0);
        const out = Array.from(q) as Quat;
        expect(Math.abs(Math.hypot(...out) - 1)).toBeLessThanOrEqual(1e-14);
        const d = qmul(qconj(rest), out);
        const [swing, twist] = swingTwist(d, axis);
        expect(swing).toBeLessThanOrEqual(1e-9);
        const onRange = (t: number) => t >= range[0] - 1e-9 && t <= range[1] + 1e-9;
        // ±π are one rotation.
        expect(onRange(twist) || (Math.abs(twist) > Math.PI - 1e-9 && onRange(-twist))).toBe(true);
        // The reference: the input's twist, or outside the range the bound nearer on the circle.
        const d0 = qmul(qconj(rest), input);
        const [, inputTwist] = swingTwist(d0, axis);
        const expected = nearestInRange(inputTwist, range);
        // The input's twist is ill-conditioned when its swing nears a half turn (its projection
        // onto the axis, tn, nears 0): allow for rounding relative to tn.
        const tn = Math.hypot(d0[0] * axis[0] + d0[1] * axis[1] + d0[2] * axis[2], d0[3]);
        const tolerance = 1e-7 + 1e-14 / tn;
        const around = (t: number) => Math.abs(circular(inputTwist - t));
        if (Math.abs(around(range[0]) - around(range[1])) < 1e-6) {
          // A twist as far from both ends (nearly): either bound is a right answer.
          const toMin = rotationDistance(d, turnAbout(axis, range[0]));
          const toMax = rotationDistance(d, turnAbout(axis, range[1]));
          expect(Math.min(toMin, toMax, rotationDistance(d, turnAbout(axis, expected)))).toBeLessThanOrEqual(
            tolerance,
          );
        } else {
          expect(rotationDistance(d, turnAbout(axis, expected))).toBeLessThanOrEqual(tolerance);
        }
      }),
      RUNS,
    );
  });

  it('cone: the swing stays within the angle and the twist within its range; inside, nothing changes', () => {
    const q = new Float64Array(4);
    fc.assert(
      fc.property(
        quatArb,
        quatArb,
        axisArb,
        rangeArb,
        fc.double({ min: 0, max: Math.PI, noNaN: true }),
        (input, rest, axis, range, cone) => {
          const limit = record(LIMIT_CONE_KIND, axis, range, cone, rest);
          q.set(input);
          const acted = clampRotation(q, 0, limit, 0);
          const out = Array.from(q) as Quat;
          const [swing0, twist0] = swingTwist(qmul(qconj(rest), input), axis);
          const [swing, twist] = swingTwist(qmul(qconj(rest), out), axis);
          expect(swing).toBeLessThanOrEqual(cone + 1e-9);
          const tn = Math.cos(swing / 2);
          const twistEps = 1e-9 + 1e-14 / Math.max(1e-300, tn);
          const onRange = (t: number) => t >= range[0] - twistEps && t <= range[1] + twistEps;
          expect(onRange(twist) || (Math.abs(twist) > Math.PI - 1e-9 && onRange(-twist))).toBe(true);
          if (!acted) expect(out).toEqual(input);
          if (swing0 < cone - 1e-6 && twist0 > range[0] + 1e-6 && twist0 < range[1] - 1e-6) {
            expect(acted).toBe(false);
          }
          // The swing keeps its direction when clamped: the axis is carried the same way.
          if (acted && swing0 > 1e-6 && swing0 < Math.PI - 1e-6 && swing > 1e-6) {
            const a0 = rotate(qmul(qconj(rest), input), axis);
            const a1 = rotate(qmul(qconj(rest), out), axis);
            const c0 = normV([a0[0] - axis[0] * (a0[0] * axis[0] + a0[1] * axis[1] + a0[2] * axis[2]), 0, 0]);
            expect(c0.every(Number.isFinite)).toBe(true);
            const plane0 = normV(cross(axis, a0));
            const plane1 = normV(cross(axis, a1));
            expect(plane0[0] * plane1[0] + plane0[1] * plane1[1] + plane0[2] * plane1[2]).toBeGreaterThan(
              1 - 1e-6,
            );
          }
        },
      ),
      RUNS,
    );
  });

  it('is idempotent and keeps the hemisphere of its input', () => {
    const q = new Float64Array(4);
    fc.assert(
      fc.property(
        quatArb,
        axisArb,
        rangeArb,
        fc.double({ min: 0, max: Math.PI, noNaN: true }),
        fc.boolean(),
        (input, axis, range, cone, hinge) => {
          const limit = record(hinge ? LIMIT_HINGE : LIMIT_CONE_KIND, axis, range, cone, [0, 0, 0, 1]);
          q.set(input);
          clampRotation(q, 0, limit, 0);
          const once = Array.from(q);
          expect(
            once[0] * input[0] + once[1] * input[1] + once[2] * input[2] + once[3] * input[3],
          ).toBeGreaterThanOrEqual(-1e-12);
          clampRotation(q, 0, limit, 0);
          // Near a half-turn swing the twist is ill-conditioned (its projection onto the axis, tn,
          // nears 0, and rounding divides by it): the bound allows for that, as the cone test does.
          const n = Math.hypot(...axis);
          const tn = Math.hypot((once[0] * axis[0] + once[1] * axis[1] + once[2] * axis[2]) / n, once[3]);
          const tolerance = 1e-12 + 1e-16 / tn;
          let worst = 0;
          for (let i = 0; i < 4; i++) worst = Math.max(worst, Math.abs(q[i] - once[i]));
          expect(worst).toBeLessThanOrEqual(tolerance);
        },
      ),
      { seed: PROPERTY_SEED, numRuns: Math.max(1, Math.floor(PROPERTY_RUNS / 5)) },
    );
  });

  it('no limit: never touches the rotation', () => {
    const q = new Float64Array([0.1, 0.2, 0.3, 0.9]);
    expect(clampRotation(q, 0, new Float64Array(LIMIT_STRIDE), 0)).toBe(false);
    expect(Array.from(q)).toEqual([0.1, 0.2, 0.3, 0.9]);
  });

  it('named cases: a half-turn swing has no twist; a locked hinge gives the rest rotation', () => {
    const q = new Float64Array([1, 0, 0, 0]); // half turn about X; axis Y: pure swing
    clampRotation(q, 0, record(LIMIT_CONE_KIND, [0, 1, 0], [-0.1, 0.1], Math.PI / 4, [0, 0, 0, 1]), 0);
    const [swing, twist] = swingTwist(Array.from(q) as Quat, [0, 1, 0]);
    expect(swing).toBeCloseTo(Math.PI / 4, 12);
    expect(twist).toBeCloseTo(0, 12);
    const rest: Quat = normQ([0.1, -0.3, 0.2, 0.9]);
    const r = new Float64Array([0.5, 0.5, 0.5, 0.5]);
    clampRotation(r, 0, record(LIMIT_HINGE, [0, 0, 1], [0, 0], 0, rest), 0);
    expect(rotationDistance(Array.from(r) as Quat, rest)).toBeLessThanOrEqual(1e-7);
  });
});

describe('twistAtBound', () => {
  it('names the bound clampRotation put a twist at (none inside the range, none at an open ±π side)', () => {
    const q = new Float64Array(4);
    fc.assert(
      fc.property(quatArb, quatArb, axisArb, rangeArb, fc.boolean(), (input, rest, axis, range, hinge) => {
        const limit = record(hinge ? LIMIT_HINGE : LIMIT_CONE_KIND, axis, range, Math.PI / 2, rest);
        // Open sides as the solvers write them (writeTwistRange): exactly (0, ∓1).
        if (range[0] === -Math.PI) limit.set([0, -1], LIMIT_TWIST);
        if (range[1] === Math.PI) limit.set([0, 1], LIMIT_TWIST + 2);
        const d0 = qmul(qconj(rest), input);
        const [, inputTwist] = swingTwist(d0, axis);
        // The twist of a near half-turn swing is ill-conditioned (as in the clamp's tests).
        const tn = Math.hypot(d0[0] * axis[0] + d0[1] * axis[1] + d0[2] * axis[2], d0[3]);
        if (tn < 1e-3) return;
        const around = (t: number) => Math.abs(circular(inputTwist - t));
        if (Math.min(around(range[0]), around(range[1])) < 1e-6) return; // at a bound already
        q.set(input);
        clampRotation(q, 0, limit, 0);
        const at = twistAtBound(q, 0, limit, 0);
        if (inputTwist > range[0] && inputTwist < range[1]) {
          expect(at).toBe(0);
          return;
        }
        if (Math.abs(around(range[0]) - around(range[1])) < 1e-6) return; // either bound is right
        const expected = nearestInRange(inputTwist, range);
        let want = 0;
        if (expected === range[0] && range[0] > -Math.PI) want = AT_TWIST_MIN;
        else if (expected === range[1] && range[1] < Math.PI) want = AT_TWIST_MAX;
        // A range of zero width reports its minimum.
        if (range[0] === range[1] && range[0] > -Math.PI) want = AT_TWIST_MIN;
        expect(at).toBe(want);
      }),
      RUNS,
    );
  });

  it('named cases: a hinge at its minimum and maximum, 2e-9 rad off them, no limit, a half-turn swing', () => {
    const hinge = record(LIMIT_HINGE, [0, 0, 1], [-0.5, 1], 0, [0, 0, 0, 1]);
    const at = (angle: number) => twistAtBound(Float64Array.from(turnAbout([0, 0, 1], angle)), 0, hinge, 0);
    expect(at(-0.5)).toBe(AT_TWIST_MIN);
    expect(at(1)).toBe(AT_TWIST_MAX);
    expect(at(0.2)).toBe(0);
    // sin(φ − φ₀) of the half-angles within 1e-9: about 2e-9 rad of twist.
    expect(at(-0.5 + 1.9e-9)).toBe(AT_TWIST_MIN);
    expect(at(-0.5 + 2.1e-9)).toBe(0);
    expect(twistAtBound(Float64Array.of(0, 0, 0, 1), 0, new Float64Array(LIMIT_STRIDE), 0)).toBe(0);
    expect(twistAtBound(Float64Array.of(1, 0, 0, 0), 0, hinge, 0)).toBe(0);
  });
});

function cross(a: Vec, b: Vec): Vec {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

describe('halfAngleBound', () => {
  /** Distance on the circle between two whole angles. */
  const around = (x: number) =>
    Math.abs(((((x + Math.PI) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI)) - Math.PI);
  // Uniform over the range (fc.double favours the ends and zero, which are all edges here).
  const half = fc.integer({ min: -1e9, max: 1e9 }).map((i) => (i / 1e9) * (Math.PI / 2));

  it('agrees with the rule stated on angles: inside, else the bound nearer on the circle of 2φ', () => {
    let outside = 0;
    let wrapped = 0;
    fc.assert(
      fc.property(half, half, half, fc.integer({ min: -3, max: 3 }), (p, a, b, e) => {
        const scale = 10 ** e;
        const lo = Math.min(a, b);
        const hi = Math.max(a, b);
        const dMin = around(2 * (p - lo));
        const dMax = around(2 * (p - hi));
        // Away from the edges and the tie, where rounding may go either way.
        fc.pre(Math.abs(p - lo) > 1e-9 && Math.abs(p - hi) > 1e-9 && Math.abs(dMin - dMax) > 1e-9);
        const got = halfAngleBound(
          Math.sin(p) * scale,
          Math.cos(p) * scale,
          Math.cos(lo),
          Math.sin(lo),
          Math.cos(hi),
          Math.sin(hi),
        );
        if (p >= lo && p <= hi) {
          expect(got).toBe(0);
          return;
        }
        outside++;
        const nearer = dMin < dMax ? AT_TWIST_MIN : AT_TWIST_MAX;
        // The bound crossed on the line of half-angles is not always the nearer on the circle.
        if (nearer !== (p < lo ? AT_TWIST_MIN : AT_TWIST_MAX)) wrapped++;
        expect(got).toBe(nearer);
      }),
      RUNS,
    );
    expect(outside).toBeGreaterThan(RUNS.numRuns / 10);
    expect(wrapped).toBeGreaterThan(0);
  });

  it('sends an angle to the nearer end of a range a few nanoradians wide, on either side', () => {
    // Half-angles: a range [1e-9, 3e-9]; angles just outside it on each side, and far away.
    const lo = 1e-9;
    const hi = 3e-9;
    const at = (p: number) =>
      halfAngleBound(Math.sin(p), Math.cos(p), Math.cos(lo), Math.sin(lo), Math.cos(hi), Math.sin(hi));
    expect(at(2e-9)).toBe(0);
    expect(at(0.4e-9)).toBe(AT_TWIST_MIN);
    expect(at(-5e-9)).toBe(AT_TWIST_MIN);
    expect(at(3.6e-9)).toBe(AT_TWIST_MAX);
    expect(at(9e-9)).toBe(AT_TWIST_MAX);
    // The property's counterexample to the cosines alone (a range of 1.6e-9 just below the angle,
    // the sine and cosine scaled by 1000): the greater end, not the least.
    const [p0, l0, h0] = [4.2411500823462206e-8, 3.455751918948772e-8, 3.6128315516282624e-8];
    expect(
      halfAngleBound(
        1e3 * Math.sin(p0),
        1e3 * Math.cos(p0),
        Math.cos(l0),
        Math.sin(l0),
        Math.cos(h0),
        Math.sin(h0),
      ),
    ).toBe(AT_TWIST_MAX);
    // Far away: nearer on the circle of 2φ. At φ = 0.7 the whole angle is 1.4 from both ends
    // but a hair nearer the greater; at φ = −1.5 (−3.0 whole) nearer the least.
    expect(at(0.7)).toBe(AT_TWIST_MAX);
    expect(at(-1.5)).toBe(AT_TWIST_MIN);
    // At φ = −π/2 + 1e-9 (whole −π + 2e-9), below the range, the greatest end is nearer across ±π
    // (π − 4e-9 away, the least π).
    expect(at(-Math.PI / 2 + 1e-9)).toBe(AT_TWIST_MAX);
  });

  it('sends a tie to the bound crossed, and a bound to itself', () => {
    // Range [−π/4, π/4] as half-angles; the half-angle π/2 is a whole half-turn from both bounds.
    const c = Math.SQRT1_2;
    expect(halfAngleBound(1, 0, c, -c, c, c)).toBe(AT_TWIST_MAX);
    expect(halfAngleBound(-1, 0, c, -c, c, c)).toBe(AT_TWIST_MIN);
    expect(halfAngleBound(c, c, c, -c, c, c)).toBe(0);
    expect(halfAngleBound(-c, c, c, -c, c, c)).toBe(0);
    // A range of zero width: everything else goes to it, its one angle stays.
    expect(halfAngleBound(0, 1, 1, 0, 1, 0)).toBe(0);
    expect(halfAngleBound(0.1, 1, 1, 0, 1, 0)).not.toBe(0);
  });
});

describe('hingeFromTo', () => {
  it('turns the projection of u onto that of v about the axis (atan2 reference), half turn when opposite', () => {
    const out = new Float64Array(4);
    fc.assert(
      fc.property(axisArb, axisArb, axisArb, (axis, u, v) => {
        const a = new Float64Array(axis);
        hingeFromTo(out, 0, a, 0, new Float64Array(u), 0, new Float64Array(v), 0);
        const q = Array.from(out) as Quat;
        expect(Math.abs(Math.hypot(...q) - 1)).toBeLessThanOrEqual(1e-14);
        // About the axis only.
        expect(Math.hypot(...cross([q[0], q[1], q[2]], axis))).toBeLessThanOrEqual(1e-12);
        const proj = (w: Vec): Vec => {
          const d = w[0] * axis[0] + w[1] * axis[1] + w[2] * axis[2];
          return [w[0] - axis[0] * d, w[1] - axis[1] * d, w[2] - axis[2] * d];
        };
        const pu = proj(u);
        const pv = proj(v);
        if (Math.hypot(...pu) < 1e-6 || Math.hypot(...pv) < 1e-6) return;
        const turned = normV(rotate(q, pu));
        const target = normV(pv);
        expect(
          Math.hypot(turned[0] - target[0], turned[1] - target[1], turned[2] - target[2]),
        ).toBeLessThanOrEqual(1e-9);
      }),
      RUNS,
    );
    hingeFromTo(
      out,
      0,
      new Float64Array([0, 0, 1]),
      0,
      new Float64Array([1, 0, 0]),
      0,
      new Float64Array([-1, 0, 0]),
      0,
    );
    expect(Math.abs(out[2])).toBeCloseTo(1, 15);
    expect(out[3]).toBeCloseTo(0, 15);
  });
});

describe('aimJoint', () => {
  it('unlimited: R(q′) u points along R(q) v, by the minimal rotation (keeps the twist about u)', () => {
    const q = new Float64Array(4);
    const none = new Float64Array(LIMIT_STRIDE);
    const scratch = new Float64Array(12);
    fc.assert(
      fc.property(quatArb, axisArb, axisArb, (start, u, v) => {
        q.set(start);
        expect(aimJoint(q, 0, new Float64Array(u), 0, new Float64Array(v), 0, none, 0, scratch)).toBe(false);
        const out = Array.from(q) as Quat;
        expect(Math.abs(Math.hypot(...out) - 1)).toBeLessThanOrEqual(1e-14);
        const got = rotate(out, u);
        const want = rotate(start, v);
        expect(Math.hypot(got[0] - want[0], got[1] - want[1], got[2] - want[2])).toBeLessThanOrEqual(1e-9);
        // Minimal: the correction's axis is perpendicular to u and v.
        const r = qmul(qconj(start), out);
        const axis: Vec = [r[0], r[1], r[2]];
        const dotU = axis[0] * u[0] + axis[1] * u[1] + axis[2] * u[2];
        expect(Math.abs(dotU)).toBeLessThanOrEqual(1e-9);
      }),
      RUNS,
    );
  });

  it('nearly opposite vectors still give a half turn, not the identity', () => {
    const q = new Float64Array([0, 0, 0, 1]);
    const scratch = new Float64Array(12);
    const u = new Float64Array([0, 0.2000000000000001, 0]);
    const v = new Float64Array([5e-275, -0.20000000000000007, -5e-298]);
    aimJoint(q, 0, u, 0, v, 0, new Float64Array(LIMIT_STRIDE), 0, scratch);
    const turned = rotate(Array.from(q) as Quat, [0, 1, 0]);
    expect(turned[1]).toBeCloseTo(-1, 12);
  });

  it('zero vectors leave the rotation alone', () => {
    const q = new Float64Array([0, 0, 0, 1]);
    aimJoint(
      q,
      0,
      new Float64Array(3),
      0,
      new Float64Array([1, 0, 0]),
      0,
      new Float64Array(LIMIT_STRIDE),
      0,
      new Float64Array(12),
    );
    expect(Array.from(q)).toEqual([0, 0, 0, 1]);
  });
});

describe('compileJointLimits', () => {
  const skeleton = Skeleton.create({
    names: ['a', 'b', 'c'],
    parents: [-1, 0, 1],
    restTranslations: [0, 0, 0, 0, 0, 2, 3, 0, 0],
    restRotations: [0, 0, 0, 1, 0, Math.SQRT1_2, 0, Math.SQRT1_2, 0, 0, 0, 1],
  });

  it('stores half-angle cosines and sines, the unit axis and the rest rotation', () => {
    const limits: (JointLimit | null)[] = [
      { kind: 'hinge', axis: [0, 0, 2], min: -1, max: 0.5 },
      { kind: 'cone', angle: 0.8, twistMin: -0.2 },
      null,
    ];
    const { records, any } = compileJointLimits(skeleton, Int32Array.from([0, 1, 2]), limits, 'test');
    expect(any).toBe(true);
    expect(records[LIMIT_KIND]).toBe(LIMIT_HINGE);
    expect(Array.from(records.subarray(LIMIT_AXIS, LIMIT_AXIS + 3))).toEqual([0, 0, 1]);
    expect(records[LIMIT_TWIST]).toBeCloseTo(Math.cos(-0.5), 15);
    expect(records[LIMIT_TWIST + 1]).toBeCloseTo(Math.sin(-0.5), 15);
    expect(records[LIMIT_TWIST + 3]).toBeCloseTo(Math.sin(0.25), 15);
    const o = LIMIT_STRIDE;
    expect(records[o + LIMIT_KIND]).toBe(LIMIT_CONE_KIND);
    expect(records[o + LIMIT_CONE]).toBeCloseTo(Math.cos(0.4), 15);
    // Default axis: toward the next joint (c sits at (3, 0, 0) in b's frame).
    expect(records[o + LIMIT_AXIS]).toBeCloseTo(1, 15);
    // Unlimited twist maximum is exactly (0, 1): never clamps by an ulp.
    expect(records[o + LIMIT_TWIST + 2]).toBe(0);
    expect(records[o + LIMIT_TWIST + 3]).toBe(1);
    expect(records[o + LIMIT_REST + 1]).toBeCloseTo(Math.SQRT1_2, 15);
    expect(records[2 * o + LIMIT_KIND]).toBe(LIMIT_NONE);
  });

  it('no limits: all records empty', () => {
    const { records, any } = compileJointLimits(skeleton, Int32Array.from([0, 2]), undefined, 'test');
    expect(any).toBe(false);
    expect(records.every((v) => v === 0)).toBe(true);
  });
});
