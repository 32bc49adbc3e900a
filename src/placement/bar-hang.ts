/**
 * Hanging from a bar or a ledge: both hands on the edge, the body below, swinging like a pendulum,
 * moving hand over hand along it.
 *
 * @packageDocumentation
 */
import {
  checkArrayArg,
  checkObjectArg,
  checkPoseAndModelArgs,
  checkSkeletonArg,
  describeArg,
} from '../arguments.js';
import { TendonError } from '../errors.js';
import { TwoBoneIk } from '../ik/two-bone.js';
import { invert } from '../kernel/mat4.js';
import { cosSinAt } from '../math/angle.js';
import { restModelMatrices, subtreeToModel } from '../pose/forward-kinematics.js';
import type { Pose } from '../pose/pose.js';
import { checkRig } from '../rig/check-rig.js';
import type { ArmRig, Rig } from '../rig/limbs.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import { checkOption, checkOptionKeys, optionKeys, turnSpeedOption } from './check-option.js';
import { legLength } from './contacts.js';
import { GoalWeight } from './goal-weight.js';
import { JointTurnLimit } from './joint-turn-limit.js';
import { OwnWrites } from './own-writes.js';
import { checkPoseReads, type PoseReads, poseReads } from './pose-reads.js';
import { restFacing } from './rig-facing.js';

/** Set-up of a {@link BarHang}; lengths in world units, +Y up. */
export interface BarHangOptions {
  /** One end of the bar (or ledge edge), world space. */
  readonly from: readonly [number, number, number];
  /** The other end; the bar should be roughly horizontal. */
  readonly to: readonly [number, number, number];
  /** Model-to-world scale of the character. Default 1. */
  readonly scale?: number;
  /** The shoulders hang this fraction of the arm's reach below the bar. Default 0.92: never stretched. */
  readonly armExtension?: number;
  /** Distance between the hands along the bar. Default the shoulders' width. */
  readonly gripWidth?: number;
  /**
   * Distance a hand moves along the bar in one move, world units, at most the bar's length.
   * Default half the arms' reach (as scaled; 0.3 m for a human's), or the bar's length if shorter.
   */
  readonly handStep?: number;
  /** Gravity, world units per second². Default 9.81. */
  readonly gravity?: number;
  /** Share of the swing's speed lost per second. Default 0.15. */
  readonly damping?: number;
  /**
   * Hanging from a ledge: the wall under the edge stands in front of the character (its facing:
   * `from → to` turned a quarter turn counter-clockwise seen from above, so a bar along +X faces −Z), and
   * the body's point (the shoulders' midpoint) stays at least this far behind the edge, world
   * units: it rests against the wall, swings back from it when pushed, and comes to a stop against
   * it, never into it. From 0 to less than the hang's length (`armExtension` of the arms' reach).
   * Default: no wall (a bar, swinging both ways).
   */
  readonly ledgeWall?: number;
  /**
   * How fast the turn the hang adds to an arm's joint may change while the hang eases in or out
   * (and until the arms have caught up after), radians a second: default 3π, 9° a frame at 60 Hz
   * (`Infinity`: no limit). At a steady weight of 1 the arms take the bar at once.
   */
  readonly maxTurnSpeed?: number;
}

/** The keys of {@link BarHangOptions} (any other is refused: a misspelling was ignored). */
const BAR_HANG_OPTIONS = optionKeys<BarHangOptions>({
  from: true,
  to: true,
  scale: true,
  armExtension: true,
  gripWidth: true,
  handStep: true,
  gravity: true,
  damping: true,
  ledgeWall: true,
  maxTurnSpeed: true,
});

/** Per-hand numbers of the last update: target `x, y, z` (world), 1 while gripping. Left hand first. */
export const HANG_HAND = {
  /** Where the hand is held, world `x, y, z`. */
  target: 0,
  /** 1 while the hand grips the bar, 0 while it moves to its next grip. */
  gripping: 3,
  /** Numbers per hand. */
  length: 4,
} as const;

/**
 * `value`, an option, if it is a finite number from `min` (`minIncluded` or not) to `max`;
 * `fallback` if it is undefined.
 *
 * @throws {@link TendonError} `placement/invalid-option`, naming the option and its value.
 */
function optionNumber(
  value: unknown,
  fallback: number,
  what: string,
  min: number,
  minIncluded: boolean,
  max: number,
): number {
  if (value === undefined) return fallback;
  checkOption(value, 'BarHang', `options.${what}`, min, !minIncluded, false, max);
  return value as number;
}

/** Offsets into `BarHang.state`. */
const STATE = { position: 0, lastDt: 1, travel: 2 } as const;

/** A swing step's angle, then its cosine and sine (BarHang.swing). */
const arcTurn = new Float64Array(3);

/** Throws for an update's `dt` or `move`: out of line, so the update's body stays small. */
function refuseClock(dt: unknown, move: unknown): never {
  throw new TendonError(
    'placement/invalid-input',
    `BarHang.update: dt ${describeArg(dt)}, move ${describeArg(move)}: finite numbers, dt ≥ 0`,
  );
}

/** Throws for a step of the swing that leaves the doubles. */
function refuseSwing(dt: number): never {
  throw new TendonError(
    'placement/invalid-input',
    `BarHang.update: a step of ${dt} s swings the body past doubles (the pushes or kicks given are too large; reset() drops them)`,
  );
}

/** Pushes kept between updates before they are summed into one (more in one frame is rare). */
const PUSH_SLOTS = 4;
/** The largest push taken: {@link PUSH_SLOTS} of them add up to a finite sum. */
const PUSH_LIMIT = 1e300;
/** −{@link PUSH_LIMIT}, a constant: negated where it is read, it would be a new heap number each time. */
const PUSH_LOW = -1e300;

