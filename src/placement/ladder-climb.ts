/**
 * Climbing a ladder: hands and feet on its rungs in a natural sequence, procedurally, over any base
 * pose (an idle clip will do).
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
import { distance, normalizeScaled } from '../kernel/vec3.js';
import { restModelMatrices, subtreeToModel } from '../pose/forward-kinematics.js';
import type { Pose } from '../pose/pose.js';
import { checkRig } from '../rig/check-rig.js';
import type { ArmRig, LegRig, Rig } from '../rig/limbs.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import {
  checkOption,
  checkOptionKeys,
  optionKeys,
  refuseDt,
  refuseNotNumber,
  turnSpeedOption,
} from './check-option.js';
import { legLength } from './contacts.js';
import { GoalWeight } from './goal-weight.js';
import { JointTurnLimit } from './joint-turn-limit.js';
import { OwnWrites } from './own-writes.js';
import { checkPoseReads, type PoseReads, poseReads } from './pose-reads.js';
import { restFacing } from './rig-facing.js';

/** A ladder in world space (+Y up): a vertical line of rungs. */
export interface Ladder {
  /** The foot of the ladder on the ground, midway between its rails. */
  readonly bottom: readonly [number, number, number];
  /** Horizontal direction from the ladder toward the side it is climbed from, `[x, z]`. */
  readonly facing: readonly [number, number];
  /** Number of rungs: a whole number, 2 or more. */
  readonly rungCount: number;
  /** Distance between rungs, > 0. */
  readonly spacing: number;
  /** Height of the first rung above `bottom`, > 0. Default `spacing`. */
  readonly firstRung?: number;
  /** Distance between the rails, > 0. Default 0.45. */
  readonly width?: number;
  /**
   * How far the rails rise above the last rung, ≥ 0: the hands climb on up them, one spacing a
   * grip, while the feet climb the last rungs, and hold their tops as the feet step off. Default
   * 4 × spacing (rails about 1 m over the landing at 0.3 m rungs, as ladders have them). At 0 the
   * hands hold the rails at the last rung.
   */
  readonly railHeight?: number;
}

/** The keys of {@link Ladder} (any other is refused: a misspelling was ignored). */
const LADDER_KEYS = optionKeys<Ladder>({
  bottom: true,
  facing: true,
  rungCount: true,
  spacing: true,
  firstRung: true,
  width: true,
  railHeight: true,
});

/** Set-up of a {@link LadderClimb}; lengths in world units. */
export interface LadderClimbOptions {
  /** The ladder to climb. */
  readonly ladder: Ladder;
  /** Model-to-world scale of the character, > 0. Default 1. */
  readonly scale?: number;
  /**
   * Horizontal distance from the ladder to the character's origin while climbing, ≥ 0. Default 0.3 ×
   * the leg's length.
   */
  readonly standOff?: number;
  /** How far a moving hand or foot swings away from the ladder, at mid-move, ≥ 0. Default 0.25 × spacing. */
  readonly arc?: number;
  /**
   * How many rungs above the feet the hands grip: a whole number, 2 or more (a hand holds a rung,
   * and at 1 a hand would share its rung with a foot). Default: the rungs that put a gripping
   * hand's span of heights in the middle of what its arm reaches, at least 2.
   */
  readonly handRungsAbove?: number;
  /**
   * Rungs a limb moves at a time, 1 or 2: at 2 the right hand and foot hold even rungs and the left
   * odd ones, at 1 both hands hold one rung and both feet one. Default 2 where a hand's and a
   * foot's span of heights while they hold (1.5 rungs) fit the character's arms and legs, else 1.
   */
  readonly rungsPerMove?: 1 | 2;
  /**
   * How fast the turn the climb adds to a limb's joint may change while the climb eases in or out
   * (and until the limbs have caught up after), radians a second: default 3π, 9° a frame at 60 Hz
   * (`Infinity`: no limit). At a steady weight of 1 the limbs take their rungs at once.
   */
  readonly maxTurnSpeed?: number;
}

/** The keys of {@link LadderClimbOptions} (any other is refused: a misspelling was ignored). */
const LADDER_CLIMB_OPTIONS = optionKeys<LadderClimbOptions>({
  ladder: true,
  scale: true,
  standOff: true,
  arc: true,
  handRungsAbove: true,
  rungsPerMove: true,
  maxTurnSpeed: true,
});

/**
 * Per-limb numbers of the last update, limbs in the order right hand, left foot, left hand, right
 * foot: the target `x, y, z` (world), 1 while gripping, the rung held (−1 the ground below, the rung
 * count the ground above; NaN while moving), the IK weight.
 */
export const CLIMB_LIMB = {
  /** Where the hand or foot is held, world `x, y, z`. */
  target: 0,
  /** 1 while it grips its rung, 0 while it moves or lets go. */
  gripping: 3,
  /**
   * The rung it grips or moves to (0 the lowest, −1 the ground below; for a foot the rung count is
   * the top, for a hand it and above are grips on the rails, a spacing apart up to their top).
   */
  rung: 4,
  /**
   * Its IK weight: its own share of the climb (a hand on the rails lets go, easing to 0, as the feet
   * step off over the top) times the climb's weight ({@link LadderClimb.weight}).
   */
  weight: 5,
  /** Numbers per limb. */
  length: 6,
} as const;

/** What {@link LadderClimb}'s state array holds. */
const CLIMB_STATE = {
  /** The climb's progress, carried from one update to the next. */
  progress: 0,
  /** The update under way's rungs the hands run ahead of the feet (worked out by placeBody). */
  handShift: 1,
  /** The update under way's progress, committed once the update cannot throw. */
  next: 2,
  /**
   * The update under way's soles' level in the pose given (model units): 0, or its legs' lowest
   * end, foot or toe where one is below the origin (soleLevel).
   */
  sole: 3,
  /** The update under way's share of the way over the top, 0 to 1 (worked out by placeBody). */
  over: 4,
  /**
   * The update under way's progress for the hand frame[17] names (see the constructor), in place
   * of progress + handShift (worked out by placeBody).
   */
  settled: 5,
} as const;

