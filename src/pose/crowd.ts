/**
 * Many characters of one skeleton in one set of typed arrays: sampled, posed and skinned together.
 *
 * @packageDocumentation
 */

import { Clip } from '../animation/clip.js';
import { SamplerContext, type WrapMode, wrapTimeAt } from '../animation/sampler.js';
import { checkSkeletonArg, optionsArg } from '../arguments.js';
import { adoptOrCarve, constructOver, takeAdopted } from '../crowd/shared-memory.js';
import { TendonError } from '../errors.js';
import { blendAccumulate, blendClear, blendFinish } from '../kernel/blend.js';
import { sampleTracksAt } from '../kernel/keyframes.js';
import { localToModel } from '../kernel/local-to-model.js';
import { PALETTE_3X4, PALETTE_MAT4, skinPalettes } from '../kernel/skin-palette.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import type { Skin } from '../skin/skin.js';
import { BufferCarver } from '../slab.js';
import { checkCharacterRange, checkPaletteArgs } from './crowd-checks.js';
import { Pose } from './pose.js';

/** A palette layout of {@link Crowd.skinPalettes}: column-major `mat4`s, or the 3×4 rows. */
export type PaletteLayout = 'mat4' | '3x4';

const timeScratch = new Float64Array(1);

/** Options of `new Crowd`. */
export interface CrowdOptions {
  /**
   * Allocate the crowd's arrays on one `SharedArrayBuffer` ({@link Crowd.buffer}), so that workers
   * can view them ({@link Crowd.fromBuffer}) and each pose a slice. Default `false`.
   */
  readonly shared?: boolean;
}

/** Lays a crowd's arrays out on `buffer` (null: only counts the bytes). */
function carveCrowd(buffer: ArrayBuffer | SharedArrayBuffer | null, joints: number, count: number) {
  const carve = new BufferCarver(buffer);
  const arrays = {
    translations: carve.f64(3 * joints),
    rotations: carve.f64(4 * joints),
    scales: carve.f64(3 * joints),
    model: carve.f64(16 * joints),
    times: carve.f64(count),
    blendTimes: carve.f64(count),
    blendWeights: carve.f64(count),
    parents: carve.i32(joints),
  };
  return { arrays, bytes: carve.offset };
}

/**
 * `count` characters of one skeleton, their poses side by side in one set of typed arrays:
 * character `c`'s joint `j` at index `c·J + j` (J the skeleton's joint count) of
 * {@link Crowd.translations}, {@link Crowd.rotations}, {@link Crowd.scales} and
 * {@link Crowd.model}. A frame: {@link Crowd.sample} (each character its own clip and time),
 * {@link Crowd.forwardKinematics}, IK on the crowd (a `TwoBoneBatch` takes the crowd as its pose),
 * {@link Crowd.skinPalettes} into one Float32Array for GPU skinning of instances. Each character's
 * numbers are those its own `Pose`, `sampleClip`, `forwardKinematics` and `skinPalette` would give,
 * bit for bit. Nothing allocates per frame.
 */
