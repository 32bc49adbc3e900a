/**
 * Points-at (aim) in a bone's own rotation frame (docs/methods.md §3): the minimal rotation that
 * turns a forward axis toward a target, an optional roll toward an up direction, and swing/twist
 * limits relative to the rest rotation. Only `+ − × ÷` and `√`: the same inputs give bit-identical
 * rotations on every engine (docs/methods.md §5).
 *
 * "Rotation frame" of a joint with local rotation `q`: the frame in which a vector `v` lands at
 * `t + q·v` in the parent's frame, i.e. the joint's frame before its own scale. A child at local
 * translation `p` sits at `s ∘ p` in it. Aiming there is exact in model space for any affine parent
 * (rotated, scaled, non-uniformly scaled, mirrored): affine maps carry rays to rays and planes to
 * planes.
 *
 * @packageDocumentation
 */
import {
  clampRotation,
  LIMIT_AXIS,
  LIMIT_CONE,
  LIMIT_CONE_KIND,
  LIMIT_KIND,
  LIMIT_REST,
  LIMIT_STRIDE,
  LIMIT_TWIST,
} from './joint-limits.js';
import { multiply, normalize, rotateVec3, rotationBetween } from './quat.js';

// Layout of the work array read and written by aimLocal(). Numbers travel in this array rather
// than as arguments: V8 boxes a double passed to a call it does not inline.
/**
 * Slot of a joint-limit record ({@link LIMIT_STRIDE} numbers, `./joint-limits.ts`) with the forward
 * axis as its axis: the cone and twist limits are enforced by {@link clampRotation}, both at once
 * whenever {@link AIM_HAS_CONE} or {@link AIM_HAS_TWIST} is set ({@link aimLocal} writes the record's
 * kind). Configuration: a limit that is not wanted is stored as the full range, cone π
 * (`[0, 1]` at {@link AIM_CONE}) or twist [−π, π] (`[0, −1, 0, 1]` at {@link AIM_TWIST_MIN}).
 */
export const AIM_LIMIT = 56;
/** Slot of the forward axis (unit, rotation frame), 3 numbers: the limit record's axis. Configuration. */
export const AIM_FORWARD = AIM_LIMIT + LIMIT_AXIS;
/** Slot of the aiming point (rotation frame), 3 numbers. Configuration. */
export const AIM_OFFSET = 3;
/** Slot of the up axis (unit, rotation frame), 3 numbers. Configuration. */
export const AIM_UP_AXIS = 6;
/** Slot of `[cos(cone/2), sin(cone/2)]` in the limit record. Configuration. */
export const AIM_CONE = AIM_LIMIT + LIMIT_CONE;
/** Slot of `[cos(twistMin/2), sin(twistMin/2)]` in the limit record. Configuration. */
export const AIM_TWIST_MIN = AIM_LIMIT + LIMIT_TWIST;
/** Slot of `[cos(twistMax/2), sin(twistMax/2)]` in the limit record. Configuration. */
export const AIM_TWIST_MAX = AIM_LIMIT + LIMIT_TWIST + 2;
/** Slot of the rest local rotation (unit quaternion) the limits are measured from. Configuration. */
export const AIM_REST = AIM_LIMIT + LIMIT_REST;
/** Slot of the current local rotation (unit quaternion). Input. */
export const AIM_ROTATION = 19;
/** Slot of the target relative to the joint's origin, in its current rotation frame. Input. */
export const AIM_TARGET = 23;
/** Slot of the up direction in the joint's current rotation frame (any length). Input. */
export const AIM_UP_DIRECTION = 26;
/** Slot of the solved local rotation (unit quaternion, before any weight). Output. */
export const AIM_RESULT = 29;
// Scratch slots 33… used inside aimLocal().
const A_DIR = 33; // unit aim-point direction in the solved frame
const D_DIR = 36; // unit target direction
const CORR = 39; // correction quaternion
const TMP_Q = 43; // quaternion temporary
const TMP_V = 47; // vector temporary
const HINT = 50; // preferred half-turn axis
/** Length of the work array {@link aimLocal} needs. */
export const AIM_WORK_SIZE = AIM_LIMIT + LIMIT_STRIDE;

/** {@link aimLocal} flag: the work array holds an offset (otherwise the aiming point is the origin). */
export const AIM_HAS_OFFSET = 1;
/** {@link aimLocal} flag: roll the up axis toward the up direction. */
export const AIM_HAS_UP = 2;
/** {@link aimLocal} flag: limit the swing to the cone (and the twist to its range, full when unset). */
export const AIM_HAS_CONE = 4;
/** {@link aimLocal} flag: limit the twist to `[twistMin, twistMax]` (and the swing to its cone, full when unset). */
export const AIM_HAS_TWIST = 8;
/** {@link aimLocal} flag: an up axis is configured (preferred axis of a half turn), even when not rolling. */
export const AIM_PREFER_UP = 16;

