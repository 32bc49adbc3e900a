/**
 * 4x4 matrices, column-major (glTF, WebGL), as sixteen consecutive numbers at an offset.
 *
 * Element `(row r, column c)` sits at index `c·4 + r`; the translation is at 12, 13, 14. Every
 * function takes its output first and reads all inputs before writing, so `out` may alias an input.
 *
 * @packageDocumentation
 */
import type { NumericArray } from './types.js';

/** Writes the identity matrix. */
export function identity(out: NumericArray, o: number): void {
  for (let i = 0; i < 16; i++) out[o + i] = 0;
  out[o] = 1;
  out[o + 5] = 1;
  out[o + 10] = 1;
  out[o + 15] = 1;
}

/** Copies a matrix. */
export function copy(out: NumericArray, o: number, a: NumericArray, ao: number): void {
  if (out === a && o > ao) {
    for (let i = 15; i >= 0; i--) out[o + i] = a[ao + i];
  } else {
    for (let i = 0; i < 16; i++) out[o + i] = a[ao + i];
  }
}

/** General product `out = a · b` (applies `b` first). */
export function multiply(
  out: NumericArray,
  o: number,
  a: NumericArray,
  ao: number,
  b: NumericArray,
  bo: number,
): void {
  const a00 = a[ao];
  const a01 = a[ao + 1];
  const a02 = a[ao + 2];
  const a03 = a[ao + 3];
  const a10 = a[ao + 4];
  const a11 = a[ao + 5];
  const a12 = a[ao + 6];
  const a13 = a[ao + 7];
  const a20 = a[ao + 8];
  const a21 = a[ao + 9];
  const a22 = a[ao + 10];
  const a23 = a[ao + 11];
  const a30 = a[ao + 12];
  const a31 = a[ao + 13];
  const a32 = a[ao + 14];
  const a33 = a[ao + 15];
  const b00 = b[bo];
  const b01 = b[bo + 1];
  const b02 = b[bo + 2];
  const b03 = b[bo + 3];
  const b10 = b[bo + 4];
  const b11 = b[bo + 5];
  const b12 = b[bo + 6];
  const b13 = b[bo + 7];
  const b20 = b[bo + 8];
  const b21 = b[bo + 9];
  const b22 = b[bo + 10];
  const b23 = b[bo + 11];
  const b30 = b[bo + 12];
  const b31 = b[bo + 13];
  const b32 = b[bo + 14];
  const b33 = b[bo + 15];
  out[o] = a00 * b00 + a10 * b01 + a20 * b02 + a30 * b03;
  out[o + 1] = a01 * b00 + a11 * b01 + a21 * b02 + a31 * b03;
  out[o + 2] = a02 * b00 + a12 * b01 + a22 * b02 + a32 * b03;
  out[o + 3] = a03 * b00 + a13 * b01 + a23 * b02 + a33 * b03;
  out[o + 4] = a00 * b10 + a10 * b11 + a20 * b12 + a30 * b13;
  out[o + 5] = a01 * b10 + a11 * b11 + a21 * b12 + a31 * b13;
  out[o + 6] = a02 * b10 + a12 * b11 + a22 * b12 + a32 * b13;
  out[o + 7] = a03 * b10 + a13 * b11 + a23 * b12 + a33 * b13;
  out[o + 8] = a00 * b20 + a10 * b21 + a20 * b22 + a30 * b23;
  out[o + 9] = a01 * b20 + a11 * b21 + a21 * b22 + a31 * b23;
  out[o + 10] = a02 * b20 + a12 * b21 + a22 * b22 + a32 * b23;
  out[o + 11] = a03 * b20 + a13 * b21 + a23 * b22 + a33 * b23;
  out[o + 12] = a00 * b30 + a10 * b31 + a20 * b32 + a30 * b33;
  out[o + 13] = a01 * b30 + a11 * b31 + a21 * b32 + a31 * b33;
  out[o + 14] = a02 * b30 + a12 * b31 + a22 * b32 + a32 * b33;
  out[o + 15] = a03 * b30 + a13 * b31 + a23 * b32 + a33 * b33;
}

/**
 * Product of two affine matrices (last row `0 0 0 1`), `out = a · b`: 36 multiplies instead of 64.
 * Forward kinematics uses it; the bottom row of the result is written as exactly `0 0 0 1`.
 */
