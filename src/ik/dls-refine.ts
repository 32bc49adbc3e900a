/**
 * Damped least-squares refinement of a limited chain: how {@link FabrikIk} finishes where its
 * passes stall.
 *
 * @packageDocumentation
 */
import { dampedLeastSquares } from '../kernel/damped-least-squares.js';
import {
  AT_TWIST_MIN,
  clampRotation,
  LIMIT_AXIS,
  LIMIT_HINGE,
  LIMIT_KIND,
  LIMIT_REST,
  LIMIT_STRIDE,
  LIMIT_TWIST,
  twistAtBound,
} from '../kernel/joint-limits.js';
import { localToModel, localToModelAlong } from '../kernel/local-to-model.js';
import * as mat4 from '../kernel/mat4.js';
import * as quat from '../kernel/quat.js';
import { cosSinOfAngle } from '../math/angle.js';
import type { Pose } from '../pose/pose.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import type { ChainSetup } from './chain-setup.js';
import { IkStatus } from './ik-status.js';

/** Attempts per step: each failed one multiplies the damping by {@link DAMPING_LOSS}. */
const ATTEMPTS = 6;

/** The first damping, as a share of the chain's length: steps of about a thirtieth of it, safe far from the answer. */
const DAMPING_START = 30;

/** The least damping, as a share of the chain's length: keeps the system well posed near a singular pose. */
const DAMPING_FLOOR = 1e-6;

/** A kept step divides the damping by this: the next step may be bolder. */
const DAMPING_GAIN = 3;

/** A failed attempt multiplies the damping by this: the retry is shorter and closer to the gradient. */
const DAMPING_LOSS = 4;

/**
 * How far the escape bends a hinge out of its limit (radians): far enough to leave the minimum the
 * limit holds the chain in, near enough to keep the rest of the pose's progress.
 */
const ESCAPE_ANGLE = 0.8;

/**
 * A step that leaves more than this share of the squared error (0.8 of the error) ends the
 * descent: the steps converge much faster than that where they converge at all, and slower ones
 * are pushing against a limit.
 */
const SLOW = 0.64;

/**
 * A refinement is worth keeping when it leaves at most this share of the error it started from
 * (the escape is tried when the plain descent does not get there).
 */
export const REFINE_GAIN = 0.5;

/**
 * Levenberg–Marquardt steps on a chain's joint angles, within the joints' limits.
 *
 * FABRIK's passes converge linearly, and where limits hold the chain they crawl: near full reach
 * an elbow pinned straight by its hinge makes the shoulder aim at a point the passes placed for a
 * bent elbow, and each pass undoes most of the one before (an arm at 0.999 of its reach took ~800
 * iterations). A damped least-squares step moves every joint at once along the end's Jacobian, and
 * converges in a few steps there. Each joint's angles are turns about its own axes (a hinge's axis,
 * or the three axes of its frame), composed on the right of its local rotation as every correction
 * in tendon is, then clamped into its limit. A step is kept only when it brings the end closer to
 * the target (model space); a failed one is retried with four times the damping.
 *
 * A hinge held at a limit can hold the chain in a local minimum the steps do not leave: an elbow
 * pinned straight while the chain must shorten (a saddle: bending it either way shortens the chain
 * only to second order, so its column lies across the error), or pinned while the wrist bends the
 * other way (bending the elbow alone takes the end away; bending it and flipping the wrist gets
 * there). When the steps from the given pose do not halve the error ({@link REFINE_GAIN}), the
 * steps left start again from it with each hinge at a limit bent {@link ESCAPE_ANGLE} into its
 * range; the closest pose seen is the one left. The descent stops early once a step gains little
 * ({@link SLOW}), and a step a limit clamped is redone with the clamped joints held still.
 * Needs uniform scale (mirrored or not) on the chain's joints, as FabrikIk's passes do; FabrikIk
 * lets scales within 1e-5 of uniform through (float32 noise), which puts the columns off by about
 * that share: the steps, each kept only if the end gets closer, converge all the same.
 *
 * @internal
 */
