/**
 * Keyframe search and interpolation over flat track tables: the inner loop of clip sampling.
 *
 * @packageDocumentation
 */
import { slerpFrom } from './quat.js';

// Holds the time for sampleTracks() and the interpolation factor for slerpFrom(): numbers travel
// to non-inlined calls in arrays, never as arguments that V8 would box.
const scratch = new Float64Array(2);

/** Track path: the local translation of a joint (3 values per key). */
export const PATH_TRANSLATION = 0;
/** Track path: the local rotation of a joint (4 values per key, a quaternion). */
export const PATH_ROTATION = 1;
/** Track path: the local scale of a joint (3 values per key). */
export const PATH_SCALE = 2;

/** Interpolation: hold each key's value until the next key (glTF `STEP`). */
export const INTERP_STEP = 0;
/** Interpolation: linear for vectors, shortest-path slerp for rotations (glTF `LINEAR`). */
export const INTERP_LINEAR = 1;
/** Interpolation: cubic Hermite with per-key in/out tangents (glTF `CUBICSPLINE`). */
export const INTERP_CUBIC = 2;

/**
 * Keyframe tracks laid out flat, one entry per track in each per-track array. A track's keys are
 * `times[timeOffsets[i] … + keyCounts[i]]`, strictly increasing; its values start at
 * `values[valueOffsets[i]]`, `stride` numbers per key (3, or 4 for rotations), three times that for
 * cubic tracks, whose keys store `inTangent, value, outTangent` as glTF does.
 */
export interface TrackTable {
  /** Number of tracks. */
  readonly trackCount: number;
  /** Joint each track drives. */
  readonly targets: Int32Array;
  /** {@link PATH_TRANSLATION}, {@link PATH_ROTATION} or {@link PATH_SCALE} per track. */
  readonly paths: Uint8Array;
  /** {@link INTERP_STEP}, {@link INTERP_LINEAR} or {@link INTERP_CUBIC} per track. */
  readonly interpolations: Uint8Array;
  /** First key time of each track in {@link TrackTable.times}. */
  readonly timeOffsets: Int32Array;
  /** Number of keys of each track (at least 1). */
  readonly keyCounts: Int32Array;
  /** First value of each track in {@link TrackTable.values}. */
  readonly valueOffsets: Int32Array;
  /** Key times in seconds, all tracks back to back. */
  readonly times: Float64Array;
  /** Key values, all tracks back to back. */
  readonly values: Float64Array;
}

/**
 * Index `k` of the key interval holding time `t` in `times[base … base + count)`, such that
 * `times[base + k] ≤ t < times[base + k + 1]`, clamped to `[0, count − 2]` (0 when `count < 2`).
 *
 * Starts from `hint` (the interval found last frame) and walks up to four keys either way before
 * falling back to a binary search: forward playback costs O(1), a jump O(log n).
 */