export class Crowd {
  /** The skeleton every character shares. */
  readonly skeleton: Skeleton;
  /** Number of characters. */
  readonly count: number;
  /** The crowd's parent indices: the skeleton's, offset per character (roots −1). */
  readonly parents: Int32Array;
  /** Local translations, 3 per joint. */
  readonly translations: Float64Array;
  /** Local rotations, unit quaternions `(x, y, z, w)`, 4 per joint. */
  readonly rotations: Float64Array;
  /** Local scales, 3 per joint. */
  readonly scales: Float64Array;
  /** Model matrices, 16 per joint, column-major (after {@link Crowd.forwardKinematics}). */
  readonly model: Float64Array;
  /** Each character's time in its clip, seconds: set by the caller before {@link Crowd.sample}. */
  readonly times: Float64Array;
  /** Each character's time in its second clip ({@link Crowd.setBlendClip}), seconds. */
  readonly blendTimes: Float64Array;
  /**
   * Each character's weight of its second clip, in `[0, 1]` (its first clip has `1 − w`), read
   * for characters that have a second clip: 0 (the default) plays the first clip alone, 1 the
   * second alone, anything between blends the two; at every weight as a `Mixer` with the two
   * clips as base layers of weights `1 − w` and `w` would, bit for bit.
   */
  readonly blendWeights: Float64Array;
  /**
   * The memory every array above lives on, one after the other: a `SharedArrayBuffer` for a crowd
   * made with `shared: true` (or viewed with {@link Crowd.fromBuffer} on one).
   */
  readonly buffer: ArrayBuffer | SharedArrayBuffer;
  private readonly clips: (Clip | null)[];
  private readonly contexts: (SamplerContext | null)[];
  /** Per character, how many times its clip was taken out (see {@link Crowd.despawns}). */
  private readonly cleared: Uint32Array;
  private readonly blendClips: (Clip | null)[];
  private readonly blendContexts: (SamplerContext | null)[];
  /** A blend's two sampled poses, its accumulators (one character's size) and its layer weight. */
  private readonly blendScratch: {
    t: Float64Array;
    r: Float64Array;
    s: Float64Array;
    accT: Float64Array;
    accR: Float64Array;
    accS: Float64Array;
    accW: Float64Array;
    weight: Float64Array;
  };
  /** Per character, views of its part of the local buffers (made once: the sampler writes from 0). */
  private readonly views: { t: Float64Array; r: Float64Array; s: Float64Array }[];

  /**
   * Every character at the skeleton's rest pose, with no clip.
   *
   * @throws {@link TendonError} `argument/invalid` for a count that is not an integer ≥ 0 or
   *   options that are not an object, `crowd/no-shared-memory` for `shared: true` where memory
   *   cannot be shared.
   */
  constructor(skeleton: Skeleton, count: number, options: CrowdOptions = {}) {
    checkSkeletonArg(skeleton, 'new Crowd');
    const shared = optionsArg(options, 'new Crowd').shared === true;
    if (!Number.isInteger(count) || count < 0) {
      throw new TendonError('argument/invalid', `new Crowd: count ${count} is not an integer ≥ 0`);
    }
    const J = skeleton.jointCount;
    this.skeleton = skeleton;
    this.count = count;
    const view = takeAdopted();
    const { buffer, arrays } = adoptOrCarve(view, shared, 'Crowd', `a crowd of ${count} characters`, (b) =>
      carveCrowd(b, J * count, count),
    );
    this.buffer = buffer;
    this.parents = arrays.parents;
    this.translations = arrays.translations;
    this.rotations = arrays.rotations;
    this.scales = arrays.scales;
    this.model = arrays.model;
    this.times = arrays.times;
    this.blendTimes = arrays.blendTimes;
    this.blendWeights = arrays.blendWeights;
    this.clips = new Array(count).fill(null);
    this.contexts = new Array(count).fill(null);
    this.cleared = new Uint32Array(count);
    this.blendClips = new Array(count).fill(null);
    this.blendContexts = new Array(count).fill(null);
    this.blendScratch = {
      t: new Float64Array(3 * J),
      r: new Float64Array(4 * J),
      s: new Float64Array(3 * J),
      accT: new Float64Array(3 * J),
      accR: new Float64Array(4 * J),
      accS: new Float64Array(3 * J),
      accW: new Float64Array(J),
      weight: new Float64Array(1),
    };
    this.views = [];
    for (let c = 0; c < count; c++) {
      if (view === null) {
        for (let j = 0; j < J; j++) {
          const p = skeleton.parents[j];
          this.parents[c * J + j] = p < 0 ? -1 : c * J + p;
        }
        this.translations.set(skeleton.restTranslations, 3 * J * c);
        this.rotations.set(skeleton.restRotations, 4 * J * c);
        this.scales.set(skeleton.restScales, 3 * J * c);
      }
      this.views.push({
        t: this.translations.subarray(3 * J * c, 3 * J * (c + 1)),
        r: this.rotations.subarray(4 * J * c, 4 * J * (c + 1)),
        s: this.scales.subarray(3 * J * c, 3 * J * (c + 1)),
      });
    }
    if (view === null) this.forwardKinematics();
  }

