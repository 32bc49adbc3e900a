/**
 * FABRIK: forward-and-backward-reaching IK over a chain of any length (docs/methods.md §4).
 *
 * @packageDocumentation
 */
import { TendonError } from '../errors.js';
import { LINE_KICK as KICK, NEAR_LINE, ON_LINE, SLOW_GAIN } from '../kernel/chain-line.js';
import {
  fabrikBackward,
  fabrikExtrapolate,
  fabrikForward,
  fabrikStraight,
  fabrikUnfold,
} from '../kernel/fabrik.js';
import {
  aimJoint,
  clampRotation,
  LIMIT_AXIS,
  LIMIT_KIND,
  LIMIT_NONE,
  LIMIT_STRIDE,
  LIMIT_TWIST,
} from '../kernel/joint-limits.js';
import { localToModel } from '../kernel/local-to-model.js';
import * as mat4 from '../kernel/mat4.js';
import * as quat from '../kernel/quat.js';
import * as trs from '../kernel/trs.js';
import * as vec3 from '../kernel/vec3.js';
import type { Pose } from '../pose/pose.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import { CcdIk } from './ccd.js';
import { checkFinite, checkPose, checkPoseNumbers } from './chain.js';
import { type ChainIkOptions, type ChainSetup, setupChain } from './chain-setup.js';
import { DlsRefine, REFINE_GAIN } from './dls-refine.js';
import { FabrikSolveState } from './fabrik-state.js';
import { IkStatus } from './ik-status.js';

// Tuning of the passes and of the rescue (see the class doc for how they act together).

/** Within this share of full reach the answer lies near the line, so a slow chain is not kicked off it. */
const NEAR_FULL_REACH = 0.01;

/** A point a limit moved by more than this share of the reach from FABRIK's own pass was held by it. */
const HELD = 1e-9;

/** A limited iteration that shrinks the error by less than this share of the best so far is still. */
const STALL_GAIN = 5e-2;

/** Still iterations in a row after which a limited solve hands over: one still pass may be noise. */
const STALL_ITERATIONS = 3;

/** A hand-over leaving the chain no closer than this share of the closest earlier one is stuck. */
const STUCK_GAIN = 0.5;

/** Damped least-squares steps per hand-over, at most: where they converge they need a few. */
const REFINE_STEPS = 8;

/** CCD sweeps per hand-over: one nudges the chain off its stall; the passes converge faster from there. */
const HAND_OVER_SWEEPS = 1;

/** How far from uniform a scale may be (relative) for the positional passes and the steps. */
const NEARLY_UNIFORM = 1e-5;

/**
 * A chain bent across its root–end line by more than this share of its reach has a side to
 * remember (see rememberSide): less is the rounding of a straight chain, not a bend.
 */
const SIDE_MIN = 1e-3;

/** {@link scaleUniformity}'s answers. */
const UNIFORM = 2;
const NEARLY_UNIFORM_SCALE = 1;
const NOT_UNIFORM = 0;

/**
 * Options of {@link FabrikIk}: those of every chain solver. `maxIterations` caps the
 * backward/forward iterations (default `64`).
 */
export type FabrikIkOptions = ChainIkOptions;

/**
 * FABRIK on a chain of joints, writing local rotations.
 *
 * A solve, in the order {@link FabrikIk.solve} reads (docs/methods.md §4; docs/solvers.md for what
 * each part is for and its tuning, docs/performance.md for what it buys, measured):
 * 1. Load and measure. The chain's joint positions are computed in the frame of the root's parent,
 *    `P = M_parent(root)`, where the chain is rigid whatever `P` is (rotated, scaled, mirrored), so
 *    segment lengths are constants there. The chain's own bones are assumed to have uniform scale,
 *    as real rigs do (with non-uniform scale inside the chain the result is approximate); scales
 *    within `NEARLY_UNIFORM` of uniform (float32 noise of exported rigs) count as uniform for
 *    the positional passes, whose rotations are then checked against the tolerance once more.
 * 2. Straight. Out of reach (farther than the chain's length), or so near full reach that the chain
 *    laid straight toward the target is within the tolerance (with limits: once built within
 *    them), the chain is laid straight, and `status.outOfReach` says which; where the limits
 *    leave it farther from the target than it began, the start (within its limits) stays.
 * 3. The passes (`runPasses`): backward and forward passes until the end is within
 *    `tolerance` of the target (model space) or `maxIterations` is hit. Without limits (and with
 *    uniform scales) they are FABRIK's positional ones, the rotations read off the points once at
 *    the end; otherwise every forward pass builds rotations, root to tip, each the minimal turn (a
 *    hinge: about its axis) from where the child sits to its solved point, composed on the right of
 *    the joint's start-of-solve rotation (which keeps its twist), clamped into the joint's limit
 *    right there, the child's point recomputed from the result. So the points the passes see are
 *    always limited and rigid, and {@link FabrikIk.solvedPositions} is exactly the forward
 *    kinematics of the rotations written. Each pass may first kick a chain lying on the
 *    root–target line off it (`unfold`: the line is a fixed point of the passes),
 *    toward the side it bent to last (given or solved); after two plain iterations whose moves
 *    form a series, the points jump to where it ends (`jump`), kept only when closer.
 * 4. With limits, the rescue of a stalled chain (`rescue`). The passes can settle
 *    short of a target the limits allow (a hinge pulls the chain back each forward pass to where
 *    the backward pass leaves it again; the backward pass cannot apply limits, a joint's frame
 *    depending on ancestors only the forward pass places). After `STALL_ITERATIONS` held
 *    iterations without progress (`stalled`), the chain is handed over
 *    (`handOver`): to damped least-squares steps on the joints' angles within their
 *    limits (`DlsRefine`), kept when they halve the error, else to a CCD sweep ({@link CcdIk}),
 *    kept when closer. The passes go on from a kept hand-over's pose; when the hand-overs stop
 *    paying, the solve is stuck in a local minimum of the limits and restarts once from the middle
 *    of the limits (`restartFromMiddle`). The answer is never farther from the target
 *    than the closest pose a hand-over kept, or the pose the restart left. `status.iterations`
 *    counts passes, jumps' passes, steps and sweeps.
 * 5. Finish: the rotations are written to the pose (the limits hold there to rounding, ~1e-15), and
 *    the model matrices of the root's subtree are recomputed.
 *
 * Geometry never throws: a target on the root, a straight chain, zero-length bones or a target
 * behind the chain give a finite pose and a status that says what happened. A solve allocates
 * nothing and uses no trigonometry: the same inputs give bit-identical poses on every engine.
 */
