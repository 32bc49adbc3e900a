/**
 * A head that looks at a point, the turn spread over the upper spine and the neck.
 *
 * @packageDocumentation
 */
import { checkArrayArg, checkSkeletonArg, optionsArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import { AimIk } from '../ik/aim.js';
import { AIM_APPLIED, aimPose } from '../ik/aim-batch.js';
import { checkPose, resolveJoint } from '../ik/chain.js';
import { AIM_CLAMPED, AIM_LIMIT, AIM_WORK_SIZE } from '../kernel/aim.js';
import { localToModel } from '../kernel/local-to-model.js';
import { invert } from '../kernel/mat4.js';
import { decompose } from '../kernel/trs.js';
import { limitTurnBeyondBase, turnLimitInto } from '../kernel/turn-step-limit.js';
import { restModelMatrices } from '../pose/forward-kinematics.js';
import type { Pose } from '../pose/pose.js';
import { checkRig } from '../rig/check-rig.js';
import type { Rig } from '../rig/limbs.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import { solverSlab as slab } from '../slab.js';
import { checkOptionKeys, optionKeys, refuseDt, refuseNotNumber, turnSpeedOption } from './check-option.js';
import { GoalWeight } from './goal-weight.js';
import { addsNoTurn } from './joint-turn-limit.js';
import { OwnWrites } from './own-writes.js';
import { type PoseReads, pathUp, poseReads, poseReadsUsable, refusePose } from './pose-reads.js';
import { EASED_WEIGHT_LENGTH, SPRING, springOmega, springStep3 } from './spring.js';

/** Set-up of a {@link LookAt}. */
export interface LookAtOptions {
  /**
   * The joints that turn (indices or names), bottom first, the last one the head. Default: the rig's top spine joint,
   * its neck joints and its head, less any a leg hangs from (a four-legged body's front legs hang
   * from its upper spine: turned, they dragged their planted paws).
   */
  readonly joints?: readonly (number | string)[];
  /**
   * Per joint, the share of the remaining turn it takes, in (0, 1]: each joint aims that fraction
   * of the way, then the next one corrects what is left, so the head, last at 1, ends on the target
   * (within its cone). Default: 0.25 for the spine, 0.4 for each neck joint, 1 for the head.
   */
  readonly shares?: readonly number[];
  /**
   * The character's forward direction in model space. Default: the rig's {@link Rig.forward}
   * (which way its rest pose faces, as `findRig` read it), else +Z.
   */
  readonly forward?: readonly [number, number, number];
  /** The character's up direction in model space. Default +Y. */
  readonly up?: readonly [number, number, number];
  /** Largest turn of each joint away from its rest direction (a swing cone), radians. Default 0.8. */
  readonly coneAngle?: number;
  /** Smoothing of the target's motion. Default 0.15 s. */
  readonly smoothTime?: number;
  /**
   * Fastest each joint may turn beyond the animation's own turn, radians per second, > 0 (or
   * `Infinity`, no limit): from one frame to the next a joint turns at most this times `dt` more
   * than the animation turned it. A target crossing behind the character moves the turn its cone
   * allows from one side to the other; this spreads that over frames (a joint it turns back is
   * held in its cone where both ends of the turn were in it), and a look eased out faster turns
   * back at this pace before the pose passes as given. A clip that spins the head itself passes
   * (the head stays where the look puts it).
   * Not applied on the first solve, after {@link LookAt.reset} or after a weight changed with an
   * ease time of 0. Default 3π (9° a frame at 60 frames a second).
   */
  readonly maxTurnSpeed?: number;
}

/** The keys of {@link LookAtOptions} (any other is refused: a misspelling was ignored). */
const LOOK_AT_OPTIONS = optionKeys<LookAtOptions>({
  joints: true,
  shares: true,
  forward: true,
  up: true,
  coneAngle: true,
  smoothTime: true,
  maxTurnSpeed: true,
});

/**
 * Turns a character's head (and, by shares, its neck and upper spine) toward a point, keeping the
 * head upright. Each joint is an {@link AimIk} in its own frame, so its cone limits the turn; the
 * target follows the goal through a trig-free spring and the weight eases in and out, so a look
 * that starts, moves or stops never pops. Call after the legs, on the final pose.
 */
export class LookAt {
  /** The joints that turn, bottom first. */
  readonly joints: readonly number[];
  /**
   * Their aim solvers, as set up (forward, up, cone): the look solves each joint as its solver
   * would, from a copy of its set-up, without its status or per-call checks; a solver's weight and
   * status are not the look's.
   */
  readonly solvers: readonly AimIk[];
  /** After a solve, per joint: 1 where its cone held its turn back. */
  readonly clamped: Uint8Array;
  /** Per joint, its solver's kernel state (configuration, inputs, outputs) and its weight numbers. */
  private readonly works: readonly Float64Array[];
  private readonly numbers: readonly Float64Array[];
  private readonly flags: Int32Array;
  /**
   * Per joint, the model matrices recomputed after its turn, `[from, end)`: as far as the next
   * joint's parent where the joints are a chain (the first joint's subtree once, after the last:
   * `finish`), else its whole subtree.
   */
  private readonly fkRanges: Int32Array;
  /** Whether the joints are a chain, each below the one before. */
  private readonly chain: boolean;
  /** The pose's buffers, as the aim reads them (set each solve; an object made once). */
  private readonly buffers: {
    translations: Float64Array;
    rotations: Float64Array;
    scales: Float64Array;
    model: Float64Array;
  } = {
    translations: new Float64Array(0),
    rotations: new Float64Array(0),
    scales: new Float64Array(0),
    model: new Float64Array(0),
  };
  private readonly skeleton: Skeleton;
  /** The joints a solve reads, checked before it writes anything (pose-reads.ts). */
  private readonly reads: PoseReads;
  private readonly shares: Float64Array;
  private readonly target = slab.f64(6);
  private readonly goal = slab.f64(3);
  private readonly args = slab.f64(3);
  /** The look's weight ({@link GoalWeight}). */
  private readonly goalWeight = new GoalWeight();
  /** The weight and the target before this solve stepped them (put back if it refuses the pose). */
  private readonly held = slab.f64(EASED_WEIGHT_LENGTH + 6);
  private readonly omega: number;
  private readonly modelTarget = slab.f64(3);
  private readonly modelUp = slab.f64(3);
  private readonly up = slab.f64(3);
  private readonly world = slab.f64(16);
  private readonly worldInverse = slab.f64(16);
  private initialized = false;
  /** {@link LookAtOptions.maxTurnSpeed}, then this solve's `dt` (turnLimitInto's numbers). */
  private readonly speedDt = slab.f64(2);
  /** This solve's turn limit: the cosine and sine of half the turn allowed (cosine −2: none). */
  private readonly turnLimit = slab.f64(2);
  /** Per joint, its local rotation before the look turned it this solve. */
  private readonly bases: Float64Array;
  /** Per joint, the rotation the look added to it in the last solve (base⁻¹ · turned). */
  private readonly added: Float64Array;
  /** The joints as the last solve found and left them (a pose not animated since is told by it). */
  private readonly own: OwnWrites;
  /** The added rotations before this solve (put back if it throws). */
  private readonly addedHeld: Float64Array;
  /**
   * Per joint, from the last solve: the rotation it started from and the one it was left at (the
   * turn limit holds the joint within a step of that, beyond the animation's own turn).
   */
  private readonly last: Float64Array;
  /** {@link LookAt.last} before this solve (put back if it throws). */
  private readonly lastHeld: Float64Array;
  /** Whether the last solve passed the pose as given (weight 0): the next limits from its start. */
  private lastFromBase = false;
  /** Whether the next solve turns without the limit (first, reset, a weight set at once). */
  private turnFresh = true;

  /** @throws {@link TendonError} `placement/invalid-option` for a rig without a head or bad options. */
  constructor(skeleton: Skeleton, rig: Rig, options: LookAtOptions = {}) {
    const name = 'LookAt';
    checkSkeletonArg(skeleton, name);
    checkRig(rig, skeleton, name);
    options = optionsArg(options, name);
    checkOptionKeys(options, LOOK_AT_OPTIONS, name);
    if (options.joints !== undefined) checkArrayArg(options.joints, name, 'options.joints');
    if (options.shares !== undefined) checkArrayArg(options.shares, name, 'options.shares');
    // Joints by index or, as AimIk takes them, by name (a name was kept as given, and every solve
    // then threw "cannot be turned" after writing the first joint's aim).
    const given = options.joints?.map((j, i) => {
      try {
        return resolveJoint(skeleton, j, name, `options.joints[${i}]`);
      } catch (e) {
        // The solvers' own resolution, told as the look's option.
        if (!(e instanceof TendonError)) throw e;
        throw new TendonError('placement/invalid-option', e.message);
      }
    });
    const joints =
      given ??
      [...rig.spine.slice(-1), ...rig.neck, ...(rig.head >= 0 ? [rig.head] : [])].filter(
        // Not a joint a leg hangs from: a four-legged body's front legs hang from its upper spine,
        // and turned with the look they dragged their planted paws (the Fox's 0.7 cm slide became
        // 5.2 cm looking 56° aside).
        (j) => j >= 0 && !rig.legs.some((leg) => skeleton.isAncestor(j, leg.root)),
      );
    if (joints.length === 0) {
      throw new TendonError('placement/invalid-option', `${name}: no head or neck joints to turn`);
    }
    const shares =
      options.shares ??
      joints.map((j, i) => (i === joints.length - 1 ? 1 : rig.neck.includes(j) ? 0.4 : 0.25));
    if (shares.length !== joints.length || !shares.every((s) => s > 0 && s <= 1)) {
      throw new TendonError('placement/invalid-option', `${name}: one share in (0, 1] per joint`);
    }
    const forward = options.forward ?? rig.forward ?? [0, 0, 1];
    let up = options.up ?? [0, 1, 0];
    const cone = options.coneAngle ?? 0.8;
    const smoothTime = options.smoothTime ?? 0.15;
    for (const [key, v] of [
      ['forward', forward],
      ['up', up],
    ] as const) {
      const list = v as ArrayLike<unknown> | null;
      if (
        list === null ||
        typeof list !== 'object' ||
        list.length !== 3 ||
        ![0, 1, 2].every((k) => typeof list[k] === 'number' && Number.isFinite(list[k]))
      ) {
        throw new TendonError('placement/invalid-option', `${name}: ${key} must be three finite numbers`);
      }
    }
    // Up across forward (its part along forward taken out): an up leaning toward forward rolled the
    // head off upright (13° for [0, 1, 0.3], upside down near forward).
    const ff = forward[0] * forward[0] + forward[1] * forward[1] + forward[2] * forward[2];
    const along = (up[0] * forward[0] + up[1] * forward[1] + up[2] * forward[2]) / ff;
    if (along !== 0 && ff > 0) {
      const was = Math.sqrt(up[0] * up[0] + up[1] * up[1] + up[2] * up[2]);
      up = [up[0] - along * forward[0], up[1] - along * forward[1], up[2] - along * forward[2]];
      const left = Math.sqrt(up[0] * up[0] + up[1] * up[1] + up[2] * up[2]);
      if (!(left > 1e-3 * was)) {
        throw new TendonError(
          'placement/invalid-option',
          `${name}: up is parallel to forward (no up across it)`,
        );
      }
    }
    if (typeof smoothTime !== 'number' || !(smoothTime >= 0 && smoothTime < Number.POSITIVE_INFINITY)) {
      throw new TendonError(
        'placement/invalid-option',
        `${name}: smoothTime ${String(smoothTime)} is not a finite number ≥ 0`,
      );
    }
    this.speedDt[0] = turnSpeedOption(options.maxTurnSpeed, name);
    this.skeleton = skeleton;
    this.joints = joints.slice();
    this.bases = slab.f64(4 * joints.length);
    this.added = slab.f64(4 * joints.length);
    this.own = new OwnWrites(skeleton, [], joints);
    this.addedHeld = slab.f64(4 * joints.length);
    this.last = slab.f64(8 * joints.length);
    this.lastHeld = slab.f64(8 * joints.length);
    // In a chain, the joints between two turned ones are rebuilt from their locals: read too.
    this.reads = poseReads(skeleton, [
      ...joints,
      ...joints.flatMap((j, i) =>
        i > 0 && skeleton.isAncestor(joints[i - 1], j)
          ? pathUp(skeleton, joints[i - 1], skeleton.parents[j])
          : [],
      ),
    ]);
    this.shares = slab.f64From(shares);
    this.up.set(up);
    const rest = restModelMatrices(skeleton);
    const t = new Float64Array(3);
    const q = new Float64Array(4);
    const s = new Float64Array(3);
    this.solvers = joints.map((joint) => {
      // The character's forward and up, in the joint's rest rotation frame.
      decompose(t, 0, q, 0, s, 0, rest, 16 * joint);
      const local = (v: readonly number[]): [number, number, number] => {
        // Rotate v by the inverse of q: v + 2w(v × (−u)) + 2(−u) × ((−u) × v)... written as q⁻¹ v q.
        const [x, y, z, w] = [-q[0], -q[1], -q[2], q[3]];
        const tx = 2 * (y * v[2] - z * v[1]);
        const ty = 2 * (z * v[0] - x * v[2]);
        const tz = 2 * (x * v[1] - y * v[0]);
        return [
          v[0] + w * tx + (y * tz - z * ty),
          v[1] + w * ty + (z * tx - x * tz),
          v[2] + w * tz + (x * ty - y * tx),
        ];
      };
      try {
        return new AimIk(skeleton, { joint, forward: local(forward), up: local(up), coneAngle: cone });
      } catch (e) {
        // The aim's own refusal (a cone out of range, an up along forward), told as the look's.
        if (!(e instanceof TendonError)) throw e;
        throw new TendonError(
          'placement/invalid-option',
          `${name}: ${e.message.replace(/^AimIk: /, '')} (joint ${skeleton.names[joint]})`,
        );
      }
    });
    const n = joints.length;
    this.clamped = slab.u8(n);
    this.works = joints.map(() => slab.f64(AIM_WORK_SIZE));
    this.numbers = joints.map(() => slab.f64(5));
    this.flags = new Int32Array(n);
    this.solvers.forEach((solver, i) => {
      this.flags[i] = solver.writeState(this.works[i], 0, this.numbers[i], 0);
    });
    // A chain (each joint below the one before): between turns, only the path to the next
    // joint's parent, and the first joint's subtree once after the last turn.
    const ends = skeleton.subtreeEnds;
    // (By ancestry, not by index ranges: a skeleton not stored depth-first has other joints
    // inside a joint's range.)
    const chain = joints.every((j, i) => i === 0 || skeleton.isAncestor(joints[i - 1], j));
    this.chain = chain;
    this.fkRanges = new Int32Array(2 * n);
    joints.forEach((j, i) => {
      this.fkRanges[2 * i] = j;
      this.fkRanges[2 * i + 1] = !chain ? ends[j] : i + 1 < n ? skeleton.parents[joints[i + 1]] + 1 : j;
    });
    this.omega = springOmega(smoothTime);
  }

  /** The look's weight now (eased), in [0, 1]. */
  get weight(): number {
    return this.goalWeight.value;
  }

  /** Eases the look in (1) or out (0) over `easeTime` seconds. */
  setWeight(goal: number, easeTime = 0.3): void {
    const before = this.goalWeight.value;
    this.goalWeight.set(goal, easeTime, 'LookAt.setWeight');
    // A jump at once: the turn limit would spread what was asked for now. (Only a jump: the same
    // weight set at once every frame kept the limit off.)
    if (easeTime === 0 && this.goalWeight.value !== before) this.turnFresh = true;
  }

  /** Forgets the smoothing and the turn limit's last turns: the next solve looks straight at its target. */
  reset(): void {
    this.initialized = false;
    this.turnFresh = true;
  }

  /**
   * Turns the joints toward `targetWorld` (3 numbers, world space) for one frame. `model` must be
   * current (after the legs); `world` is the character's model-to-world matrix; `dt` seconds.
   *
   * @throws {@link TendonError} `placement/invalid-input` for a non-finite target, world or `dt`
   *   or a world that cannot be inverted; `pose/skeleton-mismatch` or `pose/buffer-size` for a pose
   *   or model buffer not of this skeleton; `ik/invalid-target` for a target the inverse world
   *   sends past doubles; `pose/not-finite`, naming the joint, for a NaN, an infinity or a zero
   *   rotation in a turned joint or its parent, before anything is written.
   */
  solve(
    pose: Pose,
    model: Float64Array,
    targetWorld: ArrayLike<number>,
    world: ArrayLike<number>,
    dt: number,
  ): void {
    // A small entry, inlined into the caller's loop: dt reaches the solve in an array, unboxed.
    if (typeof dt !== 'number') refuseNotNumber(dt, 'LookAt.solve', 'dt');
    this.clock[0] = dt;
    this.solveClock(pose, model, targetWorld, world);
  }

  /** This frame's `dt`, as {@link LookAt.solveClock} reads it. */
  readonly clock = slab.f64(1);

  /** {@link LookAt.solve}, with `dt` read from {@link LookAt.clock}. */
  solveClock(
    pose: Pose,
    model: Float64Array,
    targetWorld: ArrayLike<number>,
    world: ArrayLike<number>,
  ): void {
    const dt = this.clock[0];
    const name = 'LookAt.solve';
    // Checked by arithmetic (v − v is 0 for a finite number, NaN otherwise), with no builtin call:
    // a double passed to one that is not inlined is boxed, and a frame must not allocate.
    if (!(dt >= 0 && dt - dt === 0)) refuseDt(dt, name);
    if (
      targetWorld === null ||
      typeof targetWorld !== 'object' ||
      world === null ||
      typeof world !== 'object'
    ) {
      throw new TendonError('placement/invalid-input', `${name}: target and world must be arrays of numbers`);
    }
    for (let k = 0; k < 3; k++) {
      const v = targetWorld[k];
      if (typeof v !== 'number' || v - v !== 0) {
        throw new TendonError('placement/invalid-input', `${name}: target[${k}] is ${String(v)}`);
      }
    }
    for (let k = 0; k < 16; k++) {
      const v = world[k];
      if (typeof v !== 'number' || v - v !== 0) {
        throw new TendonError('placement/invalid-input', `${name}: world[${k}] is ${String(v)}`);
      }
    }
    for (let k = 0; k < 16; k++) this.world[k] = world[k];
    if (pose?.skeleton !== this.skeleton) {
      throw new TendonError('pose/skeleton-mismatch', `${name}: the pose is not of this look's skeleton`);
    }
    checkPose(this.skeleton, pose, model, name);
    if (!invert(this.worldInverse, 0, this.world, 0)) {
      throw new TendonError('placement/invalid-input', `${name}: the world matrix is not invertible`);
    }
    // The weight and the target are stepped first (at weight 0 the look reads no pose); a pose it
    // cannot use is then refused with them put back.
    const held = this.held;
    held.set(this.goalWeight.state, 0);
    held.set(this.target, EASED_WEIGHT_LENGTH);
    const wasInitialized = this.initialized;
    this.goalWeight.stepBy(this.clock, 0);
    const a = this.args;
    const goal = this.goal;
    goal[0] = targetWorld[0];
    goal[1] = targetWorld[1];
    goal[2] = targetWorld[2];
    if (this.initialized) {
      a[SPRING.omega] = this.omega;
      a[SPRING.dt] = dt;
      springStep3(this.target, 0, goal, 0, a);
    } else {
      for (let k = 0; k < 3; k++) {
        this.target[k] = goal[k];
        this.target[3 + k] = 0;
      }
      this.initialized = true;
    }
    const weight = this.goalWeight.state[3];
    // At weight 0 the pose passes as given, once the limit has brought the turns back: eased out
    // faster than the limit turns, the rest of the turn snapped back in a frame (29° at 0.05 s).
    if (weight === 0 && (this.turnFresh || addsNoTurn(this.added))) {
      this.own.undo(pose, model);
      this.own.done(pose);
      this.clamped.fill(0);
      // Nothing added this frame: the next turns are limited from there.
      for (let k = 0; k < this.added.length; k += 4) {
        this.added[k] = 0;
        this.added[k + 1] = 0;
        this.added[k + 2] = 0;
        this.added[k + 3] = 1;
      }
      this.lastFromBase = true;
      this.turnFresh = false;
      return;
    }
    if (!poseReadsUsable(this.reads, pose, model)) {
      this.restore(wasInitialized);
      refusePose(this.reads, pose, model, name);
    }
    const Wi = this.worldInverse;
    const x = this.target[0];
    const y = this.target[1];
    const z = this.target[2];
    const m = this.modelTarget;
    m[0] = Wi[0] * x + Wi[4] * y + Wi[8] * z + Wi[12];
    m[1] = Wi[1] * x + Wi[5] * y + Wi[9] * z + Wi[13];
    m[2] = Wi[2] * x + Wi[6] * y + Wi[10] * z + Wi[14];
    if (!(m[0] - m[0] + (m[1] - m[1]) + (m[2] - m[2]) === 0)) {
      this.restore(wasInitialized);
      throw new TendonError(
        'ik/invalid-target',
        `${name}: the target (${String(x)}, ${String(y)}, ${String(z)}) is not finite in model space (the inverse world sends it past doubles)`,
      );
    }
    this.modelUp.set(this.up);
    const b = this.buffers;
    b.translations = pose.translations;
    b.rotations = pose.rotations;
    b.scales = pose.scales;
    b.model = model;
    const parents = this.skeleton.parents;
    const ranges = this.fkRanges;
    let turned = false;
    const r = pose.rotations;
    this.own.undo(pose, model);
    for (let i = 0; i < this.joints.length; i++) {
      const o = 4 * this.joints[i];
      for (let c = 0; c < 4; c++) this.bases[4 * i + c] = r[o + c];
    }
    this.addedHeld.set(this.added);
    this.lastHeld.set(this.last);
    if (this.lastFromBase) {
      // Passed as given last frame: from where the animation has the joints now.
      for (let i = 0; i < this.joints.length; i++) {
        for (let c = 0; c < 4; c++) {
          this.last[8 * i + c] = this.bases[4 * i + c];
          this.last[8 * i + 4 + c] = this.bases[4 * i + c];
        }
      }
    }
    const fresh = this.turnFresh;
    this.setTurnLimit();
    for (let i = 0; i < this.joints.length; i++) {
      const numbers = this.numbers[i];
      numbers[0] = this.shares[i] * weight;
      const bits = aimPose(
        this.works[i],
        numbers,
        b,
        parents,
        this.joints[i],
        ranges[2 * i],
        ranges[2 * i + 1],
        this.flags[i],
        m,
        this.modelUp,
        true,
        0,
      );
      if (bits < 0) {
        // A number the aim cannot use: what the look put back given back, the model made whole
        // for the turns so far, then the joint's solver throws the error it names.
        this.own.revert(pose, model);
        this.finish(pose, model, turned);
        this.restore(wasInitialized);
        this.added.set(this.addedHeld);
        this.last.set(this.lastHeld);
        this.solvers[i].solve(pose, model, m, this.modelUp);
        throw new TendonError('pose/not-finite', `${name}: joint ${this.joints[i]} cannot be turned`);
      }
      this.clamped[i] = (bits & AIM_CLAMPED) !== 0 ? 1 : 0;
      if (this.limitTurn(i, r, fresh)) {
        // Turned by the limit from where the aim left it: its matrices again.
        turned = true;
        this.toModel(pose, model, ranges[2 * i], ranges[2 * i + 1]);
      } else if ((bits & AIM_APPLIED) !== 0) turned = true;
      else if (turned && this.chain) {
        // Not turned, but below one that was: the path to the next joint's parent still moved.
        this.toModel(pose, model, ranges[2 * i], ranges[2 * i + 1]);
      }
    }
    this.turnFresh = false;
    this.lastFromBase = false;
    this.finish(pose, model, turned);
    this.own.done(pose);
  }

  /**
   * This solve's turn limit from `dt` (read from the clock: a double passed would be boxed): the
   * cosine and sine of half of `maxTurnSpeed · dt`, by their series (no `Math.sin`: the same bits
   * on every engine); none from a half turn of π/2 up.
   */
  private setTurnLimit(): void {
    this.speedDt[1] = this.clock[0];
    turnLimitInto(this.turnLimit, 0, this.speedDt, 0);
  }

  /**
   * Holds joint `i` within this solve's turn limit of where the last solve left it, beyond the
   * animation's own turn since (so a clip that spins the joint does not carry the look's turn
   * along), turning it back toward that (the turn's axis kept); records it and its added rotation
   * (base⁻¹ · turned). True where it turned the joint.
   */
  private limitTurn(i: number, r: Float64Array, fresh: boolean): boolean {
    return limitTurnBeyondBase(
      r,
      4 * this.joints[i],
      this.bases,
      4 * i,
      this.last,
      8 * i,
      this.added,
      4 * i,
      this.turnLimit,
      0,
      this.works[i],
      AIM_LIMIT,
      fresh,
    );
  }

  /** Puts back the weight and the target as they were before this solve stepped them. */
  private restore(wasInitialized: boolean): void {
    this.goalWeight.state.set(this.held.subarray(0, EASED_WEIGHT_LENGTH));
    this.target.set(this.held.subarray(EASED_WEIGHT_LENGTH));
    this.initialized = wasInitialized;
  }

  /** After the turns of a chain: the model matrices of the first joint's subtree, once. */
  private finish(pose: Pose, model: Float64Array, turned: boolean): void {
    if (!turned || !this.chain) return;
    const first = this.joints[0];
    this.toModel(pose, model, first, this.skeleton.subtreeEnds[first]);
  }

  /** The model matrices of joints `from … end − 1` from the pose. */
  private toModel(pose: Pose, model: Float64Array, from: number, end: number): void {
    localToModel(model, this.skeleton.parents, pose.translations, pose.rotations, pose.scales, from, end);
  }
}
