/**
 * Limits on how fast IK may turn a joint from one frame to the next: on the turn it adds to the
 * animation's rotation ({@link limitTurnStep}), or on the joint itself beyond the animation's own
 * turn ({@link limitTurnBeyondBase}).
 *
 * @packageDocumentation
 */

import { clampRotation } from './joint-limits.js';
import { conjugate, multiply, normalize } from './quat.js';

// q[0..3]: limitTurnStep's added rotation, limitTurnBeyondBase's animation turn; q[4..11]:
// stepToward's inverse and change; q[16..19]: IK's answer (limitTurnBeyondBase); q[20..23]: a
// rotation held within a joint limit (withinLimit).
const q = new Float64Array(24);

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
  // q[0..3] = base⁻¹ · rotation, turned back to a step from last frame's where it is past one.
  conjugate(q, 4, base, bo);
  multiply(q, 0, q, 4, rotations, ro);
  const step = fresh ? WITHIN : stepToward(q, 0, added, ao, limit[lo], limit[lo + 1]);
  if (step === NO_AXIS) return false;
  for (let c = 0; c < 4; c++) added[ao + c] = q[c];
  if (step === WITHIN) return false;
  // rotation ← base · added.
  multiply(rotations, ro, base, bo, q, 0);
  normalize(rotations, ro, rotations, ro);
  return true;
}

/**
 * Holds a joint within a step of where IK left it last frame, beyond the turn the animation gave
 * it since: the joint may turn by the limit plus the animation's own turn of this frame. Where
 * {@link limitTurnStep} holds the turn IK *adds*, this holds the joint itself, and lets the
 * animation through: a clip that spins a joint 25° a frame carries the added turn along under
 * `limitTurnStep` (a look held at its cone followed a dancing robot's head spin to 138° from
 * rest), while here the joint goes straight back to IK's answer. With a still animation the two
 * limits are the same.
 *
 * The joint's rotation `rotations[ro … ro + 3]` is IK's answer and `base[bo …]` the rotation IK
 * started from (the animation's). `last[lo …]` holds, from the last frame, the base (4 numbers)
 * and the joint's rotation as IK left it (4 more), which this replaces with this frame's; `added[ao
 * …]` gets `base⁻¹ · rotation` as the joint is left. Where the joint turned from last frame's by
 * more than the limit plus the base's turn (the shorter way), it is turned back toward last frame's
 * rotation by that angle, about the axis of its change (normalized). `limit[li]`, `limit[li + 1]`:
 * the cosine and sine of half the largest turn a step beyond the animation's (cosine −2: none).
 * With `fresh` (no last frame to hold to), only records. A change that has no axis and yet is over
 * the limit (a NaN met) turns nothing. A joint turned back is then held within the joint-limit
 * record `limits[lmo …]` (`joint-limits.ts`, {@link clampRotation}; a record of kind none holds
 * nothing) where IK's answer and last frame's rotation are both within it: the way between two
 * rotations within a cone may leave it (a head whose cone holds it to one side of a point behind
 * it, then to the other, swung 5° past its cone on the way), and turned back again where the
 * hold took it farther from last frame's than the step allows (the step is kept exactly; the
 * joint may then stand past its cone by a second-order sliver). Where either is outside (a joint
 * the animation turns past the limit, IK at a weight below 1), the turn is left as it is: held
 * in, it would jump. Allocates nothing.
 *
 * @returns whether the joint's rotation was turned (its model matrices need computing again).
 */
export function limitTurnBeyondBase(
  rotations: Float64Array,
  ro: number,
  base: Float64Array,
  bo: number,
  last: Float64Array,
  lo: number,
  added: Float64Array,
  ao: number,
  limit: Float64Array,
  li: number,
  limits: Float64Array,
  lmo: number,
  fresh: boolean,
): boolean {
  let turned = false;
  if (!fresh && limit[li] > -2) {
    // The animation's turn since last frame, as the cosine and sine of its half angle.
    conjugate(q, 4, last, lo);
    multiply(q, 0, q, 4, base, bo);
    const bs = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    const bc = q[3] < 0 ? -q[3] : q[3];
    const bl = Math.sqrt(bs * bs + bc * bc);
    // Half of (limit + that turn): its cosine; at or past a half turn of π/2, no limit.
    const cos = (limit[li] * bc - limit[li + 1] * bs) / bl;
    if (cos > 0) {
      const sin = (limit[li + 1] * bc + limit[li] * bs) / bl;
      for (let c = 0; c < 4; c++) q[16 + c] = rotations[ro + c];
      if (stepToward(rotations, ro, last, lo + 4, cos, sin) === TURNED) {
        turned = true;
        if (
          withinLimit(q, 16, limits, lmo) &&
          withinLimit(last, lo + 4, limits, lmo) &&
          clampRotation(rotations, ro, limits, lmo)
        ) {
          stepToward(rotations, ro, last, lo + 4, cos, sin);
        }
      }
    }
  }
  for (let c = 0; c < 4; c++) {
    last[lo + c] = base[bo + c];
    last[lo + 4 + c] = rotations[ro + c];
  }
  conjugate(q, 4, base, bo);
  multiply(added, ao, q, 4, rotations, ro);
  return turned;
}

/** What {@link stepToward} did: nothing (within a step), turned the rotation, or met no axis. */
const WITHIN = 0;
const TURNED = 1;
const NO_AXIS = -1;

/**
 * Where the rotation `r[ro …]` is more than a step from `from[fo …]` (the shorter way; the step's
 * half-angle has cosine `cos` and sine `sin`), turns it to a step from there along the same axis
 * (normalized): `TURNED`. `WITHIN` where it is within the step; `NO_AXIS`, turning nothing, for a
 * change past the step with no axis (a NaN met). Uses `q[4 … 11]`; `r` may be `q` at 0.
 */
function stepToward(
  r: Float64Array,
  ro: number,
  from: Float64Array,
  fo: number,
  cos: number,
  sin: number,
): number {
  // d = from⁻¹ · r, the shorter way (w ≥ 0).
  conjugate(q, 4, from, fo);
  multiply(q, 8, q, 4, r, ro);
  const sign = q[11] < 0 ? -1 : 1;
  if (q[11] * sign >= cos) return WITHIN;
  const ax = q[8] * sign;
  const ay = q[9] * sign;
  const az = q[10] * sign;
  const al = Math.sqrt(ax * ax + ay * ay + az * az);
  if (!(al > 0)) return NO_AXIS;
  const f = sin / al;
  q[8] = ax * f;
  q[9] = ay * f;
  q[10] = az * f;
  q[11] = cos;
  multiply(r, ro, from, fo, q, 8);
  normalize(r, ro, r, ro);
  return TURNED;
}

/**
 * Whether the rotation `r[ro …]` is within the joint-limit record `limits[lmo …]`: held in by
 * {@link clampRotation}, it moves by less than rounding (a rotation a clamp left on its bound
 * counts as within).
 */
function withinLimit(r: Float64Array, ro: number, limits: Float64Array, lmo: number): boolean {
  for (let c = 0; c < 4; c++) q[20 + c] = r[ro + c];
  if (!clampRotation(q, 20, limits, lmo)) return true;
  const d = q[20] * r[ro] + q[21] * r[ro + 1] + q[22] * r[ro + 2] + q[23] * r[ro + 3];
  return (d < 0 ? -d : d) > 1 - 1e-12;
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