/** The climb's lowest progress ({@link LadderClimb.start}): both feet on the ground below. */
const CLIMB_START = -3;

/** Where each limb's move starts within a two-rung cycle of progress (one limb moves at a time). */
const PHASES = [0, 0.5, 1, 1.5];
/** A limb moves during the first quarter-cycle after its phase. */
const MOVE = 0.5;

/**
 * A climb up or down a ladder, driven by one number: the climb's progress in rungs. Each limb holds
 * a rung while one other moves: right hand, left foot, left hand, right foot, each two rungs per
 * cycle (one, on rungs wide for the character: {@link LadderClimbOptions.rungsPerMove}), a moving
 * limb arcing away from the ladder onto its next rung, while the body rises (or sinks) steadily. Progress below the ladder stands on the ground in front of it (the feet step
 * from the ground onto the first rungs), progress past the top climbs onto the ground above (the
 * feet step onto it, the body moves over the top, the hands let go). Running the progress backward
 * climbs down the same way.
 *
 * Each update writes the character's world matrix (facing the ladder), then bends the arms and legs
 * onto their targets by two-bone IK. A gripping hand or foot holds its rung exactly (weight 1)
 * wherever the limb can reach it. Trig-free; no allocation per update.
 */
export class LadderClimb {
  /** The lowest progress (standing on the ground in front of the ladder). */
  readonly start: number;
  /** The highest progress (standing on the ground above the ladder). */
  readonly end: number;
  /** Per limb, {@link CLIMB_LIMB} numbers. */
  readonly report = new Float64Array(4 * CLIMB_LIMB.length);
  /** The character's model-to-world matrix of the last update. */
  readonly world = new Float64Array(16);
  /** The solvers: right arm, left leg, left arm, right leg. */
  readonly limbs: readonly TwoBoneIk[];
  /** The limbs' joints as the last update found and left them (a pose not animated since). */
  private readonly own: OwnWrites;
  /** The limit on the limbs' turns while the climb eases in or out. */
  private readonly turns: JointTurnLimit;
  private readonly skeleton: Skeleton;
  /** The joints an update reads, checked before it writes anything (pose-reads.ts). */
  private readonly reads: PoseReads;
  /** Ladder and set-up numbers (see the constructor). */
  private readonly frame: Float64Array;
  private readonly feet: Int32Array;
  private readonly worldInverse = new Float64Array(16);
  private readonly parentInverse = new Float64Array(16);
  /**
   * The climb's progress, the rungs the hands' progress runs ahead of the feet's (standing rather
   * than crouched), the progress, soles' level and hands' release of this update ({@link CLIMB_STATE}).
   */
  private readonly state = new Float64Array(6);
  /** The climb's weight ({@link GoalWeight}). */
  private readonly goalWeight = new GoalWeight();
  /** The world matrix and the report an update works out, copied out once nothing can throw. */
  private readonly nextWorld = new Float64Array(16);
  /** `[cos, sin]` of the turn from the rig's rest facing to +Z (restFacing). */
  private readonly facing: [number, number];
  private readonly nextReport = new Float64Array(4 * CLIMB_LIMB.length);
  /** Per limb, its model-space target and pole (`x, y, z` each), all worked out before any solve. */
  private readonly goals = new Float64Array(24);
  private readonly target = new Float64Array(3);
  private readonly pole = new Float64Array(3);
  private readonly sides: Float64Array;
  private readonly limbOffsets: Float64Array;
  /** Rungs a limb moves at a time ({@link LadderClimbOptions.rungsPerMove}). */
  readonly step: 1 | 2;