export function multiplyAffine(
  out: NumericArray,
  o: number,
  a: NumericArray,
  ao: number,
  b: NumericArray,
  bo: number,
): void {
  const a00 = a[ao];
  const a01 = a[ao + 1];
  const a02 = a[ao + 2];
  const a10 = a[ao + 4];
  const a11 = a[ao + 5];
  const a12 = a[ao + 6];
  const a20 = a[ao + 8];
  const a21 = a[ao + 9];
  const a22 = a[ao + 10];
  const a30 = a[ao + 12];
  const a31 = a[ao + 13];
  const a32 = a[ao + 14];
  const b00 = b[bo];
  const b01 = b[bo + 1];
  const b02 = b[bo + 2];
  const b10 = b[bo + 4];
  const b11 = b[bo + 5];
  const b12 = b[bo + 6];
  const b20 = b[bo + 8];
  const b21 = b[bo + 9];
  const b22 = b[bo + 10];
  const b30 = b[bo + 12];
  const b31 = b[bo + 13];
  const b32 = b[bo + 14];
  out[o] = a00 * b00 + a10 * b01 + a20 * b02;
  out[o + 1] = a01 * b00 + a11 * b01 + a21 * b02;
  out[o + 2] = a02 * b00 + a12 * b01 + a22 * b02;
  out[o + 3] = 0;
  out[o + 4] = a00 * b10 + a10 * b11 + a20 * b12;
  out[o + 5] = a01 * b10 + a11 * b11 + a21 * b12;
  out[o + 6] = a02 * b10 + a12 * b11 + a22 * b12;
  out[o + 7] = 0;
  out[o + 8] = a00 * b20 + a10 * b21 + a20 * b22;
  out[o + 9] = a01 * b20 + a11 * b21 + a21 * b22;
  out[o + 10] = a02 * b20 + a12 * b21 + a22 * b22;
  out[o + 11] = 0;
  out[o + 12] = a00 * b30 + a10 * b31 + a20 * b32 + a30;
  out[o + 13] = a01 * b30 + a11 * b31 + a21 * b32 + a31;
  out[o + 14] = a02 * b30 + a12 * b31 + a22 * b32 + a32;
  out[o + 15] = 1;
}

/**
 * General inverse by cofactors. Returns `false` and leaves `out` untouched when the matrix is
 * singular (determinant exactly 0, not finite, or too small to have a finite reciprocal), so a
 * caller never receives a matrix of NaN or infinities.
 */
export function invert(out: NumericArray, o: number, a: NumericArray, ao: number): boolean {
  const a00 = a[ao];
  const a01 = a[ao + 1];
  const a02 = a[ao + 2];
  const a03 = a[ao + 3];
  const a10 = a[ao + 4];
  const a11 = a[ao + 5];
  const a12 = a[ao + 6];
  const a13 = a[ao + 7];
  const a20 = a[ao + 8];
  const a21 = a[ao + 9];
  const a22 = a[ao + 10];
  const a23 = a[ao + 11];
  const a30 = a[ao + 12];
  const a31 = a[ao + 13];
  const a32 = a[ao + 14];
  const a33 = a[ao + 15];
  const b00 = a00 * a11 - a01 * a10;
  const b01 = a00 * a12 - a02 * a10;
  const b02 = a00 * a13 - a03 * a10;
  const b03 = a01 * a12 - a02 * a11;
  const b04 = a01 * a13 - a03 * a11;
  const b05 = a02 * a13 - a03 * a12;
  const b06 = a20 * a31 - a21 * a30;
  const b07 = a20 * a32 - a22 * a30;
  const b08 = a20 * a33 - a23 * a30;
  const b09 = a21 * a32 - a22 * a31;
  const b10 = a21 * a33 - a23 * a31;
  const b11 = a22 * a33 - a23 * a32;
  const det = b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06;
  // A subnormal determinant has no finite reciprocal: as singular as zero.
  const d = 1 / det;
  if (det === 0 || !Number.isFinite(det) || !Number.isFinite(d)) return false;
  out[o] = (a11 * b11 - a12 * b10 + a13 * b09) * d;
  out[o + 1] = (a02 * b10 - a01 * b11 - a03 * b09) * d;
  out[o + 2] = (a31 * b05 - a32 * b04 + a33 * b03) * d;
  out[o + 3] = (a22 * b04 - a21 * b05 - a23 * b03) * d;
  out[o + 4] = (a12 * b08 - a10 * b11 - a13 * b07) * d;
  out[o + 5] = (a00 * b11 - a02 * b08 + a03 * b07) * d;
  out[o + 6] = (a32 * b02 - a30 * b05 - a33 * b01) * d;
  out[o + 7] = (a20 * b05 - a22 * b02 + a23 * b01) * d;
  out[o + 8] = (a10 * b10 - a11 * b08 + a13 * b06) * d;
  out[o + 9] = (a01 * b08 - a00 * b10 - a03 * b06) * d;
  out[o + 10] = (a30 * b04 - a31 * b02 + a33 * b00) * d;
  out[o + 11] = (a21 * b02 - a20 * b04 - a23 * b00) * d;
  out[o + 12] = (a11 * b07 - a10 * b09 - a12 * b06) * d;
  out[o + 13] = (a00 * b09 - a01 * b07 + a02 * b06) * d;
  out[o + 14] = (a31 * b01 - a30 * b03 - a32 * b00) * d;
  out[o + 15] = (a20 * b03 - a21 * b01 + a22 * b00) * d;
  return true;
}

