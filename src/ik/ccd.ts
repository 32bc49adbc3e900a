/**
 * CCD: cyclic coordinate descent IK over a chain of any length.
 *
 * @packageDocumentation
 */
import { ccdStep } from '../kernel/ccd.js';
import { chainOnLine, LINE_KICK as KICK, NEAR_LINE, ON_LINE, SLOW_GAIN } from '../kernel/chain-line.js';
import { clampRotation, LIMIT_STRIDE } from '../kernel/joint-limits.js';
import { localToModelAlong } from '../kernel/local-to-model.js';
import * as mat4 from '../kernel/mat4.js';
import * as quat from '../kernel/quat.js';
import * as vec3 from '../kernel/vec3.js';
import { subtreeToModel } from '../pose/forward-kinematics.js';
import type { Pose } from '../pose/pose.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import { checkFinite, checkPose, checkPoseNumbers } from './chain.js';
import { type ChainIkOptions, type ChainSetup, setupChain } from './chain-setup.js';
import { IkStatus } from './ik-status.js';

/**
 * Within this share of full reach, a chain laid straight toward the target may end within the
 * tolerance of it: the solve tries that first (see straighten).
 */
const NEAR_FULL_REACH = 1e-6;

/** Options of {@link CcdIk}: those of every chain solver. `maxIterations` caps the sweeps (default `64`). */
export type CcdIkOptions = ChainIkOptions;

/**
 * Cyclic coordinate descent on a chain of joints, writing local rotations.
 *
 * Each sweep visits the joints from the end effector's parent joint back to the root. At each, the
 * joint→end and joint→target vectors are taken into the joint's own frame (through the inverse of
 * its model matrix, so any parent transform works, scaled, non-uniform or mirrored), the minimal
 * rotation between them (for a hinge, the rotation about its axis) is composed on the right of the
 * joint's local rotation, and the joint's limit is enforced there. Sweeps repeat until the end is
 * within `tolerance` of the target (model space) or `maxIterations` sweeps have run, or a sweep
 * changes nothing. Limited joints are first brought within their limits. A target out of reach
 * gets one pass first, root to tip, turning each joint so that the next one points at the target:
 * the chain straight toward it.
 *
 * The error never grows. Distances are measured in the frame of the root's parent, where the chain
 * is rigid (its own joints' scales uniform, as in real rigs); there an unlimited step puts the end on
 * the ray from the joint to the target at its old distance from the joint, which is the closest
 * point it can reach by turning that joint, so the step never moves it away from the target. A limit
 * clamp can, and so can rounding: a step after which the end is farther from the target (in that
 * frame) than before it is undone, and so is a straightening pass for a target out of reach
 * (below) that limits leave worse than the start. So the end–target distance in the root's
 * parent's frame after a solve is at most the distance once the start pose is clamped into its
 * limits (sweeps after a kick, below, may pass through larger errors on the way; a kick that has
 * not paid off when the sweeps run out is undone). Model-space distances are that times the parent's scale; under a non-uniformly scaled
 * parent they need not shrink monotonically.
 *
 * On the line through the root and the target every joint→end vector is parallel to its
 * joint→target vector and a sweep does nothing; and sweeps from many starting poses close in on
 * such a line ever more slowly, with the end short of or past the target and no single joint's turn
 * bringing it closer (a fixed point of CCD that is no answer). So before a sweep, when the chain
 * lies on the line (within 1e-3 rad: {@link ON_LINE}), or near it (0.05 rad: {@link NEAR_LINE})
 * after a sweep that shrank the error by less than 1% ({@link SLOW_GAIN}), folded back on itself or
 * past the target, one joint is turned toward a point beside the end, always the same side, 5% of
 * the chain's length away (`LINE_KICK`): first the end's grandparent joint,
 * then, for each further kick, the next one along, cycling through the chain. (Not for a target
 * too far to reach, whose answer is the chain straight toward it, nor for a straight chain short
 * of the target, which is creeping toward full extension; one-bone chains need no kick. A target
 * too close to reach is answered by the chain folded on the line, the end at the fold's radius from
 * the root: the sweeps stop there; CCD creeps toward that fold, and may end short of it within
 * the cap, or settle on a looser fold when the target is near the root.) The
 * rotations from before the first kick are saved: the kicks are kept once the sweeps after them
 * bring the end closer than it was then, and put back if the sweeps run out first.
 *
 * CCD reaches any reachable target without limits, but slowly near full extension, and with tight
 * limits it may stall short of a reachable target: `status.reached` says which. Unlike
 * {@link FabrikIk} it favours turning the joints near the end. Geometry never throws; a solve
 * allocates nothing and uses no trigonometry.
 */