/** Whether a push (or the pushes' sum) is within ±{@link PUSH_LIMIT} on each axis: comparisons only. */
function pushInRange(x: number, y: number, z: number): boolean {
  return (
    x >= PUSH_LOW && x <= PUSH_LIMIT && y >= PUSH_LOW && y <= PUSH_LIMIT && z >= PUSH_LOW && z <= PUSH_LIMIT
  );
}

/** Seconds a reach takes at most once the body stops: a hand caught mid-reach lands this soon. */
const REACH_TIME = 0.25;

/**
 * The longest step of the swing, seconds: a longer update is taken in as many steps. One step over
 * a whole long frame (a tab back from the background, a hitch) turned its fall under gravity into
 * speed along the arc: a swing of 19° rose to 46° after a 0.5 s frame, over the bar after 1 s.
 */
const SWING_STEP = 1 / 30;

/**
 * The most steps an update takes: a frame longer than {@link SWING_STEP} times this (2.1 s) swings
 * as that long, as physics engines cap a frame's time.
 */
const SWING_STEPS = 64;

/** Per-hand state between updates, in bar units from `from` (offsets into `BarHang.grips`). */
const GRIP = {
  /** Where the hand holds, or is on its way, now. */
  at: 0,
  /** Where its reach started. */
  from: 1,
  /** Its reach lands a quarter step ahead of its place along this (−1, 0 or 1). */
  lead: 2,
  /** How far the reach has gone, 0 to 1. */
  progress: 3,
  /** The body's travel over which the reach lands. */
  span: 4,
  /** 1 while reaching, 0 while holding. */
  reaching: 5,
  length: 6,
} as const;

/**
 * A character hanging from a bar by both hands. The body is a pendulum under the grip: a point
 * mass integrated by Verlet steps, each carried along its circle about the grip as an arc (its
 * cosine and sine by tendon's own arithmetic: the same bits on every engine), so the swing keeps
 * its energy at any frame rate; a kick or a push swings it, damping alone calms it. Moving along the bar goes hand
 * over hand: one hand moves to its next grip while the other holds; a body that stops hangs by both
 * hands again within a quarter second. Each update writes the
 * character's world matrix (hanging along the line from its grip, facing across the bar) and bends
 * both arms onto the bar by two-bone IK; the shoulders stay below the bar by less than the arms'
 * reach, so a gripping hand holds the bar exactly.
 */
export class BarHang {
  /** {@link STATE} numbers: kept between updates, or passed between an update's steps unboxed. */
  private readonly state = new Float64Array(3);
  /** The character's model-to-world matrix of the last update. */
  readonly world = new Float64Array(16);
  /** Per hand, {@link HANG_HAND} numbers. */
  readonly report = new Float64Array(2 * HANG_HAND.length);
  /** The arms' solvers, left then right. */
  readonly arms: readonly TwoBoneIk[];
  /** The arms' joints as the last update found and left them (a pose not animated since). */
  private readonly own: OwnWrites;
  /** The limit on the arms' turns while the hang eases in or out. */
  private readonly turns: JointTurnLimit;
  private readonly skeleton: Skeleton;
  /** The joints an update reads, checked before it writes anything (pose-reads.ts). */
  private readonly reads: PoseReads;
  /**
   * `from` (3), unit bar direction (3), bar length, scale, hang length, shoulder height, grip
   * width, step, gravity, damping, facing (3), the ledge's wall gap (−1: none).
   */
  private readonly frame: Float64Array;
  /** The body's point (the shoulders' midpoint), now and one step before: `x, y, z, px, py, pz`. */
  private readonly body = new Float64Array(6);
  /** Pushes since the last update, `x, y, z` each as given, {@link BarHang.pushCount} of them. */
  private readonly pushes = new Float64Array(3 * PUSH_SLOTS);
  private pushCount = 0;
  /** The kicks' sum since the last update that advanced time (BarHang.kickBody), units/s. */
  private readonly kicks = new Float64Array(3);
  /** `[cos, sin]` of the turn from the rig's rest facing to +Z (restFacing). */
  private readonly facing: [number, number];
  /** This swing step's seconds, then 1 on an update's first step (its kicks), 0 after. */
  private readonly step = new Float64Array(2);
  /** The body's points, the last step's seconds and whether it had started, before an update. */
  private readonly heldSwing = new Float64Array(8);
  /** The bar's point above the body this update, world `x, y, z`. */
  private readonly pivot = new Float64Array(3);
  private readonly worldInverse = new Float64Array(16);
  private readonly target = new Float64Array(3);
  private readonly pole = new Float64Array(3);
  private readonly reaches: Float64Array;
  /** Per hand, {@link GRIP} numbers, in bar units from `from`. */
  private readonly grips = new Float64Array(2 * GRIP.length);
  private started = false;
  private gripsSet = false;

