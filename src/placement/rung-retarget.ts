/**
 * A captured climb onto another ladder: hands and feet that held the captured rungs hold the new
 * ones.
 *
 * @packageDocumentation
 */
import type { Clip } from '../animation/clip.js';
import { SamplerContext, sampleClip } from '../animation/sampler.js';
import { checkClipArg, checkObjectArg, checkPoseAndModelArgs } from '../arguments.js';
import { TendonError } from '../errors.js';
import { TwoBoneIk } from '../ik/two-bone.js';
import { invert } from '../kernel/mat4.js';
import { distance } from '../kernel/vec3.js';
import { createModelBuffer, forwardKinematics, restModelMatrices } from '../pose/forward-kinematics.js';
import { Pose } from '../pose/pose.js';
import { checkRig } from '../rig/check-rig.js';
import type { ArmRig, LegRig, Rig } from '../rig/limbs.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import { checkOption, checkOptionKeys, optionKeys, refuseDt, refuseNotNumber } from './check-option.js';
import { legLength } from './contacts.js';
import { GoalWeight } from './goal-weight.js';
import { checkPoseReads, type PoseReads, poseReads } from './pose-reads.js';
import { straightKneeHinge } from './straight-knee-hinge.js';

/** How {@link RungRetarget} reads a clip's grips; distances are fractions of the leg's length. */
export interface RungRetargetOptions {
  /** Height of the captured ladder's first rung above the clip's floor (model units), ≥ 0. */
  readonly capturedFirstRung: number;
  /** Distance between the captured ladder's rungs (model units), > 0. */
  readonly capturedSpacing: number;
  /** Height of the new ladder's first rung above the floor (model units), ≥ 0. */
  readonly firstRung: number;
  /** Distance between the new ladder's rungs (model units), > 0. */
  readonly spacing: number;
  /**
   * A hand or foot holds while slower than this (leg lengths per second, its speed read over a
   * tenth of a second of the clip), > 0. Default 0.3.
   */
  readonly stillSpeed?: number;
  /** Holds shorter than this many seconds are not holds: from 0 to the clip's duration. Default 0.15. */
  readonly minDuration?: number;
  /**
   * Samples per second the set-up reads the clip at, from 10 (a hold of 0.15 s still spans a
   * sample or two) to 1000 (the set-up's arrays stay small): how finely a hold's start and end
   * are read, not what counts as held. Default 60.
   */
  readonly sampleRate?: number;
}

/** The keys of {@link RungRetargetOptions} (any other is refused: a misspelling was ignored). */
const RUNG_RETARGET_OPTIONS = optionKeys<RungRetargetOptions>({
  capturedFirstRung: true,
  capturedSpacing: true,
  firstRung: true,
  spacing: true,
  stillSpeed: true,
  minDuration: true,
  sampleRate: true,
});

/** Seconds of the clip a limb's speed is read over (its position at each end). */
const SPEED_SPAN = 0.1;

/** The least time between a limb's holds on two rungs, seconds: its shift eases over it. */
const RUNG_CHANGE = 0.25;

/** The share of a limb's full length the hips leave it to reach a rung with (not quite straight). */
const REACH_SHARE = 0.995;

/** The limbs, in order: left hand, right hand, left foot, right foot. */
export const RUNG_LIMBS = ['left hand', 'right hand', 'left foot', 'right foot'] as const;

/**
 * A climb captured on one ladder (motion capture: the CMU ladder clip) played on a ladder whose
 * rungs are elsewhere. Set-up reads the clip's grips: where a hand or foot holds still off the
 * floor, the captured rung it holds (the one just below it); the hold keeps its height above its
 * rung on the new ladder's rung of the same number. Each frame, every limb moves by its rung's
 * shift: the shift of the hold it is in, or, between holds, eased from the last hold's shift to the
 * next one's; the hips move by the feet's mean shift (the legs carry the body; the arms, bent on a
 * ladder, take up what the hands' rungs differ by), and further where a limb could not reach its
 * target otherwise; then the arms and legs bend onto their targets by two-bone IK (a knee straight
 * at rest bending forward, the way the rig faces: `rig.forward`, +Z where it does not say). A hold on the floor
 * does not move. A weight ({@link RungRetarget.setWeight}) eases the retarget in and out.
 */
