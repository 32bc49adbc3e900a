/**
 * Joint-limit enforcement on local rotations (docs/methods.md §7), trig-free (§5).
 *
 * A limit is a fixed-size record of numbers in a `Float64Array` (see {@link LIMIT_STRIDE} and the
 * `LIMIT_*` offsets), built once at configuration time by `src/ik/joint-limits.ts`: every angle is
 * already turned into the cosine and sine of its half, so enforcement needs only `+ − × ÷ √`. A
 * limit is relative to the joint's rest local rotation `q₀` and lives in the joint's own frame: the
 * local rotation is written `q = q₀ · d` and the limit constrains `d` (a correction composed on the
 * right, like every IK correction in tendon).
 *
 * @packageDocumentation
 */
import { fromAxisCosSin, rotationBetween } from './quat.js';

/** Numbers per limit record. */
export const LIMIT_STRIDE = 16;
/** Record offset of the kind: {@link LIMIT_NONE}, {@link LIMIT_HINGE} or {@link LIMIT_CONE}. */
export const LIMIT_KIND = 0;
/** Record offset of the unit axis (3 numbers): the hinge axis, or the cone's axis, joint-local. */
export const LIMIT_AXIS = 1;
/**
 * Record offset of the twist range (4 numbers): `cos(min/2), sin(min/2), cos(max/2), sin(max/2)`.
 * A hinge's angle is its twist; `[−π, π]` (`sin` −1 and 1) means unlimited.
 */
export const LIMIT_TWIST = 4;
/** Record offset of `cos(angle/2), sin(angle/2)` of a cone's half-opening (2 numbers). */
export const LIMIT_CONE = 8;
/** Record offset of the joint's rest local rotation `q₀` (4 numbers). */
export const LIMIT_REST = 10;

/** Kind code: no limit. */
export const LIMIT_NONE = 0;
/** Kind code: rotation only about the axis, its angle within the twist range. */
export const LIMIT_HINGE = 1;
/** Kind code: swing of the axis within the cone, twist about it within the twist range. */
export const LIMIT_CONE_KIND = 2;

/**
 * Below this squared length a swing's vector part counts as zero: a rotation that is on its hinge up
 * to rounding (~1e-12 rad) is not reported as clamped.
 */
const SWING_EPS_SQ = 1e-24;

/** {@link halfAngleBound} and {@link twistAtBound} result: the least angle of the range. */
export const AT_TWIST_MIN = 1;
/** {@link halfAngleBound} and {@link twistAtBound} result: the greatest angle of the range. */
export const AT_TWIST_MAX = 2;

/**
 * The one circular clamp of tendon's limits: where a half-angle `φ` goes under the range
 * `[φmin, φmax] ⊂ [−π/2, π/2]` — 0 when inside, else {@link AT_TWIST_MIN} or
 * {@link AT_TWIST_MAX}, the bound nearer on the circle of the whole angle `2φ` (angles mod 2π: past
 * −π an angle is near +π, so an angle crossing ±π from one side of a range does not jump to its
 * far end). A tie goes to the bound crossed, which keeps a clamp idempotent under rounding.
 *
 * `(s, c)` is `φ`'s sine and cosine up to a common positive factor (`c ≥ 0`); the bounds are unit
 * `(cos φ, sin φ)` pairs. `φ < φ₀` exactly when `sin(φ − φ₀) = sin φ cos φ₀ − cos φ sin φ₀ < 0`,
 * a comparison that stays well conditioned at every angle (sines alone lose half the digits near
 * ±π/2, cosines alone near 0); which bound is nearer is read likewise, so a range a few nanoradians
 * wide still sends an angle to its nearer end. A joint's twist ({@link clampRotation}) is such a half-angle; the
 * two-bone kernel's bend range is one once measured from the range's middle.
 */