/** {@link aimLocal} result bit: the geometry had no unique or exact answer (see there). */
export const AIM_DEGENERATE = 1;
/** {@link aimLocal} result bit: a cone or twist limit changed the answer. */
export const AIM_CLAMPED = 2;
/**
 * {@link aimLocal} result bit, set with {@link AIM_DEGENERATE}: the roll was skipped (the up
 * direction, or the up axis after the aim, is parallel to the target direction), and that is the
 * only degeneracy: the aim itself is exact.
 */
export const AIM_ROLL_SKIPPED = 4;

// The scale of the last vector normalizeInPlace() saw, kept here rather than returned: a double
// returned from a call that is not inlined is boxed.
const SCALE = 53;

/**
 * Normalizes the 3-vector at `w[i]` in place without overflow or underflow (when squaring its
 * components would, it is divided by its largest absolute component `m` first; `m`, or 1 when it
 * was not, is kept in `w[SCALE]`: the original length is `m · |v / m|`). Returns false, leaving the
 * vector as it is, when it is zero or not finite.
 */
function normalizeInPlace(w: Float64Array, i: number): boolean {
  const x = w[i];
  const y = w[i + 1];
  const z = w[i + 2];
  let sx = x;
  let sy = y;
  let sz = z;
  let m = 1;
  let lenSq = x * x + y * y + z * z;
  if (!(lenSq > 1e-300 && lenSq < 1e300)) {
    // Squaring under- or overflowed (or met a NaN): rescale by the largest component first.
    const ax = x < 0 ? -x : x;
    const ay = y < 0 ? -y : y;
    const az = z < 0 ? -z : z;
    m = ax > ay ? ax : ay;
    if (az > m) m = az;
    // A NaN component can hide from the comparisons above, so test the sum too.
    if (!(m > 0 && m < Number.POSITIVE_INFINITY) || Number.isNaN(ax + ay + az)) {
      w[SCALE] = m;
      return false;
    }
    sx = x / m;
    sy = y / m;
    sz = z / m;
    lenSq = sx * sx + sy * sy + sz * sz;
  }
  w[SCALE] = m;
  const inv = 1 / Math.sqrt(lenSq);
  w[i] = sx * inv;
  w[i + 1] = sy * inv;
  w[i + 2] = sz * inv;
  return true;
}

/**
 * Solves one points-at constraint in a joint's rotation frame, reading and writing the slots of
 * the work array `w` (`AIM_*` constants; configuration slots are set once, input slots per solve).
 * Writes the new local rotation to `w[AIM_RESULT…]` and returns {@link AIM_DEGENERATE},
 * {@link AIM_ROLL_SKIPPED} and/or {@link AIM_CLAMPED} bits. Allocates nothing; never throws; never writes NaN.
 *
 * 1. Aim: with `f` the forward axis, `o` the offset and `d` the target, find the point `a` on the ray
 *    `o + λ f` (λ ≥ 0) at distance `|d|` from the joint (the larger root of a quadratic), and the
 *    minimal rotation `R` carrying `a` onto `d`: then the ray, turned by `R`, passes through `d`.
 *    When `|d| < |o|` the ray may miss the sphere of radius `|d|`: `a` is then the ray's point
 *    nearest the origin (the ray passes as close to the target as it can) and the result is
 *    flagged degenerate. A target at the origin (or non-finite) leaves the rotation unchanged,
 *    flagged degenerate.
 * 2. Roll (flag {@link AIM_HAS_UP}): about the target direction `d̂` (which keeps the target on the
 *    ray), the minimal turn that brings the up axis's projection ⟂ `d̂` onto the up direction's.
 *    Skipped, flagged degenerate, when either projection is shorter than 1e-9 (parallel to `d̂`).
 * 3. Limits (flags {@link AIM_HAS_CONE}, {@link AIM_HAS_TWIST}): the rotation relative to rest,
 *    `Δ = rest⁻¹ · q'`, is split into swing · twist about the forward axis; the swing's half-angle
 *    is clamped to the cone's, the twist's to the nearer (circularly) of the twist limits, by
 *    comparing half-angle cosines and sines; the parts are recomposed. This is the chain solvers'
 *    joint-limit clamp ({@link clampRotation}) on the record at {@link AIM_LIMIT}.
 * 4. Where the limits changed the answer and there is an up direction: the roll of step 2 again,
 *    about the clamped forward axis (it changes the twist only, the swing staying in its cone),
 *    then the limits again (the twist's); skipped and flagged as step 2's where the up direction
 *    lies along that axis.
 */