  /**
   * @throws {@link TendonError} `placement/invalid-option` for a rig without two arms and two legs,
   *   a ladder that does not hold together or an option out of its range (see
   *   {@link LadderClimbOptions} and {@link Ladder}), naming it; `argument/invalid` for a skeleton,
   *   rig, options or ladder that is not one.
   */
  constructor(skeleton: Skeleton, rig: Rig, options: LadderClimbOptions) {
    const name = 'LadderClimb';
    checkSkeletonArg(skeleton, name);
    checkRig(rig, skeleton, name);
    this.facing = restFacing(rig);
    checkObjectArg(options, name, 'options');
    checkOptionKeys(options, LADDER_CLIMB_OPTIONS, name);
    checkObjectArg(options.ladder, name, 'options.ladder');
    checkOptionKeys(options.ladder, LADDER_KEYS, `${name} (ladder)`);
    checkArrayArg(options.ladder.bottom, name, "the ladder's bottom", 3);
    checkArrayArg(options.ladder.facing, name, "the ladder's facing", 2);
    const ladder = options?.ladder;
    if (rig?.legs?.length < 2 || rig?.arms?.length < 2) {
      throw new TendonError('placement/invalid-option', `${name}: the rig needs two arms and two legs`);
    }
    // Each number named (a NaN spacing was told as "a ladder needs a finite bottom and facing").
    for (const [key, list] of [
      ['bottom', ladder.bottom],
      ['facing', ladder.facing],
    ] as const) {
      for (let k = 0; k < list.length; k++) {
        if (typeof list[k] !== 'number' || !Number.isFinite(list[k])) {
          throw new TendonError(
            'placement/invalid-option',
            `${name}: ladder.${key}[${k}] is ${describeArg(list[k])}, not a finite number`,
          );
        }
      }
    }
    checkOption(ladder.rungCount, name, 'ladder.rungCount', 2, false, true);
    checkOption(ladder.spacing, name, 'ladder.spacing', 0, true);
    if (ladder.firstRung !== undefined) checkOption(ladder.firstRung, name, 'ladder.firstRung', 0, true);
    if (ladder.width !== undefined) checkOption(ladder.width, name, 'ladder.width', 0, true);
    if (ladder.railHeight !== undefined) checkOption(ladder.railHeight, name, 'ladder.railHeight', 0, false);
    // Made unit scaled by its larger component first: the squares of 1e-200 or 1e200 under- or
    // overflow (1e-200 was refused as zero, 1e200 flattened the climber to nothing).
    const facing = [ladder.facing[0], 0, ladder.facing[1]];
    if (!normalizeScaled(facing, 0, facing, 0)) {
      throw new TendonError('placement/invalid-option', `${name}: facing must be a non-zero [x, z]`);
    }
    this.skeleton = skeleton;
    const scale = options.scale ?? 1;
    checkOption(scale, name, 'scale', 0, true);
    // Checked here, before they are used: a NaN, an infinity or a negative distance would first
    // show as a NaN target in the middle of an update, a fractional count as hands between rungs.
    if (options.standOff !== undefined) checkOption(options.standOff, name, 'standOff', 0, false);
    if (options.arc !== undefined) checkOption(options.arc, name, 'arc', 0, false);
    if (options.handRungsAbove !== undefined) {
      checkOption(options.handRungsAbove, name, 'handRungsAbove', 2, false, true);
    }
    const left = (side: string) => side === 'left';
    const legL = rig.legs.find((l) => left(l.side)) ?? rig.legs[0];
    const legR = rig.legs.find((l) => l !== legL && !left(l.side)) ?? rig.legs[1];
    const armL = rig.arms.find((a) => left(a.side)) ?? rig.arms[0];
    const armR = rig.arms.find((a) => a !== armL && !left(a.side)) ?? rig.arms[1];
    const rest = restModelMatrices(skeleton);
    const legLengthWorld = legLength(rest, legL) * scale;
    const spacing = ladder.spacing;
    // The body's heights are taken from the soles' level at rest: the origin, as glTF characters
    // stand on it, or the lowest joint of the legs where one is below it (a capture whose origin is
    // its hips: CMU's feet stand 16 units below it, and were put that far under their rungs). Each
    // update places the origin above the soles of the pose it is given (soleLevel again): a
    // capture's frame has its hips up where its rest pose has them at the origin.
    const sole = soleLevel(rest, [legL, legR]);
    // A climber's hips sit about 40% of a leg above its feet's level and 30% of a leg out from
    // the ladder. The soles' level when standing is then `crouch` below the feet's level.
    const hipY = (rest[16 * legL.root + 13] - sole) * scale;
    const shoulderY = (rest[16 * armL.root + 13] - sole) * scale;
    const standOff = options.standOff ?? 0.3 * legLengthWorld;
    const width = ladder.width ?? 0.45;
    if (options.rungsPerMove !== undefined && options.rungsPerMove !== 1 && options.rungsPerMove !== 2) {
      throw new TendonError(
        'placement/invalid-option',
        `${name}: rungsPerMove is ${String(options.rungsPerMove)}, not 1 or 2`,
      );
    }
    // While a hand or foot holds, the body climbs on under it: 0.75 of the rungs a limb moves at a
    // time (it moves for a quarter of its cycle). The hands' span of heights against the shoulder is
    // centred in the band where it is neither past the arm's reach nor folded in to its elbow; a
    // foot's is kept within the leg's reach and below the hips. The rungs come in whole spacings:
    // what `hands` leaves over moves the body up or down (the hips' height above the feet), as far
    // as the legs allow. Two rungs a move where both spans fit, else one (wide rungs for the
    // character).
    const [bandLow, bandHigh] = armBand(rest, armL, scale, standOff, 0.4 * width);
    const band = 0.5 * (bandLow + bandHigh);
    const hipsAbove = 0.4 * legLengthWorld;
    const shoulderAbove = shoulderY - hipY + hipsAbove;
    const legReach = 0.95 * legLengthWorld > standOff ? 0.95 * legLengthWorld : standOff;
    const legSpan = Math.sqrt(legReach * legReach - standOff * standOff);
    // (One rung a move, the two hands hold half a cycle apart: together they span 1.25 rungs, as
    // the two feet do; two rungs a move, each hand and each foot spans 1.5.)
    const travel = (g: number) => (g === 2 ? 1.5 : 1.25) * spacing;
    // (With a fifth of the band to spare: stepping on and off the ladder, and a hand's distance
    // from the rungs changing as the body climbs, take more. The robot at half scale: 0.3 m rungs
    // fit, and 0.35 m rungs did not, its hands 3 cm off them, 22° a frame.)
    const fits = (g: number) =>
      travel(g) <= 0.8 * (bandHigh - bandLow) && travel(g) <= 0.8 * (legSpan - 0.1 * legLengthWorld);
    const step: 1 | 2 = options.rungsPerMove ?? (fits(2) ? 2 : 1);
    // Where a hand holds on average, in rungs above the feet's level (the phases' means): `hands`
    // and a half moving two rungs at a time, and a quarter moving one.
    const mean = step === 2 ? 0.5 : 0.25;
    const hands = options.handRungsAbove ?? Math.max(2, Math.round((band + shoulderAbove) / spacing - mean));
    // The body raised by `rise` puts the hands' span's centre at the band's; the lowest foot within
    // 0.95 of the leg, the highest 0.1 of it below the hips.
    let rise = (hands + mean) * spacing - shoulderAbove - band;
    const highest = legSpan - hipsAbove - 0.5 * travel(step);
    const lowest = 0.1 * legLengthWorld + 0.5 * travel(step) - hipsAbove;
    if (rise > highest) rise = highest;
    if (rise < lowest) rise = lowest > highest ? highest : lowest;
    if (!(rise > 0 || rise <= 0)) rise = 0;
    const crouch = hipY - hipsAbove - rise;
    this.frame = Float64Array.of(
      ladder.bottom[0],
      ladder.bottom[1],
      ladder.bottom[2],
      facing[0],
      facing[2],
      ladder.rungCount,
      spacing,
      ladder.firstRung ?? spacing,
      width,
      scale,
      standOff,
      options.arc ?? 0.25 * spacing,
      hands,
      crouch,
      (0.5 * (rest[16 * legL.foot + 13] + rest[16 * legR.foot + 13]) - sole) * scale,
      0.5 * Math.abs(rest[16 * legL.root + 12] - rest[16 * legR.root + 12]) * scale,
      ladder.railHeight ?? 4 * spacing,
      -1,
      0,
      0,
    );
    // Per limb: the rung it reaches at the end of a cycle, from the cycle's start. With the phases,
    // a foot holds rungs around `progress + 0.25`, a hand around `progress + hands + 0.75`; the
    // right hand holds even rungs (from `hands`), the left odd ones, and the feet likewise.
    this.limbOffsets =
      step === 2 ? Float64Array.of(hands, 0, hands + 1, 1) : Float64Array.of(hands, 0, hands, 0);
    this.step = step;
    // Standing below the ladder, the hands' progress (progress + hand shift) stands still at
    // `standing`, the body with it; where that fell within a hand's move, the hand hovered mid-arc
    // off the ladder for as long as the character stood (the robot's right hand, until 27
    // November; a review). That hand holds one end of the move while the character stands: the
    // rung before it, making the move as the climb's progress passes it (when no other limb
    // moves), or the rung after it, staying there until the body's rise catches up (placeBody);
    // the one nearer the middle of the hand's reach from the standing shoulder. Hands move in the
    // first quarter of each half-cycle, the right hand's from 0, the left's from half a cycle.
    const firstRung = this.frame[7];
    const standing = (crouch - firstRung) / spacing - (step === 2 ? 0.25 : -0.125);
    const half = 0.5 * step;
    const margin = step / 16;
    const within = standing - half * Math.floor(standing / half);
    if (within < 0.25 * step + margin && within - within === 0) {
      const start = standing - within;
      // (Which hand: the right moves from whole cycles, the left from half-cycles between.)
      const whole = start / step;
      const hand = Math.abs(whole - Math.round(whole)) < 0.25 ? 0 : 2;
      // The height above the ground of the rung (or rail grip) the hand holds at hand progress
      // `at`, as update works it out.
      const point = new Float64Array(3);
      const heightAt = (at: number) => {
        const k = Math.floor((at - 0.5 * step * PHASES[hand]) / step);
        this.rungPoint(point, this.clampRung(step * k + step + this.limbOffsets[hand], false), 1, false);
        return point[1] - this.frame[1];
      };
      const reach = shoulderY + band;
      const before = Math.abs(heightAt(start - margin) - reach);
      const after = Math.abs(heightAt(start + 0.25 * step + margin) - reach);
      this.frame[17] = hand;
      this.frame[18] = start;
      // (A move from the climb's start or below has no rung before it to hold there: the hand
      // sat at its move's start, then moved as the climb began; a review.)
      this.frame[19] = after < before || start - margin < CLIMB_START ? 1 : 0;
    }
    // Per limb: side (−1 right, +1 left) as seen by the climber, and whether it is a foot.
    this.sides = Float64Array.of(-1, 1, 1, -1);
    this.feet = Int32Array.of(0, 1, 0, 1);
    const chain = (limb: { root: number; middle: number; end: number }) => ({
      root: limb.root,
      middle: limb.middle,
      end: limb.end,
    });
    const legSolver = (leg: typeof legL) =>
      leg.shape === 'effector' && leg.endLocal !== null
        ? new TwoBoneIk(skeleton, { root: leg.root, middle: leg.middle, endLocal: leg.endLocal })
        : new TwoBoneIk(skeleton, chain(leg));
    this.limbs = [
      new TwoBoneIk(skeleton, chain(armR)),
      legSolver(legL),
      new TwoBoneIk(skeleton, chain(armL)),
      legSolver(legR),
    ];
    const armLength = (arm: typeof armL) =>
      legLength(rest, {
        ...legL,
        root: arm.root,
        middle: arm.middle,
        end: arm.end,
        endLocal: null,
        shape: 'chain',
      });
    this.reaches = Float64Array.of(
      armLength(armR),
      legLength(rest, legL),
      armLength(armL),
      legLength(rest, legR),
    );
    this.legsBySide = [legL, legR];
    this.reads = poseReads(
      skeleton,
      [armR, armL, legL, legR].flatMap((limb) => [limb.root, limb.middle, limb.end]),
      // A separate foot bone is moved in its parent's frame: its model and its parent's are read.
      [legL.foot, legR.foot, skeleton.parents[legL.foot], skeleton.parents[legR.foot]],
    );
    // The limbs turn; an effector leg's foot bone follows its leg's end.
    this.turns = new JointTurnLimit(
      this.limbs.flatMap((limb) => [limb.root, limb.middle]),
      turnSpeedOption(options.maxTurnSpeed, name),
    );
    this.own = new OwnWrites(
      skeleton,
      [legL, legR].filter((leg) => leg.shape === 'effector' && leg.foot >= 0).map((leg) => leg.foot),
      this.limbs.flatMap((limb) => [limb.root, limb.middle, limb.end].filter((j) => j >= 0)),
    );
    this.effectorFeet = Int32Array.of(
      -1,
      legL.shape === 'effector' ? 1 : 0,
      -1,
      legR.shape === 'effector' ? 1 : 0,
    );
    // The ground phases: below `start` both feet stand on the ground in front of the ladder; past
    // `end` they stand on the ground at the top.
    this.start = CLIMB_START;
    this.end = ladder.rungCount + 2;
    this.state[CLIMB_STATE.progress] = this.start;
  }

