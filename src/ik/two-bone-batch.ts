/**
 * Two-bone IK for a crowd: the same limbs of many characters of one skeleton, solved in one call.
 *
 * @packageDocumentation
 */

import { optionsArg } from '../arguments.js';
import { adoptOrCarve, constructOver, takeAdopted } from '../crowd/shared-memory.js';
import { TendonError } from '../errors.js';
import { localToModel } from '../kernel/local-to-model.js';
import { TWO_BONE, TWO_BONE_MEMORY_LENGTH } from '../kernel/two-bone.js';
import { TWO_BONE_LEG, twoBoneSolveLeg } from '../kernel/two-bone-batch.js';
import { checkCharacterRange, checkCrowdPose } from '../pose/crowd-checks.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import { BufferCarver } from '../slab.js';
import { checkOptions } from './chain.js';
import { TWO_BONE_OPTIONS, TwoBoneIk, type TwoBoneIkOptions } from './two-bone.js';

/** One limb of every character of a {@link TwoBoneBatch}: a {@link TwoBoneIkOptions} and its inputs. */
export interface TwoBoneBatchLimb extends TwoBoneIkOptions {
  /** The limb's legs read a pole from {@link TwoBoneBatch.poles}. Default `false` (no pole). */
  readonly pole?: boolean;
  /**
   * The limb's legs match the end rotation in {@link TwoBoneBatch.endRotations}. Default `false`.
   * Needs an `end` joint.
   */
  readonly endRotation?: boolean;
}

/** Options of `new TwoBoneBatch`. */
export interface TwoBoneBatchOptions {
  /**
   * Allocate the batch's arrays on one `SharedArrayBuffer` ({@link TwoBoneBatch.buffer}), so that
   * workers can view them ({@link TwoBoneBatch.fromBuffer}) and each solve a slice. Default `false`.
   */
  readonly shared?: boolean;
}

/** Lays a batch's arrays out on `buffer` (null: only counts the bytes). */
function carveBatch(buffer: ArrayBuffer | SharedArrayBuffer | null, joints: number, n: number) {
  const carve = new BufferCarver(buffer);
  const arrays = {
    settings: carve.f64(TWO_BONE.length * n),
    memory: carve.f64(TWO_BONE_MEMORY_LENGTH * n),
    targets: carve.f64(3 * n),
    poles: carve.f64(3 * n),
    endRotations: carve.f64(4 * n),
    errors: carve.f64(n),
    parents: carve.i32(joints),
    legs: carve.i32(TWO_BONE_LEG.length * n),
    status: carve.u8(n),
  };
  return { arrays, bytes: carve.offset };
}

/**
 * A crowd's pose: `characters` poses of one skeleton side by side, character `c`'s joint `j` at
 * index `c·J + j` (J the skeleton's joint count) of each array.
 */
export interface CrowdPoseBuffers {
  /** Local translations, 3 per joint. */
  readonly translations: Float64Array;
  /** Local rotations, unit quaternions `(x, y, z, w)`, 4 per joint. */
  readonly rotations: Float64Array;
  /** Local scales, 3 per joint. */
  readonly scales: Float64Array;
  /** Model matrices, 16 per joint, column-major, up to date (forward kinematics). */
  readonly model: Float64Array;
}

/**
 * Two-bone IK over the legs (or arms) of a crowd: every character's limbs solved in one call, each
 * exactly as its own {@link TwoBoneIk} would solve it (the same kernel, to the bit), without the
 * per-call object, checks and status.
 *
 * Leg `c·L + l` is limb `l` of character `c` (L limbs). Per frame, write each leg's model-space
 * target into {@link TwoBoneBatch.targets} (and pole, end rotation), then call
 * {@link TwoBoneBatch.solve} with the crowd's pose; read {@link TwoBoneBatch.status} and
 * {@link TwoBoneBatch.errors}. A leg whose numbers are not finite is flagged
 * `TWO_BONE_STATUS.invalid` (`tendon/kernel`) and left untouched, where `TwoBoneIk` would throw;
 * the other legs are solved. No allocation per solve.
 */