export class CcdIk {
  /** The skeleton the chain belongs to. */
  readonly skeleton: Skeleton;
  /** The chain's joint indices, root to tip. */
  readonly joints: Int32Array;
  /** The tolerance in model units. */
  readonly tolerance: number;
  /** The sweep cap. */
  readonly maxIterations: number;
  /** The outcome of the last solve (the same object every time). */
  readonly status = new IkStatus();

  private readonly setup: ChainSetup;
  private readonly parentModel = new Float64Array(16);
  private readonly parentInverse = new Float64Array(16);
  /** The target in the root's parent's frame (0…2) and the end there (3…5). */
  private readonly points = new Float64Array(6);
  /** Chain joint positions (model space) and, after them, the sideways kick's target. */
  private readonly line: Float64Array;
  /** The chain's rotations before a kick, 4 per chain joint. */
  private readonly saved: Float64Array;
  /** The target pulled in when far (see solve). */
  private readonly near = new Float64Array(3);
  /** The root's parent (−1 for none): the model matrix a solve reads. */
  private readonly rootParent: Int32Array;
  /** A joint's rotation before its step. */
  private readonly before = new Float64Array(4);
  /** The end during a sweep (0…2) and where a step would take it (3…5). */
  private readonly endPoint = new Float64Array(6);
  /** The state of the solve under way, by name. */
  private readonly state = new CcdSolveState();
  /** The model-space error, as vec3.distanceInto writes it. */
  private readonly distance = new Float64Array(1);
  private readonly scratch = new Float64Array(24);

  /**
   * @throws {@link TendonError} `ik/invalid-joint` for an unknown joint, `ik/not-a-chain` when a
   *   joint is not below the one before it (or there are fewer than two), `ik/invalid-option` for a
   *   bad tolerance, iteration cap or limit.
   */
  constructor(skeleton: Skeleton, options: CcdIkOptions) {
    this.skeleton = skeleton;
    this.setup = setupChain(skeleton, options, 'CcdIk', 64);
    this.joints = this.setup.joints;
    this.rootParent = Int32Array.of(skeleton.parents[this.joints[0]]);
    this.tolerance = this.setup.tolerance;
    this.maxIterations = this.setup.maxIterations;
    const m = this.joints.length;
    this.line = new Float64Array(3 * m + 6);
    this.saved = new Float64Array(4 * m);
  }

  /**
   * Moves the chain's end effector toward `targetModel` (3 numbers, model space) by rewriting the
   * local rotations of the chain's joints (except the end effector's) in `pose`, and updates `model`
   * for the root's subtree. `model` must hold the pose's model matrices, at least for the root's
   * ancestors (the root's subtree is recomputed before the first step). Returns
   * {@link CcdIk.status}.
   *
   * @throws {@link TendonError} `ik/invalid-target` for a target that is not three finite numbers,
   *   `pose/skeleton-mismatch` or `pose/buffer-size` for a pose or buffer of another skeleton,
   *   `pose/not-finite` for a NaN, an infinity or a zero rotation in the local transforms of the
   *   chain (and the joints between) or in the root's parent's model matrix; the pose and the
   *   buffer are then untouched.
   */
  solve(pose: Pose, model: Float64Array, targetModel: Float64Array): IkStatus {
    checkPose(this.skeleton, pose, model, 'CcdIk');
    checkFinite(targetModel, 3, 'CcdIk', 'targetModel');
    checkPoseNumbers(pose, model, this.setup.path, this.rootParent, 'CcdIk');
    // A target farther than vec3.FAR is aimed at through a point in its direction at that distance
    // (its squares would overflow, and out of reach only its direction counts); the error is the
    // real target's.
    const near = this.near;
    if (!vec3.pullIn(near, 0, targetModel, 0, model, 16 * this.joints[0] + 12)) {
      return this.solveWithin(pose, model, targetModel, this.maxIterations);
    }
    const status = this.solveWithin(pose, model, near, this.maxIterations);
    this.modelError(model, targetModel);
    status.error = this.state.error;
    status.reached = status.error <= this.tolerance;
    return status;
  }