export class DlsRefine {
  /** The last refinement's outcome: steps taken, model-space error, whether a limit acted. */
  readonly status = new IkStatus();
  private readonly skeleton: Skeleton;
  private readonly setup: ChainSetup;
  /** Chain index of each angle. */
  private readonly owner: Int32Array;
  /** Each angle's axis in its joint's own frame (3 per angle, unit). */
  private readonly axes: Float64Array;
  private readonly columns: Float64Array;
  private readonly angles: Float64Array;
  /** The chain's rotations before a step, and at the closest pose seen (4 per chain joint). */
  private readonly saved: Float64Array;
  private readonly best: Float64Array;
  /** The chain's rotations when the refinement began, and after a clamped step. */
  private readonly start: Float64Array;
  private readonly trial: Float64Array;
  /** The columns with those of the joints a limit held zeroed. */
  private readonly free: Float64Array;
  /** 1 for each chain joint whose limit acted in the last step. */
  private readonly held: Uint8Array;
  /** The error vector (3) and the squared damping (1), as dampedLeastSquares reads them. */
  private readonly problem = new Float64Array(4);
  /** The refinement's numbers, by name (docs/architecture.md, "Numbers in typed arrays"). */
  private readonly numbers = new RefineNumbers();
  /** A hinge's turn from its rest rotation, and the turn the escape gives it. */
  private readonly turn = new Float64Array(4);
  /** 1 when a kept step on the way to the current pose (0), to the closest pose (1) was clamped. */
  private readonly flags = new Int32Array(2);

  /** The root's parent's model matrix and its inverse: the owner's arrays, current at each refinement. */
  private readonly parentModel: Float64Array;
  private readonly parentInverse: Float64Array;

  constructor(skeleton: Skeleton, setup: ChainSetup, parentModel: Float64Array, parentInverse: Float64Array) {
    this.skeleton = skeleton;
    this.setup = setup;
    this.parentModel = parentModel;
    this.parentInverse = parentInverse;
    const { joints, limits } = setup;
    const m = joints.length;
    const owner: number[] = [];
    const axes: number[] = [];
    for (let i = 0; i + 1 < m; i++) {
      const lo = LIMIT_STRIDE * i;
      if (limits[lo + LIMIT_KIND] === LIMIT_HINGE) {
        owner.push(i);
        axes.push(limits[lo + LIMIT_AXIS], limits[lo + LIMIT_AXIS + 1], limits[lo + LIMIT_AXIS + 2]);
      } else {
        owner.push(i, i, i);
        axes.push(1, 0, 0, 0, 1, 0, 0, 0, 1);
      }
    }
    this.owner = Int32Array.from(owner);
    this.axes = Float64Array.from(axes);
    this.columns = new Float64Array(axes.length);
    this.angles = new Float64Array(owner.length);
    this.saved = new Float64Array(4 * m);
    this.best = new Float64Array(4 * m);
    this.start = new Float64Array(4 * m);
    this.trial = new Float64Array(4 * m);
    this.free = new Float64Array(axes.length);
    this.held = new Uint8Array(m);
    const [c, s] = cosSinOfAngle(ESCAPE_ANGLE / 2);
    this.numbers.escapeCos = c;
    this.numbers.escapeSin = s;
  }