export function halfAngleBound(
  s: number,
  c: number,
  cMin: number,
  sMin: number,
  cMax: number,
  sMax: number,
): number {
  let sinMin = s * cMin - c * sMin;
  let sinMax = s * cMax - c * sMax;
  const below = sinMin < 0;
  if (!below && !(sinMax > 0)) return 0;
  // Nearer on the circle of 2φ: the smaller |sin| of the half-angle difference, or the larger
  // |cos|, the same test; read from whichever pair is the smaller, where it is well conditioned
  // (cosines near 1 lose half the digits of a small difference, sines near 1 of one near π/2).
  let cosMin = c * cMin + s * sMin;
  let cosMax = c * cMax + s * sMax;
  sinMin = sinMin < 0 ? -sinMin : sinMin;
  sinMax = sinMax < 0 ? -sinMax : sinMax;
  cosMin = cosMin < 0 ? -cosMin : cosMin;
  cosMax = cosMax < 0 ? -cosMax : cosMax;
  const bySine = sinMin + sinMax < cosMin + cosMax;
  const nearerMin = bySine
    ? below
      ? sinMin <= sinMax
      : sinMin < sinMax
    : below
      ? cosMin >= cosMax
      : cosMin > cosMax;
  return nearerMin ? AT_TWIST_MIN : AT_TWIST_MAX;
}

/**
 * How far past a bound (the sine of the half-angle difference) {@link clampRotation} lets a
 * rotation be: a few ulps, what the arithmetic leaves on a rotation exactly at its bound.
 */
const ROUNDING = 1e-15;

/**
 * Enforces the limit record `limits[lo…]` on the local rotation `q[qo…]` in place and returns
 * whether the limit acted (it changed the rotation by more than rounding).
 *
 * Swing–twist decomposition of `d = q₀⁻¹ q` about the limit's axis `a`: the twist is the
 * normalized projection of `d` onto `a` (`(a (d·a), d_w)`), the swing `d · twist⁻¹` (so
 * `d = swing · twist`). With both in the hemisphere `w ≥ 0`, a half-angle `φ ∈ [−π/2, π/2]` has
 * `w = cos φ ≥ 0`; a half-angle is compared with a bound `φ₀` through the sign of
 * `sin(φ − φ₀) = sin φ cos φ₀ − cos φ sin φ₀` (well conditioned at every angle, where comparing
 * cosines alone would lose half the digits near 0), and a clamped part is rebuilt from the stored
 * half-angle cosine and sine. A twist outside its range goes to the bound nearer on the circle
 * ({@link halfAngleBound}). A hinge drops the swing. The result is
 * renormalized, in the hemisphere of the input.
 */