  /**
   * The climb's weight now, in [0, 1]: how far the hands and feet are taken from the base pose onto
   * their rungs (each limb's own weight, {@link CLIMB_LIMB}`.weight` in the report, is its share
   * of the climb times this). 1 at first; eased by {@link LadderClimb.setWeight}.
   */
  get weight(): number {
    return this.goalWeight.value;
  }

  /**
   * Eases the climb in (1) or out (0), or to any weight between, over `easeTime` seconds of the
   * updates' `dt` (smoothstep: no jump at either end; a new goal mid-ease starts from where the
   * weight is). At weight 0 an update still moves the progress and writes
   * {@link LadderClimb.world} and the report (the limbs' weights 0), but leaves the pose and the
   * model as it was given them; between, each limb is turned that share of the way onto its
   * rung, and a separate foot bone (the robot's) follows its leg's end by the same share.
   *
   * @throws {@link TendonError} `placement/invalid-option` for a goal outside [0, 1] or an ease
   *   time that is not a finite number ≥ 0 (the weight is left as it was).
   */
  setWeight(goal: number, easeTime = 0.5): void {
    const before = this.goalWeight.value;
    this.goalWeight.set(goal, easeTime, 'LadderClimb.setWeight');
    // A jump at once, as asked: the turn limit would spread it.
    if (easeTime === 0 && this.goalWeight.value !== before) this.turns.reset();
  }

