/**
 * limitTurnStep against three.js quaternions: the added turn moves at most the limit a step, along
 * the shorter way toward this frame's, and the joint's rotation stays base · added. And
 * limitTurnBeyondBase: the joint moves at most the limit plus the base's own turn.
 */
import fc from 'fast-check';
import { Quaternion, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import {
  LIMIT_AXIS,
  LIMIT_CONE,
  LIMIT_CONE_KIND,
  LIMIT_KIND,
  LIMIT_REST,
  LIMIT_STRIDE,
  LIMIT_TWIST,
} from '../../src/kernel/joint-limits.js';
import { limitTurnBeyondBase, limitTurnStep, turnLimitInto } from '../../src/kernel/turn-step-limit.js';
import { arbQuat, expectSameRotation, RUNS } from './helpers.js';

const three = (a: ArrayLike<number>, o = 0) => new Quaternion(a[o], a[o + 1], a[o + 2], a[o + 3]);
const limitOf = (angle: number) => Float64Array.of(Math.cos(angle / 2), Math.sin(angle / 2));
/** A joint-limit record of kind none: holds nothing. */
const NO_LIMITS = new Float64Array(LIMIT_STRIDE);
/** A cone of `angle` about +Z from the identity, any twist. */
function coneRecord(angle: number): Float64Array {
  const r = new Float64Array(LIMIT_STRIDE);
  r[LIMIT_KIND] = LIMIT_CONE_KIND;
  r.set([0, 0, 1], LIMIT_AXIS);
  r.set([0, -1, 0, 1], LIMIT_TWIST);
  r.set([Math.cos(angle / 2), Math.sin(angle / 2)], LIMIT_CONE);
  r.set([0, 0, 0, 1], LIMIT_REST);
  return r;
}
/** A turn of `angle` about the unit axis (x, y, z). */
const about = (x: number, y: number, z: number, angle: number) => [
  x * Math.sin(angle / 2),
  y * Math.sin(angle / 2),
  z * Math.sin(angle / 2),
  Math.cos(angle / 2),
];
/** The angle of the turn from a to b, by atan2 (three's angleTo, by acos, is off by 1e-8 near 0). */
const turnBetween = (a: Quaternion, b: Quaternion) => {
  const d = a.clone().invert().multiply(b);
  return 2 * Math.atan2(Math.hypot(d.x, d.y, d.z), Math.abs(d.w));
};
/** How far +Z is swung by the rotation q (radians). */
const swing = (q: ArrayLike<number>) =>
  new Vector3(0, 0, 1).applyQuaternion(three(q)).angleTo(new Vector3(0, 0, 1));

describe('limitTurnStep', () => {
  it('turns the added rotation at most the limit from the last, toward this frame’s, keeping rotation = base · added', () => {
    fc.assert(
      fc.property(
        arbQuat,
        arbQuat,
        arbQuat,
        fc.double({ min: 0.01, max: 3.1, noNaN: true }),
        (b, r, last, angle) => {
          const base = Float64Array.from(b);
          const rotation = Float64Array.from(r);
          const added = Float64Array.from(last);
          const wanted = three(base).invert().multiply(three(rotation));
          const change = three(last).angleTo(wanted);
          const turned = limitTurnStep(rotation, 0, base, 0, added, 0, limitOf(angle), 0, false);
          const now = three(added);
          if (change <= angle - 1e-9) {
            expect(turned).toBe(false);
            expect(Array.from(rotation)).toEqual(Array.from(r));
            expectSameRotation(added, [wanted.x, wanted.y, wanted.z, wanted.w], 1e-12, 'added');
          } else if (change >= angle + 1e-9) {
            expect(turned).toBe(true);
            expect(three(last).angleTo(now)).toBeCloseTo(angle, 7);
            // On the way: last → added → this frame's adds up to the whole change.
            expect(three(last).angleTo(now) + now.angleTo(wanted)).toBeCloseTo(change, 7);
            const expected = three(base).multiply(now);
            expectSameRotation(rotation, [expected.x, expected.y, expected.z, expected.w], 1e-12, 'rotation');
            expect(Math.hypot(...rotation)).toBeCloseTo(1, 14);
          }
        },
      ),
      RUNS,
    );
  });

  it('fresh, records base⁻¹ · rotation and turns nothing; a NaN rotation records nothing', () => {
    const base = Float64Array.of(0, 0.6, 0, 0.8);
    const rotation = Float64Array.of(0.8, 0, 0, 0.6);
    const added = Float64Array.of(0, 0, 0, 1);
    expect(limitTurnStep(rotation, 0, base, 0, added, 0, limitOf(0.1), 0, true)).toBe(false);
    expect(Array.from(rotation)).toEqual([0.8, 0, 0, 0.6]);
    const wanted = three(base).invert().multiply(three(rotation));
    expectSameRotation(added, [wanted.x, wanted.y, wanted.z, wanted.w], 1e-15, 'added');
    // The same turn again is no change: nothing turned.
    expect(limitTurnStep(rotation, 0, base, 0, added, 0, limitOf(0.1), 0, false)).toBe(false);

    const kept = Array.from(added);
    const bad = Float64Array.of(Number.NaN, 0, 0, 1);
    expect(limitTurnStep(bad, 0, base, 0, added, 0, limitOf(0.1), 0, false)).toBe(false);
    expect(Array.from(added)).toEqual(kept);
  });

  it('reads and writes at the offsets given', () => {
    const rotation = Float64Array.of(9, 9, 0, 0, 0, 1);
    const base = Float64Array.of(9, 0, 0, 0, 1);
    const added = Float64Array.of(9, 9, 9, 0, 0, 0, 1, 9);
    const limit = Float64Array.of(9, ...limitOf(Math.PI / 4));
    // A quarter turn about z asked, an eighth allowed.
    rotation.set([0, 0, Math.SQRT1_2, Math.SQRT1_2], 2);
    expect(limitTurnStep(rotation, 2, base, 1, added, 3, limit, 1, false)).toBe(true);
    expect(rotation[0]).toBe(9);
    expect(added[7]).toBe(9);
    expectSameRotation(rotation.subarray(2), [0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)], 1e-15);
    expectSameRotation(added.subarray(3, 7), [0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)], 1e-15);
  });

  it('turnLimitInto: the cosine and sine of half of speed · dt by series, Math’s to 1e-15 below a half turn of 1, none from π/2', () => {
    const limit = new Float64Array(3);
    for (const [speed, dt] of [
      [3 * Math.PI, 1 / 60],
      [3 * Math.PI, 1 / 30],
      [1, 0],
      [10, 0.1],
      [2, 1.5],
    ]) {
      turnLimitInto(limit, 1, Float64Array.of(speed, dt), 0);
      const h = 0.5 * speed * dt;
      expect(limit[1]).toBeCloseTo(Math.cos(h), h < 1 ? 15 : 6);
      expect(limit[2]).toBeCloseTo(Math.sin(h), h < 1 ? 15 : 6);
    }
    expect(limit[0]).toBe(0);
    // From a half turn of π/2 up (a full turn a step), and for Infinity or NaN: no limit.
    for (const [speed, dt] of [
      [Math.PI, 1],
      [Number.POSITIVE_INFINITY, 1 / 60],
      [Number.POSITIVE_INFINITY, 0],
      [Number.NaN, 1],
    ]) {
      turnLimitInto(limit, 1, Float64Array.of(speed, dt), 0);
      expect([limit[1], limit[2]]).toEqual([-2, 1]);
    }
  });
});

