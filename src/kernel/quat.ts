/**
 * Quaternions stored `(x, y, z, w)` as four consecutive numbers at an offset in a flat array.
 *
 * The identity is `(0, 0, 0, 1)`: use {@link identity} rather than writing the literal, since a
 * library that orders its constructor `(w, x, y, z)` reads the same four numbers as a half turn.
 * Every function takes its output first, reads all inputs before writing, and so tolerates `out`
 * aliasing an input. Nothing here uses trigonometry: results are bit-identical across engines
 * (docs/methods.md §5).
 *
 * @packageDocumentation
 */
import type { NumericArray } from './types.js';

/** Writes the identity rotation `(0, 0, 0, 1)`. */
export function identity(out: NumericArray, o: number): void {
  out[o] = 0;
  out[o + 1] = 0;
  out[o + 2] = 0;
  out[o + 3] = 1;
}

/** Writes `(x, y, z, w)`. */
export function set(out: NumericArray, o: number, x: number, y: number, z: number, w: number): void {
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
  out[o + 3] = w;
}

/** Copies a quaternion. */
export function copy(out: NumericArray, o: number, a: NumericArray, ao: number): void {
  const x = a[ao];
  const y = a[ao + 1];
  const z = a[ao + 2];
  const w = a[ao + 3];
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
  out[o + 3] = w;
}

/** Four-component dot product. */
export function dot(a: NumericArray, ao: number, b: NumericArray, bo: number): number {
  return a[ao] * b[bo] + a[ao + 1] * b[bo + 1] + a[ao + 2] * b[bo + 2] + a[ao + 3] * b[bo + 3];
}

/**
 * Hamilton product `out = a · b`: the rotation that applies `b` first, then `a` (as matrices,
 * `R(a·b) = R(a) R(b)`).
 */