export function clampRotation(q: Float64Array, qo: number, limits: Float64Array, lo: number): boolean {
  const kind = limits[lo + LIMIT_KIND];
  if (kind === LIMIT_NONE) return false;
  const ax = limits[lo + LIMIT_AXIS];
  const ay = limits[lo + LIMIT_AXIS + 1];
  const az = limits[lo + LIMIT_AXIS + 2];
  const rx = limits[lo + LIMIT_REST];
  const ry = limits[lo + LIMIT_REST + 1];
  const rz = limits[lo + LIMIT_REST + 2];
  const rw = limits[lo + LIMIT_REST + 3];
  const qx = q[qo];
  const qy = q[qo + 1];
  const qz = q[qo + 2];
  const qw = q[qo + 3];
  // d = conj(q₀) · q
  let dx = rw * qx - rx * qw - ry * qz + rz * qy;
  let dy = rw * qy + rx * qz - ry * qw - rz * qx;
  let dz = rw * qz - rx * qy + ry * qx - rz * qw;
  let dw = rw * qw + rx * qx + ry * qy + rz * qz;
  if (dw < 0) {
    dx = -dx;
    dy = -dy;
    dz = -dz;
    dw = -dw;
  }
  // Twist: projection onto the axis. Zero when d is a half turn about an axis perpendicular to a:
  // its twist is then the identity.
  const proj = dx * ax + dy * ay + dz * az;
  let tLen = Math.sqrt(proj * proj + dw * dw);
  let ts: number; // sin of the twist's half-angle (signed, along a)
  let tc: number; // cos of the twist's half-angle, ≥ 0
  if (tLen > 0) {
    ts = proj / tLen;
    tc = dw / tLen;
  } else {
    ts = 0;
    tc = 1;
    tLen = 0;
  }
  // Swing = d · conj(twist), twist = (a ts, tc).
  let sx = dx * tc - dw * ax * ts - (dy * az - dz * ay) * ts;
  let sy = dy * tc - dw * ay * ts - (dz * ax - dx * az) * ts;
  let sz = dz * tc - dw * az * ts - (dx * ay - dy * ax) * ts;
  let sw = dw * tc + proj * ts;
  let changed = false;
  const cMin = limits[lo + LIMIT_TWIST];
  const sMin = limits[lo + LIMIT_TWIST + 1];
  const cMax = limits[lo + LIMIT_TWIST + 2];
  const sMax = limits[lo + LIMIT_TWIST + 3];
  const bound = halfAngleBound(ts, tc, cMin, sMin, cMax, sMax);
  // Past a bound by rounding only (the sine of the half-angles' difference within a few ulps) is
  // within it: a twist locked at 0 read every exact aim as clamped, never reached.
  const past = bound === AT_TWIST_MIN ? ts * cMin - tc * sMin : ts * cMax - tc * sMax;
  if (bound !== 0 && (past > ROUNDING || past < -ROUNDING)) {
    if (bound === AT_TWIST_MIN) {
      tc = cMin;
      ts = sMin;
    } else {
      tc = cMax;
      ts = sMax;
    }
    changed = true;
  }
  if (kind === LIMIT_HINGE) {
    if (sx * sx + sy * sy + sz * sz > SWING_EPS_SQ) changed = true;
    sx = 0;
    sy = 0;
    sz = 0;
    sw = 1;
  } else {
    if (sw < 0) {
      sx = -sx;
      sy = -sy;
      sz = -sz;
      sw = -sw;
    }
    // The swing's half-angle ψ = atan2(|v|, w) exceeds the cone's ψ₀ exactly when
    // |v| cos ψ₀ − w sin ψ₀ > 0 (the same well-conditioned test as above).
    const coneCos = limits[lo + LIMIT_CONE];
    const coneSin = limits[lo + LIMIT_CONE + 1];
    const vLenSq = sx * sx + sy * sy + sz * sz;
    if (vLenSq > 0) {
      const vLen = Math.sqrt(vLenSq);
      if (vLen * coneCos - sw * coneSin > ROUNDING) {
        // Keep the swing's axis, set its half-angle to the cone's.
        const k = coneSin / vLen;
        sx *= k;
        sy *= k;
        sz *= k;
        sw = coneCos;
        changed = true;
      }
    }
  }
  if (!changed) return false;
  // d' = swing · twist
  const tx = ax * ts;
  const ty = ay * ts;
  const tz = az * ts;
  const nx = sw * tx + sx * tc + sy * tz - sz * ty;
  const ny = sw * ty - sx * tz + sy * tc + sz * tx;
  const nz = sw * tz + sx * ty - sy * tx + sz * tc;
  const nw = sw * tc - sx * tx - sy * ty - sz * tz;
  // q = q₀ · d'
  let ox = rw * nx + rx * nw + ry * nz - rz * ny;
  let oy = rw * ny - rx * nz + ry * nw + rz * nx;
  let oz = rw * nz + rx * ny - ry * nx + rz * nw;
  let ow = rw * nw - rx * nx - ry * ny - rz * nz;
  const lenSq = ox * ox + oy * oy + oz * oz + ow * ow;
  const inv = 1 / Math.sqrt(lenSq);
  ox *= inv;
  oy *= inv;
  oz *= inv;
  ow *= inv;
  // Keep the caller's hemisphere: q and −q are the same rotation, but a pose that flips sign from
  // frame to frame blends badly.
  if (ox * qx + oy * qy + oz * qz + ow * qw < 0) {
    ox = -ox;
    oy = -oy;
    oz = -oz;
    ow = -ow;
  }
  q[qo] = ox;
  q[qo + 1] = oy;
  q[qo + 2] = oz;
  q[qo + 3] = ow;
  return true;
}

/**
 * How near a bound a twist sits "at" it for {@link twistAtBound}: `sin(φ − φ₀)` of the half-angles
 * within this (about 2e-9 rad of twist), a little above what a clamp's rounding leaves.
 */
const AT_BOUND = 1e-9;

/**
 * Which bound of its twist range (a hinge's range, a cone's twist) the local rotation `q[qo…]`
 * sits at under the limit record `limits[lo…]`: {@link AT_TWIST_MIN}, {@link AT_TWIST_MAX}, or 0
 * when neither. The twist is read as {@link clampRotation} reads it (the normalized projection of
 * `d = q₀⁻¹ q` onto the axis, `w ≥ 0`) and compared with a bound the same way, by
 * `sin(φ − φ₀)`: here its size, at most 1e-9 (about 2e-9 rad of twist). A side of the range that
 * is open (its bound at ±π) never counts; a range of zero width reports its minimum. 0 for a
 * rotation with no twist (a half-turn swing) or no limit.
 */