export class RungRetarget {
  /** Per limb, flat `[start, end, shift, …]` holds: clip seconds and the vertical shift (model units). */
  readonly holds: readonly Float64Array[];
  /** Per limb, its joint (the wrist or the ankle). */
  readonly joints: Int32Array;
  /** The limbs' solvers. */
  readonly solvers: readonly TwoBoneIk[];
  /**
   * Per limb, the shift applied in the last {@link RungRetarget.apply} (model units): its rung's
   * shift times the retarget's {@link RungRetarget.weight}.
   */
  readonly shifts = new Float64Array(4);
  /** Per limb (left hand, right hand, left foot, right foot), 1 while it holds a rung this frame. */
  readonly holding = new Uint8Array(4);
  /** Per limb, its root joint (the shoulder or the hip). */
  private readonly limbRoots: Int32Array;
  /** Per limb, its middle joint (the elbow or the knee). */
  private readonly limbMiddles: Int32Array;
  private readonly duration: number;
  private readonly skeleton: Skeleton;
  /** The joints a frame reads, checked before it writes anything (pose-reads.ts). */
  private readonly reads: PoseReads;
  private readonly hips: number;
  private readonly target = new Float64Array(3);
  private readonly inverse = new Float64Array(16);
  private readonly scratch = new Float64Array(16);
  private readonly goalWeight = new GoalWeight();

