/**
 * A skeleton's local pose: translation, rotation and scale per joint.
 *
 * @packageDocumentation
 */
import { checkObjectArg, checkPoseArg, checkSkeletonArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import type { Skeleton } from '../skeleton/skeleton.js';

/** The arrays a {@link Pose} can view instead of owning ({@link Pose.view}). */
export interface PoseArrays {
  /** `3·n` local translations. */
  readonly translations: Float64Array;
  /** `4·n` local rotations. */
  readonly rotations: Float64Array;
  /** `3·n` local scales. */
  readonly scales: Float64Array;
}

/** The arrays {@link Pose.view} hands its constructor (set only while it constructs). */
let viewed: PoseArrays | null = null;

/**
 * Local joint transforms of one character, in flat `Float64Array`s (the kernels' format):
 * `translations[3j…]`, `rotations[4j…]` (unit quaternions `(x, y, z, w)`), `scales[3j…]`.
 * A new pose starts at the skeleton's rest pose; {@link Pose.view} makes one over arrays it does
 * not own (a character's slice of a crowd).
 */
export class Pose {
  /** The skeleton this pose belongs to. */
  readonly skeleton: Skeleton;
  /** `3·n` local translations. */
  readonly translations: Float64Array;
  /** `4·n` local rotations. */
  readonly rotations: Float64Array;
  /** `3·n` local scales. */
  readonly scales: Float64Array;
  /**
   * Whether every sample of this pose starts it from rest (a `Crowd`'s character: `Crowd.sample`
   * resets it), so that no joint comes back to a controller as it left it: the placement
   * controllers then skip their check for that (its memory traffic cost 8–14% of a thousand
   * placed robots' frame).
   *
   * @internal
   */
  startsFromRest = false;

  /** A pose of `skeleton`, at rest. */
  constructor(skeleton: Skeleton) {
    checkSkeletonArg(skeleton, 'new Pose');
    this.skeleton = skeleton;
    const arrays = viewed;
    this.translations = arrays === null ? skeleton.restTranslations.slice() : arrays.translations;
    this.rotations = arrays === null ? skeleton.restRotations.slice() : arrays.rotations;
    this.scales = arrays === null ? skeleton.restScales.slice() : arrays.scales;
  }

  /**
   * A pose of `skeleton` whose arrays are `arrays` themselves, not copies: what is written to the
   * pose is written there, and the other way round. The way to run a per-character solver (a
   * `FootPlacement`, a `TwoBoneIk`) on a character of a `Crowd` without copying its pose in and
   * out (`Crowd.poseOf` makes these views). The values are left as they are.
   *
   * @throws {@link TendonError} `argument/invalid` when an array is not a `Float64Array` of the
   *   skeleton's size (`3·n`, `4·n`, `3·n`).
   */
  static view(skeleton: Skeleton, arrays: PoseArrays): Pose {
    checkSkeletonArg(skeleton, 'Pose.view');
    checkObjectArg(arrays, 'Pose.view', 'the arrays');
    const n = skeleton.jointCount;
    for (const [name, size] of [
      ['translations', 3],
      ['rotations', 4],
      ['scales', 3],
    ] as const) {
      const a: unknown = arrays[name];
      if (!(a instanceof Float64Array) || a.length !== size * n) {
        throw new TendonError(
          'argument/invalid',
          `Pose.view: ${name} must be a Float64Array of ${size}·${n} = ${size * n} numbers`,
        );
      }
    }
    viewed = arrays;
    try {
      return new Pose(skeleton);
    } finally {
      viewed = null;
    }
  }

  /** Sets every joint back to the rest pose. Returns `this`. */
  resetToRest(): this {
    this.translations.set(this.skeleton.restTranslations);
    this.rotations.set(this.skeleton.restRotations);
    this.scales.set(this.skeleton.restScales);
    return this;
  }

  /**
   * Copies another pose of the same skeleton into this one. Returns `this`.
   *
   * @throws {@link TendonError} `pose/skeleton-mismatch` when the skeletons differ.
   */
  copyFrom(other: Pose): this {
    checkPoseArg(other, 'Pose.copyFrom', undefined, 'the other pose');
    if (other.skeleton !== this.skeleton) {
      throw new TendonError(
        'pose/skeleton-mismatch',
        'Pose.copyFrom: the poses belong to different skeletons',
      );
    }
    this.translations.set(other.translations);
    this.rotations.set(other.rotations);
    this.scales.set(other.scales);
    return this;
  }

  /** A new pose with the same values, owning its arrays (a view's clone too). */
  clone(): Pose {
    return new Pose(this.skeleton).copyFrom(this);
  }
}