export function twistAtBound(q: Float64Array, qo: number, limits: Float64Array, lo: number): number {
  if (limits[lo + LIMIT_KIND] === LIMIT_NONE) return 0;
  const ax = limits[lo + LIMIT_AXIS];
  const ay = limits[lo + LIMIT_AXIS + 1];
  const az = limits[lo + LIMIT_AXIS + 2];
  const rx = limits[lo + LIMIT_REST];
  const ry = limits[lo + LIMIT_REST + 1];
  const rz = limits[lo + LIMIT_REST + 2];
  const rw = limits[lo + LIMIT_REST + 3];
  const qx = q[qo];
  const qy = q[qo + 1];
  const qz = q[qo + 2];
  const qw = q[qo + 3];
  // d = conj(q₀) · q: its projection onto a and its w, in the hemisphere w ≥ 0.
  const dx = rw * qx - rx * qw - ry * qz + rz * qy;
  const dy = rw * qy + rx * qz - ry * qw - rz * qx;
  const dz = rw * qz - rx * qy + ry * qx - rz * qw;
  const dw = rw * qw + rx * qx + ry * qy + rz * qz;
  const sign = dw < 0 ? -1 : 1;
  const proj = sign * (dx * ax + dy * ay + dz * az);
  const tLen = Math.sqrt(proj * proj + dw * dw);
  if (!(tLen > 0)) return 0;
  const ts = proj / tLen;
  const tc = (sign * dw) / tLen;
  const cMin = limits[lo + LIMIT_TWIST];
  const sMin = limits[lo + LIMIT_TWIST + 1];
  const cMax = limits[lo + LIMIT_TWIST + 2];
  const sMax = limits[lo + LIMIT_TWIST + 3];
  const toMin = ts * cMin - tc * sMin;
  if (toMin < AT_BOUND && toMin > -AT_BOUND && !(cMin === 0 && sMin === -1)) return AT_TWIST_MIN;
  const toMax = ts * cMax - tc * sMax;
  if (toMax < AT_BOUND && toMax > -AT_BOUND && !(cMax === 0 && sMax === 1)) return AT_TWIST_MAX;
  return 0;
}

/**
 * Writes the rotation about the unit axis `axis[ao…]` that turns the component of `u` perpendicular
 * to the axis onto that of `v` (a hinge's best answer to "point u at v"), from the cosine and sine
 * of the angle between the two projections ({@link fromAxisCosSin}, accurate at every angle), a
 * half turn about the axis (not an arbitrary one) when they are opposite. The identity when either projection
 * vanishes (no direction to turn toward).
 */
export function hingeFromTo(
  out: Float64Array,
  o: number,
  axis: Float64Array,
  ao: number,
  u: Float64Array,
  uo: number,
  v: Float64Array,
  vo: number,
): void {
  const ax = axis[ao];
  const ay = axis[ao + 1];
  const az = axis[ao + 2];
  const ud = u[uo] * ax + u[uo + 1] * ay + u[uo + 2] * az;
  const ux = u[uo] - ax * ud;
  const uy = u[uo + 1] - ay * ud;
  const uz = u[uo + 2] - az * ud;
  const vd = v[vo] * ax + v[vo + 1] * ay + v[vo + 2] * az;
  const vx = v[vo] - ax * vd;
  const vy = v[vo + 1] - ay * vd;
  const vz = v[vo + 2] - az * vd;
  const uLenSq = ux * ux + uy * uy + uz * uz;
  const vLenSq = vx * vx + vy * vy + vz * vz;
  // A projection this short (against the vector it came from) has no direction worth following;
  // the bound also keeps the squares away from subnormals, where 1/√ overflows.
  const uFullSq = u[uo] * u[uo] + u[uo + 1] * u[uo + 1] + u[uo + 2] * u[uo + 2];
  const vFullSq = v[vo] * v[vo] + v[vo + 1] * v[vo + 1] + v[vo + 2] * v[vo + 2];
  if (!(uLenSq > 1e-24 * uFullSq && vLenSq > 1e-24 * vFullSq && uLenSq > 1e-300 && vLenSq > 1e-300)) {
    out[o] = 0;
    out[o + 1] = 0;
    out[o + 2] = 0;
    out[o + 3] = 1;
    return;
  }
  const iu = 1 / Math.sqrt(uLenSq);
  const iv = 1 / Math.sqrt(vLenSq);
  const nux = ux * iu;
  const nuy = uy * iu;
  const nuz = uz * iu;
  const nvx = vx * iv;
  const nvy = vy * iv;
  const nvz = vz * iv;
  const f = fromTo;
  f[0] = nux * nvx + nuy * nvy + nuz * nvz;
  // û × v̂ is along the axis (both vectors are perpendicular to it): its signed length.
  f[1] = ax * (nuy * nvz - nuz * nvy) + ay * (nuz * nvx - nux * nvz) + az * (nux * nvy - nuy * nvx);
  // Built about the axis itself, so the result turns about nothing else.
  fromAxisCosSin(out, o, axis, ao, f, 0);
}

