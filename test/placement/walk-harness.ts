/**
 * A character walking over terrain at 60 frames per second, with and without placement, and the
 * measures the placement issue asks for: sole-to-ground distance at contact frames, sliding of
 * planted feet, and the largest frame-to-frame change of the rotation IK adds to any joint.
 *
 * The character controller is the game's part, written here as a game would: an in-place clip moves
 * the character at its contact track's ground speed; a clip with root motion carries the model
 * itself. The controller keeps the character's origin on the ground under its pelvis, smoothed like
 * a capsule's step-up, so a step does not teleport the whole body.
 */
import type { Clip } from '../../src/animation/clip.js';
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import type { ContactTrack } from '../../src/placement/contacts.js';
import { FootPlacement, type FootPlacementOptions, LEG_REPORT } from '../../src/placement/foot-placement.js';
import { type Ground, HIT, RAY } from '../../src/placement/ground.js';
import { springOmega, springStep } from '../../src/placement/spring.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import type { LegRig, Rig } from '../../src/rig/limbs.js';

export interface WalkCase {
  readonly clip: Clip;
  readonly rig: Rig;
  readonly track: ContactTrack;
  readonly ground: Ground;
  /** Uniform scale from model to world units (metres). */
  readonly scale: number;
  /** Horizontal direction of travel in world space for an in-place clip is the clip's own. */
  readonly seconds: number;
  readonly fps?: number;
  /** Start position in world space, `[x, z]`. */
  readonly start?: readonly [number, number];
  /** Extra placement options. */
  readonly options?: Partial<FootPlacementOptions>;
  /** Called after each frame's placement, for debugging. */
  readonly trace?: (
    frame: number,
    placement: FootPlacement,
    model: Float64Array,
    animated: Float64Array,
    world: Float64Array,
  ) => void;
  /** Frames at which placement is switched off, and back on (eased). */
  readonly toggle?: readonly [number, number];
  /** The ease of each switch, seconds. Default 0.25. */
  readonly toggleEase?: number;
}

export interface WalkMetrics {
  /**
   * At contact frames, the sole's distance to the ground's surface (the nearest of 13 points of the line
   * from heel to toe, each at its planted height; sampled within 1 cm across, so a foot across a
   * step's nose reads its distance to the nose), world units, with IK.
   */
  readonly contactErrors: number[];
  /** The same measure on the animation without IK. */
  readonly contactErrorsWithoutIk: number[];
  /** Per contact: the largest horizontal drift of the foot (the lesser of its heel's and its toe's) from where it was planted. */
  readonly slides: number[];
  /**
   * Per contact (in order), the farthest the heel or the toe moved from where it touched down
   * while it stood within 3 mm of its planted height above the ground, metres: sliding on the
   * ground. An end that lifts and comes down again touches down afresh; a digitigrade foot's
   * joint, which turns over its toe, is not an end.
   */
  readonly groundSlides: number[];
  /** Frame (the contact's last) and leg of the largest ground slide. */
  readonly worstGroundSlideAt: readonly [number, number];
  /** The largest change, between two frames, of the rotation IK adds to any joint, degrees. */
  readonly maxAddedRotationStepDeg: number;
  /** Frame and joint of that largest change. */
  readonly maxStepAt: readonly [number, number];
  /**
   * How far the clip itself turned that joint in that frame, degrees: where IK holds a joint still
   * while the clip snaps it (a planted paw's elbow), the rotation IK adds changes by the snap.
   */
  readonly clipStepAtMaxDeg: number;
  /**
   * The most IK made any joint turn in a frame beyond what the clip turned it, degrees: the placed
   * local rotation's change less the animated one's. A pop IK adds reads here; a clip's snap IK
   * smooths away does not. It compares angles, not directions: a turn against the clip's reads less
   * by the clip's own (a bound from below).
   */
  readonly maxStepBeyondClipDeg: number;
  /** Frame and joint of that largest turn beyond the clip's. */
  readonly beyondClipAt: readonly [number, number];
  /** Frames where a knee bent the other way from the animation's knee. */
  readonly kneeFlips: number;
  /** Frame and leg of each knee flip. */
  readonly flipsAt: readonly (readonly [number, number])[];
  /**
   * At contact frames, how far the deepest point of the sole (the line from heel to toe, each at
   * its planted height, at 13 points) stands below the lowest ground within 1 cm across, world
   * units (0 when none does): the sole error takes the nearest point, so a foot with its toe on
   * the ground and its heel in it reads 0 there.
   */
  readonly sunk: number[];
  /** Frame and leg of the largest of them. */
  readonly worstSunkAt: readonly [number, number];
  /** Frame and leg of the largest sole error at a contact frame. */
  readonly worstContactAt: readonly [number, number];
  /**
   * For an `'effector'` leg (its foot a bone of its own), the largest distance between the leg's
   * end and its foot bone, world units: a foot left behind by the leg.
   */
  readonly maxEffectorGap: number;
  /** Frame (the contact's last) and leg of the largest slide. */
  readonly worstSlideAt: readonly [number, number];
  /** Contact frames measured. */
  readonly contactFrames: number;
  /** The largest distance between a leg's end and its target left by the solves, world units. */
  readonly maxLegError: number;
}