  /**
   * {@link CcdIk.solve} without the input checks and with its own cap on the sweeps: how
   * {@link FabrikIk} finishes a limited solve its passes cannot (it has checked the input).
   *
   * @internal
   */
  solveWithin(pose: Pose, model: Float64Array, targetModel: Float64Array, maxIterations: number): IkStatus {
    const status = this.status;
    const st = this.state;
    status.reset();
    this.clampStart(pose, model);
    if (!this.loadParent(model)) {
      // The root's parent collapses space (a zero scale): nothing to aim in. Leave the pose clamped.
      status.degenerate = true;
      status.clamped = st.clamped;
      this.modelError(model, targetModel);
      status.error = st.error;
      status.reached = status.error <= this.tolerance;
      return status;
    }
    this.measureReach(model, targetModel);
    // The straightening pass counts as a sweep (it is one, with the target for every joint's aim).
    st.iterations = 0;
    if (st.dist >= st.reach * (1 - NEAR_FULL_REACH) && st.dist > 0 && maxIterations > 0) {
      this.straighten(pose, model, targetModel);
    }
    // Out of reach, a straightening pass that no limit held back is the answer: a sweep after it
    // changed nothing and was counted (two sweeps reported for one pass).
    if (!(st.iterations === 1 && st.dist > st.reach && !st.clamped)) {
      this.sweepUntilDone(pose, model, targetModel, maxIterations);
    }
    // The sweeps kept only the path to the end current: now the whole subtree.
    subtreeToModel(pose, model, this.joints[0]);
    status.iterations = st.iterations;
    status.clamped = st.clamped;
    this.modelError(model, targetModel);
    status.error = st.error;
    status.reached = status.error <= this.tolerance;
    return status;
  }

  /** Brings limited joints within their limits and recomputes the root's subtree. */
  private clampStart(pose: Pose, model: Float64Array): void {
    const { joints, limits, limited } = this.setup;
    const st = this.state;
    st.clamped = false;
    if (limited) {
      for (let i = 0; i < joints.length; i++) {
        if (clampRotation(pose.rotations, 4 * joints[i], limits, LIMIT_STRIDE * i)) st.clamped = true;
      }
    }
    subtreeToModel(pose, model, joints[0]);
  }

  /** Reads the root's parent's model matrix and inverts it; false when it collapses space. */
  private loadParent(model: Float64Array): boolean {
    const P = this.parentModel;
    const rootParent = this.rootParent[0];
    if (rootParent >= 0) mat4.copy(P, 0, model, 16 * rootParent);
    else mat4.identity(P, 0);
    return mat4.invertAffine(this.parentInverse, 0, P, 0);
  }

  /**
   * The chain's reach and the target's distance from its root, in the root's parent's frame where
   * the chain is rigid; whether it is out of reach, and the fold's radius the sweeps stop at when
   * too close. Leaves the target in that frame at `points[0…2]`.
   */
  private measureReach(model: Float64Array, targetModel: Float64Array): void {
    const joints = this.joints;
    const m = joints.length;
    const Pinv = this.parentInverse;
    const pts = this.points;
    const st = this.state;
    let reach = 0;
    let longest = 0;
    vec3.transformPoint(pts, 0, Pinv, 0, model, 16 * joints[0] + 12);
    for (let i = 1; i < m; i++) {
      vec3.transformPoint(pts, 3, Pinv, 0, model, 16 * joints[i] + 12);
      const dx = pts[3] - pts[0];
      const dy = pts[4] - pts[1];
      const dz = pts[5] - pts[2];
      const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
      reach += d;
      if (d > longest) longest = d;
      vec3.copy(pts, 0, pts, 3);
    }
    vec3.transformPoint(pts, 0, Pinv, 0, model, 16 * joints[0] + 12);
    vec3.transformPoint(pts, 3, Pinv, 0, targetModel, 0);
    const tx = pts[3] - pts[0];
    const ty = pts[4] - pts[1];
    const tz = pts[5] - pts[2];
    const dist = Math.sqrt(tx * tx + ty * ty + tz * tz);
    st.reach = reach;
    st.dist = dist;
    this.status.outOfReach = dist > reach || dist < 2 * longest - reach;
    // Too close, the nearest the end can come (in this frame) is the fold's radius: there, stop.
    st.floor = dist < 2 * longest - reach ? 2 * longest - reach - dist + 1e-12 * reach : -1;
    vec3.copy(pts, 0, pts, 3);
  }

