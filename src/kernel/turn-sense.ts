/**
 * The sense a joint's local turns take in an ancestor's frame, below mirrored bones.
 *
 * @packageDocumentation
 */

/**
 * The sense in which the local turns of joint `mid` act in the frame of `root`'s parent: 1, or -1
 * when the bones from `root` down to `mid`'s parent are mirrored an odd number of times (their
 * scales' determinants multiply to a negative number). Conjugating a turn about `a` by a mirror
 * `G` gives the turn about `-G a` by the same angle, so the hinge and every local axis then flip.
 * `mid` must be below `root`.
 */
export function turnSense(parents: Int32Array, scales: Float64Array, root: number, mid: number): number {
  let sense = 1;
  for (let j = parents[mid]; j >= root; j = parents[j]) {
    const o = j * 3;
    if (scales[o] * scales[o + 1] * scales[o + 2] < 0) sense = -sense;
    if (j === root) break;
  }
  return sense;
}
