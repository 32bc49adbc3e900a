/**
 * findKey against a brute-force search; sampleTracks (STEP, LINEAR, CUBICSPLINE) against
 * hand-written references: lerp, acos/sin slerp and the glTF spec's cubic Hermite formula.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findKey,
  INTERP_CUBIC,
  INTERP_LINEAR,
  INTERP_STEP,
  PATH_ROTATION,
  PATH_SCALE,
  PATH_TRANSLATION,
  sampleTracks,
  sampleTracksAt,
  type TrackTable,
} from '../../src/kernel/keyframes.js';
import {
  type Arr,
  expectClose,
  expectIdentical,
  expectRelClose,
  normalize4,
  RUNS,
  randInt,
  randomQuat,
  randomVec3,
  rng,
  uniform,
} from './helpers.js';

/** Largest k in [0, count − 2] with times[base + k] ≤ t; 0 if none (or count < 2). */
function bruteKey(times: Arr, base: number, count: number, t: number): number {
  let k = 0;
  for (let i = 0; i <= count - 2; i++) if (times[base + i] <= t) k = i;
  return k;
}

describe('findKey', () => {
  const arbTimes = fc
    .tuple(
      fc.double({ min: -10, max: 10, noNaN: true }),
      fc.array(fc.double({ min: 1e-3, max: 2, noNaN: true }), { minLength: 0, maxLength: 60 }),
    )
    .map(([start, gaps]) => {
      const times = [start];
      for (const g of gaps) {
        const next = times[times.length - 1] + g;
        if (next > times[times.length - 1]) times.push(next);
      }
      return times;
    });

  it('matches brute force for random times, hints (also out of range) and query times', () => {
    fc.assert(
      fc.property(
        arbTimes,
        fc.nat({ max: 5 }),
        fc.integer({ min: -10, max: 80 }),
        fc.integer({ min: 0, max: 5 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.nat(),
        (keys, pad, hint, mode, frac, pick) => {
          const n = keys.length;
          // keys inside a bigger array, with garbage (unsorted) around them
          const times = new Float64Array(pad + n + 3);
          times.fill(-1e9, 0, pad);
          times.set(keys, pad);
          times.fill(1e9, pad + n);
          const first = keys[0];
          const last = keys[n - 1];
          const t = [
            first - 1 - frac * 10, // before the first key
            last + frac * 10, // on or after the last key
            keys[pick % n], // exactly on a key
            first + (last - first) * frac, // anywhere inside
            keys[pick % n] + (keys[Math.min(n - 1, (pick % n) + 1)] - keys[pick % n]) * frac, // within a key interval
            keys[pick % n] - Number.EPSILON * Math.abs(keys[pick % n]) * 4, // just below a key
          ][mode];
          const k = findKey(times, pad, n, t, hint);
          expect(k).toBe(bruteKey(times, pad, n, t));
        },
      ),
      RUNS,
    );
  });

  it('gives the same answer from every hint, at every key time, for sequential playback', () => {
    const r = rng(8);
    for (let trial = 0; trial < 25; trial++) {
      const n = randInt(r, 1, 30);
      const times = new Float64Array(n);
      let t = uniform(r, -5, 5);
      for (let i = 0; i < n; i++) {
        times[i] = t;
        t += uniform(r, 0.01, 1);
      }
      const queries = [
        times[0] - 1,
        ...times,
        times[n - 1] + 1,
        ...Array.from({ length: 20 }, () => uniform(r, -6, 40)),
      ];
      const wrong: string[] = [];
      for (const q of queries) {
        const want = bruteKey(times, 0, n, q);
        for (let hint = -3; hint <= n + 3; hint++) {
          const got = findKey(times, 0, n, q, hint);
          if (got !== want) wrong.push(`t=${q} hint=${hint}: ${got} (want ${want})`);
        }
      }
      expect(wrong).toEqual([]);
      // forward playback, the hint being last frame's answer
      let hint = 0;
      for (let q = times[0] - 0.5; q < times[n - 1] + 0.5; q += 0.013) {
        hint = findKey(times, 0, n, q, hint);
        expect(hint).toBe(bruteKey(times, 0, n, q));
      }
      // backward playback
      for (let q = times[n - 1] + 0.5; q > times[0] - 0.5; q -= 0.017) {
        hint = findKey(times, 0, n, q, hint);
        expect(hint).toBe(bruteKey(times, 0, n, q));
      }
    }
  });

  it('returns 0 for one- and two-key tracks', () => {
    const times = new Float64Array([5, 1, 2, 9]);
    for (const t of [-1, 1, 1.5, 2, 3]) {
      expect(findKey(times, 1, 1, t, 7)).toBe(0);
      expect(findKey(times, 1, 2, t, -3)).toBe(0);
    }
  });
});

// ─── sampleTracks ────────────────────────────────────────────────────────────────────────────────

interface Track {
  target: number;
  path: number;
  interp: number;
  times: number[];
  /** per key: `stride` values, or `3·stride` ([in-tangent, value, out-tangent]) for cubic */
  values: number[];
}

/** Packs tracks into a TrackTable, with garbage between tracks so that offsets matter. */
function table(tracks: Track[]): TrackTable {
  const times: number[] = [];
  const values: number[] = [];
  const timeOffsets: number[] = [];
  const valueOffsets: number[] = [];
  for (const tr of tracks) {
    times.push(-777, 888);
    values.push(Number.NaN, 1e6);
    timeOffsets.push(times.length);
    valueOffsets.push(values.length);
    times.push(...tr.times);
    values.push(...tr.values);
  }
  times.push(-999);
  values.push(Number.NaN);
  return {
    trackCount: tracks.length,
    targets: Int32Array.from(tracks, (t) => t.target),
    paths: Uint8Array.from(tracks, (t) => t.path),
    interpolations: Uint8Array.from(tracks, (t) => t.interp),
    timeOffsets: Int32Array.from(timeOffsets),
    keyCounts: Int32Array.from(tracks, (t) => t.times.length),
    valueOffsets: Int32Array.from(valueOffsets),
    times: Float64Array.from(times),
    values: Float64Array.from(values),
  };
}

function randomTimes(r: () => number, n: number): number[] {
  const times: number[] = [];
  let t = uniform(r, -1, 1);
  for (let i = 0; i < n; i++) {
    times.push(t);
    t += uniform(r, 0.05, 0.7);
  }
  return times;
}

function randomTrack(r: () => number, target: number, path: number, interp: number, n: number): Track {
  const stride = path === PATH_ROTATION ? 4 : 3;
  const value = (): number[] => (stride === 4 ? randomQuat(r) : randomVec3(r, 3));
  const tangent = (): number[] => Array.from({ length: stride }, () => uniform(r, -2, 2));
  const values: number[] = [];
  for (let i = 0; i < n; i++) {
    if (interp === INTERP_CUBIC) values.push(...tangent(), ...value(), ...tangent());
    else values.push(...value());
  }
  return { target, path, interp, times: randomTimes(r, n), values };
}

/** Value `c` of key `i` (the middle third for cubic). */
function keyValue(tr: Track, i: number): number[] {
  const stride = tr.path === PATH_ROTATION ? 4 : 3;
  const w = tr.interp === INTERP_CUBIC ? 3 * stride : stride;
  const o = i * w + (tr.interp === INTERP_CUBIC ? stride : 0);
  return tr.values.slice(o, o + stride);
}

function dot4(a: Arr, b: Arr): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

function refSlerp(a: Arr, b: Arr, u: number): number[] {
  let d = dot4(a, b);
  let s = 1;
  if (d < 0) {
    d = -d;
    s = -1;
  }
  const th = Math.acos(Math.min(1, d));
  const w0 = th > 0 ? Math.sin((1 - u) * th) / Math.sin(th) : 1 - u;
  const w1 = (th > 0 ? Math.sin(u * th) / Math.sin(th) : u) * s;
  return [0, 1, 2, 3].map((c) => w0 * a[c] + w1 * b[c]);
}

/** The glTF 2.0 spec's CUBICSPLINE formula; keys are [a (in-tangent), p (value), b (out-tangent)]. */
function gltfHermite(tr: Track, k: number, u: number, dt: number): number[] {
  const stride = tr.path === PATH_ROTATION ? 4 : 3;
  const key = (i: number, part: 0 | 1 | 2) =>
    tr.values.slice((3 * i + part) * stride, (3 * i + part + 1) * stride);
  const p0 = key(k, 1);
  const b0 = key(k, 2);
  const p1 = key(k + 1, 1);
  const a1 = key(k + 1, 0);
  const t2 = u * u;
  const t3 = t2 * u;
  const res = p0.map(
    (_, c) =>
      (2 * t3 - 3 * t2 + 1) * p0[c] +
      (t3 - 2 * t2 + u) * dt * b0[c] +
      (-2 * t3 + 3 * t2) * p1[c] +
      (t3 - t2) * dt * a1[c],
  );
  return stride === 4 ? normalize4(res) : res;
}

/** What a track should produce at time `t`, from its semantics alone. */
function expectedSample(tr: Track, t: number): number[] {
  const n = tr.times.length;
  if (n === 1 || t <= tr.times[0]) return keyValue(tr, 0);
  if (t >= tr.times[n - 1]) return keyValue(tr, n - 1);
  let k = 0;
  while (tr.times[k + 1] <= t) k++;
  if (tr.interp === INTERP_STEP) return keyValue(tr, k);
  const t0 = tr.times[k];
  const t1 = tr.times[k + 1];
  const u = (t - t0) / (t1 - t0);
  if (tr.interp === INTERP_CUBIC) return gltfHermite(tr, k, u, t1 - t0);
  const a = keyValue(tr, k);
  const b = keyValue(tr, k + 1);
  if (tr.path === PATH_ROTATION) return refSlerp(a, b, u);
  return a.map((x, c) => x + (b[c] - x) * u);
}

interface Rig {
  tracks: Track[];
  table: TrackTable;
  joints: number;
}

/** Random clip: every path × interpolation, a few joints, tracks in shuffled order, some channels left out. */
function randomRig(r: () => number, maxKeys = 12): Rig {
  const joints = 6;
  const tracks: Track[] = [];
  for (let j = 0; j < joints; j++) {
    for (const path of [PATH_TRANSLATION, PATH_ROTATION, PATH_SCALE]) {
      if (r() < 0.2) continue; // channel without a track
      const interp = [INTERP_STEP, INTERP_LINEAR, INTERP_CUBIC][randInt(r, 0, 2)];
      tracks.push(randomTrack(r, j, path, interp, randInt(r, 1, maxKeys)));
    }
  }
  for (let i = tracks.length - 1; i > 0; i--) {
    const k = randInt(r, 0, i);
    [tracks[i], tracks[k]] = [tracks[k], tracks[i]];
  }
  return { tracks, table: table(tracks), joints };
}

function sample(rig: Rig, t: number, cursors?: Int32Array) {
  const T = new Float64Array(3 * rig.joints).fill(Number.NaN);
  const R = new Float64Array(4 * rig.joints).fill(Number.NaN);
  const S = new Float64Array(3 * rig.joints).fill(Number.NaN);
  const cur = cursors ?? new Int32Array(rig.tracks.length);
  sampleTracks(rig.table, cur, t, T, R, S);
  const read = (tr: Track) => {
    const stride = tr.path === PATH_ROTATION ? 4 : 3;
    const arr = tr.path === PATH_ROTATION ? R : tr.path === PATH_TRANSLATION ? T : S;
    return Array.from(arr.subarray(tr.target * stride, tr.target * stride + stride));
  };
  return { T, R, S, read, cursors: cur };
}

function queryTimes(r: () => number, tr: Track[]): number[] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const x of tr) {
    lo = Math.min(lo, x.times[0]);
    hi = Math.max(hi, x.times[x.times.length - 1]);
  }
  return [lo - 1, hi + 1, ...Array.from({ length: 40 }, () => uniform(r, lo - 0.2, hi + 0.2))];
}