  /**
   * At or out of reach, the answer is the chain straight toward the target; just within reach it
   * may be too, when that leaves the end within the tolerance (sweeps from a chain bent across the
   * line crawl there). Turns each joint, root to tip, so that the next chain joint points at the
   * target (within its limit): one pass lays the chain straight, where sweeps from a chain folded
   * along the line would stay folded. Limits can leave that worse than the start: then the pass is
   * undone (and not counted: the sweeps start from the pose as it was, clamps and all).
   */
  private straighten(pose: Pose, model: Float64Array, targetModel: Float64Array): void {
    const { joints, limits } = this.setup;
    const { rotations, scales } = pose;
    const st = this.state;
    const m = joints.length;
    const endOffset = 16 * joints[m - 1] + 12;
    this.measure(model, endOffset);
    const start = st.local;
    const clampedBefore = st.clamped;
    for (let i = 0; i < m; i++) quat.copy(this.saved, 4 * i, rotations, 4 * joints[i]);
    for (let i = 0; i + 1 < m; i++) {
      const j = joints[i];
      const next = 16 * joints[i + 1] + 12;
      // biome-ignore format: one call
      if (ccdStep(model, 16 * j, model, next, targetModel, 0, rotations, 4 * j, scales, 3 * j, limits, LIMIT_STRIDE * i, this.scratch)) {
        st.clamped = true;
      }
      this.update(pose, model, i);
    }
    this.measure(model, endOffset);
    let keep = st.local <= start;
    if (keep && st.dist < st.reach) {
      this.modelError(model, targetModel);
      keep = st.error <= this.tolerance;
    }
    if (keep) st.iterations = 1;
    else {
      this.restore(pose, model);
      st.clamped = clampedBefore;
    }
  }

  /**
   * Sweeps until the end is within the tolerance, `maxIterations` is reached, the end is at the
   * fold's radius, or a sweep changes nothing off the line; each after a kick off the line when the
   * chain lies on it (see the class doc). A kick still on trial when the sweeps run out is kept
   * only if it has already paid off.
   */
  private sweepUntilDone(
    pose: Pose,
    model: Float64Array,
    targetModel: Float64Array,
    maxIterations: number,
  ): void {
    const st = this.state;
    const m = this.joints.length;
    this.modelError(model, targetModel);
    this.measure(model, 16 * this.joints[m - 1] + 12);
    st.trial = false;
    st.trialStart = 0;
    st.stalled = false;
    st.slow = false;
    st.kicks = 0;
    while (st.error > this.tolerance && st.iterations < maxIterations && st.local > st.floor) {
      // Too far, the straight chain is the answer; too close, the chain folded on the line is, but
      // a chain folded on it the wrong way is a fixed point like those within reach.
      const kicked = m > 2 && !(st.dist > st.reach) && this.kickOffLine(pose, model, targetModel);
      // A sweep that changed nothing, off the line: a fixed point.
      if (st.stalled && !kicked) break;
      const previous = st.local;
      if (this.sweep(pose, model, targetModel)) st.clamped = true;
      st.iterations++;
      st.stalled = false;
      if (st.trial) {
        if (st.local < st.trialStart) st.trial = false;
      } else if (!(st.local < previous - 1e-12 * previous)) {
        // No gain but rounding's: a fixed point (the kicks take over if it is on the line).
        st.stalled = true;
      }
      st.slow = !(st.local < previous - SLOW_GAIN * previous);
      this.modelError(model, targetModel);
    }
    if (st.trial && !(st.local < st.trialStart)) this.restore(pose, model);
  }