  /**
   * @throws {@link TendonError} `placement/invalid-option` for a rig without two arms, a bar of no
   *   length or steeper than 45°, or an option out of range, naming it: `scale` and `handStep` must
   *   be above 0 (`handStep` at most the bar's length), `armExtension` in (0, 1], `gravity` and
   *   `damping` 0 or more, `gripWidth` (default the shoulders' width) from 0 to the bar's length,
   *   `ledgeWall` from 0 to less than the hang's length; `argument/invalid` for `from` or `to` not
   *   an array.
   */
  constructor(skeleton: Skeleton, rig: Rig, options: BarHangOptions) {
    const name = 'BarHang';
    checkSkeletonArg(skeleton, name);
    checkRig(rig, skeleton, name);
    this.facing = restFacing(rig);
    checkObjectArg(options, name, 'options');
    checkOptionKeys(options, BAR_HANG_OPTIONS, name);
    checkArrayArg(options.from, name, 'options.from', 3);
    checkArrayArg(options.to, name, 'options.to', 3);
    if (rig?.arms?.length < 2)
      throw new TendonError('placement/invalid-option', `${name}: the rig needs two arms`);
    const a = options?.from;
    const b = options?.to;
    const ends = [...(a ?? []), ...(b ?? [])];
    if (ends.length !== 6 || !ends.every((v) => typeof v === 'number' && Number.isFinite(v))) {
      throw new TendonError('placement/invalid-option', `${name}: from and to must be 3 finite numbers each`);
    }
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const dz = b[2] - a[2];
    const length = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (!(length > 0 && Number.isFinite(length))) {
      throw new TendonError('placement/invalid-option', `${name}: the bar's length is ${length}`);
    }
    // The body swings in the plane across the bar: along a steep bar gravity barely reaches it.
    if (dy * dy > dx * dx + dz * dz) {
      throw new TendonError('placement/invalid-option', `${name}: the bar is steeper than 45°`);
    }
    const scale = optionNumber(options.scale, 1, 'scale', 0, false, Infinity);
    const extension = optionNumber(options.armExtension, 0.92, 'armExtension', 0, false, 1);
    const given =
      options.handStep === undefined ? -1 : optionNumber(options.handStep, 0, 'handStep', 0, false, length);
    const gravity = optionNumber(options.gravity, 9.81, 'gravity', 0, true, Infinity);
    const damping = optionNumber(options.damping, 0.15, 'damping', 0, true, Infinity);
    if (options.gripWidth !== undefined) optionNumber(options.gripWidth, 0, 'gripWidth', 0, true, length);
    this.skeleton = skeleton;
    const left = rig.arms.find((arm) => arm.side === 'left') ?? rig.arms[0];
    const right = rig.arms.find((arm) => arm !== left) ?? rig.arms[1];
    const rest = restModelMatrices(skeleton);
    const armLength = (arm: ArmRig) =>
      legLength(rest, {
        label: arm.label,
        side: arm.side,
        shape: 'chain',
        source: arm.source,
        root: arm.root,
        middle: arm.middle,
        end: arm.end,
        endLocal: null,
        foot: arm.end,
        toe: -1,
        pole: -1,
      });
    this.reaches = Float64Array.of(armLength(left), armLength(right));
    const reach = Math.min(this.reaches[0], this.reaches[1]) * scale;
    // By default a move is half the arm's reach (0.3 m for a human's 0.6 m arm): the character's
    // own size, whatever the world's unit and the character's scale.
    const step = given >= 0 ? given : Math.min(length, 0.5 * reach);
    const shoulderY = 0.5 * (rest[16 * left.root + 13] + rest[16 * right.root + 13]) * scale;
    const shoulderWidth = Math.abs(rest[16 * left.root + 12] - rest[16 * right.root + 12]) * scale;
    const hang = extension * reach;
    const wall =
      options.ledgeWall === undefined ? -1 : optionNumber(options.ledgeWall, 0, 'ledgeWall', 0, true, hang);
    if (!(wall < hang)) {
      throw new TendonError(
        'placement/invalid-option',
        `${name}: options.ledgeWall is ${wall}, not less than the hang's length (${hang})`,
      );
    }
    const gripWidth = options.gripWidth ?? shoulderWidth;
    if (!(gripWidth <= length)) {
      throw new TendonError(
        'placement/invalid-option',
        `${name}: options.gripWidth (default, the shoulders' width) is ${gripWidth}, wider than the bar (${length})`,
      );
    }
    // The character faces across the bar: its forward is the horizontal perpendicular to the bar.
    let fx = dz;
    let fz = -dx;
    const fl = Math.sqrt(fx * fx + fz * fz);
    fx = fl > 0 ? fx / fl : 0;
    fz = fl > 0 ? fz / fl : 1;
    this.frame = Float64Array.of(
      a[0],
      a[1],
      a[2],
      dx / length,
      dy / length,
      dz / length,
      length,
      scale,
      hang,
      shoulderY,
      gripWidth,
      step,
      gravity,
      damping,
      fx,
      0,
      fz,
      wall,
    );
    this.arms = [
      new TwoBoneIk(skeleton, { root: left.root, middle: left.middle, end: left.end }),
      new TwoBoneIk(skeleton, { root: right.root, middle: right.middle, end: right.end }),
    ];
    this.reads = poseReads(skeleton, [left.root, left.middle, left.end, right.root, right.middle, right.end]);
    this.own = new OwnWrites(
      skeleton,
      [],
      [left.root, left.middle, left.end, right.root, right.middle, right.end].filter((j) => j >= 0),
    );
    this.turns = new JointTurnLimit(
      [left.root, left.middle, right.root, right.middle],
      turnSpeedOption(options.maxTurnSpeed, name),
    );
    this.state[STATE.position] = 0.5 * length;
  }

  /** The hang's weight ({@link GoalWeight}). */
  private readonly goalWeight = new GoalWeight();

  /**
   * The hang's weight now, in [0, 1]: how far the arms are turned from the base pose onto the
   * bar. 1 at first; eased by {@link BarHang.setWeight}.
   */
  get weight(): number {
    return this.goalWeight.value;
  }

