/**
 * Translation–rotation–scale transforms to and from column-major 4x4 matrices.
 *
 * A bone's local transform is `T = translate(t) · rotate(q) · scale(s)` (docs/methods.md §1): the
 * scale is applied first, to the bone's own frame, and has nothing in the matrix's last column.
 *
 * @packageDocumentation
 */
import { mirrored } from './mat4.js';
import * as quat from './quat.js';
import type { NumericArray } from './types.js';

// Written and read within one call, never across one: safe because kernels do not call back out.
const scratch = new Float64Array(16);

/**
 * Composes `translate(t) · rotate(q) · scale(s)` into a column-major matrix; the same matrix as
 * gl-matrix's `mat4.fromRotationTranslationScale` and three.js's `Matrix4.compose`.
 */
export function compose(
  out: NumericArray,
  o: number,
  t: NumericArray,
  to: number,
  q: NumericArray,
  qo: number,
  s: NumericArray,
  so: number,
): void {
  const x = q[qo];
  const y = q[qo + 1];
  const z = q[qo + 2];
  const w = q[qo + 3];
  const sx = s[so];
  const sy = s[so + 1];
  const sz = s[so + 2];
  const tx = t[to];
  const ty = t[to + 1];
  const tz = t[to + 2];
  const x2 = x + x;
  const y2 = y + y;
  const z2 = z + z;
  const xx = x * x2;
  const xy = x * y2;
  const xz = x * z2;
  const yy = y * y2;
  const yz = y * z2;
  const zz = z * z2;
  const wx = w * x2;
  const wy = w * y2;
  const wz = w * z2;
  out[o] = (1 - (yy + zz)) * sx;
  out[o + 1] = (xy + wz) * sx;
  out[o + 2] = (xz - wy) * sx;
  out[o + 3] = 0;
  out[o + 4] = (xy - wz) * sy;
  out[o + 5] = (1 - (xx + zz)) * sy;
  out[o + 6] = (yz + wx) * sy;
  out[o + 7] = 0;
  out[o + 8] = (xz + wy) * sz;
  out[o + 9] = (yz - wx) * sz;
  out[o + 10] = (1 - (xx + yy)) * sz;
  out[o + 11] = 0;
  out[o + 12] = tx;
  out[o + 13] = ty;
  out[o + 14] = tz;
  out[o + 15] = 1;
}

/**
 * `out = parent · translate(t) · rotate(q) · scale(s)` for an affine `parent` (bottom row
 * `0 0 0 1`): one forward-kinematics step, fused so that the local matrix never hits memory. The
 * same numbers as {@link compose} followed by `mat4.multiplyAffine`. `out` may alias `parent`.
 */