  /**
   * @throws {@link TendonError} `placement/invalid-option` for a rig without two arms, two legs and
   *   a pelvis, a leg that ends in no joint (an effector leg, as the robot's), or an option out of
   *   its range (see {@link RungRetargetOptions}), naming it;
   *   `argument/invalid` for a clip, rig or options that is not one.
   */
  constructor(clip: Clip, rig: Rig, options: RungRetargetOptions) {
    const name = 'RungRetarget';
    checkClipArg(clip, name);
    checkRig(rig, clip.skeleton, name);
    this.skeleton = clip.skeleton;
    checkObjectArg(options, name, 'options');
    checkOptionKeys(options, RUNG_RETARGET_OPTIONS, name);
    if (rig?.arms?.length < 2 || rig?.legs?.length < 2 || rig.pelvis < 0) {
      throw new TendonError(
        'placement/invalid-option',
        `${name}: the rig needs two arms, two legs and a pelvis`,
      );
    }
    for (const leg of rig.legs) {
      // (An effector leg's end is a point on its lower bone and its foot a bone of its own, moved
      // by FootPlacement and LadderClimb; here TwoBoneIk was given end −1 and failed as its own
      // ik/invalid-joint, naming neither the retarget nor the cause.)
      if (leg.end < 0) {
        throw new TendonError(
          'placement/invalid-option',
          `${name}: leg '${leg.label}' ends in no joint (its foot is a bone of its own, as the robot's): RungRetarget moves legs that end in a joint, as a capture's do`,
        );
      }
    }
    const { capturedFirstRung, capturedSpacing, firstRung, spacing } = options;
    checkOption(capturedFirstRung, name, 'capturedFirstRung', 0, false);
    checkOption(capturedSpacing, name, 'capturedSpacing', 0, true);
    checkOption(firstRung, name, 'firstRung', 0, false);
    checkOption(spacing, name, 'spacing', 0, true);
    // The set-up's own numbers too: a NaN, a negative or a fractional rate read no holds or wrong
    // ones without a word, an infinite one failed as a bare RangeError, 0 as a sampling error.
    if (options.stillSpeed !== undefined) checkOption(options.stillSpeed, name, 'stillSpeed', 0, true);
    if (options.minDuration !== undefined) {
      checkOption(options.minDuration, name, 'minDuration', 0, false, false, clip.duration);
    }
    if (options.sampleRate !== undefined) {
      checkOption(options.sampleRate, name, 'sampleRate', 10, false, false, 1000);
    }
    const skeleton = clip.skeleton;
    const left = (side: string) => side === 'left';
    const armL = rig.arms.find((a) => left(a.side)) ?? rig.arms[0];
    const armR = rig.arms.find((a) => a !== armL) ?? rig.arms[1];
    const legL = rig.legs.find((l) => left(l.side)) ?? rig.legs[0];
    const legR = rig.legs.find((l) => l !== legL) ?? rig.legs[1];
    this.joints = Int32Array.of(armL.end, armR.end, legL.foot, legR.foot);
    this.limbRoots = Int32Array.of(armL.root, armR.root, legL.root, legR.root);
    this.limbMiddles = Int32Array.of(armL.middle, armR.middle, legL.middle, legR.middle);
    const rest = restModelMatrices(skeleton);
    this.hips = rig.pelvis;
    this.duration = clip.duration;
    const L = legLength(rest, legL);
    const rate = options.sampleRate ?? 60;
    const still = (options.stillSpeed ?? 0.3) * L;
    const minFrames = Math.ceil((options.minDuration ?? 0.15) * rate);
    // Sample the limbs' heights and speeds. A speed is read over a fixed span of the clip, not
    // between two samples: over one sample's step a capture's jitter of a millimetre or two reads
    // as a speed that grows with the rate (a hand held 11.6 s at 10 samples a second, 1.6 s at 60,
    // none at 120), and the holds would depend on the rate.
    const count = Math.max(2, Math.floor(clip.duration * rate) + 1);
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    const context = new SamplerContext(clip);
    const heights = Array.from({ length: 4 }, () => new Float64Array(count));
    const speeds = Array.from({ length: 4 }, () => new Float64Array(count));
    const before = new Float64Array(12);
    const joints = this.joints;
    const positionsAt = (time: number, out: Float64Array | null) => {
      sampleClip(clip, context, Math.max(0, Math.min(clip.duration, time)), pose, 'clamp');
      forwardKinematics(pose, model);
      if (out)
        for (let i = 0; i < 4; i++) out.set(model.subarray(16 * joints[i] + 12, 16 * joints[i] + 15), 3 * i);
    };
    let floor = Number.POSITIVE_INFINITY;
    for (let k = 0; k < count; k++) {
      const t = Math.min(clip.duration, k / rate);
      const from = Math.max(0, t - SPEED_SPAN / 2);
      const to = Math.min(clip.duration, t + SPEED_SPAN / 2);
      positionsAt(from, before);
      positionsAt(to, null);
      for (let i = 0; i < 4; i++) {
        const o = 16 * joints[i] + 12;
        const dx = model[o] - before[3 * i];
        const dy = model[o + 1] - before[3 * i + 1];
        const dz = model[o + 2] - before[3 * i + 2];
        speeds[i][k] = to > from ? Math.sqrt(dx * dx + dy * dy + dz * dz) / (to - from) : 0;
      }
      positionsAt(t, null);
      for (let i = 0; i < 4; i++) {
        heights[i][k] = model[16 * joints[i] + 13];
        if (i >= 2) floor = Math.min(floor, heights[i][k]);
      }
    }
    // A capture's rest pose is a T-pose: straight arms and legs, with no bend plane to read. The
    // arms take the least motion (the elbow stays as near as it can to where the capture has it;
    // a capture's elbow turns about more than one axis, and a hinge of the rest pose's turned it
    // further from the clip: measured, steps up to 26°). A leg straight in the clip and bent by the
    // retarget, though, had its bend plane from rounding noise (the knee turned 35° and back
    // between two frames): where the rest pose is straight, a knee bends forward (the rig's
    // facing, +Z where the rest pose does not say), as FootPlacement bends it.
    const arm = (a: ArmRig) => new TwoBoneIk(skeleton, { root: a.root, middle: a.middle, end: a.end });
    const leg = (l: LegRig) =>
      new TwoBoneIk(skeleton, {
        root: l.root,
        middle: l.middle,
        end: l.end,
        // A knee straight at rest bends the way the rig faces (findRig reads it; +Z by default).
        hingeAxis: straightKneeHinge(rest, l, rig.forward ?? [0, 0, 1]),
      });
    // A frame runs forward kinematics over the whole skeleton: every joint is read.
    this.reads = poseReads(
      skeleton,
      skeleton.names.map((_, j) => j),
    );
    this.solvers = [arm(armL), arm(armR), leg(legL), leg(legR)];
    // Samples between holds on two rungs, at least.
    const change = Math.ceil(RUNG_CHANGE * rate);
    this.holds = heights.map((h, i) => {
      const out: number[] = [];
      let start = -1;
      // The last hold's last sample.
      let lastEnd = 0;
      for (let k = 1; k <= count; k++) {
        const isStill = k < count && speeds[i][k] < still;
        if (isStill && start < 0) start = k;
        if (!isStill && start >= 0) {
          if (k - 1 - start >= minFrames) {
            let sum = 0;
            for (let q = start; q < k; q++) sum += h[q];
            const y = sum / (k - start);
            // Off the floor: the captured rung just below (the hand or the ankle is above it).
            const above = y - floor;
            let shift = 0;
            if (above > 0.25 * capturedSpacing) {
              const rung = Math.max(
                0,
                Math.floor((above - capturedFirstRung + 0.25 * capturedSpacing) / capturedSpacing),
              );
              shift = firstRung + rung * spacing - (capturedFirstRung + rung * capturedSpacing);
            }
            // A limb does not change rungs in a frame: a hold next to one on another rung (a hand
            // pivoting on a rung while the body climbs reads as still, its height crossing
            // between rungs) starts a little later, so that its shift eases in. A hold kept spans
            // `minDuration` from its first sample to its last (counted in samples: compared in
            // seconds, rounding kept or dropped one of that length at random).
            const n = out.length;
            const from = n > 0 && out[n - 1] !== shift ? Math.max(start, lastEnd + change) : start;
            if (k - 1 - from >= minFrames) {
              out.push(from / rate, (k - 1) / rate, shift);
              lastEnd = k - 1;
            }
          }
          start = -1;
        }
      }
      return Float64Array.from(out);
    });
  }

