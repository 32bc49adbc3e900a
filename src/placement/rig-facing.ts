/**
 * The turn about +Y from a rig's rest facing to +Z, for controllers that place the character by a
 * world matrix whose model +Z faces the ladder or across the bar.
 *
 * @packageDocumentation
 */
import type { Rig } from '../rig/limbs.js';

/**
 * `[cos, sin]` of the turn about +Y that takes the rig's rest facing ({@link Rig.forward}) to +Z:
 * the facing is `(sin, 0, cos)`. `[1, 0]` where the rig does not say, or faces +Z. A model-space
 * direction `(x, y, z)` given as if the character faced +Z is `(x·cos + z·sin, y, z·cos − x·sin)`
 * for this rig.
 */
export function restFacing(rig: Rig): [number, number] {
  const f = rig.forward;
  if (f === undefined || f === null) return [1, 0];
  const l = Math.sqrt(f[0] * f[0] + f[2] * f[2]);
  return l > 0 ? [f[2] / l, f[0] / l] : [1, 0];
}