export class TwoBoneBatch {
  /** The skeleton every character shares. */
  readonly skeleton: Skeleton;
  /** Number of characters. */
  readonly characters: number;
  /** Limbs per character. */
  readonly limbs: number;
  /** The limbs as given to the constructor (what a worker needs to view the batch: {@link TwoBoneBatch.fromBuffer}). */
  readonly limbOptions: readonly TwoBoneBatchLimb[];
  /** Number of legs: characters × limbs. */
  readonly legCount: number;
  /** The crowd's parent indices: the skeleton's, offset per character (roots −1). */
  readonly parents: Int32Array;
  /** Joint indices per leg into the crowd's buffers, `TWO_BONE_LEG` layout (4 per leg). */
  readonly legs: Int32Array;
  /**
   * Each leg's kernel settings, an array of 34 in the `TWO_BONE` layout (`tendon/kernel`): the
   * limb's options, and the target, pole and end rotation copied in by each solve. Per-leg options
   * (weight, softness) may be changed here, at the `TWO_BONE` offsets of `settings[leg]`; a leg
   * whose weight is not in [0, 1] or softness not in [0, 1) is flagged invalid, nothing of it
   * written. One array per leg, so that a solve copies nothing but the targets.
   */
  readonly settings: readonly Float64Array[];
  /** Each leg's bend memory (4 per leg): the side it bent last, for a straight limb. */
  readonly memory: Float64Array;
  /** Model-space targets, 3 per leg: written by the caller before each solve. */
  readonly targets: Float64Array;
  /** Model-space poles, 3 per leg, read for the limbs set up with `pole: true`. */
  readonly poles: Float64Array;
  /** Model-space end rotations, 4 per leg (unit quaternions), read for limbs with `endRotation: true`. */
  readonly endRotations: Float64Array;
  /** After a solve: each leg's end-to-target distance, model units (NaN for an invalid leg). */
  readonly errors: Float64Array;
  /** After a solve: each leg's `TWO_BONE_STATUS` bits. */
  readonly status: Uint8Array;
  /**
   * The memory every array above lives on (the settings too, leg after leg): a `SharedArrayBuffer`
   * for a batch made with `shared: true` (or viewed with {@link TwoBoneBatch.fromBuffer} on one).
   */
  readonly buffer: ArrayBuffer | SharedArrayBuffer;
  private readonly usePole: Uint8Array;
  private readonly useEndRotation: Uint8Array;

  /**
   * @param skeleton - the skeleton every character shares.
   * @param limbs - the limbs of one character, each set up as a {@link TwoBoneIk} (the same options
   *   and checks); solved in this order.
   * @param characters - the number of characters.
   * @param options - `shared: true` for arrays on a `SharedArrayBuffer`.
   * @throws {@link TendonError} `ik/invalid-option` (and whatever `TwoBoneIk` throws for a limb),
   *   `argument/invalid` for options that are not an object, `crowd/no-shared-memory` for `shared: true` where memory cannot be shared.
   */
  constructor(
    skeleton: Skeleton,
    limbs: readonly TwoBoneBatchLimb[],
    characters: number,
    options: TwoBoneBatchOptions = {},
  ) {
    const view = takeAdopted();
    const shared = optionsArg(options, 'new TwoBoneBatch').shared === true;
    if (!Number.isInteger(characters) || characters < 0) {
      throw new TendonError(
        'ik/invalid-option',
        `TwoBoneBatch: characters ${characters} is not an integer ≥ 0`,
      );
    }
    const L = limbs.length;
    const J = skeleton.jointCount;
    this.skeleton = skeleton;
    this.characters = characters;
    this.limbs = L;
    this.limbOptions = Object.freeze(limbs.slice());
    this.legCount = characters * L;
    const n = this.legCount;
    const { buffer, arrays } = adoptOrCarve(view, shared, 'TwoBoneBatch', `a batch of ${n} legs`, (b) =>
      carveBatch(b, J * characters, n),
    );
    this.buffer = buffer;
    this.parents = arrays.parents;
    if (view === null) {
      for (let c = 0; c < characters; c++) {
        for (let j = 0; j < J; j++) {
          const p = skeleton.parents[j];
          this.parents[c * J + j] = p < 0 ? -1 : c * J + p;
        }
      }
    }
    this.legs = arrays.legs;
    const settings: Float64Array[] = [];
    const size = TWO_BONE.length;
    for (let i = 0; i < n; i++) settings.push(arrays.settings.subarray(size * i, size * (i + 1)));
    this.settings = settings;
    this.memory = arrays.memory;
    this.targets = arrays.targets;
    this.poles = arrays.poles;
    this.endRotations = arrays.endRotations;
    this.errors = arrays.errors;
    this.status = arrays.status;
    this.usePole = new Uint8Array(L);
    this.useEndRotation = new Uint8Array(L);
    const template = new Float64Array(TWO_BONE.length);
    limbs.forEach((limb, l) => {
      checkOptions(limb, `TwoBoneBatch: limb ${l}`, [...TWO_BONE_OPTIONS, 'pole', 'endRotation']);
      const { pole: _pole, endRotation: _endRotation, ...options } = limb;
      const ik = new TwoBoneIk(skeleton, options);
      if (limb.endRotation === true && ik.end < 0) {
        throw new TendonError('ik/invalid-option', 'TwoBoneBatch: an endRotation needs an end joint');
      }
      this.usePole[l] = limb.pole === true ? 1 : 0;
      this.useEndRotation[l] = limb.endRotation === true ? 1 : 0;
      ik.writeSettings(template, 0);
      template[TWO_BONE.hasPole] = this.usePole[l];
      template[TWO_BONE.hasEndRotation] = this.useEndRotation[l];
      for (let c = 0; c < characters && view === null; c++) {
        const leg = c * L + l;
        const o = TWO_BONE_LEG.length * leg;
        this.legs[o] = c * J + ik.root;
        this.legs[o + 1] = c * J + ik.middle;
        this.legs[o + 2] = ik.end < 0 ? -1 : c * J + ik.end;
        this.legs[o + 3] = c * J + skeleton.subtreeEnds[ik.root];
        settings[leg].set(template);
        this.endRotations[4 * leg + 3] = 1;
      }
    });
  }

