/**
 * Aim (points-at) for a crowd: the same bones of many characters of one skeleton, solved in one
 * call, each as its own {@link AimIk} would solve it.
 *
 * @packageDocumentation
 */

import { optionsArg } from '../arguments.js';
import { adoptOrCarve, constructOver, takeAdopted } from '../crowd/shared-memory.js';
import { TendonError } from '../errors.js';
import {
  AIM_CLAMPED,
  AIM_DEGENERATE,
  AIM_HAS_UP,
  AIM_PREFER_UP,
  AIM_RESULT,
  AIM_ROLL_SKIPPED,
  AIM_ROTATION,
  AIM_TARGET,
  AIM_UP_DIRECTION,
  AIM_WORK_SIZE,
  aimLocal,
} from '../kernel/aim.js';
import { localToModel } from '../kernel/local-to-model.js';
import * as mat4 from '../kernel/mat4.js';
import { localUsable, modelUsable } from '../kernel/pose-numbers.js';
import * as quat from '../kernel/quat.js';
import { TWO_BONE_STATUS } from '../kernel/two-bone-batch.js';
import * as vec3 from '../kernel/vec3.js';
import { checkCharacterRange, checkCrowdPose } from '../pose/crowd-checks.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import { BufferCarver } from '../slab.js';
import {
  AimIk,
  type AimIkOptions,
  measureAim,
  sameRotation,
  T_CONJ,
  T_CORR,
  T_DIST,
  T_ERROR,
  T_LOCAL,
  T_PINV,
  T_TARGET,
  towardTarget,
} from './aim.js';
import type { CrowdPoseBuffers } from './two-bone-batch.js';

// The per-solve scratch every aim shares (as each AimIk has its own; nothing carries over).
const scratch = new Float64Array(48);

/** Options of `new AimBatch`. */
export interface AimBatchOptions {
  /**
   * Allocate the per-aim arrays (targets, ups, results, parents) on one `SharedArrayBuffer`
   * ({@link AimBatch.buffer}), so that workers can view them ({@link AimBatch.fromBuffer}) and each
   * solve a slice of the characters. Default `false`.
   */
  readonly shared?: boolean;
}

/** Lays a batch's per-aim arrays out on `buffer` (null: only counts the bytes). */
function carveAims(buffer: ArrayBuffer | SharedArrayBuffer | null, joints: number, n: number, bones: number) {
  const carve = new BufferCarver(buffer);
  const arrays = {
    targets: carve.f64(3 * n),
    ups: carve.f64(3 * n),
    errors: carve.f64(n),
    parents: carve.i32(joints),
    // The aimed joints, as the batch that made the buffer set them up: a view checks its own.
    boneJoints: carve.i32(bones),
    useUp: carve.u8(n),
    status: carve.u8(n),
  };
  return { arrays, bytes: carve.offset };
}

/**
 * Aim over the bones of a crowd: bone `b` of every character turned toward its target, each
 * exactly as its own {@link AimIk} would turn it (the same steps in the same order, to the bit),
 * without the per-call object, checks and status.
 *
 * Aim `c·B + b` is bone `b` of character `c` (B bones). Per frame, write each aim's model-space
 * target into {@link AimBatch.targets} (and, for a bone set up with an `up` axis, its up direction
 * into {@link AimBatch.ups} with {@link AimBatch.useUp} set), call {@link AimBatch.solve} with the
 * crowd's pose (a `Crowd`, or buffers of its layout), and read {@link AimBatch.status} (the
 * `TWO_BONE_STATUS` bits: `reached`, `clamped`, `degenerate`, `invalid`) and
 * {@link AimBatch.errors} (the distance from the target to the bone's aim ray). An aim whose
 * numbers are not finite, or an up direction for a bone without an up axis, is flagged `invalid`
 * and left untouched where `AimIk` would throw. No allocation per solve.
 */