describe('limitTurnBeyondBase', () => {
  it('turns the joint at most the limit plus the base’s turn from last frame’s, toward IK’s answer, the shorter way', () => {
    fc.assert(
      fc.property(
        arbQuat,
        arbQuat,
        arbQuat,
        arbQuat,
        fc.double({ min: 0.01, max: 3.1, noNaN: true }),
        (lastBase, lastTurned, b, r, angle) => {
          const base = Float64Array.from(b);
          const rotation = Float64Array.from(r);
          const last = Float64Array.of(...lastBase, ...lastTurned);
          const added = new Float64Array(4);
          const baseTurn = three(lastBase).angleTo(three(b));
          const allowed = angle + baseTurn;
          const change = three(lastTurned).angleTo(three(r));
          const turned = limitTurnBeyondBase(
            rotation,
            0,
            base,
            0,
            last,
            0,
            added,
            0,
            limitOf(angle),
            0,
            NO_LIMITS,
            0,
            false,
          );
          if (allowed >= Math.PI - 1e-9 || change <= allowed - 1e-9) {
            expect(turned).toBe(false);
            expect(Array.from(rotation)).toEqual(Array.from(r));
          } else if (change >= allowed + 1e-9) {
            expect(turned).toBe(true);
            const now = three(rotation);
            expect(three(lastTurned).angleTo(now)).toBeCloseTo(allowed, 7);
            // On the way from last frame's to IK's answer.
            expect(three(lastTurned).angleTo(now) + now.angleTo(three(r))).toBeCloseTo(change, 7);
            expect(Math.hypot(...rotation)).toBeCloseTo(1, 14);
          }
          // Recorded: this frame's base and rotation, and the rotation added to the base.
          expect(Array.from(last)).toEqual([...b, ...rotation]);
          const wanted = three(base).invert().multiply(three(rotation));
          expectSameRotation(added, [wanted.x, wanted.y, wanted.z, wanted.w], 1e-12, 'added');
        },
      ),
      RUNS,
    );
  });

  it('with a base that did not turn, holds the joint as limitTurnStep holds the added turn', () => {
    fc.assert(
      fc.property(
        arbQuat,
        arbQuat,
        arbQuat,
        fc.double({ min: 0.01, max: 3.1, noNaN: true }),
        (b, a, r, angle) => {
          const base = Float64Array.from(b);
          // Last frame: base · a.
          const lastTurned = three(b).multiply(three(a));
          const last = Float64Array.of(...b, lastTurned.x, lastTurned.y, lastTurned.z, lastTurned.w);
          const beyond = Float64Array.from(r);
          const stepped = Float64Array.from(r);
          const addedStep = Float64Array.from(a);
          const addedBeyond = new Float64Array(4);
          const one = limitTurnStep(stepped, 0, base, 0, addedStep, 0, limitOf(angle), 0, false);
          const two = limitTurnBeyondBase(
            beyond,
            0,
            base,
            0,
            last,
            0,
            addedBeyond,
            0,
            limitOf(angle),
            0,
            NO_LIMITS,
            0,
            false,
          );
          const change = lastTurned.angleTo(three(r));
          if (Math.abs(change - angle) > 1e-9) expect(two).toBe(one);
          expectSameRotation(beyond, stepped, 1e-9, 'rotation');
          expectSameRotation(addedBeyond, addedStep, 1e-9, 'added');
        },
      ),
      RUNS,
    );
  });

  it('fresh or with no limit, records and turns nothing; a NaN turns nothing', () => {
    const base = Float64Array.of(0, 0.6, 0, 0.8);
    const rotation = Float64Array.of(0.8, 0, 0, 0.6);
    const last = Float64Array.of(0, 0, 0, 1, 0, 0, 0, 1);
    const added = new Float64Array(4);
    expect(
      limitTurnBeyondBase(rotation, 0, base, 0, last, 0, added, 0, limitOf(0.1), 0, NO_LIMITS, 0, true),
    ).toBe(false);
    expect(Array.from(rotation)).toEqual([0.8, 0, 0, 0.6]);
    expect(Array.from(last)).toEqual([0, 0.6, 0, 0.8, 0.8, 0, 0, 0.6]);
    const none = Float64Array.of(-2, 1);
    const far = Float64Array.of(0, 0, 1, 0);
    expect(limitTurnBeyondBase(far, 0, base, 0, last, 0, added, 0, none, 0, NO_LIMITS, 0, false)).toBe(false);
    expect(Array.from(far)).toEqual([0, 0, 1, 0]);
    const bad = Float64Array.of(Number.NaN, 0, 0, 1);
    expect(
      limitTurnBeyondBase(bad, 0, base, 0, last, 0, added, 0, limitOf(0.1), 0, NO_LIMITS, 0, false),
    ).toBe(false);
    expect(bad[0]).toBeNaN();
  });

  it('holds a turned joint within its limit where last frame’s and IK’s answer are within it, and not where one is not', () => {
    const cone = coneRecord(0.8);
    // Last frame on the cone to one side (about +x), IK's answer on it to another (about −y), each
    // with its own twist: the way between them bulges out of the cone (1.11 rad half way).
    const q = (a: number[]) => three(a);
    const lastTurned = q(about(1, 0, 0, 0.8)).multiply(q(about(0, 0, 1, -1)));
    const answer = q(about(0, -1, 0, 0.8)).multiply(q(about(0, 0, 1, 2)));
    const half = lastTurned.angleTo(answer) / 2;
    const run = (limits: Float64Array, from: number[], step = half) => {
      const rotation = Float64Array.of(answer.x, answer.y, answer.z, answer.w);
      const last = Float64Array.of(0, 0, 0, 1, ...from);
      const turned = limitTurnBeyondBase(
        rotation,
        0,
        Float64Array.of(0, 0, 0, 1),
        0,
        last,
        0,
        new Float64Array(4),
        0,
        limitOf(step),
        0,
        limits,
        0,
        false,
      );
      expect(turned).toBe(true);
      return rotation;
    };
    // Turned back half way, unless said.
    const from = [lastTurned.x, lastTurned.y, lastTurned.z, lastTurned.w];
    const free = run(NO_LIMITS, from);
    expect(swing(free)).toBeGreaterThan(1.1);
    const held = run(cone, from);
    // (On a turn this large, back to the step after the hold stands a little past the cone.)
    expect(swing(held)).toBeLessThan(0.8 + 0.01);
    expect(lastTurned.angleTo(three(held))).toBeLessThanOrEqual(half + 1e-12);
    // Last frame past the cone (the animation had the joint there): turned back, not held in.
    const outside = about(1, 0, 0, 1.6);
    const fromOutside = run(cone, outside, 0.2);
    expect(Array.from(fromOutside)).toEqual(Array.from(run(NO_LIMITS, outside, 0.2)));
    expect(swing(fromOutside)).toBeGreaterThan(1.3);
  });

  it('held in its cone, a joint still turns no more than the limit plus the base’s turn (within a hair of the cone)', () => {
    const cone = coneRecord(0.8);
    // A rotation within the cone: a swing up to 0.8 rad (often on its edge) about a horizontal
    // axis, after any twist about z.
    const inCone = fc
      .tuple(
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.oneof(fc.constant(0.8 * (1 - 1e-9)), fc.double({ min: 0, max: 0.8, noNaN: true })),
        fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
      )
      .map(([t, s, twist]) =>
        three(about(Math.cos(t), Math.sin(t), 0, s)).multiply(three(about(0, 0, 1, twist))),
      );
    fc.assert(
      fc.property(
        inCone,
        inCone,
        arbQuat,
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        fc.double({ min: 0.001, max: 0.16, noNaN: true }),
        (lastTurned, answer, axis, baseTurn, angle) => {
          // The animation's turn since last frame: baseTurn about arbQuat's axis part, made unit.
          const l = Math.hypot(axis[0], axis[1], axis[2]);
          const base =
            l > 1e-6 ? three(about(axis[0] / l, axis[1] / l, axis[2] / l, baseTurn)) : new Quaternion();
          const allowed = angle + turnBetween(new Quaternion(), base);
          const rotation = Float64Array.of(answer.x, answer.y, answer.z, answer.w);
          const last = Float64Array.of(0, 0, 0, 1, lastTurned.x, lastTurned.y, lastTurned.z, lastTurned.w);
          const b = Float64Array.of(base.x, base.y, base.z, base.w);
          limitTurnBeyondBase(
            rotation,
            0,
            b,
            0,
            last,
            0,
            new Float64Array(4),
            0,
            limitOf(angle),
            0,
            cone,
            0,
            false,
          );
          expect(turnBetween(lastTurned, three(rotation))).toBeLessThanOrEqual(allowed + 1e-12);
          expect(swing(rotation)).toBeLessThanOrEqual(0.8 + 1e-4);
        },
      ),
      RUNS,
    );
  });

  it('reads and writes at the offsets given', () => {
    const rotation = Float64Array.of(9, 9, 0, 0, Math.SQRT1_2, Math.SQRT1_2);
    const base = Float64Array.of(9, 0, 0, 0, 1);
    const last = Float64Array.of(9, 0, 0, 0, 1, 0, 0, 0, 1, 9);
    const added = Float64Array.of(9, 9, 9, 0, 0, 0, 1, 9);
    const limit = Float64Array.of(9, ...limitOf(Math.PI / 4));
    // A quarter turn about z asked, the base still, an eighth allowed.
    expect(limitTurnBeyondBase(rotation, 2, base, 1, last, 1, added, 3, limit, 1, NO_LIMITS, 0, false)).toBe(
      true,
    );
    expect(rotation[0]).toBe(9);
    expect(last[0]).toBe(9);
    expect(last[9]).toBe(9);
    expect(added[7]).toBe(9);
    const eighth = [0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)];
    expectSameRotation(rotation.subarray(2), eighth, 1e-15);
    expectSameRotation(last.subarray(5, 9), eighth, 1e-15);
    expectSameRotation(added.subarray(3, 7), eighth, 1e-15);
  });
});
