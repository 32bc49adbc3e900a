/**
 * CPU linear-blend skinning, for Node tools, baking and tests (the GPU does it at run time).
 *
 * @packageDocumentation
 */

/** Integer joint indices per vertex, as glTF stores `JOINTS_n`. */
export type JointIndexArray = Uint8Array | Uint16Array | Uint32Array | Int32Array;

/**
 * Skins `vertexCount` points: `out_v = Σ_k w_k · P[j_k] · v / Σ_k w_k` (docs/methods.md §1).
 *
 * Weights are divided by their sum, so a vertex whose weights do not add up to 1 (exporters round
 * them; RobotExpressive's reach 1.07) is not pulled toward or away from the origin. A vertex whose
 * weights are all zero keeps its bind position. `influences` is the number of joint/weight pairs per
 * vertex (4 per `JOINTS_n`/`WEIGHTS_n` set). `out` may be `positions` itself.
 *
 * @param out - `3·vertexCount` skinned positions, written.
 * @param positions - `3·vertexCount` bind-pose positions (mesh space).
 * @param joints - `influences·vertexCount` palette indices.
 * @param weights - `influences·vertexCount` weights.
 * @param influences - joint/weight pairs per vertex.
 * @param palette - `16·k` skin matrices from {@link skinPalette}.
 * @param isDirection - `true` to skin directions (normals, tangents: w = 0, renormalized), `false`
 *   for points.
 */
export function skinVertices(
  out: Float32Array | Float64Array,
  positions: Float32Array | Float64Array,
  joints: JointIndexArray,
  weights: Float32Array | Float64Array,
  influences: number,
  palette: Float32Array | Float64Array,
  isDirection: boolean,
): void {
  const vertexCount = (positions.length / 3) | 0;
  const w3 = isDirection ? 0 : 1;
  for (let v = 0; v < vertexCount; v++) {
    const px = positions[v * 3];
    const py = positions[v * 3 + 1];
    const pz = positions[v * 3 + 2];
    let x = 0;
    let y = 0;
    let z = 0;
    let total = 0;
    const base = v * influences;
    // Weights whose sum leaves the doubles (1e308 twice, or 5e-324) are taken relative to the
    // largest: the same blend, and NaN or Infinity no longer (others keep their bits).
    let most = 1;
    for (let pass = 0; pass < 2; pass++) {
      x = 0;
      y = 0;
      z = 0;
      total = 0;
      for (let k = 0; k < influences; k++) {
        // (Divided, not multiplied by its inverse: 1 / 1e-320 overflows.)
        const w = pass === 0 ? weights[base + k] : weights[base + k] / most;
        if (w === 0) continue;
        const m = joints[base + k] * 16;
        total += w;
        x += w * (palette[m] * px + palette[m + 4] * py + palette[m + 8] * pz + palette[m + 12] * w3);
        y += w * (palette[m + 1] * px + palette[m + 5] * py + palette[m + 9] * pz + palette[m + 13] * w3);
        z += w * (palette[m + 2] * px + palette[m + 6] * py + palette[m + 10] * pz + palette[m + 14] * w3);
      }
      if (total === 0 || (total > 1e-300 && total < 1e300)) break;
      most = 0;
      for (let k = 0; k < influences; k++) if (weights[base + k] > most) most = weights[base + k];
    }
    if (total === 0) {
      out[v * 3] = px;
      out[v * 3 + 1] = py;
      out[v * 3 + 2] = pz;
      continue;
    }
    let inv = 1 / total;
    if (isDirection) {
      const lenSq = x * x + y * y + z * z;
      inv = lenSq > 0 ? 1 / Math.sqrt(lenSq) : 0;
    }
    out[v * 3] = x * inv;
    out[v * 3 + 1] = y * inv;
    out[v * 3 + 2] = z * inv;
  }
}
