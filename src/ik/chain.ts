/**
 * Joint resolution and validation shared by the solvers' set-up (never run per solve).
 *
 * @packageDocumentation
 */
import { TendonError } from '../errors.js';
import type { Pose } from '../pose/pose.js';
import type { Skeleton } from '../skeleton/skeleton.js';

/** A joint given by index or by name. */
export type JointRef = number | string;

/**
 * Index of a joint given by name or index.
 *
 * @throws {@link TendonError} `ik/invalid-joint` naming the solver and the joint.
 */
export function resolveJoint(skeleton: Skeleton, joint: JointRef, solver: string, role: string): number {
  if (typeof joint === 'string') {
    const index = skeleton.indexOf(joint);
    if (index < 0)
      throw new TendonError('ik/invalid-joint', `${solver}: ${role} joint "${joint}" is not in the skeleton`);
    return index;
  }
  if (!Number.isInteger(joint) || joint < 0 || joint >= skeleton.jointCount) {
    throw new TendonError(
      'ik/invalid-joint',
      `${solver}: ${role} joint ${joint} is not an index in 0..${skeleton.jointCount - 1}`,
    );
  }
  return joint;
}

/**
 * Checks that each joint is a strict descendant of the one before (twist bones may sit between).
 *
 * @throws {@link TendonError} `ik/not-a-chain` naming the two joints that are not related.
 */
export function checkChain(skeleton: Skeleton, joints: readonly number[], solver: string): void {
  for (let i = 1; i < joints.length; i++) {
    const upper = joints[i - 1];
    const lower = joints[i];
    if (upper === lower || !skeleton.isAncestor(upper, lower)) {
      throw new TendonError(
        'ik/not-a-chain',
        `${solver}: "${skeleton.names[lower]}" is not below "${skeleton.names[upper]}" in the hierarchy`,
      );
    }
  }
}

/**
 * Checks that a target (or pole, or any model-space input) holds `count` finite numbers.
 *
 * @throws {@link TendonError} `ik/invalid-target` naming the solver and the input.
 */
export function checkFinite(values: ArrayLike<number>, count: number, solver: string, what: string): void {
  if (values.length < count) {
    throw new TendonError(
      'ik/invalid-target',
      `${solver}: ${what} needs ${count} numbers, got ${values.length}`,
    );
  }
  for (let i = 0; i < count; i++) {
    if (!Number.isFinite(values[i])) {
      throw new TendonError(
        'ik/invalid-target',
        `${solver}: ${what}[${i}] is ${values[i]}, not a finite number`,
      );
    }
  }
}

/**
 * Checks that a pose and its model buffer belong to the solver's skeleton.
 *
 * @throws {@link TendonError} `pose/skeleton-mismatch` or `pose/buffer-size`.
 */
export function checkPose(skeleton: Skeleton, pose: Pose, model: Float64Array, solver: string): void {
  if (pose.skeleton !== skeleton) {
    throw new TendonError('pose/skeleton-mismatch', `${solver}: the pose belongs to another skeleton`);
  }
  if (model.length !== 16 * skeleton.jointCount) {
    throw new TendonError(
      'pose/buffer-size',
      `${solver}: the model buffer holds ${model.length} numbers; expected ${16 * skeleton.jointCount}`,
    );
  }
}