  /**
   * On the line a sweep does nothing; near it, sweeps that have slowed down are closing in on a
   * fixed point there (every joint, the end and the target in a line) that is no answer. Then turns
   * one joint (the end's grandparent first, then the next one along, cycling) toward a point beside
   * the end, a fixed side, {@link KICK} of the chain's length away: that takes the chain off the
   * line, and the sweeps can bend it from there. Returns whether it did.
   */
  private kickOffLine(pose: Pose, model: Float64Array, targetModel: Float64Array): boolean {
    const { joints, limits } = this.setup;
    const st = this.state;
    const m = joints.length;
    const line = this.line;
    const kick = 3 * m;
    const stuck = this.lineUp(model, targetModel);
    if (!chainOnLine(line, m, targetModel, 0, line, kick + 3, st.slow && stuck ? NEAR_LINE : ON_LINE))
      return false;
    const rotations = pose.rotations;
    if (!st.trial) {
      for (let i = 0; i < m; i++) quat.copy(this.saved, 4 * i, rotations, 4 * joints[i]);
      st.trial = true;
      st.trialStart = st.local;
    }
    const endOffset = 16 * joints[m - 1] + 12;
    // In place, not vec3.scaleAndAdd: see docs/architecture.md, "Numbers in typed arrays".
    const shift = KICK * st.span;
    line[kick] = model[endOffset] + line[kick + 3] * shift;
    line[kick + 1] = model[endOffset + 1] + line[kick + 4] * shift;
    line[kick + 2] = model[endOffset + 2] + line[kick + 5] * shift;
    const k = (m - 3 + st.kicks) % (m - 1);
    st.kicks++;
    const j = joints[k];
    // biome-ignore format: one call
    if (ccdStep(model, 16 * j, model, endOffset, line, kick, rotations, 4 * j, pose.scales, 3 * j, limits, LIMIT_STRIDE * k, this.scratch)) {
      st.clamped = true;
    }
    this.update(pose, model, k);
    return true;
  }

  /**
   * Copies the chain's joint positions to `line`, its length to `span`, and returns whether it is
   * stuck: folded back on itself (a bone points away from the target) or past the target. A
   * straight chain short of the target is creeping toward full extension, the answer there; a kick
   * would only cost sweeps.
   */
  private lineUp(model: Float64Array, targetModel: Float64Array): boolean {
    const joints = this.joints;
    const m = joints.length;
    const line = this.line;
    const root = joints[0];
    let span = 0;
    let folded = false;
    const tx = targetModel[0] - model[16 * root + 12];
    const ty = targetModel[1] - model[16 * root + 13];
    const tz = targetModel[2] - model[16 * root + 14];
    for (let i = 0; i < m; i++) {
      vec3.copy(line, 3 * i, model, 16 * joints[i] + 12);
      if (i === 0) continue;
      const bx = line[3 * i] - line[3 * i - 3];
      const by = line[3 * i + 1] - line[3 * i - 2];
      const bz = line[3 * i + 2] - line[3 * i - 1];
      span += Math.sqrt(bx * bx + by * by + bz * bz);
      if (bx * tx + by * ty + bz * tz < 0) folded = true;
    }
    this.state.span = span;
    const ex = line[3 * m - 3] - line[0];
    const ey = line[3 * m - 2] - line[1];
    const ez = line[3 * m - 1] - line[2];
    return folded || ex * ex + ey * ey + ez * ez > tx * tx + ty * ty + tz * tz;
  }

  /**
   * One sweep, end to root: each joint's step, undone when it leaves the end farther from the target
   * in the root's parent's frame. Returns whether a limit acted; `local` is the error after it.
   *
   * The model matrices along the path are current on entry and on return. In between only the end
   * is tracked: turning joint `j` moves the end rigidly about it, to `M_parent · (t + R(q′) · e)`,
   * where `e` is the end in the joint's rotation frame (which {@link ccdStep} leaves in
   * `scratch[16…18]`). The matrices of `j` and below go stale, but the steps that follow, at its
   * ancestors, never read them: a sweep costs one path update, not one per joint.
   */
  private sweep(pose: Pose, model: Float64Array, targetModel: Float64Array): boolean {
    const { joints, limits } = this.setup;
    const { translations, rotations, scales } = pose;
    const parents = this.skeleton.parents;
    const m = joints.length;
    const e = this.endPoint;
    const sc = this.scratch;
    const before = this.before;
    const st = this.state;
    vec3.copy(e, 0, model, 16 * joints[m - 1] + 12);
    this.measure(e, 0);
    let local = st.local;
    let clamped = false;
    for (let i = m - 2; i >= 0; i--) {
      const j = joints[i];
      const qo = 4 * j;
      quat.copy(before, 0, rotations, qo);
      // biome-ignore format: one call
      if (ccdStep(model, 16 * j, e, 0, targetModel, 0, rotations, qo, scales, 3 * j, limits, LIMIT_STRIDE * i, sc)) {
        clamped = true;
      }
      if (
        rotations[qo] === before[0] &&
        rotations[qo + 1] === before[1] &&
        rotations[qo + 2] === before[2] &&
        rotations[qo + 3] === before[3]
      ) {
        continue; // unturned (or a singular frame): the end stays
      }
      // The end after the turn, at e[3…5].
      quat.rotateVec3(e, 3, rotations, qo, sc, 16);
      e[3] += translations[3 * j];
      e[4] += translations[3 * j + 1];
      e[5] += translations[3 * j + 2];
      const parent = parents[j];
      if (parent >= 0) vec3.transformPoint(e, 3, model, 16 * parent, e, 3);
      this.measure(e, 3);
      if (st.local > local) {
        quat.copy(rotations, qo, before, 0);
      } else {
        local = st.local;
        vec3.copy(e, 0, e, 3);
      }
    }
    this.update(pose, model, 0);
    st.local = local;
    return clamped;
  }

