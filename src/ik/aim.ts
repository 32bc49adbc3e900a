/**
 * The points-at (aim) solver: turn one bone so that an axis of it points at a target.
 *
 * @packageDocumentation
 */
import { describeArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import {
  AIM_CLAMPED,
  AIM_DEGENERATE,
  AIM_FORWARD,
  AIM_HAS_CONE,
  AIM_HAS_OFFSET,
  AIM_HAS_TWIST,
  AIM_HAS_UP,
  AIM_LIMIT,
  AIM_OFFSET,
  AIM_PREFER_UP,
  AIM_REST,
  AIM_RESULT,
  AIM_ROLL_SKIPPED,
  AIM_ROTATION,
  AIM_TARGET,
  AIM_UP_AXIS,
  AIM_UP_DIRECTION,
  AIM_WORK_SIZE,
  aimLocal,
} from '../kernel/aim.js';
import { localToModel } from '../kernel/local-to-model.js';
import * as mat4 from '../kernel/mat4.js';
import * as quat from '../kernel/quat.js';
import * as vec3 from '../kernel/vec3.js';
import type { Pose } from '../pose/pose.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import { solverSlab as slab } from '../slab.js';
import {
  checkFinite,
  checkOptions,
  checkPose,
  checkPoseNumbers,
  type JointRef,
  resolveJoint,
} from './chain.js';
import { IkStatus } from './ik-status.js';
import { writeCone, writeTwistRange } from './joint-limits.js';

const SOLVER = 'AimIk';

/** The keys of {@link AimIkOptions} (any other is refused: a misspelling was ignored). */
export const AIM_OPTIONS: readonly string[] = [
  'joint',
  'forward',
  'up',
  'offset',
  'coneAngle',
  'twistMin',
  'twistMax',
  'weight',
];

/**
 * How an {@link AimIk} turns its bone. Vectors are in the joint's *rotation frame*: the joint's
 * local frame before its own scale, where a child at local translation `p` sits at `s ∘ p`
 * (`s` the joint's scale). Angles are radians, converted to cosines once, when the solver is built.
 */
export interface AimIkOptions {
  /** The bone that turns (index or name). */
  readonly joint: JointRef;
  /**
   * The axis that should point at the target. Default: toward the joint's first child (lowest
   * index) at its rest translation, times the joint's rest scale. Any length but zero.
   */
  readonly forward?: readonly [number, number, number];
  /**
   * A local axis to roll toward the up (pole) direction given to each solve; must not be parallel
   * to `forward`. Without it, an up direction passed to a solve is an error.
   */
  readonly up?: readonly [number, number, number];
  /**
   * The point the aim starts from (the eyes in a head): the ray from `offset` along `forward` is made
   * to pass through the target. Exact whenever some turn of the bone does that, which is always the
   * case when the target is farther from the joint than `|offset|`; otherwise the ray passes as
   * close to the target as it can and the status says `degenerate`. Rotation frame, like `forward`
   * (a child's translation times the joint's scale). Default: the origin.
   */
  readonly offset?: readonly [number, number, number];
  /**
   * Largest angle between the rest forward axis and the solved one (a swing limit), in `[0, π]`.
   * Default π (no limit).
   */
  readonly coneAngle?: number;
  /** Least twist about the forward axis relative to the rest rotation, in `[−π, π]`. Default −π. */
  readonly twistMin?: number;
  /** Greatest twist about the forward axis relative to the rest rotation, in `[−π, π]`. Default π. */
  readonly twistMax?: number;
  /** Blend weight in `[0, 1]`: 0 leaves the pose untouched, 1 applies the full turn. Default 1. */
  readonly weight?: number;
}

/**
 * Turns one bone to point an axis at a target (docs/methods.md §3), in the bone's own frame, so
 * that limits apply in the bone's terms: a swing cone about the rest forward axis and a twist range
 * about it. Optionally rolls a second axis toward an up (pole) direction.
 *
 * Only `+ − × ÷` and `√` per solve: bit-identical results on every engine. No allocation per solve.
 * A solve throws only on invalid input (leaving the pose untouched); geometry never throws.
 *
 * ```ts
 * const head = new AimIk(skeleton, { joint: 'head', forward: [0, 0, 1], up: [0, 1, 0], coneAngle: 1.2 });
 * head.solve(pose, model, targetModel, upModel); // pose and model are updated for the head's subtree
 * ```
 */
export class AimIk {
  /** The skeleton the solver was built for. */
  readonly skeleton: Skeleton;
  /** Index of the bone that turns. */
  readonly joint: number;
  /** The outcome of the last solve (the same object every time). */
  readonly status = new IkStatus();
  // Configuration, inputs, outputs and scratch of the kernel (layout in kernel/aim.ts).
  private readonly work = slab.f64(AIM_WORK_SIZE);
  // Per-solve scratch: the parent's inverse, the target, the current rotation, a correction.
  private readonly scratch = slab.f64(48);
  // weight and the identity quaternion (slerp's start), read by typed-array kernels.
  private readonly numbers = slab.f64(5);
  private readonly flags: number;
  /** The joint whose local transform a solve reads: the aimed one. */
  private readonly locals: Int32Array;
  /** The joint whose model matrix a solve reads: its parent (−1 for none). */
  private readonly models: Int32Array;

  /**
   * Resolves the joint, validates the options and converts the angles (once).
   *
   * @throws {@link TendonError} `ik/invalid-joint` for a joint not in the skeleton,
   *   `ik/invalid-option` for a zero or non-finite axis, no forward axis (no option and no child
   *   with a non-zero rest translation), an up axis parallel to forward, an angle out of range or
   *   `twistMin > twistMax`, or a weight outside `[0, 1]`.
   */
  constructor(skeleton: Skeleton, options: AimIkOptions) {
    checkOptions(options, SOLVER, AIM_OPTIONS);
    this.skeleton = skeleton;
    const j = resolveJoint(skeleton, options.joint, SOLVER, 'aimed');
    this.joint = j;
    this.locals = Int32Array.of(j);
    this.models = Int32Array.of(skeleton.parents[j]);
    const w = this.work;
    readForward(w, skeleton, j, options.forward);
    const flags =
      readUp(w, options.up) |
      readOffset(w, options.offset) |
      readCone(w, options.coneAngle) |
      readTwist(w, options.twistMin, options.twistMax);
    quat.copy(w, AIM_REST, skeleton.restRotations, 4 * j);
    this.flags = flags;
    quat.identity(this.numbers, 1);
    this.weight = options.weight ?? 1;
  }

  /**
   * Copies this bone's kernel state (its work array's configuration and its weight numbers) into
   * `work` at `wo` (`AIM_WORK_SIZE` numbers) and `numbers` at `no` (5), and returns its flags:
   * how a bone set up here is solved in a batch ({@link AimBatch}).
   *
   * @internal
   */
  writeState(work: Float64Array, wo: number, numbers: Float64Array, no: number): number {
    work.set(this.work, wo);
    numbers.set(this.numbers, no);
    return this.flags;
  }

  /**
   * Blend weight in `[0, 1]`: the solved correction is slerped from the identity by it (0: the
   * pose is left bit-for-bit untouched).
   *
   * @throws {@link TendonError} `ik/invalid-option` when set outside `[0, 1]` or to NaN.
   */
  get weight(): number {
    return this.numbers[0];
  }
  /** Sets the weight, in `[0, 1]`. */
  set weight(weight: number) {
    // In an array, not a number field: see docs/architecture.md, "Numbers in typed arrays".
    // (A string compares as its number: "0.5" was taken.)
    if (typeof weight !== 'number' || !(weight >= 0 && weight <= 1)) {
      throw new TendonError(
        'ik/invalid-option',
        `${SOLVER}: weight ${describeArg(weight)} is not a number in [0, 1]`,
      );
    }
    this.numbers[0] = weight;
  }

  /**
   * Turns the bone so that its forward ray passes through `targetModel`, then rolls its up axis
   * toward `upModel` when given, within the limits, scaled by the weight; then recomputes the
   * model matrices of the bone's subtree in `model`.
   *
   * `model` must be up to date for the bone's parent (it is read, not recomputed). The correction
   * applies on the right of the local rotation (`q ← q · R`), which is then renormalized.
   *
   * @param pose - the pose to change (only the bone's rotation changes).
   * @param model - its model matrices (16 per joint); the bone's subtree is rewritten.
   * @param targetModel - the point to aim at, 3 numbers, model space.
   * @param upModel - the up (pole) direction, 3 numbers, model space; needs the `up` option.
   * @returns {@link AimIk.status}: `reached` when the ray meets the target to 1e-9 (relative to
   *   its distance), `clamped` when a limit or the weight held the bone back, `degenerate` when the
   *   target is at the aiming point's origin or inside the offset's sphere, or the up direction is
   *   parallel to the target direction (no roll); `error` is the distance from the target to the
   *   aim ray, model space.
   * @throws {@link TendonError} `ik/invalid-target` for a target or up direction that is not
   *   exactly 3 finite numbers, `ik/invalid-option` for an up direction without an `up` axis,
   *   `pose/not-finite` for a NaN, an infinity or a zero rotation in the bone's local transform or
   *   its parent's model matrix, `pose/skeleton-mismatch` or `pose/buffer-size`; the pose and model
   *   are then untouched.
   */
  solve(pose: Pose, model: Float64Array, targetModel: Float64Array, upModel?: Float64Array | null): IkStatus {
    checkPose(this.skeleton, pose, model, SOLVER);
    checkFinite(targetModel, 3, SOLVER, 'target');
    this.checkUp(upModel);
    const s = this.scratch;
    s[T_TARGET] = targetModel[0];
    s[T_TARGET + 1] = targetModel[1];
    s[T_TARGET + 2] = targetModel[2];
    return this.run(pose, model, upModel ?? null);
  }

  /**
   * {@link AimIk.solve} toward another joint's current model-space position, read from `model`
   * (e.g. a calf toward the other leg's ankle; the two branches' shared ancestors cancel out).
   *
   * @throws {@link TendonError} `ik/invalid-joint` when `targetJoint` is not a joint index, or is
   *   the aimed bone or one of its descendants (it would move with the bone); otherwise as
   *   {@link AimIk.solve}.
   */
  solveTowardJoint(
    pose: Pose,
    model: Float64Array,
    targetJoint: number,
    upModel?: Float64Array | null,
  ): IkStatus {
    checkPose(this.skeleton, pose, model, SOLVER);
    const k = resolveJoint(this.skeleton, targetJoint, SOLVER, 'target');
    if (this.skeleton.isAncestor(this.joint, k)) {
      throw new TendonError(
        'ik/invalid-joint',
        `${SOLVER}: target joint "${this.skeleton.names[k]}" moves with "${this.skeleton.names[this.joint]}"`,
      );
    }
    const s = this.scratch;
    s[T_TARGET] = model[16 * k + 12];
    s[T_TARGET + 1] = model[16 * k + 13];
    s[T_TARGET + 2] = model[16 * k + 14];
    if (
      !Number.isFinite(s[T_TARGET]) ||
      !Number.isFinite(s[T_TARGET + 1]) ||
      !Number.isFinite(s[T_TARGET + 2])
    ) {
      throw new TendonError(
        'ik/invalid-target',
        `${SOLVER}: the model position of target joint "${this.skeleton.names[k]}" is not finite`,
      );
    }
    this.checkUp(upModel);
    return this.run(pose, model, upModel ?? null);
  }

  private checkUp(upModel: Float64Array | null | undefined): void {
    if (upModel === undefined || upModel === null) return;
    if ((this.flags & AIM_PREFER_UP) === 0) {
      throw new TendonError(
        'ik/invalid-option',
        `${SOLVER}: an up direction was given but the solver has no up axis (option "up")`,
      );
    }
    checkFinite(upModel, 3, SOLVER, 'up direction');
  }

  /** The solve after validation; the target is in scratch. */
  private run(pose: Pose, model: Float64Array, upModel: Float64Array | null): IkStatus {
    const status = this.status;
    status.reset();
    status.iterations = 1;
    const skeleton = this.skeleton;
    const j = this.joint;
    const parent = skeleton.parents[j];
    const s = this.scratch;
    const w = this.work;
    const rotations = pose.rotations;
    let flags = this.flags;
    let bits = 0;
    // P⁻¹ (identity for a root), general: parents may be scaled, non-uniformly, or mirrored.
    let invertible = true;
    let applied = false;
    if (parent < 0) mat4.identity(s, T_PINV);
    else invertible = mat4.invertAffine(s, T_PINV, model, 16 * parent);
    // The joint's rotation (a NaN, an infinity or zero would be normalized away unseen) and scale
    // (read by the forward kinematics after the write), checked here; a non-finite translation or
    // parent matrix leaves the solve degenerate, where they are looked for below.
    const sc = pose.scales[3 * j] + pose.scales[3 * j + 1] + pose.scales[3 * j + 2];
    if (!quat.normalizeRotation(w, AIM_ROTATION, rotations, 4 * j) || !(sc - sc === 0)) {
      checkPoseNumbers(pose, model, this.locals, NONE, SOLVER);
    }
    if (invertible) {
      // Current rotation, unit (the pose may have drifted), and the target in its frame:
      // d = conj(q) · (P⁻¹ t − t_j).
      quat.conjugate(s, T_CONJ, w, AIM_ROTATION);
      vec3.transformPoint(s, T_LOCAL, s, T_PINV, s, T_TARGET);
      towardTarget(s, pose.translations, 3 * j);
      quat.rotateVec3(w, AIM_TARGET, s, T_CONJ, s, T_LOCAL);
      if (upModel === null) {
        flags &= ~AIM_HAS_UP;
      } else {
        // Directions go through the linear part of P⁻¹ only.
        s[T_LOCAL] = upModel[0];
        s[T_LOCAL + 1] = upModel[1];
        s[T_LOCAL + 2] = upModel[2];
        vec3.transformDirection(s, T_LOCAL, s, T_PINV, s, T_LOCAL);
        quat.rotateVec3(w, AIM_UP_DIRECTION, s, T_CONJ, s, T_LOCAL);
      }
      bits = aimLocal(w, flags);
      // Weight 0, or nothing to do (the kernel kept the rotation): the pose stays bit for bit.
      const weight = this.numbers[0];
      if (weight > 0 && !sameRotation(w)) {
        this.apply(pose, model);
        applied = true;
      }
    } else {
      bits = AIM_DEGENERATE;
    }
    if ((bits & AIM_DEGENERATE) !== 0 && !applied) {
      // A NaN or an infinity in the parent's model matrix or the joint's translation gives no
      // inverse or no target direction: looked for only here, off the common path.
      checkPoseNumbers(pose, model, this.locals, this.models, SOLVER);
    }
    status.degenerate = (bits & AIM_DEGENERATE) !== 0;
    // A skipped roll leaves the aim itself exact: the target may still count as reached.
    const aimDegenerate = status.degenerate && (bits & AIM_ROLL_SKIPPED) === 0;
    this.measure(pose, model, parent, applied);
    const error = s[T_ERROR];
    status.errorFrom(s, T_ERROR);
    const within = error <= 1e-9 * s[T_DIST] && error < Number.POSITIVE_INFINITY;
    status.clamped = (bits & AIM_CLAMPED) !== 0 || (this.numbers[0] < 1 && !within);
    status.reached = within && !aimDegenerate && !status.clamped;
    return status;
  }

  /** Writes q · slerp(I, C, weight) (or the full result at weight 1) and updates the subtree. */
  private apply(pose: Pose, model: Float64Array): void {
    // The weight is read here, not passed: see docs/architecture.md, "Numbers in typed arrays".
    const weight = this.numbers[0];
    const j = this.joint;
    const w = this.work;
    const s = this.scratch;
    const skeleton = this.skeleton;
    if (weight === 1) {
      quat.normalize(pose.rotations, 4 * j, w, AIM_RESULT);
    } else {
      // C = conj(q) · q'; q ← q · slerp(I, C, weight).
      quat.multiply(s, T_CORR, s, T_CONJ, w, AIM_RESULT);
      quat.slerpFrom(s, T_CORR, this.numbers, 1, s, T_CORR, this.numbers, 0);
      quat.multiply(s, T_CORR, w, AIM_ROTATION, s, T_CORR);
      quat.normalize(pose.rotations, 4 * j, s, T_CORR);
    }
    localToModel(
      model,
      skeleton.parents,
      pose.translations,
      pose.rotations,
      pose.scales,
      j,
      skeleton.subtreeEnds[j],
    );
  }

  /**
   * Distance from the target to the bone's aim ray in model space, and from the ray's origin (for
   * the relative `reached` test), into scratch (docs/architecture.md, "Numbers in typed arrays"). Reads the pose as
   * it now is: from the bone's model matrix when this solve has just written it (`fresh`), else
   * from its parent's and its local transform.
   */
  private measure(pose: Pose, model: Float64Array, parent: number, fresh: boolean): void {
    measureAim(this.scratch, this.work, pose, model, parent, this.joint, fresh);
  }
}

/**
 * {@link AimIk}'s measure, over any pose buffers (an AimIk's pose, or a crowd's): the distance from
 * the target to the bone's aim ray in model space, and from the ray's origin, into the scratch `s`
 * (`T_ERROR`, `T_DIST`). Reads the pose as it now is: from the bone's model matrix when the solve
 * has just written it (`fresh`), else from its parent's and its local transform.
 *
 * @internal
 */
export function measureAim(
  s: Float64Array,
  w: Float64Array,
  pose: {
    readonly translations: Float64Array;
    readonly rotations: Float64Array;
    readonly scales: Float64Array;
  },
  model: Float64Array,
  parent: number,
  j: number,
  fresh: boolean,
): void {
  const so = 3 * j;
  const sx = pose.scales[so];
  const sy = pose.scales[so + 1];
  const sz = pose.scales[so + 2];
  if (fresh && moderate(sx) && moderate(sy) && moderate(sz)) {
    // M_j = P · (t_j, q, S): M_j · (o / S) = P · (t_j + q · o), and likewise for the forward
    // direction, so the matrix FK just wrote serves without redoing the quaternion work (not for
    // scales whose reciprocal could overflow, or whose products could underflow).
    s[T_LOCAL] = w[AIM_OFFSET] / sx;
    s[T_LOCAL + 1] = w[AIM_OFFSET + 1] / sy;
    s[T_LOCAL + 2] = w[AIM_OFFSET + 2] / sz;
    vec3.transformPoint(s, T_ORIGIN, model, 16 * j, s, T_LOCAL);
    s[T_LOCAL] = w[AIM_FORWARD] / sx;
    s[T_LOCAL + 1] = w[AIM_FORWARD + 1] / sy;
    s[T_LOCAL + 2] = w[AIM_FORWARD + 2] / sz;
    vec3.transformDirection(s, T_DIR, model, 16 * j, s, T_LOCAL);
    rayDistance(s);
    return;
  }
  // P is read where it is; a root's is the identity, kept in scratch.
  let pm = model;
  let po = 16 * parent;
  if (parent < 0) {
    mat4.identity(s, T_P);
    pm = s;
    po = T_P;
  }
  quat.normalize(s, T_CORR, pose.rotations, 4 * j);
  // Origin: P · (t_j + q · o); direction: P · (q · f), linear part.
  quat.rotateVec3(s, T_LOCAL, s, T_CORR, w, AIM_OFFSET);
  s[T_LOCAL] += pose.translations[3 * j];
  s[T_LOCAL + 1] += pose.translations[3 * j + 1];
  s[T_LOCAL + 2] += pose.translations[3 * j + 2];
  vec3.transformPoint(s, T_ORIGIN, pm, po, s, T_LOCAL);
  quat.rotateVec3(s, T_LOCAL, s, T_CORR, w, AIM_FORWARD);
  vec3.transformDirection(s, T_DIR, pm, po, s, T_LOCAL);
  rayDistance(s);
}

/**
 * s[T_LOCAL] = the target (there, in the parent's frame) relative to the joint's translation
 * `translations[to…]`: zero when the target is the joint's origin up to rounding. P⁻¹ · (the
 * joint's model position) misses its translation by rounding in the parent's model matrix and its
 * inverse, about 1e-16 of their size: aimed along, that noise would turn the bone at random.
 * Compared through sums of absolute values (squares would underflow for tiny rigs).
 *
 * @internal
 */
export function towardTarget(s: Float64Array, translations: Float64Array, to: number): void {
  const px = s[T_LOCAL];
  const py = s[T_LOCAL + 1];
  const pz = s[T_LOCAL + 2];
  const tx = translations[to];
  const ty = translations[to + 1];
  const tz = translations[to + 2];
  const dx = px - tx;
  const dy = py - ty;
  const dz = pz - tz;
  const gap = Math.abs(dx) + Math.abs(dy) + Math.abs(dz);
  const size = Math.abs(px) + Math.abs(py) + Math.abs(pz) + (Math.abs(tx) + Math.abs(ty) + Math.abs(tz));
  const at = gap <= AT_JOINT * size;
  s[T_LOCAL] = at ? 0 : dx;
  s[T_LOCAL + 1] = at ? 0 : dy;
  s[T_LOCAL + 2] = at ? 0 : dz;
}

/** No joints: the model matrices {@link checkPoseNumbers} need not check up front. */
const NONE = new Int32Array(0);

/**
 * A target within this share of the coordinates' size from the joint's origin is at it (see
 * towardTarget): 1e-12, four orders above the rounding.
 */
const AT_JOINT = 1e-12;

/**
 * s[T_DIST], s[T_ERROR] = the distances from the ray (origin s[T_ORIGIN], direction s[T_DIR]) to
 * the target s[T_TARGET]: from its origin, and from the ray itself.
 *
 * @internal
 */
export function rayDistance(s: Float64Array): void {
  // Scaled by the largest component so that far targets neither overflow nor lose the answer.
  let vx = s[T_TARGET] - s[T_ORIGIN];
  let vy = s[T_TARGET + 1] - s[T_ORIGIN + 1];
  let vz = s[T_TARGET + 2] - s[T_ORIGIN + 2];
  let m = vx < 0 ? -vx : vx;
  if ((vy < 0 ? -vy : vy) > m) m = vy < 0 ? -vy : vy;
  if ((vz < 0 ? -vz : vz) > m) m = vz < 0 ? -vz : vz;
  if (!(m > 0) || m === Number.POSITIVE_INFINITY) {
    // At the ray's origin (0), or too far to measure in doubles (∞).
    s[T_DIST] = m > 0 ? m : 0;
    s[T_ERROR] = s[T_DIST];
    return;
  }
  // Only where squaring would under- or overflow; elsewhere the unscaled numbers are exact.
  if (!(m > 1e-150 && m < 1e150)) {
    vx /= m;
    vy /= m;
    vz /= m;
  } else {
    m = 1;
  }
  s[T_DIST] = m * Math.sqrt(vx * vx + vy * vy + vz * vz);
  const dx = s[T_DIR];
  const dy = s[T_DIR + 1];
  const dz = s[T_DIR + 2];
  const dd = dx * dx + dy * dy + dz * dz;
  s[T_ERROR] = s[T_DIST];
  if (!(dd > 0) || dd === Number.POSITIVE_INFINITY) return;
  const along = (vx * dx + vy * dy + vz * dz) / dd;
  if (!(along > 0)) return;
  const px = vx - along * dx;
  const py = vy - along * dy;
  const pz = vz - along * dz;
  s[T_ERROR] = m * Math.sqrt(px * px + py * py + pz * pz);
}

// Scratch slots of AimIk.
/** @internal */
export const T_PINV = 0; // 16: P⁻¹
/** @internal */
export const T_P = 16; // 16: P (measure)
/** @internal */
export const T_TARGET = 32; // 3: target, model space
/** @internal */
export const T_LOCAL = 35; // 3: temporary vector
/** @internal */
export const T_CONJ = 38; // 4: conj(q)
/** @internal */
export const T_CORR = 42; // 4: correction / temporary quaternion
// The measure's slots reuse P⁻¹'s, which it no longer needs.
/** @internal */
export const T_ORIGIN = 0; // 3
/** @internal */
export const T_DIR = 3; // 3
/** @internal */
export const T_DIST = 6; // 1: distance from the ray's origin to the target
/** @internal */
export const T_ERROR = 7; // 1: distance from the ray to the target

/**
 * Whether a scale's magnitude lies in [1e-100, 1e100], so that dividing by it is safe.
 *
 * @internal
 */
export function moderate(scale: number): boolean {
  const m = scale < 0 ? -scale : scale;
  return m >= 1e-100 && m <= 1e100;
}

/**
 * `true` when the kernel left the rotation as it was (an early degenerate return).
 *
 * @internal
 */
export function sameRotation(w: Float64Array): boolean {
  return (
    w[AIM_RESULT] === w[AIM_ROTATION] &&
    w[AIM_RESULT + 1] === w[AIM_ROTATION + 1] &&
    w[AIM_RESULT + 2] === w[AIM_ROTATION + 2] &&
    w[AIM_RESULT + 3] === w[AIM_ROTATION + 3]
  );
}

/** The forward axis into `w`: given, or toward the first child's rest translation scaled by the rest scale. */
function readForward(w: Float64Array, skeleton: Skeleton, j: number, forward: AimIkOptions['forward']): void {
  if (forward !== undefined) {
    readAxis(w, AIM_FORWARD, forward, 'forward');
    return;
  }
  let child = -1;
  for (let k = j + 1; k < skeleton.jointCount; k++) {
    if (skeleton.parents[k] === j) {
      child = k;
      break;
    }
  }
  if (child < 0) {
    throw new TendonError(
      'ik/invalid-option',
      `${SOLVER}: joint "${skeleton.names[j]}" has no child; give a forward axis`,
    );
  }
  const t = skeleton.restTranslations;
  const s = skeleton.restScales;
  readAxis(
    w,
    AIM_FORWARD,
    [t[3 * child] * s[3 * j], t[3 * child + 1] * s[3 * j + 1], t[3 * child + 2] * s[3 * j + 2]],
    `forward (toward child "${skeleton.names[child]}")`,
  );
}

/** The up axis into `w` (after the forward axis), checked not parallel to it; its flags. */
function readUp(w: Float64Array, up: AimIkOptions['up']): number {
  if (up === undefined) return 0;
  readAxis(w, AIM_UP_AXIS, up, 'up');
  const fx = w[AIM_FORWARD];
  const fy = w[AIM_FORWARD + 1];
  const fz = w[AIM_FORWARD + 2];
  const ux = w[AIM_UP_AXIS];
  const uy = w[AIM_UP_AXIS + 1];
  const uz = w[AIM_UP_AXIS + 2];
  const cx = fy * uz - fz * uy;
  const cy = fz * ux - fx * uz;
  const cz = fx * uy - fy * ux;
  // sin of the angle between the unit axes below 1e-6: too close to parallel to define a roll.
  if (cx * cx + cy * cy + cz * cz < 1e-12) {
    throw new TendonError('ik/invalid-option', `${SOLVER}: the up axis is parallel to the forward axis`);
  }
  return AIM_HAS_UP | AIM_PREFER_UP;
}

/** The offset into `w`; its flag. */
function readOffset(w: Float64Array, o: AimIkOptions['offset']): number {
  if (o === undefined) return 0;
  if (o.length !== 3 || !Number.isFinite(o[0]) || !Number.isFinite(o[1]) || !Number.isFinite(o[2])) {
    throw new TendonError('ik/invalid-option', `${SOLVER}: offset must be three finite numbers`);
  }
  w[AIM_OFFSET] = o[0];
  w[AIM_OFFSET + 1] = o[1];
  w[AIM_OFFSET + 2] = o[2];
  return o[0] !== 0 || o[1] !== 0 || o[2] !== 0 ? AIM_HAS_OFFSET : 0;
}

/** The cone into `w`'s limit record; its flag. */
function readCone(w: Float64Array, coneAngle: number | undefined): number {
  const cone = coneAngle ?? Math.PI;
  if (!Number.isFinite(cone) || cone < 0 || cone > Math.PI) {
    throw new TendonError('ik/invalid-option', `${SOLVER}: coneAngle ${cone} is not in [0, π]`);
  }
  // One joint-limit record about the forward axis, as the chain solvers' (a full cone if unset).
  writeCone(w, AIM_LIMIT, cone);
  return cone < Math.PI ? AIM_HAS_CONE : 0;
}

/** The twist range into `w`'s limit record; its flag. */
function readTwist(w: Float64Array, min: number | undefined, max: number | undefined): number {
  const twistMin = min ?? -Math.PI;
  const twistMax = max ?? Math.PI;
  for (const [name, value] of [
    ['twistMin', twistMin],
    ['twistMax', twistMax],
  ] as const) {
    if (!Number.isFinite(value) || value < -Math.PI || value > Math.PI) {
      throw new TendonError('ik/invalid-option', `${SOLVER}: ${name} ${value} is not in [−π, π]`);
    }
  }
  if (twistMin > twistMax) {
    throw new TendonError(
      'ik/invalid-option',
      `${SOLVER}: twistMin ${twistMin} is greater than twistMax ${twistMax}`,
    );
  }
  writeTwistRange(w, AIM_LIMIT, twistMin, twistMax);
  return twistMin > -Math.PI || twistMax < Math.PI ? AIM_HAS_TWIST : 0;
}

/** Reads a non-zero finite axis option, normalized, into `w[o…]`. */
function readAxis(w: Float64Array, o: number, axis: ArrayLike<number>, name: string): void {
  if (
    axis.length !== 3 ||
    !Number.isFinite(axis[0]) ||
    !Number.isFinite(axis[1]) ||
    !Number.isFinite(axis[2])
  ) {
    throw new TendonError('ik/invalid-option', `${SOLVER}: ${name} must be three finite numbers`);
  }
  if (!vec3.normalizeScaled(w, o, [axis[0], axis[1], axis[2]], 0)) {
    throw new TendonError('ik/invalid-option', `${SOLVER}: the ${name} axis is zero`);
  }
}