const ray = new Float64Array(RAY.length);
const hit = new Float64Array(HIT.length);

/** The ground straight under (x, z): point y and normal, or null. */
export function groundUnder(ground: Ground, x: number, z: number): Float64Array | null {
  ray.set([x, 1e4, z, 0, -1, 0, 2e4]);
  return ground.raycast(ray, hit) ? hit : null;
}

function angleDeg(q: Float64Array, o: number, p: Float64Array, po: number): number {
  const d = Math.abs(q[o] * p[po] + q[o + 1] * p[po + 1] + q[o + 2] * p[po + 2] + q[o + 3] * p[po + 3]);
  return (2 * Math.acos(Math.min(1, d)) * 180) / Math.PI;
}

/** Walks the case with placement (and measures the animation without it alongside). */
export function walk(c: WalkCase): WalkMetrics {
  const skeleton = c.clip.skeleton;
  const fps = c.fps ?? 60;
  const dt = 1 / fps;
  const frames = Math.round(c.seconds * fps);
  const pose = new Pose(skeleton);
  const animated = new Pose(skeleton);
  const model = createModelBuffer(skeleton);
  const animatedModel = createModelBuffer(skeleton);
  const context = new SamplerContext(c.clip);
  const placement = new FootPlacement(skeleton, c.rig, { ground: c.ground, ...c.options });
  placement.setContactTrack(c.track);
  const legs = c.rig.legs;
  const world = new Float64Array(16);
  const controller = new Float64Array(2);
  const omega = springOmega(0.15);
  let x = c.start?.[0] ?? 0;
  let z = c.start?.[1] ?? 0;
  const velocity = new Float64Array(3);
  const contactErrors: number[] = [];
  const sunk: number[] = [];
  let worstSunkAt: [number, number] = [-1, -1];
  const contactErrorsWithoutIk: number[] = [];
  const slides: number[] = [];
  const plantedAt = new Float64Array(4 * legs.length);
  const slide = new Float64Array(legs.length);
  const groundSlides: number[] = [];
  const groundSlide = new Float64Array(legs.length);
  const touches = new GroundTouches(2 * legs.length);
  let worstGroundSlideAt: [number, number] = [-1, -1];
  const wasPlanted = new Uint8Array(legs.length);
  const n = skeleton.jointCount;
  const added = new Float64Array(4 * n);
  const previousAdded = new Float64Array(4 * n);
  const previousAnimated = new Float64Array(4 * n);
  const previousPlaced = new Float64Array(4 * n);
  let clipStepAtMax = 0;
  let beyondClip = 0;
  let beyondClipAt: [number, number] = [-1, -1];
  let maxStep = 0;
  let maxStepAt: [number, number] = [-1, -1];
  let kneeFlips = 0;
  let worstContact = -1;
  let worstSlideAt: [number, number] = [-1, -1];
  let worstContactAt: [number, number] = [-1, -1];
  const flipsAt: [number, number][] = [];
  const bendAnimated = new Float64Array(3);
  const bendPlaced = new Float64Array(3);
  let contactFrames = 0;
  let maxLegError = 0;
  let maxEffectorGap = 0;
  const s = c.scale;
  for (let f = 0; f < frames; f++) {
    const time = f * dt;
    if (c.toggle && f === c.toggle[0]) placement.setWeight(0, c.toggleEase ?? 0.25);
    if (c.toggle && f === c.toggle[1]) placement.setWeight(1, c.toggleEase ?? 0.25);
    sampleClip(c.clip, context, time, animated);
    forwardKinematics(animated, animatedModel);
    pose.copyFrom(animated);
    model.set(animatedModel);
    // The controller: in-place clips travel at the ground's speed; the origin follows the ground
    // under the pelvis.
    // An in-place clip: travel at the ground's speed of the moment, so the planted feet stay still.
    c.track.groundVelocityAt(time, velocity, 0);
    x -= velocity[0] * s * dt;
    z -= velocity[2] * s * dt;
    const pelvis = c.rig.pelvis;
    const px = x + s * animatedModel[16 * pelvis + 12];
    const pz = z + s * animatedModel[16 * pelvis + 14];
    const under = groundUnder(c.ground, px, pz);
    const groundY = under ? under[1] : controller[0];
    if (f === 0) controller[0] = groundY;
    else springStep(controller, 0, Float64Array.of(groundY), 0, Float64Array.of(omega, dt));
    world.set([s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, x, controller[0], z, 1]);
    placement.solve(pose, model, world, dt, time);
    c.trace?.(f, placement, model, animatedModel, world);
    // Measures.
    for (let i = 0; i < legs.length; i++) {
      const leg = legs[i];
      const r = LEG_REPORT.length * i;
      if (placement.report[r + LEG_REPORT.weight] > 0) {
        maxLegError = Math.max(maxLegError, placement.report[r + LEG_REPORT.error] * s);
      }
      if (leg.shape === 'effector' && leg.endLocal) {
        const m = 16 * leg.middle;
        const [ex, ey, ez] = leg.endLocal;
        let gap = 0;
        for (let k = 0; k < 3; k++) {
          const tip = model[m + k] * ex + model[m + 4 + k] * ey + model[m + 8 + k] * ez + model[m + 12 + k];
          gap += (tip - model[16 * leg.foot + 12 + k]) ** 2;
        }
        maxEffectorGap = Math.max(maxEffectorGap, s * Math.sqrt(gap));
      }
      const fx = x + s * model[16 * leg.foot + 12];
      const fz = z + s * model[16 * leg.foot + 14];
      if (placement.planted[i] === 1) {
        const e = soleError(c, i, model, x, controller[0], z);
        if (!Number.isNaN(e)) {
          if (e > worstContact) {
            worstContact = e;
            worstContactAt = [f, i];
          }
          contactErrors.push(e);
          contactFrames++;
        }
        const depth = sunkBelow(c, i, model, x, controller[0], z);
        if (sunk.every((d) => d < depth)) worstSunkAt = [f, i];
        sunk.push(depth);
        const e0 = soleError(c, i, animatedModel, x, controller[0], z);
        if (!Number.isNaN(e0)) contactErrorsWithoutIk.push(e0);
        // Sliding: the heel and the toe each drift from where they were planted; a foot rolling
        // from heel to toe keeps one of them still, a sliding foot moves both.
        const toe = leg.toe >= 0 ? leg.toe : leg.foot;
        const tx = x + s * model[16 * toe + 12];
        const tz = z + s * model[16 * toe + 14];
        if (!wasPlanted[i]) {
          plantedAt.set([fx, fz, tx, tz], 4 * i);
          slide[i] = 0;
          groundSlide[i] = 0;
          touches.lift(2 * i);
          touches.lift(2 * i + 1);
        }
        // Sliding on the ground: each end, while it stands within 3 mm of the ground, stays where
        // it touched down (a heel lifting off to roll onto the toe, or a toe swinging in the air
        // while the foot turns on its heel, is not sliding; a foot that moves along the ground is).
        // (A digitigrade foot's joint, standing above its toe, is not a point of the sole: it turns
        // over the toe as the paw pushes off.)
        const upright = uprightFoot(model, leg.foot, toe);
        if (upright) touches.lift(2 * i);
        for (let e = upright ? 1 : 0; e < 2; e++) {
          const joint = e === 0 ? leg.foot : toe;
          const height =
            e === 0 ? c.track.footHeights[i] : leg.toe >= 0 ? c.track.toeHeights[i] : c.track.footHeights[i];
          const ex = e === 0 ? fx : tx;
          const ez = e === 0 ? fz : tz;
          const g = groundUnder(c.ground, ex, ez);
          const y = controller[0] + s * model[16 * joint + 13];
          const above = g ? (y - g[1]) * g[HIT.normal + 1] - height * s : Number.POSITIVE_INFINITY;
          groundSlide[i] = Math.max(groundSlide[i], touches.step(2 * i + e, ex, ez, above));
        }
        if (wasPlanted[i]) {
          const heel = Math.hypot(fx - plantedAt[4 * i], fz - plantedAt[4 * i + 1]);
          const toeDrift = Math.hypot(tx - plantedAt[4 * i + 2], tz - plantedAt[4 * i + 3]);
          slide[i] = Math.max(slide[i], Math.min(heel, toeDrift));
        }
      } else if (wasPlanted[i]) {
        if (slides.every((v) => v < slide[i])) worstSlideAt = [f, i];
        slides.push(slide[i]);
        if (groundSlides.every((v) => v < groundSlide[i])) worstGroundSlideAt = [f, i];
        groundSlides.push(groundSlide[i]);
      }
      wasPlanted[i] = placement.planted[i];
      // Knee flip: the leg bends the other way from the animation's leg: the normals of the two
      // bend planes (hip → knee × knee → ankle) point apart. That catches a knee bent backwards
      // and a thigh rolled half a turn about the leg alike, whichever way the leg points.
      // Only a clearly bent knee (by more than ~6°) has a side.
      const sa = kneeBend(animatedModel, leg, bendAnimated) > 0.1 ? 1 : 0;
      const sp = kneeBend(model, leg, bendPlaced) > 0.1 ? 1 : 0;
      const apart =
        bendAnimated[0] * bendPlaced[0] + bendAnimated[1] * bendPlaced[1] + bendAnimated[2] * bendPlaced[2] <
        0;
      if (sa === 1 && sp === 1 && apart) {
        kneeFlips++;
        flipsAt.push([f, i]);
      }
    }
    // The rotation IK adds to each joint: animated⁻¹ · placed, local; its change from last frame.
    for (let j = 0; j < n; j++) {
      const a = animated.rotations;
      const p = pose.rotations;
      const o = 4 * j;
      // conj(a) * p
      const ax = -a[o];
      const ay = -a[o + 1];
      const az = -a[o + 2];
      const aw = a[o + 3];
      added[o] = aw * p[o] + ax * p[o + 3] + ay * p[o + 2] - az * p[o + 1];
      added[o + 1] = aw * p[o + 1] - ax * p[o + 2] + ay * p[o + 3] + az * p[o];
      added[o + 2] = aw * p[o + 2] + ax * p[o + 1] - ay * p[o] + az * p[o + 3];
      added[o + 3] = aw * p[o + 3] - ax * p[o] - ay * p[o + 1] - az * p[o + 2];
      if (f > 0) {
        const step = angleDeg(added, o, previousAdded, o);
        const clipStep = angleDeg(a, o, previousAnimated, o);
        if (step > maxStep) {
          maxStep = step;
          maxStepAt = [f, j];
          clipStepAtMax = clipStep;
        }
        const beyond = angleDeg(p, o, previousPlaced, o) - clipStep;
        if (beyond > beyondClip) {
          beyondClip = beyond;
          beyondClipAt = [f, j];
        }
      }
    }
    previousAdded.set(added);
    previousAnimated.set(animated.rotations);
    previousPlaced.set(pose.rotations);
  }
  return {
    contactErrors,
    sunk,
    worstSunkAt,
    contactErrorsWithoutIk,
    slides,
    groundSlides,
    worstGroundSlideAt,
    maxAddedRotationStepDeg: maxStep,
    maxStepAt,
    clipStepAtMaxDeg: clipStepAtMax,
    maxStepBeyondClipDeg: beyondClip,
    beyondClipAt,
    kneeFlips,
    flipsAt,
    worstContactAt,
    worstSlideAt,
    contactFrames,
    maxLegError,
    maxEffectorGap,
  };
}