  /**
   * A crowd viewing the memory of another ({@link Crowd.buffer}, of a crowd of the same skeleton
   * and count), such as a worker's view of a `shared: true` crowd: the same arrays, nothing
   * written. Its characters have no clip until {@link Crowd.setClip}.
   *
   * @throws {@link TendonError} `pose/buffer-size` when the buffer is not a crowd of that size (or
   *   not an `ArrayBuffer` or `SharedArrayBuffer` at all), `argument/invalid` for a count that is not an integer ≥ 0.
   */
  static fromBuffer(skeleton: Skeleton, count: number, buffer: ArrayBuffer | SharedArrayBuffer): Crowd {
    return constructOver(buffer, 'Crowd', () => new Crowd(skeleton, count));
  }

  /**
   * A {@link Pose} viewing character `character`'s local transforms in the crowd's arrays (nothing
   * copied, in either direction): the pose a per-character solver such as `FootPlacement` works on,
   * its model matrices {@link Crowd.modelOf}. Allocates the view: make it once and keep it.
   *
   * @throws {@link TendonError} `argument/invalid` for a character out of range.
   */
  poseOf(character: number): Pose {
    this.checkCharacter(character, 'poseOf');
    const J = this.skeleton.jointCount;
    const pose = Pose.view(this.skeleton, {
      translations: this.translations.subarray(3 * J * character, 3 * J * (character + 1)),
      rotations: this.rotations.subarray(4 * J * character, 4 * J * (character + 1)),
      scales: this.scales.subarray(3 * J * character, 3 * J * (character + 1)),
    });
    pose.startsFromRest = true;
    return pose;
  }

  /**
   * Character `character`'s model matrices: a view of {@link Crowd.model} (`16·J` numbers), the
   * model array to give a per-character solver beside {@link Crowd.poseOf}. Allocates the view.
   *
   * @throws {@link TendonError} `argument/invalid` for a character out of range.
   */
  modelOf(character: number): Float64Array {
    this.checkCharacter(character, 'modelOf');
    const J16 = 16 * this.skeleton.jointCount;
    return this.model.subarray(J16 * character, J16 * (character + 1));
  }

  private checkCharacter(character: number, who: string): void {
    if (!Number.isInteger(character) || character < 0 || character >= this.count) {
      throw new TendonError(
        'argument/invalid',
        `Crowd.${who}: character ${character} is not in 0..${this.count - 1}`,
      );
    }
  }

  /** The clip of character `character` (`null` when it has none, or is not a character). */
  clipOf(character: number): Clip | null {
    return this.clips[character] ?? null;
  }

  /**
   * Gives character `character` a clip of this skeleton (or `null`: {@link Crowd.sample} then
   * leaves its pose alone). Allocates its sampling cursors: call when the clip changes, not per
   * frame.
   *
   * @throws {@link TendonError} `argument/invalid` for a character out of range or not a clip,
   *   `clip/skeleton-mismatch` for a clip of another skeleton.
   */
  setClip(character: number, clip: Clip | null): void {
    this.checkClip(character, clip, 'setClip');
    if (clip === null && this.clips[character] !== null) this.cleared[character]++;
    this.clips[character] = clip;
    this.contexts[character] = clip === null ? null : new SamplerContext(clip);
  }

  /**
   * How many times character `character`'s clip was taken out ({@link Crowd.setClip} with `null`
   * over a clip): a character taken out and given a clip again between two looks (an object pool,
   * a far character on a schedule) is told by it, where its clip alone may read the same
   * (`CrowdPlacement` starts its placement over then). 0 for a character out of range.
   */
  despawns(character: number): number {
    return this.cleared[character] ?? 0;
  }

