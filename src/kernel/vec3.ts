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