/**
 * A leg's bend: the normal of its bend plane (hip → knee × knee → ankle) into `out`, and the sine of
 * the knee's bend angle, returned. Two poses of a leg whose normals point apart bend it opposite
 * ways: a knee bent backwards, or a thigh rolled half a turn about the leg.
 */
export function kneeBend(m: Float64Array, leg: LegRig, out: Float64Array): number {
  const a = 16 * leg.root + 12;
  const b = 16 * leg.middle + 12;
  const e = leg.end >= 0 ? 16 * leg.end + 12 : 16 * leg.foot + 12;
  const ux = m[b] - m[a];
  const uy = m[b + 1] - m[a + 1];
  const uz = m[b + 2] - m[a + 2];
  const wx = m[e] - m[b];
  const wy = m[e + 1] - m[b + 1];
  const wz = m[e + 2] - m[b + 2];
  out[0] = uy * wz - uz * wy;
  out[1] = uz * wx - ux * wz;
  out[2] = ux * wy - uy * wx;
  return Math.hypot(out[0], out[1], out[2]) / (Math.hypot(ux, uy, uz) * Math.hypot(wx, wy, wz));
}

/**
 * The sole's distance to the ground: of the heel (the foot joint) and the toe, the one nearer its
 * planted height above the ground below it (a push-off stands on the toe, a heel strike on the
 * heel), measured along the ground's normal. NaN over a hole.
 */
