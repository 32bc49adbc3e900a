/**
 * A pose given again without being animated since (a clip with no channel for a joint a controller
 * writes, sampled over a pose that was not reset): each controller turns from where it found its
 * joints, not from its own last answer, and gives the bits a pose reset every frame gives.
 */
import { describe, expect, it } from 'vitest';
import { Clip } from '../../src/animation/clip.js';
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import { TendonError } from '../../src/errors.js';
import { BarHang } from '../../src/placement/bar-hang.js';
import { computeContacts } from '../../src/placement/contacts.js';
import { FootPlacement } from '../../src/placement/foot-placement.js';
import type { Ground } from '../../src/placement/ground.js';
import { HeightfieldGround } from '../../src/placement/heightfield-ground.js';
import { LadderClimb } from '../../src/placement/ladder-climb.js';
import { LookAt } from '../../src/placement/look-at.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import type { Skeleton } from '../../src/skeleton/skeleton.js';
import { robot } from './characters.js';

/** Bumps 10 cm high every 2 m along z, on a 20 m square. */
function bumps(): HeightfieldGround {
  const columns = 81;
  const heights = new Float64Array(columns * columns);
  for (let r = 0; r < columns; r++)
    for (let c = 0; c < columns; c++) heights[r * columns + c] = r % 8 === 4 ? 0.1 : 0;
  return new HeightfieldGround({
    originX: -10,
    originZ: -10,
    cellSize: 0.25,
    columns,
    rows: columns,
    heights,
  });
}

/**
 * Runs `frames` frames of `clip` through `step` twice, once resetting the pose to rest before each
 * sample and once not, and returns each frame's rotations, translations and model matrices of both.
 */
function bothWays(
  skeleton: Skeleton,
  clip: Clip,
  frames: number,
  make: () => (pose: Pose, model: Float64Array, f: number) => void,
): { reset: Float64Array[]; given: Float64Array[] } {
  const run = (reset: boolean) => {
    const step = make();
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    const context = new SamplerContext(clip);
    const out: Float64Array[] = [];
    for (let f = 0; f < frames; f++) {
      if (reset) pose.resetToRest();
      sampleClip(clip, context, f / 60, pose);
      forwardKinematics(pose, model);
      step(pose, model, f);
      out.push(Float64Array.of(...pose.rotations, ...pose.translations, ...model));
    }
    return out;
  };
  return { reset: run(true), given: run(false) };
}

/** The frames of the two runs equal to the bit; the number of frames where a controller wrote. */
function expectSame(runs: { reset: Float64Array[]; given: Float64Array[] }): void {
  for (let f = 0; f < runs.reset.length; f++) {
    const a = runs.reset[f];
    const b = runs.given[f];
    let first = -1;
    for (let k = 0; k < a.length && first < 0; k++) if (!Object.is(a[k], b[k])) first = k;
    expect(first, `frame ${f}: first number that differs`).toBe(-1);
  }
}

