/**
 * The status bits a batched two-bone (or aim) solve writes per limb, one byte each.
 *
 * @packageDocumentation
 */

/** Bits of the per-leg `status` bytes of `twoBoneSolveBatch`. */
export const TWO_BONE_STATUS = {
  /** The end is within the leg's tolerance of its target. */
  reached: 1,
  /** The target was out of reach (too far or too close). */
  outOfReach: 2,
  /** Softening, the bend range or the weight changed the answer. */
  clamped: 4,
  /** The bend side came from the hinge or memory (straight limb, pole on the line, target at the root). */
  degenerate: 8,
  /**
   * A number of the leg was not finite (its target, pole, end rotation, weight or softness; the
   * local transforms of its joints; the model matrices the solve reads), a rotation of its joints
   * was zero, or its end rotation was not a rotation or had no end joint: nothing of the leg's pose
   * was written, its error is NaN. Exactly where `TwoBoneIk.solve` would throw. (Geometry too large
   * for doubles, every number finite, is reported `degenerate` with nothing written, as
   * `TwoBoneIk` reports it.)
   */
  invalid: 16,
} as const;
