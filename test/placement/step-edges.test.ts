/**
 * Feet landing anywhere on a step: the steps terrain of the walk table slid along the path 2 cm at
 * a time, so that over 30 walks every phase of the stride meets a step's edge (a heel on one
 * level and a toe over the other, a toe on a step's nose, a foot pushing off from an edge). The
 * walk table's single placement of the terrain hid a foot dropping 15 cm mid-contact here.
 */
import { describe, expect, it } from 'vitest';
import type { Clip } from '../../src/animation/clip.js';
import { computeContacts } from '../../src/placement/contacts.js';
import { type Character, cmu, fox, robot } from './characters.js';
import { terrains } from './terrains.js';
import { summary, walk } from './walk-harness.js';

/**
 * Per clip, the bounds where a target (soles within 1 cm and none in the ground, IK steps within
 * 10°) is not met yet: what was measured when they were set, rounded up; docs/placement.md says
 * why.
 */
const CLIPS = [
  { file: 'cmu_02_01_walk.bvh', sole: 0.011, sunk: 0.01, step: 24 },
  { file: 'cmu_131_01_start_walk_stop.bvh', sole: 0.01, sunk: 0.01, step: 41 },
];

describe.each(CLIPS)(
  '$file up and down 15 cm steps, the steps slid 2 cm at a time',
  ({ file, sole: soleBound, sunk: sunkBound, step }) => {
    it('soles on the ground at every contact, none in it, no flips', () => {
      const character = cmu(file);
      const clip = [...character.clips.values()][0];
      const track = computeContacts(clip, character.rig.legs, { loop: false });
      let sole = 0;
      let sunk = 0;
      let flips = 0;
      let worstStep = 0;
      const rows: string[] = [];
      for (let k = 0; k < 30; k++) {
        const start = -1.3 + 0.02 * k;
        const m = walk({
          clip,
          rig: character.rig,
          track,
          ground: terrains([0, 1], start).steps,
          scale: character.scale,
          seconds: clip.duration,
        });
        const e = summary(m.contactErrors).max;
        const d = summary(m.sunk).max;
        sole = Math.max(sole, e);
        sunk = Math.max(sunk, d);
        flips += m.kneeFlips;
        worstStep = Math.max(worstStep, m.maxAddedRotationStepDeg);
        rows.push(
          `${start.toFixed(2)} m: sole ${(100 * e).toFixed(3)} cm, sunk ${(100 * d).toFixed(3)} cm, step ${m.maxAddedRotationStepDeg.toFixed(1)}°`,
        );
      }
      if (process.env.REPORT) console.log(`${file}\n${rows.join('\n')}`);
      expect(sole).toBeLessThanOrEqual(soleBound);
      expect(sunk).toBeLessThanOrEqual(sunkBound);
      expect(flips).toBe(0);
      expect(worstStep).toBeLessThanOrEqual(step);
    });
  },
);

/**
 * The looping clips (in place: they travel at the ground's speed), the steps slid 3 cm at a time
 * over 20 walks of 6 s: a tread of 60 cm. The Fox's bounds are far from the targets: docs/placement.md.
 */
const LOOPS: {
  name: string;
  character: () => Promise<Character>;
  clip: string;
  sole: number;
  /** How many of the 20 walks may have a contact more than 1 cm off. */
  off: number;
  step: number;
}[] = [
  { name: 'robot Walking', character: robot, clip: 'Walking', sole: 0.01, off: 0, step: 22 },
  { name: 'Fox Walk', character: fox, clip: 'Walk', sole: 0.151, off: 6, step: 61 },
];

describe.each(LOOPS)('$name up and down 15 cm steps, the steps slid 3 cm at a time', (c) => {
  it('soles on the ground at every contact, none in it, no flips (targets or open bounds)', async () => {
    const character = await c.character();
    const clip = character.clips.get(c.clip) as Clip;
    const track = computeContacts(clip, character.rig.legs, { loop: true });
    const [gx, , gz] = track.groundVelocity;
    const l = Math.hypot(gx, gz);
    const along: [number, number] = [-gx / l, -gz / l];
    let sole = 0;
    let sunk = 0;
    let flips = 0;
    let worstStep = 0;
    let off = 0;
    const rows: string[] = [];
    for (let k = 0; k < 20; k++) {
      const start = 0.5 + 0.03 * k;
      const m = walk({
        clip,
        rig: character.rig,
        track,
        ground: terrains(along, start).steps,
        scale: character.scale,
        seconds: 6,
      });
      const e = summary(m.contactErrors).max;
      const d = summary(m.sunk).max;
      sole = Math.max(sole, e);
      sunk = Math.max(sunk, d);
      flips += m.kneeFlips;
      worstStep = Math.max(worstStep, m.maxAddedRotationStepDeg);
      if (e > 0.01) off++;
      rows.push(
        `${start.toFixed(2)} m: sole ${(100 * e).toFixed(3)} cm, sunk ${(100 * d).toFixed(3)} cm, step ${m.maxAddedRotationStepDeg.toFixed(1)}°`,
      );
    }
    if (process.env.REPORT) console.log(`${c.name}\n${rows.join('\n')}`);
    expect(sole).toBeLessThanOrEqual(c.sole);
    expect(off).toBeLessThanOrEqual(c.off);
    expect(sunk).toBeLessThanOrEqual(0.01);
    expect(flips).toBe(0);
    expect(worstStep).toBeLessThanOrEqual(c.step);
  });
});
