/**
 * A character walking along +X over a ground, as a game's character controller would move it: an
 * in-place clip (motion capture made in-place by `inPlace`) played in a loop, the character
 * travelling at its contact track's ground speed so planted feet stay still, its origin eased to
 * the ground under the pelvis, and FootPlacement planting the feet. It measures the feet's distance
 * to the ground at contacts with IK and on the animation alone, as the placement tests do.
 */
import {
  type Clip,
  type ContactTrack,
  computeContacts,
  createModelBuffer,
  FootPlacement,
  forwardKinematics,
  type Ground,
  HIT,
  Pose,
  RAY,
  type Rig,
  SamplerContext,
  SPRING,
  sampleClip,
  springOmega,
  springStep,
} from '../src/index.js';
import { FixedSteps, headingMatrix } from './common.js';

/** Mean and largest foot–ground distance at contacts (world units), and how many were measured. */
export interface FootError {
  mean: number;
  max: number;
  samples: number;
  /** The fraction of samples within 1 cm. */
  within1cm: number;
}

/** A running sum of foot–ground distances: what {@link FootMeter.measure} adds to. */
export interface Tally {
  sum: number;
  max: number;
  samples: number;
  near: number;
}

/** An empty tally. */
export function tally(): Tally {
  return { sum: 0, max: 0, samples: 0, near: 0 };
}

/** One more distance (world units) into a tally. */
export function tallyAdd(t: Tally, d: number): void {
  t.sum += d;
  t.max = Math.max(t.max, d);
  t.samples++;
  if (d <= 0.01) t.near++;
}

/** A tally's mean, largest and within-1-cm share. */
export function summary(e: Tally): FootError {
  return {
    mean: e.samples > 0 ? e.sum / e.samples : 0,
    max: e.max,
    samples: e.samples,
    within1cm: e.samples > 0 ? e.near / e.samples : 1,
  };
}

/** Horizontal offsets (metres) at which the meter samples the ground around a point of the sole. */
const NEAR_OFFSETS = [
  0, 0, 0.002, 0, -0.002, 0, 0, 0.002, 0, -0.002, 0.005, 0, -0.005, 0, 0, 0.005, 0, -0.005, 0.01, 0, -0.01, 0,
  0, 0.01, 0, -0.01,
];

/**
 * Measures planted feet as the placement tests do (test/placement/walk-harness.ts): for each
 * planted foot, the distance from its sole (the line from the heel, the foot joint, to the toe,
 * each at its planted height, at 13 points) to the ground's surface, sampled within 1 cm
 * across (a foot across a step's nose reads its distance to the nose). Allocates nothing per call.
 */
export class FootMeter {
  private readonly ray = new Float64Array(RAY.length);
  private readonly hit = new Float64Array(HIT.length);

  constructor(
    readonly ground: Ground,
    readonly rig: Rig,
    readonly track: ContactTrack,
    /** Model units to world units. */
    readonly scale: number,
  ) {}

  /** The ground's height straight under (x, z), NaN over a hole; its normal in the last hit. */
  groundUnder(x: number, z: number): number {
    const ray = this.ray;
    ray[0] = x;
    ray[1] = 1e4;
    ray[2] = z;
    ray[3] = 0;
    ray[4] = -1;
    ray[5] = 0;
    ray[6] = 2e4;
    return this.ground.raycast(ray, this.hit) ? this.hit[HIT.point + 1] : Number.NaN;
  }

  /** Adds the feet `planted` flags (the contact track's, 1 = planted) of model `m` in `world` to `into`. */
  measure(m: Float64Array, world: Float64Array, planted: Uint8Array, into: Tally): void {
    const { rig, track, scale } = this;
    for (let i = 0; i < rig.legs.length; i++) {
      if (planted[i] !== 1) continue;
      const leg = rig.legs[i];
      const hasToe = leg.toe >= 0 && Number.isFinite(track.toeHeights[i]);
      const f = 16 * leg.foot + 12;
      const t = 16 * (hasToe ? leg.toe : leg.foot) + 12;
      const hf = track.footHeights[i];
      const ht = hasToe ? track.toeHeights[i] : hf;
      let best = Number.NaN;
      for (let k = 0; k <= 12; k++) {
        const a = k / 12;
        const mx = m[f] + (m[t] - m[f]) * a;
        const my = m[f + 1] + (m[t + 1] - m[f + 1]) * a;
        const mz = m[f + 2] + (m[t + 2] - m[f + 2]) * a;
        const x = world[0] * mx + world[4] * my + world[8] * mz + world[12];
        const y = world[1] * mx + world[5] * my + world[9] * mz + world[13];
        const z = world[2] * mx + world[6] * my + world[10] * mz + world[14];
        const height = (hf + (ht - hf) * a) * scale;
        for (let n = 0; n < NEAR_OFFSETS.length; n += 2) {
          const dx = NEAR_OFFSETS[n];
          const dz = NEAR_OFFSETS[n + 1];
          const g = this.groundUnder(x + dx, z + dz);
          if (Number.isNaN(g)) continue;
          const v = (y - g) * this.hit[HIT.normal + 1] - height;
          const e = Math.sqrt(v * v + dx * dx + dz * dz);
          if (Number.isNaN(best) || e < best) best = e;
        }
      }
      if (Number.isNaN(best)) continue;
      tallyAdd(into, best);
    }
  }
}

