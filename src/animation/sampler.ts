/**
 * Sampling a clip into a pose, with per-character cursors.
 *
 * @packageDocumentation
 */
import { checkClipArg, checkPoseArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import { sampleTracksAt } from '../kernel/keyframes.js';
import { Pose } from '../pose/pose.js';
import { Clip } from './clip.js';

/** What happens to a time outside `[0, duration]`: wrap around, or hold the end value. */
export type WrapMode = 'loop' | 'clamp';

/**
 * The per-character state of sampling one clip: the key interval each track used last. Forward
 * playback then finds its keys in O(1) per track. Owned by the caller, so that one {@link Clip}
 * can drive many characters, each with its own context. Any time may be sampled with any context
 * (a jump costs a binary search); a context only speeds up coherent times.
 */
export class SamplerContext {
  /** The clip this context is sized for. */
  readonly clip: Clip;
  /** Last key interval per track. */
  readonly cursors: Int32Array;
  /**
   * The time {@link sampleClipClock} samples at, seconds (`clock[0]`). A time written here crosses
   * no call: passed to `sampleClip` from a frame loop V8 did not inline it into, a fraction of a
   * second is boxed (16 bytes a frame).
   */
  readonly clock = new Float64Array(1);

  /** A context for sampling `clip`. */
  constructor(clip: Clip) {
    checkClipArg(clip, 'new SamplerContext');
    this.clip = clip;
    this.cursors = new Int32Array(clip.trackCount);
  }

  /** Forgets the cursors (the next sample searches from the first key). */
  reset(): void {
    this.cursors.fill(0);
  }
}

/**
 * Maps a time to the clip's `[0, duration]`: wrapped for `loop` (so `duration` itself maps to 0,
 * as in three.js), clamped for `clamp`.
 */
export function wrapTime(time: number, duration: number, mode: WrapMode): number {
  wrapScratch[0] = time;
  wrapSpan.duration = duration;
  wrapTimeAt(wrapScratch, 0, wrapScratch, 0, wrapSpan, mode);
  return wrapScratch[0];
}

const wrapScratch = new Float64Array(1);
const wrapSpan = { duration: 0 };

/**
 * `out[o] ← wrapTime(times[i], clip.duration, mode)`, every branch writing the array: the loops
 * that sample many characters call this, and must not allocate. (A wrap returning its time, once
 * V8 had seen it return both a small integer 0 and a fraction, boxed the fraction: 16 bytes a call,
 * even inlined.)
 */
export function wrapTimeAt(
  out: Float64Array,
  o: number,
  times: Float64Array,
  i: number,
  clip: { readonly duration: number },
  mode: WrapMode,
): void {
  const time = times[i];
  const duration = clip.duration;
  if (duration <= 0) out[o] = 0;
  else if (mode === 'clamp') out[o] = time < 0 ? 0 : time > duration ? duration : time;
  else if (time >= 0 && time < duration) out[o] = time;
  else {
    // floor rather than %: V8 computes a double % with a call into C, ten times the cost.
    const t = time - Math.floor(time / duration) * duration;
    out[o] = t >= 0 && t < duration ? t : 0;
  }
}

// The wrapped time travels to the sampling kernel in an array: a number would be boxed.
const timeScratch = new Float64Array(1);

/**
 * Samples `clip` at `time` seconds into `pose`: every animated channel is written; channels the
 * clip does not animate keep their values (call `pose.resetToRest()` first for a clip that covers
 * only part of the skeleton). Rotations use shortest-path slerp (trig-free, bit-identical across
 * engines), translations and scales linear interpolation, `STEP` and `CUBICSPLINE` as glTF defines
 * them. Allocates nothing.
 *
 * @throws {@link TendonError} `animation/invalid-time` for a non-finite time,
 *   `animation/context-mismatch` when `context` belongs to another clip, `clip/skeleton-mismatch`
 *   when the pose belongs to another skeleton. Nothing is written when it throws.
 */
export function sampleClip(
  clip: Clip,
  context: SamplerContext,
  time: number,
  pose: Pose,
  mode: WrapMode = 'loop',
): void {
  // One test for every argument, and the messages built in a separate call only when it fails:
  // sampleClip stays small enough for V8 to inline into a frame loop (a double passed to a call it
  // does not inline is boxed, allocated).
  if (!sampleArgsFit(clip, context, pose, mode) || !(time - time === 0)) {
    refuseSample(clip, context, time, pose, mode);
  }
  timeScratch[0] = time;
  wrapTimeAt(timeScratch, 0, timeScratch, 0, clip, mode);
  sampleTracksAt(clip, context.cursors, timeScratch, 0, pose.translations, pose.rotations, pose.scales);
}

/**
 * {@link sampleClip} at the time in `context.clock[0]`: the same pose, bit for bit, and the same
 * refusals, with no number crossing the call. For frame loops that must not allocate whatever V8
 * inlines (`context.clock[0] = time; sampleClipClock(clip, context, pose)`).
 *
 * @throws {@link TendonError} as {@link sampleClip}, for the time in `context.clock[0]`.
 */
export function sampleClipClock(
  clip: Clip,
  context: SamplerContext,
  pose: Pose,
  mode: WrapMode = 'loop',
): void {
  if (!sampleArgsFit(clip, context, pose, mode) || !(context.clock[0] - context.clock[0] === 0)) {
    const time = context instanceof SamplerContext ? context.clock[0] : Number.NaN;
    refuseSample(clip, context, time, pose, mode, 'sampleClipClock');
  }
  wrapTimeAt(timeScratch, 0, context.clock, 0, clip, mode);
  sampleTracksAt(clip, context.cursors, timeScratch, 0, pose.translations, pose.rotations, pose.scales);
}

/** Whether a sample's clip, context, pose and mode go together (the time is checked apart). */
function sampleArgsFit(clip: Clip, context: SamplerContext, pose: Pose, mode: WrapMode): boolean {
  return (
    clip instanceof Clip &&
    context instanceof SamplerContext &&
    context.clip === clip &&
    pose instanceof Pose &&
    pose.skeleton === clip.skeleton &&
    (mode === 'loop' || mode === 'clamp')
  );
}

/** Says what is wrong with {@link sampleClip}'s (or `who`'s) arguments. */
function refuseSample(
  clip: Clip,
  context: SamplerContext,
  time: number,
  pose: Pose,
  mode: WrapMode,
  who = 'sampleClip',
): never {
  checkClipArg(clip, who);
  if (!(context instanceof SamplerContext)) {
    throw new TendonError(
      'argument/invalid',
      `${who}("${clip.name}"): the context is ${String(context)}, not a SamplerContext`,
    );
  }
  checkPoseArg(pose, who);
  if (mode !== 'loop' && mode !== 'clamp') {
    throw new TendonError(
      'argument/invalid',
      `${who}("${clip.name}"): mode ${String(mode)} is not 'loop' or 'clamp'`,
    );
  }
  if (!Number.isFinite(time)) {
    throw new TendonError('animation/invalid-time', `${who}("${clip.name}"): time ${time} is not finite`);
  }
  if (context.clip !== clip) {
    throw new TendonError(
      'animation/context-mismatch',
      `${who}("${clip.name}"): the sampler context was made for clip "${context.clip.name}"`,
    );
  }
  throw new TendonError(
    'clip/skeleton-mismatch',
    `${who}("${clip.name}"): the pose belongs to another skeleton than the clip`,
  );
}
