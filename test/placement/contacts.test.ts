/**
 * ContactTrack's ground travel: the integral of its ground velocity, checked against a fine
 * numerical integral of `groundVelocityAt` on real tracks (a looping walk and a one-shot capture)
 * and on tracks written by hand.
 */
import { describe, expect, it } from 'vitest';
import { Clip, type Interpolation, type RawTrack, type TrackPath } from '../../src/animation/clip.js';
import { ContactTrack, computeContacts } from '../../src/placement/contacts.js';
import { cmu, fox } from './characters.js';

/** Simpson's rule over `steps` intervals of the track's interpolated velocity (x, z). */
function integrate(track: ContactTrack, from: number, seconds: number, steps = 4000): [number, number] {
  const v = new Float64Array(3);
  const h = seconds / steps;
  let sx = 0;
  let sz = 0;
  for (let k = 0; k <= steps; k++) {
    track.groundVelocityAt(from + k * h, v, 0);
    const w = k === 0 || k === steps ? 1 : k % 2 === 1 ? 4 : 2;
    sx += w * v[0];
    sz += w * v[2];
  }
  return [(sx * h) / 3, (sz * h) / 3];
}

function travel(track: ContactTrack, from: number, seconds: number): Float64Array {
  const out = new Float64Array(3).fill(Number.NaN);
  track.groundTravel(from, seconds, out, 0);
  return out;
}

/**
 * `clip` with its root joints turned about +Y by the rotation whose cosine and sine are `c` and `s`
 * (numbers given, no trigonometry): the same motion, heading elsewhere.
 */
function turned(clip: Clip, c: number, s: number): Clip {
  const { skeleton } = clip;
  const paths: TrackPath[] = ['translation', 'rotation', 'scale'];
  const kinds: Interpolation[] = ['STEP', 'LINEAR', 'CUBICSPLINE'];
  // The half-angle rotation: cos θ/2 and sin θ/2 from cos θ, with the sign of sin θ.
  const qw = Math.sqrt((1 + c) / 2);
  const qy = Math.sign(s) * Math.sqrt((1 - c) / 2);
  const tracks: RawTrack[] = [];
  const has = new Set<string>();
  for (let i = 0; i < clip.trackCount; i++) {
    const joint = clip.targets[i];
    const path = paths[clip.paths[i]];
    const count = clip.keyCounts[i];
    const stride = path === 'rotation' ? 4 : 3;
    const width = (clip.interpolations[i] === 2 ? 3 : 1) * stride;
    const times = clip.times.slice(clip.timeOffsets[i], clip.timeOffsets[i] + count);
    const values = clip.values.slice(clip.valueOffsets[i], clip.valueOffsets[i] + count * width);
    if (skeleton.parents[joint] < 0) {
      has.add(`${joint}.${path}`);
      for (let o = 0; o < values.length; o += stride) turn(values, o, path);
    }
    tracks.push({ joint, path, interpolation: kinds[clip.interpolations[i]], times, values });
  }
  for (let joint = 0; joint < skeleton.parents.length; joint++) {
    if (skeleton.parents[joint] >= 0) continue;
    for (const path of ['translation', 'rotation'] as const) {
      if (has.has(`${joint}.${path}`)) continue;
      const rest = path === 'rotation' ? skeleton.restRotations : skeleton.restTranslations;
      const stride = path === 'rotation' ? 4 : 3;
      const values = rest.slice(stride * joint, stride * joint + stride);
      turn(values, 0, path);
      tracks.push({ joint, path, times: [0], values });
    }
  }
  return Clip.create(skeleton, { name: `${clip.name} turned`, tracks, duration: clip.duration });

  function turn(v: Float64Array, o: number, path: TrackPath): void {
    if (path === 'translation') {
      const [x, z] = [v[o], v[o + 2]];
      v[o] = c * x + s * z;
      v[o + 2] = -s * x + c * z;
    } else if (path === 'rotation') {
      // (0, qy, 0, qw) × (x, y, z, w)
      const [x, y, z, w] = [v[o], v[o + 1], v[o + 2], v[o + 3]];
      v[o] = qw * x + qy * z;
      v[o + 1] = qw * y + qy * w;
      v[o + 2] = qw * z - qy * x;
      v[o + 3] = qw * w - qy * y;
    }
  }
}

