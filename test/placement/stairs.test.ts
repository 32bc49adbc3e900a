/**
 * A staircase, not the walk table's steps: six 17 cm risers up and six down, 28 cm treads (the
 * walk table's steps have three 15 cm risers and 60 cm treads). Every character takes more than
 * one tread a stride here, and placement does not meet the targets on it yet: these bounds are
 * what was measured when they were set, rounded up (regression guards, not the goal);
 * docs/placement.md ("Not done yet") says what fails.
 */
import { describe, expect, it } from 'vitest';
import type { Clip } from '../../src/animation/clip.js';
import { computeContacts } from '../../src/placement/contacts.js';
import { ProfileGround } from '../../src/placement/profile-ground.js';
import { type Character, cmu, fox, robot } from './characters.js';
import { summary, walk } from './walk-harness.js';

/** Six risers of `rise` up then six down, `tread` apart, from `start` along `along` (metres). */
function stairs(along: [number, number], start: number, tread: number, rise: number): ProfileGround {
  const profile: number[] = [-1e3, 0];
  let s = start;
  let y = 0;
  for (const r of [rise, rise, rise, rise, rise, rise, -rise, -rise, -rise, -rise, -rise, -rise]) {
    profile.push(s, y, s, y + r);
    y += r;
    s += tread;
  }
  profile.push(s + 1e3, y);
  return new ProfileGround(along, profile);
}

interface Bounds {
  /** Worst sole at a contact (m), worst joint step in a frame (°), knee flips over the walks. */
  sole: number;
  step: number;
  flips: number;
}

const CASES: {
  name: string;
  character: () => Promise<Character> | Character;
  clip: string;
  loop: boolean;
  bounds: Bounds;
}[] = [
  {
    name: 'robot Walking',
    character: robot,
    clip: 'Walking',
    loop: true,
    bounds: { sole: 0.008, step: 19, flips: 0 },
  },
  { name: 'Fox Walk', character: fox, clip: 'Walk', loop: true, bounds: { sole: 0.18, step: 84, flips: 0 } },
  {
    name: 'CMU 02_01 walk',
    character: () => cmu('cmu_02_01_walk.bvh'),
    clip: '',
    loop: false,
    bounds: { sole: 0.02, step: 23, flips: 0 },
  },
  {
    name: 'CMU 131_01 start-walk-stop',
    character: () => cmu('cmu_131_01_start_walk_stop.bvh'),
    clip: '',
    loop: false,
    bounds: { sole: 0.008, step: 22, flips: 0 },
  },
];

describe.each(CASES)('$name up and down a staircase (17 cm risers, 28 cm treads), 12 placements', (c) => {
  it('stays within what it measured (the targets are open here)', async () => {
    const character = await c.character();
    const clip = (c.clip ? character.clips.get(c.clip) : [...character.clips.values()][0]) as Clip;
    const track = computeContacts(clip, character.rig.legs, { loop: c.loop });
    let along: [number, number] = [0, 1];
    let starts = Array.from({ length: 12 }, (_, k) => -1.3 + 0.05 * k);
    let seconds = clip.duration;
    if (c.loop) {
      const [gx, , gz] = track.groundVelocity;
      const l = Math.hypot(gx, gz);
      along = [-gx / l, -gz / l];
      starts = Array.from({ length: 12 }, (_, k) => 0.5 + 0.05 * k);
      seconds = 8;
    }
    const worst = { sole: 0, step: 0, flips: 0 };
    for (const start of starts) {
      const m = walk({
        clip,
        rig: character.rig,
        track,
        ground: stairs(along, start, 0.28, 0.17),
        scale: character.scale,
        seconds,
      });
      worst.sole = Math.max(worst.sole, summary(m.contactErrors).max);
      worst.step = Math.max(worst.step, m.maxAddedRotationStepDeg);
      worst.flips += m.kneeFlips;
    }
    if (process.env.REPORT) {
      console.log(
        `${c.name} on the staircase: sole ${(100 * worst.sole).toFixed(2)} cm, step ${worst.step.toFixed(1)}°, knee flips ${worst.flips}`,
      );
    }
    expect(worst.sole).toBeLessThanOrEqual(c.bounds.sole);
    expect(worst.step).toBeLessThanOrEqual(c.bounds.step);
    expect(worst.flips).toBeLessThanOrEqual(c.bounds.flips);
  });
});
