/**
 * The limit on how fast a solver's added turn may change: what IK adds to a joint's rotation
 * turns by at most a given angle from one frame to the next.
 *
 * @packageDocumentation
 */

import { conjugate, multiply, normalize } from './quat.js';

// q[0..3]: this frame's added rotation; q[4..7]: an inverse; q[8..11]: its change; q[12..15]: the
// limited added rotation.
const q = new Float64Array(16);

/**
 * Holds the turn IK added to one joint within a step of last frame's. The joint's rotation
 * `rotations[ro … ro + 3]` is IK's answer; `base[bo …]` the rotation IK started from (the
 * animation's); `added[ao …]` the added rotation `base⁻¹ · rotation` of the last frame, which this
 * replaces with this frame's. Where the added rotation turned by more than the limit since (the
 * shorter way), it is turned back toward last frame's by the limit, about the axis of its change,
 * and the joint's rotation becomes `base · added` (both normalized).
 *
 * `limit[lo]`, `limit[lo + 1]`: the cosine and sine of half the largest turn a step (numbers in an
 * array: doubles passed to a call V8 does not inline are boxed). With `fresh` (no last frame to
 * hold to), only records the added rotation. A change that has no axis and yet is over the limit
 * (a NaN met) records nothing and turns nothing. Allocates nothing.
 *
 * @returns whether the joint's rotation was turned (its model matrices need computing again).
 */
export function limitTurnStep(
  rotations: Float64Array,
  ro: number,
  base: Float64Array,
  bo: number,
  added: Float64Array,
  ao: number,
  limit: Float64Array,
  lo: number,
  fresh: boolean,
): boolean {
  // q[0..3] = base⁻¹ · rotation.
  conjugate(q, 4, base, bo);
  multiply(q, 0, q, 4, rotations, ro);
  if (!fresh) {
    // d = last⁻¹ · now, the shorter way (w ≥ 0).
    conjugate(q, 4, added, ao);
    multiply(q, 8, q, 4, q, 0);
    const sign = q[11] < 0 ? -1 : 1;
    if (!(q[11] * sign >= limit[lo])) {
      const ax = q[8] * sign;
      const ay = q[9] * sign;
      const az = q[10] * sign;
      const al = Math.sqrt(ax * ax + ay * ay + az * az);
      if (!(al > 0)) return false;
      const f = limit[lo + 1] / al;
      q[8] = ax * f;
      q[9] = ay * f;
      q[10] = az * f;
      q[11] = limit[lo];
      // added ← last · d limited; rotation ← base · added.
      multiply(q, 12, added, ao, q, 8);
      normalize(q, 12, q, 12);
      for (let c = 0; c < 4; c++) added[ao + c] = q[12 + c];
      multiply(rotations, ro, base, bo, q, 12);
      normalize(rotations, ro, rotations, ro);
      return true;
    }
  }
  for (let c = 0; c < 4; c++) added[ao + c] = q[c];
  return false;
}

/**
 * `limit[lo]`, `limit[lo + 1]` = the cosine and sine of half of `speedDt[so] · speedDt[so + 1]` (a
 * turn speed, radians a second, times a step's seconds): the limit {@link limitTurnStep} takes.
 * By their series, not `Math.sin` (the same bits on every engine); from a half turn of π/2 up, no
 * limit (cosine −2). Numbers in arrays: doubles passed to a call V8 does not inline are boxed.
 */
export function turnLimitInto(limit: Float64Array, lo: number, speedDt: Float64Array, so: number): void {
  const h = 0.5 * speedDt[so] * speedDt[so + 1];
  if (!(h < 1.5707963267948966)) {
    limit[lo] = -2;
    limit[lo + 1] = 1;
    return;
  }
  // sin h to h¹³ (its error below 1e-7 at π/2, below 1e-16 under 0.05), cos from it.
  const z = h * h;
  const sin =
    h * (1 - (z / 6) * (1 - (z / 20) * (1 - (z / 42) * (1 - (z / 72) * (1 - (z / 110) * (1 - z / 156))))));
  limit[lo + 1] = sin;
  limit[lo] = Math.sqrt(1 - sin * sin);
}