function soleError(c: WalkCase, i: number, m: Float64Array, x: number, y: number, z: number): number {
  const leg = c.rig.legs[i];
  const s = c.scale;
  let best = Number.NaN;
  const f = 16 * leg.foot + 12;
  const hasToe = leg.toe >= 0 && Number.isFinite(c.track.toeHeights[i]);
  const t = 16 * (hasToe ? leg.toe : leg.foot) + 12;
  const hf = c.track.footHeights[i];
  const ht = hasToe ? c.track.toeHeights[i] : hf;
  // The sole: the line from the heel (the foot joint) to the toe, each at its planted height,
  // sampled at 13 points, a centimetre or so apart on a human foot (a foot across a step's nose
  // stands on it between the two).
  for (let k = 0; k <= SOLE_STEPS; k++) {
    const a = k / SOLE_STEPS;
    const px = x + s * (m[f] + (m[t] - m[f]) * a);
    const py = y + s * (m[f + 1] + (m[t + 1] - m[f + 1]) * a);
    const pz = z + s * (m[f + 2] + (m[t + 2] - m[f + 2]) * a);
    const height = hf + (ht - hf) * a;
    // The distance to the ground's surface, not only to the ground straight below: a sole a
    // millimetre past a step's nose stands on the nose, not 15 cm above the lower level. Sampled
    // within 1 cm across; each sample counts its horizontal offset too.
    for (const [dx, dz] of NEAR_OFFSETS) {
      const g = groundUnder(c.ground, px + dx, pz + dz);
      if (!g) continue;
      const e = Math.hypot((py - g[1]) * g[HIT.normal + 1] - height * s, dx, dz);
      if (Number.isNaN(best) || e < best) best = e;
    }
  }
  return best;
}

