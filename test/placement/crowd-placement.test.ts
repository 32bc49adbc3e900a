/**
 * CrowdPlacement on walking RobotExpressive robots: each character gets the bits its own
 * FootPlacement gives it on a Pose of its own (the contacts of its clip, followed when the clip
 * changes), a range places only its characters, and what it cannot place is refused by name.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Clip } from '../../src/animation/clip.js';
import { Clip as ClipClass } from '../../src/animation/clip.js';
import { isTendonError } from '../../src/errors.js';
import { importGltf } from '../../src/io/gltf.js';
import { computeContacts } from '../../src/placement/contacts.js';
import { CrowdPlacement } from '../../src/placement/crowd-placement.js';
import { FootPlacement } from '../../src/placement/foot-placement.js';
import { PlaneGround } from '../../src/placement/plane-ground.js';
import { Crowd } from '../../src/pose/crowd.js';
import { createModelBuffer } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { findRig } from '../../src/rig/find-rig.js';
import { readAsset } from '../helpers/assets.js';

const robot = (await importGltf(readAsset('gltf', 'RobotExpressive.glb'), { source: 'RobotExpressive.glb' }))
  .skeletons[0];
const { skeleton, clips } = robot;
const J = skeleton.jointCount;
const rig = findRig(skeleton);
const clipNamed = (name: string) => clips.find((c) => c.name === name) as Clip;
const walk = clipNamed('Walking');
const run = clipNamed('Running');
// A 20° slope: placement changes the pose, so agreeing says something.
const ground = new PlaneGround([0, 0, 0], [0, 0.9396926207859084, -0.3420201433256687]);

function expectSame(actual: ArrayLike<number>, wanted: ArrayLike<number>, what: string): void {
  expect(actual.length).toBe(wanted.length);
  for (let i = 0; i < actual.length; i++) {
    if (!Object.is(actual[i], wanted[i])) expect.fail(`${what}[${i}]: crowd ${actual[i]}, own ${wanted[i]}`);
  }
}

/** Character c's world: half size, along x, a little higher each. */
function worldOf(c: number): number[] {
  return [0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0, 1.2 * c, 0.03 * c, 0, 1];
}