  /**
   * Eases the hang in (1) or out (0), or to any weight between, over `easeTime` seconds of the
   * updates' `dt` (smoothstep: no jump at either end; a new goal mid-ease starts from where the
   * weight is). At weight 0 an update still swings the body and writes {@link BarHang.world} and
   * the report (the grips on the bar), but leaves the pose and the model as it was given them;
   * between, each arm is turned that share of the way onto its grip.
   *
   * @throws {@link TendonError} `placement/invalid-option` for a goal outside [0, 1] or an ease
   *   time that is not a finite number ≥ 0 (the weight is left as it was).
   */
  setWeight(goal: number, easeTime = 0.5): void {
    const before = this.goalWeight.value;
    this.goalWeight.set(goal, easeTime, 'BarHang.setWeight');
    // A jump at once, as asked: the turn limit would spread it.
    if (easeTime === 0 && this.goalWeight.value !== before) this.turns.reset();
  }

  /**
   * Where along the bar the body hangs, world units from `from`; the next update clamps it to the
   * bar (half the grip width in from each end). Set it to move the body at once: the hands follow.
   */
  get position(): number {
    return this.state[STATE.position];
  }

  /**
   * Moves the body along the bar at once (see the getter).
   *
   * @throws {@link TendonError} `placement/invalid-input` for a value that is not a finite number.
   */
  set position(value: number) {
    if (typeof value !== 'number' || value - value !== 0) {
      throw new TendonError(
        'placement/invalid-input',
        `BarHang.position: ${describeArg(value)} is not a finite number`,
      );
    }
    this.state[STATE.position] = value;
  }

  /**
   * Forgets the swing, the pushes not yet taken and the grips: the next update hangs the body
   * straight below the bar at {@link BarHang.position}, still, both hands at their places. Call it
   * after a teleport (set `position` first), or where the old swing must not carry over.
   */
  reset(): void {
    this.started = false;
    this.gripsSet = false;
    this.state[STATE.lastDt] = 0;
    this.pushCount = 0;
    this.kicks.fill(0);
    this.turns.reset();
  }

  /**
   * Gives the swing a push: a world-space acceleration (units/s²) applied over the next update (at
   * most its first 2.1 s). Pushes given before one update add up; an update that refuses them (they
   * swing the body past the doubles) keeps them, until `reset()`. Given every frame, it is a steady push; given once, it
   * swings the body by as much as that frame is long (twice as far at 30 Hz as at 60): a one-off
   * push is {@link BarHang.kickBody}.
   *
   * @throws {@link TendonError} `placement/invalid-input` for an acceleration that is not a number
   *   within ±1e300, or, past four pushes before one update, their sum past that; the push is then
   *   not taken. (A sum of fewer that swings the body past the doubles is refused by the update.)
   */
  pushBody(ax: number, ay: number, az: number): void {
    // Called now and then, this runs unoptimized, where every double an operation makes is a new
    // heap number: the push is checked by comparisons and stored as given, summed by the update.
    if (
      !pushInRange(ax, ay, az) ||
      typeof ax !== 'number' ||
      typeof ay !== 'number' ||
      typeof az !== 'number'
    ) {
      throw new TendonError(
        'placement/invalid-input',
        `BarHang.pushBody: ${describeArg(ax)}, ${describeArg(ay)}, ${describeArg(az)}: numbers within ±${PUSH_LIMIT}`,
      );
    }
    if (this.pushCount === PUSH_SLOTS) this.foldPushes(ax, ay, az);
    else {
      const o = 3 * this.pushCount;
      this.pushes[o] = ax;
      this.pushes[o + 1] = ay;
      this.pushes[o + 2] = az;
      this.pushCount++;
    }
  }

  /**
   * Gives the swing a kick: a world-space change of the body's velocity (units/s), taken whole by
   * the next update that advances time, whatever its `dt`, so a one-off push (a grab, a hit)
   * swings the body as far at any frame rate. Kicks given before that update add up.
   *
   * @throws {@link TendonError} `placement/invalid-input` for a velocity that is not a number
   *   within ±1e300, or a sum of the kicks not yet taken past that; the kick is then not taken.
   */
  kickBody(vx: number, vy: number, vz: number): void {
    const k = this.kicks;
    if (
      typeof vx !== 'number' ||
      typeof vy !== 'number' ||
      typeof vz !== 'number' ||
      !pushInRange(vx, vy, vz) ||
      !pushInRange(k[0] + vx, k[1] + vy, k[2] + vz)
    ) {
      throw new TendonError(
        'placement/invalid-input',
        `BarHang.kickBody: ${describeArg(vx)}, ${describeArg(vy)}, ${describeArg(vz)}: numbers within ±${PUSH_LIMIT}, as the kicks not yet taken add up`,
      );
    }
    k[0] += vx;
    k[1] += vy;
    k[2] += vz;
  }

  /** More pushes than slots before one update: all of them summed into the first (rare). */
  private foldPushes(ax: number, ay: number, az: number): void {
    const p = this.pushes;
    let x = 0;
    let y = 0;
    let z = 0;
    for (let o = 0; o < 3 * PUSH_SLOTS; o += 3) {
      x += p[o];
      y += p[o + 1];
      z += p[o + 2];
    }
    x += ax;
    y += ay;
    z += az;
    if (!pushInRange(x, y, z)) {
      throw new TendonError(
        'placement/invalid-input',
        `BarHang.pushBody: the pushes add up past ±${PUSH_LIMIT}`,
      );
    }
    p[0] = x;
    p[1] = y;
    p[2] = z;
    this.pushCount = 1;
  }