export function multiply(
  out: NumericArray,
  o: number,
  a: NumericArray,
  ao: number,
  b: NumericArray,
  bo: number,
): void {
  const ax = a[ao];
  const ay = a[ao + 1];
  const az = a[ao + 2];
  const aw = a[ao + 3];
  const bx = b[bo];
  const by = b[bo + 1];
  const bz = b[bo + 2];
  const bw = b[bo + 3];
  out[o] = aw * bx + ax * bw + ay * bz - az * by;
  out[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/** Conjugate `(−x, −y, −z, w)`: the inverse of a unit quaternion. */
export function conjugate(out: NumericArray, o: number, a: NumericArray, ao: number): void {
  const x = a[ao];
  const y = a[ao + 1];
  const z = a[ao + 2];
  const w = a[ao + 3];
  out[o] = -x;
  out[o + 1] = -y;
  out[o + 2] = -z;
  out[o + 3] = w;
}

/** Inverse of any non-zero quaternion (conjugate over squared length); zero stays zero. */
export function invert(out: NumericArray, o: number, a: NumericArray, ao: number): void {
  const x = a[ao];
  const y = a[ao + 1];
  const z = a[ao + 2];
  const w = a[ao + 3];
  const lenSq = x * x + y * y + z * z + w * w;
  const inv = lenSq > 0 ? 1 / lenSq : 0;
  out[o] = -x * inv;
  out[o + 1] = -y * inv;
  out[o + 2] = -z * inv;
  out[o + 3] = w * inv;
}

/** Scales to unit length. A zero quaternion becomes the identity rather than NaN. */
export function normalize(out: NumericArray, o: number, a: NumericArray, ao: number): void {
  const x = a[ao];
  const y = a[ao + 1];
  const z = a[ao + 2];
  const w = a[ao + 3];
  const lenSq = x * x + y * y + z * z + w * w;
  if (lenSq > 0) {
    const inv = 1 / Math.sqrt(lenSq);
    out[o] = x * inv;
    out[o + 1] = y * inv;
    out[o + 2] = z * inv;
    out[o + 3] = w * inv;
  } else {
    out[o] = 0;
    out[o + 1] = 0;
    out[o + 2] = 0;
    out[o + 3] = 1;
  }
}

/**
 * {@link normalize} that says whether `a` was a rotation at all: false (writing the identity) when
 * its squared length is zero, NaN or infinite, which normalizing would hide. Lets a solver check a
 * pose's rotation on the numbers it reads anyway.
 */
export function normalizeRotation(out: NumericArray, o: number, a: NumericArray, ao: number): boolean {
  const x = a[ao];
  const y = a[ao + 1];
  const z = a[ao + 2];
  const w = a[ao + 3];
  const lenSq = x * x + y * y + z * z + w * w;
  if (lenSq > 0 && lenSq < Number.POSITIVE_INFINITY) {
    const inv = 1 / Math.sqrt(lenSq);
    out[o] = x * inv;
    out[o + 1] = y * inv;
    out[o + 2] = z * inv;
    out[o + 3] = w * inv;
    return true;
  }
  out[o] = 0;
  out[o + 1] = 0;
  out[o + 2] = 0;
  out[o + 3] = 1;
  return false;
}

/** Rotates the vector `v` by the unit quaternion `q`: `out = q v q⁻¹`. */
export function rotateVec3(
  out: NumericArray,
  o: number,
  q: NumericArray,
  qo: number,
  v: NumericArray,
  vo: number,
): void {
  const qx = q[qo];
  const qy = q[qo + 1];
  const qz = q[qo + 2];
  const qw = q[qo + 3];
  const vx = v[vo];
  const vy = v[vo + 1];
  const vz = v[vo + 2];
  // t = 2 (q.xyz × v); v' = v + w t + q.xyz × t: two cross products, no matrix.
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  out[o] = vx + qw * tx + qy * tz - qz * ty;
  out[o + 1] = vy + qw * ty + qz * tx - qx * tz;
  out[o + 2] = vz + qw * tz + qx * ty - qy * tx;
}

/** `1 / (i (2i + 1))` for the slerp series below, so its loop multiplies instead of dividing. */
const SERIES = new Float64Array(64);
for (let i = 1; i < 64; i++) SERIES[i] = 1 / (i * (2 * i + 1));

// Holds t for slerp(), so that it can hand its number to slerpFrom() in an array.
const slerpScratch = new Float64Array(1);

/**
 * Spherical linear interpolation along the shorter arc (`b` is negated when `a · b < 0`), with
 * constant angular velocity, exact at every angle. Trig-free (see {@link slerpFrom}). The result
 * is renormalized so that unit inputs give a unit output to 1 ulp. (three.js's
 * `Quaternion.slerpFlat` switches to nlerp when `a · b ≥ 0.9995`, i.e. below ~3.6°, the usual case
 * between keys: the two then differ by up to ~4e-7.)
 */
export function slerp(
  out: NumericArray,
  o: number,
  a: NumericArray,
  ao: number,
  b: NumericArray,
  bo: number,
  t: number,
): void {
  slerpScratch[0] = t;
  slerpFrom(out, o, a, ao, b, bo, slerpScratch, 0);
}

/**
 * {@link slerp} with its parameter read from `params[po]`: the form hot paths call, because V8
 * boxes a double passed to a call it does not inline (16 bytes of garbage per call).
 *
 * The weights `sin(tθ)/sin θ` and `sin((1−t)θ)/sin θ` come from the power series in `(x − 1)`,
 * `x = cos θ`, of Eberly ("A Fast and Accurate Algorithm for Computing SLERP", 2011), summed until
 * the terms no longer change the sums: only `+ − × ÷`, exact to a few ulps (≤ 1e-15 against
 * `Math.sin`), identical on every engine. The terms shrink at least as fast as `((1 − x) / 2)^i`:
 * about 55 at θ = 90° (the worst case after taking the shorter arc), 3–6 between animation keys.
 * At `x = 1` the weights are exactly `1 − t` and `t`.
 */
export function slerpFrom(
  out: NumericArray,
  o: number,
  a: NumericArray,
  ao: number,
  b: NumericArray,
  bo: number,
  params: Float64Array,
  po: number,
): void {
  const t = params[po];
  const ax = a[ao];
  const ay = a[ao + 1];
  const az = a[ao + 2];
  const aw = a[ao + 3];
  let bx = b[bo];
  let by = b[bo + 1];
  let bz = b[bo + 2];
  let bw = b[bo + 3];
  let cos = ax * bx + ay * by + az * bz + aw * bw;
  if (cos < 0) {
    cos = -cos;
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
  }
  const xm1 = (cos > 1 ? 1 : cos) - 1;
  const h = -xm1;
  // Terms needed: each is below |xm1|/2 times the one before, and the weights are at least t and
  // 1 − t, so stopping after n terms leaves a relative error under 2 (|xm1|/2)^(n+1) ≤ 5.4e-17.
  // Thresholds for the common small angles; a running product for the rest.
  let n: number;
  if (h <= 6e-6) n = h <= 5.4e-17 ? 0 : h <= 1.039e-8 ? 1 : 2;
  else if (h <= 9.711e-4) n = h <= 1.441e-4 ? 3 : 4;
  else if (h <= 1.698e-2) n = h <= 3.464e-3 ? 5 : h <= 8.591e-3 ? 6 : 7;
  else {
    const half = h * 0.5;
    let bound = half * half;
    n = 1;
    while (bound > 2.7e-17 && n < 63) {
      bound *= half;
      n++;
    }
  }
  // Horner form of t · Σ_i Π_{k≤i} (t² − k²) / (k (2k + 1)) · (x − 1), for both weights at once.
  const u = 1 - t;
  const u2 = u * u;
  const t2 = t * t;
  let acc0 = 1;
  let acc1 = 1;
  for (let i = n; i > 0; i--) {
    const k = SERIES[i] * xm1;
    const ii = i * i;
    acc0 = 1 + k * (u2 - ii) * acc0;
    acc1 = 1 + k * (t2 - ii) * acc1;
  }
  const s0 = u * acc0;
  const s1 = t * acc1;
  const x = ax * s0 + bx * s1;
  const y = ay * s0 + by * s1;
  const z = az * s0 + bz * s1;
  const w = aw * s0 + bw * s1;
  const lenSq = x * x + y * y + z * z + w * w;
  const inv = lenSq > 0 ? 1 / Math.sqrt(lenSq) : 0;
  out[o] = x * inv;
  out[o + 1] = y * inv;
  out[o + 2] = z * inv;
  out[o + 3] = w * inv;
}

/**
 * Normalized linear interpolation along the shorter arc. Not constant-velocity: between keys 30°
 * apart it deviates from slerp by up to 5.8e-4 rad, between RobotExpressive's keys by 4.3e-2 rad.
 */
export function nlerp(
  out: NumericArray,
  o: number,
  a: NumericArray,
  ao: number,
  b: NumericArray,
  bo: number,
  t: number,
): void {
  const ax = a[ao];
  const ay = a[ao + 1];
  const az = a[ao + 2];
  const aw = a[ao + 3];
  const bx = b[bo];
  const by = b[bo + 1];
  const bz = b[bo + 2];
  const bw = b[bo + 3];
  const s1 = ax * bx + ay * by + az * bz + aw * bw < 0 ? -t : t;
  const s0 = 1 - t;
  const x = ax * s0 + bx * s1;
  const y = ay * s0 + by * s1;
  const z = az * s0 + bz * s1;
  const w = aw * s0 + bw * s1;
  const lenSq = x * x + y * y + z * z + w * w;
  const inv = lenSq > 0 ? 1 / Math.sqrt(lenSq) : 0;
  out[o] = x * inv;
  out[o + 1] = y * inv;
  out[o + 2] = z * inv;
  out[o + 3] = w * inv;
}

/**
 * Scales a turn by a weight in place: `q ← nlerp(identity, q, w)` on the shorter arc (`q` taken
 * in the identity's hemisphere), exact at 0 and 1. The weight is read from `params[po]`, so that no
 * double crosses the call (one passed to a call V8 does not inline is boxed). `q` must be a unit
 * quaternion (the result's length is then never 0).
 */
export function scaleTurn(out: NumericArray, o: number, params: NumericArray, po: number): void {
  const w = params[po];
  const sign = out[o + 3] < 0 ? -w : w;
  const bx = out[o] * sign;
  const by = out[o + 1] * sign;
  const bz = out[o + 2] * sign;
  const bw = 1 - w + out[o + 3] * sign;
  const inv = 1 / Math.sqrt(bx * bx + by * by + bz * bz + bw * bw);
  out[o] = bx * inv;
  out[o + 1] = by * inv;
  out[o + 2] = bz * inv;
  out[o + 3] = bw * inv;
}

/**
 * The rotation of the upper 3x3 of a column-major matrix whose columns are orthonormal (a pure
 * rotation; divide out the scale first). Shepperd's method: branch on the largest diagonal term so
 * that the square root never sees a small or negative number.
 */
export function fromMat4(out: NumericArray, o: number, m: NumericArray, mo: number): void {
  const m00 = m[mo];
  const m10 = m[mo + 1];
  const m20 = m[mo + 2];
  const m01 = m[mo + 4];
  const m11 = m[mo + 5];
  const m21 = m[mo + 6];
  const m02 = m[mo + 8];
  const m12 = m[mo + 9];
  const m22 = m[mo + 10];
  const trace = m00 + m11 + m22;
  let x: number;
  let y: number;
  let z: number;
  let w: number;
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1);
    w = 0.25 / s;
    x = (m21 - m12) * s;
    y = (m02 - m20) * s;
    z = (m10 - m01) * s;
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    w = (m21 - m12) / s;
    x = 0.25 * s;
    y = (m01 + m10) / s;
    z = (m02 + m20) / s;
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    w = (m02 - m20) / s;
    x = (m01 + m10) / s;
    y = 0.25 * s;
    z = (m12 + m21) / s;
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    w = (m10 - m01) / s;
    x = (m02 + m20) / s;
    y = (m12 + m21) / s;
    z = 0.25 * s;
  }
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
  out[o + 3] = w;
}