export class AimBatch {
  /** The skeleton every character shares. */
  readonly skeleton: Skeleton;
  /** Number of characters. */
  readonly characters: number;
  /** Bones per character. */
  readonly bones: number;
  /** Number of aims: characters × bones. */
  readonly aimCount: number;
  /** The crowd's parent indices: the skeleton's, offset per character (roots −1). */
  readonly parents: Int32Array;
  /** Model-space targets, 3 per aim. */
  readonly targets: Float64Array;
  /** Model-space up directions, 3 per aim, read where {@link AimBatch.useUp} is 1. */
  readonly ups: Float64Array;
  /** 1 where an aim rolls its up axis toward its up direction this solve. */
  readonly useUp: Uint8Array;
  /** After a solve: each aim's distance from its target to the bone's aim ray (NaN when invalid). */
  readonly errors: Float64Array;
  /** After a solve: each aim's `TWO_BONE_STATUS` bits. */
  readonly status: Uint8Array;
  /**
   * The memory the per-aim arrays above live on: a `SharedArrayBuffer` for a batch made with
   * `shared: true` (or viewed with {@link AimBatch.fromBuffer} on one).
   */
  readonly buffer: ArrayBuffer | SharedArrayBuffer;
  /** The bones as given to the constructor (what a worker needs to view the batch). */
  readonly boneOptions: readonly AimIkOptions[];
  /** Per bone: its joint index in one character. */
  private readonly joints: Int32Array;
  /**
   * Per bone: its AimIk's work array (configuration, and the kernel's inputs and outputs) and
   * numbers (the weight), one each per bone as one AimIk per bone has them, shared by the
   * characters (nothing in them carries from one solve to the next), and its flags.
   */
  private readonly works: Float64Array[];
  private readonly weights: Float64Array[];
  private readonly flags: Int32Array;

  /**
   * @param skeleton - the skeleton every character shares.
   * @param bones - the aimed bones of one character, each set up as an {@link AimIk}; solved in
   *   this order.
   * @param characters - the number of characters.
   * @param options - `shared: true` for the per-aim arrays on a `SharedArrayBuffer`.
   * @throws {@link TendonError} `ik/invalid-option` (and whatever `AimIk` throws for a bone),
   *   `argument/invalid` for options that are not an object, `crowd/no-shared-memory` for `shared: true` where memory cannot be shared.
   */
  constructor(
    skeleton: Skeleton,
    bones: readonly AimIkOptions[],
    characters: number,
    options: AimBatchOptions = {},
  ) {
    const view = takeAdopted();
    const shared = optionsArg(options, 'new AimBatch').shared === true;
    if (!Number.isInteger(characters) || characters < 0) {
      throw new TendonError('ik/invalid-option', `AimBatch: characters ${characters} is not an integer ≥ 0`);
    }
    const J = skeleton.jointCount;
    const B = bones.length;
    this.skeleton = skeleton;
    this.characters = characters;
    this.bones = B;
    this.aimCount = characters * B;
    // A copy of its own: a worker started later must get the bones this batch was set up with.
    this.boneOptions = Object.freeze(structuredClone(bones.slice()));
    const { buffer, arrays } = adoptOrCarve(
      view,
      shared,
      'AimBatch',
      `a batch of ${this.aimCount} aims`,
      (b) => carveAims(b, J * characters, this.aimCount, B),
    );
    this.buffer = buffer;
    this.parents = arrays.parents;
    this.targets = arrays.targets;
    this.ups = arrays.ups;
    this.useUp = arrays.useUp;
    this.errors = arrays.errors;
    this.status = arrays.status;
    if (view === null) {
      for (let c = 0; c < characters; c++) {
        for (let j = 0; j < J; j++) {
          const p = skeleton.parents[j];
          this.parents[c * J + j] = p < 0 ? -1 : c * J + p;
        }
      }
    }
    this.joints = new Int32Array(B);
    this.works = [];
    this.weights = [];
    this.flags = new Int32Array(B);
    bones.forEach((options, b) => {
      const ik = new AimIk(skeleton, options);
      this.joints[b] = ik.joint;
      this.works.push(new Float64Array(AIM_WORK_SIZE));
      this.weights.push(new Float64Array(5));
      this.flags[b] = ik.writeState(this.works[b], 0, this.weights[b], 0);
    });
    if (view === null) arrays.boneJoints.set(this.joints);
    else if (arrays.boneJoints.some((j, b) => j !== this.joints[b])) {
      throw new TendonError(
        'argument/invalid',
        `AimBatch.fromBuffer: the bones (joints ${Array.from(this.joints).join(', ')}) are not the batch's (${Array.from(arrays.boneJoints).join(', ')})`,
      );
    }
  }

