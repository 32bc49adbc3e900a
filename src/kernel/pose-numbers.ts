/**
 * Whether a joint's numbers are usable by a solve: what `TwoBoneIk` and `AimIk` check by throwing
 * (`checkPoseNumbers`), asked without throwing by the batches, which flag the limb instead.
 *
 * @packageDocumentation
 */

/** Joint `j`'s local transform: finite, and a rotation that normalizes (length neither 0 nor ∞). */
export function localUsable(
  translations: Float64Array,
  rotations: Float64Array,
  scales: Float64Array,
  j: number,
): boolean {
  const q = 4 * j;
  const lengthSq =
    rotations[q] * rotations[q] +
    rotations[q + 1] * rotations[q + 1] +
    (rotations[q + 2] * rotations[q + 2] + rotations[q + 3] * rotations[q + 3]);
  if (!(lengthSq > 0 && lengthSq < Number.POSITIVE_INFINITY)) return false;
  for (let e = 3 * j; e < 3 * j + 3; e++) {
    if (!Number.isFinite(translations[e]) || !Number.isFinite(scales[e])) return false;
  }
  return true;
}

/** Joint `j`'s model matrix: its top three rows finite (true for `j < 0`, no joint). */
export function modelUsable(model: Float64Array, j: number): boolean {
  if (j < 0) return true;
  for (let e = 16 * j; e < 16 * j + 15; e++) {
    if (e % 4 !== 3 && !Number.isFinite(model[e])) return false;
  }
  return true;
}