  /**
   * The shift of limb `i` at the frame's clip time ({@link RungRetarget.now}) into
   * {@link RungRetarget.shifts}: its hold's, or eased between the holds around the time. (Time in
   * and shift out through arrays: where V8 does not inline this, a double passed or returned would
   * be boxed, 16 bytes a frame.)
   */
  private shiftAt(i: number): void {
    const t = this.now[0];
    const h = this.holds[i];
    let before = -1;
    for (let k = 0; k < h.length; k += 3) {
      if (t >= h[k] && t <= h[k + 1]) {
        this.holding[i] = 1;
        this.shifts[i] = h[k + 2];
        return;
      }
      if (h[k + 1] < t) before = k;
    }
    this.holding[i] = 0;
    const next = before < 0 ? 0 : before + 3;
    // Between two holds close in time the limb carries one shift into the other; far from any
    // hold (walking up to the ladder, hanging free) it eases to no shift over half a second.
    const ease = 0.5;
    const from = before < 0 ? 0 : h[before + 2];
    const to = next < h.length ? h[next + 2] : 0;
    const t0 = before < 0 ? Number.NEGATIVE_INFINITY : h[before + 1];
    const t1 = next < h.length ? h[next] : Number.POSITIVE_INFINITY;
    let shift = 0;
    if (t1 - t0 <= 3 * ease) {
      const u = (t - t0) / (t1 - t0);
      shift = from + (to - from) * u * u * (3 - 2 * u);
    } else if (t - t0 < ease) {
      const u = (t - t0) / ease;
      shift = from * (1 - u * u * (3 - 2 * u));
    } else if (t1 - t < ease) {
      const u = (t1 - t) / ease;
      shift = to * (1 - u * u * (3 - 2 * u));
    }
    this.shifts[i] = shift;
  }