  /**
   * Advances the swing by `dt` seconds (in steps of at most 1/30 s; a frame longer than 2.1 s
   * swings as 2.1 s) and moves `move` world units along the bar (hand over hand, a quarter hand step
   * at a time, in 64 steps at most; clamped to the bar), then poses the arms: call after sampling the base pose and forward
   * kinematics. Writes {@link BarHang.world}, the arms' rotations into `pose`, and updates `model`;
   * the hang's weight ({@link BarHang.setWeight}) eases by `dt`.
   *
   * @throws {@link TendonError} `placement/invalid-input` for a `dt` that is not a finite number ≥ 0,
   *   a `move` that is not a finite number, or a step of the swing (a push or a kick so large) that
   *   leaves the doubles; `pose/skeleton-mismatch` or `pose/buffer-size` for a pose or model buffer
   *   not of this skeleton; `pose/not-finite`, naming the joint, for a NaN, an infinity or a zero
   *   rotation in the arms' joints or their parents. Each before anything is written: the pose, the
   *   position, the swing, the push and the grips stay as they were.
   */
  update(pose: Pose, model: Float64Array, dt: number, move = 0): void {
    // A small entry, inlined into the caller's loop: dt and move reach the update in an array,
    // unboxed (a double passed to a call that is not inlined is boxed: a frame must not allocate).
    if (typeof dt !== 'number' || typeof move !== 'number') refuseClock(dt, move);
    this.clock[0] = dt;
    this.clock[1] = move;
    this.updateClock(pose, model);
  }

  /** This frame's `dt` and `move`, as {@link BarHang.updateClock} reads them. */
  readonly clock = new Float64Array(2);

  /**
   * {@link BarHang.update}, with `dt` and `move` read from {@link BarHang.clock}.
   *
   * @throws {@link TendonError} as {@link BarHang.update}.
   */
  updateClock(pose: Pose, model: Float64Array): void {
    const dt = this.clock[0];
    const move = this.clock[1];
    // Checked by arithmetic (v − v is 0 for a finite number, NaN otherwise), with no builtin call.
    if (!(dt >= 0 && dt - dt === 0) || move - move !== 0) refuseClock(dt, move);
    checkPoseAndModelArgs(pose, model, this.skeleton, 'BarHang.update');
    checkPoseReads(this.reads, pose, model, 'BarHang.update');
    const f = this.frame;
    const margin = 0.5 * f[10];
    const before = this.state[STATE.position];
    const moved = before + move;
    const position = moved < margin ? margin : moved > f[6] - margin ? f[6] - margin : moved;
    const travel = position - before;
    // In steps of at most SWING_STEP seconds and a quarter hand step along the bar (a long move in
    // one update left a gripping hand 1.2 m behind its grip), at most SWING_STEPS of them.
    const distance = travel < 0 ? -travel : travel;
    const byTime = Math.ceil(dt / SWING_STEP);
    const byTravel = Math.ceil(distance / (0.25 * f[11]));
    let steps = byTime > byTravel ? byTime : byTravel;
    steps = steps < 1 ? 1 : steps > SWING_STEPS ? SWING_STEPS : steps;
    const swung = dt < SWING_STEP * SWING_STEPS ? dt : SWING_STEP * SWING_STEPS;
    const b = this.body;
    const held = this.heldSwing;
    for (let k = 0; k < 6; k++) held[k] = b[k];
    held[6] = this.state[STATE.lastDt];
    held[7] = this.started ? 1 : 0;
    const pivot = this.pivot;
    const step = this.step;
    step[0] = swung / steps;
    try {
      for (let k = 1; k <= steps; k++) {
        // The pivot: the point of the bar above the body.
        const at = k === steps ? position : before + (travel * k) / steps;
        pivot[0] = f[0] + f[3] * at;
        pivot[1] = f[1] + f[4] * at;
        pivot[2] = f[2] + f[5] * at;
        step[1] = k === 1 ? 1 : 0;
        this.swing();
      }
    } catch (error) {
      // Nothing of the update kept: the body, its last step and the pushes and kicks as they were.
      for (let k = 0; k < 6; k++) b[k] = held[k];
      this.state[STATE.lastDt] = held[6];
      this.started = held[7] === 1;
      throw error;
    }
    this.pushCount = 0;
    // Kicks wait for an update that advances time.
    if (dt > 0) this.kicks.fill(0);
    // A pose not animated since the last update is given back what that update found.
    this.own.undo(pose, model);
    // The weight eased by this update's dt, once the swing is known not to throw.
    this.goalWeight.stepBy(this.clock, 0);
    this.placeBody();
    // The hands, step by step along the way.
    step[0] = dt / steps;
    for (let k = 1; k <= steps; k++) {
      const at = k === steps ? position : before + (travel * k) / steps;
      const from = k === 1 ? before : before + (travel * (k - 1)) / steps;
      this.state[STATE.position] = at;
      this.state[STATE.travel] = at - from;
      this.placeHands();
    }
    this.state[STATE.travel] = travel;
    // Switched off, the arms go on easing back until the turn the hang added is gone.
    const weight = this.goalWeight.state[3];
    if (weight > 0 || !this.turns.isNone()) {
      this.turns.begin(pose);
      if (weight > 0) this.solveArms(pose, model);
      if (this.turns.apply(pose, this.clock, 0, weight === 1)) {
        for (const arm of this.arms) subtreeToModel(pose, model, arm.root);
      }
    }
    this.own.done(pose);
  }