export function aimLocal(w: Float64Array, flags: number): number {
  let result = 0;
  // The result starts as the current rotation: every early return keeps the pose.
  w[AIM_RESULT] = w[AIM_ROTATION];
  w[AIM_RESULT + 1] = w[AIM_ROTATION + 1];
  w[AIM_RESULT + 2] = w[AIM_ROTATION + 2];
  w[AIM_RESULT + 3] = w[AIM_ROTATION + 3];

  // 1. Target direction d̂, and its length in units of m (so huge and tiny targets both work).
  w[D_DIR] = w[AIM_TARGET];
  w[D_DIR + 1] = w[AIM_TARGET + 1];
  w[D_DIR + 2] = w[AIM_TARGET + 2];
  if (!normalizeInPlace(w, D_DIR)) return AIM_DEGENERATE;
  const m = w[SCALE];
  const fx = w[AIM_FORWARD];
  const fy = w[AIM_FORWARD + 1];
  const fz = w[AIM_FORWARD + 2];
  if ((flags & AIM_HAS_OFFSET) !== 0) {
    const tx = w[AIM_TARGET] / m;
    const ty = w[AIM_TARGET + 1] / m;
    const tz = w[AIM_TARGET + 2] / m;
    const dd = tx * tx + ty * ty + tz * tz;
    const ox = w[AIM_OFFSET] / m;
    const oy = w[AIM_OFFSET + 1] / m;
    const oz = w[AIM_OFFSET + 2] / m;
    const of = ox * fx + oy * fy + oz * fz;
    const oo = ox * ox + oy * oy + oz * oz;
    // |o + λ f|² = dd  ⇔  λ² + 2 (o·f) λ + oo − dd = 0.
    const disc = of * of - oo + dd;
    let lambda = -1;
    if (disc >= 0) {
      const s = Math.sqrt(disc);
      // Larger root, written to avoid cancellation when o·f > 0.
      lambda = of > 0 ? (dd - oo) / (of + s) : s - of;
    }
    if (lambda >= 0) {
      w[A_DIR] = ox + lambda * fx;
      w[A_DIR + 1] = oy + lambda * fy;
      w[A_DIR + 2] = oz + lambda * fz;
    } else {
      // The ray cannot reach the target's sphere: use the ray's point nearest the joint.
      const back = of < 0 ? of : 0;
      w[A_DIR] = ox - back * fx;
      w[A_DIR + 1] = oy - back * fy;
      w[A_DIR + 2] = oz - back * fz;
      result |= AIM_DEGENERATE;
    }
    if (!normalizeInPlace(w, A_DIR)) return result | AIM_DEGENERATE;
  } else {
    w[A_DIR] = fx;
    w[A_DIR + 1] = fy;
    w[A_DIR + 2] = fz;
  }
  // Preferred half-turn axis for a target straight behind: the up axis when there is one.
  if ((flags & AIM_PREFER_UP) !== 0) {
    w[HINT] = w[AIM_UP_AXIS];
    w[HINT + 1] = w[AIM_UP_AXIS + 1];
    w[HINT + 2] = w[AIM_UP_AXIS + 2];
  } else {
    w[HINT] = 0;
    w[HINT + 1] = 0;
    w[HINT + 2] = 0;
  }
  rotationBetween(w, CORR, w, A_DIR, w, D_DIR, w, HINT);

  // 2. Roll about d̂.
  if ((flags & AIM_HAS_UP) !== 0) {
    // Skipped roll, flagged as the only degeneracy when the aim itself was exact.
    if (!roll(w))
      result |= (result & AIM_DEGENERATE) !== 0 ? AIM_DEGENERATE : AIM_DEGENERATE | AIM_ROLL_SKIPPED;
  }

  // q' = q · C (the correction acts in the joint's own frame).
  multiply(w, AIM_RESULT, w, AIM_ROTATION, w, CORR);
  normalize(w, AIM_RESULT, w, AIM_RESULT);

  // 3. Limits relative to rest.
  if ((flags & (AIM_HAS_CONE | AIM_HAS_TWIST)) !== 0) {
    w[AIM_LIMIT + LIMIT_KIND] = LIMIT_CONE_KIND;
    if (clampRotation(w, AIM_RESULT, w, AIM_LIMIT)) {
      result |= AIM_CLAMPED;
      // 4. The roll was for the forward axis on the target; the clamp turned it away, keeping
      // the roll as a tilt (40° at a cone of 0). Rolled again about the clamped forward axis:
      // this moves the twist only, so the swing stays within its cone; then the twist limit.
      if ((flags & AIM_HAS_UP) !== 0) {
        if (reroll(w)) clampRotation(w, AIM_RESULT, w, AIM_LIMIT);
        // The up direction along the clamped forward axis: no roll to make, flagged as step 2's.
        else result |= (result & AIM_DEGENERATE) !== 0 ? AIM_DEGENERATE : AIM_DEGENERATE | AIM_ROLL_SKIPPED;
      }
    }
  }
  return result;
}