export class FabrikIk {
  /** The skeleton the chain belongs to. */
  readonly skeleton: Skeleton;
  /** The chain's joint indices, root to tip. */
  readonly joints: Int32Array;
  /** The tolerance in model units. */
  readonly tolerance: number;
  private readonly toleranceSq: number;
  /** The iteration cap. */
  readonly maxIterations: number;
  /** The outcome of the last solve (the same object every time). */
  readonly status = new IkStatus();
  /**
   * The chain's joint positions the last solve arrived at, in model space (`3` numbers per chain
   * joint, root to tip): the forward kinematics of the rotations it wrote, up to rounding.
   */
  readonly solvedPositions: Float64Array;

  private readonly setup: ChainSetup;
  // Per chain joint, in the frame of the root's parent.
  private readonly positions: Float64Array;
  /** The points after the last iteration, and the move that iteration made (extrapolation). */
  private readonly previous: Float64Array;
  private readonly change: Float64Array;
  private readonly lengths: Float64Array;
  private readonly t: Float64Array;
  private readonly s: Float64Array;
  private readonly qBase: Float64Array;
  private readonly q: Float64Array;
  /** The rotations of the last iteration, back when its extrapolation is not kept. */
  private readonly qPrevious: Float64Array;
  /** With limits: where FABRIK's own forward pass would put the points, to see whether a limit held them. */
  private readonly free: Float64Array;
  /** With limits: the points and rotations of the closest hand-over kept so far in a solve. */
  private readonly sweptPositions: Float64Array;
  private readonly sweptRotations: Float64Array;
  /**
   * With limits: the closer of the pose a stuck solve was in and the closest hand-over kept before,
   * kept when it restarted from the limits' middle.
   */
  private readonly stuckPositions: Float64Array;
  private readonly stuckRotations: Float64Array;
  /** With limits: the pose a stuck solve restarts from, each joint at the middle of its limits. */
  private readonly middle: Float64Array;
  /** Composite transform of the joints between chain joint i and i + 1 (identity if none). */
  private readonly between: Float64Array;
  /** Child offset of chain joint i in its rotation frame. */
  private readonly offsets: Float64Array;
  /** Parent frame of chain joint i (in the root's parent's frame). */
  private readonly frames: Float64Array;
  private readonly parentModel = new Float64Array(16);
  private readonly parentInverse = new Float64Array(16);
  private readonly matrix = new Float64Array(16);
  private readonly inverse = new Float64Array(16);
  /** The side the chain bent to in its last bent pose, given or solved, root's parent frame (zero: none yet). */
  private readonly side = new Float64Array(3);
  private readonly targetLocal = new Float64Array(3);
  private readonly vector = new Float64Array(8);
  private readonly aimScratch = new Float64Array(12);
  /** The state of the solve under way, by name. */
  private readonly state = new FabrikSolveState();
  /** With limits: the CCD sweep that nudges the chain where the passes stall (see the class doc). */
  private readonly finisher: CcdIk | null;
  /** With limits: the damped least-squares steps tried first at a stall (see the class doc). */
  private readonly refiner: DlsRefine | null;
  /** The status of the hand-over's finisher whose pose was kept (or ran last). */
  private handed: IkStatus;
  /** Iterations the last hand-over used, sweeps and steps together; 1 when its steps failed. */
  private readonly used = new Int32Array(2);
  /** The root's parent (−1 for none): the model matrix a solve reads. */
  private readonly rootParent: Int32Array;

  /**
   * @throws {@link TendonError} `ik/invalid-joint` for an unknown joint, `ik/not-a-chain` when a
   *   joint is not below the one before it (or there are fewer than two), `ik/invalid-option` for a
   *   bad tolerance, iteration cap or limit.
   */
  constructor(skeleton: Skeleton, options: FabrikIkOptions) {
    this.skeleton = skeleton;
    this.setup = setupChain(skeleton, options, 'FabrikIk', 64);
    this.joints = this.setup.joints;
    this.rootParent = Int32Array.of(skeleton.parents[this.joints[0]]);
    this.tolerance = this.setup.tolerance;
    this.toleranceSq = this.tolerance * this.tolerance;
    this.maxIterations = this.setup.maxIterations;
    const m = this.joints.length;
    this.solvedPositions = new Float64Array(3 * m);
    this.positions = new Float64Array(3 * m);
    this.previous = new Float64Array(3 * m);
    this.change = new Float64Array(3 * m);
    this.lengths = new Float64Array(m - 1);
    this.t = new Float64Array(3 * m);
    this.s = new Float64Array(3 * m);
    this.qBase = new Float64Array(4 * m);
    this.q = new Float64Array(4 * m);
    this.qPrevious = new Float64Array(4 * m);
    this.free = new Float64Array(3 * m);
    this.sweptPositions = new Float64Array(3 * m);
    this.sweptRotations = new Float64Array(4 * m);
    this.stuckPositions = new Float64Array(3 * m);
    this.stuckRotations = new Float64Array(4 * m);
    this.middle = limitsMiddle(skeleton, this.setup);
    this.between = new Float64Array(16 * (m - 1));
    this.offsets = new Float64Array(3 * (m - 1));
    this.frames = new Float64Array(16 * m);
    this.finisher = this.setup.limited ? new CcdIk(skeleton, options) : null;
    this.refiner = this.setup.limited
      ? new DlsRefine(skeleton, this.setup, this.parentModel, this.parentInverse)
      : null;
    this.handed = this.status;
  }