  /**
   * Gives character `character` a second clip (or `null`), played at {@link Crowd.blendTimes} and
   * blended with its first by {@link Crowd.blendWeights}: a walk fading into a run, each character
   * its own weight. Allocates its sampling cursors: call when the clip changes, not per frame.
   *
   * @throws {@link TendonError} as {@link Crowd.setClip}.
   */
  setBlendClip(character: number, clip: Clip | null): void {
    this.checkClip(character, clip, 'setBlendClip');
    this.blendClips[character] = clip;
    this.blendContexts[character] = clip === null ? null : new SamplerContext(clip);
  }

  /** The second clip of character `character` (`null` when it has none, or is not a character). */
  blendClipOf(character: number): Clip | null {
    return this.blendClips[character] ?? null;
  }

  private checkClip(character: number, clip: Clip | null, who: string): void {
    this.checkCharacter(character, who);
    if (clip !== null && !(clip instanceof Clip)) {
      throw new TendonError('argument/invalid', `Crowd.${who}: the clip is not a Clip`);
    }
    if (clip !== null && clip.skeleton !== this.skeleton) {
      throw new TendonError('clip/skeleton-mismatch', `Crowd.${who}: the clip is of another skeleton`);
    }
  }

  /**
   * What {@link Crowd.sample} checks before it writes anything, on its own: a run that samples a
   * range in parts (CrowdWorkers' `chunk`) checks the whole range first, so that a bad time in a
   * later part does not leave the earlier parts run.
   *
   * @internal
   */
  checkSample(mode: WrapMode, first: number, count: number): void {
    this.checkRange(first, count, 'Crowd.sample');
    const times = this.times;
    const blendTimes = this.blendTimes;
    const weights = this.blendWeights;
    const end = first + count;
    let sum = 0;
    let outside = false;
    for (let c = first; c < end; c++) {
      sum += times[c];
      if (this.blendClips[c] !== null) {
        sum += blendTimes[c];
        outside ||= !(weights[c] >= 0 && weights[c] <= 1);
      }
    }
    if (!(sum - sum === 0) || outside || (mode !== 'loop' && mode !== 'clamp')) {
      this.refuseSample(mode, first, end);
    }
  }

  /**
   * Samples every character that has a clip at its time ({@link Crowd.times}), as `sampleClip`
   * would (`mode` wraps or clamps the time), into its local transforms. A character that also has
   * a second clip ({@link Crowd.setBlendClip}) is evaluated as a `Mixer` with the two clips as
   * base layers of weights `1 − w` and `w` ({@link Crowd.blendWeights}) would evaluate it, over
   * the rest pose, bit for bit (one clip alone at 0 and at 1); a character with no first clip is
   * left alone. With `first` and `count`, only characters `first … first + count − 1`: a crowd can
   * be updated in slices (far characters every Nth frame, a slice a frame, so that the cost per
   * frame stays flat).
   *
   * @throws {@link TendonError} `animation/invalid-time` for a time (or, for a character with a
   *   second clip, a blend time) in the range that is not finite, `argument/invalid` for a blend
   *   weight outside `[0, 1]` there, a mode that is not `'loop'` or `'clamp'` or a range outside
   *   the crowd, before anything is written.
   */
  sample(mode: WrapMode = 'loop', first = 0, count: number = this.count - first): void {
    this.checkSample(mode, first, count);
    const times = this.times;
    const blendTimes = this.blendTimes;
    const weights = this.blendWeights;
    const end = first + count;
    const rest = this.skeleton;
    for (let c = first; c < end; c++) {
      const clip = this.clips[c];
      const context = this.contexts[c];
      if (clip === null || context === null) continue;
      const view = this.views[c];
      const second = this.blendClips[c];
      const secondContext = this.blendContexts[c];
      if (second === null || secondContext === null) {
        wrapTimeAt(timeScratch, 0, times, c, clip, mode);
        sampleTracksAt(clip, context.cursors, timeScratch, 0, view.t, view.r, view.s);
        continue;
      }
      const w = weights[c];
      if (w > 0 && w < 1) {
        this.blend(c, mode);
        continue;
      }
      // One clip alone, over the rest pose, as a Mixer with one weighted layer evaluates it: a
      // joint the other clip animated last frame does not keep its pose.
      view.t.set(rest.restTranslations);
      view.r.set(rest.restRotations);
      view.s.set(rest.restScales);
      if (w === 0) {
        wrapTimeAt(timeScratch, 0, times, c, clip, mode);
        sampleTracksAt(clip, context.cursors, timeScratch, 0, view.t, view.r, view.s);
      } else {
        wrapTimeAt(timeScratch, 0, blendTimes, c, second, mode);
        sampleTracksAt(second, secondContext.cursors, timeScratch, 0, view.t, view.r, view.s);
      }
    }
  }