  /**
   * One Verlet step of the body point under gravity, the pushes and the kicks, carried along its
   * circle about the pivot. Computed before it is kept: a step that leaves the doubles throws with nothing written.
   */
  private swing(): void {
    const px = this.pivot[0];
    const py = this.pivot[1];
    const pz = this.pivot[2];
    const dt = this.step[0];
    const f = this.frame;
    const b = this.body;
    const l = f[8];
    // Before the first update the body hangs straight below the pivot, still.
    const x0 = this.started ? b[0] : px;
    const y0 = this.started ? b[1] : py - l;
    const z0 = this.started ? b[2] : pz;
    let x = x0;
    let y = y0;
    let z = z0;
    const lastDt = this.state[STATE.lastDt];
    // The pushes' sum, in the order given (as a running sum would add them).
    let ax = 0;
    let ay = 0;
    let az = 0;
    for (let o = 0; o < 3 * this.pushCount; o += 3) {
      ax += this.pushes[o];
      ay += this.pushes[o + 1];
      az += this.pushes[o + 2];
    }
    if (dt > 0) {
      // Velocity carried from the last step (rescaled if the step length changed), damped.
      const ratio = lastDt > 0 ? dt / lastDt : 1;
      const keep = (1 - f[13] * dt > 0 ? 1 - f[13] * dt : 0) * ratio;
      const vx = (this.started ? b[0] - b[3] : 0) * keep;
      const vy = (this.started ? b[1] - b[4] : 0) * keep;
      const vz = (this.started ? b[2] - b[5] : 0) * keep;
      // The kicks on the update's first step only.
      const kick = this.step[1];
      const k = this.kicks;
      x += vx + ax * dt * dt + k[0] * kick * dt;
      y += vy + (ay - f[12]) * dt * dt + k[1] * kick * dt;
      z += vz + az * dt * dt + k[2] * kick * dt;
    }
    // Kept in the plane across the bar at its distance from the pivot: moved along its circle by
    // the step's part along the circle, as an arc, not moved back onto the circle along the radius
    // (the step's chord). The chord lost a share of the swing at every step, more the longer the
    // frame: with no damping, a third of the swing was left after 6 s at 30 Hz, 0.57 at 60 and
    // 0.86 at 240. The step carried to the next is the arc's, turned with the body. (The angle's
    // cosine and sine are tendon's own: the same bits on every engine.)
    let rx = x0 - px;
    let ry = y0 - py;
    let rz = z0 - pz;
    let along = rx * f[3] + ry * f[4] + rz * f[5];
    rx -= along * f[3];
    ry -= along * f[4];
    rz -= along * f[5];
    let sx = x - x0;
    let sy = y - y0;
    let sz = z - z0;
    along = sx * f[3] + sy * f[4] + sz * f[5];
    sx -= along * f[3];
    sy -= along * f[4];
    sz -= along * f[5];
    const r2 = rx * rx + ry * ry + rz * rz;
    const s2 = sx * sx + sy * sy + sz * sz;
    if (r2 + s2 - (r2 + s2) !== 0) {
      refuseSwing(dt);
    }
    // The new direction from the pivot (unit) and the step to carry (the arc's length along the
    // circle's direction there).
    let nx = 0;
    let ny = -1;
    let nz = 0;
    let tx = 0;
    let ty = 0;
    let tz = 0;
    if (r2 > 0) {
      const ri = 1 / Math.sqrt(r2);
      rx *= ri;
      ry *= ri;
      rz *= ri;
      const radial = sx * rx + sy * ry + sz * rz;
      let ux = sx - radial * rx;
      let uy = sy - radial * ry;
      let uz = sz - radial * rz;
      const arc = Math.sqrt(ux * ux + uy * uy + uz * uz);
      nx = rx;
      ny = ry;
      nz = rz;
      if (arc > 0) {
        ux /= arc;
        uy /= arc;
        uz /= arc;
        const a = arcTurn;
        // At most half a turn a step (94 rad/s at 1/30 s): a step past it means nothing on a
        // circle, and an angle of 1e16 rad and more is past what the cosine's reduction keeps exact
        // (a push of 1e30 left the body 6e122 from the bar, 1e45 wrote NaN).
        const angle = arc / l;
        a[0] = angle < Math.PI ? angle : Math.PI;
        cosSinAt(a, 0, a, 1);
        const c = a[1];
        const sn = a[2];
        nx = c * rx + sn * ux;
        ny = c * ry + sn * uy;
        nz = c * rz + sn * uz;
        tx = (c * ux - sn * rx) * arc;
        ty = (c * uy - sn * ry) * arc;
        tz = (c * uz - sn * rz) * arc;
      }
    } else {
      // The body at the pivot (a hang of no length): straight below it, or where the step went.
      const d = Math.sqrt(s2);
      if (d > 0) {
        nx = sx / d;
        ny = sy / d;
        nz = sz / d;
      }
    }
    if (!(nx - nx + (ny - ny) + (nz - nz) + (tx - tx) + (ty - ty) + (tz - tz) === 0)) refuseSwing(dt);
    b[0] = px + nx * l;
    b[1] = py + ny * l;
    b[2] = pz + nz * l;
    if (dt > 0) {
      b[3] = b[0] - tx;
      b[4] = b[1] - ty;
      b[5] = b[2] - tz;
      this.state[STATE.lastDt] = dt;
    } else if (!this.started) {
      b[3] = b[0];
      b[4] = b[1];
      b[5] = b[2];
    }
    this.started = true;
    const wall = f[17];
    if (wall >= 0) {
      // A ledge: the body's point no nearer the wall than `wall` behind the edge. Past it, the
      // point goes to where the circle it swings on meets that plane, below the pivot, and stops
      // there: the point before is set to it too, so that the next step carries no velocity (the
      // move onto the plane would otherwise read as one, away from the wall).
      const ahead = (b[0] - px) * f[14] + (b[2] - pz) * f[16];
      if (ahead > -wall) {
        // Up in the plane across the bar: facing × bar (a unit vector, the two being unit and
        // square), turned up.
        let ux = -f[16] * f[4];
        let uy = f[16] * f[3] - f[14] * f[5];
        let uz = f[14] * f[4];
        if (uy < 0) {
          ux = -ux;
          uy = -uy;
          uz = -uz;
        }
        const down = Math.sqrt(l * l - wall * wall);
        b[0] = px - wall * f[14] - down * ux;
        b[1] = py - down * uy;
        b[2] = pz - wall * f[16] - down * uz;
        b[3] = b[0];
        b[4] = b[1];
        b[5] = b[2];
      }
    }
  }

