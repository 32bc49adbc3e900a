/**
 * limitTurnStep against three.js quaternions: the added turn moves at most the limit a step, along
 * the shorter way toward this frame's, and the joint's rotation stays base · added.
 */
import fc from 'fast-check';
import { Quaternion } from 'three';
import { describe, expect, it } from 'vitest';
import { limitTurnStep, turnLimitInto } from '../../src/kernel/turn-step-limit.js';
import { arbQuat, expectSameRotation, RUNS } from './helpers.js';

const three = (a: ArrayLike<number>, o = 0) => new Quaternion(a[o], a[o + 1], a[o + 2], a[o + 3]);
const limitOf = (angle: number) => Float64Array.of(Math.cos(angle / 2), Math.sin(angle / 2));

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