/**
 * Where each of a set of points (the feet's heels and toes) touched the ground, for the ground
 * slide: a point that stands within {@link GROUND_TOUCH} of the ground touches it, and from where
 * it touched down, any move is a slide; once it lifts, its next touch starts afresh.
 */
export class GroundTouches {
  private readonly touching: Uint8Array;
  private readonly at: Float64Array;

  constructor(points: number) {
    this.touching = new Uint8Array(points);
    this.at = new Float64Array(2 * points);
  }

  /** Point `k` is off the ground (its next touch starts afresh). */
  lift(k: number): void {
    this.touching[k] = 0;
  }

  /**
   * Point `k` is at (x, z), `above` metres above its planted height over the ground: its drift
   * from where it touched down (0 when it touches down now, or is off the ground).
   */
  step(k: number, x: number, z: number, above: number): number {
    if (!(above <= GROUND_TOUCH)) {
      this.touching[k] = 0;
      return 0;
    }
    if (this.touching[k] === 0) {
      this.touching[k] = 1;
      this.at[2 * k] = x;
      this.at[2 * k + 1] = z;
      return 0;
    }
    return Math.hypot(x - this.at[2 * k], z - this.at[2 * k + 1]);
  }
}

/**
 * How near its planted height above the ground a heel or toe stands to count as touching it, for
 * the ground slide (metres): 3 mm, so that an end swinging down or lifting off a few millimetres
 * above the ground does not count as sliding along it.
 */
const GROUND_TOUCH = 0.003;

/**
 * Whether a foot stands on its toe as a digitigrade paw does: its joint's span to the toe more
 * upright than level (a paw's hock), so that the joint is no point of the sole. False for a foot
 * without a toe (`toe` the foot joint itself).
 */
