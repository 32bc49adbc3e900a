/**
 * 3-vectors stored as three consecutive numbers at an offset in a flat array.
 *
 * Every function takes its output first and returns nothing; all inputs are read before the output
 * is written, so `out` may alias any input.
 *
 * @packageDocumentation
 */
import type { NumericArray } from './types.js';

/** Writes `(x, y, z)` at `out[o]`. */
export function set(out: NumericArray, o: number, x: number, y: number, z: number): void {
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
}

/** Copies the vector at `a[ao]` to `out[o]`. */
export function copy(out: NumericArray, o: number, a: NumericArray, ao: number): void {
  const x = a[ao];
  const y = a[ao + 1];
  const z = a[ao + 2];
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
}

/** `out = a + b`. */
export function add(
  out: NumericArray,
  o: number,
  a: NumericArray,
  ao: number,
  b: NumericArray,
  bo: number,
): void {
  const x = a[ao] + b[bo];
  const y = a[ao + 1] + b[bo + 1];
  const z = a[ao + 2] + b[bo + 2];
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
}

/** `out = a − b`. */
export function sub(
  out: NumericArray,
  o: number,
  a: NumericArray,
  ao: number,
  b: NumericArray,
  bo: number,
): void {
  const x = a[ao] - b[bo];
  const y = a[ao + 1] - b[bo + 1];
  const z = a[ao + 2] - b[bo + 2];
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
}

/** `out = a · s`. */
export function scale(out: NumericArray, o: number, a: NumericArray, ao: number, s: number): void {
  const x = a[ao] * s;
  const y = a[ao + 1] * s;
  const z = a[ao + 2] * s;
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
}

/** `out = a + b · s` (a multiply-add, the building block of weighted sums). */
export function scaleAndAdd(
  out: NumericArray,
  o: number,
  a: NumericArray,
  ao: number,
  b: NumericArray,
  bo: number,
  s: number,
): void {
  const x = a[ao] + b[bo] * s;
  const y = a[ao + 1] + b[bo + 1] * s;
  const z = a[ao + 2] + b[bo + 2] * s;
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
}

/** Dot product `a · b`. */
export function dot(a: NumericArray, ao: number, b: NumericArray, bo: number): number {
  return a[ao] * b[bo] + a[ao + 1] * b[bo + 1] + a[ao + 2] * b[bo + 2];
}

/** Cross product `out = a × b` (right-handed). */
export function cross(
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
  const bx = b[bo];
  const by = b[bo + 1];
  const bz = b[bo + 2];
  out[o] = ay * bz - az * by;
  out[o + 1] = az * bx - ax * bz;
  out[o + 2] = ax * by - ay * bx;
}

/** Squared Euclidean length. */
export function lengthSq(a: NumericArray, ao: number): number {
  return a[ao] * a[ao] + a[ao + 1] * a[ao + 1] + a[ao + 2] * a[ao + 2];
}

/** Euclidean length. */
export function length(a: NumericArray, ao: number): number {
  return Math.sqrt(a[ao] * a[ao] + a[ao + 1] * a[ao + 1] + a[ao + 2] * a[ao + 2]);
}

/** Distance between two points. */
export function distance(a: NumericArray, ao: number, b: NumericArray, bo: number): number {
  const x = a[ao] - b[bo];
  const y = a[ao + 1] - b[bo + 1];
  const z = a[ao + 2] - b[bo + 2];
  return Math.sqrt(x * x + y * y + z * z);
}

/**
 * `out[o]` = the distance between the points `a[ao…]` and `b[bo…]`, without overflow or underflow in
 * its squares (they overflow past about 1.3e154): a solver's error toward a target of any finite
 * size. Written to an array, not returned: V8 boxes a double returned from a call it does not inline.
 */
export function distanceInto(
  out: NumericArray,
  o: number,
  a: NumericArray,
  ao: number,
  b: NumericArray,
  bo: number,
): void {
  let x = a[ao] - b[bo];
  let y = a[ao + 1] - b[bo + 1];
  let z = a[ao + 2] - b[bo + 2];
  const sq = x * x + y * y + z * z;
  // Coincident points (a solve that lands on its target to the bit) take the common path too, and
  // the test is made on every call: a branch first taken after warm-up has no type feedback, and
  // V8 throws away the optimized solver around it (seen as a few frames of heap numbers, 0.7–2 KB
  // a frame, in the crowd bench's scheduled line after thousands of frames).
  const coincident = Math.abs(x) + Math.abs(y) + Math.abs(z) === 0;
  if (sq < 1e300 && (sq > 1e-300 || coincident)) {
    out[o] = Math.sqrt(sq);
    return;
  }
  if (!(x - x + (y - y) + (z - z) === 0)) {
    // A difference overflowed (points near ±1.8e308): halve both first.
    x = a[ao] / 2 - b[bo] / 2;
    y = a[ao + 1] / 2 - b[bo + 1] / 2;
    z = a[ao + 2] / 2 - b[bo + 2] / 2;
    out[o] = 2 * scaledLength(x, y, z);
    return;
  }
  out[o] = scaledLength(x, y, z);
}

/** |(x, y, z)| through its largest component (0 for a zero vector). Only on rare paths. */
function scaledLength(x: number, y: number, z: number): number {
  const m = largestAbs(x, y, z);
  if (!(m > 0 && m < Number.POSITIVE_INFINITY)) return m;
  const sx = x / m;
  const sy = y / m;
  const sz = z / m;
  return m * Math.sqrt(sx * sx + sy * sy + sz * sz);
}

