/**
 * The walk harness' knee-flip measure can fail: a knee bent backwards, or a thigh rolled half a
 * turn about the leg, bends the leg the other way from the animation's, whichever way the leg
 * points (a running leg swung forward flat is where a test of the knee's side along the direction
 * of travel misreads).
 */
import { describe, expect, it } from 'vitest';
import type { LegRig } from '../../src/rig/limbs.js';
import { GroundTouches, kneeBend } from './walk-harness.js';

const leg: LegRig = {
  label: 'left',
  side: 'left',
  shape: 'chain',
  source: 'override',
  root: 0,
  middle: 1,
  end: 2,
  endLocal: null,
  foot: 2,
  toe: -1,
  pole: -1,
};

/** Model matrices (identity rotations) with the three joints at the given points. */
function model(points: number[][]): Float64Array {
  const m = new Float64Array(48);
  points.forEach((p, j) => {
    m.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, p[0], p[1], p[2], 1], 16 * j);
  });
  return m;
}

function apart(a: Float64Array, b: Float64Array): boolean {
  const na = new Float64Array(3);
  const nb = new Float64Array(3);
  expect(kneeBend(a, leg, na)).toBeGreaterThan(0.1);
  expect(kneeBend(b, leg, nb)).toBeGreaterThan(0.1);
  return na[0] * nb[0] + na[1] * nb[1] + na[2] * nb[2] < 0;
}

describe('kneeBend (the knee-flip measure)', () => {
  const hip = [0, 1, 0];
  const ankle = [0, 0.1, 0.05];
  it('tells a knee bent forward from one bent backward', () => {
    const forward = model([hip, [0, 0.55, 0.15], ankle]);
    const backward = model([hip, [0, 0.55, -0.1], ankle]);
    const forwardLess = model([hip, [0, 0.55, 0.08], ankle]);
    expect(apart(forward, backward)).toBe(true);
    expect(apart(forward, forwardLess)).toBe(false);
  });
  it('tells them apart on a leg swung forward flat, where the knee is above or below the line', () => {
    // The leg points along +Z (a running leg at the front of its swing): the knee's offset from
    // the hip–ankle line is vertical, with no component along the direction of travel.
    const up = model([hip, [0, 1.1, 0.45], [0, 1, 0.9]]);
    const down = model([hip, [0, 0.9, 0.45], [0, 1, 0.9]]);
    expect(apart(up, down)).toBe(true);
    expect(apart(up, model([hip, [0, 1.05, 0.45], [0, 1, 0.9]]))).toBe(false);
  });
  it('calls a straight knee sideless', () => {
    expect(kneeBend(model([hip, [0, 0.55, 0.0005], [0, 0.1, 0]]), leg, new Float64Array(3))).toBeLessThan(
      0.1,
    );
  });
});

describe('GroundTouches (the ground slide)', () => {
  it('counts a point that moves while it touches the ground, from where it touched down', () => {
    const t = new GroundTouches(1);
    expect(t.step(0, 1, 2, 0.001)).toBe(0);
    expect(t.step(0, 1.006, 2.008, 0)).toBeCloseTo(0.01, 12);
    // Within 3 mm of the ground still touches it.
    expect(t.step(0, 1.03, 2.04, 0.0029)).toBeCloseTo(0.05, 12);
  });
  it('does not count a point that moves off the ground, and starts afresh where it comes down', () => {
    const t = new GroundTouches(2);
    t.step(1, 0, 0, 0);
    // Lifted 4 mm and moved 20 cm: not a slide.
    expect(t.step(1, 0.2, 0, 0.004)).toBe(0);
    expect(t.step(1, 0.2, 0, 0)).toBe(0);
    expect(t.step(1, 0.203, 0.004, 0)).toBeCloseTo(0.005, 12);
    // Points are apart; lift() forgets a touch (a new contact).
    expect(t.step(0, 5, 5, 0)).toBe(0);
    t.lift(1);
    expect(t.step(1, 1, 1, 0)).toBe(0);
    // No ground under it (NaN or infinite height): off the ground.
    expect(t.step(0, 9, 9, Number.POSITIVE_INFINITY)).toBe(0);
    expect(t.step(0, 9, 9, Number.NaN)).toBe(0);
  });
});