  /**
   * Up to `maxSteps` steps from the pose as it is (`model` current for the root's subtree, the
   * parent matrices given at construction current), toward `targetModel`, ending early within the
   * chain's tolerance. When they do not halve the error and a hinge sits at a limit (see the class
   * doc), the steps left start again from the pose with that hinge bent into its range. Leaves the
   * closest pose seen, its subtree's matrices current, and returns {@link DlsRefine.status}.
   */
  refine(pose: Pose, model: Float64Array, targetModel: Float64Array, maxSteps: number): IkStatus {
    const tolerance = this.setup.tolerance;
    const status = this.status;
    status.reset();
    const { joints } = this.setup;
    const m = joints.length;
    const rotations = pose.rotations;
    const n = this.numbers;
    // The sign of det(P⁻¹), for the sense of the turns (see columnsAt).
    n.parentSign = mat4.mirrored(this.parentInverse, 0) ? -1 : 1;
    this.measure(model, targetModel);
    n.startErrorSq = n.errorSq;
    n.bestErrorSq = n.errorSq;
    n.toleranceSq = tolerance * tolerance;
    this.save(pose, this.start);
    this.save(pose, this.best);
    // The chain's length, model space: the scale of the damping.
    n.length = 0;
    for (let i = 0; i + 1 < m; i++) {
      const a = 16 * joints[i] + 12;
      const b = 16 * joints[i + 1] + 12;
      const dx = model[b] - model[a];
      const dy = model[b + 1] - model[a + 1];
      const dz = model[b + 2] - model[a + 2];
      n.length += Math.sqrt(dx * dx + dy * dy + dz * dz);
    }
    this.flags[0] = 0;
    this.flags[1] = 0;
    let steps = this.descend(pose, model, targetModel, maxSteps);
    if (n.bestErrorSq > REFINE_GAIN * REFINE_GAIN * n.startErrorSq && steps < maxSteps) {
      this.restore(pose, model, this.start);
      if (this.escape(pose, model)) {
        this.flags[0] = 0;
        steps += this.descend(pose, model, targetModel, maxSteps - steps);
      }
    }
    this.measure(model, targetModel);
    if (n.errorSq > n.bestErrorSq) this.restore(pose, model, this.best);
    // The path to the end is current; now the whole subtree.
    const root = joints[0];
    const sk = this.skeleton;
    localToModel(model, sk.parents, pose.translations, rotations, pose.scales, root, sk.subtreeEnds[root]);
    status.iterations = steps;
    status.clamped = this.flags[1] > 0;
    status.error = Math.sqrt(n.bestErrorSq);
    status.reached = status.error <= tolerance;
    return status;
  }

  /**
   * Levenberg–Marquardt steps from the pose as it is, at most `maxSteps`, until the error is within
   * the tolerance, a step fails at every damping, or a kept step leaves more than {@link SLOW} of
   * the squared error. The closest pose (the one it starts from included) goes to `best`, its
   * squared error to `bestErrorSq`, whether a limit clamped a step on the way to it to flags[1].
   * Returns the steps taken.
   */
  private descend(pose: Pose, model: Float64Array, targetModel: Float64Array, maxSteps: number): number {
    const n = this.numbers;
    const problem = this.problem;
    let damping = n.length / DAMPING_START;
    const floor = n.length * DAMPING_FLOOR;
    this.measure(model, targetModel);
    let errorSq = n.errorSq;
    if (errorSq < n.bestErrorSq) {
      // Where an escape landed, already closer than anything before.
      n.bestErrorSq = errorSq;
      this.flags[1] = this.flags[0];
      this.save(pose, this.best);
    }
    let steps = 0;
    let slow = false;
    while (steps < maxSteps && errorSq > n.toleranceSq && !slow) {
      steps++;
      this.columnsAt(pose, model);
      this.save(pose, this.saved);
      let kept = false;
      for (let attempt = 0; attempt < ATTEMPTS && !kept; attempt++) {
        problem[3] = damping * damping;
        if (!dampedLeastSquares(this.angles, this.columns, this.angles.length, problem, 0)) break;
        let stepClamped = this.apply(pose, model);
        this.measure(model, targetModel);
        if (stepClamped) stepClamped = this.withoutHeld(pose, model, targetModel);
        if (n.errorSq < errorSq) {
          slow = n.errorSq > SLOW * errorSq;
          errorSq = n.errorSq;
          kept = true;
          if (stepClamped) this.flags[0] = 1;
          damping = damping / DAMPING_GAIN > floor ? damping / DAMPING_GAIN : floor;
        } else {
          this.restore(pose, model, this.saved);
          this.measure(model, targetModel);
          damping *= DAMPING_LOSS;
        }
      }
      if (errorSq < n.bestErrorSq) {
        n.bestErrorSq = errorSq;
        this.flags[1] = this.flags[0];
        this.save(pose, this.best);
      }
      if (!kept) break;
    }
    return steps;
  }