/**
 * Step 4 of {@link aimLocal}: rolls the clamped result about its own forward axis so that its up
 * axis's projection ⟂ that axis lies along the up direction's. False (the result left as it is)
 * where the roll is undefined.
 */
function reroll(w: Float64Array): boolean {
  // CORR ← q⁻¹ · q_clamped, the clamped correction in the current rotation frame.
  w[TMP_Q] = -w[AIM_ROTATION];
  w[TMP_Q + 1] = -w[AIM_ROTATION + 1];
  w[TMP_Q + 2] = -w[AIM_ROTATION + 2];
  w[TMP_Q + 3] = w[AIM_ROTATION + 3];
  multiply(w, CORR, w, TMP_Q, w, AIM_RESULT);
  // The roll's axis: the forward axis after the clamped correction.
  rotateVec3(w, D_DIR, w, CORR, w, AIM_FORWARD);
  if (!normalizeInPlace(w, D_DIR) || !roll(w)) return false;
  multiply(w, AIM_RESULT, w, AIM_ROTATION, w, CORR);
  normalize(w, AIM_RESULT, w, AIM_RESULT);
  return true;
}

/** Composes the roll about d̂ onto CORR; false when the roll is undefined (and skipped). */
function roll(w: Float64Array): boolean {
  const dx = w[D_DIR];
  const dy = w[D_DIR + 1];
  const dz = w[D_DIR + 2];
  // The up axis after the aim rotation, projected ⟂ d̂.
  rotateVec3(w, TMP_V, w, CORR, w, AIM_UP_AXIS);
  let ax = w[TMP_V];
  let ay = w[TMP_V + 1];
  let az = w[TMP_V + 2];
  let k = ax * dx + ay * dy + az * dz;
  ax -= k * dx;
  ay -= k * dy;
  az -= k * dz;
  const al = ax * ax + ay * ay + az * az;
  // The up direction, normalized first (any length), projected ⟂ d̂.
  w[TMP_V] = w[AIM_UP_DIRECTION];
  w[TMP_V + 1] = w[AIM_UP_DIRECTION + 1];
  w[TMP_V + 2] = w[AIM_UP_DIRECTION + 2];
  if (!normalizeInPlace(w, TMP_V)) return false;
  let bx = w[TMP_V];
  let by = w[TMP_V + 1];
  let bz = w[TMP_V + 2];
  k = bx * dx + by * dy + bz * dz;
  bx -= k * dx;
  by -= k * dy;
  bz -= k * dz;
  const bl = bx * bx + by * by + bz * bz;
  // The up axis is unit and not parallel to forward; its projection is short only when the aim
  // put it along d̂ (an offset), the up direction's when it is parallel to the target direction.
  if (al < 1e-18 || bl < 1e-18) return false;
  const ai = 1 / Math.sqrt(al);
  const bi = 1 / Math.sqrt(bl);
  ax *= ai;
  ay *= ai;
  az *= ai;
  bx *= bi;
  by *= bi;
  bz *= bi;
  const c = ax * bx + ay * by + az * bz;
  const s = (ay * bz - az * by) * dx + (az * bx - ax * bz) * dy + (ax * by - ay * bx) * dz;
  // Rotation by φ about d̂ (cos φ = c, sin φ = s), as a quaternion proportional to
  // (d̂ sin φ, 1 + cos φ) or, when that cancels (φ near π), to (d̂ (1 − cos φ), sin φ).
  let rs: number;
  let rw: number;
  if (c >= 0) {
    rs = s;
    rw = 1 + c;
  } else {
    rs = 1 - c;
    rw = s;
  }
  const inv = 1 / Math.sqrt(rs * rs + rw * rw);
  w[TMP_Q] = dx * rs * inv;
  w[TMP_Q + 1] = dy * rs * inv;
  w[TMP_Q + 2] = dz * rs * inv;
  w[TMP_Q + 3] = rw * inv;
  // C ← roll · C (the roll applies after the aim).
  multiply(w, CORR, w, TMP_Q, w, CORR);
  return true;
}