const name = (tr: Track) =>
  `joint ${tr.target} ${['T', 'R', 'S'][tr.path]} ${['STEP', 'LINEAR', 'CUBIC'][tr.interp]} (${tr.times.length} keys)`;

describe('sampleTracks', () => {
  it('LINEAR translation and scale are the lerp of the bracketing keys', () => {
    const r = rng(21);
    for (let trial = 0; trial < 60; trial++) {
      const rig = randomRig(r);
      for (const t of queryTimes(r, rig.tracks)) {
        const s = sample(rig, t);
        for (const tr of rig.tracks) {
          if (tr.interp !== INTERP_LINEAR || tr.path === PATH_ROTATION) continue;
          expectRelClose(s.read(tr), expectedSample(tr, t), 1e-14, `${name(tr)} at ${t}`);
        }
      }
    }
  });

  it('LINEAR rotation is the shortest-arc slerp (acos/sin reference) and unit length', () => {
    const r = rng(22);
    for (let trial = 0; trial < 60; trial++) {
      const rig = randomRig(r);
      for (const t of queryTimes(r, rig.tracks)) {
        const s = sample(rig, t);
        for (const tr of rig.tracks) {
          if (tr.interp !== INTERP_LINEAR || tr.path !== PATH_ROTATION) continue;
          const got = s.read(tr);
          expectClose(got, expectedSample(tr, t), 1e-14, `${name(tr)} at ${t}`);
          expect(Math.abs(Math.hypot(...got) - 1)).toBeLessThan(4.5e-16);
        }
      }
    }
  });

  it('STEP holds the left key (bit for bit)', () => {
    const r = rng(23);
    for (let trial = 0; trial < 60; trial++) {
      const rig = randomRig(r);
      for (const t of queryTimes(r, rig.tracks)) {
        const s = sample(rig, t);
        for (const tr of rig.tracks) {
          if (tr.interp !== INTERP_STEP) continue;
          expectIdentical(s.read(tr), expectedSample(tr, t), `${name(tr)} at ${t}`);
        }
      }
    }
  });

  it('CUBICSPLINE follows the glTF Hermite formula ([in, value, out] per key); rotations are unit', () => {
    const r = rng(24);
    for (let trial = 0; trial < 60; trial++) {
      const rig = randomRig(r);
      for (const t of queryTimes(r, rig.tracks)) {
        const s = sample(rig, t);
        for (const tr of rig.tracks) {
          if (tr.interp !== INTERP_CUBIC) continue;
          const got = s.read(tr);
          expectRelClose(got, expectedSample(tr, t), 1e-13, `${name(tr)} at ${t}`);
          if (tr.path === PATH_ROTATION) expect(Math.abs(Math.hypot(...got) - 1)).toBeLessThan(4.5e-16);
        }
      }
    }
  });

  it('CUBICSPLINE uses the out-tangent of the left key and the in-tangent of the right key', () => {
    // one cubic translation track, 2 keys 2 s apart: p0 = 0, p1 = 0, only b0 (out of key 0) non-zero
    const tr: Track = {
      target: 0,
      path: PATH_TRANSLATION,
      interp: INTERP_CUBIC,
      times: [1, 3],
      values: [9, 9, 9, 0, 0, 0, 1, 2, 3, /* key 1: */ 0, 0, 0, 0, 0, 0, 7, 7, 7],
    };
    const rig: Rig = { tracks: [tr], table: table([tr]), joints: 1 };
    // at u = ½: h10 = (1/8 − 2/4 + 1/2) = 1/8, times dt = 2 → 1/4 of b0
    expectClose(sample(rig, 2).read(tr), [0.25, 0.5, 0.75], 1e-15, 'out-tangent of key 0');
    tr.values = [9, 9, 9, 0, 0, 0, 0, 0, 0, /* key 1: */ 1, 2, 3, 0, 0, 0, 9, 9, 9];
    const rig2: Rig = { tracks: [tr], table: table([tr]), joints: 1 };
    // h11 = (1/8 − 1/4) = −1/8, times dt = 2 → −1/4 of a1
    expectClose(sample(rig2, 2).read(tr), [-0.25, -0.5, -0.75], 1e-15, 'in-tangent of key 1');
  });

  it('returns the exact key values at key times, for every interpolation', () => {
    const r = rng(25);
    for (let trial = 0; trial < 60; trial++) {
      const rig = randomRig(r);
      for (const tr of rig.tracks) {
        for (let i = 0; i < tr.times.length; i++) {
          const s = sample(rig, tr.times[i]);
          expectIdentical(s.read(tr), keyValue(tr, i), `${name(tr)} key ${i}`);
        }
      }
    }
  });

  it('holds the first value before the first key and the last value after the last key', () => {
    const r = rng(26);
    for (let trial = 0; trial < 60; trial++) {
      const rig = randomRig(r);
      for (const tr of rig.tracks) {
        const n = tr.times.length;
        for (const t of [tr.times[0] - 100, tr.times[0] - 1e-9, Number.NEGATIVE_INFINITY]) {
          expectIdentical(sample(rig, t).read(tr), keyValue(tr, 0), `${name(tr)} before`);
        }
        for (const t of [tr.times[n - 1] + 1e-9, tr.times[n - 1] + 100, Number.POSITIVE_INFINITY]) {
          expectIdentical(sample(rig, t).read(tr), keyValue(tr, n - 1), `${name(tr)} after`);
        }
      }
    }
  });

  it('takes the later of two keys at a time they share: mid-track, and at the end (the last value)', () => {
    // Until 27 November a track ending on two keys at one time (x 0@0, 5@1, 9@1) sampled 5 at and
    // after its end, never its last value, while the same jump mid-track took the later key
    // (a hostile test).
    for (const interp of [INTERP_STEP, INTERP_LINEAR, INTERP_CUBIC]) {
      const keys = (xs: number[]) =>
        xs.flatMap((x) => (interp === INTERP_CUBIC ? [0, 0, 0, x, 0, 0, 0, 0, 0] : [x, 0, 0]));
      const rig = (times: number[], xs: number[]): Rig => {
        const tracks = [{ target: 0, path: PATH_TRANSLATION, interp, times, values: keys(xs) }];
        return { tracks, table: table(tracks), joints: 1 };
      };
      const end = rig([0, 1, 1], [0, 5, 9]);
      for (const t of [1, 1.5, 100])
        expect(sample(end, t).read(end.tracks[0])[0], `${interp} at ${t}`).toBe(9);
      const middle = rig([0, 1, 1, 2], [0, 5, 9, 9]);
      expect(sample(middle, 1).read(middle.tracks[0])[0], `${interp} mid-track`).toBe(9);
      // Before the jump, the earlier key's side.
      expect(sample(middle, 1 - 1e-9).read(middle.tracks[0])[0]).toBeLessThan(5 + 1e-6);
    }
  });

  it('single-key tracks hold their value at every time', () => {
    const r = rng(27);
    for (let trial = 0; trial < 30; trial++) {
      const rig = randomRig(r, 1);
      for (const t of [-50, -1, 0, 0.3, 1, 50]) {
        const s = sample(rig, t);
        for (const tr of rig.tracks) expectIdentical(s.read(tr), keyValue(tr, 0), `${name(tr)} at ${t}`);
      }
    }
  });

  it('does not write channels without a track', () => {
    const r = rng(28);
    for (let trial = 0; trial < 40; trial++) {
      const rig = randomRig(r);
      const s = sample(rig, uniform(r, -1, 5));
      const has = (j: number, p: number) => rig.tracks.some((tr) => tr.target === j && tr.path === p);
      for (let j = 0; j < rig.joints; j++) {
        const chans: [Float64Array, number, number][] = [
          [s.T, PATH_TRANSLATION, 3],
          [s.R, PATH_ROTATION, 4],
          [s.S, PATH_SCALE, 3],
        ];
        for (const [arr, p, stride] of chans) {
          for (let c = 0; c < stride; c++) expect(Number.isNaN(arr[j * stride + c])).toBe(!has(j, p));
        }
      }
    }
  });

  it('cursors are only hints: any starting cursors give the same pose, and end at the key interval', () => {
    const r = rng(29);
    for (let trial = 0; trial < 12; trial++) {
      const rig = randomRig(r, 30);
      const persistent = new Int32Array(rig.tracks.length);
      const times = queryTimes(r, rig.tracks).sort((a, b) => a - b);
      for (const t of [...times, ...times.reverse()]) {
        const fresh = sample(rig, t);
        const garbage = Int32Array.from(rig.tracks, () => randInt(r, -1000, 1000));
        const withGarbage = sample(rig, t, garbage);
        const continued = sample(rig, t, persistent);
        for (const arr of ['T', 'R', 'S'] as const) {
          expectIdentical(withGarbage[arr], fresh[arr], `garbage cursors, ${arr}`);
          expectIdentical(continued[arr], fresh[arr], `persistent cursors, ${arr}`);
        }
        rig.tracks.forEach((tr, i) => {
          const base = rig.table.timeOffsets[i];
          const want = bruteKey(rig.table.times, base, tr.times.length, t);
          expect(persistent[i]).toBe(want);
          expect(garbage[i]).toBe(want);
        });
      }
    }
  });

  it('sampleTracksAt reads the time from time[timeOffset] and equals sampleTracks', () => {
    const r = rng(30);
    for (let trial = 0; trial < 20; trial++) {
      const rig = randomRig(r);
      for (const t of queryTimes(r, rig.tracks)) {
        const a = sample(rig, t);
        const T = new Float64Array(3 * rig.joints).fill(Number.NaN);
        const R = new Float64Array(4 * rig.joints).fill(Number.NaN);
        const S = new Float64Array(3 * rig.joints).fill(Number.NaN);
        const time = Float64Array.from([Number.NaN, -5, t, 1e9]);
        const cursors = new Int32Array(rig.tracks.length);
        sampleTracksAt(rig.table, cursors, time, 2, T, R, S);
        expectIdentical(T, a.T, 'T');
        expectIdentical(R, a.R, 'R');
        expectIdentical(S, a.S, 'S');
        expectIdentical(cursors, a.cursors, 'cursors');
        expectIdentical(time, [Number.NaN, -5, t, 1e9], 'time is read only');
      }
    }
  });
});