  /**
   * The Jacobian's columns, model space: turning joint i about its local axis `a` turns the end
   * about the axis' direction in the root's parent frame, `n = P⁻¹ L S⁻¹ a` (L the joint's model
   * matrix, S its scale), where the chain is rigid: the end moves along `±n̂ × P⁻¹ (e − p)`, then
   * through P into model space. The sign is that of det(P⁻¹ L S⁻¹): a mirror turns the sense of a
   * local turn (as in the two-bone solver's turnSense).
   */
  private columnsAt(pose: Pose, model: Float64Array): void {
    const { joints } = this.setup;
    const m = joints.length;
    const { owner, axes, columns } = this;
    const pi = this.numbers.parentSign;
    const scales = pose.scales;
    const e = 16 * joints[m - 1] + 12;
    const count = owner.length;
    for (let k = 0; k < count; k++) {
      const j = joints[owner[k]];
      const o = 16 * j;
      const so = 3 * j;
      const sx = scales[so];
      const sy = scales[so + 1];
      const sz = scales[so + 2];
      if (sx === 0 || sy === 0 || sz === 0) {
        columns[3 * k] = 0;
        columns[3 * k + 1] = 0;
        columns[3 * k + 2] = 0;
        continue;
      }
      // n in model space (L S⁻¹ a), then the sign of det(L S⁻¹) times that of det(P⁻¹).
      const ax = axes[3 * k] / sx;
      const ay = axes[3 * k + 1] / sy;
      const az = axes[3 * k + 2] / sz;
      let nx = model[o] * ax + model[o + 4] * ay + model[o + 8] * az;
      let ny = model[o + 1] * ax + model[o + 5] * ay + model[o + 9] * az;
      let nz = model[o + 2] * ax + model[o + 6] * ay + model[o + 10] * az;
      const sign = mat4.mirrored(model, o) !== sx * sy * sz < 0 ? -pi : pi;
      // Into the parent frame (P⁻¹'s linear part, as r), crossed there, and back through P.
      const inv = this.parentInverse;
      let x = inv[0] * nx + inv[4] * ny + inv[8] * nz;
      let y = inv[1] * nx + inv[5] * ny + inv[9] * nz;
      let z = inv[2] * nx + inv[6] * ny + inv[10] * nz;
      const len = Math.sqrt(x * x + y * y + z * z);
      if (!(len > 0)) {
        columns[3 * k] = 0;
        columns[3 * k + 1] = 0;
        columns[3 * k + 2] = 0;
        continue;
      }
      nx = (sign * x) / len;
      ny = (sign * y) / len;
      nz = (sign * z) / len;
      const dx = model[e] - model[o + 12];
      const dy = model[e + 1] - model[o + 13];
      const dz = model[e + 2] - model[o + 14];
      const rx = inv[0] * dx + inv[4] * dy + inv[8] * dz;
      const ry = inv[1] * dx + inv[5] * dy + inv[9] * dz;
      const rz = inv[2] * dx + inv[6] * dy + inv[10] * dz;
      x = ny * rz - nz * ry;
      y = nz * rx - nx * rz;
      z = nx * ry - ny * rx;
      const p = this.parentModel;
      columns[3 * k] = p[0] * x + p[4] * y + p[8] * z;
      columns[3 * k + 1] = p[1] * x + p[5] * y + p[9] * z;
      columns[3 * k + 2] = p[2] * x + p[6] * y + p[10] * z;
    }
  }

