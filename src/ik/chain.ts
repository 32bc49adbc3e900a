/**
 * Joint resolution and validation shared by the solvers' set-up (never run per solve).
 *
 * @packageDocumentation
 */
import { checkKnownKeys, describeArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import type { Pose } from '../pose/pose.js';
import type { Skeleton } from '../skeleton/skeleton.js';

/** A joint given by index or by name. */
export type JointRef = number | string;

/**
 * Checks that a solver's options are an object (JavaScript callers have no types to stop them).
 *
 * @throws {@link TendonError} `ik/invalid-option` naming the solver.
 */
export function checkOptions(options: unknown, solver: string, known?: readonly string[]): void {
  if (options === null || typeof options !== 'object') {
    throw new TendonError(
      'ik/invalid-option',
      `${solver}: options must be an object, not ${String(options)}`,
    );
  }
  if (known !== undefined) checkKnownKeys(options, known, solver, 'ik/invalid-option');
}

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
export function checkFinite(
  values: ArrayLike<number> | null | undefined,
  count: number,
  solver: string,
  what: string,
): void {
  if (values === null || values === undefined || typeof values.length !== 'number') {
    throw new TendonError('ik/invalid-target', `${solver}: ${what} is ${values}, not ${count} numbers`);
  }
  // Exactly: a longer array is more likely a mistake (a quaternion for a point) than a point.
  if (values.length !== count) {
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
  if (pose === null || typeof pose !== 'object' || !(pose.rotations instanceof Float64Array)) {
    throw new TendonError(
      'pose/skeleton-mismatch',
      `${solver}: the pose is ${describeArg(pose)}, not a Pose`,
    );
  }
  if (!(model instanceof Float64Array)) {
    // Described, not printed: a Float32Array model buffer printed every number (1,493 characters).
    throw new TendonError(
      'pose/buffer-size',
      `${solver}: the model buffer is ${describeArg(model)}, not a Float64Array`,
    );
  }
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

/**
 * Checks that what a solver reads from the pose and its model buffer holds numbers it can use: the
 * local rotation (finite, and of a squared length that is neither zero nor infinite in doubles, so
 * that it normalizes), translation and scale
 * (finite) of each joint of `locals`, and the affine part (the top three rows) of the model matrix
 * of each joint of `models` (entries below 0, a root's parent, skipped). A NaN there would
 * otherwise pass through the solve into the pose, or be silently replaced.
 *
 * Allocates nothing unless it throws (solvers call it on every solve, or when they met a bad
 * number as they read it).
 *
 * @throws {@link TendonError} `pose/not-finite` naming the joint and the numbers, before anything
 *   is written.
 */
export function checkPoseNumbers(
  pose: Pose,
  model: Float64Array,
  locals: Int32Array,
  models: Int32Array,
  solver: string,
): void {
  const { rotations: r, translations: t, scales: s } = pose;
  // A sum of finite numbers minus itself is 0; with a NaN or an infinity in it, NaN. (A sum of huge
  // finite numbers can overflow: that only sends the check to the exact search below.) Short sums,
  // added pairwise: one long chain of additions cost a tenth of a two-bone solve.
  let ok = true;
  for (let i = 0; i < locals.length; i++) {
    const q = 4 * locals[i];
    const v = 3 * locals[i];
    const lengthSq = r[q] * r[q] + r[q + 1] * r[q + 1] + (r[q + 2] * r[q + 2] + r[q + 3] * r[q + 3]);
    const sum = t[v] + t[v + 1] + t[v + 2] + (s[v] + s[v + 1] + s[v + 2]);
    if (!(lengthSq > 0 && lengthSq < Number.POSITIVE_INFINITY && sum - sum === 0)) ok = false;
  }
  for (let i = 0; i < models.length; i++) {
    const o = 16 * models[i];
    if (o < 0) continue;
    const m = model;
    const sum =
      m[o] +
      m[o + 1] +
      m[o + 2] +
      (m[o + 4] + m[o + 5] + m[o + 6]) +
      (m[o + 8] + m[o + 9] + m[o + 10] + (m[o + 12] + m[o + 13] + m[o + 14]));
    if (!(sum - sum === 0)) ok = false;
  }
  if (ok) return;
  const error = nonFiniteInPose(pose, model, locals, models, solver);
  if (error !== null) throw error;
}

/**
 * The `pose/not-finite` error for the first bad number, or null when there is none (a sum of
 * finite numbers overflowed). Allocates: only once the sums say something is wrong.
 */
function nonFiniteInPose(
  pose: Pose,
  model: Float64Array,
  locals: Int32Array,
  models: Int32Array,
  solver: string,
): TendonError | null {
  const names = pose.skeleton.names;
  const bad = (what: string, j: number, values: ArrayLike<number>) =>
    new TendonError(
      'pose/not-finite',
      `${solver}: the ${what} of joint "${names[j]}" is [${Array.from(values).join(', ')}]`,
    );
  for (const j of locals) {
    const q = pose.rotations.subarray(4 * j, 4 * j + 4);
    const lengthSq = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    if (!(lengthSq > 0 && lengthSq < Number.POSITIVE_INFINITY)) {
      return bad('local rotation (not finite, or of a length that does not normalize)', j, q);
    }
    const t = pose.translations.subarray(3 * j, 3 * j + 3);
    if (!t.every(Number.isFinite)) return bad('local translation', j, t);
    const s = pose.scales.subarray(3 * j, 3 * j + 3);
    if (!s.every(Number.isFinite)) return bad('local scale', j, s);
  }
  for (const j of models) {
    if (j < 0) continue;
    const m = model.subarray(16 * j, 16 * j + 15).filter((_, k) => k % 4 !== 3);
    if (!m.every(Number.isFinite)) return bad('model matrix (its top three rows)', j, m);
  }
  return null;
}
