/**
 * The layouts of the two-bone kernel's arrays: its settings, its result and its memory.
 *
 * @packageDocumentation
 */

/** Layout of the `settings` array of `twoBoneSolve` (indices). */
export const TWO_BONE = {
  /** Target, model space (3). */
  target: 0,
  /** Pole point, model space (3). */
  pole: 3,
  /** 1 when the pole is used. */
  hasPole: 6,
  /** Blend weight in [0, 1]. */
  weight: 7,
  /** Softening: fraction of the full reach over which the reach eases out, in [0, 1). */
  softness: 8,
  /** Twist of the bend plane about the root–target axis: cos, sin (2). */
  twist: 9,
  /** Hinge axis of the middle joint in its own rotation frame (3), unit. */
  hinge: 11,
  /** 1 when the hinge axis is known (hinge-true mode), 0 for least-motion mode. */
  hasHinge: 14,
  /** Bend range about the hinge: the cosine and sine of the least bend (2). */
  bendMin: 15,
  /** The cosine and sine of the greatest bend (2). */
  bendMax: 17,
  /** 1 when the bend range applies. */
  hasBendRange: 19,
  /** Model-space rotation the end bone should keep (4). */
  endRotation: 20,
  /** 1 when the end rotation is matched. */
  hasEndRotation: 24,
  /** Reached when the end is within this distance of the target (model units). */
  tolerance: 25,
  /** The limb's end as a point in the middle joint's local frame (3), when it has no end joint. */
  endLocal: 26,
  /** 1 when the end is `endLocal` (the `end` joint index is then not read). */
  hasEndLocal: 29,
  /**
   * The bend range's middle, `(min + max) / 2`: cosine and sine (2). The range is clamped as a
   * half-angle measured from there ({@link halfAngleBound}).
   */
  bendMid: 30,
  /** The cosine and sine of a quarter of the bend range's width, `(max − min) / 4` (2). */
  bendQuarter: 32,
  /** Length of the settings array. */
  length: 34,
} as const;

/** Layout of the `result` array of `twoBoneSolve`. */
export const TWO_BONE_RESULT = {
  /** Distance from the end to the target after the solve, model space. */
  error: 0,
  /** 1 when reached. */
  reached: 1,
  /** 1 when the target was out of reach (too far or too close). */
  outOfReach: 2,
  /** 1 when softening, the bend range or the weight changed the answer. */
  clamped: 3,
  /** 1 when the bend side had to come from the hinge or memory (straight limb, pole on the line). */
  degenerate: 4,
  /**
   * 1 when a number the solve read was not finite (a NaN or an infinity in the model matrices or
   * the rotations of root and middle, or geometry too large for doubles), or a rotation was zero:
   * nothing was written.
   */
  invalid: 5,
  /** Length of the result array. */
  length: 6,
} as const;

/**
 * Length of the `memory` array of `twoBoneSolve`: the last bend-plane normal, in the root's
 * parent frame, and a flag that it is set.
 */
export const TWO_BONE_MEMORY_LENGTH = 4;