  /** The world matrix: the body's up along pivot − body, its side along the bar. */
  private placeBody(): void {
    const px = this.pivot[0];
    const py = this.pivot[1];
    const pz = this.pivot[2];
    const f = this.frame;
    const b = this.body;
    const s = f[7];
    let ux = px - b[0];
    let uy = py - b[1];
    let uz = pz - b[2];
    const ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
    ux /= ul;
    uy /= ul;
    uz /= ul;
    // Forward ⟂ up and the bar, on the side of the facing direction; side = up × forward.
    let fx = uy * f[5] - uz * f[4];
    let fy = uz * f[3] - ux * f[5];
    let fz = ux * f[4] - uy * f[3];
    if (fx * f[14] + fz * f[16] < 0) {
      fx = -fx;
      fy = -fy;
      fz = -fz;
    }
    const fl = Math.sqrt(fx * fx + fy * fy + fz * fz);
    fx /= fl;
    fy /= fl;
    fz /= fl;
    const sx = uy * fz - uz * fy;
    const sy = uz * fx - ux * fz;
    const sz = ux * fy - uy * fx;
    // The character's forward (model +Z, or the rig's rest facing) onto f.
    const c = this.facing[0];
    const t = this.facing[1];
    const W = this.world;
    W[0] = (c * sx + t * fx) * s;
    W[1] = (c * sy + t * fy) * s;
    W[2] = (c * sz + t * fz) * s;
    W[3] = 0;
    W[4] = ux * s;
    W[5] = uy * s;
    W[6] = uz * s;
    W[7] = 0;
    W[8] = (c * fx - t * sx) * s;
    W[9] = (c * fy - t * sy) * s;
    W[10] = (c * fz - t * sz) * s;
    W[11] = 0;
    // The shoulders' midpoint is the body point: the origin is shoulder height below it.
    W[12] = b[0] - ux * f[9];
    W[13] = b[1] - uy * f[9];
    W[14] = b[2] - uz * f[9];
    W[15] = 1;
  }

