/**
 * Small helpers users reach for around a pose: a printed joint tree, a joint's model position,
 * moving a joint by a model-space offset.
 *
 * @packageDocumentation
 */
import { checkFloat64Arg, checkPoseArg, checkSkeletonArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import { invert } from '../kernel/mat4.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import type { Pose } from './pose.js';

/** The skeleton as an indented tree, one joint a line: `index name`. */
export function printJointTree(skeleton: Skeleton): string {
  checkSkeletonArg(skeleton, 'printJointTree');
  const depth = new Int32Array(skeleton.jointCount);
  const lines: string[] = [];
  for (let j = 0; j < skeleton.jointCount; j++) {
    const p = skeleton.parents[j];
    depth[j] = p >= 0 ? depth[p] + 1 : 0;
    lines.push(`${'  '.repeat(depth[j])}${j} ${skeleton.names[j]}`);
  }
  return lines.join('\n');
}

function checkJoint(model: Float64Array, joint: number, what: string): void {
  checkFloat64Arg(model, what, 'the model buffer');
  if (!Number.isInteger(joint) || joint < 0 || 16 * joint + 16 > model.length) {
    throw new TendonError('pose/joint-out-of-range', `${what}: joint ${joint} is not in the model buffer`);
  }
}

/** Writes joint `joint`'s model-space position (`model[16j + 12 … 14]`) into `out[o…o+2]`; returns `out`. */
export function jointModelPosition(
  model: Float64Array,
  joint: number,
  out: Float64Array,
  o = 0,
): Float64Array {
  checkJoint(model, joint, 'jointModelPosition');
  checkFloat64Arg(out, 'jointModelPosition', 'out', 3);
  if (!(Number.isInteger(o) && o >= 0 && o + 3 <= out.length)) {
    throw new TendonError(
      'argument/invalid',
      `jointModelPosition: offset ${o} leaves no room for 3 numbers in out`,
    );
  }
  out[o] = model[16 * joint + 12];
  out[o + 1] = model[16 * joint + 13];
  out[o + 2] = model[16 * joint + 14];
  return out;
}

const inverse = new Float64Array(16);

/**
 * Moves `joint` by `offsetModel` (3 numbers, model space): its local translation changes by the
 * offset expressed in its parent's frame (through the parent's model matrix: rotated, scaled or
 * mirrored parents included), so that after forward kinematics the joint's model position has moved
 * by exactly the offset. `model` must hold the parent's model matrix; it is not updated (run
 * `forwardKinematicsSubtree(pose, model, joint)`).
 *
 * @throws {@link TendonError} `pose/joint-out-of-range`, `pose/not-finite` for a non-finite offset
 *   or a parent matrix that cannot be inverted; nothing is written then.
 */
export function translateJointInModel(
  pose: Pose,
  model: Float64Array,
  joint: number,
  offsetModel: ArrayLike<number>,
): void {
  const what = 'translateJointInModel';
  checkPoseArg(pose, what);
  checkJoint(model, joint, what);
  if (model.length !== 16 * pose.skeleton.jointCount) {
    throw new TendonError(
      'pose/buffer-size',
      `${what}: the model buffer does not hold 16 numbers per joint of the pose`,
    );
  }
  const x = offsetModel?.[0];
  const y = offsetModel?.[1];
  const z = offsetModel?.[2];
  if (!(x - x === 0 && y - y === 0 && z - z === 0)) {
    throw new TendonError('pose/not-finite', `${what}: the offset must be 3 finite numbers`);
  }
  const parent = pose.skeleton.parents[joint];
  let lx = x;
  let ly = y;
  let lz = z;
  if (parent >= 0) {
    if (!invert(inverse, 0, model, 16 * parent)) {
      throw new TendonError(
        'pose/not-finite',
        `${what}: the model matrix of "${pose.skeleton.names[parent]}" cannot be inverted`,
      );
    }
    lx = inverse[0] * x + inverse[4] * y + inverse[8] * z;
    ly = inverse[1] * x + inverse[5] * y + inverse[9] * z;
    lz = inverse[2] * x + inverse[6] * y + inverse[10] * z;
  }
  pose.translations[3 * joint] += lx;
  pose.translations[3 * joint + 1] += ly;
  pose.translations[3 * joint + 2] += lz;
}
