/**
 * CrowdSchedule: which characters are due each frame (every one at the first plan, then each by
 * its period, in blocks that take turns so the count per frame stays flat), the seconds each has
 * waited, refusals; and a placed crowd updated on a schedule, each character to the bits of its
 * own FootPlacement solved at the same frames with the same waits.
 */
import { describe, expect, it } from 'vitest';
import type { Clip } from '../../src/animation/clip.js';
import { isTendonError } from '../../src/errors.js';
import { importGltf } from '../../src/io/gltf.js';
import { computeContacts } from '../../src/placement/contacts.js';
import { CrowdPlacement } from '../../src/placement/crowd-placement.js';
import { FootPlacement } from '../../src/placement/foot-placement.js';
import { PlaneGround } from '../../src/placement/plane-ground.js';
import { Crowd } from '../../src/pose/crowd.js';
import { CrowdSchedule } from '../../src/pose/crowd-schedule.js';
import { createModelBuffer } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { findRig } from '../../src/rig/find-rig.js';
import { readAsset } from '../helpers/assets.js';

const DT = 1 / 60;

/** The characters due in a plan, from its runs, and each one's seconds. */
function dueOf(schedule: CrowdSchedule, runs: number): Map<number, number> {
  const due = new Map<number, number>();
  for (let r = 0; r < runs; r++) {
    expect(schedule.runCount[r]).toBeGreaterThan(0);
    for (let c = schedule.runFirst[r]; c < schedule.runFirst[r] + schedule.runCount[r]; c++) {
      expect(due.has(c)).toBe(false);
      due.set(c, schedule.runSeconds[r]);
    }
  }
  return due;
}

