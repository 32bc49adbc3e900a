/**
 * Forward kinematics: local TRS to model-space matrices, `M_i = M_parent(i) · T_i`.
 *
 * @packageDocumentation
 */

/**
 * Computes model-space matrices for joints `from … to − 1` of a skeleton stored parent-before-child.
 *
 * `modelOut` holds 16 numbers per joint (column-major). Joints in the range read their parent's
 * matrix from `modelOut`, so a parent outside the range must already be up to date there: this is
 * what makes partial updates work (recompute a joint's subtree after IK changed it). A root
 * (`parents[i] < 0`) takes the identity as its parent. Allocates nothing.
 *
 * @param modelOut - `16·n` model matrices, written for the range.
 * @param parents - parent index per joint, `−1` for roots, each parent before its children.
 * @param translations - `3·n` local translations.
 * @param rotations - `4·n` local unit quaternions `(x, y, z, w)`.
 * @param scales - `3·n` local scales.
 * @param from - first joint to compute (inclusive).
 * @param to - one past the last joint to compute.
 */
export function localToModel(
  modelOut: Float64Array,
  parents: Int32Array,
  translations: Float64Array,
  rotations: Float64Array,
  scales: Float64Array,
  from: number,
  to: number,
): void {
  for (let i = from; i < to; i++) {
    const qo = i * 4;
    const vo = i * 3;
    const x = rotations[qo];
    const y = rotations[qo + 1];
    const z = rotations[qo + 2];
    const w = rotations[qo + 3];
    const sx = scales[vo];
    const sy = scales[vo + 1];
    const sz = scales[vo + 2];
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
    // Local matrix columns (the same numbers trs.compose writes).
    const l00 = (1 - (yy + zz)) * sx;
    const l01 = (xy + wz) * sx;
    const l02 = (xz - wy) * sx;
    const l10 = (xy - wz) * sy;
    const l11 = (1 - (xx + zz)) * sy;
    const l12 = (yz + wx) * sy;
    const l20 = (xz + wy) * sz;
    const l21 = (yz - wx) * sz;
    const l22 = (1 - (xx + yy)) * sz;
    const l30 = translations[vo];
    const l31 = translations[vo + 1];
    const l32 = translations[vo + 2];
    const o = i * 16;
    const p = parents[i];
    if (p < 0) {
      modelOut[o] = l00;
      modelOut[o + 1] = l01;
      modelOut[o + 2] = l02;
      modelOut[o + 3] = 0;
      modelOut[o + 4] = l10;
      modelOut[o + 5] = l11;
      modelOut[o + 6] = l12;
      modelOut[o + 7] = 0;
      modelOut[o + 8] = l20;
      modelOut[o + 9] = l21;
      modelOut[o + 10] = l22;
      modelOut[o + 11] = 0;
      modelOut[o + 12] = l30;
      modelOut[o + 13] = l31;
      modelOut[o + 14] = l32;
      modelOut[o + 15] = 1;
      continue;
    }
    // Fused affine product with the parent's model matrix: the local matrix never hits memory.
    // trs.composeAfter's arithmetic, written out: V8 does not inline a call that size here, and
    // the call costs ~10% of FK (bench/frame.bench.mjs).
    const po = p * 16;
    const a00 = modelOut[po];
    const a01 = modelOut[po + 1];
    const a02 = modelOut[po + 2];
    const a10 = modelOut[po + 4];
    const a11 = modelOut[po + 5];
    const a12 = modelOut[po + 6];
    const a20 = modelOut[po + 8];
    const a21 = modelOut[po + 9];
    const a22 = modelOut[po + 10];
    const a30 = modelOut[po + 12];
    const a31 = modelOut[po + 13];
    const a32 = modelOut[po + 14];
    modelOut[o] = a00 * l00 + a10 * l01 + a20 * l02;
    modelOut[o + 1] = a01 * l00 + a11 * l01 + a21 * l02;
    modelOut[o + 2] = a02 * l00 + a12 * l01 + a22 * l02;
    modelOut[o + 3] = 0;
    modelOut[o + 4] = a00 * l10 + a10 * l11 + a20 * l12;
    modelOut[o + 5] = a01 * l10 + a11 * l11 + a21 * l12;
    modelOut[o + 6] = a02 * l10 + a12 * l11 + a22 * l12;
    modelOut[o + 7] = 0;
    modelOut[o + 8] = a00 * l20 + a10 * l21 + a20 * l22;
    modelOut[o + 9] = a01 * l20 + a11 * l21 + a21 * l22;
    modelOut[o + 10] = a02 * l20 + a12 * l21 + a22 * l22;
    modelOut[o + 11] = 0;
    modelOut[o + 12] = a00 * l30 + a10 * l31 + a20 * l32 + a30;
    modelOut[o + 13] = a01 * l30 + a11 * l31 + a21 * l32 + a31;
    modelOut[o + 14] = a02 * l30 + a12 * l31 + a22 * l32 + a32;
    modelOut[o + 15] = 1;
  }
}

/**
 * {@link localToModel} for the joints `path[from…]` only, in that order: a path down the hierarchy
 * (each joint's parent before it, or already current in `modelOut`), such as a chain from its root
 * to its end effector with the joints between, where a solver needs the end and not the side
 * branches. Allocates nothing.
 */
export function localToModelAlong(
  modelOut: Float64Array,
  parents: Int32Array,
  translations: Float64Array,
  rotations: Float64Array,
  scales: Float64Array,
  path: Int32Array,
  from: number,
): void {
  for (let p = from; p < path.length; p++) {
    const j = path[p];
    localToModel(modelOut, parents, translations, rotations, scales, j, j + 1);
  }
}