  /**
   * Moves the chain's end effector toward `targetModel` (3 numbers, model space) by rewriting the
   * local rotations of the chain's joints (except the end effector's) in `pose`, then updates
   * `model` for the root's subtree. `model` must hold the pose's model matrices, at least for the
   * root's ancestors (the solver reads the root's parent from it). Returns {@link FabrikIk.status}.
   *
   * @throws {@link TendonError} `ik/invalid-target` for a target that is not three finite numbers,
   *   `pose/skeleton-mismatch` or `pose/buffer-size` for a pose or buffer of another skeleton,
   *   `pose/not-finite` for a NaN, an infinity or a zero rotation in the local transforms of the
   *   chain (and the joints between) or in the root's parent's model matrix; the pose and the
   *   buffer are then untouched.
   */
  solve(pose: Pose, model: Float64Array, targetModel: Float64Array): IkStatus {
    checkPose(this.skeleton, pose, model, 'FabrikIk');
    checkFinite(targetModel, 3, 'FabrikIk', 'targetModel');
    checkPoseNumbers(pose, model, this.setup.path, this.rootParent, 'FabrikIk');
    const status = this.status;
    status.reset();
    if (!this.loadParent(model)) {
      // The root's parent collapses space (a zero scale): nothing to aim in. Leave the pose as is.
      status.degenerate = true;
      this.writeError(model, this.joints[this.joints.length - 1], targetModel);
      status.reached = status.error <= this.tolerance;
      return status;
    }
    this.loadTarget(model, targetModel);
    this.loadChain(pose);
    this.measureChain();
    const st = this.state;
    const within = st.dist < st.reach && this.withinTolerance(targetModel);
    if (st.dist >= st.reach) this.layStraight(true);
    else if (!within && this.straightWithin(targetModel)) this.layStraight(false);
    else if (!within) this.runPasses(pose, model, targetModel);
    if (st.finished) this.finishHandedOver(model);
    else this.finishPasses(pose, model, targetModel);
    return status;
  }

  // ---------------------------------------------------------------------------------------------
  // Loading: the chain in the frame of the root's parent.

  /** Reads the root's parent's model matrix and inverts it; false when it collapses space. */
  private loadParent(model: Float64Array): boolean {
    const P = this.parentModel;
    const rootParent = this.rootParent[0];
    if (rootParent >= 0) mat4.copy(P, 0, model, 16 * rootParent);
    else mat4.identity(P, 0);
    return mat4.invertAffine(this.parentInverse, 0, P, 0);
  }

  /** The target in the root's parent's frame, {@link FabrikIk.targetLocal}. */
  private loadTarget(model: Float64Array, targetModel: Float64Array): void {
    const tau = this.targetLocal;
    // A target farther than vec3.FAR is aimed at through a point in its direction at that distance
    // (its squares would overflow, and out of reach only its direction counts).
    vec3.pullIn(tau, 0, targetModel, 0, model, 16 * this.joints[0] + 12);
    vec3.transformPoint(tau, 0, this.parentInverse, 0, tau, 0);
  }

  /**
   * Loads the chain's local transforms from the pose (limited joints from their limited rotation),
   * the offsets of each child in its joint's rotation frame, and whether the scales along the chain
   * are uniform. Resets the solve's state.
   */
  private loadChain(pose: Pose): void {
    const { joints, limits, limited } = this.setup;
    const m = joints.length;
    const { t, s, qBase } = this;
    const st = this.state;
    st.clamped = false;
    // Positional passes need segment lengths that no rotation changes: no limits, and uniform scale
    // (mirrored or not) on every joint of the chain and between its joints. Otherwise every pass
    // builds rotations. Nearly uniform scales (float32 noise in an exported rig) keep lengths to
    // that noise: positional passes still, with a check of the rotations they give (rebuiltWithin).
    st.uniform = true;
    st.nearly = true;
    for (let i = 0; i < m; i++) {
      const j = joints[i];
      vec3.copy(t, 3 * i, pose.translations, 3 * j);
      vec3.copy(s, 3 * i, pose.scales, 3 * j);
      this.noteScale(s, 3 * i);
      quat.normalize(qBase, 4 * i, pose.rotations, 4 * j);
      if (limited && clampRotation(qBase, 4 * i, limits, LIMIT_STRIDE * i)) st.clamped = true;
    }
    for (let i = 0; i + 1 < m; i++) this.loadOffset(pose, i);
    st.finished = false;
    st.handedOver = false;
    st.iterations = 0;
  }

  /** Notes the uniformity of the scale at `s[o…]` in the solve's state (see scaleUniformity). */
  private noteScale(s: Float64Array, o: number): void {
    const kind = scaleUniformity(s, o);
    if (kind !== UNIFORM) this.state.uniform = false;
    if (kind === NOT_UNIFORM) this.state.nearly = false;
  }

  /** The child's offset in chain joint i's rotation frame, S_i · (K_i · t_{i+1}), and K_i. */
  private loadOffset(pose: Pose, i: number): void {
    const { betweenStart, between } = this.setup;
    const { t, s, offsets } = this;
    const K = this.between;
    const ko = 16 * i;
    if (betweenStart[i] === betweenStart[i + 1]) {
      // Nothing in between: the offset is S_i · t_{i+1} (and K_i is never read).
      offsets[3 * i] = t[3 * i + 3] * s[3 * i];
      offsets[3 * i + 1] = t[3 * i + 4] * s[3 * i + 1];
      offsets[3 * i + 2] = t[3 * i + 5] * s[3 * i + 2];
      return;
    }
    mat4.identity(K, ko);
    for (let b = betweenStart[i]; b < betweenStart[i + 1]; b++) {
      const j = between[b];
      this.noteScale(pose.scales, 3 * j);
      trs.compose(this.matrix, 0, pose.translations, 3 * j, pose.rotations, 4 * j, pose.scales, 3 * j);
      mat4.multiplyAffine(K, ko, K, ko, this.matrix, 0);
    }
    vec3.transformPoint(offsets, 3 * i, K, ko, t, 3 * (i + 1));
    offsets[3 * i] *= s[3 * i];
    offsets[3 * i + 1] *= s[3 * i + 1];
    offsets[3 * i + 2] *= s[3 * i + 2];
  }

  /**
   * Where the chain is now, its segment lengths, its reach and the target's distance from its root
   * (whether it is out of reach); remembers the side the pose bends to.
   */
  private measureChain(): void {
    const st = this.state;
    this.forwardPass(false, st.uniform);
    st.positional = st.nearly && !this.setup.limited;
    const m = this.joints.length;
    const { positions: pos, lengths, targetLocal: tau } = this;
    let reach = 0;
    let longest = 0;
    for (let i = 0; i + 1 < m; i++) {
      const dx = pos[3 * i + 3] - pos[3 * i];
      const dy = pos[3 * i + 4] - pos[3 * i + 1];
      const dz = pos[3 * i + 5] - pos[3 * i + 2];
      const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
      lengths[i] = d;
      reach += d;
      if (d > longest) longest = d;
    }
    const tx = tau[0] - pos[0];
    const ty = tau[1] - pos[1];
    const tz = tau[2] - pos[2];
    const dist = Math.sqrt(tx * tx + ty * ty + tz * tz);
    st.reach = reach;
    st.dist = dist;
    // Farther than the chain reaches, or closer than it can fold (one bone longer than the rest).
    this.status.outOfReach = dist > reach || dist < 2 * longest - reach;
    // The pose's own bend, when it has one, is the side to kick a straightened chain toward: it is
    // the latest word on the bend (animation may have rewritten the pose since the last solve), and
    // the memory is for a pose left straight.
    this.rememberSide();
  }

