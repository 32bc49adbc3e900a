/**
 * When each foot is planted, read from the clip itself: a foot is in contact where the authored
 * animation holds it low and still (still relative to the ground, which moves under an in-place
 * clip). Computed once per clip; sampled every frame into contact weights and planted flags.
 *
 * @packageDocumentation
 */
import type { Clip } from '../animation/clip.js';
import { SamplerContext, sampleClip } from '../animation/sampler.js';
import { checkClipArg, checkFloat64Arg, checkObjectArg, describeArg, optionsArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import { createModelBuffer, forwardKinematics, restModelMatrices } from '../pose/forward-kinematics.js';
import { Pose } from '../pose/pose.js';
import { checkLegRig } from '../rig/check-rig.js';
import type { LegRig } from '../rig/limbs.js';
import { checkOptionKeys, optionKeys } from './check-option.js';

/** How {@link computeContacts} reads a clip. Distances are fractions of each leg's length. */
export interface ContactOptions {
  /**
   * Samples per second of clip time, at most 1,000 (and four over the clip at least): how finely a
   * contact's ends are read (a foot's speed is read across about 1/30 s of the clip, or the
   * samples either side at rates under 60).
   * Default 60.
   */
  readonly sampleRate?: number;
  /** A foot counts as low within this height above its lowest point in the clip. Default 0.06. */
  readonly lowHeight?: number;
  /**
   * A foot counts as still below this speed (leg lengths per second, read across about 1/30 s of
   * the clip) relative to the ground. Default 0.4.
   */
  readonly stillSpeed?: number;
  /** Hysteresis: a contact ends only past the thresholds times this factor. Default 1.5. */
  readonly releaseFactor?: number;
  /** Contacts shorter than this many seconds are dropped. Default 0.05. */
  readonly minDuration?: number;
  /** Whether the clip loops (contacts may wrap around its end). Default true. */
  readonly loop?: boolean;
}

/** The keys of {@link ContactOptions} (any other is refused: a misspelling was ignored). */
const CONTACT_OPTIONS = optionKeys<ContactOptions>({
  sampleRate: true,
  lowHeight: true,
  stillSpeed: true,
  releaseFactor: true,
  minDuration: true,
  loop: true,
});

/** A contact track given by hand (clip markers, explicit times). */
export interface ContactTrackDefinition {
  /** The clip's duration, seconds. */
  readonly duration: number;
  /** Per leg, `[start0, end0, start1, end1, …]` in seconds, each start within [0, duration]; for a looping clip an end may pass the duration (wrapping). */
  readonly intervals: readonly (readonly number[])[];
  /** Per leg, the foot joint's height above the clip's ground while planted (model units). */
  readonly footHeights: ArrayLike<number>;
  /** Per leg, the toe joint's height while planted, NaN for a foot without a toe. Default NaN. */
  readonly toeHeights?: readonly number[];
  /**
   * Per leg, for each interval, the model-space position `x, y, z` of the foot joint when the
   * contact starts (where the foot lands). Default: unknown (placement then looks only under the
   * foot, not ahead of it).
   */
  readonly landings?: readonly (readonly number[])[];
  /** Whether the clip loops. Default true. */
  readonly loop?: boolean;
  /** The ground's velocity in model space (an in-place clip's ground moves under it). Default zero. */
  readonly groundVelocity?: readonly [number, number, number];
  /**
   * The ground's horizontal velocity through the clip, `x, z` per sample, the samples evenly spaced
   * over the duration (the first at 0): how fast the planted feet of an in-place clip move, moment
   * by moment. Default: none (the constant `groundVelocity`).
   */
  readonly groundVelocities?: readonly number[];
}

/**
 * Refuses an argument of one of {@link ContactTrack}'s per-frame methods. Out of line and reached
 * only when throwing, so the checks themselves stay comparisons: the message's strings are built,
 * and a double passed here boxed, only then; the methods stay small for V8 to inline.
 */
function refuseArg(method: string, what: string, value: unknown, expected: string): never {
  throw new TendonError(
    'argument/invalid',
    `ContactTrack.${method}: ${what} is ${describeArg(value)}, not ${expected}`,
  );
}

/**
 * Refuses, for a per-frame `method`, an `out` that is not a Float64Array with room for 3 numbers
 * at `o` (a whole number ≥ 0). Comparisons only (see {@link refuseArg}).
 */
function checkOut3(method: string, out: Float64Array, o: number): void {
  if (!(out instanceof Float64Array)) refuseArg(method, 'out', out, 'a Float64Array');
  if (!(typeof o === 'number' && o >= 0 && o % 1 === 0 && o + 3 <= out.length)) {
    refuseArg(method, 'o', o, `a whole number from 0 to ${out.length - 3}`);
  }
}

/**
 * The contacts of one clip: per leg, the intervals of clip time its foot is planted, the foot's
 * planted height, and the velocity the ground moves at under an in-place clip (the negative of the
 * speed the character must travel at for its planted feet to stay still in the world).
 */
export class ContactTrack {
  /** The clip's duration, seconds. */
  readonly duration: number;
  /** Whether the clip loops. */
  readonly loop: boolean;
  /** Per leg, flat `[start, end, …]` in seconds, sorted; ends may pass the duration when looping. */
  readonly intervals: readonly Float64Array[];
  /** Per leg, the foot joint's height above the clip's ground (model y = 0) while planted. */
  readonly footHeights: Float64Array;
  /** Per leg, the toe joint's height while planted, NaN where there is no toe. */
  readonly toeHeights: Float64Array;
  /** Per leg, `x, y, z` per interval: the foot joint's model position as the contact starts; empty if unknown. */
  readonly landings: readonly Float64Array[];
  /** Model-space velocity of the ground under the planted feet (zero for a clip with root motion). */
  readonly groundVelocity: Float64Array;
  private readonly scratch = new Float64Array(3);
  /**
   * The ground's travel `x, z` from time 0 to each sample of {@link ContactTrack.groundVelocities}
   * (one more for a looping track: the whole cycle's), the trapezoids of the interpolated velocity.
   */
  private readonly travel: Float64Array;
  /** The ground's horizontal velocity per sample, `x, z` (see {@link ContactTrackDefinition.groundVelocities}). */
  readonly groundVelocities: Float64Array;

  /** @throws {@link TendonError} `placement/invalid-contacts` for a definition that does not hold together. */
  constructor(definition: ContactTrackDefinition) {
    checkObjectArg(definition, 'new ContactTrack', 'the definition');
    const { duration, intervals, footHeights } = definition;
    const name = 'ContactTrack';
    if (!(duration > 0 && Number.isFinite(duration))) {
      throw new TendonError(
        'placement/invalid-contacts',
        `${name}: duration ${duration} is not a positive number`,
      );
    }
    const listLike = (v: unknown): v is ArrayLike<unknown> => Array.isArray(v) || ArrayBuffer.isView(v);
    if (!Array.isArray(intervals) || !listLike(footHeights) || intervals.length !== footHeights.length) {
      throw new TendonError(
        'placement/invalid-contacts',
        `${name}: one interval list and one foot height per leg`,
      );
    }
    if (definition.loop !== undefined && typeof definition.loop !== 'boolean') {
      throw new TendonError(
        'placement/invalid-contacts',
        `${name}: loop is ${String(definition.loop)}, not a boolean`,
      );
    }
    this.duration = duration;
    this.loop = definition.loop ?? true;
    this.intervals = intervals.map((list: unknown, leg) => {
      // Each a list of numbers: a string, null or an object was read as no contacts or threw a
      // bare TypeError.
      const numbers =
        listLike(list) && Array.prototype.every.call(list, (v: unknown) => typeof v === 'number');
      const a = numbers ? Float64Array.from(list as ArrayLike<number>) : new Float64Array(1).fill(Number.NaN);
      for (let i = 0; i < a.length; i += 2) {
        // Each contact starts within the clip: one starting past its end was never sampled.
        const ok =
          a.length % 2 === 0 &&
          a[i] >= 0 &&
          a[i] <= duration &&
          Number.isFinite(a[i + 1]) &&
          a[i] <= a[i + 1] &&
          (i === 0 || a[i] >= a[i - 1]);
        if (!ok) {
          throw new TendonError(
            'placement/invalid-contacts',
            `${name}: leg ${leg}'s intervals ${numbers ? `[${Array.from(a).join(', ')}]` : describeArg(list)} are not sorted [start, end] pairs starting within the clip (0 to ${duration} s)`,
          );
        }
      }
      return a;
    });
    this.footHeights = Float64Array.from(footHeights as ArrayLike<number>);
    if (!this.footHeights.every(Number.isFinite)) {
      throw new TendonError(
        'placement/invalid-contacts',
        `${name}: foot heights [${Array.from(this.footHeights).join(', ')}] are not finite`,
      );
    }
    this.toeHeights = Float64Array.from(definition.toeHeights ?? this.footHeights.map(() => Number.NaN));
    if (this.toeHeights.length !== footHeights.length) {
      throw new TendonError('placement/invalid-contacts', `${name}: one toe height per leg`);
    }
    this.landings = this.intervals.map((list, leg) => {
      const given = definition.landings?.[leg];
      const a = Float64Array.from(given ?? []);
      if (given !== undefined && (a.length !== (3 * list.length) / 2 || !a.every(Number.isFinite))) {
        throw new TendonError(
          'placement/invalid-contacts',
          `${name}: leg ${leg} needs 3 finite numbers per interval in landings`,
        );
      }
      return a;
    });
    this.groundVelocities = Float64Array.from(definition.groundVelocities ?? []);
    if (this.groundVelocities.length % 2 !== 0 || !this.groundVelocities.every(Number.isFinite)) {
      throw new TendonError(
        'placement/invalid-contacts',
        `${name}: groundVelocities must be finite x, z pairs`,
      );
    }
    this.travel = groundTravelTable(this.groundVelocities, this.duration, this.loop);
    const v = definition.groundVelocity ?? [0, 0, 0];
    this.groundVelocity = Float64Array.from(v);
    if (this.groundVelocity.length !== 3 || !this.groundVelocity.every(Number.isFinite)) {
      throw new TendonError('placement/invalid-contacts', `${name}: groundVelocity must be 3 finite numbers`);
    }
  }

  /** Number of legs. */
  get legCount(): number {
    return this.intervals.length;
  }

  /**
   * The contacts at clip time `time` (wrapped when looping, held at the ends otherwise). Writes per
   * leg, into `weights`, a contact weight that is 1 while planted and eases (smoothstep) from 0 over
   * the `rampIn` seconds before a contact starts and back to 0 over the `rampOut` seconds after it
   * ends (default: `rampIn`), and into `planted` 1 while planted, else 0. Allocates nothing.
   *
   * @throws {@link TendonError} `argument/invalid` for a `time` that is not finite, a ramp that is
   *   not a finite number ≥ 0, or `weights` and `planted` that are not a Float64Array and a
   *   Uint8Array of one entry per leg or more (nothing is written then).
   */
  sample(time: number, rampIn: number, weights: Float64Array, planted: Uint8Array, rampOut = rampIn): void {
    // Checked by arithmetic (v − v is 0 for a finite number, NaN otherwise), no builtin call: this
    // runs every frame, and a double passed to a call V8 does not inline is boxed. (sampleAt, the
    // placement's own path, takes numbers it has checked.)
    if (!(time - time === 0)) refuseArg('sample', 'time', time, 'a finite number');
    if (!(rampIn >= 0 && rampIn - rampIn === 0)) {
      refuseArg('sample', 'rampIn', rampIn, 'a finite number ≥ 0');
    }
    if (!(rampOut >= 0 && rampOut - rampOut === 0)) {
      refuseArg('sample', 'rampOut', rampOut, 'a finite number ≥ 0');
    }
    const n = this.intervals.length;
    // A short array would drop the legs past its end without a word.
    if (!(weights instanceof Float64Array) || weights.length < n) {
      refuseArg('sample', 'weights', weights, `a Float64Array of ${n} or more`);
    }
    if (!(planted instanceof Uint8Array) || planted.length < n) {
      refuseArg('sample', 'planted', planted, `a Uint8Array of ${n} or more`);
    }
    const a = this.scratch;
    a[0] = time;
    a[1] = rampIn;
    a[2] = rampOut;
    this.sampleAt(a, 0, weights, planted);
  }

  /**
   * {@link ContactTrack.sample} for the hot path: the clip time, the ramp-in and the ramp-out are
   * read from `args[o…o+2]`, so no double crosses a call. Allocates nothing. Its arguments are not
   * checked (what {@link ContactTrack.sample} refuses, it takes silently): give it what that accepts.
   *
   * @internal FootPlacement's path; not part of the public API (its arguments are not checked).
   */
  sampleAt(args: Float64Array, o: number, weights: Float64Array, planted: Uint8Array): void {
    const time = args[o];
    const rampIn = args[o + 1];
    const rampOut = args[o + 2];
    const d = this.duration;
    let t = time;
    if (this.loop) {
      t = time - Math.floor(time / d) * d;
      if (!(t >= 0 && t < d)) t = 0;
    } else {
      t = time < 0 ? 0 : time > d ? d : time;
    }
    for (let leg = 0; leg < this.intervals.length; leg++) {
      const list = this.intervals[leg];
      let w = 0;
      let on = 0;
      // A looping clip's contacts repeat: the copies one duration before and after count too.
      const first = this.loop ? -1 : 0;
      const last = this.loop ? 1 : 0;
      for (let k = first; k <= last; k++) {
        const shift = k * d;
        for (let i = 0; i < list.length; i += 2) {
          const s = list[i] + shift;
          const e = list[i + 1] + shift;
          if (t >= s && t <= e) {
            w = 1;
            on = 1;
          } else {
            const gap = t < s ? s - t : t - e;
            const ramp = t < s ? rampIn : rampOut;
            if (gap < ramp) {
              const x = 1 - gap / ramp;
              const eased = x * x * (3 - 2 * x);
              if (eased > w) w = eased;
            }
          }
        }
      }
      weights[leg] = w;
      planted[leg] = on;
    }
  }

  /**
   * The ground's velocity under the planted feet at clip time `time` (model space, y = 0), into
   * `out[o…o+2]`: for an in-place clip, how fast a character must travel, moment by moment, for its
   * planted feet to stay still in the world (the negative of it). Interpolated between samples;
   * the constant {@link ContactTrack.groundVelocity} when the track has no samples; 0 before and
   * after a one-shot clip (a track made with `loop: false`), whose pose is then held. Allocates
   * nothing.
   *
   * @throws {@link TendonError} `argument/invalid` for a `time` that is not finite, or an `out` that
   *   is not a Float64Array with room for 3 numbers at `o` (a whole number ≥ 0).
   */
  groundVelocityAt(time: number, out: Float64Array, o: number): void {
    // Comparisons only, as in sample: called every frame.
    if (!(time - time === 0)) refuseArg('groundVelocityAt', 'time', time, 'a finite number');
    checkOut3('groundVelocityAt', out, o);
    const g = this.groundVelocities;
    const n = g.length >> 1;
    const d = this.duration;
    if (!this.loop && !(time >= 0 && time <= d)) {
      // Before a one-shot clip or after it, its pose is held: the ground does not move. (Its last
      // velocity, kept, carried a walk held at its end on at walking speed, 3.9 m in 2 s.)
      out[o] = 0;
      out[o + 1] = 0;
      out[o + 2] = 0;
      return;
    }
    if (n === 0) {
      out[o] = this.groundVelocity[0];
      out[o + 1] = 0;
      out[o + 2] = this.groundVelocity[2];
      return;
    }
    let t = this.loop ? time - Math.floor(time / d) * d : time;
    if (!(t >= 0)) t = 0;
    const x = (t / d) * (this.loop ? n : n - 1);
    let i = Math.floor(x);
    if (i >= n) i = n - 1;
    const f = x - i;
    const j = i + 1 < n ? i + 1 : this.loop ? 0 : i;
    out[o] = g[2 * i] + (g[2 * j] - g[2 * i]) * f;
    out[o + 1] = 0;
    out[o + 2] = g[2 * i + 1] + (g[2 * j + 1] - g[2 * i + 1]) * f;
  }

  /**
   * How far the ground travels (model space, y = 0) from clip time `time` over the next `seconds`,
   * into `out[o…o+2]`: the integral of {@link ContactTrack.groundVelocityAt}, exact for its
   * interpolation. For an in-place clip whose character travels at that velocity, where a foot
   * planted then will be relative to the character now. Allocates nothing.
   *
   * @throws {@link TendonError} `argument/invalid` for a `time` or `seconds` that is not finite, or
   *   an `out` that is not a Float64Array with room for 3 numbers at `o` (a whole number ≥ 0).
   */
  groundTravel(time: number, seconds: number, out: Float64Array, o: number): void {
    // Comparisons only, as in sample: called every frame. (groundTravelAt, the placement's own
    // path, takes numbers it has checked.)
    if (!(time - time === 0)) refuseArg('groundTravel', 'time', time, 'a finite number');
    if (!(seconds - seconds === 0)) refuseArg('groundTravel', 'seconds', seconds, 'a finite number');
    checkOut3('groundTravel', out, o);
    this.scratch[0] = time;
    this.scratch[1] = seconds;
    this.groundTravelAt(this.scratch, 0, this.scratch, 1, out, o);
  }

  /**
   * {@link ContactTrack.groundTravel} for the hot path: the clip time is read from `times[ti]` and
   * the seconds from `seconds[si]` (no double crosses a call). Allocates nothing. Its arguments are
   * not checked: give it what {@link ContactTrack.groundTravel} accepts.
   *
   * @internal FootPlacement's path; not part of the public API (its arguments are not checked).
   */
  groundTravelAt(
    times: Float64Array,
    ti: number,
    seconds: Float64Array,
    si: number,
    out: Float64Array,
    o: number,
  ): void {
    const t0 = times[ti];
    const t1 = t0 + seconds[si];
    const g = this.groundVelocities;
    const n = g.length >> 1;
    out[o + 1] = 0;
    if (n === 0) {
      // A one-shot clip's ground stands still before and after it (groundVelocityAt).
      let span = t1 - t0;
      if (!this.loop) {
        const d = this.duration;
        const a = t0 < 0 ? 0 : t0 > d ? d : t0;
        const b = t1 < 0 ? 0 : t1 > d ? d : t1;
        span = b - a;
      }
      out[o] = this.groundVelocity[0] * span;
      out[o + 2] = this.groundVelocity[2] * span;
      return;
    }
    // Whole cycles apart, then each end within its cycle: the difference of two travels from 0
    // would lose precision an hour into a loop. Both ends are written out here, not in a method:
    // a double passed to or returned from a call V8 does not inline is boxed.
    const d = this.duration;
    const travel = this.travel;
    const loop = this.loop;
    const spans = loop ? n : n - 1;
    let sx = 0;
    let sz = 0;
    let a = t0;
    let b = t1;
    if (loop) {
      const c0 = Math.floor(t0 / d);
      const c1 = Math.floor(t1 / d);
      sx = (c1 - c0) * travel[2 * n];
      sz = (c1 - c0) * travel[2 * n + 1];
      a = t0 - c0 * d;
      b = t1 - c1 * d;
    }
    for (let e = 0; e < 2; e++) {
      const t = e === 0 ? b : a;
      let px: number;
      let pz: number;
      if (spans === 0) {
        // A single sample: its velocity (a one-shot clip's within the clip only).
        const within = loop ? t : t < 0 ? 0 : t > d ? d : t;
        px = g[0] * within;
        pz = g[1] * within;
      } else if (!loop && t <= 0) {
        // Before a one-shot clip, and after it, its pose is held (groundVelocityAt).
        px = 0;
        pz = 0;
      } else if (!loop && t >= d) {
        const last = 2 * (n - 1);
        px = travel[last];
        pz = travel[last + 1];
      } else {
        const x = (t / d) * spans;
        let i = Math.floor(x);
        if (i >= spans) i = spans - 1;
        if (i < 0) i = 0;
        const f = x - i;
        const j = i + 1 < n ? i + 1 : 0;
        const h = d / spans;
        const half = f * f * 0.5;
        px = travel[2 * i] + h * (g[2 * i] * f + (g[2 * j] - g[2 * i]) * half);
        pz = travel[2 * i + 1] + h * (g[2 * i + 1] * f + (g[2 * j + 1] - g[2 * i + 1]) * half);
      }
      if (e === 0) {
        sx += px;
        sz += pz;
      } else {
        sx -= px;
        sz -= pz;
      }
    }
    out[o] = sx;
    out[o + 2] = sz;
  }

  /**
   * {@link ContactTrack.nextContact} for the hot path: the clip time is read from `times[ti]` and the
   * seconds until the contact are written to `until[ui]`, so no double crosses a call (V8 boxes
   * one passed to or returned from a call it does not inline). Allocates nothing. Its arguments are
   * not checked: give it what {@link ContactTrack.nextContact} accepts.
   *
   * @internal FootPlacement's path; not part of the public API (its arguments are not checked).
   */
  nextContactAt(
    times: Float64Array,
    ti: number,
    leg: number,
    out: Float64Array,
    o: number,
    until: Float64Array,
    ui: number,
  ): void {
    const d = this.duration;
    const list = this.intervals[leg];
    const landing = this.landings[leg];
    const time = times[ti];
    const t = this.loop ? time - Math.floor(time / d) * d : time;
    let best = Number.POSITIVE_INFINITY;
    let index = -1;
    for (let k = this.loop ? -1 : 0; k <= (this.loop ? 1 : 0); k++) {
      for (let i = 0; i < list.length; i += 2) {
        const start = list[i] + k * d;
        const end = list[i + 1] + k * d;
        const wait = t >= start && t <= end ? 0 : start - t;
        if (wait >= 0 && wait < best) {
          best = wait;
          index = i >> 1;
        }
      }
    }
    if (index >= 0 && landing.length > 0) {
      out[o] = landing[3 * index];
      out[o + 1] = landing[3 * index + 1];
      out[o + 2] = landing[3 * index + 2];
    }
    until[ui] = best;
  }

  /**
   * The next contact of `leg` after clip time `time`: returns the seconds until it starts (0 while
   * planted, `Infinity` when no contact follows) and, when the track knows where the foot lands,
   * writes its model position into `out[o…o+2]` (else leaves `out` as it was). Allocates nothing.
   *
   * @throws {@link TendonError} `argument/invalid` for a `time` that is not finite, a `leg` that is
   *   not one of the track's (0 to {@link ContactTrack.legCount} − 1), or an `out` that is not a
   *   Float64Array with room for 3 numbers at `o` (a whole number ≥ 0), whether or not it would be
   *   written.
   */
  nextContact(time: number, leg: number, out: Float64Array, o: number): number {
    // Comparisons only, as in sample: called every frame. (nextContactAt, the placement's own
    // path, takes numbers it has checked.)
    if (!(time - time === 0)) refuseArg('nextContact', 'time', time, 'a finite number');
    if (!(typeof leg === 'number' && leg >= 0 && leg % 1 === 0 && leg < this.intervals.length)) {
      refuseArg('nextContact', 'leg', leg, `a leg of the track, 0 to ${this.intervals.length - 1}`);
    }
    checkOut3('nextContact', out, o);
    this.scratch[0] = time;
    this.nextContactAt(this.scratch, 0, leg, out, o, this.scratch, 1);
    return this.scratch[1];
  }
}

/**
 * Reads the contacts of `clip` for `legs` (as a rig finds them). Samples the clip at `sampleRate`,
 * runs forward kinematics, and marks a foot planted where it is low and still relative to the
 * ground, with hysteresis; contacts shorter than `minDuration` are dropped. A foot with a toe is low
 * when its heel (ankle) or its toe is near that point's lowest height in the clip, and still when
 * that point is: a heel strike and a push-off on the toe are contact too.
 *
 * The ground's velocity: zero when the legs' common ancestor (the pelvis) travels through the clip
 * (root motion); otherwise (an in-place clip) the median horizontal velocity of the low feet (along
 * their heading and across it, so a clip turned about +Y reads the same speed turned), the
 * negative of the speed the character must travel at. An animator's planted foot seldom moves at one
 * constant speed under an in-place clip, so there a foot counts as still within 60% of the ground's
 * speed of it (plus `stillSpeed`).
 *
 * @throws {@link TendonError} `placement/invalid-contacts` for invalid options or no legs.
 */
export function computeContacts(
  clip: Clip,
  legs: readonly LegRig[],
  options: ContactOptions = {},
): ContactTrack {
  const name = 'computeContacts';
  checkClipArg(clip, name);
  options = optionsArg(options, name);
  checkOptionKeys(options, CONTACT_OPTIONS, name);
  const rate = options.sampleRate ?? 60;
  const lowHeight = options.lowHeight ?? 0.06;
  const stillSpeed = options.stillSpeed ?? 0.4;
  const release = options.releaseFactor ?? 1.5;
  const minDuration = options.minDuration ?? 0.05;
  const loop = options.loop ?? true;
  for (const [key, value] of Object.entries({ rate, lowHeight, stillSpeed, release, minDuration })) {
    if (
      !(value >= 0 && Number.isFinite(value)) ||
      // Above 1,000 samples per second nothing is learnt; a hostile rate would loop for hours.
      (key === 'rate' && !(value > 0 && value <= 1000)) ||
      (key === 'release' && value < 1)
    ) {
      throw new TendonError(
        'placement/invalid-contacts',
        `${name}: option ${key} = ${value} is out of range`,
      );
    }
  }
  if (!Array.isArray(legs) || legs.length === 0)
    throw new TendonError('placement/invalid-contacts', `${name}: no legs`);
  for (let i = 0; i < legs.length; i++) checkLegRig(legs[i], clip.skeleton, name, `leg ${i}`);
  const skeleton = clip.skeleton;
  const duration = clip.duration;
  // Four samples at least: at two, a looping clip's samples either side of one are the same one,
  // and its velocity was 0/0 (a rate of 1 on a one-second clip failed as non-finite velocities).
  const frames = Math.max(4, Math.round(duration * rate));
  const step = duration > 0 ? duration / frames : 0;
  const count = loop ? frames : frames + 1;
  const pose = new Pose(skeleton);
  const model = createModelBuffer(skeleton);
  const context = new SamplerContext(clip);
  const pelvis = commonAncestor(
    skeleton.parents,
    legs.map((leg) => leg.root),
  );
  // Per leg, the ankle's (foot joint's) positions, then the toe's (or the ankle's again).
  const ankles = legs.map(() => new Float64Array(3 * count));
  const toes = legs.map(() => new Float64Array(3 * count));
  const pelvisTravel = new Float64Array(3);
  for (let k = 0; k <= count; k++) {
    // One more sample at the very end (clamped) measures how far the pelvis travels.
    const last = k === count;
    sampleClip(clip, context, last ? duration : k * step, pose, last ? 'clamp' : loop ? 'loop' : 'clamp');
    forwardKinematics(pose, model);
    if (pelvis >= 0 && (k === 0 || last)) {
      for (let a = 0; a < 3; a++)
        pelvisTravel[a] = model[16 * pelvis + 12 + a] - (k === 0 ? 0 : pelvisTravel[a]);
    }
    if (last) break;
    legs.forEach((leg, i) => {
      footPoint(ankles[i], 3 * k, model, leg);
      if (leg.toe >= 0) toes[i].set(model.subarray(16 * leg.toe + 12, 16 * leg.toe + 15), 3 * k);
      else toes[i].set(ankles[i].subarray(3 * k, 3 * k + 3), 3 * k);
    });
  }
  const rest = restModelMatrices(skeleton);
  const lengths = legs.map((leg) => legLength(rest, leg));
  const shortest = Math.min(...lengths);
  // A velocity is read across about a thirtieth of a second (the samples either side at the
  // default rate; at rates under 60, across the samples either side), whatever the rate: between
  // two samples 1/240 s apart a capture's jitter reads as speed and splits contacts.
  let half = step > 0 ? Math.max(1, Math.round(VELOCITY_SPAN / (2 * step))) : 1;
  // A loop shorter than the span: the samples either side must not meet (or pass) each other.
  if (loop && 2 * half >= count) half = Math.max(1, (count - 1) >> 1);
  const velocity = (p: Float64Array, k: number, axis: number): number => {
    if (step === 0) return 0;
    let prev = k - half;
    let next = k + half;
    if (loop) {
      prev = (prev + count) % count;
      next = next % count;
    } else {
      prev = prev < 0 ? 0 : prev;
      next = next > count - 1 ? count - 1 : next;
    }
    return (p[3 * next + axis] - p[3 * prev + axis]) / (step * (next - prev + (next < prev ? count : 0)));
  };
  const lowest = (p: Float64Array): number => {
    let m = Number.POSITIVE_INFINITY;
    for (let k = 0; k < count; k++) m = Math.min(m, p[3 * k + 1]);
    return m;
  };
  const ankleMin = ankles.map(lowest);
  const toeMin = toes.map(lowest);
  // Which point carries the foot at frame k: the one nearer its own lowest height.
  const contactPoint = (i: number, k: number): [Float64Array, number] => {
    const ha = ankles[i][3 * k + 1] - ankleMin[i];
    const ht = toes[i][3 * k + 1] - toeMin[i];
    return ht < ha ? [toes[i], ht] : [ankles[i], ha];
  };
  const travel = duration > 0 ? Math.sqrt(pelvisTravel[0] ** 2 + pelvisTravel[2] ** 2) / duration : 0;
  let groundVelocity: [number, number, number] = [0, 0, 0];
  if (!(travel > 0.2 * shortest)) {
    // In place: the ground moves under the planted feet. The median velocity of the low feet, taken
    // in the plane (a median per axis would read a clip's heading differently as it is turned).
    const v: number[] = [];
    legs.forEach((_, i) => {
      for (let k = 0; k < count; k++) {
        const [p, height] = contactPoint(i, k);
        if (height <= lowHeight * lengths[i]) v.push(velocity(p, k, 0), velocity(p, k, 2));
      }
    });
    const [mx, mz] = headingMedian(v);
    groundVelocity = [mx, 0, mz];
  }
  const intervals: number[][] = [];
  const footHeights: number[] = [];
  const toeHeights: number[] = [];
  const landings: number[][] = [];
  const planted: Uint8Array[] = [];
  // Under an in-place clip the planted foot moves with the ground, but an animator's foot seldom
  // moves at one constant speed: there, "still" allows a share of the ground's speed too.
  const groundSpeed = Math.sqrt(groundVelocity[0] ** 2 + groundVelocity[2] ** 2);
  legs.forEach((leg, i) => {
    const L = lengths[i];
    const still = stillSpeed * L + 0.6 * groundSpeed;
    const contact = new Uint8Array(count);
    planted.push(contact);
    // Hysteresis needs the state before frame 0: a looping clip goes round twice.
    let on = false;
    for (let pass = loop ? 2 : 1; pass > 0; pass--) {
      for (let k = 0; k < count; k++) {
        const [p, height] = contactPoint(i, k);
        const dvx = velocity(p, k, 0) - groundVelocity[0];
        const dvz = velocity(p, k, 2) - groundVelocity[2];
        const dvy = velocity(p, k, 1);
        const speed = Math.sqrt(dvx * dvx + dvz * dvz + dvy * dvy);
        const factor: number = on ? release : 1;
        on = height <= lowHeight * L * factor && speed <= still * factor;
        contact[k] = on ? 1 : 0;
      }
    }
    const list: number[] = [];
    const lands: number[] = [];
    for (const [first, last] of runs(contact, loop)) {
      if ((last - first) * step < minDuration) continue;
      list.push(first * step, last * step);
      const k = first % count;
      lands.push(ankles[i][3 * k], ankles[i][3 * k + 1], ankles[i][3 * k + 2]);
    }
    intervals.push(list);
    landings.push(lands);
    // Planted heights: the lowest the heel and the toe sit while in contact.
    let ha = Number.POSITIVE_INFINITY;
    let ht = Number.POSITIVE_INFINITY;
    for (let k = 0; k < count; k++) {
      if (contact[k]) {
        ha = Math.min(ha, ankles[i][3 * k + 1]);
        ht = Math.min(ht, toes[i][3 * k + 1]);
      }
    }
    footHeights.push(ha === Number.POSITIVE_INFINITY ? ankleMin[i] : ha);
    toeHeights.push(leg.toe < 0 ? Number.NaN : ht === Number.POSITIVE_INFINITY ? toeMin[i] : ht);
  });
  // In place: the ground's speed moment by moment, the mean velocity of the feet planted then,
  // where one is; between (a run's flight) it carries on from the clip's median; then smoothed over
  // a tenth of a second, so a character driven by it does not jerk.
  const groundVelocities: number[] = [];
  if (groundVelocity[0] !== 0 || groundVelocity[2] !== 0) {
    const raw = new Float64Array(2 * count);
    for (let k = 0; k < count; k++) {
      let sx = 0;
      let sz = 0;
      let n = 0;
      legs.forEach((_, i) => {
        if (!planted[i][k]) return;
        const [p] = contactPoint(i, k);
        sx += velocity(p, k, 0);
        sz += velocity(p, k, 2);
        n++;
      });
      raw[2 * k] = n > 0 ? sx / n : groundVelocity[0];
      raw[2 * k + 1] = n > 0 ? sz / n : groundVelocity[2];
    }
    const half = Math.max(1, Math.round(0.05 / (step || 1)));
    for (let k = 0; k < count; k++) {
      let sx = 0;
      let sz = 0;
      let n = 0;
      for (let q = -half; q <= half; q++) {
        let j = k + q;
        if (loop) j = ((j % count) + count) % count;
        else if (j < 0 || j >= count) continue;
        sx += raw[2 * j];
        sz += raw[2 * j + 1];
        n++;
      }
      groundVelocities.push(sx / n, sz / n);
    }
  }
  return new ContactTrack({
    duration,
    intervals,
    footHeights,
    toeHeights,
    landings,
    loop,
    groundVelocity,
    groundVelocities,
  });
}

/** The lowest common ancestor of `joints` (joints stored parent-before-child), `-1` for none. */
function commonAncestor(parents: Int32Array, joints: readonly number[]): number {
  let a = joints[0];
  for (let i = 1; i < joints.length && a >= 0; i++) {
    let b = joints[i];
    while (a >= 0 && b >= 0 && a !== b) {
      if (a > b) a = parents[a];
      else b = parents[b];
    }
    a = a === b ? a : -1;
  }
  return a;
}

/** Runs of 1s as `[firstFrame, lastFrame]`; when looping, a run across the end continues past it. */
function runs(flags: Uint8Array, loop: boolean): [number, number][] {
  const n = flags.length;
  const out: [number, number][] = [];
  if (flags.every((f) => f === 1)) return loop ? [[0, n]] : [[0, n - 1]];
  // Start scanning just after a 0, so that a wrapping run is seen whole.
  let origin = 0;
  if (loop) while (flags[origin] === 1) origin++;
  let k = 0;
  while (k < n) {
    const i = (origin + k) % n;
    if (flags[i] === 1) {
      const start = origin + k;
      while (k < n && flags[(origin + k) % n] === 1) k++;
      const end = origin + k - 1;
      out.push(start >= n ? [start - n, end - n] : [start, end]);
    } else {
      k++;
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/**
 * The median of the points `(xy[2i], xy[2i+1])` along their heading and across it: a median per
 * axis, taken on axes that turn with the points (the heading is their geometric median's
 * direction), so a clip turned about +Y reads the same ground speed turned.
 */
function headingMedian(xy: readonly number[]): [number, number] {
  const [gx, gy] = geometricMedian(xy);
  const g = dist(gx, gy);
  if (!(g > 0)) return [gx, gy];
  const ux = gx / g;
  const uy = gy / g;
  const n = xy.length >> 1;
  const along = new Float64Array(n);
  const across = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    along[i] = ux * xy[2 * i] + uy * xy[2 * i + 1];
    across[i] = -uy * xy[2 * i] + ux * xy[2 * i + 1];
  }
  const a = median(along);
  const c = median(across);
  return [ux * a - uy * c, uy * a + ux * c];
}

/** Seconds of the clip a foot's velocity is read across, at any sample rate. */
const VELOCITY_SPAN = 1 / 30;

function median(values: Float64Array): number {
  const s = values.slice().sort();
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : 0.5 * (s[m - 1] + s[m]);
}

/**
 * The geometric median of the points `(xy[2i], xy[2i+1])` (the point with the least sum of
 * distances to them), by Weiszfeld's iteration from their mean: like a median it ignores the few
 * far-off samples (a foot's lift), and unlike a median per axis it turns with the points.
 */
function geometricMedian(xy: readonly number[]): [number, number] {
  const n = xy.length >> 1;
  if (n === 0) return [0, 0];
  let x = 0;
  let y = 0;
  for (let i = 0; i < n; i++) {
    x += xy[2 * i];
    y += xy[2 * i + 1];
  }
  x /= n;
  y /= n;
  let spread = 0;
  for (let i = 0; i < n; i++) spread = Math.max(spread, dist(xy[2 * i] - x, xy[2 * i + 1] - y));
  // Closer than this a sample counts as the estimate itself (Weiszfeld's weight 1/d is unbounded).
  const near = 1e-12 * spread;
  for (let iteration = 0; iteration < 500 && spread > 0; iteration++) {
    let sx = 0;
    let sy = 0;
    let sw = 0;
    for (let i = 0; i < n; i++) {
      const d = dist(xy[2 * i] - x, xy[2 * i + 1] - y);
      if (d <= near) continue;
      sx += xy[2 * i] / d;
      sy += xy[2 * i + 1] / d;
      sw += 1 / d;
    }
    if (sw === 0) break;
    const nx = sx / sw;
    const ny = sy / sw;
    const moved = dist(nx - x, ny - y);
    x = nx;
    y = ny;
    if (moved <= 1e-13 * spread) break;
  }
  return [x, y];
}

/** Length of (x, y) by `Math.sqrt`, correctly rounded in every engine (`Math.hypot` is not). */
function dist(x: number, y: number): number {
  return Math.sqrt(x * x + y * y);
}

/**
 * Where a leg's foot is in `model`, into `out[o…o+2]`: the foot joint of a `'chain'` leg; for an
 * `'effector'` leg the leg's own end (`endLocal` on the middle joint), not the separate foot bone,
 * which an exported clip keeps there only on its keys (between them, interpolated rotations move
 * the leg's end by up to a few centimetres from it, past the leg's reach at times): the leg's end is
 * where the leg can put the foot.
 */
export function footPoint(out: Float64Array, o: number, model: Float64Array, leg: LegRig): void {
  if (leg.shape === 'effector' && leg.endLocal !== null) {
    const m = 16 * leg.middle;
    // Indexed, not destructured: destructuring iterates, and iterating allocates.
    const p = leg.endLocal;
    const x = p[0];
    const y = p[1];
    const z = p[2];
    out[o] = model[m] * x + model[m + 4] * y + model[m + 8] * z + model[m + 12];
    out[o + 1] = model[m + 1] * x + model[m + 5] * y + model[m + 9] * z + model[m + 13];
    out[o + 2] = model[m + 2] * x + model[m + 6] * y + model[m + 10] * z + model[m + 14];
  } else {
    const f = 16 * leg.foot + 12;
    out[o] = model[f];
    out[o + 1] = model[f + 1];
    out[o + 2] = model[f + 2];
  }
}

/**
 * Where a leg's end is in `matrices` (model matrices, 16 numbers a joint): its end joint, or the
 * point `endLocal` of its middle joint.
 */
export function legEndIn(matrices: Float64Array, leg: LegRig): [number, number, number] {
  if (leg.end >= 0) {
    const e = 16 * leg.end + 12;
    return [matrices[e], matrices[e + 1], matrices[e + 2]];
  }
  const p = leg.endLocal ?? [0, 0, 0];
  const o = 16 * leg.middle;
  const m = matrices;
  return [
    m[o] * p[0] + m[o + 4] * p[1] + m[o + 8] * p[2] + m[o + 12],
    m[o + 1] * p[0] + m[o + 5] * p[1] + m[o + 9] * p[2] + m[o + 13],
    m[o + 2] * p[0] + m[o + 6] * p[1] + m[o + 10] * p[2] + m[o + 14],
  ];
}

/** A leg's length in the rest pose: root to middle plus middle to its end (joint or point). */
export function legLength(rest: Float64Array, leg: LegRig): number {
  checkFloat64Arg(rest, 'legLength', 'the rest matrices');
  checkObjectArg(leg, 'legLength', 'the leg');
  for (const j of [leg.root, leg.middle, leg.end]) {
    if (!(Number.isInteger(j) && j >= -1 && 16 * j + 16 <= rest.length)) {
      throw new TendonError(
        'argument/invalid',
        `legLength: the leg's joint ${String(j)} is not in the rest matrices`,
      );
    }
  }
  const r = 16 * leg.root + 12;
  const m = 16 * leg.middle + 12;
  const [ex, ey, ez] = legEndIn(rest, leg);
  const a = norm3(rest[m] - rest[r], rest[m + 1] - rest[r + 1], rest[m + 2] - rest[r + 2]);
  const b = norm3(ex - rest[m], ey - rest[m + 1], ez - rest[m + 2]);
  return a + b;
}

function norm3(x: number, y: number, z: number): number {
  return Math.sqrt(x * x + y * y + z * z);
}

/**
 * The travel table of a {@link ContactTrack}: `x, z` from time 0 to each velocity sample (and, for
 * a loop, to the cycle's end), by trapezoids of the linearly interpolated velocity.
 */
function groundTravelTable(g: Float64Array, duration: number, loop: boolean): Float64Array {
  const n = g.length >> 1;
  if (n === 0) return new Float64Array(0);
  const spans = loop ? n : n - 1;
  const out = new Float64Array(2 * (spans + 1));
  const h = spans > 0 ? duration / spans : 0;
  for (let k = 0; k < spans; k++) {
    const j = k + 1 < n ? k + 1 : 0;
    out[2 * k + 2] = out[2 * k] + h * (g[2 * k] + g[2 * j]) * 0.5;
    out[2 * k + 3] = out[2 * k + 1] + h * (g[2 * k + 1] + g[2 * j + 1]) * 0.5;
  }
  return out;
}
