/**
 * The two-bone IK solver object: set up once per limb, solve every frame.
 *
 * @packageDocumentation
 */
import { describeArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import { invert } from '../kernel/mat4.js';
import {
  TWO_BONE,
  TWO_BONE_MEMORY_LENGTH,
  TWO_BONE_RESULT,
  turnSense,
  twoBoneSolve,
} from '../kernel/two-bone.js';
import { distanceInto } from '../kernel/vec3.js';
import { cosSinOfAngle } from '../math/angle.js';
import { restModelMatrices } from '../pose/forward-kinematics.js';
import type { Pose } from '../pose/pose.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import { solverSlab as slab } from '../slab.js';
import {
  checkChain,
  checkFinite,
  checkOptions,
  checkPose,
  checkPoseNumbers,
  type JointRef,
  resolveJoint,
} from './chain.js';
import { IkStatus } from './ik-status.js';

/** How the middle joint is oriented. */
export type TwoBoneMode = 'hinge' | 'least-motion';

/** The keys of {@link TwoBoneIkOptions} (any other is refused: a misspelling was ignored). */
export const TWO_BONE_OPTIONS: readonly string[] = [
  'root',
  'middle',
  'end',
  'endLocal',
  'hingeAxis',
  'mode',
  'bendRange',
  'softness',
  'twist',
  'weight',
  'tolerance',
];

/** Set-up of a {@link TwoBoneIk}. */
export interface TwoBoneIkOptions {
  /** The upper joint (hip, shoulder). */
  readonly root: JointRef;
  /** The middle joint (knee, elbow): below `root`, possibly with twist bones between. */
  readonly middle: JointRef;
  /** The end joint (ankle, wrist): below `middle`. Give this or `endLocal`. */
  readonly end?: JointRef;
  /**
   * The limb's end as a point in the middle joint's local frame, for a limb with no end joint below
   * its middle one: a leg exported from a Blender IK rig, whose foot is a separate bone kept at the
   * shin's tip. The solve then moves that point onto the target; an `endRotation` has no bone to
   * turn and is refused. Give this or `end`.
   */
  readonly endLocal?: readonly [number, number, number];
  /**
   * The middle joint's hinge axis in its own rotation frame, the axis a positive bend turns about.
   * Default: the normal of the bend plane of the rest pose (root → middle × middle → end), so the
   * limb bends the way its rest pose bends. A rest pose with a straight limb has no bend plane:
   * give the axis, or the solver runs in least-motion mode.
   */
  readonly hingeAxis?: readonly [number, number, number];
  /**
   * `'hinge'` (default when a hinge axis is known): the middle joint turns only about its hinge,
   * so a knee stays on its hinge and never bends backwards. `'least-motion'`: each joint takes the
   * minimal rotation, which moves the limb least but may bend off the hinge.
   */
  readonly mode?: TwoBoneMode;
  /**
   * Allowed bend about the hinge, radians, from straight (0) toward the positive bend:
   * `[min, max]`, e.g. `[0, 2.6]` for a knee. Default: no range beyond "never backwards".
   */
  readonly bendRange?: readonly [number, number];
  /** Softening near full extension: the fraction of the reach over which it eases out, [0, 1). */
  readonly softness?: number;
  /** Twist of the bend plane about the root–target axis, radians. Default 0. */
  readonly twist?: number;
  /** Blend weight in [0, 1]; 0 leaves the pose untouched bit for bit. Default 1. */
  readonly weight?: number;
  /** The target counts as reached within this model-space distance. Default 1e-6 × the limb's length. */
  readonly tolerance?: number;
}

/**
 * Analytic two-bone IK for one limb: closed form, no iteration, no trigonometry, no allocation.
 *
 * Create it once per limb; every frame call {@link TwoBoneIk.solve} with the pose, its model
 * matrices (from forward kinematics, up to date) and a model-space target. The solve writes the
 * local rotations of the root and middle joints (and of the end joint when an end rotation is
 * given), recomputes the model matrices of the root's subtree, and returns its {@link IkStatus}.
 *
 * Geometry never throws: a target out of reach straightens the limb toward it, one too close folds
 * it, a target at the root or a straight limb keeps the bend side of the hinge (a leg that
 * straightens fully and bends again bends the same way). Invalid input (NaN or infinite numbers, a
 * pose of another skeleton) throws a {@link TendonError} before anything is written.
 *
 * The chain's own bones (root, middle, and any between) should have uniform scale, mirrored or not;
 * their ancestors may have any transform, mirrored and non-uniformly scaled included: the solve
 * runs in the root's parent frame, where the limb is rigid. A chain bone with non-uniform scale is
 * solved to within that non-uniformity (RobotExpressive's float32 scale noise of 1e-5 leaves
 * errors near 1e-8).
 */
export class TwoBoneIk {
  /** The skeleton. */
  readonly skeleton: Skeleton;
  /** Joint indices. */
  readonly root: number;
  /** Joint index of the middle joint. */
  readonly middle: number;
  /** Joint index of the end joint, `-1` when the end is a point of the middle joint (`endLocal`). */
  readonly end: number;
  /** The last solve's outcome (the object is reused). */
  readonly status = new IkStatus();
  /** The mode in use. */
  readonly mode: TwoBoneMode;
  private readonly settings = slab.f64(TWO_BONE.length);
  private readonly memory = slab.f64(TWO_BONE_MEMORY_LENGTH);
  private readonly result = slab.f64(TWO_BONE_RESULT.length);
  private readonly twistRad = slab.f64(1);
  /** The joints whose local transforms a solve reads: root, middle, end, and any joints between them. */
  private readonly locals: Int32Array;
  /** The joints whose model matrices a solve reads: the root's parent (−1 for none), root, middle, end. */
  private readonly models: Int32Array;

  /**
   * @throws {@link TendonError} `ik/invalid-joint`, `ik/not-a-chain` or `ik/invalid-option`.
   */
  constructor(skeleton: Skeleton, options: TwoBoneIkOptions) {
    const name = 'TwoBoneIk';
    checkOptions(options, name, TWO_BONE_OPTIONS);
    this.skeleton = skeleton;
    this.root = resolveJoint(skeleton, options.root, name, 'root');
    this.middle = resolveJoint(skeleton, options.middle, name, 'middle');
    const endLocal = options.endLocal;
    if ((options.end === undefined) === (endLocal === undefined)) {
      throw new TendonError(
        'ik/invalid-option',
        `${name}: give exactly one of end (a joint) and endLocal (a point)`,
      );
    }
    if (endLocal !== undefined) {
      if (!Array.isArray(endLocal) || endLocal.length !== 3 || !endLocal.every(Number.isFinite)) {
        throw new TendonError('ik/invalid-option', `${name}: endLocal must be 3 finite numbers`);
      }
      this.end = -1;
      checkChain(skeleton, [this.root, this.middle], name);
      this.settings.set(endLocal, TWO_BONE.endLocal);
      this.settings[TWO_BONE.hasEndLocal] = 1;
      this.locals = Int32Array.from([
        this.root,
        ...skeleton.jointsBetween(this.root, this.middle),
        this.middle,
      ]);
      this.models = Int32Array.of(skeleton.parents[this.root], this.root, this.middle);
    } else {
      this.end = resolveJoint(skeleton, options.end as JointRef, name, 'end');
      checkChain(skeleton, [this.root, this.middle, this.end], name);
      this.locals = Int32Array.from([
        this.root,
        ...skeleton.jointsBetween(this.root, this.middle),
        this.middle,
        ...skeleton.jointsBetween(this.middle, this.end),
        this.end,
      ]);
      this.models = Int32Array.of(skeleton.parents[this.root], this.root, this.middle, this.end);
    }
    const s = this.settings;
    const hinge = options.hingeAxis ?? restHinge(skeleton, this.root, this.middle, this.end, endLocal);
    if (hinge !== null) readHinge(s, hinge, name);
    const mode = options.mode ?? (hinge !== null ? 'hinge' : 'least-motion');
    if (mode !== 'hinge' && mode !== 'least-motion') {
      throw new TendonError(
        'ik/invalid-option',
        `${name}: mode "${String(mode)}" is not 'hinge' or 'least-motion'`,
      );
    }
    if (mode === 'hinge' && hinge === null) {
      throw new TendonError(
        'ik/invalid-option',
        `${name}: the rest pose of "${skeleton.names[this.middle]}" is straight, so the hinge axis is unknown; pass hingeAxis`,
      );
    }
    this.mode = mode;
    s[TWO_BONE.hasHinge] = mode === 'hinge' ? 1 : 0;
    if (options.bendRange !== undefined) readBendRange(s, options.bendRange, mode, name);
    this.softness = options.softness ?? 0;
    this.twist = options.twist ?? 0;
    this.weight = options.weight ?? 1;
    let tolerance = options.tolerance;
    if (tolerance === undefined)
      tolerance = defaultTolerance(skeleton, this.root, this.middle, this.end, endLocal);
    if (!(tolerance >= 0) || !Number.isFinite(tolerance)) {
      throw new TendonError(
        'ik/invalid-option',
        `${name}: tolerance ${tolerance} is not a finite number ≥ 0`,
      );
    }
    s[TWO_BONE.tolerance] = tolerance;
  }

  /** Blend weight in [0, 1]. */
  get weight(): number {
    return this.settings[TWO_BONE.weight];
  }
  /** Sets the weight, in `[0, 1]`. */
  set weight(weight: number) {
    // Small, with the message built out of line, as the softness setter (LadderClimb sets the
    // limbs' weights every frame). (A string compares as its number: "0.5" was taken.)
    if (typeof weight !== 'number' || !(weight >= 0 && weight <= 1)) refuseWeight(weight);
    this.settings[TWO_BONE.weight] = weight;
  }

  /**
   * Sets {@link TwoBoneIk.weight} to `source[index]`: the double is read here, not passed in, so
   * it is never boxed, inlined or not (the climb and the hang set their limbs' weights every
   * frame, fractions while a grip eases).
   *
   * @internal
   */
  weightFrom(source: Float64Array, index: number): void {
    const weight = source[index];
    if (!(weight >= 0 && weight <= 1)) refuseWeight(weight);
    this.settings[TWO_BONE.weight] = weight;
  }

  /** Softening near full extension, a fraction of the reach in [0, 1). */
  get softness(): number {
    return this.settings[TWO_BONE.softness];
  }
  /** Sets the softness, a fraction of the chain length in `[0, 1)`. */
  set softness(fraction: number) {
    // Small, with the message built out of line, so that a caller setting it every frame inlines
    // it and passes the number unboxed (a double passed to a call V8 does not inline is allocated).
    if (typeof fraction !== 'number' || !(fraction >= 0 && fraction < 1)) refuseSoftness(fraction);
    this.settings[TWO_BONE.softness] = fraction;
  }

  /**
   * Sets {@link TwoBoneIk.softness} to `source[index]`: the double is read here, not passed in, so
   * it is never boxed, inlined or not (FootPlacement sets each leg's softness every frame).
   *
   * @internal
   */
  softnessFrom(source: Float64Array, index: number): void {
    const fraction = source[index];
    if (!(fraction >= 0 && fraction < 1)) refuseSoftness(fraction);
    this.settings[TWO_BONE.softness] = fraction;
  }

  /**
   * Twist of the bend plane about the root–target axis, radians. Setting it converts to a cosine
   * and sine once (not per solve).
   */
  get twist(): number {
    return this.twistRad[0];
  }
  /** Sets the twist of the bend plane, radians. */
  set twist(angleRad: number) {
    if (!Number.isFinite(angleRad)) {
      throw new TendonError('ik/invalid-option', `TwoBoneIk: twist ${angleRad} is not finite`);
    }
    this.twistRad[0] = angleRad;
    this.settings.set(cosSinOfAngle(angleRad), TWO_BONE.twist);
  }

  /**
   * Solves toward `targetModel` (3 numbers, model space). `poleModel` (3 numbers, model space, or
   * `null`) chooses the plane the middle joint bends in; without one it stays as close as it can
   * to where it is. `endRotationModel` (a unit quaternion, model space, or `null`) makes the end
   * bone keep that rotation (a foot flat on a slope, a hand on a rung).
   *
   * @throws {@link TendonError} `ik/invalid-target` (a target, pole or end rotation that is not
   *   exactly 3 or 4 finite numbers, or an end rotation of length ~0), `pose/not-finite` (a NaN, an
   *   infinity or a zero rotation where the solve reads the pose: see docs/solvers.md),
   *   `pose/skeleton-mismatch` or `pose/buffer-size`, before anything is written.
   */
  solve(
    pose: Pose,
    model: Float64Array,
    targetModel: ArrayLike<number>,
    poleModel: ArrayLike<number> | null = null,
    endRotationModel: ArrayLike<number> | null = null,
  ): IkStatus {
    const name = 'TwoBoneIk.solve';
    checkPose(this.skeleton, pose, model, name);
    checkFinite(targetModel, 3, name, 'target');
    if (poleModel !== null) checkFinite(poleModel, 3, name, 'pole');
    if (endRotationModel !== null) this.checkEndRotation(endRotationModel, name);
    this.loadSettings(targetModel, poleModel, endRotationModel);
    // At weight 0 the kernel reads no more than the end's position: the pose is checked here, so
    // that invalid input throws whatever the weight.
    if (this.settings[TWO_BONE.weight] === 0) checkPoseNumbers(pose, model, this.locals, this.models, name);
    this.checkUnreadNumbers(pose, model, name);
    this.runKernel(pose, model);
    const r = this.result;
    if (
      r[TWO_BONE_RESULT.reached] === 0 &&
      r[TWO_BONE_RESULT.outOfReach] === 0 &&
      r[TWO_BONE_RESULT.clamped] === 0 &&
      r[TWO_BONE_RESULT.degenerate] === 0 &&
      r[TWO_BONE_RESULT.invalid] === 0
    ) {
      // A reachable target missed by more than the tolerance: the limb's bones carry non-uniform
      // scale (exported rigs' float32 noise, 1e-5, leaves micrometres), which the closed form does
      // not model. A second pass from the corrected pose closes it (to ~1e-10 on the robot's legs);
      // it runs only then, so a solve that reaches pays nothing for it.
      this.runKernel(pose, model);
    }
    if (r[TWO_BONE_RESULT.invalid] > 0) {
      // The kernel met a NaN, an infinity or a zero rotation where it reads the pose, and wrote
      // nothing; checked there, as it reads them, for it costs nothing on the way.
      checkPoseNumbers(pose, model, this.locals, this.models, name);
    }
    return this.writeStatus();
  }

  /**
   * Copies this limb's kernel settings (the `TWO_BONE` layout of `tendon/kernel`: its options,
   * and the target, pole and end rotation of the last solve) into `out` at `offset`, `TWO_BONE.length` numbers:
   * how a limb set up here is solved in a batch (`twoBoneSolveBatch`, {@link TwoBoneBatch}).
   */
  writeSettings(out: Float64Array, offset: number): void {
    out.set(this.settings, offset);
  }

  /** Throws unless the limb has an end joint and `endRotationModel` is a rotation. */
  private checkEndRotation(endRotationModel: ArrayLike<number>, name: string): void {
    if (this.end < 0) {
      throw new TendonError(
        'ik/invalid-option',
        `${name}: an endRotation needs an end joint (this limb ends at endLocal)`,
      );
    }
    checkFinite(endRotationModel, 4, name, 'endRotation');
    const x = endRotationModel[0];
    const y = endRotationModel[1];
    const z = endRotationModel[2];
    const w = endRotationModel[3];
    if (!(x * x + y * y + z * z + w * w > 1e-12)) {
      throw new TendonError(
        'ik/invalid-target',
        `${name}: endRotation [${x}, ${y}, ${z}, ${w}] is not a rotation (a quaternion of length ~0)`,
      );
    }
  }

  /** The target, pole and end rotation into the kernel's settings. */
  private loadSettings(
    targetModel: ArrayLike<number>,
    poleModel: ArrayLike<number> | null,
    endRotationModel: ArrayLike<number> | null,
  ): void {
    const s = this.settings;
    s[TWO_BONE.target] = targetModel[0];
    s[TWO_BONE.target + 1] = targetModel[1];
    s[TWO_BONE.target + 2] = targetModel[2];
    if (poleModel !== null) {
      s[TWO_BONE.pole] = poleModel[0];
      s[TWO_BONE.pole + 1] = poleModel[1];
      s[TWO_BONE.pole + 2] = poleModel[2];
      s[TWO_BONE.hasPole] = 1;
    } else {
      s[TWO_BONE.hasPole] = 0;
    }
    if (endRotationModel !== null) {
      for (let i = 0; i < 4; i++) s[TWO_BONE.endRotation + i] = endRotationModel[i];
      s[TWO_BONE.hasEndRotation] = 1;
    } else {
      s[TWO_BONE.hasEndRotation] = 0;
    }
  }

  /**
   * The kernel reads the model matrices and the rotations it turns, checking them as it goes; the
   * chain's translations, scales and the end's rotation it does not read, but the model matrices it
   * recomputes from them would carry a NaN put there since forward kinematics last ran (a stale
   * buffer), and the joints between (twist bones) too. Checked here, the numbers summed and the
   * rotations' lengths taken (a few ns), before anything is written.
   */
  private checkUnreadNumbers(pose: Pose, model: Float64Array, name: string): void {
    const t = pose.translations;
    const sc = pose.scales;
    const rot = pose.rotations;
    const locals = this.locals;
    let sum = 0;
    // And a rotation of a length that normalizes: the joints between and the end are recomputed
    // through but not read by the kernel, which would solve a zero rotation there as the identity.
    let normalizes = true;
    for (let i = 0; i < locals.length; i++) {
      const o = 3 * locals[i];
      const q = 4 * locals[i];
      sum +=
        t[o] +
        t[o + 1] +
        t[o + 2] +
        (sc[o] + sc[o + 1] + sc[o + 2]) +
        (rot[q] + rot[q + 1] + rot[q + 2] + rot[q + 3]);
      const lengthSq =
        rot[q] * rot[q] + rot[q + 1] * rot[q + 1] + (rot[q + 2] * rot[q + 2] + rot[q + 3] * rot[q + 3]);
      if (!(lengthSq > 0 && lengthSq < Number.POSITIVE_INFINITY)) normalizes = false;
    }
    if (!(sum - sum === 0 && normalizes)) checkPoseNumbers(pose, model, locals, this.models, name);
  }

  /** The kernel's result into {@link TwoBoneIk.status}. */
  private writeStatus(): IkStatus {
    const r = this.result;
    const status = this.status;
    status.reset();
    status.iterations = 1;
    status.errorFrom(r, TWO_BONE_RESULT.error);
    status.reached = r[TWO_BONE_RESULT.reached] > 0;
    status.outOfReach = r[TWO_BONE_RESULT.outOfReach] > 0;
    status.clamped = r[TWO_BONE_RESULT.clamped] > 0;
    // Invalid with every number finite: geometry too large for doubles. Nothing was written.
    status.degenerate = r[TWO_BONE_RESULT.degenerate] > 0 || r[TWO_BONE_RESULT.invalid] > 0;
    return status;
  }

  /** One pass of the kernel over this limb (the settings already written). */
  private runKernel(pose: Pose, model: Float64Array): void {
    const sk = this.skeleton;
    twoBoneSolve(
      model,
      sk.parents,
      pose.translations,
      pose.rotations,
      pose.scales,
      this.root,
      this.middle,
      this.end,
      sk.subtreeEnds[this.root],
      this.settings,
      this.memory,
      this.result,
    );
  }
}

/** The limb's end in the rest model matrices: the end joint, or the middle joint's `endLocal` point. */
function restEnd(
  model: Float64Array,
  middle: number,
  end: number,
  endLocal: readonly [number, number, number] | undefined,
): number[] {
  const m = 16 * middle;
  if (endLocal === undefined) return [model[16 * end + 12], model[16 * end + 13], model[16 * end + 14]];
  const [x, y, z] = endLocal;
  return [0, 1, 2].map(
    (r) => model[m + r] * x + model[m + 4 + r] * y + model[m + 8 + r] * z + model[m + 12 + r],
  );
}

/** The hinge axis, normalized, into the settings; throws for a zero or non-finite one. */
function readHinge(s: Float64Array, hinge: readonly number[], name: string): void {
  const [x, y, z] = hinge;
  const l = Math.sqrt(x * x + y * y + z * z);
  if (!(l > 0) || !Number.isFinite(l)) {
    throw new TendonError('ik/invalid-option', `${name}: hingeAxis must be a finite, non-zero vector`);
  }
  s.set([x / l, y / l, z / l], TWO_BONE.hinge);
}

/** The bend range's (cos, sin) into the settings; throws for a bad range or without the hinge mode. */
function readBendRange(s: Float64Array, range: readonly [number, number], mode: string, name: string): void {
  const [min, max] = range;
  if (!(Number.isFinite(min) && Number.isFinite(max) && min <= max && max - min < 2 * Math.PI)) {
    throw new TendonError(
      'ik/invalid-option',
      `${name}: bendRange [${min}, ${max}] is not a range of radians`,
    );
  }
  if (mode !== 'hinge') {
    throw new TendonError('ik/invalid-option', `${name}: bendRange needs the hinge mode`);
  }
  s.set(cosSinOfAngle(min), TWO_BONE.bendMin);
  s.set(cosSinOfAngle(max), TWO_BONE.bendMax);
  s.set(cosSinOfAngle((min + max) / 2), TWO_BONE.bendMid);
  s.set(cosSinOfAngle((max - min) / 4), TWO_BONE.bendQuarter);
  s[TWO_BONE.hasBendRange] = 1;
}

/** The default tolerance: 1e-6 of the limb's rest length (root to middle to end). */
function defaultTolerance(
  skeleton: Skeleton,
  root: number,
  middle: number,
  end: number,
  endLocal: TwoBoneIkOptions['endLocal'],
): number {
  const rest = restModelMatrices(skeleton);
  const e = restEnd(rest, middle, end, endLocal);
  const m = 16 * middle + 12;
  // Without squares that overflow: bones of 1e160 made the default Infinity, refused as an option.
  const lengths = new Float64Array(2);
  distanceInto(lengths, 0, rest, 16 * root + 12, rest, m);
  distanceInto(lengths, 1, e, 0, rest, m);
  return 1e-6 * (lengths[0] + lengths[1]);
}

/**
 * The hinge axis implied by the rest pose, in the middle joint's rotation frame: the normal of the
 * plane root, middle, end (taken in the root's parent frame, where the limb is rigid). `null` when
 * the rest limb is straight.
 */
function restHinge(
  skeleton: Skeleton,
  root: number,
  middle: number,
  end: number,
  endLocal: readonly [number, number, number] | undefined,
): [number, number, number] | null {
  const model = restModelMatrices(skeleton);
  const parent = skeleton.parents[root];
  const pinv = new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  if (parent >= 0 && !invert(pinv, 0, model, 16 * parent)) return null;
  const point = (j: number): number[] => {
    const o = 16 * j + 12;
    return [0, 1, 2].map(
      (r) => pinv[r] * model[o] + pinv[4 + r] * model[o + 1] + pinv[8 + r] * model[o + 2] + pinv[12 + r],
    );
  };
  const a = point(root);
  const b = point(middle);
  const e = restEnd(model, middle, end, endLocal);
  const c = [0, 1, 2].map((r) => pinv[r] * e[0] + pinv[4 + r] * e[1] + pinv[8 + r] * e[2] + pinv[12 + r]);
  const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const w = [c[0] - b[0], c[1] - b[1], c[2] - b[2]];
  const n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
  const nl = Math.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  const ul = Math.sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  const wl = Math.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  // Bent by less than ~0.06°: too straight to define a plane.
  if (!(nl > 1e-3 * ul * wl)) return null;
  // Into the middle joint's rotation frame: the columns of P⁻¹ · M_mid, normalized, transposed,
  // signed by the joint's own scale and by the mirrors above it (the kernel's turnSense): a
  // local turn about the result then acts about n.
  const m = 16 * middle;
  const scales = skeleton.restScales;
  const sense = turnSense(skeleton.parents, scales, root, middle);
  const local = [0, 0, 0];
  for (let col = 0; col < 3; col++) {
    const x = model[m + 4 * col];
    const y = model[m + 4 * col + 1];
    const z = model[m + 4 * col + 2];
    const f = [0, 1, 2].map((r) => pinv[r] * x + pinv[4 + r] * y + pinv[8 + r] * z);
    const fl = Math.sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    const sign = scales[3 * middle + col] < 0 ? -sense : sense;
    local[col] = (sign * (f[0] * n[0] + f[1] * n[1] + f[2] * n[2])) / (fl * nl);
  }
  return [local[0], local[1], local[2]];
}

function refuseWeight(weight: unknown): never {
  throw new TendonError(
    'ik/invalid-option',
    `TwoBoneIk: weight ${describeArg(weight)} is not a number in [0, 1]`,
  );
}

function refuseSoftness(fraction: unknown): never {
  throw new TendonError(
    'ik/invalid-option',
    `TwoBoneIk: softness ${describeArg(fraction)} is not a number in [0, 1)`,
  );
}
