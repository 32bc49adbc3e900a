/**
 * Pose blending over flat local-TRS arrays: weighted layers, additive layers, per-joint masks.
 *
 * A blend runs in three steps so that any number of layers costs no allocation: clear an
 * accumulator, accumulate each layer with its weight (and optional per-joint mask), then finish
 * (divide by the total weight per joint; joints that no layer touched take a fallback pose).
 *
 * @packageDocumentation
 */
import { conjugate, multiply, normalize } from './quat.js';

// Written and read within one call: kernels never call back out, so no call can interleave.
const scratch = new Float64Array(4);

/** Zeroes an accumulator of `jointCount` joints (`3n`, `4n`, `3n` values and `n` weights). */
export function blendClear(
  accT: Float64Array,
  accR: Float64Array,
  accS: Float64Array,
  accW: Float64Array,
  jointCount: number,
): void {
  accT.fill(0, 0, jointCount * 3);
  accR.fill(0, 0, jointCount * 4);
  accS.fill(0, 0, jointCount * 3);
  accW.fill(0, 0, jointCount);
}

/**
 * Adds one layer with weight `weight[weightIndex] · mask[j]` per joint (`mask` may be `null` for
 * all ones). The weight travels in an array, as in every kernel called per frame: V8 boxes a
 * double passed to a call it does not inline, which would allocate on every call.
 * Rotations are summed in the hemisphere of what has been accumulated so far (`q` and `−q` are the
 * same rotation, and summing them would cancel), then normalized by {@link blendFinish}: a
 * normalized weighted quaternion average, exact for two layers along the slerp great circle up to
 * the nlerp speed difference.
 */
export function blendAccumulate(
  accT: Float64Array,
  accR: Float64Array,
  accS: Float64Array,
  accW: Float64Array,
  t: Float64Array,
  r: Float64Array,
  s: Float64Array,
  weight: Float64Array,
  weightIndex: number,
  mask: Float32Array | Float64Array | null,
  jointCount: number,
): void {
  const layerWeight = weight[weightIndex];
  for (let j = 0; j < jointCount; j++) {
    const w = mask === null ? layerWeight : layerWeight * mask[j];
    if (w <= 0) continue;
    const v = j * 3;
    const q = j * 4;
    accW[j] += w;
    accT[v] += t[v] * w;
    accT[v + 1] += t[v + 1] * w;
    accT[v + 2] += t[v + 2] * w;
    accS[v] += s[v] * w;
    accS[v + 1] += s[v + 1] * w;
    accS[v + 2] += s[v + 2] * w;
    const d = accR[q] * r[q] + accR[q + 1] * r[q + 1] + accR[q + 2] * r[q + 2] + accR[q + 3] * r[q + 3];
    const wq = d < 0 ? -w : w;
    accR[q] += r[q] * wq;
    accR[q + 1] += r[q + 1] * wq;
    accR[q + 2] += r[q + 2] * wq;
    accR[q + 3] += r[q + 3] * wq;
  }
}

/**
 * Writes the blended pose: accumulated values divided by each joint's total weight, rotations
 * normalized. A joint with total weight 0 (masked out of every layer) takes the fallback pose
 * (usually the rest pose). `out*` may alias the fallback arrays.
 */