export function findKey(times: Float64Array, base: number, count: number, t: number, hint: number): number {
  const last = count - 2;
  if (last <= 0) return 0;
  let k = hint < 0 ? 0 : hint > last ? last : hint;
  if (times[base + k] <= t) {
    for (let step = 0; step < 4; step++) {
      if (k >= last || t < times[base + k + 1]) return k;
      k++;
    }
    if (k >= last || t < times[base + k + 1]) return k;
    let lo = k;
    let hi = last;
    // Invariant: times[lo] <= t; answer in [lo, hi].
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (times[base + mid] <= t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
  for (let step = 0; step < 4; step++) {
    if (k <= 0) return 0;
    k--;
    if (times[base + k] <= t) return k;
  }
  let lo = 0;
  let hi = k;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[base + mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Samples every track of `table` at time `t` (seconds, already wrapped or clamped by the caller)
 * into the pose arrays: {@link sampleTracksAt} with the time passed as a number, for callers
 * outside hot loops.
 */
export function sampleTracks(
  table: TrackTable,
  cursors: Int32Array,
  t: number,
  translations: Float64Array,
  rotations: Float64Array,
  scales: Float64Array,
): void {
  scratch[0] = t;
  sampleTracksAt(table, cursors, scratch, 0, translations, rotations, scales);
}

/**
 * Samples every track of `table` at the time `time[timeOffset]` (seconds, already wrapped or
 * clamped by the caller) into the pose arrays. Before the first key a track holds its first value,
 * after its last key its last value. `cursors` (one per track) carries each track's last key
 * interval from call to call; it is read as a hint and updated, never trusted for correctness.
 * Channels without a track are not written. Rotations are renormalized. The time travels in an
 * array because V8 boxes a double passed to a call it does not inline: this allocates nothing.
 */
export function sampleTracksAt(
  table: TrackTable,
  cursors: Int32Array,
  time: Float64Array,
  timeOffset: number,
  translations: Float64Array,
  rotations: Float64Array,
  scales: Float64Array,
): void {
  const t = time[timeOffset];
  const times = table.times;
  const values = table.values;
  const n = table.trackCount;
  for (let i = 0; i < n; i++) {
    const path = table.paths[i];
    const stride = path === PATH_ROTATION ? 4 : 3;
    const out = path === PATH_ROTATION ? rotations : path === PATH_TRANSLATION ? translations : scales;
    const o = table.targets[i] * stride;
    const base = table.timeOffsets[i];
    const count = table.keyCounts[i];
    const k = findKey(times, base, count, t, cursors[i]);
    cursors[i] = k;
    const interp = table.interpolations[i];
    const keyWidth = interp === INTERP_CUBIC ? stride * 3 : stride;
    const valueCenter = interp === INTERP_CUBIC ? stride : 0;
    const v0 = table.valueOffsets[i] + k * keyWidth + valueCenter;
    if (count < 2) {
      copyValue(out, o, values, v0, stride);
      continue;
    }
    const t0 = times[base + k];
    const t1 = times[base + k + 1];
    const v1 = v0 + keyWidth;
    // At or past the later key first: at a time two keys share (a jump), the later one holds, at
    // the end too (the earlier was taken there, so a clip ending on a jump never reached its last
    // value).
    if (t >= t1) {
      copyValue(out, o, values, v1, stride);
      continue;
    }
    if (t <= t0 || interp === INTERP_STEP) {
      copyValue(out, o, values, v0, stride);
      continue;
    }
    const dt = t1 - t0;
    const u = (t - t0) / dt;
    if (interp === INTERP_LINEAR) {
      if (stride === 4) {
        scratch[1] = u;
        slerpFrom(out, o, values, v0, values, v1, scratch, 1);
      } else {
        out[o] = values[v0] + (values[v1] - values[v0]) * u;
        out[o + 1] = values[v0 + 1] + (values[v1 + 1] - values[v0 + 1]) * u;
        out[o + 2] = values[v0 + 2] + (values[v1 + 2] - values[v0 + 2]) * u;
      }
      continue;
    }
    // glTF cubic Hermite: p = h00 p0 + h10 dt b0 + h01 p1 + h11 dt a1, with b0 the out-tangent of
    // key k (just after its value) and a1 the in-tangent of key k + 1 (just before its value).
    const u2 = u * u;
    const u3 = u2 * u;
    const h00 = 2 * u3 - 3 * u2 + 1;
    const h10 = (u3 - 2 * u2 + u) * dt;
    const h01 = -2 * u3 + 3 * u2;
    const h11 = (u3 - u2) * dt;
    const b0 = v0 + stride;
    const a1 = v1 - stride;
    for (let c = 0; c < stride; c++) {
      out[o + c] = h00 * values[v0 + c] + h10 * values[b0 + c] + h01 * values[v1 + c] + h11 * values[a1 + c];
    }
    if (stride === 4) {
      const x = out[o];
      const y = out[o + 1];
      const z = out[o + 2];
      const w = out[o + 3];
      const lenSq = x * x + y * y + z * z + w * w;
      if (lenSq > 0) {
        const inv = 1 / Math.sqrt(lenSq);
        out[o] = x * inv;
        out[o + 1] = y * inv;
        out[o + 2] = z * inv;
        out[o + 3] = w * inv;
      } else {
        copyValue(out, o, values, v0, 4);
      }
    }
  }
}

function copyValue(out: Float64Array, o: number, values: Float64Array, v: number, stride: number): void {
  out[o] = values[v];
  out[o + 1] = values[v + 1];
  out[o + 2] = values[v + 2];
  if (stride === 4) out[o + 3] = values[v + 3];
}