  /** Limb `i`'s length in `model`: root to middle to end (its two bones, as they are scaled). */
  private limbReach(i: number, model: Float64Array): number {
    const a = 16 * this.limbRoots[i];
    const b = 16 * this.limbMiddles[i];
    const c = 16 * this.joints[i];
    return distance(model, a + 12, model, b + 12) + distance(model, b + 12, model, c + 12);
  }

  /** The frame's clip time, clamped to the clip, as {@link RungRetarget.shiftAt} reads it. */
  private readonly now = new Float64Array(1);

  /**
   * The retarget's weight now, in [0, 1]: the share of each limb's rung shift (and of the hips')
   * that {@link RungRetarget.apply} applies. 1 at first; eased by {@link RungRetarget.setWeight}.
   */
  get weight(): number {
    return this.goalWeight.value;
  }

  /**
   * Eases the retarget in (1) or out (0), or to any weight between, over `easeTime` seconds of the
   * frames' `dt` (smoothstep: no jump at either end; a new goal mid-ease starts from where the
   * weight is). Each limb and the hips then move by that share of their shift, and the limbs bend
   * onto those targets; at weight 0 a frame leaves the pose and the model as it was given them
   * (and still writes {@link RungRetarget.holding}, with {@link RungRetarget.shifts} 0).
   *
   * @throws {@link TendonError} `placement/invalid-option` for a goal outside [0, 1] or an ease
   *   time that is not a finite number ≥ 0 (the weight is left as it was).
   */
  setWeight(goal: number, easeTime = 0.5): void {
    this.goalWeight.set(goal, easeTime, 'RungRetarget.setWeight');
  }

  /**
   * Retargets the frame at clip time `time`: call after sampling the clip into `pose` and forward
   * kinematics. Moves the hips by the limbs' mean shift and each hand and foot by its own (keeping
   * their animated rotations), and updates `model`. `dt` (seconds since the last frame, default
   * 0) is what the weight eases by ({@link RungRetarget.setWeight}).
   *
   * @throws {@link TendonError} `placement/invalid-input` for a non-finite time or a `dt` that is
   *   not a finite number ≥ 0; `pose/not-finite`, naming the joint, for a NaN, an infinity or a
   *   zero rotation in any joint (a frame runs forward kinematics over the whole skeleton). All
   *   before anything is written, the weight included.
   */
  apply(pose: Pose, model: Float64Array, time: number, dt = 0): void {
    // A small entry, inlined into the caller's loop: the numbers reach the frame in an array,
    // unboxed (a double passed to a call that is not inlined is a heap number, 16 bytes a frame).
    if (typeof time !== 'number') refuseNotNumber(time, 'RungRetarget.apply', 'time');
    if (typeof dt !== 'number') refuseNotNumber(dt, 'RungRetarget.apply', 'dt');
    this.clock[0] = time;
    this.clock[1] = dt;
    this.applyClock(pose, model);
  }

  /**
   * This frame's clip `time` (index 0) and `dt` (index 1), as {@link RungRetarget.applyClock}
   * reads them. Setting them is setting the arguments.
   */
  readonly clock = new Float64Array(2);