  /**
   * The climb's progress, in rungs: 0 has the feet around the first rung. Set it to jump the climb
   * (the next update clamps it to [{@link LadderClimb.start}, {@link LadderClimb.end}]).
   */
  get progress(): number {
    return this.state[CLIMB_STATE.progress];
  }

  /**
   * Jumps the climb to `value` rungs (see the getter).
   *
   * @throws {@link TendonError} `placement/invalid-input` when set to anything but a finite
   *   number (the progress is left as it was).
   */
  set progress(value: number) {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new TendonError(
        'placement/invalid-input',
        `LadderClimb.progress: ${describeArg(value)} is not a finite number`,
      );
    }
    this.state[CLIMB_STATE.progress] = value;
  }

  private readonly effectorFeet: Int32Array;
  /** Per limb, its length in the rest pose (model units). */
  private readonly reaches: Float64Array;
  private readonly legsBySide: readonly [LegRig, LegRig];

  /** The world position of rung `r`'s grip for a limb on side `side` (hands wide, feet narrow). */
  private rungPoint(out: Float64Array, r: number, side: number, foot: boolean): void {
    const f = this.frame;
    const fx = f[3];
    const fz = f[4];
    // The ladder's side axis, as the climber (facing −facing) sees it: its left is facing × up.
    const sx = -fz;
    const sz = fx;
    const count = f[5];
    const spacing = f[6];
    const half = foot ? 0.22 * f[8] : 0.4 * f[8];
    // A foot's joint sits its rest height above what it stands on.
    const lift = foot ? f[14] : 0;
    if (foot && r < 0) {
      // Standing on the ground in front of the ladder, each foot under its hip.
      const d = f[10];
      out[0] = f[0] + fx * d + sx * side * f[15];
      out[1] = f[1] + lift;
      out[2] = f[2] + fz * d + sz * side * f[15];
      return;
    }
    if (r >= count) {
      const top = f[1] + f[7] + count * spacing;
      if (foot) {
        // Past the top: on the ground above, behind the ladder.
        const back = 0.5 * f[10];
        out[0] = f[0] - fx * back + sx * side * half;
        out[1] = top + lift;
        out[2] = f[2] - fz * back + sz * side * half;
        return;
      }
      // A hand past the last rung: on its rail, a spacing a grip, up to the rail's top.
      // (Decided on the rail's rise, k spacings over the last rung, not on the heights: a grip
      // meant for the rail's top came out an ulp under it, and a hand holding the top arced away.)
      const k = (r - count + 1) * spacing;
      const last = f[1] + f[7] + (count - 1) * spacing;
      out[0] = f[0] + sx * side * 0.5 * f[8];
      out[1] = k < f[16] ? last + k : last + f[16];
      out[2] = f[2] + sz * side * 0.5 * f[8];
      return;
    }
    out[0] = f[0] + sx * side * half;
    out[1] = f[1] + f[7] + r * spacing + lift;
    out[2] = f[2] + sz * side * half;
  }

  /**
   * Moves the climb by `deltaRungs` (positive up), clamped to [{@link LadderClimb.start},
   * {@link LadderClimb.end}], then poses the character: call after sampling its base pose and
   * running forward kinematics. Writes {@link LadderClimb.world} (use it to place the character),
   * the arms' and legs' rotations (and the effector feet) into `pose`, and updates `model`.
   * `dt` (seconds since the last update, default 0) is what the climb's weight eases by
   * ({@link LadderClimb.setWeight}); the climb itself moves by `deltaRungs` alone.
   *
   * @throws {@link TendonError} `placement/invalid-input` for a non-finite delta, a `dt` that is
   *   not a finite number ≥ 0, or a ladder so far
   *   out or a scale so small that the limbs' targets pass doubles; `pose/skeleton-mismatch` or
   *   `pose/buffer-size` for a pose or model buffer not of this skeleton; `pose/not-finite`, naming
   *   the joint, for a NaN, an infinity or a zero rotation in a limb's joints or their parents. All
   *   before anything is written: the progress, {@link LadderClimb.world},
   *   {@link LadderClimb.report}, the pose and the model stay as they were.
   */
  update(pose: Pose, model: Float64Array, deltaRungs: number, dt = 0): void {
    // A small entry, inlined into the caller's loop: the numbers reach the update in an array,
    // unboxed (a double passed to a call that is not inlined is a heap number, 16 bytes a frame).
    if (typeof deltaRungs !== 'number') refuseNotNumber(deltaRungs, 'LadderClimb.update', 'delta');
    if (typeof dt !== 'number') refuseNotNumber(dt, 'LadderClimb.update', 'dt');
    this.clock[0] = deltaRungs;
    this.clock[1] = dt;
    this.updateClock(pose, model);
  }

  /**
   * This update's `deltaRungs` (index 0) and `dt` (index 1), as {@link LadderClimb.updateClock}
   * reads them. Setting them is setting the arguments.
   */
  readonly clock = new Float64Array(2);

  /**
   * {@link LadderClimb.update}, with `deltaRungs` read from {@link LadderClimb.clock}.
   *
   * @throws {@link TendonError} as {@link LadderClimb.update}.
   */
  updateClock(pose: Pose, model: Float64Array): void {
    const deltaRungs = this.clock[0];
    const dt = this.clock[1];
    // Checked by arithmetic (v − v is 0 for a finite number, NaN otherwise), with no builtin call.
    if (!(deltaRungs - deltaRungs === 0)) {
      throw new TendonError(
        'placement/invalid-input',
        `LadderClimb.update: delta ${deltaRungs} is not finite`,
      );
    }
    if (!(dt >= 0 && dt - dt === 0)) refuseDt(dt, 'LadderClimb.update');
    checkPoseAndModelArgs(pose, model, this.skeleton, 'LadderClimb.update');
    checkPoseReads(this.reads, pose, model, 'LadderClimb.update');
    const state = this.state;
    const p = Math.min(this.end, Math.max(this.start, state[CLIMB_STATE.progress] + deltaRungs));
    state[CLIMB_STATE.next] = p;
    // (First: a pose not animated since the last update is given back what that update found,
    // before its soles and the poles are read from the model.)
    this.own.undo(pose, model);
    state[CLIMB_STATE.sole] = soleLevel(model, this.legsBySide);
    // Worked out into the next world, report and goals first; committed only once every target
    // and pole is known to be finite, so that a refused update leaves the climb where it was.
    this.placeBody();
    const report = this.nextReport;
    const a = this.target;
    const b = this.pole;
    const handShift = state[CLIMB_STATE.handShift];
    for (let i = 0; i < 4; i++) {
      const foot = this.feet[i] === 1;
      const side = this.sides[i];
      // Which rung the limb holds, or which two it moves between (see PHASES).
      // (At one rung a move, the cycle and the phases are halved.)
      const g = this.step;
      const q =
        (foot ? p : i === this.frame[17] ? state[CLIMB_STATE.settled] : p + handShift) - 0.5 * g * PHASES[i];
      const k = Math.floor(q / g);
      const u = q - g * k;
      const to = g * k + g + this.limbOffsets[i];
      const from = to - g;
      const r = LIMB_REPORT(i);
      const move = 0.5 * g * MOVE;
      if (u < move) {
        // Moving: an arc away from the ladder, eased in and out.
        const t0 = u / move;
        const t = t0 * t0 * (3 - 2 * t0);
        this.rungPoint(a, this.clampRung(from, foot), side, foot);
        this.rungPoint(b, this.clampRung(to, foot), side, foot);
        // (A hand at its rail's top stays there: no arc from a point to itself.)
        const still = a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
        const lift = still ? 0 : 4 * t * (1 - t) * this.frame[11];
        for (let c = 0; c < 3; c++) report[r + c] = a[c] + (b[c] - a[c]) * t;
        report[r] += this.frame[3] * lift;
        report[r + 2] += this.frame[4] * lift;
        report[r + CLIMB_LIMB.gripping] = still && state[CLIMB_STATE.over] === 0 ? 1 : 0;
        report[r + CLIMB_LIMB.rung] = still ? this.clampRung(to, foot) : Number.NaN;
        // A hand on the rails lets go as the feet step off over the top.
        report[r + CLIMB_LIMB.weight] = !foot && to >= this.frame[5] ? 1 - state[CLIMB_STATE.over] : 1;
      } else {
        const rung = this.clampRung(to, foot);
        this.rungPoint(a, rung, side, foot);
        report[r] = a[0];
        report[r + 1] = a[1];
        report[r + 2] = a[2];
        // A hand on the rails lets go as the feet step off over the top.
        const weight = !foot && to >= this.frame[5] ? 1 - state[CLIMB_STATE.over] : 1;
        // (Letting go, it grips no more.)
        report[r + CLIMB_LIMB.gripping] = weight === 1 ? 1 : 0;
        report[r + CLIMB_LIMB.rung] = rung;
        report[r + CLIMB_LIMB.weight] = weight;
      }
    }
    this.keepBodyOnFeet();
    if (!this.aim(model)) {
      this.own.revert(pose, model);
      throw new TendonError(
        'placement/invalid-input',
        "LadderClimb.update: the limbs' targets are not finite (a ladder too far out or a scale too small for doubles)",
      );
    }
    state[CLIMB_STATE.progress] = p;
    // The weight eased by this update's dt, once nothing can throw; each limb's weight is its
    // share of the climb times it.
    this.goalWeight.stepBy(this.clock, 1);
    const weight = this.goalWeight.state[3];
    if (weight !== 1) {
      for (let i = 0; i < 4; i++) report[LIMB_REPORT(i) + CLIMB_LIMB.weight] *= weight;
    }
    this.world.set(this.nextWorld);
    this.report.set(report);
    // Switched off, the limbs go on easing back until the turn the climb added is gone.
    if (weight > 0 || !this.turns.isNone()) {
      this.turns.begin(pose);
      if (weight > 0) this.solveLimbs(pose, model);
      if (this.turns.apply(pose, this.clock, 1, weight === 1)) {
        for (let i = 0; i < 4; i++) {
          subtreeToModel(pose, model, this.limbs[i].root);
          if (this.effectorFeet[i] === 1) this.placeFootAtLegEnd(pose, model, i);
        }
      }
    }
    this.own.done(pose);
  }

  /**
   * Lowers the body (the next world) to the lower of the feet's soles where it is above it: below a
   * first rung well above a spacing, the body rose with the feet's level while one foot still stood
   * on the ground, that leg stretched past reach (the robot at half scale, 0.6 m to the first rung:
   * 11 cm, a hand 8 cm off its rung, 33° a frame until 27 November; 5 cm and 25° with the feet's
   * level raised from the ground alone). On rungs the character climbs well the body crouches
   * below its feet and this does nothing; on rungs wide for it, it lowers the body where a foot
   * would be stretched (the robot on 0.35 m rungs: 2 cm at the first rung, a grip 2.85 → 2.45 cm
   * off). A hard minimum: where it takes hold the body's climb changes speed in a frame (docs,
   * limits). The hands keep their rungs: they reach the few centimetres. Call once the feet's
   * targets are in the next report.
   */
  private keepBodyOnFeet(): void {
    const report = this.nextReport;
    const lift = this.frame[14];
    const a = report[LIMB_REPORT(1) + 1] - lift;
    const b = report[LIMB_REPORT(3) + 1] - lift;
    const lowest = a < b ? a : b;
    const W = this.nextWorld;
    const above = W[13] + this.state[CLIMB_STATE.sole] * this.frame[9] - lowest;
    if (above > 0) W[13] -= above;
  }

  /**
   * Feet below the ladder stand on the ground (rung −1); above it, on the top (rung = count). Hands
   * hold the lowest rung at least; past the last they hold the rails (rungPoint).
   */
  private clampRung(r: number, foot: boolean): number {
    const count = this.frame[5];
    if (foot) return r < 0 ? -1 : r >= count ? count : r;
    return r < 0 ? 0 : r;
  }

  /**
   * The character's world matrix for the update's progress into the next world, and the hands'
   * shift into the state: facing the ladder, rising with the feet. (The progress is read from the
   * state, not passed: placeBody is not inlined, and a double argument would be boxed.)
   */
  private placeBody(): void {
    const p = this.state[CLIMB_STATE.next];
    const f = this.frame;
    const spacing = f[6];
    const count = f[5];
    // The feet's level in rungs (the feet hold rungs around progress + 0.25 moving two rungs at a
    // time, progress − 0.125 moving one), and the exit's
    // progress over the top as the feet step onto it.
    const level = p + (this.step === 2 ? 0.25 : -0.125);
    const over = smooth01((level - (count - 1)) / 2);
    // The hands on the rails let go while the feet climb their last rung, before the body moves
    // over the top.
    this.state[CLIMB_STATE.over] = smooth01(level - (count - 2));
    const first = f[7];
    const evenFeetY = f[1] + first + (level < count ? level : count) * spacing;
    // Below the first rung the feet's level is the ground's (level −1) and the first rung's
    // (level 0) between: a first rung higher than a spacing lifted the body off the ground while
    // its feet stood there (11 cm at 0.6 m on 0.3 m rungs until 27 November; a hostile test).
    // Below −1 it goes on down a spacing a rung, as it does with the first rung a spacing up.
    const feetY =
      level >= 0 || first === spacing ? evenFeetY : f[1] + (1 + level) * (level >= -1 ? first : spacing);
    // Crouched on the rungs, standing on the ground below and above: the higher of the two,
    // with a smooth corner half a rung wide.
    const crouched = f[13] * (1 - over);
    const climbing = feetY - crouched;
    const top = f[1] + first + count * spacing;
    const y = smoothMax(f[1], Math.min(climbing, top), 0.5 * spacing);
    // Where the body is higher than the rungs' even steps from the feet have it (standing, below or
    // above; below a first rung higher than a spacing), the hands grip as much higher, in rungs, so
    // that they reach as they do when climbing.
    const shift = (y - (evenFeetY - crouched)) / spacing;
    this.state[CLIMB_STATE.handShift] = shift;
    // The hand whose move the standing body would stop midway (the constructor's frame[17]):
    // its progress holds the move's end (a sixteenth of a cycle past it) until the body's catches
    // up (frame[19] 1), or holds the rung before the move and makes the move in its own turn of
    // the climb's progress, when no other limb moves, then runs ahead with the body's.
    if (f[17] >= 0) {
      const g = this.step;
      const start = f[18];
      const hold = start + 0.25 * g + g / 16;
      const h = p + shift;
      let settled = h;
      if (f[19] === 1) {
        if (h < hold) settled = hold;
      } else if (p < hold || h < hold) {
        // (The body's progress may lag the climb's: below a first rung higher than a spacing.)
        const held = p < start - g / 16 ? start - g / 16 : p > hold ? hold : p;
        settled = h > hold ? held + (h - hold) : held;
      }
      this.state[CLIMB_STATE.settled] = settled;
    }
    // Horizontal: in front of the ladder, moving over the top onto the ground behind it.
    const d = f[10] * (1 - over) - 0.5 * f[10] * over;
    const s = f[9];
    // Facing the ladder: the character's forward (model +Z, or the rig's rest facing) onto −facing.
    const fx = -f[3];
    const fz = -f[4];
    const c = this.facing[0];
    const t = this.facing[1];
    const W = this.nextWorld;
    W.fill(0);
    W[0] = (c * fz + t * fx) * s;
    W[2] = (t * fz - c * fx) * s;
    W[5] = s;
    W[8] = (c * fx - t * fz) * s;
    W[10] = (c * fz + t * fx) * s;
    W[12] = f[0] + f[3] * d;
    // (y is the soles' level: the origin stands the pose's height of it above them.)
    W[13] = y - this.state[CLIMB_STATE.sole] * s;
    W[14] = f[2] + f[4] * d;
    W[15] = 1;
  }

  /**
   * Each limb's model-space target (from the next world and report) and pole into
   * {@link LadderClimb.goals}; whether they are all finite. Nothing else is written.
   */
  private aim(model: Float64Array): boolean {
    invert(this.worldInverse, 0, this.nextWorld, 0);
    const Wi = this.worldInverse;
    const g = this.goals;
    let sum = 0;
    for (let i = 0; i < 4; i++) {
      const r = LIMB_REPORT(i);
      const o = 6 * i;
      const x = this.nextReport[r];
      const y = this.nextReport[r + 1];
      const z = this.nextReport[r + 2];
      g[o] = Wi[0] * x + Wi[4] * y + Wi[8] * z + Wi[12];
      g[o + 1] = Wi[1] * x + Wi[5] * y + Wi[9] * z + Wi[13];
      g[o + 2] = Wi[2] * x + Wi[6] * y + Wi[10] * z + Wi[14];
      // Knees forward (toward the ladder: model +Z, or the rig's facing), elbows down and out. (The limbs are apart:
      // no solve moves another limb's middle joint, so its pole can be read before the solves.)
      const m = 16 * this.limbs[i].middle;
      const reach = this.reaches[i];
      const foot = this.feet[i] === 1;
      // (Given for a character facing +Z, turned to the rig's rest facing.)
      const ox = foot ? 0 : 0.5 * this.sides[i] * reach;
      const oz = foot ? reach : 0;
      const c = this.facing[0];
      const t = this.facing[1];
      g[o + 3] = model[m + 12] + (ox * c + oz * t);
      g[o + 4] = model[m + 13] - (foot ? 0 : reach);
      g[o + 5] = model[m + 14] + (oz * c - ox * t);
      sum += g[o] + g[o + 1] + g[o + 2] + (g[o + 3] + g[o + 4] + g[o + 5]);
    }
    // A NaN or an infinity makes the sum NaN; finite goals whose sum overflowed are looked at one
    // by one.
    if (sum - sum === 0) return true;
    for (let k = 0; k < 24; k++) if (!Number.isFinite(g[k])) return false;
    return true;
  }

  private solveLimbs(pose: Pose, model: Float64Array): void {
    const t = this.target;
    const pole = this.pole;
    const g = this.goals;
    for (let i = 0; i < 4; i++) {
      const solver = this.limbs[i];
      solver.weightFrom(this.report, LIMB_REPORT(i) + CLIMB_LIMB.weight);
      const o = 6 * i;
      t[0] = g[o];
      t[1] = g[o + 1];
      t[2] = g[o + 2];
      pole[0] = g[o + 3];
      pole[1] = g[o + 4];
      pole[2] = g[o + 5];
      solver.solve(pose, model, t, pole);
      if (this.effectorFeet[i] === 1) this.placeFootAtLegEnd(pose, model, i);
    }
  }

  /** An effector foot follows the leg's solved end, keeping its animated rotation. */
  private placeFootAtLegEnd(pose: Pose, model: Float64Array, i: number): void {
    const leg = this.legsBySide[i === 1 ? 0 : 1];
    if (leg.endLocal === null) return;
    const foot = leg.foot;
    const m = 16 * leg.middle;
    const e = leg.endLocal;
    let x = model[m] * e[0] + model[m + 4] * e[1] + model[m + 8] * e[2] + model[m + 12];
    let y = model[m + 1] * e[0] + model[m + 5] * e[1] + model[m + 9] * e[2] + model[m + 13];
    let z = model[m + 2] * e[0] + model[m + 6] * e[1] + model[m + 10] * e[2] + model[m + 14];
    // Below full weight, the foot goes that share of the way from where the base pose has it to
    // the leg's end (the base pose leaves the two up to a few centimetres apart between keys: a
    // foot snapped onto the end at a weight just above 0 would jump by that).
    const w = this.report[LIMB_REPORT(i) + CLIMB_LIMB.weight];
    if (w < 1) {
      const fo = 16 * foot + 12;
      x = model[fo] + (x - model[fo]) * w;
      y = model[fo + 1] + (y - model[fo + 1]) * w;
      z = model[fo + 2] + (z - model[fo + 2]) * w;
    }
    const parent = this.skeleton.parents[foot];
    const P = this.parentInverse;
    let lx = x;
    let ly = y;
    let lz = z;
    // (An affine parent frame that does not invert, a scale of 0, keeps the foot where it is.)
    if (parent >= 0) {
      if (!invert(P, 0, model, 16 * parent)) return;
      lx = P[0] * x + P[4] * y + P[8] * z + P[12];
      ly = P[1] * x + P[5] * y + P[9] * z + P[13];
      lz = P[2] * x + P[6] * y + P[10] * z + P[14];
    }
    // Move the foot bone's model position (and its subtree) to the leg's end.
    const dx = x - model[16 * foot + 12];
    const dy = y - model[16 * foot + 13];
    const dz = z - model[16 * foot + 14];
    pose.translations[3 * foot] = lx;
    pose.translations[3 * foot + 1] = ly;
    pose.translations[3 * foot + 2] = lz;
    const end = this.skeleton.subtreeEnds[foot];
    for (let j = foot; j < end; j++) {
      model[16 * j + 12] += dx;
      model[16 * j + 13] += dy;
      model[16 * j + 14] += dz;
    }
  }
}