  /**
   * Character `c`'s two clips blended into its pose by the steps `Mixer.evaluate` takes for two
   * base layers (each sampled over the rest pose, accumulated with its weight, finished over the
   * rest pose), so that the bits are a `Mixer`'s.
   */
  private blend(c: number, mode: WrapMode): void {
    const b = this.blendScratch;
    const rest = this.skeleton;
    const n = rest.jointCount;
    const view = this.views[c];
    blendClear(b.accT, b.accR, b.accS, b.accW, n);
    for (let layer = 0; layer < 2; layer++) {
      const clip = (layer === 0 ? this.clips[c] : this.blendClips[c]) as Clip;
      const context = (layer === 0 ? this.contexts[c] : this.blendContexts[c]) as SamplerContext;
      b.t.set(rest.restTranslations);
      b.r.set(rest.restRotations);
      b.s.set(rest.restScales);
      wrapTimeAt(timeScratch, 0, layer === 0 ? this.times : this.blendTimes, c, clip, mode);
      sampleTracksAt(clip, context.cursors, timeScratch, 0, b.t, b.r, b.s);
      b.weight[0] = layer === 0 ? 1 - this.blendWeights[c] : this.blendWeights[c];
      blendAccumulate(b.accT, b.accR, b.accS, b.accW, b.t, b.r, b.s, b.weight, 0, null, n);
    }
    blendFinish(
      view.t,
      view.r,
      view.s,
      b.accT,
      b.accR,
      b.accS,
      b.accW,
      rest.restTranslations,
      rest.restRotations,
      rest.restScales,
      n,
    );
  }

  /**
   * Says what is wrong with {@link Crowd.sample}'s times, weights or mode (a sum that overflowed:
   * nothing).
   */
  private refuseSample(mode: WrapMode, first: number, end: number): void {
    if (mode !== 'loop' && mode !== 'clamp') {
      throw new TendonError(
        'argument/invalid',
        `Crowd.sample: mode "${String(mode)}" is not 'loop' or 'clamp'`,
      );
    }
    for (let c = first; c < end; c++) {
      const blends = this.blendClips[c] !== null;
      for (const [what, value] of [
        ['time', this.times[c]],
        ['blend time', blends ? this.blendTimes[c] : 0],
      ] as const) {
        if (!Number.isFinite(value)) {
          throw new TendonError(
            'animation/invalid-time',
            `Crowd.sample: character ${c}'s ${what} ${value} is not finite`,
          );
        }
      }
      if (!blends) continue;
      const w = this.blendWeights[c];
      if (!(w >= 0 && w <= 1)) {
        throw new TendonError(
          'argument/invalid',
          `Crowd.sample: character ${c}'s blend weight ${w} is not in [0, 1]`,
        );
      }
    }
  }

  /**
   * The model matrices of every character (or of characters `first … first + count − 1`) from
   * their local transforms, in one pass.
   *
   * @throws {@link TendonError} `argument/invalid` for a range outside the crowd.
   */
  forwardKinematics(first = 0, count: number = this.count - first): void {
    this.checkRange(first, count, 'Crowd.forwardKinematics');
    const J = this.skeleton.jointCount;
    localToModel(
      this.model,
      this.parents,
      this.translations,
      this.rotations,
      this.scales,
      first * J,
      (first + count) * J,
    );
  }