  /**
   * After a step that a limit clamped (its pose current, its squared error in `errorSq`): the same
   * step again from the step's start with the clamped joints held still, the other joints then
   * doing what the clamped ones could not (the step's first answer pushes against the limit, and
   * clamping it undoes most of it: convergence slows to a crawl). Keeps whichever of the two poses
   * is closer; returns whether a limit acted in the one kept. `errorSq` is its squared error.
   */
  private withoutHeld(pose: Pose, model: Float64Array, targetModel: Float64Array): boolean {
    const { owner, columns, free, held } = this;
    const n = this.numbers;
    const first = n.errorSq;
    this.save(pose, this.trial);
    let any = false;
    for (let k = 0; k < owner.length; k++) {
      const h = held[owner[k]] > 0;
      if (!h) any = true;
      free[3 * k] = h ? 0 : columns[3 * k];
      free[3 * k + 1] = h ? 0 : columns[3 * k + 1];
      free[3 * k + 2] = h ? 0 : columns[3 * k + 2];
    }
    this.restore(pose, model, this.saved);
    this.measure(model, targetModel);
    let clamped = true;
    if (any && dampedLeastSquares(this.angles, free, owner.length, this.problem, 0)) {
      clamped = this.apply(pose, model);
      this.measure(model, targetModel);
      if (n.errorSq < first) return clamped;
    }
    this.restore(pose, model, this.trial);
    n.errorSq = first;
    this.measure(model, targetModel);
    return true;
  }

  /**
   * Turns each joint by its angles (a turn about the sum of its axes times their angles, composed on
   * the right: for small angles the turns add up to first order, which is what the Jacobian models),
   * clamps it into its limit and recomputes the root's subtree. Returns whether a limit acted.
   */
  private apply(pose: Pose, model: Float64Array): boolean {
    const { joints, limits } = this.setup;
    const { owner, axes, angles } = this;
    const rotations = pose.rotations;
    const count = owner.length;
    let clamped = false;
    let k = 0;
    while (k < count) {
      const i = owner[k];
      this.held[i] = 0;
      let wx = 0;
      let wy = 0;
      let wz = 0;
      for (; k < count && owner[k] === i; k++) {
        wx += axes[3 * k] * angles[k];
        wy += axes[3 * k + 1] * angles[k];
        wz += axes[3 * k + 2] * angles[k];
      }
      // (ω/2, 1) normalized: the turn by 2·atan(|ω|/2), |ω| to first order, without trigonometry.
      const qo = 4 * joints[i];
      const bx = wx / 2;
      const by = wy / 2;
      const bz = wz / 2;
      const qx = rotations[qo];
      const qy = rotations[qo + 1];
      const qz = rotations[qo + 2];
      const qw = rotations[qo + 3];
      const x = qw * bx + qx + qy * bz - qz * by;
      const y = qw * by - qx * bz + qy + qz * bx;
      const z = qw * bz + qx * by - qy * bx + qz;
      const w = qw - qx * bx - qy * by - qz * bz;
      const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
      rotations[qo] = x * inv;
      rotations[qo + 1] = y * inv;
      rotations[qo + 2] = z * inv;
      rotations[qo + 3] = w * inv;
      if (clampRotation(rotations, qo, limits, LIMIT_STRIDE * i)) {
        clamped = true;
        this.held[i] = 1;
      }
    }
    this.update(pose, model);
    return clamped;
  }

  /**
   * Bends each hinge joint that sits at a limit {@link ESCAPE_ANGLE} into its range (clamped, should
   * the range be narrower), and recomputes the subtree. Returns whether any did.
   */
  private escape(pose: Pose, model: Float64Array): boolean {
    const { joints, limits } = this.setup;
    const rotations = pose.rotations;
    const ec = this.numbers.escapeCos;
    const es = this.numbers.escapeSin;
    let any = false;
    for (let i = 0; i + 1 < joints.length; i++) {
      const lo = LIMIT_STRIDE * i;
      if (limits[lo + LIMIT_KIND] !== LIMIT_HINGE) continue;
      const qo = 4 * joints[i];
      const at = twistAtBound(rotations, qo, limits, lo);
      if (at === 0) continue;
      // The bound's half-angle (cos, sin), turned by half the escape's angle into the range.
      const b = lo + LIMIT_TWIST + (at === AT_TWIST_MIN ? 0 : 2);
      const into = at === AT_TWIST_MIN ? es : -es;
      const c = limits[b] * ec - limits[b + 1] * into;
      const s = limits[b + 1] * ec + limits[b] * into;
      const ax = limits[lo + LIMIT_AXIS];
      const ay = limits[lo + LIMIT_AXIS + 1];
      const az = limits[lo + LIMIT_AXIS + 2];
      const d = this.turn;
      // q = q₀ · (a s, c).
      d[0] = ax * s;
      d[1] = ay * s;
      d[2] = az * s;
      d[3] = c;
      quat.multiply(rotations, qo, limits, lo + LIMIT_REST, d, 0);
      quat.normalize(rotations, qo, rotations, qo);
      clampRotation(rotations, qo, limits, lo);
      any = true;
    }
    if (any) this.update(pose, model);
    return any;
  }

