/**
 * Per-joint weights that restrict a layer to part of the body.
 *
 * @packageDocumentation
 */
import { checkArrayArg, checkSkeletonArg, optionsArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import type { Skeleton } from '../skeleton/skeleton.js';

/** Options of {@link createJointMask}. */
export interface JointMaskOptions {
  /** Also include every descendant of the listed joints. Default `true`. */
  readonly includeDescendants?: boolean;
  /** Weight of the included joints; the others get 0. Default 1. */
  readonly weight?: number;
}

/**
 * A per-joint weight array (`Float32Array` of `jointCount`, values in `[0, 1]`) selecting the listed
 * joints and, by default, their subtrees: e.g. `createJointMask(skeleton, ['Spine'])` for an upper
 * body layer. Masks are plain arrays: combine or feather them by writing values directly.
 *
 * @throws {@link TendonError} `skeleton/unknown-joint` for a name not in the skeleton,
 *   `animation/invalid-mask` for an index out of range or a weight outside `[0, 1]`.
 */
export function createJointMask(
  skeleton: Skeleton,
  joints: readonly (string | number)[],
  options: JointMaskOptions = {},
): Float32Array {
  checkSkeletonArg(skeleton, 'createJointMask');
  checkArrayArg(joints, 'createJointMask', 'joints');
  const { weight = 1, includeDescendants } = optionsArg(options, 'createJointMask');
  if (!(weight >= 0 && weight <= 1)) {
    throw new TendonError('animation/invalid-mask', `createJointMask: weight ${weight} is not in [0, 1]`);
  }
  const mask = new Float32Array(skeleton.jointCount);
  const selected = new Uint8Array(skeleton.jointCount);
  for (const joint of joints) {
    const index = typeof joint === 'string' ? skeleton.jointIndex(joint) : (joint as number);
    if (!Number.isInteger(index) || index < 0 || index >= skeleton.jointCount) {
      throw new TendonError(
        'animation/invalid-mask',
        `createJointMask: joint ${joint} is not in 0..${skeleton.jointCount - 1}`,
      );
    }
    selected[index] = 1;
  }
  const descendants = includeDescendants ?? true;
  for (let j = 0; j < skeleton.jointCount; j++) {
    const p = skeleton.parents[j];
    if (descendants && p >= 0 && selected[p]) selected[j] = 1;
    if (selected[j]) mask[j] = weight;
  }
  return mask;
}