  /**
   * A batch viewing the memory of another ({@link TwoBoneBatch.buffer}, of a batch of the same
   * skeleton, limbs and number of characters), such as a worker's view of a `shared: true` batch:
   * the same arrays (settings, bend memory, targets, results), nothing written. The limbs are
   * checked as the constructor checks them.
   *
   * @throws {@link TendonError} `pose/buffer-size` when the buffer is not a batch of that size (or
   *   not an `ArrayBuffer` or `SharedArrayBuffer` at all), and whatever the constructor throws for the limbs.
   */
  static fromBuffer(
    skeleton: Skeleton,
    limbs: readonly TwoBoneBatchLimb[],
    characters: number,
    buffer: ArrayBuffer | SharedArrayBuffer,
  ): TwoBoneBatch {
    return constructOver(buffer, 'TwoBoneBatch', () => new TwoBoneBatch(skeleton, limbs, characters));
  }

  /**
   * Buffers for the crowd's pose (see {@link CrowdPoseBuffers}), every character at the rest pose,
   * model matrices computed.
   */
  createPoseBuffers(): CrowdPoseBuffers {
    const sk = this.skeleton;
    const J = sk.jointCount;
    const count = J * this.characters;
    const buffers = {
      translations: new Float64Array(3 * count),
      rotations: new Float64Array(4 * count),
      scales: new Float64Array(3 * count),
      model: new Float64Array(16 * count),
    };
    for (let c = 0; c < this.characters; c++) {
      buffers.translations.set(sk.restTranslations, 3 * J * c);
      buffers.rotations.set(sk.restRotations, 4 * J * c);
      buffers.scales.set(sk.restScales, 3 * J * c);
    }
    const { model, translations, rotations, scales } = buffers;
    localToModel(model, this.parents, translations, rotations, scales, 0, count);
    return buffers;
  }

  /**
   * Solves every leg toward its target (see the class), writing the crowd's local rotations and the
   * model matrices of each limb's root subtree, {@link TwoBoneBatch.errors} and
   * {@link TwoBoneBatch.status}. With `first` and `count`, only the legs of characters
   * `first … first + count − 1` (a slice of the crowd: updated every Nth frame, or by a worker).
   *
   * @returns the number of legs flagged invalid (0 when all were solved).
   * @throws {@link TendonError} `pose/buffer-size` when a buffer is not the crowd's size,
   *   `argument/invalid` for a `pose` that is not an object or a range outside the crowd (nothing
   *   written).
   */
  solve(pose: CrowdPoseBuffers, first = 0, count: number = this.characters - first): number {
    checkCharacterRange(first, count, this.characters, 'TwoBoneBatch.solve');
    checkCrowdPose(pose, this.characters, this.skeleton.jointCount, 'TwoBoneBatch.solve');
    const t = this.targets;
    const p = this.poles;
    const e = this.endRotations;
    const L = this.limbs;
    const firstLeg = first * L;
    const legEnd = (first + count) * L;
    const { model, translations, rotations, scales } = pose;
    let invalid = 0;
    for (let leg = firstLeg, l = 0; leg < legEnd; leg++) {
      const s = this.settings[leg];
      s[TWO_BONE.target] = t[3 * leg];
      s[TWO_BONE.target + 1] = t[3 * leg + 1];
      s[TWO_BONE.target + 2] = t[3 * leg + 2];
      if (this.usePole[l] > 0) {
        s[TWO_BONE.pole] = p[3 * leg];
        s[TWO_BONE.pole + 1] = p[3 * leg + 1];
        s[TWO_BONE.pole + 2] = p[3 * leg + 2];
      }
      if (this.useEndRotation[l] > 0) {
        for (let k = 0; k < 4; k++) s[TWO_BONE.endRotation + k] = e[4 * leg + k];
      }
      l = l + 1 === L ? 0 : l + 1;
      if (
        twoBoneSolveLeg(
          model,
          this.parents,
          translations,
          rotations,
          scales,
          this.legs,
          s,
          this.memory,
          this.errors,
          this.status,
          leg,
        )
      ) {
        invalid++;
      }
    }
    return invalid;
  }
}
