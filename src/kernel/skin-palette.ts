/**
 * The skinning palette: one matrix per skin joint, `M_joint · B⁻¹`, as the GPU wants it.
 *
 * @packageDocumentation
 */

/**
 * Writes `paletteOut[16k…] = model[16·joints[k]…] · inverseBind[16k…]` for every skin joint `k`.
 *
 * The output is column-major, 16 floats per joint, back to back: the layout of a WebGL/WebGPU
 * uniform or texture of `mat4`s and of three.js's `Skeleton.boneMatrices`. Both inputs are affine
 * (forward kinematics and glTF inverse bind matrices are), so the product skips the last row.
 *
 * @param paletteOut - `16·k` floats, written.
 * @param model - `16·n` model-space matrices of the skeleton.
 * @param joints - skeleton joint index of each skin joint.
 * @param inverseBind - `16·k` inverse bind matrices, one per skin joint.
 */
export function skinPalette(
  paletteOut: Float32Array | Float64Array,
  model: Float64Array,
  joints: Int32Array,
  inverseBind: Float64Array,
): void {
  // One character of a crowd, in the 4×4 layout: the same arithmetic, once.
  skinPalettes(paletteOut, PALETTE_MAT4, model, 0, joints, inverseBind, 0, 1);
}

/** Floats per skin joint of a 4×4 palette entry ({@link skinPalettes}): a column-major `mat4`. */
export const PALETTE_MAT4 = 16;
/**
 * Floats per skin joint of a 3×4 palette entry ({@link skinPalettes}): the affine matrix's top three
 * rows, row after row (`[m00 m01 m02 m03, m10 …, m20 …]`, the translation last in each row), a quarter
 * less to upload than the 4×4 one. A shader rebuilds the skinned point as three dot products of
 * the rows with `(x, y, z, 1)`.
 */
export const PALETTE_3X4 = 12;

/**
 * The skinning palettes of characters `first … first + count − 1` of a crowd: characters of one
 * skeleton side by side (character `c`'s joint `j` at index `c·jointCount + j` of `model`), each
 * palette `joints.length` entries of `stride` floats at `paletteOut[c·joints.length·stride …]`.
 *
 * Each entry is `model[joint] · inverseBind[k]` ({@link skinPalette} is one character of it), so a
 * 4×4 palette ({@link PALETTE_MAT4}) is `skinPalette`'s to the bit, and a 3×4 one
 * ({@link PALETTE_3X4}) holds the same numbers, its rows. Allocates nothing.
 *
 * @param paletteOut - written for the characters in the range.
 * @param stride - {@link PALETTE_MAT4} or {@link PALETTE_3X4}.
 * @param model - the crowd's model matrices, 16 per joint.
 * @param jointCount - joints per character (the skeleton's).
 * @param joints - skeleton joint index of each skin joint (one character's).
 * @param inverseBind - `16·k` inverse bind matrices.
 * @param first - the first character.
 * @param count - the number of characters.
 */
export function skinPalettes(
  paletteOut: Float32Array | Float64Array,
  stride: number,
  model: Float64Array,
  jointCount: number,
  joints: Int32Array,
  inverseBind: Float64Array,
  first: number,
  count: number,
): void {
  const k = joints.length;
  const rows = stride === PALETTE_3X4;
  for (let c = first; c < first + count; c++) {
    const mo = c * jointCount * 16;
    const po = c * k * stride;
    for (let i = 0; i < k; i++) {
      const ao = mo + joints[i] * 16;
      const bo = i * 16;
      const a00 = model[ao];
      const a01 = model[ao + 1];
      const a02 = model[ao + 2];
      const a10 = model[ao + 4];
      const a11 = model[ao + 5];
      const a12 = model[ao + 6];
      const a20 = model[ao + 8];
      const a21 = model[ao + 9];
      const a22 = model[ao + 10];
      const a30 = model[ao + 12];
      const a31 = model[ao + 13];
      const a32 = model[ao + 14];
      const b00 = inverseBind[bo];
      const b01 = inverseBind[bo + 1];
      const b02 = inverseBind[bo + 2];
      const b10 = inverseBind[bo + 4];
      const b11 = inverseBind[bo + 5];
      const b12 = inverseBind[bo + 6];
      const b20 = inverseBind[bo + 8];
      const b21 = inverseBind[bo + 9];
      const b22 = inverseBind[bo + 10];
      const b30 = inverseBind[bo + 12];
      const b31 = inverseBind[bo + 13];
      const b32 = inverseBind[bo + 14];
      // Column c, row r: (a · b)[r][c]; the last row of both is (0, 0, 0, 1).
      const m00 = a00 * b00 + a10 * b01 + a20 * b02;
      const m10 = a01 * b00 + a11 * b01 + a21 * b02;
      const m20 = a02 * b00 + a12 * b01 + a22 * b02;
      const m01 = a00 * b10 + a10 * b11 + a20 * b12;
      const m11 = a01 * b10 + a11 * b11 + a21 * b12;
      const m21 = a02 * b10 + a12 * b11 + a22 * b12;
      const m02 = a00 * b20 + a10 * b21 + a20 * b22;
      const m12 = a01 * b20 + a11 * b21 + a21 * b22;
      const m22 = a02 * b20 + a12 * b21 + a22 * b22;
      const m03 = a00 * b30 + a10 * b31 + a20 * b32 + a30;
      const m13 = a01 * b30 + a11 * b31 + a21 * b32 + a31;
      const m23 = a02 * b30 + a12 * b31 + a22 * b32 + a32;
      const o = po + i * stride;
      if (rows) {
        paletteOut[o] = m00;
        paletteOut[o + 1] = m01;
        paletteOut[o + 2] = m02;
        paletteOut[o + 3] = m03;
        paletteOut[o + 4] = m10;
        paletteOut[o + 5] = m11;
        paletteOut[o + 6] = m12;
        paletteOut[o + 7] = m13;
        paletteOut[o + 8] = m20;
        paletteOut[o + 9] = m21;
        paletteOut[o + 10] = m22;
        paletteOut[o + 11] = m23;
      } else {
        paletteOut[o] = m00;
        paletteOut[o + 1] = m10;
        paletteOut[o + 2] = m20;
        paletteOut[o + 3] = 0;
        paletteOut[o + 4] = m01;
        paletteOut[o + 5] = m11;
        paletteOut[o + 6] = m21;
        paletteOut[o + 7] = 0;
        paletteOut[o + 8] = m02;
        paletteOut[o + 9] = m12;
        paletteOut[o + 10] = m22;
        paletteOut[o + 11] = 0;
        paletteOut[o + 12] = m03;
        paletteOut[o + 13] = m13;
        paletteOut[o + 14] = m23;
        paletteOut[o + 15] = 1;
      }
    }
  }
}