  /**
   * The hands' grips, shoulder width apart about the pivot. A hand holds its point of the bar until
   * the body has moved past it, then reaches a quarter step ahead of its place while the other
   * holds. A reach is paced by the body's travel, and by time too, so a body that stops mid-reach
   * still brings the hand onto the bar (within {@link REACH_TIME}) and hangs by both hands.
   */
  private placeHands(): void {
    const px = this.pivot[0];
    const py = this.pivot[1];
    const pz = this.pivot[2];
    const travel = this.state[STATE.travel];
    const dt = this.step[0];
    const f = this.frame;
    const step = f[11];
    const half = 0.5 * f[10];
    const r = this.report;
    const g = this.grips;
    const position = this.state[STATE.position];
    // Which side of the pivot each hand is on depends on the character's side axis along the bar.
    const sideSign = this.world[0] * f[3] + this.world[1] * f[4] + this.world[2] * f[5] > 0 ? 1 : -1;
    const home0 = position + sideSign * half;
    const home1 = position - sideSign * half;
    if (!this.gripsSet) {
      // Where the hands held before this update's move (set at its end, the first reach set off
      // a frame late, its hands a frame's travel behind at every rate).
      g[GRIP.at] = home0 - travel;
      g[GRIP.length + GRIP.at] = home1 - travel;
      g[GRIP.reaching] = 0;
      g[GRIP.length + GRIP.reaching] = 0;
      this.gripsSet = true;
    }
    const distance = travel < 0 ? -travel : travel;
    // The share of this update's travel and time a reach has not used yet: a hand that lands
    // part-way through the update hands the rest to the other's reach, which may set off in the
    // same update. (Taken whole by the landing, it cost every reach up to a frame: a cycle of
    // reaches took 0.267 s at 30 Hz and 0.254 s at 240, and at 30 Hz the body fell a reach behind
    // within 1.5 s, its hands stopping 12 cm from where they stop at 60 Hz.)
    let share = 1;
    for (let pass = 0; pass < 2 && share > 0; pass++) {
      // One hand at a time lets go, and only while the other holds.
      let release = -1;
      let lead = 0;
      let span = 0;
      // The share of the update since a hand let go: since its holding fell behind, not from the
      // update's start (a reach then set off up to a frame early, landing its hand as much ahead).
      let since = share;
      if (g[GRIP.reaching] === 0 && g[GRIP.length + GRIP.reaching] === 0) {
        const e0 = g[GRIP.at] - home0;
        const e1 = g[GRIP.length + GRIP.at] - home1;
        if (travel !== 0) {
          const dir = travel > 0 ? 1 : -1;
          // The hand furthest behind its place goes; level (from rest, or to rounding: 1e-9 steps,
          // so that the same hang at another size picks the same hand), the hand on the side moved to.
          const s0 = e0 * dir;
          const s1 = e1 * dir;
          const level = 1e-9 * step;
          const hand = s0 < s1 - level ? 0 : s1 < s0 - level ? 1 : sideSign * dir > 0 ? 0 : 1;
          const behind = hand === 0 ? s0 : s1;
          const other = hand === 0 ? s1 : s0;
          // It lands as the holding hand falls a quarter step behind its own place.
          if (behind < 0) {
            release = hand;
            lead = dir;
            const fell = -behind / distance;
            if (fell < since) since = fell;
            // The other hand's lead then, when the reach set off.
            const then = other + distance * since;
            span = then > 0 ? then + 0.25 * step : 0.25 * step;
          }
        } else if (e0 > 0.5 * step || e0 < -0.5 * step || e1 > 0.5 * step || e1 < -0.5 * step) {
          // At rest, a hand far from its place (the position set by hand) goes back to it.
          release = e0 > 0.5 * step || e0 < -0.5 * step ? 0 : 1;
          span = 0.5 * step;
        }
      }
      // Written here, not in a method: a double passed to a call that is not inlined is boxed.
      if (release >= 0) {
        const o = release * GRIP.length;
        g[o + GRIP.from] = g[o + GRIP.at];
        g[o + GRIP.lead] = lead;
        g[o + GRIP.span] = span;
        g[o + GRIP.progress] = 0;
        g[o + GRIP.reaching] = 1;
      }
      let left = 0;
      for (let hand = 0; hand < 2; hand++) {
        const o = hand * GRIP.length;
        if (g[o + GRIP.reaching] !== 1) continue;
        const home = hand === 0 ? home0 : home1;
        const part = hand === release ? since : share;
        const byTravel = (distance * part) / g[o + GRIP.span];
        const byTime = (dt * part) / REACH_TIME;
        const added = byTravel > byTime ? byTravel : byTime;
        const progress = g[o + GRIP.progress] + added;
        // Landed at 1 less the rounding of the sum: a move that divides the span exactly lands
        // on the same frame at any scale of the world (the sum of thirds is 1 − 1e-16 at one
        // scale, 1 at another), and hands on no share of the update (under 1e-9 of it).
        if (progress >= 1 - 1e-9) {
          // The share of the update after the landing: the hand lands where its goal was then,
          // the body that much of the update's travel short of where it ends (placed at the
          // update's end, a grip stood up to a frame's travel off: 1–2 cm at 30 Hz).
          const over = added > 0 ? (part * (progress - 1)) / added : 0;
          const after = over > 1e-9 ? over : 0;
          let goal = home + g[o + GRIP.lead] * 0.25 * step - travel * after;
          goal = goal < 0 ? 0 : goal > f[6] ? f[6] : goal;
          g[o + GRIP.at] = goal;
          g[o + GRIP.reaching] = 0;
          left = after;
        } else {
          let goal = home + g[o + GRIP.lead] * 0.25 * step;
          goal = goal < 0 ? 0 : goal > f[6] ? f[6] : goal;
          const t = progress * progress * (3 - 2 * progress);
          g[o + GRIP.progress] = progress;
          g[o + GRIP.at] = g[o + GRIP.from] + (goal - g[o + GRIP.from]) * t;
        }
      }
      share = left;
    }
    for (let hand = 0; hand < 2; hand++) {
      const o = hand * GRIP.length;
      let lift = 0;
      if (g[o + GRIP.reaching] === 1) {
        const progress = g[o + GRIP.progress];
        const t = progress * progress * (3 - 2 * progress);
        lift = 4 * t * (1 - t) * 0.1 * step;
      }
      const ro = hand * HANG_HAND.length;
      r[ro + HANG_HAND.gripping] = 1 - g[o + GRIP.reaching];
      // A grip is a point on the bar: the pivot is the bar's point at `position`.
      const along = g[o + GRIP.at] - position;
      r[ro] = px + f[3] * along;
      r[ro + 1] = py + f[4] * along + lift;
      r[ro + 2] = pz + f[5] * along;
    }
  }

  private solveArms(pose: Pose, model: Float64Array): void {
    invert(this.worldInverse, 0, this.world, 0);
    const Wi = this.worldInverse;
    const t = this.target;
    const pole = this.pole;
    for (let hand = 0; hand < 2; hand++) {
      const o = hand * HANG_HAND.length;
      const x = this.report[o];
      const y = this.report[o + 1];
      const z = this.report[o + 2];
      t[0] = Wi[0] * x + Wi[4] * y + Wi[8] * z + Wi[12];
      t[1] = Wi[1] * x + Wi[5] * y + Wi[9] * z + Wi[13];
      t[2] = Wi[2] * x + Wi[6] * y + Wi[10] * z + Wi[14];
      // Elbows out to the side and a little back.
      const solver = this.arms[hand];
      solver.weightFrom(this.goalWeight.state, 3);
      const m = 16 * solver.middle;
      const reach = this.reaches[hand];
      // (Given for a character facing +Z, turned to the rig's rest facing.)
      const ox = (hand === 0 ? 1 : -1) * reach;
      const oz = -0.3 * reach;
      const c = this.facing[0];
      const tn = this.facing[1];
      pole[0] = model[m + 12] + (ox * c + oz * tn);
      pole[1] = model[m + 13];
      pole[2] = model[m + 14] + (oz * c - ox * tn);
      solver.solve(pose, model, t, pole);
    }
  }
}
