/**
 * Runtime animation clips, built from raw keyframe tracks.
 *
 * @packageDocumentation
 */
import { checkArrayArg, checkObjectArg, checkSkeletonArg, checkStringArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import {
  INTERP_CUBIC,
  INTERP_LINEAR,
  INTERP_STEP,
  PATH_ROTATION,
  PATH_SCALE,
  PATH_TRANSLATION,
  type TrackTable,
} from '../kernel/keyframes.js';
import type { Skeleton } from '../skeleton/skeleton.js';

/** Which local transform component a track drives. */
export type TrackPath = 'translation' | 'rotation' | 'scale';

/** How values between keys are computed, with glTF's names and meaning. */
export type Interpolation = 'STEP' | 'LINEAR' | 'CUBICSPLINE';

/** One editable keyframe track: the input a {@link Clip} is built from. */
export interface RawTrack {
  /** The joint, by index in the skeleton or by name. */
  readonly joint: number | string;
  /** The component animated. */
  readonly path: TrackPath;
  /** `LINEAR` when omitted. */
  readonly interpolation?: Interpolation;
  /** Key times in seconds, non-decreasing, at least one. */
  readonly times: ArrayLike<number>;
  /**
   * Key values: 3 per key (4 for rotations, `(x, y, z, w)`); for `CUBICSPLINE`, three times as
   * many, `inTangent, value, outTangent` per key, as glTF stores them.
   */
  readonly values: ArrayLike<number>;
}

/** The raw data of a clip. */
export interface RawClip {
  /** A name for lookups and messages. */
  readonly name?: string;
  /** The tracks; at most one per joint and path. */
  readonly tracks: readonly RawTrack[];
  /** Length in seconds; the last key time of any track when omitted. */
  readonly duration?: number;
}

const PATH_CODES: Record<TrackPath, number> = {
  translation: PATH_TRANSLATION,
  rotation: PATH_ROTATION,
  scale: PATH_SCALE,
};
const INTERP_CODES: Record<Interpolation, number> = {
  STEP: INTERP_STEP,
  LINEAR: INTERP_LINEAR,
  CUBICSPLINE: INTERP_CUBIC,
};

/**
 * A validated, compact animation clip bound to one skeleton: every track's times and values live in
 * two `Float64Array`s, the layout the sampling kernel reads ({@link TrackTable}). Immutable; one
 * clip can drive any number of characters of its skeleton, each with its own
 * {@link SamplerContext}.
 *
 * The clip's time runs from 0 to {@link Clip.duration}. Before a track's first key it holds the
 * first value, after its last key the last value. Rotation keys of `STEP` and `LINEAR` tracks are
 * normalized on build.
 */
export class Clip implements TrackTable {
  /** The clip's name (may be empty). */
  readonly name: string;
  /** The skeleton the tracks' joint indices refer to. */
  readonly skeleton: Skeleton;
  /** Length in seconds. */
  readonly duration: number;
  /** Number of tracks. */
  readonly trackCount: number;
  /** Joint each track drives. */
  readonly targets: Int32Array;
  /** Path code per track (see `PATH_*` in the kernel). */
  readonly paths: Uint8Array;
  /** Interpolation code per track (see `INTERP_*` in the kernel). */
  readonly interpolations: Uint8Array;
  /** First key of each track in {@link Clip.times}. */
  readonly timeOffsets: Int32Array;
  /** Keys per track. */
  readonly keyCounts: Int32Array;
  /** First value of each track in {@link Clip.values}. */
  readonly valueOffsets: Int32Array;
  /** All key times. */
  readonly times: Float64Array;
  /** All key values. */
  readonly values: Float64Array;

  private constructor(name: string, skeleton: Skeleton, duration: number, table: TrackTable) {
    this.name = name;
    this.skeleton = skeleton;
    this.duration = duration;
    this.trackCount = table.trackCount;
    this.targets = table.targets;
    this.paths = table.paths;
    this.interpolations = table.interpolations;
    this.timeOffsets = table.timeOffsets;
    this.keyCounts = table.keyCounts;
    this.valueOffsets = table.valueOffsets;
    this.times = table.times;
    this.values = table.values;
  }

  /**
   * Validates raw tracks against `skeleton` and builds the runtime clip.
   *
   * @throws {@link TendonError} `clip/invalid-track` (unknown joint or path, a second track for the
   *   same joint and path, no keys), `clip/times-not-increasing`, `clip/array-size` (values do not
   *   match the key count) or `clip/not-finite`, naming the clip, joint and path.
   */
  static create(skeleton: Skeleton, raw: RawClip): Clip {
    checkSkeletonArg(skeleton, 'Clip.create');
    checkObjectArg(raw, 'Clip.create', 'the raw clip');
    const name = raw.name ?? '';
    checkStringArg(name, 'Clip.create', 'the name');
    checkArrayArg(raw.tracks, `Clip.create("${name}")`, 'tracks');
    const n = raw.tracks.length;
    const targets = new Int32Array(n);
    const paths = new Uint8Array(n);
    const interpolations = new Uint8Array(n);
    const timeOffsets = new Int32Array(n);
    const keyCounts = new Int32Array(n);
    const valueOffsets = new Int32Array(n);
    let timeTotal = 0;
    let valueTotal = 0;
    const used = new Set<number>();
    for (let i = 0; i < n; i++) {
      const track = raw.tracks[i];
      checkObjectArg(track, `Clip.create("${name}")`, `track ${i}`);
      checkArrayArg(track.times, `Clip.create("${name}")`, `track ${i}'s times`);
      checkArrayArg(track.values, `Clip.create("${name}")`, `track ${i}'s values`);
      const joint = resolveJoint(skeleton, track.joint, name, i);
      const where = `Clip "${name}", track ${i} (${skeleton.names[joint]}.${String(track.path)})`;
      const path = PATH_CODES[track.path];
      if (path === undefined) {
        throw new TendonError(
          'clip/invalid-track',
          `${where}: unknown path; use translation, rotation or scale`,
        );
      }
      const interpolation = INTERP_CODES[track.interpolation ?? 'LINEAR'];
      if (interpolation === undefined) {
        throw new TendonError(
          'clip/invalid-track',
          `${where}: unknown interpolation "${String(track.interpolation)}"; use STEP, LINEAR or CUBICSPLINE`,
        );
      }
      const key = joint * 3 + path;
      if (used.has(key))
        throw new TendonError('clip/invalid-track', `${where}: a second track for the same joint and path`);
      used.add(key);
      const count = track.times.length;
      if (count === 0)
        throw new TendonError('clip/invalid-track', `${where}: a track needs at least one key`);
      const stride = path === PATH_ROTATION ? 4 : 3;
      const width = interpolation === INTERP_CUBIC ? 3 * stride : stride;
      if (track.values.length !== count * width) {
        throw new TendonError(
          'clip/array-size',
          `${where}: ${track.values.length} values for ${count} keys; expected ${count * width}`,
        );
      }
      targets[i] = joint;
      paths[i] = path;
      interpolations[i] = interpolation;
      timeOffsets[i] = timeTotal;
      keyCounts[i] = count;
      valueOffsets[i] = valueTotal;
      timeTotal += count;
      valueTotal += count * width;
    }
    const times = new Float64Array(timeTotal);
    const values = new Float64Array(valueTotal);
    let lastKey = 0;
    for (let i = 0; i < n; i++) {
      const track = raw.tracks[i];
      const where = `Clip "${name}", track ${i} (${skeleton.names[targets[i]]}.${track.path})`;
      const count = keyCounts[i];
      for (let k = 0; k < count; k++) {
        const t = track.times[k];
        if (!Number.isFinite(t)) throw new TendonError('clip/not-finite', `${where}: key time ${k} is ${t}`);
        if (k > 0 && t < track.times[k - 1]) {
          throw new TendonError(
            'clip/times-not-increasing',
            `${where}: key ${k} at ${t} s comes before key ${k - 1} at ${track.times[k - 1]} s`,
          );
        }
        times[timeOffsets[i] + k] = t;
      }
      lastKey = Math.max(lastKey, times[timeOffsets[i] + count - 1]);
      const start = valueOffsets[i];
      const length = track.values.length;
      for (let v = 0; v < length; v++) {
        const value = track.values[v];
        if (!Number.isFinite(value))
          throw new TendonError('clip/not-finite', `${where}: value ${v} is ${value}`);
        values[start + v] = value;
      }
      if (paths[i] === PATH_ROTATION && interpolations[i] !== INTERP_CUBIC) {
        for (let v = start; v < start + length; v += 4) {
          const lenSq = values[v] ** 2 + values[v + 1] ** 2 + values[v + 2] ** 2 + values[v + 3] ** 2;
          if (lenSq === 0)
            throw new TendonError('clip/not-finite', `${where}: key ${(v - start) / 4} is a zero quaternion`);
          const inv = 1 / Math.sqrt(lenSq);
          for (let c = 0; c < 4; c++) values[v + c] *= inv;
        }
      }
    }
    const duration = raw.duration ?? lastKey;
    if (!Number.isFinite(duration) || duration < 0) {
      throw new TendonError(
        'clip/not-finite',
        `Clip "${name}": duration ${duration} is not a finite number ≥ 0`,
      );
    }
    return new Clip(name, skeleton, duration, {
      trackCount: n,
      targets,
      paths,
      interpolations,
      timeOffsets,
      keyCounts,
      valueOffsets,
      times,
      values,
    });
  }

  /**
   * The clip rebuilt from its runtime table (a {@link TrackTable}, such as a clip's own fields sent
   * to a worker by `postMessage`), keeping every number's bits: unlike {@link Clip.create}, no
   * rotation is normalized again. The arrays are used as given (not copied).
   *
   * @throws {@link TendonError} `clip/array-size` when the table's arrays do not hold its tracks,
   *   `clip/invalid-track` for a joint, path or interpolation out of range, `clip/not-finite` for a
   *   duration that is not a finite number ≥ 0.
   */
  static fromTable(skeleton: Skeleton, name: string, duration: number, table: TrackTable): Clip {
    checkSkeletonArg(skeleton, 'Clip.fromTable');
    checkObjectArg(table, 'Clip.fromTable', 'the table');
    const n = table.trackCount;
    const sized =
      Number.isInteger(n) &&
      n >= 0 &&
      table.targets instanceof Int32Array &&
      table.paths instanceof Uint8Array &&
      table.interpolations instanceof Uint8Array &&
      table.timeOffsets instanceof Int32Array &&
      table.keyCounts instanceof Int32Array &&
      table.valueOffsets instanceof Int32Array &&
      table.times instanceof Float64Array &&
      table.values instanceof Float64Array &&
      [
        table.targets,
        table.paths,
        table.interpolations,
        table.timeOffsets,
        table.keyCounts,
        table.valueOffsets,
      ].every((a) => a.length === n);
    if (!sized)
      throw new TendonError(
        'clip/array-size',
        `Clip.fromTable("${name}"): the table's arrays do not hold ${n} tracks`,
      );
    for (let i = 0; i < n; i++) {
      const stride = table.paths[i] === PATH_ROTATION ? 4 : 3;
      const width = table.interpolations[i] === INTERP_CUBIC ? 3 * stride : stride;
      const keys = table.keyCounts[i];
      if (
        table.targets[i] < 0 ||
        table.targets[i] >= skeleton.jointCount ||
        table.paths[i] > PATH_SCALE ||
        table.interpolations[i] > INTERP_CUBIC ||
        keys < 1
      ) {
        throw new TendonError('clip/invalid-track', `Clip.fromTable("${name}"): track ${i} is out of range`);
      }
      if (
        table.timeOffsets[i] < 0 ||
        table.timeOffsets[i] + keys > table.times.length ||
        table.valueOffsets[i] < 0 ||
        table.valueOffsets[i] + keys * width > table.values.length
      ) {
        throw new TendonError(
          'clip/array-size',
          `Clip.fromTable("${name}"): track ${i}'s keys are outside the arrays`,
        );
      }
    }
    if (!Number.isFinite(duration) || duration < 0) {
      throw new TendonError(
        'clip/not-finite',
        `Clip.fromTable("${name}"): duration ${duration} is not a finite number ≥ 0`,
      );
    }
    return new Clip(name, skeleton, duration, table);
  }

  /**
   * The clip's tracks as raw data (copies), e.g. to edit and rebuild, or to export.
   */
  toRaw(): RawClip {
    const pathNames: TrackPath[] = ['translation', 'rotation', 'scale'];
    const interpNames: Interpolation[] = ['STEP', 'LINEAR', 'CUBICSPLINE'];
    const tracks: RawTrack[] = [];
    for (let i = 0; i < this.trackCount; i++) {
      const stride = this.paths[i] === PATH_ROTATION ? 4 : 3;
      const width = this.interpolations[i] === INTERP_CUBIC ? 3 * stride : stride;
      const count = this.keyCounts[i];
      tracks.push({
        joint: this.targets[i],
        path: pathNames[this.paths[i]],
        interpolation: interpNames[this.interpolations[i]],
        times: this.times.slice(this.timeOffsets[i], this.timeOffsets[i] + count),
        values: this.values.slice(this.valueOffsets[i], this.valueOffsets[i] + count * width),
      });
    }
    return { name: this.name, tracks, duration: this.duration };
  }
}

function resolveJoint(skeleton: Skeleton, joint: number | string, clip: string, track: number): number {
  if (typeof joint === 'string') {
    const index = skeleton.indexOf(joint);
    if (index < 0) {
      throw new TendonError(
        'clip/invalid-track',
        `Clip "${clip}", track ${track}: the skeleton has no joint "${joint}"`,
      );
    }
    return index;
  }
  if (!Number.isInteger(joint) || joint < 0 || joint >= skeleton.jointCount) {
    throw new TendonError(
      'clip/invalid-track',
      `Clip "${clip}", track ${track}: joint ${joint} is not in 0..${skeleton.jointCount - 1}`,
    );
  }
  return joint;
}
