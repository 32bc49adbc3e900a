/**
 * Switches placement off and on at every `step`-th frame of a walk and reports the largest joint
 * step IK adds in any of those walks, and the most IK turns a joint beyond the clip's own turn:
 * the sweeps behind docs/placement-details.md's "Weights". Each walk is the walk table's (test/placement/walk-harness.ts) with
 * `setWeight(0, 0.25)` at frame f and `setWeight(1, 0.25)` 50 frames later (40, over 6 s of
 * walk, for the looping clips of the Fox and the robot).
 *
 *   npx tsx scripts/switch-sweep.ts cmu_02_01_walk.bvh slope 2
 *   npx tsx scripts/switch-sweep.ts cmu_131_01_start_walk_stop.bvh bumps 4
 *   npx tsx scripts/switch-sweep.ts fox flat 6
 *   npx tsx scripts/switch-sweep.ts robot steps 6
 *   npx tsx scripts/switch-sweep.ts robot slope 6 0.5   (each switch eased over 0.5 s, not 0.25)
 *
 * Terrains: flat, slope, steps, bumps. Deterministic: the same numbers on every run.
 */
import type { Clip } from '../src/animation/clip.js';
import { computeContacts } from '../src/placement/contacts.js';
import { cmu, fox, robot } from '../test/placement/characters.js';
import { terrains } from '../test/placement/terrains.js';
import { walk } from '../test/placement/walk-harness.js';

const [who = 'cmu_02_01_walk.bvh', terrain = 'flat', stepArg = '4', easeArg = '0.25'] = process.argv.slice(2);
const step = Number(stepArg);
if (!(Number.isInteger(step) && step >= 1)) throw new Error(`step ${stepArg}: an integer ≥ 1`);
const toggleEase = Number(easeArg);
if (!(toggleEase >= 0 && Number.isFinite(toggleEase))) throw new Error(`ease ${easeArg}: seconds ≥ 0`);

// The Fox's Walk and the robot's Walking loop in place; the captures travel and end.
const loops = who === 'fox' || who === 'robot';
const character = who === 'fox' ? await fox() : who === 'robot' ? await robot() : cmu(who);
const clip = loops
  ? (character.clips.get(who === 'fox' ? 'Walk' : 'Walking') as Clip)
  : ([...character.clips.values()][0] as Clip);
const track = computeContacts(clip, character.rig.legs, { loop: loops });
// The looping clips walk along their ground velocity over terrain laid from 0.5 ahead (as the
// four-legged tests do); the captures along +Z from 1.3 back.
const [gx, , gz] = track.groundVelocity;
const length = Math.hypot(gx, gz);
const grounds = loops ? terrains([-gx / length, -gz / length], 0.5) : terrains([0, 1], -1.3);
const ground = grounds[terrain as keyof typeof grounds];
if (ground === undefined) throw new Error(`terrain ${terrain}: flat, slope, steps or bumps`);
const seconds = loops ? 6 : clip.duration;
const gap = loops ? 40 : 50;
const frames = Math.round(seconds * 60);
const options = { clip, rig: character.rig, track, ground, scale: character.scale, seconds };
const alone = walk(options);
const base = alone.maxAddedRotationStepDeg;
let worst = 0;
let worstAt = -1;
// Beside the rotation IK adds: how much faster than the clip IK turns a joint (the walk table's
// "beyond the clip"), which a clip's own snap that IK holds back does not raise.
let worstBeyond = 0;
let tried = 0;
const over: string[] = [];
for (let f0 = loops ? 20 : 10; f0 < frames - 60; f0 += step) {
  const m = walk({ ...options, toggle: [f0, f0 + gap], toggleEase });
  tried++;
  if (m.maxStepBeyondClipDeg > worstBeyond) worstBeyond = m.maxStepBeyondClipDeg;
  if (m.maxAddedRotationStepDeg > worst) {
    worst = m.maxAddedRotationStepDeg;
    worstAt = f0;
  }
  if (m.maxAddedRotationStepDeg > 10.01) {
    over.push(
      `  off at ${f0}: ${m.maxAddedRotationStepDeg.toFixed(1)}° at frame ${m.maxStepAt[0]}, joint ${m.maxStepAt[1]}`,
    );
  }
}
console.log(
  `${who} on ${terrain}: ${tried} switches every ${step} frames, eased over ${toggleEase} s; the walk alone ${base.toFixed(1)}°, ` +
    `the worst switch ${worst.toFixed(1)}° (off at frame ${worstAt}); beyond the clip's, ` +
    `the walk alone ${alone.maxStepBeyondClipDeg.toFixed(1)}°, the worst switch ${worstBeyond.toFixed(1)}°`,
);
console.log(over.length > 0 ? `over 10°:\n${over.join('\n')}` : 'none over 10°');