  /** Copies the chain's rotations into `to` (4 per chain joint). */
  private save(pose: Pose, to: Float64Array): void {
    const { joints } = this.setup;
    for (let i = 0; i < joints.length; i++) quat.copy(to, 4 * i, pose.rotations, 4 * joints[i]);
  }

  /** Puts the chain's rotations back from `from` (4 per chain joint) and recomputes the path to the end. */
  private restore(pose: Pose, model: Float64Array, from: Float64Array): void {
    const { joints } = this.setup;
    for (let i = 0; i < joints.length; i++) quat.copy(pose.rotations, 4 * joints[i], from, 4 * i);
    this.update(pose, model);
  }

  /**
   * Recomputes the model matrices along the path from the root to the end (chain joints and those
   * between them), all a step reads; the rest of the subtree once, at the end of a refinement.
   */
  private update(pose: Pose, model: Float64Array): void {
    // biome-ignore format: one call
    localToModelAlong(model, this.skeleton.parents, pose.translations, pose.rotations, pose.scales, this.setup.path, 0);
  }

  /** `problem[0…2]` = the vector from the end to the target, model space; `errorSq` its squared length. */
  private measure(model: Float64Array, targetModel: Float64Array): void {
    const joints = this.setup.joints;
    const o = 16 * joints[joints.length - 1] + 12;
    const e = this.problem;
    e[0] = targetModel[0] - model[o];
    e[1] = targetModel[1] - model[o + 1];
    e[2] = targetModel[2] - model[o + 2];
    this.numbers.errorSq = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
  }
}

/**
 * The numbers of one refinement, by name, over a typed array (docs/architecture.md, "Numbers in
 * typed arrays").
 */
class RefineNumbers {
  private readonly n = new Float64Array(8);

  /** The cosine of half the escape's angle (configuration time). */
  get escapeCos(): number {
    return this.n[0];
  }
  set escapeCos(c: number) {
    this.n[0] = c;
  }

  /** The sine of half the escape's angle (configuration time). */
  get escapeSin(): number {
    return this.n[1];
  }
  set escapeSin(s: number) {
    this.n[1] = s;
  }

  /** The squared model-space error of the pose as it is (measure writes it). */
  get errorSq(): number {
    return this.n[2];
  }
  set errorSq(errorSq: number) {
    this.n[2] = errorSq;
  }

  /** The squared error the refinement started from. */
  get startErrorSq(): number {
    return this.n[3];
  }
  set startErrorSq(errorSq: number) {
    this.n[3] = errorSq;
  }

  /** The squared error of the closest pose seen. */
  get bestErrorSq(): number {
    return this.n[4];
  }
  set bestErrorSq(errorSq: number) {
    this.n[4] = errorSq;
  }

  /** The chain's tolerance, squared. */
  get toleranceSq(): number {
    return this.n[5];
  }
  set toleranceSq(toleranceSq: number) {
    this.n[5] = toleranceSq;
  }

  /** The sign of det(P⁻¹), for the sense of the turns (see columnsAt). */
  get parentSign(): number {
    return this.n[6];
  }
  set parentSign(sign: number) {
    this.n[6] = sign;
  }

  /** The chain's length, model space: the scale of the damping. */
  get length(): number {
    return this.n[7];
  }
  set length(length: number) {
    this.n[7] = length;
  }
}