/**
 * Inverse of an affine transform (bottom row `0 0 0 1`, as every model matrix forward kinematics
 * writes): the 3×3 part by cofactors, `t⁻¹ = −A⁻¹ t`. Scale, non-uniform scale, shear and mirrors
 * are fine; about half the work of {@link invert}. Returns `false`, writing nothing, when the 3×3
 * part is singular or its determinant (or its reciprocal) is not finite.
 */
export function invertAffine(out: NumericArray, o: number, a: NumericArray, ao: number): boolean {
  const a00 = a[ao];
  const a01 = a[ao + 1];
  const a02 = a[ao + 2];
  const a10 = a[ao + 4];
  const a11 = a[ao + 5];
  const a12 = a[ao + 6];
  const a20 = a[ao + 8];
  const a21 = a[ao + 9];
  const a22 = a[ao + 10];
  const tx = a[ao + 12];
  const ty = a[ao + 13];
  const tz = a[ao + 14];
  // Cofactors of the first row of the inverse (columns of A are a0*, a1*, a2*).
  const c00 = a11 * a22 - a12 * a21;
  const c10 = a12 * a20 - a10 * a22;
  const c20 = a10 * a21 - a11 * a20;
  const det = a00 * c00 + a01 * c10 + a02 * c20;
  // A subnormal determinant has no finite reciprocal: as singular as zero.
  const d = 1 / det;
  if (det === 0 || !Number.isFinite(det) || !Number.isFinite(d)) return false;
  const b00 = c00 * d;
  const b01 = (a02 * a21 - a01 * a22) * d;
  const b02 = (a01 * a12 - a02 * a11) * d;
  const b10 = c10 * d;
  const b11 = (a00 * a22 - a02 * a20) * d;
  const b12 = (a02 * a10 - a00 * a12) * d;
  const b20 = c20 * d;
  const b21 = (a01 * a20 - a00 * a21) * d;
  const b22 = (a00 * a11 - a01 * a10) * d;
  out[o] = b00;
  out[o + 1] = b01;
  out[o + 2] = b02;
  out[o + 3] = 0;
  out[o + 4] = b10;
  out[o + 5] = b11;
  out[o + 6] = b12;
  out[o + 7] = 0;
  out[o + 8] = b20;
  out[o + 9] = b21;
  out[o + 10] = b22;
  out[o + 11] = 0;
  out[o + 12] = -(b00 * tx + b10 * ty + b20 * tz);
  out[o + 13] = -(b01 * tx + b11 * ty + b21 * tz);
  out[o + 14] = -(b02 * tx + b12 * ty + b22 * tz);
  out[o + 15] = 1;
  return true;
}

/**
 * Inverse of a rigid transform (rotation and translation only): `R⁻¹ = Rᵀ`, `t⁻¹ = −Rᵀ t`. Exact
 * and cheap, but wrong for matrices with scale or shear: use {@link invert} for those.
 */