function uprightFoot(m: Float64Array, foot: number, toe: number): boolean {
  if (toe === foot) return false;
  const f = 16 * foot + 12;
  const t = 16 * toe + 12;
  return m[f + 1] - m[t + 1] > Math.hypot(m[f] - m[t], m[f + 2] - m[t + 2]);
}

/** The sole line's samples, less one. */
const SOLE_STEPS = 12;

/** Horizontal offsets (metres) at which the sole error samples the ground around a point. */
const NEAR_OFFSETS: readonly (readonly [number, number])[] = [
  [0, 0],
  ...[0.002, 0.005, 0.01].flatMap((d) => [
    [d, 0] as const,
    [-d, 0] as const,
    [0, d] as const,
    [0, -d] as const,
  ]),
];

/**
 * How far the deepest point of the sole line (heel to toe, 13 points) stands below its planted
 * height over the lowest ground within 1 cm of it (0: none does).
 */
function sunkBelow(c: WalkCase, i: number, m: Float64Array, x: number, y: number, z: number): number {
  const leg = c.rig.legs[i];
  const s = c.scale;
  let deepest = 0;
  const hasToe = leg.toe >= 0 && Number.isFinite(c.track.toeHeights[i]);
  const f = 16 * leg.foot + 12;
  const t = 16 * (hasToe ? leg.toe : leg.foot) + 12;
  const hf = c.track.footHeights[i];
  const ht = hasToe ? c.track.toeHeights[i] : hf;
  // A digitigrade foot's joint is not a sole point: over a slope the ground under it is not the
  // ground it stands above. Its toe is.
  const upright = uprightFoot(m, leg.foot, hasToe ? leg.toe : leg.foot);
  // The sole line from heel to toe at 13 points (a foot cutting through a step's nose is in it
  // between its ends), each at its planted height.
  for (let k = upright ? SOLE_STEPS : 0; k <= SOLE_STEPS; k++) {
    const a = k / SOLE_STEPS;
    const px = x + s * (m[f] + (m[t] - m[f]) * a);
    const py = y + s * (m[f + 1] + (m[t + 1] - m[f + 1]) * a);
    const pz = z + s * (m[f + 2] + (m[t + 2] - m[f + 2]) * a);
    const height = (hf + (ht - hf) * a) * s;
    // Against the lowest ground within 1 cm across (the targets' tolerance): a toe a millimetre
    // past a step's edge touches the riser, it is not 15 cm inside the step.
    let e = Number.NaN;
    for (const [dx, dz] of [
      [0, 0],
      [0.01, 0],
      [-0.01, 0],
      [0, 0.01],
      [0, -0.01],
    ]) {
      const g = groundUnder(c.ground, px + dx, pz + dz);
      if (!g) continue;
      const here = (py - g[1]) * g[HIT.normal + 1] - height;
      if (!(here <= e)) e = here;
    }
    if (-e > deepest) deepest = -e;
  }
  return deepest;
}

/** Mean and max of a list, for reports. */
export function summary(values: readonly number[]): { mean: number; max: number } {
  let sum = 0;
  let max = 0;
  for (const v of values) {
    sum += v;
    if (v > max) max = v;
  }
  return { mean: values.length > 0 ? sum / values.length : 0, max };
}

/** Where the pelvis starts and which way the character travels (root motion, or the ground's speed). */
export function path(
  clip: Clip,
  pelvis: number,
  scale: number,
  groundVelocity: Float64Array,
): { along: [number, number]; start: number } {
  const pose = new Pose(clip.skeleton);
  const model = createModelBuffer(clip.skeleton);
  const context = new SamplerContext(clip);
  sampleClip(clip, context, 0, pose, 'clamp');
  forwardKinematics(pose, model);
  const x0 = model[16 * pelvis + 12];
  const z0 = model[16 * pelvis + 14];
  sampleClip(clip, context, clip.duration, pose, 'clamp');
  forwardKinematics(pose, model);
  let dx = model[16 * pelvis + 12] - x0;
  let dz = model[16 * pelvis + 14] - z0;
  if (Math.hypot(dx, dz) < 1e-9) {
    dx = -groundVelocity[0];
    dz = -groundVelocity[2];
  }
  const l = Math.hypot(dx, dz);
  const along: [number, number] = [dx / l, dz / l];
  return { along, start: scale * (x0 * along[0] + z0 * along[1]) + 0.5 };
}