export function composeAfter(
  out: NumericArray,
  o: number,
  parent: NumericArray,
  po: number,
  t: NumericArray,
  to: number,
  q: NumericArray,
  qo: number,
  s: NumericArray,
  so: number,
): void {
  const x = q[qo];
  const y = q[qo + 1];
  const z = q[qo + 2];
  const w = q[qo + 3];
  const sx = s[so];
  const sy = s[so + 1];
  const sz = s[so + 2];
  const x2 = x + x;
  const y2 = y + y;
  const z2 = z + z;
  const xx = x * x2;
  const xy = x * y2;
  const xz = x * z2;
  const yy = y * y2;
  const yz = y * z2;
  const zz = z * z2;
  const wx = w * x2;
  const wy = w * y2;
  const wz = w * z2;
  // Local matrix columns (the numbers compose writes).
  const l00 = (1 - (yy + zz)) * sx;
  const l01 = (xy + wz) * sx;
  const l02 = (xz - wy) * sx;
  const l10 = (xy - wz) * sy;
  const l11 = (1 - (xx + zz)) * sy;
  const l12 = (yz + wx) * sy;
  const l20 = (xz + wy) * sz;
  const l21 = (yz - wx) * sz;
  const l22 = (1 - (xx + yy)) * sz;
  const l30 = t[to];
  const l31 = t[to + 1];
  const l32 = t[to + 2];
  const a00 = parent[po];
  const a01 = parent[po + 1];
  const a02 = parent[po + 2];
  const a10 = parent[po + 4];
  const a11 = parent[po + 5];
  const a12 = parent[po + 6];
  const a20 = parent[po + 8];
  const a21 = parent[po + 9];
  const a22 = parent[po + 10];
  const a30 = parent[po + 12];
  const a31 = parent[po + 13];
  const a32 = parent[po + 14];
  out[o] = a00 * l00 + a10 * l01 + a20 * l02;
  out[o + 1] = a01 * l00 + a11 * l01 + a21 * l02;
  out[o + 2] = a02 * l00 + a12 * l01 + a22 * l02;
  out[o + 3] = 0;
  out[o + 4] = a00 * l10 + a10 * l11 + a20 * l12;
  out[o + 5] = a01 * l10 + a11 * l11 + a21 * l12;
  out[o + 6] = a02 * l10 + a12 * l11 + a22 * l12;
  out[o + 7] = 0;
  out[o + 8] = a00 * l20 + a10 * l21 + a20 * l22;
  out[o + 9] = a01 * l20 + a11 * l21 + a21 * l22;
  out[o + 10] = a02 * l20 + a12 * l21 + a22 * l22;
  out[o + 11] = 0;
  out[o + 12] = a00 * l30 + a10 * l31 + a20 * l32 + a30;
  out[o + 13] = a01 * l30 + a11 * l31 + a21 * l32 + a31;
  out[o + 14] = a02 * l30 + a12 * l31 + a22 * l32 + a32;
  out[o + 15] = 1;
}

/**
 * Splits an affine matrix without shear into translation, unit rotation and scale: the inverse of
 * {@link compose}. A mirrored matrix (negative determinant) gets its X scale negated, as three.js
 * does, so that the rotation stays proper. Returns `false` when a scale is zero: the rotation is
 * then undetermined and written as the identity, never NaN.
 */
export function decompose(
  t: NumericArray,
  to: number,
  q: NumericArray,
  qo: number,
  s: NumericArray,
  so: number,
  m: NumericArray,
  mo: number,
): boolean {
  const m00 = m[mo];
  const m10 = m[mo + 1];
  const m20 = m[mo + 2];
  const m01 = m[mo + 4];
  const m11 = m[mo + 5];
  const m21 = m[mo + 6];
  const m02 = m[mo + 8];
  const m12 = m[mo + 9];
  const m22 = m[mo + 10];
  let sx = Math.sqrt(m00 * m00 + m10 * m10 + m20 * m20);
  const sy = Math.sqrt(m01 * m01 + m11 * m11 + m21 * m21);
  const sz = Math.sqrt(m02 * m02 + m12 * m12 + m22 * m22);
  if (mirrored(m, mo)) sx = -sx;
  const tx = m[mo + 12];
  const ty = m[mo + 13];
  const tz = m[mo + 14];
  t[to] = tx;
  t[to + 1] = ty;
  t[to + 2] = tz;
  s[so] = sx;
  s[so + 1] = sy;
  s[so + 2] = sz;
  if (sx === 0 || sy === 0 || sz === 0) {
    q[qo] = 0;
    q[qo + 1] = 0;
    q[qo + 2] = 0;
    q[qo + 3] = 1;
    return false;
  }
  const ix = 1 / sx;
  const iy = 1 / sy;
  const iz = 1 / sz;
  const r = scratch;
  r[0] = m00 * ix;
  r[1] = m10 * ix;
  r[2] = m20 * ix;
  r[4] = m01 * iy;
  r[5] = m11 * iy;
  r[6] = m21 * iy;
  r[8] = m02 * iz;
  r[9] = m12 * iz;
  r[10] = m22 * iz;
  quat.fromMat4(q, qo, r, 0);
  quat.normalize(q, qo, q, qo);
  return true;
}
