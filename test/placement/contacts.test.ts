/**
 * ContactTrack's ground travel: the integral of its ground velocity, checked against a fine
 * numerical integral of `groundVelocityAt` on real tracks (a looping walk and a one-shot capture)
 * and on tracks written by hand.
 */
import { describe, expect, it } from 'vitest';
import type { Clip } from '../../src/animation/clip.js';
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
    // One-shot: held at the last sample after the end, the first before the start.
    const once = new ContactTrack({ ...base, loop: false, groundVelocities: [0, 0, 0, 4] });
    expect(travel(once, 0, 2)[2]).toBe(4);
    expect(travel(once, 2, 1)[2]).toBe(4);
    expect(travel(once, -1, 1)[2]).toBe(0);
  });
});