export interface WalkerOptions {
  readonly clip: Clip;
  readonly rig: Rig;
  /** Model units to world units (metres). */
  readonly scale: number;
  readonly ground: Ground;
  /** Whether the clip is a loop (a game's walk cycle) or a capture with a start and an end. */
  readonly loop: boolean;
  /** The pose and model buffer to write (a three.js binding's own); new ones when omitted. */
  readonly pose?: Pose;
  readonly model?: Float64Array;
  /** Where the walk starts, world x. */
  readonly startX?: number;
}

export class Walker {
  readonly clip: Clip;
  readonly rig: Rig;
  readonly scale: number;
  readonly ground: Ground;
  readonly track: ContactTrack;
  readonly placement: FootPlacement;
  readonly pose: Pose;
  readonly model: Float64Array;
  /** The model matrices of the animation alone, this frame. */
  readonly animated: Float64Array;
  /** Model to world, column-major. */
  readonly world = new Float64Array(16);
  /** The model's horizontal direction of travel `[x, z]`, turned onto world +X. */
  readonly heading: [number, number];
  x: number;
  time = 0;
  ik = true;
  private readonly context: SamplerContext;
  private readonly velocity = new Float64Array(3);
  private readonly controller = new Float64Array(2);
  private readonly goal = new Float64Array(1);
  private readonly spring = new Float64Array(SPRING.length);
  private readonly meter: FootMeter;
  private started = false;
  private readonly steps = new FixedSteps();
  /** The contact track's own planted flags: measured whether IK is on or not. */
  private readonly contactWeights: Float64Array;
  private readonly planted: Uint8Array;
  private readonly withIk = tally();
  private readonly withoutIk = tally();

  constructor(options: WalkerOptions) {
    this.clip = options.clip;
    this.rig = options.rig;
    this.scale = options.scale;
    this.ground = options.ground;
    const skeleton = options.clip.skeleton;
    this.pose = options.pose ?? new Pose(skeleton);
    this.model = options.model ?? createModelBuffer(skeleton);
    this.animated = createModelBuffer(skeleton);
    this.context = new SamplerContext(options.clip);
    this.track = computeContacts(options.clip, options.rig.legs, { loop: options.loop });
    this.placement = new FootPlacement(skeleton, options.rig, { ground: options.ground });
    this.placement.setContactTrack(this.track);
    this.meter = new FootMeter(options.ground, options.rig, this.track, options.scale);
    this.contactWeights = new Float64Array(options.rig.legs.length);
    this.planted = new Uint8Array(options.rig.legs.length);
    // The feet move back as the body goes forward: travel is against the ground's velocity.
    const gx = -this.track.groundVelocity[0];
    const gz = -this.track.groundVelocity[2];
    const g = Math.sqrt(gx * gx + gz * gz);
    this.heading = g > 0 ? [gx / g, gz / g] : [0, 1];
    this.x = options.startX ?? 0;
    this.spring[SPRING.omega] = springOmega(0.15);
  }

  /** Eases IK out (0.3 s) or back in. */
  setIk(on: boolean): void {
    this.ik = on;
    this.placement.setWeight(on ? 1 : 0, 0.3);
  }

  /**
   * Moves the walk on by `dt` seconds of real time, in steps of 1/60 s (at most 6 a frame: a slow
   * frame slows the walk rather than making a step coarse), as a game's fixed update would: the
   * placement and what is measured do not depend on the frame rate.
   */
  advance(dt: number): void {
    for (let k = this.steps.take(dt); k > 0; k--) this.step(1 / 60);
  }

  /** Moves the walk on by `dt` seconds: sample, move, place, measure. */
  step(dt: number): void {
    const { clip, pose, model, world, scale } = this;
    this.time += dt;
    if (this.time >= clip.duration) this.time -= clip.duration;
    sampleClip(clip, this.context, this.time, pose);
    forwardKinematics(pose, model);
    this.animated.set(model);
    this.track.groundVelocityAt(this.time, this.velocity, 0);
    const v = this.velocity;
    this.x -= (v[0] * this.heading[0] + v[2] * this.heading[1]) * scale * dt;
    // The origin follows the ground under the pelvis, through a spring (a capsule's step-up).
    headingMatrix(world, this.heading, scale, this.x, this.controller[0], 0);
    const p = 16 * this.rig.pelvis + 12;
    const px = world[0] * model[p] + world[4] * model[p + 1] + world[8] * model[p + 2] + world[12];
    const pz = world[2] * model[p] + world[6] * model[p + 1] + world[10] * model[p + 2] + world[14];
    const under = this.meter.groundUnder(px, pz);
    this.goal[0] = Number.isNaN(under) ? this.controller[0] : under;
    if (!this.started) {
      this.controller[0] = this.goal[0];
      this.started = true;
    }
    this.spring[SPRING.dt] = dt;
    springStep(this.controller, 0, this.goal, 0, this.spring);
    headingMatrix(world, this.heading, scale, this.x, this.controller[0], 0);
    this.placement.solve(pose, model, world, dt, this.time);
    this.track.sample(this.time, 0.1, this.contactWeights, this.planted);
    this.meter.measure(model, world, this.planted, this.withIk);
    this.meter.measure(this.animated, world, this.planted, this.withoutIk);
  }

  /** Foot–ground distance at contacts: of what is shown, and of the animation alone. */
  stats(): { footError: FootError; footErrorWithoutIk: FootError } {
    return { footError: summary(this.withIk), footErrorWithoutIk: summary(this.withoutIk) };
  }

  resetStats(): void {
    for (const e of [this.withIk, this.withoutIk]) e.sum = e.max = e.samples = e.near = 0;
  }

  /** Moves the walk to world x, its feet let go. */
  teleport(x: number): void {
    this.x = x;
    this.started = false;
    this.placement.reset();
  }
}
