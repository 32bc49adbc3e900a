/**
 * Refusing a pose a placement step cannot use, before the step writes anything.
 *
 * A placement step (feet, a look, a climb, a hang) reads some joints' model matrices and turns some
 * joints' local rotations. A NaN, an infinity or a rotation that does not normalize among them
 * would reach its targets, locks and springs, and stay there after the pose is mended; a solver
 * meeting it halfway through the step would throw with the limbs before it already written. So
 * each step checks the joints it reads first, and throws `pose/not-finite` naming the joint.
 *
 * @packageDocumentation
 */
import { TendonError } from '../errors.js';
import { localUsable, modelUsable } from '../kernel/pose-numbers.js';
import type { Pose } from '../pose/pose.js';
import type { Skeleton } from '../skeleton/skeleton.js';

/** The joints a placement step reads: {@link poseReads}. */
export interface PoseReads {
  /** Joints whose model matrices the step reads (the owned ones, their parents, and others). */
  readonly read: Int32Array;
  /** Joints whose local transforms the step reads and writes. */
  readonly owned: Int32Array;
}

/**
 * The joints a step reads: `owned` (whose local transforms it turns), their parents, and `also`
 * (read in model space only: toes, poles). Joints below 0 (none) are left out.
 */
export function poseReads(
  skeleton: Skeleton,
  owned: Iterable<number>,
  also: Iterable<number> = [],
): PoseReads {
  const own = new Set<number>();
  for (const j of owned) if (j >= 0) own.add(j);
  const read = new Set<number>(own);
  for (const j of own) if (skeleton.parents[j] >= 0) read.add(skeleton.parents[j]);
  for (const j of also) if (j >= 0) read.add(j);
  const sorted = (set: Set<number>) => Int32Array.from([...set].sort((a, b) => a - b));
  return { read: sorted(read), owned: sorted(own) };
}

/**
 * Throws `pose/not-finite`, naming the joint, where a joint of `reads` has a NaN or an infinity in
 * its model matrix's top three rows, or an owned one in its local transform or a rotation that does
 * not normalize ({@link poseReadsUsable}, then {@link refusePose}). Allocates nothing unless it
 * throws.
 */
export function checkPoseReads(reads: PoseReads, pose: Pose, model: Float64Array, who: string): void {
  if (!poseReadsUsable(reads, pose, model)) refusePose(reads, pose, model, who);
}

/**
 * Whether {@link checkPoseReads} would pass: for a step that must put its own state back before
 * it throws (it eased a weight to learn whether it reads the pose at all this frame).
 */
export function poseReadsUsable(reads: PoseReads, pose: Pose, model: Float64Array): boolean {
  // A sum and a product, not a test per number: a NaN or an infinity makes the sum NaN, a rotation
  // of length 0 or ∞ the product 0, ∞ or NaN. Only then is each joint looked at (finite numbers
  // whose sum or product overflowed pass there).
  const t = pose.translations;
  const r = pose.rotations;
  const sc = pose.scales;
  const read = reads.read;
  const owned = reads.owned;
  let sum = 0;
  for (let k = 0; k < read.length; k++) {
    const m = 16 * read[k];
    sum +=
      model[m] +
      model[m + 1] +
      model[m + 2] +
      (model[m + 4] + model[m + 5] + model[m + 6]) +
      (model[m + 8] + model[m + 9] + model[m + 10]) +
      (model[m + 12] + model[m + 13] + model[m + 14]);
  }
  let lengths = 1;
  for (let k = 0; k < owned.length; k++) {
    const j = owned[k];
    const v = 3 * j;
    const q = 4 * j;
    sum += t[v] + t[v + 1] + t[v + 2] + (sc[v] + sc[v + 1] + sc[v + 2]);
    lengths *= r[q] * r[q] + r[q + 1] * r[q + 1] + (r[q + 2] * r[q + 2] + r[q + 3] * r[q + 3]);
  }
  if (sum - sum === 0 && lengths > 0 && lengths < Number.POSITIVE_INFINITY) return true;
  return firstUnusable(reads, pose, model) === null;
}

/**
 * Throws `pose/not-finite` for the first joint of `reads` that is not usable. Call it where
 * {@link poseReadsUsable} is false: there is one.
 */
export function refusePose(reads: PoseReads, pose: Pose, model: Float64Array, who: string): never {
  const found = firstUnusable(reads, pose, model);
  const joint = found === null ? 'a joint' : `joint "${pose.skeleton.names[found.joint]}"`;
  throw new TendonError(
    'pose/not-finite',
    found?.local === true
      ? `${who}: ${joint} has a NaN or an infinity in its local transform, or a rotation of length 0`
      : `${who}: ${joint} has a NaN or an infinity in its model matrix (forward kinematics of a bad pose?)`,
  );
}

/** The rare path: the first joint of `reads` that is not usable, and where, or null for none. */
function firstUnusable(
  reads: PoseReads,
  pose: Pose,
  model: Float64Array,
): { joint: number; local: boolean } | null {
  for (let k = 0; k < reads.read.length; k++) {
    const j = reads.read[k];
    if (reads.owned.includes(j) && !localUsable(pose.translations, pose.rotations, pose.scales, j)) {
      return { joint: j, local: true };
    }
    if (!modelUsable(model, j)) return { joint: j, local: false };
  }
  return null;
}

/**
 * The joints from `joint` up to `ancestor`, both included, when `ancestor` is `joint` or above
 * it; none otherwise: a path a step rebuilds from local transforms.
 */
export function pathUp(skeleton: Skeleton, ancestor: number, joint: number): number[] {
  const path: number[] = [];
  for (let j = joint; j >= 0; j = skeleton.parents[j]) {
    path.push(j);
    if (j === ancestor) return path;
  }
  return [];
}
