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
  const count = joints.length;
  for (let k = 0; k < count; k++) {
    const ao = joints[k] * 16;
    const bo = k * 16;
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
    paletteOut[bo] = a00 * b00 + a10 * b01 + a20 * b02;
    paletteOut[bo + 1] = a01 * b00 + a11 * b01 + a21 * b02;
    paletteOut[bo + 2] = a02 * b00 + a12 * b01 + a22 * b02;
    paletteOut[bo + 3] = 0;
    paletteOut[bo + 4] = a00 * b10 + a10 * b11 + a20 * b12;
    paletteOut[bo + 5] = a01 * b10 + a11 * b11 + a21 * b12;
    paletteOut[bo + 6] = a02 * b10 + a12 * b11 + a22 * b12;
    paletteOut[bo + 7] = 0;
    paletteOut[bo + 8] = a00 * b20 + a10 * b21 + a20 * b22;
    paletteOut[bo + 9] = a01 * b20 + a11 * b21 + a21 * b22;
    paletteOut[bo + 10] = a02 * b20 + a12 * b21 + a22 * b22;
    paletteOut[bo + 11] = 0;
    paletteOut[bo + 12] = a00 * b30 + a10 * b31 + a20 * b32 + a30;
    paletteOut[bo + 13] = a01 * b30 + a11 * b31 + a21 * b32 + a31;
    paletteOut[bo + 14] = a02 * b30 + a12 * b31 + a22 * b32 + a32;
    paletteOut[bo + 15] = 1;
  }
}