  /** Puts back the rotations saved before a kick and recomputes the path. */
  private restore(pose: Pose, model: Float64Array): void {
    const joints = this.joints;
    for (let i = 0; i < joints.length; i++) quat.copy(pose.rotations, 4 * joints[i], this.saved, 4 * i);
    this.update(pose, model, 0);
  }

  /** Recomputes the model matrices from chain joint `i` down the path to the end (not side branches). */
  private update(pose: Pose, model: Float64Array, i: number): void {
    const { path, pathStart } = this.setup;
    // biome-ignore format: one call
    localToModelAlong(model, this.skeleton.parents, pose.translations, pose.rotations, pose.scales, path, pathStart[i]);
  }

  /**
   * `local` = the distance from the model-space point `p[o…]` to the target, in the root's parent's
   * frame (the target there is `points[0…2]`). Written, not returned: see docs/architecture.md,
   * "Numbers in typed arrays".
   */
  private measure(p: Float64Array, o: number): void {
    const pts = this.points;
    vec3.transformPoint(pts, 3, this.parentInverse, 0, p, o);
    const dx = pts[3] - pts[0];
    const dy = pts[4] - pts[1];
    const dz = pts[5] - pts[2];
    this.state.local = Math.sqrt(dx * dx + dy * dy + dz * dz);
  }

  /** `error` = the model-space distance from the end joint to the target. */
  private modelError(model: Float64Array, targetModel: Float64Array): void {
    vec3.distanceInto(this.distance, 0, model, 16 * this.joints[this.joints.length - 1] + 12, targetModel, 0);
    this.state.error = this.distance[0];
  }
}

/**
 * The state of one {@link CcdIk} solve, by name: numbers over a typed array (docs/architecture.md,
 * "Numbers in typed arrays"), flags and counts as plain fields.
 */
class CcdSolveState {
  private readonly numbers = new Float64Array(7);
  /** Sweeps used so far (the straightening pass counts as one). */
  iterations = 0;
  /** Kicks off the line so far: the next one turns the next joint along. */
  kicks = 0;
  /** A limit acted on the pose the sweeps leave. */
  clamped = false;
  /** Kicks on trial since the error was `trialStart`: kept once the end gets closer than that. */
  trial = false;
  /** The last sweep changed nothing (off the line: a fixed point). */
  stalled = false;
  /** The last sweep gained less than SLOW_GAIN of the error: the chain is settling on a fixed point. */
  slow = false;

  /** The end's distance from the target in the root's parent's frame (measure writes it). */
  get local(): number {
    return this.numbers[0];
  }
  set local(distance: number) {
    this.numbers[0] = distance;
  }

  /** The end's model-space distance from the target (modelError writes it). */
  get error(): number {
    return this.numbers[1];
  }
  set error(distance: number) {
    this.numbers[1] = distance;
  }

  /** The chain's length in the root's parent's frame. */
  get reach(): number {
    return this.numbers[2];
  }
  set reach(length: number) {
    this.numbers[2] = length;
  }

  /** The target's distance from the root in the root's parent's frame. */
  get dist(): number {
    return this.numbers[3];
  }
  set dist(length: number) {
    this.numbers[3] = length;
  }

  /** The fold's radius the sweeps stop at for a target too close to reach (−1: none). */
  get floor(): number {
    return this.numbers[4];
  }
  set floor(distance: number) {
    this.numbers[4] = distance;
  }

  /** `local` when the kicks on trial began. */
  get trialStart(): number {
    return this.numbers[5];
  }
  set trialStart(distance: number) {
    this.numbers[5] = distance;
  }

  /** The chain's length in model space, as the kick measures it. */
  get span(): number {
    return this.numbers[6];
  }
  set span(length: number) {
    this.numbers[6] = length;
  }
}
