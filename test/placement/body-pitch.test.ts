/**
 * A four-legged body pitches to the slope under it: the Fox walking up a 20° plane turns its body
 * nose-up, by about the slope (by default; `maxBodyPitch: 0` keeps it level), and a biped never
 * pitches.
 */
import { describe, expect, it } from 'vitest';
import type { Clip } from '../../src/animation/clip.js';
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import { computeContacts } from '../../src/placement/contacts.js';
import { FootPlacement, type FootPlacementOptions } from '../../src/placement/foot-placement.js';
import { PlaneGround } from '../../src/placement/plane-ground.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { type Character, fox, robot } from './characters.js';

/** tan 20°, sin 20°, cos 20°: the test's data. */
const TAN_20 = 0.36397023426620234;

/**
 * Runs 2 s of the clip in place on a plane rising toward the character's travel (+Z in model
 * space for both characters here), and returns the pitch of the line from the mean hind hip to
 * the mean front hip, world, in degrees (nose-up positive), and the largest per-frame change of it.
 */
function pitchOnSlope(
  character: Character,
  clipName: string,
  front: number[],
  hind: number[],
  options: Partial<FootPlacementOptions> = {},
): { pitch: number; animated: number } {
  const clip = character.clips.get(clipName) as Clip;
  const ground = new PlaneGround([0, 0, 0], [0, 1, -TAN_20]);
  const placement = new FootPlacement(clip.skeleton, character.rig, { ground, ...options });
  placement.setContactTrack(computeContacts(clip, character.rig.legs, { loop: true }));
  const pose = new Pose(clip.skeleton);
  const model = createModelBuffer(clip.skeleton);
  const context = new SamplerContext(clip);
  const s = character.scale;
  const world = [s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1];
  const angle = (m: Float64Array): number => {
    const mean = (legs: number[], k: number) =>
      legs.reduce((a, i) => a + m[16 * character.rig.legs[i].root + 12 + k], 0) / legs.length;
    const dy = mean(front, 1) - mean(hind, 1);
    const dz = mean(front, 2) - mean(hind, 2);
    return (Math.atan2(dy, Math.abs(dz)) * 180) / Math.PI;
  };
  let pitch = 0;
  let animated = 0;
  for (let f = 0; f < 120; f++) {
    const time = f / 60;
    sampleClip(clip, context, time, pose);
    forwardKinematics(pose, model);
    animated = angle(model);
    placement.solve(pose, model, world, 1 / 60, time);
    pitch = angle(model);
  }
  return { pitch, animated };
}

describe('FootPlacement body pitch', () => {
  it('pitches the Fox nose-up on a 20° slope by default, and not with maxBodyPitch 0', async () => {
    const character = await fox();
    // Legs 0, 1 hind; 2, 3 front (characters.ts). The Fox faces +Z in model space.
    const pitched = pitchOnSlope(character, 'Walk', [2, 3], [0, 1]);
    const level = pitchOnSlope(character, 'Walk', [2, 3], [0, 1], { maxBodyPitch: 0 });
    expect(level.pitch - level.animated).toBeCloseTo(0, 6);
    // Toward the slope's 20°, within the smoothing and the legs' own corrections.
    expect(pitched.pitch - pitched.animated).toBeGreaterThan(12);
    expect(pitched.pitch - pitched.animated).toBeLessThan(29);
  });
  it('never pitches a biped', async () => {
    const character = await robot();
    const { pitch, animated } = pitchOnSlope(character, 'Walking', [0], [1], { maxBodyPitch: 0.5 });
    // The robot's two hips side by side: any change of their line's pitch would be a roll of the
    // pelvis, which placement never applies to a biped (only a pelvis offset).
    expect(Math.abs(pitch - animated)).toBeLessThan(1e-6);
  });
});