export function invertRigid(out: NumericArray, o: number, a: NumericArray, ao: number): void {
  const r00 = a[ao];
  const r10 = a[ao + 1];
  const r20 = a[ao + 2];
  const r01 = a[ao + 4];
  const r11 = a[ao + 5];
  const r21 = a[ao + 6];
  const r02 = a[ao + 8];
  const r12 = a[ao + 9];
  const r22 = a[ao + 10];
  const tx = a[ao + 12];
  const ty = a[ao + 13];
  const tz = a[ao + 14];
  out[o] = r00;
  out[o + 1] = r01;
  out[o + 2] = r02;
  out[o + 3] = 0;
  out[o + 4] = r10;
  out[o + 5] = r11;
  out[o + 6] = r12;
  out[o + 7] = 0;
  out[o + 8] = r20;
  out[o + 9] = r21;
  out[o + 10] = r22;
  out[o + 11] = 0;
  out[o + 12] = -(r00 * tx + r10 * ty + r20 * tz);
  out[o + 13] = -(r01 * tx + r11 * ty + r21 * tz);
  out[o + 14] = -(r02 * tx + r12 * ty + r22 * tz);
  out[o + 15] = 1;
}

/**
 * Whether the 3×3 linear part of the column-major `a[ao…]` has a negative determinant: the matrix
 * mirrors (an odd number of negative scales). The sign, not the determinant: a double returned from
 * a call V8 does not inline is boxed (docs/architecture.md, "Numbers in typed arrays").
 */
export function mirrored(a: NumericArray, ao: number): boolean {
  return (
    a[ao] * (a[ao + 5] * a[ao + 10] - a[ao + 6] * a[ao + 9]) -
      a[ao + 4] * (a[ao + 1] * a[ao + 10] - a[ao + 2] * a[ao + 9]) +
      a[ao + 8] * (a[ao + 1] * a[ao + 6] - a[ao + 2] * a[ao + 5]) <
    0
  );
}

/** Determinant of the full 4x4. */
export function determinant(a: NumericArray, ao: number): number {
  const a00 = a[ao];
  const a01 = a[ao + 1];
  const a02 = a[ao + 2];
  const a03 = a[ao + 3];
  const a10 = a[ao + 4];
  const a11 = a[ao + 5];
  const a12 = a[ao + 6];
  const a13 = a[ao + 7];
  const a20 = a[ao + 8];
  const a21 = a[ao + 9];
  const a22 = a[ao + 10];
  const a23 = a[ao + 11];
  const a30 = a[ao + 12];
  const a31 = a[ao + 13];
  const a32 = a[ao + 14];
  const a33 = a[ao + 15];
  const b00 = a00 * a11 - a01 * a10;
  const b01 = a00 * a12 - a02 * a10;
  const b02 = a00 * a13 - a03 * a10;
  const b03 = a01 * a12 - a02 * a11;
  const b04 = a01 * a13 - a03 * a11;
  const b05 = a02 * a13 - a03 * a12;
  const b06 = a20 * a31 - a21 * a30;
  const b07 = a20 * a32 - a22 * a30;
  const b08 = a20 * a33 - a23 * a30;
  const b09 = a21 * a32 - a22 * a31;
  const b10 = a21 * a33 - a23 * a31;
  const b11 = a22 * a33 - a23 * a32;
  return b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06;
}

/**
 * The rotation matrix of the quaternion `q = (x, y, z, w)`, standard form: (row 3, column 2) is
 * `2(yz + wx)`, (row 2, column 3) is `2(yz − wx)`. No translation.
 */
export function fromQuat(out: NumericArray, o: number, q: NumericArray, qo: number): void {
  const x = q[qo];
  const y = q[qo + 1];
  const z = q[qo + 2];
  const w = q[qo + 3];
  const x2 = x + x;
  const y2 = y + y;
  const z2 = z + z;
  const xx = x * x2;
  const yx = y * x2;
  const yy = y * y2;
  const zx = z * x2;
  const zy = z * y2;
  const zz = z * z2;
  const wx = w * x2;
  const wy = w * y2;
  const wz = w * z2;
  out[o] = 1 - yy - zz;
  out[o + 1] = yx + wz;
  out[o + 2] = zx - wy;
  out[o + 3] = 0;
  out[o + 4] = yx - wz;
  out[o + 5] = 1 - xx - zz;
  out[o + 6] = zy + wx;
  out[o + 7] = 0;
  out[o + 8] = zx + wy;
  out[o + 9] = zy - wx;
  out[o + 10] = 1 - xx - yy;
  out[o + 11] = 0;
  out[o + 12] = 0;
  out[o + 13] = 0;
  out[o + 14] = 0;
  out[o + 15] = 1;
}