/**
 * The minimal rotation carrying unit vector `u` onto unit vector `v`, by the half-vector formula
 * `normalize(u × v, 1 + u · v)` (docs/methods.md §2). When the vectors are opposite (`1 + u·v` below
 * `1e-12`), the answer is a half turn about an axis perpendicular to `u` (built from the coordinate
 * axis least aligned with `u`) followed by the small turn left, never the identity, and as exact
 * as the half-vector formula elsewhere. Never NaN for unit inputs.
 */
export function fromTo(
  out: NumericArray,
  o: number,
  u: NumericArray,
  uo: number,
  v: NumericArray,
  vo: number,
): void {
  const ux = u[uo];
  const uy = u[uo + 1];
  const uz = u[uo + 2];
  const vx = v[vo];
  const vy = v[vo + 1];
  const vz = v[vo + 2];
  const w = 1 + ux * vx + uy * vy + uz * vz;
  if (w < 1e-12) {
    // Opposite: a half turn about the coordinate axis least aligned with u, made perpendicular.
    const ax = ux < 0 ? -ux : ux;
    const ay = uy < 0 ? -uy : uy;
    const az = uz < 0 ? -uz : uz;
    let px: number;
    let py: number;
    let pz: number;
    if (ax <= ay && ax <= az) {
      px = 0;
      py = -uz;
      pz = uy;
    } else if (ay <= az) {
      px = uz;
      py = 0;
      pz = -ux;
    } else {
      px = -uy;
      py = ux;
      pz = 0;
    }
    const inv = 1 / Math.sqrt(px * px + py * py + pz * pz);
    px *= inv;
    py *= inv;
    pz *= inv;
    // The half turn about p carries u to −u exactly; the small turn left from −u to v is accurate
    // by the half-vector formula, so nearly opposite vectors are not rounded to opposite ones.
    const rx = uz * vy - uy * vz; // (−u) × v
    const ry = ux * vz - uz * vx;
    const rz = uy * vx - ux * vy;
    const rw = 1 - (ux * vx + uy * vy + uz * vz);
    const rinv = 1 / Math.sqrt(rx * rx + ry * ry + rz * rz + rw * rw);
    const qx = rx * rinv;
    const qy = ry * rinv;
    const qz = rz * rinv;
    const qw = rw * rinv;
    out[o] = qw * px + qy * pz - qz * py;
    out[o + 1] = qw * py - qx * pz + qz * px;
    out[o + 2] = qw * pz + qx * py - qy * px;
    out[o + 3] = 0 - (qx * px + qy * py + qz * pz); // 0 − x, not −x: +0 for an exact half turn
    return;
  }
  const x = uy * vz - uz * vy;
  const y = uz * vx - ux * vz;
  const z = ux * vy - uy * vx;
  const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
  out[o] = x * inv;
  out[o + 1] = y * inv;
  out[o + 2] = z * inv;
  out[o + 3] = w * inv;
}