  /**
   * A batch viewing the memory of another ({@link AimBatch.buffer}, of a batch of the same
   * skeleton, bones and number of characters), such as a worker's view of a `shared: true` batch:
   * the same targets, ups and results, nothing written. The bones are set up as the constructor
   * sets them up (each worker keeps its own copy of their configuration; nothing in it changes
   * from one solve to the next); they must be the original's ({@link AimBatch.boneOptions}).
   *
   * @throws {@link TendonError} `pose/buffer-size` when the buffer is not a batch of that size (or
   *   not an `ArrayBuffer` or `SharedArrayBuffer` at all), `argument/invalid` for bones that aim other joints than the batch's (the buffer records
   *   them), and whatever the constructor throws for the bones.
   */
  static fromBuffer(
    skeleton: Skeleton,
    bones: readonly AimIkOptions[],
    characters: number,
    buffer: ArrayBuffer | SharedArrayBuffer,
  ): AimBatch {
    return constructOver(buffer, 'AimBatch', () => new AimBatch(skeleton, bones, characters));
  }

  /**
   * Turns every aim's bone toward its target (with `first` and `count`, only those of characters
   * `first … first + count − 1`), writing the crowd's local rotations and the model matrices of
   * each bone's subtree, {@link AimBatch.errors} and {@link AimBatch.status}.
   *
   * @returns the number of aims flagged invalid.
   * @throws {@link TendonError} `pose/buffer-size` when a buffer is not the crowd's size,
   *   `argument/invalid` for a `pose` that is not an object or a range outside the crowd (nothing
   *   written).
   */
  solve(pose: CrowdPoseBuffers, first = 0, count: number = this.characters - first): number {
    const J = this.skeleton.jointCount;
    checkCharacterRange(first, count, this.characters, 'AimBatch.solve');
    checkCrowdPose(pose, this.characters, J, 'AimBatch.solve');
    const B = this.bones;
    const subtreeEnds = this.skeleton.subtreeEnds;
    let invalid = 0;
    for (let c = first; c < first + count; c++) {
      for (let b = 0; b < B; b++) {
        const i = c * B + b;
        const joint = this.joints[b];
        const bits = aimOne(
          this.works[b],
          this.weights[b],
          pose,
          this.parents,
          c * J + joint,
          c * J + subtreeEnds[joint],
          this.flags[b],
          this.targets,
          this.ups,
          this.useUp[i] > 0,
          i,
        );
        if (bits < 0) {
          invalid++;
          this.errors[i] = Number.NaN;
          this.status[i] = TWO_BONE_STATUS.invalid;
        } else {
          this.errors[i] = scratch[T_ERROR];
          this.status[i] = bits;
        }
      }
    }
    return invalid;
  }
}

/**
 * One aim, as `AimIk.solve` and its `run` do it, on the module's state arrays: −1 where the solver
 * object would throw (nothing written), else the status bits. The error is left in
 * `scratch[T_ERROR]`.
 */
function aimOne(
  w: Float64Array,
  numbers: Float64Array,
  pose: CrowdPoseBuffers,
  parents: Int32Array,
  j: number,
  subtreeEnd: number,
  configured: number,
  targets: Float64Array,
  ups: Float64Array,
  hasUp: boolean,
  i: number,
): number {
  const bits = aimPose(w, numbers, pose, parents, j, j, subtreeEnd, configured, targets, ups, hasUp, i);
  if (bits < 0) return -1;
  return statusBits(w, numbers, pose, parents[j], j, (bits & AIM_APPLIED) !== 0, bits & ~AIM_APPLIED);
}

/** A bit of {@link aimPose}'s result beside the kernel's: the rotation was written. */
export const AIM_APPLIED = 256;

/**
 * The pose part of an aim, as `AimIk.run` does it, without the status: the rotation of joint `j`
 * turned toward target `i` of `targets` (and its up direction, when `hasUp`), then the model
 * matrices of joints `fkFrom … fkEnd − 1` recomputed (`AimIk` recomputes the bone's subtree; a
 * caller that turns several bones of one chain may recompute less between them, and the rest
 * once after). Returns −1 where the solver object would throw (nothing written), else the
 * kernel's bits, with {@link AIM_APPLIED} where the rotation was written. Allocates nothing.
 *
 * @internal
 */