/** The largest of |x|, |y|, |z| (small enough for V8 to inline: its doubles stay unboxed). */
export function largestAbs(x: number, y: number, z: number): number {
  const ax = x < 0 ? -x : x;
  const ay = y < 0 ? -y : y;
  const az = z < 0 ? -z : z;
  const m = ax > ay ? ax : ay;
  return az > m ? az : m;
}

/**
 * The distance beyond which {@link pullIn} moves a point: far past any rig, and near enough that
 * its square (1e200) is far from overflow.
 */
export const FAR = 1e100;

/**
 * `out[o…]` = the point `point[po…]`, or, when it lies farther than {@link FAR} from `origin[oo…]`
 * along some axis, the point at distance FAR from `origin` in its direction (found scaled, so any
 * finite coordinates work). Solvers aim at it in place of a target so far away that their squared
 * distances would overflow: such a target is out of reach, where only its direction counts.
 * Returns whether the point moved. The origin should lie well within FAR of zero (a rig's joint):
 * past about 1e116, FAR is below its rounding and the pulled point rounds back onto it.
 */
export function pullIn(
  out: NumericArray,
  o: number,
  point: NumericArray,
  po: number,
  origin: NumericArray,
  oo: number,
): boolean {
  const px = point[po];
  const py = point[po + 1];
  const pz = point[po + 2];
  const ox = origin[oo];
  const oy = origin[oo + 1];
  const oz = origin[oo + 2];
  let dx = px - ox;
  let dy = py - oy;
  let dz = pz - oz;
  let m = largestAbs(dx, dy, dz);
  if (!(m > FAR)) {
    out[o] = px;
    out[o + 1] = py;
    out[o + 2] = pz;
    return false;
  }
  if (m === Number.POSITIVE_INFINITY) {
    // A difference overflowed (points near ±1.8e308): halved, it does not, and points the same way.
    dx = px / 2 - ox / 2;
    dy = py / 2 - oy / 2;
    dz = pz / 2 - oz / 2;
    m = largestAbs(dx, dy, dz);
  }
  dx /= m;
  dy /= m;
  dz /= m;
  const k = FAR / Math.sqrt(dx * dx + dy * dy + dz * dz);
  out[o] = ox + dx * k;
  out[o + 1] = oy + dy * k;
  out[o + 2] = oz + dz * k;
  return true;
}

/**
 * `out = a / |a|`. A zero vector stays zero (there is no direction to keep); callers that need a
 * direction for it choose one themselves, where they know which is right.
 */
export function normalize(out: NumericArray, o: number, a: NumericArray, ao: number): void {
  const x = a[ao];
  const y = a[ao + 1];
  const z = a[ao + 2];
  const lenSq = x * x + y * y + z * z;
  const inv = lenSq > 0 ? 1 / Math.sqrt(lenSq) : 0;
  out[o] = x * inv;
  out[o + 1] = y * inv;
  out[o + 2] = z * inv;
}

/**
 * `out = a / |a|`, measured in units of `a`'s largest component first, so that no square under- or
 * overflows (a vector of 1e-200 or 1e200 has a direction too). Returns `false`, with `out` left as
 * it was, for a zero vector or one with a NaN or an infinity. For options and rare paths: it costs
 * a division more than {@link normalize}.
 */
export function normalizeScaled(out: NumericArray, o: number, a: NumericArray, ao: number): boolean {
  const m = largestAbs(a[ao], a[ao + 1], a[ao + 2]);
  if (!(m > 0 && m < Number.POSITIVE_INFINITY)) return false;
  const x = a[ao] / m;
  const y = a[ao + 1] / m;
  const z = a[ao + 2] / m;
  const l = Math.sqrt(x * x + y * y + z * z);
  // In [1, √3] for finite parts; NaN where one was NaN (largestAbs passes over a NaN).
  if (!(l >= 1)) return false;
  out[o] = x / l;
  out[o + 1] = y / l;
  out[o + 2] = z / l;
  return true;
}

/** Linear interpolation `out = a + (b − a) · t`. */
export function lerp(
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
  const x = ax + (b[bo] - ax) * t;
  const y = ay + (b[bo + 1] - ay) * t;
  const z = az + (b[bo + 2] - az) * t;
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
}

/** Transforms the point `a` by the column-major 4x4 matrix `m` (w = 1, no perspective divide). */
export function transformPoint(
  out: NumericArray,
  o: number,
  m: NumericArray,
  mo: number,
  a: NumericArray,
  ao: number,
): void {
  const x = a[ao];
  const y = a[ao + 1];
  const z = a[ao + 2];
  const rx = m[mo] * x + m[mo + 4] * y + m[mo + 8] * z + m[mo + 12];
  const ry = m[mo + 1] * x + m[mo + 5] * y + m[mo + 9] * z + m[mo + 13];
  const rz = m[mo + 2] * x + m[mo + 6] * y + m[mo + 10] * z + m[mo + 14];
  out[o] = rx;
  out[o + 1] = ry;
  out[o + 2] = rz;
}

/** Transforms the direction `a` by the upper 3x3 of the column-major matrix `m` (w = 0). */
export function transformDirection(
  out: NumericArray,
  o: number,
  m: NumericArray,
  mo: number,
  a: NumericArray,
  ao: number,
): void {
  const x = a[ao];
  const y = a[ao + 1];
  const z = a[ao + 2];
  const rx = m[mo] * x + m[mo + 4] * y + m[mo + 8] * z;
  const ry = m[mo + 1] * x + m[mo + 5] * y + m[mo + 9] * z;
  const rz = m[mo + 2] * x + m[mo + 6] * y + m[mo + 10] * z;
  out[o] = rx;
  out[o + 1] = ry;
  out[o + 2] = rz;
}