describe('CrowdSchedule', () => {
  it('updates every character every frame by default, in one run', () => {
    const schedule = new CrowdSchedule(50);
    for (let f = 0; f < 3; f++) {
      expect(schedule.plan(DT)).toBe(1);
      expect([schedule.runFirst[0], schedule.runCount[0], schedule.runSeconds[0]]).toEqual([0, 50, DT]);
    }
    expect(schedule.frame).toBe(3);
  });

  it('updates far characters every Nth frame, in blocks taking turns: a flat count per frame', () => {
    const count = 1000;
    const schedule = new CrowdSchedule(count);
    for (let c = 100; c < count; c++) schedule.periods[c] = 4;
    // The first plan: every character, none left in its rest pose.
    expect(dueOf(schedule, schedule.plan(DT)).size).toBe(count);
    const updates = new Uint16Array(count);
    const perFrame: number[] = [];
    const runCounts: number[] = [];
    for (let f = 1; f <= 40; f++) {
      const runs = schedule.plan(DT);
      const due = dueOf(schedule, runs);
      perFrame.push(due.size);
      for (let r = 0; r < runs; r++) {
        const first = schedule.runFirst[r];
        const end = first + schedule.runCount[r];
        // Whole blocks, but where the near ones end (block 6 holds 96 … 111) and the crowd ends.
        if (first >= 100 && first !== 100 && end !== count) runCounts.push(schedule.runCount[r]);
      }
      for (const [c, seconds] of due) {
        updates[c]++;
        // Near ones waited a frame, far ones four (their first wait after the first plan: less).
        if (c < 100) expect(seconds).toBe(DT);
        else if (updates[c] > 1) expect(seconds).toBeCloseTo(4 * DT, 12);
        expect(schedule.waited[c]).toBe(0);
      }
    }
    // The far ones due in a frame come a block of 16 at a time (the near ones, one run of 100).
    expect(new Set(runCounts)).toEqual(new Set([16]));
    for (let c = 0; c < 100; c++) expect(updates[c]).toBe(40);
    for (let c = 100; c < count; c++) expect(updates[c]).toBe(10);
    // 100 near + 900 / 4 far, give or take a block of 16: never the whole far crowd at once.
    for (const n of perFrame) {
      expect(n).toBeGreaterThanOrEqual(100 + 225 - 16);
      expect(n).toBeLessThanOrEqual(100 + 225 + 16);
    }
  });

  it('takes turns among the characters of a period wherever they stand in the crowd', () => {
    // Squads of 16, every other one far (every 2nd frame): half the far ones a frame, not all.
    const schedule = new CrowdSchedule(1024);
    for (let c = 0; c < 1024; c++) if (Math.floor(c / 16) % 2 === 1) schedule.periods[c] = 2;
    schedule.plan(DT);
    for (let f = 1; f <= 8; f++) {
      const due = dueOf(schedule, schedule.plan(DT));
      expect(due.size).toBe(512 + 256);
      for (let c = 0; c < 1024; c++) expect(schedule.due[c]).toBe(due.has(c) ? 1 : 0);
    }
    // Squads every 2nd and every 4th frame, alternating: 128 + 64 a frame.
    const mixed = new CrowdSchedule(512);
    for (let c = 0; c < 512; c++) mixed.periods[c] = Math.floor(c / 16) % 2 === 0 ? 2 : 4;
    mixed.plan(DT);
    for (let f = 1; f <= 8; f++) expect(dueOf(mixed, mixed.plan(DT)).size).toBe(128 + 64);
  });

  it('keeps each character’s turn while the periods of others change', () => {
    // Character 0 goes between every frame and every 4th on every frame; the 11 behind it keep
    // their period, so they keep their turns: each exactly every 4th frame, a quarter a frame.
    const schedule = new CrowdSchedule(12, { block: 1 });
    schedule.periods.fill(4);
    const last = new Int32Array(12).fill(-1);
    let updates = 0;
    for (let f = 0; f < 200; f++) {
      schedule.periods[0] = f % 2 === 0 ? 1 : 4;
      const due = dueOf(schedule, schedule.plan(DT));
      for (let c = 1; c < 12; c++) {
        if (!due.has(c)) continue;
        if (last[c] > 0) expect(f - last[c]).toBe(4);
        updates++;
        last[c] = f;
      }
      if (f >= 4) for (let c = 1; c < 12; c++) expect(f - last[c]).toBeLessThan(4);
    }
    // Their turns dealt one after another at the first plan: 0, 1, 2, 3, 0, … (3, 3, 3 and 2 of
    // them); each due at the first plan and then at every frame of its turn up to 199: 50 for turn
    // 0 (the first plan is its turn), 51 for the others.
    expect(updates).toBe(3 * 50 + 3 * 51 + 3 * 51 + 2 * 51);
  });

  it('puts no character off whose own period keeps changing, and deals turns evenly over frames', () => {
    // Two characters going between every 2nd and every 4th frame, each frame: neither waits more
    // than 4 frames (a fresh turn at each change put the second off for good).
    const jitter = new CrowdSchedule(2, { block: 1 });
    const last = [0, 0];
    for (let f = 0; f < 120; f++) {
      jitter.periods.fill(f % 2 === 0 ? 2 : 4);
      jitter.plan(DT);
      for (let c = 0; c < 2; c++) {
        if (jitter.due[c] === 1) last[c] = f;
        expect(f - last[c]).toBeLessThan(4);
      }
    }
    // 16 robots going far (every 4th frame) each frame, 1,000 in all: their turns come by a fixed
    // slot whatever frame they took the period, so the count per frame stays flat (552, 100, 548,
    // 100 when a turn counted from the frame it was dealt).
    const crowd = new CrowdSchedule(1000);
    const counts: number[] = [];
    for (let f = 0; f < 120; f++) {
      if (16 * f < 1000) crowd.periods.fill(4, 16 * f, Math.min(1000, 16 * f + 16));
      crowd.plan(DT);
      if (f >= 100) counts.push(crowd.due.reduce((n, d) => n + d, 0));
    }
    for (const n of counts) {
      expect(n).toBeGreaterThanOrEqual(250 - 16);
      expect(n).toBeLessThanOrEqual(250 + 16);
    }
  });

  it('evens the slots out when characters leave a period or come back to it', () => {
    const frameCounts = (schedule: CrowdSchedule, frames: number) => {
      const counts: number[] = [];
      for (let f = 0; f < frames; f++) {
        schedule.plan(DT);
        counts.push(schedule.due.reduce((n, d) => n + d, 0));
      }
      return counts.slice(-8);
    };
    // Every other squad leaves period 2 for every frame: the squads that stay held the same slot;
    // at their turns they move over to the one given back (512 far every other frame before).
    const leave = new CrowdSchedule(1024);
    leave.periods.fill(2);
    frameCounts(leave, 4);
    for (let c = 0; c < 1024; c++) if (Math.floor(c / 16) % 2 === 0) leave.periods[c] = 1;
    for (const n of frameCounts(leave, 12)) expect(Math.abs(n - (512 + 256))).toBeLessThanOrEqual(16);
    // The far 900 out of sight for two frames, then back (no restart): their slots dealt again,
    // not left where the frame they came back put them (772/328/100/100 before).
    const back = new CrowdSchedule(1000);
    back.periods.fill(4, 100);
    frameCounts(back, 8);
    back.periods.fill(0, 100);
    frameCounts(back, 2);
    back.periods.fill(4, 100);
    for (const n of frameCounts(back, 16)) expect(Math.abs(n - 325)).toBeLessThanOrEqual(16);
  });

  it('sums the seconds a character waited, and follows a period changed on the way', () => {
    const schedule = new CrowdSchedule(40, { block: 4 });
    schedule.periods.fill(3);
    schedule.periods[5] = 0; // out of sight: never updated after the first plan
    const dts = [0.01, 0.02, 0.015, 0.03, 0.01, 0.025, 0.02, 0.01, 0.02, 0.01, 0.03];
    const waited = new Float64Array(40);
    const seen = new Float64Array(40);
    const last = new Int32Array(40).fill(-1);
    const perFrame: number[] = [];
    for (let f = 0; f < dts.length; f++) {
      if (f === 4) schedule.periods[9] = 1; // comes near: due at once, then every frame
      const due = dueOf(schedule, schedule.plan(dts[f]));
      perFrame.push(due.size);
      for (let c = 0; c < 40; c++) {
        waited[c] += dts[f];
        if (f === 0) expect(due.has(c)).toBe(true);
        if (c === 5 && f > 0) expect(due.has(c)).toBe(false);
        if (c === 9 && f >= 4) expect(due.has(c)).toBe(true);
        if (due.has(c)) {
          // Its period's turn: every 3rd frame once its first turn came (the first plan aside).
          if (c !== 9 && c !== 5 && last[c] > 0) expect(f - last[c]).toBe(3);
          expect(due.get(c)).toBe(waited[c]);
          seen[c] += waited[c];
          waited[c] = 0;
          if (f > 0) last[c] = f;
        }
        expect(schedule.waited[c]).toBe(waited[c]);
      }
    }
    // 39 of period 3 dealt in blocks of 4 to the 3 turns: 12 to 16 a frame after the first.
    for (const n of perFrame.slice(1)) expect(n).toBeGreaterThanOrEqual(12);
    for (const n of perFrame.slice(1)) expect(n).toBeLessThanOrEqual(17);
    // Character 5 was due once (the first plan), and has waited every frame since.
    const total = dts.reduce((a, b) => a + b, 0);
    expect(seen[5]).toBe(dts[0]);
    expect(schedule.waited[5]).toBeCloseTo(total - dts[0], 15);
    // Restarted, it is due at the next plan with that frame's dt alone, as at the first.
    schedule.restart(5);
    const due = dueOf(schedule, schedule.plan(0.04));
    expect(due.get(5)).toBe(0.04);
    expect(() => schedule.restart(40)).toThrow(/CrowdSchedule\.restart: 40 is not in 0 … 39/);
  });

  it('refuses a dt, count or block that is not one, by name, changing nothing', () => {
    const schedule = new CrowdSchedule(8);
    schedule.plan(DT);
    const waited = schedule.waited.slice();
    for (const dt of [
      Number.NaN,
      -0.01,
      Number.POSITIVE_INFINITY,
      '0.016',
      null,
      [0.1],
      undefined,
    ] as number[]) {
      let error: unknown;
      try {
        schedule.plan(dt);
      } catch (e) {
        error = e;
      }
      expect(isTendonError(error) && error.code === 'argument/invalid').toBe(true);
      expect(String(error)).toMatch(/CrowdSchedule\.plan: dt/);
    }
    expect(schedule.frame).toBe(1);
    expect(Array.from(schedule.waited)).toEqual(Array.from(waited));
    expect(() => new CrowdSchedule(-1)).toThrow(/count -1/);
    expect(() => new CrowdSchedule(1e9)).toThrow(/count 1000000000 is not an integer in 0 … 16777216/);
    expect(() => new CrowdSchedule(2.5)).toThrow(/count 2.5/);
    expect(() => new CrowdSchedule(4, { block: 0 })).toThrow(/block 0/);
    expect(() => new CrowdSchedule(4, { block: '16' as never })).toThrow(/block '16' is not an integer/);
    expect(() => new CrowdSchedule(4, null as never)).toThrow(/options must be an object/);
    expect(new CrowdSchedule(0).plan(DT)).toBe(0);
  });
});

