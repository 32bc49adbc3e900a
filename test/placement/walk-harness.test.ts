/**
 * The walk harness' knee-flip measure can fail: a knee bent backwards, or a thigh rolled half a
 * turn about the leg, bends the leg the other way from the animation's, whichever way the leg
 * points (a running leg swung forward flat is where a test of the knee's side along the direction
 * of travel misreads).
 */
import { describe, expect, it } from 'vitest';
import type { LegRig } from '../../src/rig/limbs.js';
import { kneeBend } from './walk-harness.js';

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