/**
 * The rotation about the unit axis `axis[ao…]` by the angle θ whose cosine and sine, times any common
 * positive factor, are `cs[co]` and `cs[co + 1]`: no trigonometry, and accurate at every angle. With
 * `r = |(c, s)|`, the half-angle quaternion is proportional to `(axis · s, r + c)` below 90° and to
 * `(axis · (r − c), s)` above (each where the other would cancel), so one normalization gives it.
 * A half turn for θ = π; the identity when both numbers are 0 (or not finite). The vector part is
 * the axis scaled, so the rotation is about exactly that axis; the scalar part is never negative.
 *
 * Reads every input before writing, so `out` may alias any of them.
 */
export function fromAxisCosSin(
  out: NumericArray,
  o: number,
  axis: NumericArray,
  ao: number,
  cs: NumericArray,
  co: number,
): void {
  let c = cs[co];
  let s = cs[co + 1];
  const ax = axis[ao];
  const ay = axis[ao + 1];
  const az = axis[ao + 2];
  let r = Math.sqrt(c * c + s * s);
  if (!(r > 1e-150 && r < 1e150)) {
    // Squaring under- or overflowed (or the input is 0 or not finite): rescale by the larger
    // magnitude first. Rare, so the common case pays only the comparison.
    const m = (c < 0 ? -c : c) > (s < 0 ? -s : s) ? (c < 0 ? -c : c) : s < 0 ? -s : s;
    // (A NaN cosine hides from the comparison that picks m: test it on its own.)
    if (!(m > 0 && m < Number.POSITIVE_INFINITY) || Number.isNaN(c)) {
      out[o] = 0;
      out[o + 1] = 0;
      out[o + 2] = 0;
      out[o + 3] = 1;
      return;
    }
    c /= m;
    s /= m;
    r = Math.sqrt(c * c + s * s);
  }
  let vs: number;
  let ws: number;
  if (c >= 0) {
    vs = s;
    ws = r + c;
  } else if (s < 0) {
    // (r − c, s) has the sign of sin(θ/2); flipped, the scalar part stays ≥ 0.
    vs = c - r;
    ws = -s;
  } else {
    vs = r - c;
    ws = s;
  }
  // Divided, not multiplied by a reciprocal: √((2k)²) is 2k exactly, so a half turn (−k, 0) and the
  // identity (k, 0) come out exact at any k (x · fl(1/x) is not always 1).
  const l = Math.sqrt(vs * vs + ws * ws);
  const hv = vs / l;
  out[o] = ax * hv;
  out[o + 1] = ay * hv;
  out[o + 2] = az * hv;
  out[o + 3] = ws / l;
}