  /**
   * {@link RungRetarget.apply}, with `time` and `dt` read from {@link RungRetarget.clock}.
   *
   * @throws {@link TendonError} as {@link RungRetarget.apply}.
   */
  applyClock(pose: Pose, model: Float64Array): void {
    const time = this.clock[0];
    const dt = this.clock[1];
    // Checked by arithmetic (v − v is 0 for a finite number, NaN otherwise), with no builtin call.
    if (!(time - time === 0)) {
      throw new TendonError('placement/invalid-input', `RungRetarget.apply: time ${time} is not finite`);
    }
    if (!(dt >= 0 && dt - dt === 0)) refuseDt(dt, 'RungRetarget.apply');
    checkPoseAndModelArgs(pose, model, this.skeleton, 'RungRetarget.apply');
    checkPoseReads(this.reads, pose, model, 'RungRetarget.apply');
    this.goalWeight.stepBy(this.clock, 1);
    const weight = this.goalWeight.state[3];
    const t = time < 0 ? 0 : time > this.duration ? this.duration : time;
    this.now[0] = t;
    for (let i = 0; i < 4; i++) this.shiftAt(i);
    if (weight === 0) {
      // (Written 0, not scaled: a lowered rung's shift times 0 is −0.)
      this.shifts.fill(0);
      return;
    }
    if (weight !== 1) for (let i = 0; i < 4; i++) this.shifts[i] *= weight;
    // The hips follow the feet (legs carry the body and are the nearer to straight); the arms,
    // bent on a ladder, take up what the hands' rungs differ by. But no further than each limb
    // reaches its target: a hand held at the waist on straight arms (its rung lowered) or a foot
    // under a straight leg moves the hips with it, the other limbs bending. (Bounded by the
    // shifts, which ease, and by the pose, the hips do not jump. The limbs in turn, hands then
    // feet: where a hand and a foot ask the hips opposite ways, the foot, last, has its way.)
    let mean = 0.5 * (this.shifts[2] + this.shifts[3]);
    for (let i = 0; i < 4; i++) {
      const root = 16 * this.limbRoots[i];
      const end = 16 * this.joints[i];
      const dx = model[end + 12] - model[root + 12];
      const dz = model[end + 14] - model[root + 14];
      // Where the limb's end goes, above its root (the hips shift its root with them).
      const dy = model[end + 13] + this.shifts[i] - (model[root + 13] + mean);
      // As far as the animation stretches it, or nearly straight (its own stretch needs no move).
      const reach = Math.max(
        REACH_SHARE * this.limbReach(i, model),
        distance(model, root + 12, model, end + 12),
      );
      const level = reach * reach - dx * dx - dz * dz;
      if (!(level > 0)) continue;
      const span = Math.sqrt(level);
      // The root's height above the end may be from −span to span: the hips' shift so.
      if (dy < -span) mean -= -span - dy;
      else if (dy > span) mean += dy - span;
    }
    // The hips move by the mean shift, through their parent's frame.
    const hips = this.hips;
    const parent = pose.skeleton.parents[hips];
    let ly = mean;
    let lx = 0;
    let lz = 0;
    if (parent >= 0 && invert(this.inverse, 0, model, 16 * parent)) {
      lx = this.inverse[4] * mean;
      ly = this.inverse[5] * mean;
      lz = this.inverse[6] * mean;
    }
    // Targets first, from the animated frame: the limbs' model positions and rotations.
    const s = this.scratch;
    for (let i = 0; i < 4; i++) {
      const o = 16 * this.joints[i];
      s[3 * i] = model[o + 12];
      s[3 * i + 1] = model[o + 13] + this.shifts[i];
      s[3 * i + 2] = model[o + 14];
    }
    pose.translations[3 * hips] += lx;
    pose.translations[3 * hips + 1] += ly;
    pose.translations[3 * hips + 2] += lz;
    forwardKinematics(pose, model);
    for (let i = 0; i < 4; i++) {
      this.target[0] = s[3 * i];
      this.target[1] = s[3 * i + 1];
      this.target[2] = s[3 * i + 2];
      this.solvers[i].solve(pose, model, this.target);
    }
  }
}