describe('a pose not animated since the last update', () => {
  it('FootPlacement: a walk whose clip has no hips translation nor foot channels, switched off and on', async () => {
    const { skeleton, clips, rig } = await robot();
    const walking = clips.get('Walking') as Clip;
    const raw = walking.toRaw();
    const feet = new Set(rig.legs.map((leg) => leg.foot));
    const clip = Clip.create(skeleton, {
      name: 'Walking, no hips translation, no feet',
      duration: walking.duration,
      tracks: raw.tracks.filter((t) => {
        const j = typeof t.joint === 'number' ? t.joint : skeleton.jointIndex(t.joint);
        return !(j === rig.pelvis && t.path === 'translation') && !feet.has(j);
      }),
    });
    const track = computeContacts(walking, rig.legs);
    const ground = bumps();
    const runs = bothWays(skeleton, clip, 240, () => {
      const placement = new FootPlacement(skeleton, rig, { ground });
      placement.setContactTrack(track);
      const world = new Float64Array([0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, -5, 1]);
      return (pose, model, f) => {
        world[14] += 0.011;
        if (f === 90) placement.setWeight(0, 0.25);
        if (f === 150) placement.setWeight(1, 0.25);
        placement.solve(pose, model, world, 1 / 60, f / 60);
      };
    });
    expectSame(runs);
  });

  it('BarHang and LadderClimb over Idle (no arm channels), eased out', async () => {
    const { skeleton, clips, rig, scale } = await robot();
    const idle = clips.get('Idle') as Clip;
    expectSame(
      bothWays(skeleton, idle, 200, () => {
        const hang = new BarHang(skeleton, rig, { from: [-2, 2.4, 0], to: [2, 2.4, 0], scale });
        return (pose, model, f) => {
          // (A reset forgets the swing, not what the hang wrote into the pose.)
          if (f === 60) hang.reset();
          if (f === 100) hang.setWeight(0, 0.5);
          hang.update(pose, model, 1 / 60, 0);
        };
      }),
    );
    expectSame(
      bothWays(skeleton, idle, 200, () => {
        const climb = new LadderClimb(skeleton, rig, {
          ladder: { bottom: [1, 0, 2], facing: [0, -1], rungCount: 10, spacing: 0.3 },
          scale,
        });
        return (pose, model, f) => {
          if (f === 120) climb.setWeight(0, 0.5);
          climb.update(pose, model, 0.02, 1 / 60);
        };
      }),
    );
  });

  it('LookAt over Idle (no torso channel), reset mid-look and eased out', async () => {
    const { skeleton, clips, rig } = await robot();
    const idle = clips.get('Idle') as Clip;
    expectSame(
      bothWays(skeleton, idle, 200, () => {
        const look = new LookAt(skeleton, rig);
        const world = [0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 1];
        return (pose, model, f) => {
          if (f === 60) look.reset();
          if (f === 120) look.setWeight(0, 0.3);
          look.solve(pose, model, [f < 60 ? 3 : -3, 1.6, 1], world, 1 / 60);
        };
      }),
    );
  });

  it('a ground that throws after the pose was given back: the pose is left as it was given', async () => {
    const { skeleton, clips, rig } = await robot();
    const idle = clips.get('Idle') as Clip;
    let fail = false;
    const plane: Ground = {
      raycast(ray, hit) {
        if (fail) throw new Error('the level unloaded');
        const t = ray[1] / -ray[4];
        if (!(t >= 0 && t <= ray[6])) return false;
        hit.set([ray[0] + t * ray[3], 0, ray[2] + t * ray[5], 0, 1, 0, t]);
        return true;
      },
    };
    // Hands-set contacts, both feet on the ground, 5 cm below the animation's: the hips drop.
    const placement = new FootPlacement(skeleton, rig, { ground: plane });
    placement.contactWeights.fill(1);
    const world = [0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0, 0, -0.05, 0, 1];
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    sampleClip(idle, new SamplerContext(idle), 0, pose);
    forwardKinematics(pose, model);
    placement.solve(pose, model, world, 1 / 60, 0);
    expect(placement.pelvisOffset).not.toBe(0);
    // Given again as it was left: the ground throws once the placement has put it back.
    const given = [pose.rotations.slice(), pose.translations.slice(), model.slice()];
    fail = true;
    expect(() => placement.solve(pose, model, world, 1 / 60, 1 / 60)).toThrow(TendonError);
    expect([pose.rotations, pose.translations, model]).toEqual(given);
    // And the next frames, the pose still not animated since, are placed as if that one had not
    // come: as a twin that never met the failing ground, given its pose as it was given it.
    fail = false;
    const twin = new FootPlacement(skeleton, rig, { ground: plane });
    twin.contactWeights.fill(1);
    const twinPose = new Pose(skeleton);
    const twinModel = createModelBuffer(skeleton);
    sampleClip(idle, new SamplerContext(idle), 0, twinPose);
    forwardKinematics(twinPose, twinModel);
    twin.solve(twinPose, twinModel, world, 1 / 60, 0);
    for (let f = 1; f < 30; f++) {
      placement.solve(pose, model, world, 1 / 60, f / 60);
      twin.solve(twinPose, twinModel, world, 1 / 60, f / 60);
    }
    expect(pose.translations).toEqual(twinPose.translations);
    expect(pose.rotations).toEqual(twinPose.rotations);
  });
});