export function blendFinish(
  outT: Float64Array,
  outR: Float64Array,
  outS: Float64Array,
  accT: Float64Array,
  accR: Float64Array,
  accS: Float64Array,
  accW: Float64Array,
  fallbackT: Float64Array,
  fallbackR: Float64Array,
  fallbackS: Float64Array,
  jointCount: number,
): void {
  for (let j = 0; j < jointCount; j++) {
    const v = j * 3;
    const q = j * 4;
    const w = accW[j];
    const x = accR[q];
    const y = accR[q + 1];
    const z = accR[q + 2];
    const qw = accR[q + 3];
    const lenSq = x * x + y * y + z * z + qw * qw;
    if (w <= 0 || lenSq === 0) {
      outT[v] = fallbackT[v];
      outT[v + 1] = fallbackT[v + 1];
      outT[v + 2] = fallbackT[v + 2];
      outS[v] = fallbackS[v];
      outS[v + 1] = fallbackS[v + 1];
      outS[v + 2] = fallbackS[v + 2];
      outR[q] = fallbackR[q];
      outR[q + 1] = fallbackR[q + 1];
      outR[q + 2] = fallbackR[q + 2];
      outR[q + 3] = fallbackR[q + 3];
      continue;
    }
    const inv = 1 / w;
    outT[v] = accT[v] * inv;
    outT[v + 1] = accT[v + 1] * inv;
    outT[v + 2] = accT[v + 2] * inv;
    outS[v] = accS[v] * inv;
    outS[v + 1] = accS[v + 1] * inv;
    outS[v + 2] = accS[v + 2] * inv;
    const invLen = 1 / Math.sqrt(lenSq);
    outR[q] = x * invLen;
    outR[q + 1] = y * invLen;
    outR[q + 2] = z * invLen;
    outR[q + 3] = qw * invLen;
  }
}

/**
 * The additive difference of a pose to a reference pose, per joint: `Δt = t − t_ref`,
 * `Δq = q_ref⁻¹ · q` (in the joint's own frame, so that `q_ref · Δq = q`), `Δs = s / s_ref`
 * (a zero reference scale gives `Δs = 1` on that axis rather than Infinity).
 */
export function additiveDelta(
  outT: Float64Array,
  outR: Float64Array,
  outS: Float64Array,
  t: Float64Array,
  r: Float64Array,
  s: Float64Array,
  refT: Float64Array,
  refR: Float64Array,
  refS: Float64Array,
  jointCount: number,
): void {
  for (let j = 0; j < jointCount; j++) {
    const v = j * 3;
    const q = j * 4;
    for (let c = 0; c < 3; c++) {
      outT[v + c] = t[v + c] - refT[v + c];
      const rs = refS[v + c];
      outS[v + c] = rs === 0 ? 1 : s[v + c] / rs;
    }
    conjugate(scratch, 0, refR, q);
    multiply(outR, q, scratch, 0, r, q);
  }
}

/**
 * Applies an additive layer on top of a pose, in place, with weight `weight[weightIndex] · mask[j]`
 * (the weight in an array, as for {@link blendAccumulate}):
 * `t += w Δt`, `q ← q · nlerp(identity, Δq, w)`, `s ← s · (1 + w (Δs − 1))`. At `w = 1` the result
 * is exactly `q · Δq`; at `w = 0` the pose is untouched.
 */
export function additiveApply(
  t: Float64Array,
  r: Float64Array,
  s: Float64Array,
  deltaT: Float64Array,
  deltaR: Float64Array,
  deltaS: Float64Array,
  weight: Float64Array,
  weightIndex: number,
  mask: Float32Array | Float64Array | null,
  jointCount: number,
): void {
  const layerWeight = weight[weightIndex];
  for (let j = 0; j < jointCount; j++) {
    const w = mask === null ? layerWeight : layerWeight * mask[j];
    if (w === 0) continue;
    const v = j * 3;
    const q = j * 4;
    for (let c = 0; c < 3; c++) {
      t[v + c] += deltaT[v + c] * w;
      s[v + c] *= 1 + (deltaS[v + c] - 1) * w;
    }
    // nlerp from the identity toward Δq, with Δq taken in the identity's hemisphere (w ≥ 0).
    const sw = deltaR[q + 3] < 0 ? -w : w;
    const bx = deltaR[q] * sw;
    const by = deltaR[q + 1] * sw;
    const bz = deltaR[q + 2] * sw;
    const bw = 1 - w + deltaR[q + 3] * sw;
    const lenSq = bx * bx + by * by + bz * bz + bw * bw;
    if (lenSq === 0) continue;
    const inv = 1 / Math.sqrt(lenSq);
    scratch[0] = bx * inv;
    scratch[1] = by * inv;
    scratch[2] = bz * inv;
    scratch[3] = bw * inv;
    multiply(r, q, r, q, scratch, 0);
    normalize(r, q, r, q);
  }
}
