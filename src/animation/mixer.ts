/**
 * The animation mixer: several clips, weighted, masked and layered, evaluated into one pose.
 *
 * @packageDocumentation
 */
import { checkClipArg, checkObjectArg, checkPoseArg, checkSkeletonArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import { additiveApply, blendAccumulate, blendClear, blendFinish } from '../kernel/blend.js';
import { sampleTracksAt } from '../kernel/keyframes.js';
import { Pose } from '../pose/pose.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import type { Clip } from './clip.js';
import { SamplerContext, type WrapMode, wrapTimeAt } from './sampler.js';

/** 2^100 and 2^-100 (written out: exact, and no `**` at load), the base weights' scale steps. */
const TWO_100 = 1.2676506002282294e30;
const TWO_MINUS_100 = 7.888609052210118e-31;

/** Options of {@link Mixer.addLayer}. */
export interface MixerLayerOptions {
  /** The clip this layer plays (for `additive`, a clip from {@link makeAdditiveClip}). */
  readonly clip: Clip;
  /** Blend weight, ≥ 0. Default 1. */
  readonly weight?: number;
  /**
   * Per-joint weights in `[0, 1]` (see {@link createJointMask}); `null` for the whole body. Default
   * `null`.
   */
  readonly mask?: Float32Array | null;
  /** Wrap mode, `'loop'` or `'clamp'`. Default `'loop'`. */
  readonly mode?: WrapMode;
  /** Add on top of the blended base layers instead of blending with them. Default `false`. */
  readonly additive?: boolean;
  /** Start time in seconds. Default 0. */
  readonly time?: number;
  /** Playback rate for {@link Mixer.advance}. Default 1. */
  readonly speed?: number;
}

/** One clip playing in a {@link Mixer}. Its fields may be changed between frames. */
export class MixerLayer {
  /** The clip. */
  readonly clip: Clip;
  /** This layer's sampling cursors. */
  readonly context: SamplerContext;
  /** Whether the layer adds to the base pose rather than blending into it. */
  readonly additive: boolean;
  /** Per-joint weights in `[0, 1]`, or `null` (checked at every evaluate). */
  mask: Float32Array | null;
  /** Wrap mode, `'loop'` or `'clamp'` (checked at every evaluate). */
  mode: WrapMode;
  // time, weight, speed: a number field that changes every frame can lose V8's in-place double
  // representation and then allocate on every store; array elements never do.
  private readonly numbers = new Float64Array(3);

  /** Current time in seconds (unwrapped: wrapping happens at sampling). */
  get time(): number {
    return this.numbers[0];
  }
  /** Sets the layer time, seconds. */
  set time(seconds: number) {
    this.numbers[0] = seconds;
  }
  /** Blend weight, ≥ 0 (for base layers, weights are normalized per joint). */
  get weight(): number {
    return this.numbers[1];
  }
  /** Sets the blend weight (checked at the next evaluate). */
  set weight(weight: number) {
    this.numbers[1] = weight;
  }
  /** Playback rate used by {@link Mixer.advance}. */
  get speed(): number {
    return this.numbers[2];
  }
  /** Sets the playback rate. */
  set speed(rate: number) {
    this.numbers[2] = rate;
  }

  /** @internal Built by {@link Mixer.addLayer}. */
  constructor(options: MixerLayerOptions) {
    checkObjectArg(options, 'Mixer.addLayer', 'options');
    checkClipArg(options.clip, 'Mixer.addLayer', 'options.clip');
    this.clip = options.clip;
    this.context = new SamplerContext(options.clip);
    this.additive = options.additive ?? false;
    this.weight = options.weight ?? 1;
    this.mask = options.mask ?? null;
    this.mode = options.mode ?? 'loop';
    this.time = options.time ?? 0;
    this.speed = options.speed ?? 1;
  }
}

/**
 * Plays any number of clips on one skeleton and evaluates them into a pose, allocation-free:
 *
 * 1. Base layers (not additive) with weight > 0 are sampled and blended, each joint normalized by
 *    the sum of the weights that reach it (`weight · mask[j]`); a joint no layer reaches keeps its
 *    rest pose. A single full-body layer is sampled straight into the output.
 * 2. Additive layers are then applied in order on top: `q ← q · Δq^w`, `t += w Δt`, `s ·= Δs^w`
 *    (linearized), each with its weight and mask.
 *
 * One mixer per character; clips are shared between mixers.
 */
export class Mixer {
  /** The skeleton every layer's clip must belong to. */
  readonly skeleton: Skeleton;
  /** The layers, in evaluation order. */
  readonly layers: MixerLayer[] = [];
  private readonly scratch: Pose;
  private readonly accT: Float64Array;
  private readonly accR: Float64Array;
  private readonly accS: Float64Array;
  private readonly accW: Float64Array;
  // The layer weight travels to the blend kernels in an array: a number would be boxed.
  private readonly weight = new Float64Array(1);

  /** A mixer with no layers (evaluates to the rest pose). */
  constructor(skeleton: Skeleton) {
    checkSkeletonArg(skeleton, 'new Mixer');
    this.skeleton = skeleton;
    this.scratch = new Pose(skeleton);
    const n = skeleton.jointCount;
    this.accT = new Float64Array(3 * n);
    this.accR = new Float64Array(4 * n);
    this.accS = new Float64Array(3 * n);
    this.accW = new Float64Array(n);
  }

  /**
   * Adds a layer and returns it (change its `weight`, `time`, `mask` later as needed).
   *
   * @throws {@link TendonError} `mixer/invalid-layer` for a clip of another skeleton, a negative or
   *   non-finite weight, speed or time, a wrap mode other than `'loop'` or `'clamp'`, or a mask of
   *   the wrong length or with an entry that is not a number in `[0, 1]`.
   */
  addLayer(options: MixerLayerOptions): MixerLayer {
    const layer = new MixerLayer(options);
    this.validate(layer);
    this.layers.push(layer);
    return layer;
  }

  /** Removes a layer; returns whether it was there. */
  removeLayer(layer: MixerLayer): boolean {
    const i = this.layers.indexOf(layer);
    if (i < 0) return false;
    this.layers.splice(i, 1);
    return true;
  }

  /**
   * Moves every layer's time forward by `deltaSeconds · speed`.
   *
   * @throws {@link TendonError} `animation/invalid-time` for a non-finite step.
   */
  advance(deltaSeconds: number): void {
    if (!Number.isFinite(deltaSeconds)) {
      throw new TendonError('animation/invalid-time', `Mixer.advance: step ${deltaSeconds} is not finite`);
    }
    const layers = this.layers;
    for (let i = 0; i < layers.length; i++) layers[i].time += deltaSeconds * layers[i].speed;
  }

  /**
   * Evaluates all layers at their current times into `out`.
   *
   * @throws {@link TendonError} `mixer/invalid-layer` when a layer was given an invalid weight,
   *   time, speed, wrap mode or mask (wrong length, or an entry that is not a number in `[0, 1]`)
   *   since it was added, `clip/skeleton-mismatch` for a pose of another skeleton.
   *   `out` is untouched when it throws.
   */
  evaluate(out: Pose): void {
    checkPoseArg(out, 'Mixer.evaluate');
    if (out.skeleton !== this.skeleton) {
      throw new TendonError(
        'clip/skeleton-mismatch',
        'Mixer.evaluate: the output pose belongs to another skeleton',
      );
    }
    let base = 0;
    let single: MixerLayer | null = null;
    let most = 0;
    // Indexed loops: a for-of iterator is not always optimized away, and this runs every frame.
    const layers = this.layers;
    for (let i = 0; i < layers.length; i++) {
      const layer = layers[i];
      this.validate(layer);
      if (!layer.additive && layer.weight > 0) {
        base++;
        single = layer;
        if (layer.weight > most) most = layer.weight;
      }
    }
    // The base weights brought near 1 by a power of two, which changes no bit of the blend (every
    // product and sum scales exactly) but keeps it inside the doubles: weights of 1e155 summed
    // their rotations past them (a zero quaternion), 1e308 to NaN, and 5e-324 under them (the rest
    // pose). Weights from 2^-100 to 2^100 are taken as they are.
    let scale = 1;
    while (most > TWO_100) {
      most *= TWO_MINUS_100;
      scale *= TWO_MINUS_100;
    }
    while (most > 0 && most < TWO_MINUS_100) {
      most *= TWO_100;
      scale *= TWO_100;
    }
    const n = this.skeleton.jointCount;
    if (base === 0) {
      out.resetToRest();
    } else if (base === 1 && single!.mask === null) {
      out.resetToRest();
      sample(single!, out);
    } else {
      blendClear(this.accT, this.accR, this.accS, this.accW, n);
      for (let i = 0; i < layers.length; i++) {
        const layer = layers[i];
        if (layer.additive || layer.weight <= 0) continue;
        this.scratch.resetToRest();
        sample(layer, this.scratch);
        const s = this.scratch;
        this.weight[0] = layer.weight * scale;
        blendAccumulate(
          this.accT,
          this.accR,
          this.accS,
          this.accW,
          s.translations,
          s.rotations,
          s.scales,
          this.weight,
          0,
          layer.mask,
          n,
        );
      }
      const rest = this.skeleton;
      blendFinish(
        out.translations,
        out.rotations,
        out.scales,
        this.accT,
        this.accR,
        this.accS,
        this.accW,
        rest.restTranslations,
        rest.restRotations,
        rest.restScales,
        n,
      );
    }
    for (let i = 0; i < layers.length; i++) {
      const layer = layers[i];
      if (!layer.additive || layer.weight === 0) continue;
      const d = this.scratch;
      d.translations.fill(0);
      d.scales.fill(1);
      for (let j = 0; j < n; j++) {
        d.rotations[4 * j] = 0;
        d.rotations[4 * j + 1] = 0;
        d.rotations[4 * j + 2] = 0;
        d.rotations[4 * j + 3] = 1;
      }
      sample(layer, d);
      this.weight[0] = layer.weight;
      additiveApply(
        out.translations,
        out.rotations,
        out.scales,
        d.translations,
        d.rotations,
        d.scales,
        this.weight,
        0,
        layer.mask,
        n,
      );
    }
  }

  private validate(layer: MixerLayer): void {
    // Runs every frame: messages are built only on failure (a template string allocates).
    if (layer.clip.skeleton !== this.skeleton) fail(layer, 'the clip belongs to another skeleton');
    if (!(layer.weight >= 0) || !Number.isFinite(layer.weight)) {
      fail(layer, `weight ${layer.weight} is not a finite number ≥ 0`);
    }
    if (!Number.isFinite(layer.time) || !Number.isFinite(layer.speed)) {
      fail(layer, `time ${layer.time} or speed ${layer.speed} is not finite`);
    }
    if (layer.mode !== 'loop' && layer.mode !== 'clamp') {
      // Anything else would quietly loop (wrapTimeAt's fallback) instead of doing what was meant.
      fail(layer, `wrap mode ${String(layer.mode)} is not 'loop' or 'clamp'`);
    }
    const mask = layer.mask;
    if (mask !== null) {
      const n = this.skeleton.jointCount;
      // typeof: `layer.mask = undefined` would otherwise be a TypeError at `.length`.
      if (typeof mask !== 'object' || mask.length !== n) {
        fail(layer, `the mask has ${String(mask?.length)} entries for ${n} joints`);
      }
      // The field is public and writable, so createJointMask's check proves nothing here: one NaN
      // or infinite entry poisons the normalized blend (or turns an additive delta to identity).
      for (let j = 0; j < n; j++) {
        const m = mask[j];
        if (typeof m !== 'number' || !(m >= 0 && m <= 1)) failMask(layer, this.skeleton, j, m);
      }
    }
  }
}

function fail(layer: MixerLayer, what: string): never {
  throw new TendonError('mixer/invalid-layer', `Mixer layer "${layer.clip.name}": ${what}`);
}

function failMask(layer: MixerLayer, skeleton: Skeleton, j: number, value: unknown): never {
  fail(layer, `mask[${j}] (joint "${skeleton.names[j]}") is ${String(value)}, not a number in [0, 1]`);
}

// The wrapped time travels to the sampling kernel in an array: a number would be boxed.
const timeScratch = new Float64Array(1);

function sample(layer: MixerLayer, pose: Pose): void {
  const clip = layer.clip;
  timeScratch[0] = layer.time;
  wrapTimeAt(timeScratch, 0, timeScratch, 0, clip, layer.mode);
  sampleTracksAt(clip, layer.context.cursors, timeScratch, 0, pose.translations, pose.rotations, pose.scales);
}