// The numbers handed to fromAxisCosSin() and rotationBetween(), in an array: V8 boxes doubles passed
// to a call it does not inline. Written and read within one call, never across one.
const fromTo = new Float64Array(9);

/**
 * Turns the local rotation `q[qo…]` so that the joint-frame vector `u` points along `v`, then
 * enforces the limit; returns whether the limit acted. Both vectors are in the joint's rotation
 * frame (after its scale, before its rotation: `R(q) · u` is where `u` sits in the parent's
 * frame), so the correction `R` composes on the right, `q ← q · R`, as docs/methods.md §3 does.
 * Unlimited and cone joints take the minimal rotation ({@link rotationBetween}: accurate at every
 * angle, a half turn about a fixed perpendicular for opposite vectors; keeps the bone's twist),
 * hinge joints the rotation about their axis ({@link hingeFromTo}), which keeps a joint that is on
 * its hinge on it. A zero `u` or `v` leaves `q` unturned. `scratch` needs 4 numbers.
 */
export function aimJoint(
  q: Float64Array,
  qo: number,
  u: Float64Array,
  uo: number,
  v: Float64Array,
  vo: number,
  limits: Float64Array,
  lo: number,
  scratch: Float64Array,
): boolean {
  const kind = limits[lo + LIMIT_KIND];
  if (kind === LIMIT_HINGE) {
    hingeFromTo(scratch, 0, limits, lo + LIMIT_AXIS, u, uo, v, vo);
  } else {
    const ux = u[uo];
    const uy = u[uo + 1];
    const uz = u[uo + 2];
    const vx = v[vo];
    const vy = v[vo + 1];
    const vz = v[vo + 2];
    const uLenSq = ux * ux + uy * uy + uz * uz;
    const vLenSq = vx * vx + vy * vy + vz * vz;
    if (!(uLenSq > 1e-300 && vLenSq > 1e-300)) {
      return kind === LIMIT_NONE ? false : clampRotation(q, qo, limits, lo);
    }
    const iu = 1 / Math.sqrt(uLenSq);
    const iv = 1 / Math.sqrt(vLenSq);
    const nux = ux * iu;
    const nuy = uy * iu;
    const nuz = uz * iu;
    const nvx = vx * iv;
    const nvy = vy * iv;
    const nvz = vz * iv;
    const f = fromTo;
    f[0] = nux;
    f[1] = nuy;
    f[2] = nuz;
    f[3] = nvx;
    f[4] = nvy;
    f[5] = nvz;
    // No preferred half-turn axis: rotationBetween then takes the coordinate axis least aligned
    // with u, made perpendicular.
    f[6] = 0;
    f[7] = 0;
    f[8] = 0;
    rotationBetween(scratch, 0, f, 0, f, 3, f, 6);
  }
  // q ← q · R, renormalized so that repeated solves do not drift.
  const qx = q[qo];
  const qy = q[qo + 1];
  const qz = q[qo + 2];
  const qw = q[qo + 3];
  const bx = scratch[0];
  const by = scratch[1];
  const bz = scratch[2];
  const bw = scratch[3];
  const x = qw * bx + qx * bw + qy * bz - qz * by;
  const y = qw * by - qx * bz + qy * bw + qz * bx;
  const z = qw * bz + qx * by - qy * bx + qz * bw;
  const w = qw * bw - qx * bx - qy * by - qz * bz;
  const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
  q[qo] = x * inv;
  q[qo + 1] = y * inv;
  q[qo + 2] = z * inv;
  q[qo + 3] = w * inv;
  return kind === LIMIT_NONE ? false : clampRotation(q, qo, limits, lo);
}
