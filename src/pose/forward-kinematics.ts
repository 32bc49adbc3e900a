/**
 * Model-space matrices from a pose.
 *
 * @packageDocumentation
 */
import { checkFloat64Arg, checkPoseArg, checkSkeletonArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import { localToModel } from '../kernel/local-to-model.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import { Pose } from './pose.js';

/** A model-space matrix buffer for `skeleton`: 16 numbers per joint, column-major. */
export function createModelBuffer(skeleton: Skeleton): Float64Array {
  checkSkeletonArg(skeleton, 'createModelBuffer');
  return new Float64Array(16 * skeleton.jointCount);
}

/**
 * Computes the model-space matrix `M_j = M_parent(j) · T_j` of every joint of `pose` into
 * `modelOut` (16 numbers per joint, column-major; see {@link createModelBuffer}). Allocates nothing.
 *
 * @throws {@link TendonError} `pose/buffer-size` when `modelOut` does not hold `16·n` numbers.
 */
export function forwardKinematics(pose: Pose, modelOut: Float64Array): void {
  // One test, the messages in a call made only when it fails: this runs every frame, and a larger
  // function is inlined less readily into the caller's loop.
  if (
    !(pose instanceof Pose) ||
    !(modelOut instanceof Float64Array) ||
    modelOut.length !== 16 * pose.skeleton.jointCount
  ) {
    checkPoseArg(pose, 'forwardKinematics');
    checkBuffer(pose.skeleton, modelOut, 'forwardKinematics');
  }
  const skeleton = pose.skeleton;
  localToModel(
    modelOut,
    skeleton.parents,
    pose.translations,
    pose.rotations,
    pose.scales,
    0,
    skeleton.jointCount,
  );
}

/**
 * Recomputes the model matrices of `joint` and its descendants only, reading the parent of `joint`
 * from `modelOut` (which must be up to date): the update IK needs after changing one joint.
 *
 * @throws {@link TendonError} `pose/buffer-size` or `pose/joint-out-of-range`.
 */
export function forwardKinematicsSubtree(pose: Pose, modelOut: Float64Array, joint: number): void {
  checkPoseArg(pose, 'forwardKinematicsSubtree');
  const skeleton = pose.skeleton;
  checkBuffer(skeleton, modelOut, 'forwardKinematicsSubtree');
  if (!Number.isInteger(joint) || joint < 0 || joint >= skeleton.jointCount) {
    throw new TendonError(
      'pose/joint-out-of-range',
      `forwardKinematicsSubtree: joint ${joint} is not in 0..${skeleton.jointCount - 1}`,
    );
  }
  subtreeToModel(pose, modelOut, joint);
}

/**
 * The model-space matrices of the skeleton's rest pose, in a new buffer: what solvers read their
 * rest geometry from (bone lengths, a limb's bend plane, a joint's rest direction) at set-up.
 */
export function restModelMatrices(skeleton: Skeleton): Float64Array {
  const model = createModelBuffer(skeleton);
  localToModel(
    model,
    skeleton.parents,
    skeleton.restTranslations,
    skeleton.restRotations,
    skeleton.restScales,
    0,
    skeleton.jointCount,
  );
  return model;
}

function checkBuffer(skeleton: Skeleton, modelOut: Float64Array, who: string): void {
  checkFloat64Arg(modelOut, who, 'the model buffer');
  if (modelOut.length !== 16 * skeleton.jointCount) {
    throw new TendonError(
      'pose/buffer-size',
      `${who}: the model buffer holds ${modelOut.length} numbers; expected ${16 * skeleton.jointCount} (16 per joint)`,
    );
  }
}

/**
 * {@link forwardKinematicsSubtree} without its checks, for solvers that checked their pose and
 * buffer once per solve and refresh a subtree several times in it.
 *
 * @internal
 */
export function subtreeToModel(pose: Pose, modelOut: Float64Array, joint: number): void {
  const skeleton = pose.skeleton;
  localToModel(
    modelOut,
    skeleton.parents,
    pose.translations,
    pose.rotations,
    pose.scales,
    joint,
    skeleton.subtreeEnds[joint],
  );
}
