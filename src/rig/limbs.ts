/**
 * What a character's IK rig knows about its limbs: plain data, found once per skeleton.
 *
 * @packageDocumentation
 */

/** Which side of the body a limb is on (`'center'` for a tail or a single limb). */
export type LimbSide = 'left' | 'right' | 'center';

/** How a limb was found: by a built-in or user name map, from the skeleton's shape, or given. */
export type LimbSource = 'name' | 'shape' | 'override';

/**
 * The two shapes of leg found in real files.
 * - `'chain'`: thigh → shin → foot (→ toe), the foot a joint below the shin (CMU, DAZ, Mixamo, VRM).
 * - `'effector'`: thigh → shin with no joint below, and the foot a separate bone elsewhere in the
 *   hierarchy that the animation keeps at the shin's tip (Blender IK rigs, such as the bundled
 *   robot). The leg's end is then a fixed point in the shin's frame ({@link LegRig.endLocal}).
 */
export type LegShape = 'chain' | 'effector';

/** One leg (or an animal's front or hind leg) as joint indices; `-1` where there is none. */
export interface LegRig {
  /** A readable label: `'left'`, `'right'`, `'front-left'`, ... */
  readonly label: string;
  /** Which side of the body. */
  readonly side: LimbSide;
  /** A chain of three joints, or a knee with the foot as a point of it (see {@link LegShape}). */
  readonly shape: LegShape;
  /** How the leg was found. */
  readonly source: LimbSource;
  /** The upper joint (hip / thigh). */
  readonly root: number;
  /** The knee (shin). */
  readonly middle: number;
  /** `'chain'`: the ankle joint (the foot). `'effector'`: `-1`. */
  readonly end: number;
  /**
   * `'effector'`: the leg's end as a point in the middle joint's local frame (the shin's tip, where
   * the animation keeps the foot bone). `'chain'`: `null`.
   */
  readonly endLocal: readonly [number, number, number] | null;
  /** The bone placement turns onto the ground: the ankle (`'chain'`) or the separate foot bone. */
  readonly foot: number;
  /** The toe joint below the foot, `-1` if none. */
  readonly toe: number;
  /** A pole (knee target) bone, `-1` if none. */
  readonly pole: number;
  /** The joint names of the skeleton the leg was found on (see {@link Rig.jointNames}). */
  readonly jointNames?: readonly string[];
}

/** One arm: shoulder (clavicle), upper arm, forearm, hand; `-1` where there is none. */
export interface ArmRig {
  /** A readable label: `'left'`, `'right'`. */
  readonly label: string;
  /** Which side of the body. */
  readonly side: LimbSide;
  /** How the arm was found. */
  readonly source: LimbSource;
  /** The clavicle / shoulder joint above the upper arm, `-1` if none. */
  readonly clavicle: number;
  /** The upper arm (shoulder joint). */
  readonly root: number;
  /** The forearm (elbow). */
  readonly middle: number;
  /** The hand (wrist). */
  readonly end: number;
}

/** A character's limbs and trunk, as found by the rig detection. */
export interface Rig {
  /** Legs, left before right; an animal's hind legs before its front legs. */
  readonly legs: readonly LegRig[];
  /** Arms, left before right. */
  readonly arms: readonly ArmRig[];
  /**
   * The joint whose translation carries the pelvis offset: the lowest common ancestor of the legs'
   * roots (on the robot `Body`, not `Hips`). `-1` when there are no legs.
   */
  readonly pelvis: number;
  /** Spine joints from the pelvis up to (not including) the neck, bottom first. */
  readonly spine: readonly number[];
  /** Neck joints, bottom first (may be empty). */
  readonly neck: readonly number[];
  /** The head joint, `-1` if none. */
  readonly head: number;
  /** The naming convention that matched (`'robot'`, `'cmu'`, `'mixamo'`, ...), or `null` for shape detection. */
  readonly convention: string | null;
  /**
   * Which way the character faces in its rest pose, model space (a unit vector along the ground),
   * as {@link index!findRig} reads it from the feet: the way the toes point from the ankles, or for
   * two legs without toes the way the knees bend, turned to ±X or ±Z where within 30° of one. `null`
   * (or absent, in a rig written by hand) where the rest pose does not say. Placement and the look
   * take it where their `forward` option is not given (default +Z): a character facing −Z, as VRM
   * 0.x models do, had its knees bent backwards and its head turned away.
   */
  readonly forward?: readonly [number, number, number] | null;
  /**
   * The joint names of the skeleton the rig was found on ({@link index!findRig} sets them): a rig is
   * joint indices, and used on another skeleton (another model, or the same one under an extra node
   * that shifts every index) it names other bones. Checked wherever a rig is taken.
   */
  readonly jointNames?: readonly string[];
}