describe('CrowdPlacement', () => {
  it('places each character as its own FootPlacement would on a Pose of its own, to the bit', () => {
    const count = 5;
    const crowd = new Crowd(skeleton, count);
    const placed = new CrowdPlacement(crowd, rig, { ground });
    const own = Array.from({ length: count }, () => ({
      placement: new FootPlacement(skeleton, rig, { ground }),
      pose: new Pose(skeleton),
      model: createModelBuffer(skeleton),
    }));
    const walkTrack = computeContacts(walk, rig.legs);
    const runTrack = computeContacts(run, rig.legs);
    for (let c = 0; c < count; c++) {
      crowd.setClip(c, walk);
      placed.worlds.set(worldOf(c), 16 * c);
      own[c].placement.setContactTrack(walkTrack);
    }
    // Character 4 fades from the walk into the run: the clip that weighs more leads its feet, at
    // that clip's time (the run's contacts from a weight above 0.5).
    crowd.setBlendClip(4, run);
    let runLeads = false;
    let changed = 0;
    for (let frame = 0; frame < 40; frame++) {
      if (frame === 20) {
        // Character 3 starts running: its placement follows the new clip's contacts.
        crowd.setClip(3, run);
        own[3].placement.setContactTrack(runTrack);
      }
      for (let c = 0; c < count; c++) crowd.times[c] = 0.29 * c + frame / 60;
      // Up past 0.55, then wobbling about 0.5 (the run keeps the lead until the weight is below
      // 0.45), then down: the lead changes twice.
      crowd.blendWeights[4] =
        frame < 24 ? frame / 39 : frame < 32 ? 0.5 + (frame % 2 === 0 ? 0.04 : -0.04) : 0.3;
      crowd.blendTimes[4] = 0.11 + frame / 60;
      const w = crowd.blendWeights[4];
      const led: boolean = runLeads;
      runLeads = runLeads ? w >= 0.45 : w > 0.55;
      if (runLeads !== led || frame === 0) own[4].placement.setContactTrack(runLeads ? runTrack : walkTrack);
      crowd.sample();
      crowd.forwardKinematics();
      for (let c = 0; c < count; c++) {
        const o = own[c];
        o.pose.translations.set(crowd.poseOf(c).translations);
        o.pose.rotations.set(crowd.poseOf(c).rotations);
        o.pose.scales.set(crowd.poseOf(c).scales);
        o.model.set(crowd.modelOf(c));
        o.placement.solve(
          o.pose,
          o.model,
          worldOf(c),
          1 / 60,
          c === 4 && runLeads ? crowd.blendTimes[4] : crowd.times[c],
        );
      }
      const before = crowd.model.slice();
      placed.solve(1 / 60);
      for (let i = 0; i < before.length; i++) if (before[i] !== crowd.model[i]) changed++;
      for (let c = 0; c < count; c++) {
        expectSame(crowd.rotations.subarray(4 * J * c, 4 * J * (c + 1)), own[c].pose.rotations, 'rotations');
        expectSame(
          crowd.translations.subarray(3 * J * c, 3 * J * (c + 1)),
          own[c].pose.translations,
          'translations',
        );
        expectSame(crowd.model.subarray(16 * J * c, 16 * J * (c + 1)), own[c].model, 'model');
      }
    }
    expect(changed).toBeGreaterThan(1000);
  });

  it('gives each character’s own placement: the one its solve uses (switched off, it writes nothing)', () => {
    const crowd = new Crowd(skeleton, 3);
    const placed = new CrowdPlacement(crowd, rig, { ground });
    for (let c = 0; c < 3; c++) crowd.setClip(c, walk);
    const one = placed.placementOf(1);
    expect(placed.placementOf(1)).toBe(one);
    one.setWeight(0, 0);
    crowd.sample();
    crowd.forwardKinematics();
    const before = crowd.model.slice();
    placed.solve(1 / 60);
    const slice = (m: Float64Array, c: number) => m.subarray(16 * J * c, 16 * J * (c + 1));
    expectSame(slice(crowd.model, 1), slice(before, 1), 'character 1, switched off');
    expect(slice(crowd.model, 0).some((x, i) => x !== slice(before, 0)[i])).toBe(true);
    expect(slice(crowd.model, 2).some((x, i) => x !== slice(before, 2)[i])).toBe(true);
    expect(() => placed.placementOf(3)).toThrow(/not in 0 … 2/);
  });

  it('places only the characters of a range, and leaves a character without a clip alone', () => {
    const crowd = new Crowd(skeleton, 4);
    const placed = new CrowdPlacement(crowd, rig, { ground });
    for (let c = 0; c < 3; c++) crowd.setClip(c, walk);
    for (let c = 0; c < 4; c++) crowd.times[c] = 0.2 * c;
    crowd.sample();
    crowd.forwardKinematics();
    const before = crowd.model.slice();
    placed.solve(1 / 60, 1, 3);
    const slice = (m: Float64Array, c: number) => m.subarray(16 * J * c, 16 * J * (c + 1));
    expectSame(slice(crowd.model, 0), slice(before, 0), 'character 0, outside the range');
    expectSame(slice(crowd.model, 3), slice(before, 3), 'character 3, no clip');
    expect(slice(crowd.model, 1).some((x, i) => x !== slice(before, 1)[i])).toBe(true);
    expect(slice(crowd.model, 2).some((x, i) => x !== slice(before, 2)[i])).toBe(true);
  });

  it('asks for each clip’s contacts once, and takes worlds it is given', () => {
    const crowd = new Crowd(skeleton, 3);
    const asked: string[] = [];
    const worlds = new Float64Array(48);
    for (let c = 0; c < 3; c++) worlds.set(worldOf(c), 16 * c);
    const placed = new CrowdPlacement(crowd, rig, {
      ground,
      worlds,
      contacts: (clip) => {
        asked.push(clip.name);
        return clip === run ? null : computeContacts(clip, rig.legs);
      },
    });
    expect(placed.worlds).toBe(worlds);
    for (let c = 0; c < 3; c++) crowd.setClip(c, c === 2 ? run : walk);
    for (let frame = 0; frame < 3; frame++) {
      crowd.sample();
      crowd.forwardKinematics();
      placed.solve(1 / 60);
    }
    expect(asked).toEqual(['Walking', 'Running']);
  });

  it('refuses what it cannot place, by name, with nothing written', () => {
    const crowd = new Crowd(skeleton, 2);
    crowd.setClip(0, walk);
    crowd.setClip(1, walk);
    const codeOf = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return isTendonError(error) ? `${error.code}: ${error.message}` : String(error);
      }
      return 'no error';
    };
    expect(codeOf(() => new CrowdPlacement({} as Crowd, rig, { ground }))).toMatch(/^argument\/invalid/);
    expect(codeOf(() => new CrowdPlacement(crowd, rig, { ground, worlds: new Float64Array(16) }))).toMatch(
      /^pose\/buffer-size/,
    );
    const placed = new CrowdPlacement(crowd, rig, { ground });
    crowd.sample();
    crowd.forwardKinematics();
    const before = crowd.model.slice();
    expect(codeOf(() => placed.solve(1 / 60, 1, 2))).toMatch(/^argument\/invalid/);
    expect(codeOf(() => placed.solve(Number.NaN))).toMatch(/^placement\/invalid-input.*dt/);
    placed.worlds[13] = Number.NaN;
    expect(codeOf(() => placed.solve(1 / 60))).toMatch(/^placement\/invalid-input.*world/);
    expectSame(crowd.model, before, 'model');
    // A world that cannot be inverted is found by the character's own placement: said for it.
    placed.worlds.set(worldOf(0), 0);
    placed.worlds.set([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 16);
    expect(codeOf(() => placed.solve(1 / 60))).toMatch(
      /^placement\/invalid-input: CrowdPlacement.solve, character 1: .*not invertible/,
    );
  });

  it('places a clip without contacts with every foot following the ground, and starts a character over when it comes back', () => {
    const crowd = new Crowd(skeleton, 2);
    // A clip of one key (no duration): no contacts by default.
    const still = ClipClass.create(skeleton, {
      name: 'still',
      tracks: [{ joint: 0, path: 'rotation', times: [0], values: [0, 0, 0, 1] }],
    });
    const placed = new CrowdPlacement(crowd, rig, { ground });
    for (let c = 0; c < 2; c++) {
      crowd.setClip(c, walk);
      placed.worlds.set(worldOf(c), 16 * c);
    }
    const frame = () => {
      for (let c = 0; c < 2; c++) crowd.times[c] += 1 / 60;
      crowd.sample();
      crowd.forwardKinematics();
      placed.solve(1 / 60);
    };
    for (let f = 0; f < 20; f++) frame();
    const one = placed.placementOf(1);
    expect(Array.from(one.planted)).not.toEqual([0, 0]);
    crowd.setClip(1, still);
    frame();
    expect(Array.from(one.contactWeights)).toEqual([1, 1]);
    expect(Array.from(one.planted)).toEqual([0, 0]);
    // Switched off (no clip) and back: its placement starts over, once.
    const reset = vi.spyOn(one, 'reset');
    crowd.setClip(1, null);
    frame();
    frame();
    expect(reset).not.toHaveBeenCalled();
    crowd.setClip(1, walk);
    frame();
    expect(reset).toHaveBeenCalledTimes(1);
    frame();
    expect(reset).toHaveBeenCalledTimes(1);
    // Taken out and given its clip again between two solves (an object pool; a far character on a
    // schedule): told by Crowd.despawns, not by its clip, which reads the same. Until 27 November
    // it kept its locks: legs turned 180° to reach them, feet 1.4 m off the ground.
    expect(crowd.despawns(1)).toBe(1);
    crowd.setClip(1, null);
    crowd.setClip(1, walk);
    expect(crowd.despawns(1)).toBe(2);
    frame();
    expect(reset).toHaveBeenCalledTimes(2);
    frame();
    expect(reset).toHaveBeenCalledTimes(2);
    expect(crowd.despawns(0)).toBe(0);
    // Taking out a character that has no clip takes nothing out.
    const empty = new Crowd(skeleton, 1);
    empty.setClip(0, null);
    expect(empty.despawns(0)).toBe(0);
  });

  it('fails before placing anyone for a bad world, time or contacts in the range', () => {
    const crowd = new Crowd(skeleton, 3);
    for (let c = 0; c < 3; c++) crowd.setClip(c, walk);
    crowd.sample();
    crowd.forwardKinematics();
    const before = crowd.model.slice();
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return isTendonError(error) ? error.code : String(error);
      }
      return 'no error';
    };
    const badWorld = new CrowdPlacement(crowd, rig, { ground });
    badWorld.worlds[16 * 2 + 12] = Number.POSITIVE_INFINITY;
    expect(code(() => badWorld.solve(1 / 60))).toBe('placement/invalid-input');
    expectSame(crowd.model, before, 'model after a bad world');
    // A time set by hand to NaN for the second character: none placed (until 27 November the
    // first was, and the solve stopped at the second).
    const badTime = new CrowdPlacement(crowd, rig, { ground });
    const time = crowd.times[1];
    crowd.times[1] = Number.NaN;
    expect(code(() => badTime.solve(1 / 60))).toBe('placement/invalid-input');
    expectSame(crowd.model, before, 'model after a bad time');
    crowd.times[1] = time;
    // A contacts option that gives no track for the second character's clip.
    crowd.setClip(1, run);
    const badContacts = new CrowdPlacement(crowd, rig, {
      ground,
      contacts: (clip) => (clip === run ? (undefined as unknown as null) : computeContacts(clip, rig.legs)),
    });
    expect(code(() => badContacts.solve(1 / 60))).toBe('placement/invalid-option');
    expectSame(crowd.model, before, 'model after bad contacts');
    expect(
      code(() => new CrowdPlacement(crowd, rig, { ground, worlds: null as unknown as Float64Array })),
    ).toBe('pose/buffer-size');
  });
});