describe('a placed crowd on a CrowdSchedule', () => {
  it('places each character as its own FootPlacement solved at its frames with its waits, to the bit', async () => {
    const robot = (
      await importGltf(readAsset('gltf', 'RobotExpressive.glb'), { source: 'RobotExpressive.glb' })
    ).skeletons[0];
    const { skeleton, clips } = robot;
    const J = skeleton.jointCount;
    const rig = findRig(skeleton);
    const walk = clips.find((c) => c.name === 'Walking') as Clip;
    const ground = new PlaneGround([0, 0, 0], [0, 0.9396926207859084, -0.3420201433256687]);
    const count = 6;
    const crowd = new Crowd(skeleton, count);
    const placed = new CrowdPlacement(crowd, rig, { ground });
    const schedule = new CrowdSchedule(count, { block: 2 });
    schedule.periods.set([1, 1, 2, 2, 3, 0]);
    const track = computeContacts(walk, rig.legs);
    const worldOf = (c: number) => [0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0, 1.2 * c, 0.03 * c, 0, 1];
    const own = Array.from({ length: count }, () => ({
      placement: new FootPlacement(skeleton, rig, { ground }),
      pose: new Pose(skeleton),
      model: createModelBuffer(skeleton),
      waited: 0,
      updates: 0,
    }));
    for (let c = 0; c < count; c++) {
      crowd.setClip(c, walk);
      placed.worlds.set(worldOf(c), 16 * c);
      own[c].placement.setContactTrack(track);
    }
    for (let frame = 0; frame < 30; frame++) {
      for (let c = 0; c < count; c++) crowd.times[c] = 0.29 * c + frame * DT;
      const runs = schedule.plan(DT);
      for (let r = 0; r < runs; r++) {
        const first = schedule.runFirst[r];
        const n = schedule.runCount[r];
        crowd.sample('loop', first, n);
        crowd.forwardKinematics(first, n);
        placed.solve(schedule.runSeconds[r], first, n);
      }
      // Each character's own, solved in the frames the schedule made it due, with what it waited.
      for (let c = 0; c < count; c++) {
        const o = own[c];
        o.waited += DT;
        if (schedule.due[c] === 0) continue;
        const alone = new Crowd(skeleton, 1);
        alone.setClip(0, walk);
        alone.times[0] = crowd.times[c];
        alone.sample();
        alone.forwardKinematics();
        o.pose.translations.set(alone.translations);
        o.pose.rotations.set(alone.rotations);
        o.pose.scales.set(alone.scales);
        o.model.set(alone.model);
        o.placement.solve(o.pose, o.model, worldOf(c), o.waited, crowd.times[c]);
        o.waited = 0;
        o.updates++;
      }
      for (let c = 0; c < count; c++) {
        const rotations = crowd.rotations.subarray(4 * J * c, 4 * J * (c + 1));
        const model = crowd.model.subarray(16 * J * c, 16 * J * (c + 1));
        for (let i = 0; i < rotations.length; i++) {
          if (!Object.is(rotations[i], own[c].pose.rotations[i])) expect.fail(`character ${c} rotation ${i}`);
        }
        for (let i = 0; i < model.length; i++) {
          if (!Object.is(model[i], own[c].model[i])) expect.fail(`character ${c} model ${i}`);
        }
      }
    }
    // Every frame; every other (their period's first block: frames 0, 2, … 28); every third (frames
    // 0, 3, … 27); the first frame only.
    expect(own.map((o) => o.updates)).toEqual([30, 30, 15, 15, 10, 1]);
  });
});