describe('computeContacts', () => {
  it("reads an in-place clip's ground velocity turned with the clip, at any heading", async () => {
    // Until the median was taken in the plane (27 November), a median per axis read a clip turned
    // 37° about +Y with its heading 0.26° off: an in-place walk drifted 7 mm in 4 s.
    const character = await fox();
    const clip = character.clips.get('Walk') as Clip;
    const base = computeContacts(clip, character.rig.legs).groundVelocity;
    const speed = Math.hypot(base[0], base[2]);
    expect(speed).toBeGreaterThan(0.1);
    // 3-4-5 and 5-12-13 turns (36.87° and 67.38°), and one of −36.87°.
    for (const [c, s] of [
      [0.8, 0.6],
      [5 / 13, 12 / 13],
      [0.8, -0.6],
    ]) {
      const v = computeContacts(turned(clip, c, s), character.rig.legs).groundVelocity;
      // The ground turns as the clip does (a vector (x, z) turned as the root's translation).
      const x = c * base[0] + s * base[2];
      const z = -s * base[0] + c * base[2];
      expect(Math.abs(v[0] - x), `${c}, ${s}`).toBeLessThan(1e-6 * speed);
      expect(v[1]).toBe(0);
      expect(Math.abs(v[2] - z), `${c}, ${s}`).toBeLessThan(1e-6 * speed);
    }
  });
});

describe('computeContacts at other sample rates', () => {
  it('reads the captures’ contacts the same at 60, 120 and 240 samples a second', () => {
    // Until 27 November a foot's velocity was read between the samples either side, 1/120 s
    // apart at 240 Hz: the capture's jitter read as speed and split CMU 02_01's left contacts
    // (5 where 60 Hz reads 3).
    for (const file of ['cmu_02_01_walk.bvh', 'cmu_131_01_start_walk_stop.bvh']) {
      const character = cmu(file);
      const clip = [...character.clips.values()][0];
      const read = (sampleRate: number) =>
        computeContacts(clip, character.rig.legs, { sampleRate, loop: false }).intervals.map((l) => {
          let seconds = 0;
          for (let k = 0; k < l.length; k += 2) seconds += l[k + 1] - l[k];
          return { count: l.length / 2, seconds };
        });
      const base = read(60);
      for (const rate of [120, 240]) {
        read(rate).forEach((leg, i) => {
          expect(leg.count, `${file} at ${rate} Hz, leg ${i}`).toBe(base[i].count);
          expect(Math.abs(leg.seconds - base[i].seconds), `${file} at ${rate} Hz, leg ${i}`).toBeLessThan(
            0.04 * base[i].seconds,
          );
        });
      }
    }
  });
});

