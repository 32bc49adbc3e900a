/**
 * One step of cyclic coordinate descent (CCD), over model matrices in a flat array.
 *
 * @packageDocumentation
 */
import { aimJoint } from './joint-limits.js';
import * as mat4 from './mat4.js';
import * as vec3 from './vec3.js';

/**
 * Turns one joint so that the direction from it to the end effector points at the target, within
 * the joint's limit, and returns whether the limit acted.
 *
 * Both points are taken into the joint's own frame with the inverse of its model matrix
 * `model[mo…]` (an affine inverse: the joint may sit below scaled, sheared or mirrored parents), then
 * multiplied by the joint's local scale `scales[so…]`, which puts them in the frame its rotation acts
 * in. The correction is {@link aimJoint}'s: the minimal rotation (a hinge's: about its axis),
 * composed on the right of `rotations[qo…]`, then the limit record `limits[lo…]`. Because the
 * rotation is expressed in the joint's frame, a joint turned this way puts the end effector on the
 * model-space ray from the joint to the target whatever its parents' transforms are. The caller
 * recomputes the joint's subtree afterwards. A singular model matrix leaves the rotation as it is.
 *
 * @param endPosition - the end effector's model-space position at `endPosition[eo…]` (for a model
 *   buffer, `16·end + 12`).
 * @param scratch - at least 22 numbers.
 */
export function ccdStep(
  model: Float64Array,
  mo: number,
  endPosition: Float64Array,
  eo: number,
  target: Float64Array,
  to: number,
  rotations: Float64Array,
  qo: number,
  scales: Float64Array,
  so: number,
  limits: Float64Array,
  lo: number,
  scratch: Float64Array,
): boolean {
  if (!mat4.invertAffine(scratch, 0, model, mo)) return false;
  vec3.transformPoint(scratch, 16, scratch, 0, endPosition, eo);
  vec3.transformPoint(scratch, 19, scratch, 0, target, to);
  const sx = scales[so];
  const sy = scales[so + 1];
  const sz = scales[so + 2];
  scratch[16] *= sx;
  scratch[17] *= sy;
  scratch[18] *= sz;
  scratch[19] *= sx;
  scratch[20] *= sy;
  scratch[21] *= sz;
  return aimJoint(rotations, qo, scratch, 16, scratch, 19, limits, lo, scratch);
}