  /** Out of reach, or so near full reach that it is the answer: the chain laid straight toward the target. */
  private layStraight(outOfReach: boolean): void {
    const st = this.state;
    const pos = this.positions;
    const tau = this.targetLocal;
    const P = this.parentModel;
    const e = 3 * (this.joints.length - 1);
    // The end's offset from the target, in model space (the parent's 3×3 of the offset in its
    // frame: a parent scaled non-uniformly changes the ratio of two distances).
    let x = pos[e] - tau[0];
    let y = pos[e + 1] - tau[1];
    let z = pos[e + 2] - tau[2];
    let mx = P[0] * x + P[4] * y + P[8] * z;
    let my = P[1] * x + P[5] * y + P[9] * z;
    let mz = P[2] * x + P[6] * y + P[10] * z;
    const startSq = mx * mx + my * my + mz * mz;
    fabrikStraight(pos, this.lengths, this.joints.length, tau, 0);
    const clamped = this.forwardPass(true, st.uniform);
    st.clamped = clamped || st.clamped;
    st.iterations = 1;
    // Out of reach, limits can leave the straightened chain farther from the target than it began
    // (7 of 900 seeded chains, up to 1.35× until 27 November; a hostile test): the start, within
    // its limits, is then the answer, as CCD's sweeps keep it. (Not near full reach, where the
    // straight chain was found within the tolerance. Unlimited, the chain points at the target,
    // as asked, though under a parent scaled non-uniformly another direction may reach nearer.)
    if (clamped && outOfReach) {
      x = pos[e] - tau[0];
      y = pos[e + 1] - tau[1];
      z = pos[e + 2] - tau[2];
      mx = P[0] * x + P[4] * y + P[8] * z;
      my = P[1] * x + P[5] * y + P[9] * z;
      mz = P[2] * x + P[6] * y + P[10] * z;
      if (mx * mx + my * my + mz * mz > startSq) this.forwardPass(false, st.uniform);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The passes: backward and forward, kicked off the line, extrapolated (docs/methods.md §4).

  /**
   * Backward and forward passes until the end is within the tolerance or the iterations run out,
   * each followed by a jump ahead when the moves form a series; with limits, a stall hands the chain
   * to the rescue (`rescue`).
   */
  private runPasses(pose: Pose, model: Float64Array, targetModel: Float64Array): void {
    const st = this.state;
    const limited = this.setup.limited;
    this.startPasses();
    while (st.iterations < this.maxIterations) {
      if (this.pass(targetModel)) break;
      const held = this.limitHeld();
      // Compared squared: (1 − g)² ≈ 1 − 2g.
      st.slow = !(st.errorSq < st.lastErrorSq * (1 - 2 * SLOW_GAIN));
      st.lastErrorSq = st.errorSq;
      st.plain++;
      if (limited) this.qPrevious.set(this.q);
      if (st.positional || limited) {
        const m = this.joints.length;
        if (
          fabrikExtrapolate(this.positions, this.previous, this.change, m, st.plain >= 2) &&
          this.jump(targetModel)
        ) {
          break;
        }
      }
      if (limited && !st.handedOver && this.stalled(held) && this.rescue(pose, model, targetModel)) break;
    }
    this.endPasses(targetModel);
  }

  /** The state the passes start from. */
  private startPasses(): void {
    const st = this.state;
    // Within NEAR_FULL_REACH the answer lies near the line to the target: kicking a slow chain off
    // it would undo the passes' progress every time they slow down, which they do there as they
    // straighten a bent chain. Not so for a chain too straight for the target (see unfold).
    st.nearLineKicks = st.dist < (1 - NEAR_FULL_REACH) * st.reach;
    st.kick[0] = KICK * st.reach;
    st.lastErrorSq = Number.POSITIVE_INFINITY;
    st.sweptErrorSq = Number.POSITIVE_INFINITY;
    st.stuckErrorSq = Number.POSITIVE_INFINITY;
    st.slow = false;
    st.passClamped = false;
    st.bestSq = Number.POSITIVE_INFINITY;
    st.still = 0;
    st.refine = st.nearly;
    st.restarted = false;
    st.fromMiddle = false;
    st.stuckClamped = false;
    st.handedBestSq = Number.POSITIVE_INFINITY;
    st.plain = 0;
    this.previous.set(this.positions);
    this.change.fill(0);
  }

  /**
   * One iteration: the kick off the line when needed, a backward pass, a forward pass (placing
   * points, or building rotations). Returns whether the end is then within the tolerance.
   */
  private pass(targetModel: Float64Array): boolean {
    const st = this.state;
    const { positions: pos, lengths, t, targetLocal: tau } = this;
    const m = this.joints.length;
    if (!this.status.outOfReach) this.unfold();
    fabrikBackward(pos, lengths, m, tau, 0);
    if (this.setup.limited && !st.handedOver) {
      // FABRIK's own forward pass, to tell whether a limit held the chain's (see limitHeld).
      this.free.set(pos);
      fabrikForward(this.free, lengths, m, t, 0);
    }
    // Positional, the forward pass places points (the root is its translation, `t[0…2]`) and the
    // rotations are read off them once, after the loop; otherwise the rotations are built in every
    // pass (limits act in each joint's frame; non-uniform scale bends lengths).
    if (!st.positional) st.passClamped = this.forwardPass(true, st.uniform);
    else fabrikForward(pos, lengths, m, t, 0);
    st.iterations++;
    return this.converged(targetModel);
  }

  /**
   * Kicks a chain lying on the root–target line off it, toward the side it bent to (see the class
   * doc). A folded chain collapses onto the line within a pass or two and then stays there (the
   * line is an attracting fixed point of the passes): checked before every pass, with a wider margin
   * once the passes slow down near it. Not for a target too close to reach: the chain folded on the
   * line is then the answer.
   */
  private unfold(): void {
    const st = this.state;
    const pos = this.positions;
    const m = this.joints.length;
    let sinSq = st.slow && st.nearLineKicks ? NEAR_LINE : ON_LINE;
    if (st.slow && !st.nearLineKicks) {
      // Near full reach, a chain whose end is farther from the root than the target is too
      // straight: it must bend more, and the passes bend a nearly straight chain by a factor of
      // only about 1 + 2e/l per iteration (e its overshoot, l a bone). Their moves then grow (a
      // ratio above 1), which the extrapolation cannot follow. Kicked off the line, it is bent more
      // than the answer, and the passes straighten it the way they converge (and extrapolate)
      // elsewhere.
      const ex = pos[3 * m - 3] - pos[0];
      const ey = pos[3 * m - 2] - pos[1];
      const ez = pos[3 * m - 1] - pos[2];
      const dist = st.dist;
      if (ex * ex + ey * ey + ez * ez > dist * dist) sinSq = NEAR_LINE;
    }
    fabrikUnfold(pos, m, this.targetLocal, 0, st.kick, 0, this.inverse, sinSq, this.side, 0);
  }

  /**
   * Whether the end is within the tolerance; under nearly uniform scales, of the rotations built
   * from the points too (positional passes then go on building rotations when they are not).
   */
  private converged(targetModel: Float64Array): boolean {
    const st = this.state;
    if (!this.withinTolerance(targetModel)) return false;
    if (st.uniform || !st.positional || this.rebuiltWithin(targetModel)) {
      st.positional = st.positional && st.uniform;
      return true;
    }
    st.positional = false;
    return false;
  }

  /**
   * With limits (before a failed hand-over), whether a limit held a point away from where FABRIK's
   * own forward pass put it. An iteration no limit held is FABRIK's, which converges on a reachable
   * target (slowly near full reach, where the jumps carry it): only held ones count toward a stall.
   */
  private limitHeld(): boolean {
    if (!this.setup.limited || this.state.handedOver) return false;
    const { positions: pos, free } = this;
    const reach = this.state.reach;
    const limit = HELD * reach * HELD * reach;
    let held = false;
    for (let k = 3; k < 3 * this.joints.length; k += 3) {
      const dx = pos[k] - free[k];
      const dy = pos[k + 1] - free[k + 1];
      const dz = pos[k + 2] - free[k + 2];
      if (dx * dx + dy * dy + dz * dz > limit) held = true;
    }
    return held;
  }

  /**
   * The points have jumped ahead (fabrikExtrapolate): lengths back (root fixed), and the jump kept
   * only when closer to the target than the iteration. With limits, the forward pass builds the
   * chain toward the jumped points, within the limits: its points are then those of rotations
   * again. Returns whether the end is within the tolerance.
   */
  private jump(targetModel: Float64Array): boolean {
    const st = this.state;
    const pos = this.positions;
    let jumpClamped = false;
    if (st.positional) fabrikForward(pos, this.lengths, this.joints.length, this.t, 0);
    else jumpClamped = this.forwardPass(true, st.uniform);
    if (this.converged(targetModel)) {
      st.passClamped = jumpClamped;
      return true;
    }
    if (st.errorSq < st.lastErrorSq) {
      st.lastErrorSq = st.errorSq;
      this.previous.set(pos);
      st.passClamped = jumpClamped;
    } else {
      pos.set(this.previous);
      if (this.setup.limited) this.q.set(this.qPrevious);
    }
    this.change.fill(0);
    st.plain = 0;
    return false;
  }

  /**
   * With limits: whether the passes have stalled, `STALL_ITERATIONS` held iterations in a row
   * not bettering the best error by {@link STALL_GAIN} (a kept jump counts as progress).
   */
  private stalled(held: boolean): boolean {
    const st = this.state;
    if (st.lastErrorSq < st.bestSq * (1 - 2 * STALL_GAIN)) {
      st.bestSq = st.lastErrorSq;
      st.still = 0;
      st.refine = st.nearly;
      return false;
    }
    if (!(held && ++st.still === STALL_ITERATIONS && st.iterations < this.maxIterations)) return false;
    st.still = 0;
    return true;
  }

  /**
   * After the passes: rotations from positional points, and the closest kept hand-over or the pose
   * kept at the restart in their place when it is closer (a kept hand-over's clamping is already
   * counted).
   */
  private endPasses(targetModel: Float64Array): void {
    const st = this.state;
    if (st.positional) st.passClamped = this.forwardPass(true, st.uniform);
    if (!st.finished && this.putBackIfCloser(targetModel, false)) st.passClamped = false;
    if (!st.finished && this.putBackIfCloser(targetModel, true)) {
      st.passClamped = false;
      st.clamped = st.stuckClamped;
    }
    st.clamped = st.passClamped || st.clamped;
  }

  // ---------------------------------------------------------------------------------------------
  // The rescue of a stalled limited chain: hand-over to the finishers, restart from the middle.

  /**
   * The passes have stalled where the limits hold them: hands the chain over (from the closest kept
   * hand-over, once, when the passes wandered farther), then goes on from the result, and restarts
   * from the limits' middle once the hand-overs stop making progress. Returns whether the solve is
   * finished (a hand-over's pose within the tolerance).
   */
  private rescue(pose: Pose, model: Float64Array, targetModel: Float64Array): boolean {
    const st = this.state;
    const restart = !st.restarted && st.sweptErrorSq < st.lastErrorSq;
    if (restart) this.returnToSwept();
    const kept = this.handOver(pose, model, targetModel, this.maxIterations - st.iterations, st.refine);
    st.iterations += this.used[0];
    if (this.used[1] > 0) st.refine = false;
    if (!kept && restart) {
      // Nothing better there: the passes go on from where they were.
      this.positions.set(this.free);
      this.q.set(this.qPrevious);
    } else if (!kept) {
      st.handedOver = true;
    } else if (this.handed.error <= this.tolerance) {
      st.finished = true;
      return true;
    } else {
      this.continueFromHandOver(pose, model);
    }
    // lastErrorSq: the squared error of the pose the passes go on from.
    const stuck = st.handedOver || !(st.lastErrorSq < STUCK_GAIN * STUCK_GAIN * st.handedBestSq);
    if (st.lastErrorSq < st.handedBestSq) st.handedBestSq = st.lastErrorSq;
    if (!st.fromMiddle && stuck && st.iterations < this.maxIterations) {
      // The numbers of the restart here, the arrays in restartFromMiddle: it runs too rarely for V8
      // to optimize it, and unoptimized code boxes every double it reads (docs/architecture.md).
      const fromSwept = st.sweptErrorSq < st.lastErrorSq;
      st.stuckErrorSq = fromSwept ? st.sweptErrorSq : st.lastErrorSq;
      st.sweptErrorSq = Number.POSITIVE_INFINITY;
      st.bestSq = Number.POSITIVE_INFINITY;
      st.lastErrorSq = Number.POSITIVE_INFINITY;
      st.handedBestSq = Number.POSITIVE_INFINITY;
      this.restartFromMiddle(fromSwept);
    }
    return false;
  }

  /**
   * The passes went on from a kept hand-over and stalled farther from the target than it left the
   * chain: the rescue starts from there again (once), not from where they wandered. Steps from there
   * that cannot halve the error try the escape from a hinge's limit, which the wandering hid. The
   * passes' own points and rotations wait in `free` and `qPrevious`, both rewritten before their
   * next use.
   */
  private returnToSwept(): void {
    this.free.set(this.positions);
    this.qPrevious.set(this.q);
    this.positions.set(this.sweptPositions);
    this.q.set(this.sweptRotations);
    this.state.restarted = true;
  }

  /**
   * A kept hand-over is closer but not there: the passes go on from its pose (if iterations are
   * left), its rotations the ones the passes turn from; it becomes the closest kept when it is.
   */
  private continueFromHandOver(pose: Pose, model: Float64Array): void {
    const st = this.state;
    const handed = this.handed;
    const { joints } = this;
    const { positions: pos, qBase } = this;
    st.clamped = st.clamped || handed.clamped;
    // The last pass's flag describes the pose the hand-over replaced.
    st.passClamped = false;
    for (let i = 0; i < joints.length; i++) {
      vec3.transformPoint(pos, 3 * i, this.parentInverse, 0, model, 16 * joints[i] + 12);
      quat.normalize(qBase, 4 * i, pose.rotations, 4 * joints[i]);
    }
    this.q.set(qBase);
    this.previous.set(pos);
    this.change.fill(0);
    st.plain = 0;
    st.bestSq = handed.error * handed.error;
    // A pose the steps left may hide the escape; one a CCD sweep left, a cone chain's zigzag, is
    // better left to the passes (handing over from it again and again, the sweeps crawl).
    if (this.refiner !== null && handed === this.refiner.status) st.restarted = false;
    st.lastErrorSq = st.bestSq;
    st.slow = false;
    if (st.bestSq < st.sweptErrorSq) {
      st.sweptErrorSq = st.bestSq;
      this.sweptPositions.set(pos);
      this.sweptRotations.set(qBase);
    }
  }

  /**
   * Stuck: hand-overs no longer bring the chain closer (or neither finisher moves it at all), a
   * local minimum the limits make (a target across a limit from the start pose), where the passes
   * and the hand-overs would take turns until the cap. Once per solve, the passes start again from
   * the middle of the limits, from where they mostly find the way the start pose hid. The closer of
   * this pose and the closest kept hand-over waits in `stuck…`, with its flag: the answer, should it
   * stay closer. The flags gathered so far are that pose's, not those of the answer found from the
   * middle. `fromSwept`: the closest kept hand-over is closer than the pose the passes are in (the
   * caller has moved the squared errors).
   */
  private restartFromMiddle(fromSwept: boolean): void {
    const st = this.state;
    st.fromMiddle = true;
    st.handedOver = false;
    if (fromSwept) {
      st.stuckClamped = st.clamped;
      this.stuckPositions.set(this.sweptPositions);
      this.stuckRotations.set(this.sweptRotations);
    } else {
      st.stuckClamped = st.clamped || st.passClamped;
      this.stuckPositions.set(this.positions);
      this.stuckRotations.set(this.q);
    }
    this.qBase.set(this.middle);
    this.forwardPass(false, st.uniform);
    this.previous.set(this.positions);
    this.change.fill(0);
    st.plain = 0;
    st.slow = false;
    st.passClamped = false;
    st.clamped = false;
    st.refine = st.nearly;
    st.restarted = false;
  }

  // ---------------------------------------------------------------------------------------------
  // Finishing: the answer written to the pose.

  /**
   * The hand-over's pose is the answer: its points, its flags, and the side it bent to (its points
   * back in the root's parent frame, where the side is kept).
   */
  private finishHandedOver(model: Float64Array): void {
    const { joints, status, state: st } = this;
    const handed = this.handed;
    const pos = this.positions;
    for (let i = 0; i < joints.length; i++) {
      vec3.copy(this.solvedPositions, 3 * i, model, 16 * joints[i] + 12);
      vec3.transformPoint(pos, 3 * i, this.parentInverse, 0, model, 16 * joints[i] + 12);
    }
    this.rememberSide();
    status.iterations = st.iterations;
    status.clamped = st.clamped || handed.clamped;
    status.error = handed.error;
    status.reached = handed.reached;
  }

  /** The passes' rotations are the answer: written to the pose, with the status. */
  private finishPasses(pose: Pose, model: Float64Array, targetModel: Float64Array): void {
    const { joints, status, state: st } = this;
    const m = joints.length;
    if (this.writeRotations(pose, model)) st.clamped = true;
    const pos = this.positions;
    for (let i = 0; i < m; i++)
      vec3.transformPoint(this.solvedPositions, 3 * i, this.parentModel, 0, pos, 3 * i);
    this.rememberSide();
    status.iterations = st.iterations;
    status.clamped = st.clamped;
    this.writeError(model, joints[m - 1], targetModel);
    status.reached = status.error <= this.tolerance;
  }

  /**
   * When the closest kept hand-over's pose (`stuck` false) or the one kept at the restart from the
   * limits' middle (`stuck` true) is closer to the target than the passes' points, puts it in their
   * place and returns true.
   */
  private putBackIfCloser(targetModel: Float64Array, stuck: boolean): boolean {
    const st = this.state;
    if (!((stuck ? st.stuckErrorSq : st.sweptErrorSq) < Number.POSITIVE_INFINITY)) return false;
    this.withinTolerance(targetModel);
    if (!(st.errorSq > (stuck ? st.stuckErrorSq : st.sweptErrorSq))) return false;
    this.positions.set(stuck ? this.stuckPositions : this.sweptPositions);
    this.q.set(stuck ? this.stuckRotations : this.sweptRotations);
    return true;
  }

  /**
   * Remembers the side the chain's points (`positions`) bend to (its inner points across the
   * root–end line, summed, in the root's parent frame) when they bend by more than {@link SIDE_MIN}
   * of its reach: a chain that straightens (out of reach, or in the pose it is given) and must bend again
   * is kicked off the line toward it. Called on the pose a solve is given and on the one it leaves.
   */
  private rememberSide(): void {
    const pos = this.positions;
    const m = this.joints.length;
    // The reach summed here, not passed: see docs/architecture.md, "Numbers in typed arrays".
    let reach = 0;
    for (let i = 0; i + 1 < m; i++) reach += this.lengths[i];
    const rx = pos[0];
    const ry = pos[1];
    const rz = pos[2];
    const ex = pos[3 * m - 3] - rx;
    const ey = pos[3 * m - 2] - ry;
    const ez = pos[3 * m - 1] - rz;
    const eSq = ex * ex + ey * ey + ez * ez;
    if (!(eSq > 0)) return;
    let sx = 0;
    let sy = 0;
    let sz = 0;
    for (let i = 1; i + 1 < m; i++) {
      const px = pos[3 * i] - rx;
      const py = pos[3 * i + 1] - ry;
      const pz = pos[3 * i + 2] - rz;
      const along = (px * ex + py * ey + pz * ez) / eSq;
      sx += px - along * ex;
      sy += py - along * ey;
      sz += pz - along * ez;
    }
    const min = SIDE_MIN * reach;
    if (sx * sx + sy * sy + sz * sz > min * min) {
      this.side[0] = sx;
      this.side[1] = sy;
      this.side[2] = sz;
    }
  }

  /**
   * Writes the rotations of the passes to the pose (the end effector keeps its own, within its
   * limit) and updates the model matrices of the root's subtree. Returns whether the end's limit
   * acted.
   */
  private writeRotations(pose: Pose, model: Float64Array): boolean {
    const { joints, limits, limited } = this.setup;
    const m = joints.length;
    const root = joints[0];
    const end = joints[m - 1];
    const rotations = pose.rotations;
    for (let i = 0; i + 1 < m; i++) quat.copy(rotations, 4 * joints[i], this.q, 4 * i);
    let clamped = false;
    if (limited) {
      quat.normalize(rotations, 4 * end, rotations, 4 * end);
      clamped = clampRotation(rotations, 4 * end, limits, LIMIT_STRIDE * (m - 1));
    }
    const sk = this.skeleton;
    localToModel(model, sk.parents, pose.translations, rotations, pose.scales, root, sk.subtreeEnds[root]);
    return clamped;
  }

  /**
   * The passes have settled where the limits hold them (see the class doc): with uniform scales
   * along the chain and `refine` set (the caller clears it once they have failed), up to
   * {@link REFINE_STEPS} damped least-squares steps, then, if
   * they did not bring the end closer, {@link HAND_OVER_SWEEPS} CCD sweeps with the same limits,
   * all within `left` iterations. Returns whether a finisher's answer is kept: only if it is closer
   * to the target in model space. Otherwise the pose gets the passes' rotations back and they go
   * on, their state untouched. The kept (or last) finisher's status is {@link FabrikIk.handed}, the
   * iterations used in `used[0]`.
   */
  private handOver(
    pose: Pose,
    model: Float64Array,
    targetModel: Float64Array,
    left: number,
    refine: boolean,
  ): boolean {
    this.writeRotations(pose, model);
    this.writeError(model, this.joints[this.joints.length - 1], targetModel);
    const before = this.status.error;
    this.used[0] = 0;
    this.used[1] = 0;
    if (refine && this.refiner !== null) {
      const steps = left < REFINE_STEPS ? left : REFINE_STEPS;
      const refined = this.refiner.refine(pose, model, targetModel, steps);
      this.used[0] = refined.iterations;
      this.handed = refined;
      if (refined.error < REFINE_GAIN * before) return true;
      this.used[1] = 1;
      this.writeRotations(pose, model);
      left -= refined.iterations;
      if (left <= 0) return false;
    }
    const finisher = this.finisher as CcdIk;
    const ccd = finisher.solveWithin(
      pose,
      model,
      targetModel,
      left < HAND_OVER_SWEEPS ? left : HAND_OVER_SWEEPS,
    );
    this.used[0] += ccd.iterations;
    this.handed = ccd;
    if (ccd.error < before) return true;
    this.writeRotations(pose, model);
    return false;
  }

  /**
   * Forward kinematics of the chain in the root's parent's frame, root to tip. With `aim`, each
   * joint first turns (from its start-of-solve rotation) to point at its child's point from the
   * backward pass, within its limit; the child's point is then recomputed. `similar`: every scale
   * along the chain is uniform (up to signs), so each frame is a rotation, possibly mirrored, times
   * a scale. Returns whether a limit acted.
   */
  private forwardPass(aim: boolean, similar: boolean): boolean {
    const { joints, limits, betweenStart } = this.setup;
    const m = joints.length;
    const { positions: pos, t, s, qBase, q, frames: A, matrix: L, inverse, vector: v } = this;
    let clamped = false;
    mat4.identity(A, 0);
    for (let i = 0; i < m; i++) {
      const ao = 16 * i;
      vec3.transformPoint(pos, 3 * i, A, ao, t, 3 * i);
      if (i === m - 1) break;
      quat.copy(q, 4 * i, qBase, 4 * i);
      let aimed = aim;
      if (aim) {
        // The child's solved point, relative to the joint, in the joint's rotation frame (at its
        // start-of-solve rotation): R(q)⁻¹ (A⁻¹ p − t) = R(q)⁻¹ A⁻¹ (p − A t). Only its direction
        // matters, and a similarity's inverse has its transpose's directions (the scale's sign
        // included), so uniformly scaled chains skip the inverse.
        if (similar) {
          const dx = pos[3 * i + 3] - pos[3 * i];
          const dy = pos[3 * i + 4] - pos[3 * i + 1];
          const dz = pos[3 * i + 5] - pos[3 * i + 2];
          v[0] = A[ao] * dx + A[ao + 1] * dy + A[ao + 2] * dz;
          v[1] = A[ao + 4] * dx + A[ao + 5] * dy + A[ao + 6] * dz;
          v[2] = A[ao + 8] * dx + A[ao + 9] * dy + A[ao + 10] * dz;
        } else if (mat4.invertAffine(inverse, 0, A, ao)) {
          vec3.transformPoint(v, 0, inverse, 0, pos, 3 * i + 3);
          vec3.sub(v, 0, v, 0, t, 3 * i);
        } else {
          aimed = false;
        }
      }
      if (aimed) {
        quat.conjugate(v, 4, qBase, 4 * i);
        quat.rotateVec3(v, 0, v, 4, v, 0);
        if (aimJoint(q, 4 * i, this.offsets, 3 * i, v, 0, limits, LIMIT_STRIDE * i, this.aimScratch)) {
          clamped = true;
        }
      }
      if (betweenStart[i] === betweenStart[i + 1]) {
        // Nothing between this joint and the next (the usual chain): the next frame is this
        // joint's model transform.
        trs.composeAfter(A, ao + 16, A, ao, t, 3 * i, q, 4 * i, s, 3 * i);
      } else {
        trs.composeAfter(L, 0, A, ao, t, 3 * i, q, 4 * i, s, 3 * i);
        mat4.multiplyAffine(A, ao + 16, L, 0, this.between, ao);
      }
    }
    return clamped;
  }

  /**
   * Near full reach the passes converge slowly, and the chain laid straight toward the target may
   * already be within the tolerance (its end is reach − dist beyond the target): whether it is. With
   * limits or non-uniform scales (`similar` false) the straight points are only what the joints aim
   * at: the forward pass that will build the chain from them (clamping into the limits) decides, and
   * runs only when the straight points themselves are within the tolerance. The points are left as
   * they were.
   */
  private straightWithin(targetModel: Float64Array): boolean {
    const { positions: pos, previous } = this;
    const similar = this.state.uniform;
    previous.set(pos);
    fabrikStraight(pos, this.lengths, this.joints.length, this.targetLocal, 0);
    let within = this.withinTolerance(targetModel);
    if (within && (this.setup.limited || !similar)) {
      this.forwardPass(true, similar);
      within = this.withinTolerance(targetModel);
    }
    pos.set(previous);
    return within;
  }

  /**
   * Positional passes under nearly uniform scales have put the end within the tolerance: builds the
   * rotations (exactly, through the frames' inverses) and returns whether their forward kinematics
   * still is. When not, the caller goes on with passes that build rotations (`positional` false),
   * from these points.
   */
  private rebuiltWithin(targetModel: Float64Array): boolean {
    this.forwardPass(true, false);
    return this.withinTolerance(targetModel);
  }

  /** status.error = the model-space distance from the end joint to the target (no double returned). */
  private writeError(model: Float64Array, end: number, targetModel: Float64Array): void {
    vec3.distanceInto(this.vector, 0, model, 16 * end + 12, targetModel, 0);
    this.status.error = this.vector[0];
  }

  /**
   * Whether the end's point in `positions` is within the tolerance of the target, in model space;
   * the squared distance goes to the state's `errorSq`.
   * A boolean, not the distance (docs/architecture.md, "Numbers in typed arrays"), and
   * this runs every iteration.
   */
  private withinTolerance(targetModel: Float64Array): boolean {
    const v = this.vector;
    vec3.transformPoint(v, 0, this.parentModel, 0, this.positions, 3 * (this.joints.length - 1));
    vec3.sub(v, 0, v, 0, targetModel, 0);
    const errorSq = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    this.state.errorSq = errorSq;
    return errorSq <= this.toleranceSq;
  }
}

/**
 * The pose in the middle of a chain's limits, configuration time: each limited joint at its rest
 * rotation turned about the limit's axis to the middle of its twist range (a hinge's range; a cone's
 * swing is zero there), every other joint at rest.
 */
function limitsMiddle(skeleton: Skeleton, setup: ChainSetup): Float64Array {
  const { joints, limits } = setup;
  const out = new Float64Array(4 * joints.length);
  const turn = new Float64Array(4);
  for (let i = 0; i < joints.length; i++) {
    quat.normalize(out, 4 * i, skeleton.restRotations, 4 * joints[i]);
    const lo = LIMIT_STRIDE * i;
    if (limits[lo + LIMIT_KIND] === LIMIT_NONE) continue;
    // The half-angles' bisector: the sum of their unit (cos, sin) vectors, zero for the full circle.
    let c = limits[lo + LIMIT_TWIST] + limits[lo + LIMIT_TWIST + 2];
    let s = limits[lo + LIMIT_TWIST + 1] + limits[lo + LIMIT_TWIST + 3];
    const n = Math.sqrt(c * c + s * s);
    if (n > 1e-12) {
      c /= n;
      s /= n;
    } else {
      c = 1;
      s = 0;
    }
    for (let k = 0; k < 3; k++) turn[k] = limits[lo + LIMIT_AXIS + k] * s;
    turn[3] = c;
    quat.multiply(out, 4 * i, out, 4 * i, turn, 0);
  }
  return out;
}

/**
 * How uniform the scale at `o` is, up to signs: {@link UNIFORM} (the frame is a rotation, possibly
 * with a mirror, times one positive factor, so no rotation changes a length measured through it),
 * {@link NEARLY_UNIFORM_SCALE} (within `NEARLY_UNIFORM` of its size: a rotation changes such a
 * length by at most that share), or {@link NOT_UNIFORM}. An integer, not a pair of booleans from two
 * calls: one pass over the three components.
 */
function scaleUniformity(s: Float64Array, o: number): number {
  const x = s[o] < 0 ? -s[o] : s[o];
  const y = s[o + 1] < 0 ? -s[o + 1] : s[o + 1];
  const z = s[o + 2] < 0 ? -s[o + 2] : s[o + 2];
  if (x === y && x === z) return UNIFORM;
  const t = NEARLY_UNIFORM * x;
  const dy = x - y;
  const dz = x - z;
  return dy <= t && dy >= -t && dz <= t && dz >= -t ? NEARLY_UNIFORM_SCALE : NOT_UNIFORM;
}