function LIMB_REPORT(i: number): number {
  return CLIMB_LIMB.length * i;
}

/** max(a, b), with the corner rounded over a width `w` (continuous slope). */
function smoothMax(a: number, b: number, w: number): number {
  const d = b - a;
  if (d >= w) return b;
  if (d <= -w) return a;
  const t = (d + w) / (2 * w);
  return a + w * 2 * t * t * 0.5;
}

/** Smoothstep of x clamped to [0, 1]. */
function smooth01(x: number): number {
  const t = x < 0 ? 0 : x > 1 ? 1 : x;
  return t * t * (3 - 2 * t);
}

/**
 * The lowest and highest heights above its shoulder (world units) where arm `arm`'s hand can hold a rung
 * `across` to the side of the ladder's centre and `standOff` out from the character's origin: from
 * where it is folded in to its elbow (the two bones' difference, and a twentieth of the arm besides)
 * to 0.95 of its reach, at its horizontal distance from the shoulder at rest.
 */
function armBand(
  rest: Float64Array,
  arm: ArmRig,
  scale: number,
  standOff: number,
  across: number,
): [number, number] {
  const a = 16 * arm.root + 12;
  const b = 16 * arm.middle + 12;
  const c = 16 * arm.end + 12;
  const upper = distance(rest, b, rest, a);
  const lower = distance(rest, c, rest, b);
  const reach = 0.95 * (upper + lower) * scale;
  const fold = (Math.abs(upper - lower) + 0.05 * (upper + lower)) * scale;
  const out = standOff - rest[a + 2] * scale;
  const side = across - Math.abs(rest[a]) * scale;
  const flat = out * out + side * side;
  const top = reach * reach > flat ? Math.sqrt(reach * reach - flat) : 0;
  const bottom = fold * fold > flat ? Math.sqrt(fold * fold - flat) : 0;
  return [bottom, top];
}

/**
 * The soles' level of a pose (its model matrices, model units): 0, where a character stands on
 * its origin, or the lowest of the legs' ends, feet and toes where one is below it. Allocates
 * nothing.
 */
function soleLevel(model: Float64Array, legs: readonly LegRig[]): number {
  let low = 0;
  for (let i = 0; i < legs.length; i++) {
    const leg = legs[i];
    for (let k = 0; k < 3; k++) {
      const j = k === 0 ? leg.end : k === 1 ? leg.foot : leg.toe;
      if (j >= 0 && model[16 * j + 13] < low) low = model[16 * j + 13];
    }
  }
  return low;
}
