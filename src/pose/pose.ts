/**
 * A skeleton's local pose: translation, rotation and scale per joint.
 *
 * @packageDocumentation
 */
import { checkPoseArg, checkSkeletonArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import type { Skeleton } from '../skeleton/skeleton.js';

/**
 * Local joint transforms of one character, in flat `Float64Array`s (the kernels' format):
 * `translations[3j…]`, `rotations[4j…]` (unit quaternions `(x, y, z, w)`), `scales[3j…]`.
 * A new pose starts at the skeleton's rest pose.
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

  /** A pose of `skeleton`, at rest. */
  constructor(skeleton: Skeleton) {
    checkSkeletonArg(skeleton, 'new Pose');
    this.skeleton = skeleton;
    this.translations = skeleton.restTranslations.slice();
    this.rotations = skeleton.restRotations.slice();
    this.scales = skeleton.restScales.slice();
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

  /** A new pose with the same values. */
  clone(): Pose {
    return new Pose(this.skeleton).copyFrom(this);
  }
}