/**
 * The minimal rotation carrying unit vector `u` onto unit vector `v`, accurate and minimal at every
 * angle, with a chosen axis for the half turn.
 *
 * The half-vector formula `normalize(u × v, 1 + u·v)` loses the axis when `v` is nearly `−u`
 * (`1 + u·v` cancels). Past 154° this goes through the unit vector `p ⟂ u` in the plane of `u` and
 * `v` instead: `fromTo(p, v) · fromTo(u, p)`, two well-conditioned turns about the same axis, so
 * `u` lands on `v` to rounding and the result stays the minimal rotation (its axis ⟂ `u` and `v`)
 * as the angle approaches 180°: an aimed bone does not pick up a twist as its target passes behind
 * it. ({@link fromTo} is as accurate but, below `1 + u·v < 1e-12`, turns about a fixed
 * coordinate axis first.) When `v` is `−u` to 1e-12 (no plane), the half turn is about `hint` made
 * perpendicular to `u` (an up axis: turning round keeps the head up), or about the coordinate axis
 * least aligned with `u` when `hint` is parallel to `u` or zero. Never the identity, never NaN.
 *
 * Reads every input before writing, so `out` may alias any of them.
 */
export function rotationBetween(
  out: NumericArray,
  o: number,
  u: NumericArray,
  uo: number,
  v: NumericArray,
  vo: number,
  hint: NumericArray,
  ho: number,
): void {
  const ux = u[uo];
  const uy = u[uo + 1];
  const uz = u[uo + 2];
  const vx = v[vo];
  const vy = v[vo + 1];
  const vz = v[vo + 2];
  const c = ux * vx + uy * vy + uz * vz;
  if (c > -0.9) {
    // 1 + c ≥ 0.1: the half-vector formula is accurate to a few ulps.
    const x = uy * vz - uz * vy;
    const y = uz * vx - ux * vz;
    const z = ux * vy - uy * vx;
    const w = 1 + c;
    const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
    out[o] = x * inv;
    out[o + 1] = y * inv;
    out[o + 2] = z * inv;
    out[o + 3] = w * inv;
    return;
  }
  // p: the part of v perpendicular to u, i.e. the direction from u toward v.
  let px = vx - c * ux;
  let py = vy - c * uy;
  let pz = vz - c * uz;
  let pl = px * px + py * py + pz * pz;
  if (pl < 1e-24) {
    // v is −u to rounding: choose the half-turn axis h ⟂ u, then p = h × u (u turned 90° about h).
    let hx = hint[ho];
    let hy = hint[ho + 1];
    let hz = hint[ho + 2];
    let hu = hx * ux + hy * uy + hz * uz;
    hx -= hu * ux;
    hy -= hu * uy;
    hz -= hu * uz;
    const hl = hx * hx + hy * hy + hz * hz;
    const h0 = hint[ho] * hint[ho] + hint[ho + 1] * hint[ho + 1] + hint[ho + 2] * hint[ho + 2];
    if (hl === 0 || hl < 1e-12 * h0) {
      const ax = ux < 0 ? -ux : ux;
      const ay = uy < 0 ? -uy : uy;
      const az = uz < 0 ? -uz : uz;
      hx = ax <= ay && ax <= az ? 1 : 0;
      hy = hx === 0 && ay <= az ? 1 : 0;
      hz = hx === 0 && hy === 0 ? 1 : 0;
      hu = hx * ux + hy * uy + hz * uz;
      hx -= hu * ux;
      hy -= hu * uy;
      hz -= hu * uz;
    }
    px = hy * uz - hz * uy;
    py = hz * ux - hx * uz;
    pz = hx * uy - hy * ux;
    pl = px * px + py * py + pz * pz;
  }
  const pi = 1 / Math.sqrt(pl);
  px *= pi;
  py *= pi;
  pz *= pi;
  // First turn u → p (90°), then p → v (the rest, under 90°+): both have 1 + dot ≥ ~1.
  let x1 = uy * pz - uz * py;
  let y1 = uz * px - ux * pz;
  let z1 = ux * py - uy * px;
  let w1 = 1 + ux * px + uy * py + uz * pz;
  let inv = 1 / Math.sqrt(x1 * x1 + y1 * y1 + z1 * z1 + w1 * w1);
  x1 *= inv;
  y1 *= inv;
  z1 *= inv;
  w1 *= inv;
  let x2 = py * vz - pz * vy;
  let y2 = pz * vx - px * vz;
  let z2 = px * vy - py * vx;
  let w2 = 1 + px * vx + py * vy + pz * vz;
  inv = 1 / Math.sqrt(x2 * x2 + y2 * y2 + z2 * z2 + w2 * w2);
  x2 *= inv;
  y2 *= inv;
  z2 *= inv;
  w2 *= inv;
  // out = q2 · q1 (q1 first).
  out[o] = w2 * x1 + x2 * w1 + y2 * z1 - z2 * y1;
  out[o + 1] = w2 * y1 - x2 * z1 + y2 * w1 + z2 * x1;
  out[o + 2] = w2 * z1 + x2 * y1 - y2 * x1 + z2 * w1;
  out[o + 3] = w2 * w1 - x2 * x1 - y2 * y1 - z2 * z1;
}