  /**
   * Throws unless `first … first + count − 1` are characters of the crowd. (`who` whole, a literal:
   * a name put together here was a new string each call, 820 B a frame in a game's loop.)
   */
  private checkRange(first: number, count: number, who: string): void {
    checkCharacterRange(first, count, this.count, who);
  }

  /**
   * The skinning palettes of every character into `out`, `skin.joints.length` entries per character,
   * character after character: 16 floats an entry (`'mat4'`, column-major, as `skinPalette`
   * writes them) or 12 (`'3x4'`: the affine matrix's top three rows, row after row, translation
   * last in each; a quarter less to upload). Reads {@link Crowd.model}. With `first` and `count`,
   * only those characters' palettes are written (at their places in `out`).
   *
   * @throws {@link TendonError} `pose/buffer-size` when `out` does not hold the crowd's palettes,
   *   `pose/skeleton-mismatch` for a skin of another skeleton, `argument/invalid` for a skin that
   *   is not a `Skin`, an `out` that is not a Float32Array or a Float64Array (an integer array or a
   *   plain one would take the numbers truncated), an unknown layout or a range outside the crowd.
   */
  skinPalettes(
    skin: Skin,
    out: Float32Array | Float64Array,
    layout: PaletteLayout = 'mat4',
    first = 0,
    count: number = this.count - first,
  ): void {
    this.checkRange(first, count, 'Crowd.skinPalettes');
    // Checked here, each failure sent to the shared checker, which names it: its call every frame
    // allocated (the crowd bench's one-thread crowd lines read 32 B a frame, or 2 KB 16 robots at
    // a time; 10⁶ frames of 4 robots' sample, forward kinematics and palettes scavenged 4 times),
    // and so did `skin instanceof Skin` here (32 B a frame on the lines with workers). A skin is
    // told by its skeleton and its joints (an object without them goes to the checker).
    // (Its inverse bind matrices too: an object with a skeleton and joints but none was taken and
    // wrote NaN.)
    if (
      skin?.skeleton !== this.skeleton ||
      !(skin.joints instanceof Int32Array) ||
      // (By its length: an `instanceof` here allocated 32 B a frame on the batched legs' line.)
      skin.inverseBindMatrices?.length !== 16 * skin.joints.length ||
      (layout !== 'mat4' && layout !== '3x4') ||
      !(out instanceof Float32Array || out instanceof Float64Array)
    ) {
      checkPaletteArgs(this.skeleton, this.count, skin, out, layout, 'Crowd.skinPalettes');
    }
    // Its joints in the skeleton (a Skin's joints edited after it was made wrote NaN).
    const joints = skin.joints;
    const jointCount = this.skeleton.jointCount;
    for (let k = 0; k < joints.length; k++) {
      const j = joints[k];
      if (!(j >= 0 && j < jointCount)) refuseSkinJoint(k, j, jointCount);
    }
    const stride = layout === 'mat4' ? PALETTE_MAT4 : PALETTE_3X4;
    if (out.length !== stride * skin.joints.length * this.count) {
      checkPaletteArgs(this.skeleton, this.count, skin, out, layout, 'Crowd.skinPalettes');
    }
    skinPalettes(
      out,
      stride,
      this.model,
      this.skeleton.jointCount,
      skin.joints,
      skin.inverseBindMatrices,
      first,
      count,
    );
  }
}

/** Throws for a skin's joint `k` (`j`) outside a skeleton of `jointCount` joints. */
function refuseSkinJoint(k: number, j: number, jointCount: number): never {
  throw new TendonError(
    'skin/joint-out-of-range',
    `Crowd.skinPalettes: the skin's joint ${k} is ${j}, not a joint of the skeleton (0 to ${jointCount - 1})`,
  );
}