describe('computeContacts and ContactTrack refuse what they cannot use, by name', () => {
  it('reads an in-place clip at one sample a second (four samples at least), and refuses malformed tracks', async () => {
    // Until 27 November a rate of 0.5 to 2 on the Fox's 1.2 s walk sampled it twice: a velocity
    // of 0/0, refused as "groundVelocities must be finite" (a hostile test).
    const character = await fox();
    const clip = character.clips.get('Walk') as Clip;
    for (const sampleRate of [0.5, 1, 2]) {
      const track = computeContacts(clip, character.rig.legs, { sampleRate });
      expect(track.groundVelocities.every(Number.isFinite), `${sampleRate}`).toBe(true);
    }
    const refuses = (definition: Record<string, unknown>, text: RegExp) =>
      expect(
        () => new ContactTrack({ duration: 1, footHeights: [0], ...definition } as never),
        String(text),
      ).toThrow(
        expect.objectContaining({ code: 'placement/invalid-contacts', message: expect.stringMatching(text) }),
      );
    // Before: a string threw a bare TypeError, null too, and [5] or [{}] were no contacts.
    refuses({ intervals: ['ab'] }, /leg 0's intervals the string "ab" are not sorted/);
    refuses({ intervals: [null] }, /leg 0's intervals null/);
    refuses({ intervals: [[5]] }, /\[5\] are not sorted \[start, end\] pairs/);
    refuses({ intervals: [[{}]] }, /leg 0's intervals an array of 1/);
    // A contact starting past the clip's end was never sampled.
    refuses({ intervals: [[3, 3.5]] }, /starting within the clip \(0 to 1 s\)/);
    refuses({ intervals: [[-0.5, 0.2]] }, /starting within the clip/);
    refuses({ intervals: [[0.1, 0.2]], loop: 'no' }, /loop is no, not a boolean/);
    // Foot heights in a typed array are fine.
    const track = new ContactTrack({
      duration: 1,
      intervals: [[0.1, 1.2]],
      footHeights: Float64Array.of(0.05),
    });
    expect(track.footHeights[0]).toBe(0.05);
  });
});

describe('ContactTrack.groundTravel', () => {
  it("integrates a looping walk's velocity, across the loop's end and many cycles on", async () => {
    const character = await fox();
    const clip = character.clips.get('Walk') as Clip;
    const track = computeContacts(clip, character.rig.legs, { loop: true });
    expect(track.groundVelocities.length).toBeGreaterThan(10);
    const d = track.duration;
    for (const [from, seconds] of [
      [0, 0.3],
      [0.1, 0.25],
      [d - 0.05, 0.3],
      [0.2, 2.5 * d],
      [1000 * d + 0.13, 0.3],
      [-0.4, 0.3],
    ]) {
      const out = travel(track, from, seconds);
      // The velocity's kinks at the samples make Simpson's rule exact only to its step.
      const [x, z] = integrate(track, from, seconds);
      const scale = Math.abs(z) + 1;
      expect(Math.abs(out[0] - x)).toBeLessThan(1e-6 * scale);
      expect(out[1]).toBe(0);
      expect(Math.abs(out[2] - z)).toBeLessThan(1e-6 * scale);
    }
    // Over whole cycles: the mean velocity times the time (the travel of one cycle).
    const cycle = travel(track, 0.37, d);
    const twice = travel(track, 5.1, 2 * d);
    expect(twice[2]).toBeCloseTo(2 * cycle[2], 9);
    // Not the mean velocity times the time over part of a cycle: the Fox slows and speeds up.
    const part = travel(track, 0.1, 0.3);
    expect(Math.abs(part[2] - 0.3 * (cycle[2] / d))).toBeGreaterThan(0.02 * Math.abs(part[2]));
  });

  it("integrates a one-shot capture's velocity, held at its ends", async () => {
    const character = await cmu('cmu_131_01_start_walk_stop.bvh');
    const clip = [...character.clips.values()][0];
    const track = computeContacts(clip, character.rig.legs, { loop: false });
    const d = track.duration;
    for (const [from, seconds] of [
      [0, 0.3],
      [d / 2, 0.3],
      [d - 0.1, 0.5],
      [-0.2, 0.5],
    ]) {
      const out = travel(track, from, seconds);
      const [x, z] = integrate(track, from, seconds);
      const scale = Math.hypot(x, z) + 1;
      expect(Math.abs(out[0] - x)).toBeLessThan(1e-6 * scale);
      expect(Math.abs(out[2] - z)).toBeLessThan(1e-6 * scale);
    }
  });

  it('is the constant velocity times the time without samples, and exact on a written track', () => {
    const base = { duration: 2, intervals: [[0, 1]], footHeights: [0] };
    const constant = new ContactTrack({ ...base, groundVelocity: [1, 0, -2] });
    expect(Array.from(travel(constant, 0.5, 3))).toEqual([3, 0, -6]);
    // Two samples, looping: the velocity ramps 0 → 4 over the first second and back over the
    // second, so a cycle travels 4 and the first half second 0.5 (∫ 4t dt).
    const ramp = new ContactTrack({ ...base, groundVelocities: [0, 0, 0, 4] });
    expect(travel(ramp, 0, 2)[2]).toBe(4);
    expect(travel(ramp, 0, 0.5)[2]).toBe(0.5);
    expect(travel(ramp, 6, 0.5)[2]).toBe(0.5);
    // Across the loop: 0.5 down the ramp from 2 to 0, then 0.5 up it again.
    expect(travel(ramp, 1.5, 1)[2]).toBeCloseTo(1, 12);
    // One-shot: none before the start or after the end, where its pose is held (until 27 November
    // its last velocity went on: a walk held at its end travelled on at walking speed, 3.9 m in 2 s).
    const once = new ContactTrack({ ...base, loop: false, groundVelocities: [0, 0, 0, 4] });
    expect(travel(once, 0, 2)[2]).toBe(4);
    expect(travel(once, 2, 1)[2]).toBe(0);
    expect(travel(once, 1, 5)[2]).toBe(travel(once, 1, 1)[2]);
    expect(travel(once, -1, 1)[2]).toBe(0);
    const at = new Float64Array(3);
    for (const time of [-1, 2.5, 100]) {
      once.groundVelocityAt(time, at, 0);
      expect(Array.from(at), `${time}`).toEqual([0, 0, 0]);
    }
    once.groundVelocityAt(1.5, at, 0);
    expect(at[2]).toBeCloseTo(3, 12);
    // And so for a one-shot track of a single sample or none (a constant velocity).
    for (const track of [
      new ContactTrack({ ...base, loop: false, groundVelocities: [0, 4] }),
      new ContactTrack({ ...base, loop: false, groundVelocity: [0, 0, 4] }),
    ]) {
      expect(travel(track, -1, 0.5)[2]).toBe(0);
      expect(travel(track, 1.5, 2)[2]).toBe(2);
      expect(travel(track, 3, 1)[2]).toBe(0);
      track.groundVelocityAt(2.5, at, 0);
      expect(Array.from(at)).toEqual([0, 0, 0]);
      track.groundVelocityAt(1, at, 0);
      expect(at[2]).toBe(4);
    }
  });
});

describe("ContactTrack's per-frame methods", () => {
  const track = new ContactTrack({
    duration: 1,
    intervals: [
      [0.1, 0.4],
      [0.6, 0.9],
    ],
    footHeights: [0.05, 0.05],
    landings: [
      [0, 0, 0.2],
      [0.1, 0, 0.3],
    ],
    groundVelocities: [0, 1, 0, 2],
  });
  const refuses = (call: () => unknown, message: RegExp) =>
    expect(call, String(message)).toThrow(
      expect.objectContaining({ code: 'argument/invalid', message: expect.stringMatching(message) }),
    );

  it('sample refuses a time or ramp that is not finite and outputs too short for the legs, writing nothing', () => {
    // Before the checks, a NaN time was time 0, and a 1-entry output dropped leg 1 without a word.
    const w = new Float64Array(2).fill(0.5);
    const p = new Uint8Array(2).fill(7);
    const short = new Float64Array(1);
    refuses(() => track.sample(Number.NaN, 0.1, w, p), /^ContactTrack\.sample: time is NaN/);
    refuses(() => track.sample(Number.POSITIVE_INFINITY, 0.1, w, p), /time is Infinity/);
    refuses(() => track.sample(0.3, -1, w, p), /rampIn is -1, not a finite number ≥ 0/);
    refuses(() => track.sample(0.3, 0.1, w, p, Number.NaN), /rampOut is NaN/);
    refuses(
      () => track.sample(0.3, 0.1, short, p),
      /weights is a Float64Array, not a Float64Array of 2 or more/,
    );
    refuses(
      () => track.sample(0.3, 0.1, w, new Uint8Array(1)),
      /planted is a Uint8Array, not a Uint8Array of 2/,
    );
    refuses(() => track.sample(0.3, 0.1, null as never, null as never), /weights is null/);
    refuses(() => track.sample(0.3, 0.1, [] as never, [] as never), /weights is an array of 0/);
    expect([...w, ...p, ...short]).toEqual([0.5, 0.5, 7, 7, 0]);
    track.sample(0.2, 0.1, w, p);
    expect([...w, ...p]).toEqual([1, 0, 1, 0]);
    // Longer outputs are fine: the legs' entries are written, the rest left.
    const long = new Float64Array(3).fill(0.5);
    track.sample(0.7, 0.1, long, new Uint8Array(3));
    expect([...long]).toEqual([0, 1, 0.5]);
  });

  it('groundVelocityAt, groundTravel and nextContact refuse a bad time, seconds, leg or output, writing nothing', () => {
    // Before the checks, groundTravel(0, NaN) wrote NaN, and a leg out of range or a null output
    // threw a bare TypeError.
    const out = new Float64Array(3).fill(9);
    refuses(() => track.groundVelocityAt(Number.NaN, out, 0), /^ContactTrack\.groundVelocityAt: time is NaN/);
    refuses(() => track.groundVelocityAt(0, null as never, 0), /out is null, not a Float64Array/);
    refuses(() => track.groundVelocityAt(0, [0, 0, 0] as never, 0), /out is an array of 3/);
    refuses(() => track.groundVelocityAt(0, out, 1), /o is 1, not a whole number from 0 to 0/);
    refuses(() => track.groundVelocityAt(0, out, 0.5), /o is 0\.5/);
    refuses(() => track.groundTravel(0, Number.NaN, out, 0), /^ContactTrack\.groundTravel: seconds is NaN/);
    refuses(() => track.groundTravel(Number.NaN, 1, out, 0), /groundTravel: time is NaN/);
    refuses(() => track.groundTravel(0, 1, out, -1), /groundTravel: o is -1/);
    refuses(
      () => track.nextContact(0.2, 5, out, 0),
      /^ContactTrack\.nextContact: leg is 5, not a leg of the track, 0 to 1/,
    );
    refuses(() => track.nextContact(0.2, -1, out, 0), /leg is -1/);
    refuses(() => track.nextContact(0.2, 0.5, out, 0), /leg is 0\.5/);
    refuses(() => track.nextContact(Number.NaN, 0, out, 0), /nextContact: time is NaN/);
    refuses(() => track.nextContact(0.2, 0, null as never, 0), /nextContact: out is null/);
    expect([...out]).toEqual([9, 9, 9]);
    // The good calls answer as before.
    expect(track.nextContact(0.5, 1, out, 0)).toBeCloseTo(0.1, 12);
    expect([...out]).toEqual([0.1, 0, 0.3]);
    track.groundVelocityAt(0, out, 0);
    expect([...out]).toEqual([0, 0, 1]);
    track.groundTravel(0, 1, out, 0);
    expect(out[2]).toBe(1.5);
  });
});