export function aimPose(
  w: Float64Array,
  numbers: Float64Array,
  pose: CrowdPoseBuffers,
  parents: Int32Array,
  j: number,
  fkFrom: number,
  fkEnd: number,
  configured: number,
  targets: Float64Array,
  ups: Float64Array,
  hasUp: boolean,
  i: number,
): number {
  const s = scratch;
  const to = 3 * i;
  s[T_TARGET] = targets[to];
  s[T_TARGET + 1] = targets[to + 1];
  s[T_TARGET + 2] = targets[to + 2];
  // AimIk.solve's checks: a finite target; an up direction only with an up axis, finite.
  if (
    !(Number.isFinite(s[T_TARGET]) && Number.isFinite(s[T_TARGET + 1]) && Number.isFinite(s[T_TARGET + 2]))
  ) {
    return -1;
  }
  if (hasUp) {
    if ((configured & AIM_PREFER_UP) === 0) return -1;
    if (!(Number.isFinite(ups[to]) && Number.isFinite(ups[to + 1]) && Number.isFinite(ups[to + 2])))
      return -1;
  }
  const { translations, rotations, scales, model } = pose;
  const parent = parents[j];
  let flags = configured;
  let bits = 0;
  let invertible = true;
  let applied = false;
  if (parent < 0) mat4.identity(s, T_PINV);
  else invertible = mat4.invertAffine(s, T_PINV, model, 16 * parent);
  const sc = scales[3 * j] + scales[3 * j + 1] + scales[3 * j + 2];
  if (!quat.normalizeRotation(w, AIM_ROTATION, rotations, 4 * j) || !(sc - sc === 0)) {
    if (!localUsable(translations, rotations, scales, j)) return -1;
  }
  if (invertible) {
    quat.conjugate(s, T_CONJ, w, AIM_ROTATION);
    vec3.transformPoint(s, T_LOCAL, s, T_PINV, s, T_TARGET);
    towardTarget(s, translations, 3 * j);
    quat.rotateVec3(w, AIM_TARGET, s, T_CONJ, s, T_LOCAL);
    if (!hasUp) {
      flags &= ~AIM_HAS_UP;
    } else {
      s[T_LOCAL] = ups[to];
      s[T_LOCAL + 1] = ups[to + 1];
      s[T_LOCAL + 2] = ups[to + 2];
      vec3.transformDirection(s, T_LOCAL, s, T_PINV, s, T_LOCAL);
      quat.rotateVec3(w, AIM_UP_DIRECTION, s, T_CONJ, s, T_LOCAL);
    }
    bits = aimLocal(w, flags);
    if (numbers[0] > 0 && !sameRotation(w)) {
      apply(w, numbers, pose, parents, j, fkFrom, fkEnd);
      applied = true;
    }
  } else {
    bits = AIM_DEGENERATE;
  }
  if ((bits & AIM_DEGENERATE) !== 0 && !applied) {
    // Where AimIk looks for a NaN or an infinity in the parent's matrix or the joint's local.
    if (!localUsable(translations, rotations, scales, j) || !modelUsable(model, parent)) return -1;
  }
  return applied ? bits | AIM_APPLIED : bits;
}

/** The status as `AimIk.run` sets it, from the kernel's bits and the measured error. */
function statusBits(
  w: Float64Array,
  numbers: Float64Array,
  pose: CrowdPoseBuffers,
  parent: number,
  j: number,
  applied: boolean,
  bits: number,
): number {
  const degenerate = (bits & AIM_DEGENERATE) !== 0;
  const aimDegenerate = degenerate && (bits & AIM_ROLL_SKIPPED) === 0;
  measureAim(scratch, w, pose, pose.model, parent, j, applied);
  const error = scratch[T_ERROR];
  const within = error <= 1e-9 * scratch[T_DIST] && error < Number.POSITIVE_INFINITY;
  const clamped = (bits & AIM_CLAMPED) !== 0 || (numbers[0] < 1 && !within);
  const reached = within && !aimDegenerate && !clamped;
  return (
    (reached ? TWO_BONE_STATUS.reached : 0) |
    (clamped ? TWO_BONE_STATUS.clamped : 0) |
    (degenerate ? TWO_BONE_STATUS.degenerate : 0)
  );
}

/** `AimIk.apply`: q · slerp(I, C, weight) (or the full result at weight 1), then FK of `fkFrom … fkEnd − 1`. */
function apply(
  w: Float64Array,
  numbers: Float64Array,
  pose: CrowdPoseBuffers,
  parents: Int32Array,
  j: number,
  fkFrom: number,
  fkEnd: number,
): void {
  const weight = numbers[0];
  const s = scratch;
  if (weight === 1) {
    quat.normalize(pose.rotations, 4 * j, w, AIM_RESULT);
  } else {
    quat.multiply(s, T_CORR, s, T_CONJ, w, AIM_RESULT);
    quat.slerpFrom(s, T_CORR, numbers, 1, s, T_CORR, numbers, 0);
    quat.multiply(s, T_CORR, w, AIM_ROTATION, s, T_CORR);
    quat.normalize(pose.rotations, 4 * j, s, T_CORR);
  }
  localToModel(pose.model, parents, pose.translations, pose.rotations, pose.scales, fkFrom, fkEnd);
}
