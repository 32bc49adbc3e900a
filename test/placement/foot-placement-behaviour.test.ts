/**
 * FootPlacement's contract, case by case: exact pass-through at weight 0, typed errors that leave
 * the pose as the animation made it, a hole that eases a foot out, switching off and on mid-clip
 * without a pop, and the limits of its options.
 */
import { describe, expect, it } from 'vitest';
import type { Clip } from '../../src/animation/clip.js';
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import { isTendonError } from '../../src/errors.js';
import { type ContactTrack, computeContacts, legLength } from '../../src/placement/contacts.js';
import { FootPlacement, type FootPlacementOptions, LEG_REPORT } from '../../src/placement/foot-placement.js';
import { type Ground, HIT, RAY } from '../../src/placement/ground.js';
import { HeightfieldGround } from '../../src/placement/heightfield-ground.js';
import { PlaneGround } from '../../src/placement/plane-ground.js';
import {
  createModelBuffer,
  forwardKinematics,
  restModelMatrices,
} from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { findRig } from '../../src/rig/find-rig.js';
import type { LegRig, Rig } from '../../src/rig/limbs.js';
import type { Skeleton } from '../../src/skeleton/skeleton.js';
import { skeletonFromPoints } from '../helpers/skeleton-from-points.js';
import { AddedRotationSteps } from './added-rotation-steps.js';
import { cmu, fox, robot } from './characters.js';
import { syntheticWalker, syntheticWalkerContacts } from './synthetic-walker.js';
import { terrains } from './terrains.js';
import { groundUnder, path, summary, walk } from './walk-harness.js';

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

function setUp(ground: Ground, options: { kick?: boolean } = {}) {
  const walker = syntheticWalker(options);
  const { skeleton, clip, rig } = walker;
  const placement = new FootPlacement(skeleton, rig, { ground });
  const contacts = syntheticWalkerContacts(walker);
  placement.setContactTrack(contacts);
  const pose = new Pose(skeleton);
  const model = createModelBuffer(skeleton);
  const context = new SamplerContext(clip);
  const frame = (time: number) => {
    sampleClip(clip, context, time, pose);
    forwardKinematics(pose, model);
  };
  return { skeleton, clip, rig, placement, pose, model, frame, contacts };
}

/** A ground of y = 0.1 with a hole for x in [−0.2, 0.2]. */
class Hole implements Ground {
  readonly plane = new PlaneGround([0, 0.1, 0], [0, 1, 0]);
  raycast(ray: Float64Array, hit: Float64Array): boolean {
    const x = ray[RAY.origin];
    if (x > -0.2 && x < 0.2) return false;
    return this.plane.raycast(ray, hit);
  }
}

/**
 * The robot at half size walking its clip with a placement over `ground`: the pieces of a frame
 * loop, and the steps of the rotation placement adds.
 */
function walkingRobot(skeleton: Skeleton, rig: Rig, clip: Clip, track: ContactTrack, ground: Ground) {
  const placement = new FootPlacement(skeleton, rig, { ground });
  placement.setContactTrack(track);
  return {
    placement,
    pose: new Pose(skeleton),
    model: createModelBuffer(skeleton),
    context: new SamplerContext(clip),
    world: new Float64Array([0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 1]),
    velocity: new Float64Array(3),
    steps: new AddedRotationSteps(skeleton.jointCount),
  };
}

describe('FootPlacement', () => {
  it('keeps a swing the clip lifts near its hip (a kick), and at a low weight stays near the animation', () => {
    // The swinging foot is aimed no higher than 0.3 legs below its hip (a staircase's guard), but
    // not lower below its hip than the clip itself has it, and only as far as the placement is
    // weighted.
    const worst = (weight: number) => {
      const { placement, pose, model, frame, rig } = setUp(new PlaneGround([0, 0, 0], [0, 1, 0]), {
        kick: true,
      });
      placement.setWeight(weight, 0);
      const foot = 16 * rig.legs[0].foot + 13;
      const hip = 16 * rig.legs[0].root + 13;
      let moved = 0;
      let pulledBelow = 0;
      let high = Number.NEGATIVE_INFINITY;
      for (let f = 0; f < 120; f++) {
        frame(f / 60);
        const animated = model[foot];
        const below = model[hip] - animated;
        high = Math.max(high, -below);
        placement.solve(pose, model, IDENTITY, 1 / 60, f / 60);
        if (placement.planted[0] === 0) {
          moved = Math.max(moved, Math.abs(model[foot] - animated));
          // Where the guard would act: the clip's ankle within 0.3 legs of its hip.
          if (below < 0.3 * 0.82) pulledBelow = Math.max(pulledBelow, model[hip] - model[foot] - below);
        }
      }
      return { moved, pulledBelow, high };
    };
    const full = worst(1);
    // The clip's kick brings the ankle within 0.3 legs of its hip (legs here are 0.82 m) …
    expect(full.high).toBeGreaterThan(-0.3 * 0.82);
    // … and placed, the ankle is no farther below its hip than the clip has it (it was 20 cm).
    expect(full.pulledBelow).toBeLessThan(1e-3);
    // Nearly off, the ankle stays with the animation (it was pulled 20 cm down at weight 1e-6).
    expect(worst(1e-3).moved).toBeLessThan(1e-3);
  });

  it('writes nothing at weight 0 (bit for bit the animation), and eases back in without a jump', () => {
    const { placement, pose, model, frame } = setUp(new PlaneGround([0, 0.1, 0], [0, 1, 0]));
    placement.setWeight(0, 0);
    frame(0.3);
    const rotations = pose.rotations.slice();
    const modelBefore = model.slice();
    placement.solve(pose, model, IDENTITY, 1 / 60, 0.3);
    expect(pose.rotations).toEqual(rotations);
    expect(model).toEqual(modelBefore);
    placement.setWeight(1, 0.25);
    let previousPelvis = placement.pelvisOffset;
    for (let f = 1; f <= 30; f++) {
      frame(0.3 + f / 60);
      placement.solve(pose, model, IDENTITY, 1 / 60, 0.3 + f / 60);
      expect(Math.abs(placement.pelvisOffset - previousPelvis)).toBeLessThan(0.02);
      previousPelvis = placement.pelvisOffset;
    }
    expect(placement.weight).toBe(1);
  });

  it('stands the synthetic walker on a raised floor: soles at contact on it', () => {
    const { placement, pose, model, frame, rig, contacts } = setUp(new PlaneGround([0, 0.1, 0], [0, 1, 0]));
    let planted = 0;
    for (let f = 0; f < 120; f++) {
      frame(f / 60);
      placement.solve(pose, model, IDENTITY, 1 / 60, f / 60);
      for (let i = 0; i < 2; i++) {
        if (placement.planted[i] !== 1) continue;
        planted++;
        const r = LEG_REPORT.length * i;
        expect(placement.report[r + LEG_REPORT.grounded]).toBe(1);
        expect(placement.report[r + LEG_REPORT.groundPoint + 1]).toBeCloseTo(0.1, 12);
        // The ankle above the floor, and the sole (the lower of ankle and toe over its planted
        // height) on it.
        const ankle = model[16 * rig.legs[i].foot + 13];
        expect(ankle).toBeGreaterThan(0.1);
        const sole = Math.min(
          ankle - contacts.footHeights[i],
          model[16 * rig.legs[i].toe + 13] - contacts.toeHeights[i],
        );
        expect(Math.abs(sole - 0.1)).toBeLessThan(0.005);
      }
    }
    // Each foot stands for half the cycle.
    expect(planted).toBeGreaterThan(100);
  });

  it('turns a throwing or NaN ground, or one answering a point off its ray, into placement/ground-failed, the pose untouched', () => {
    const throwing: Ground = {
      raycast() {
        throw new RangeError('boom');
      },
    };
    const nan: Ground = {
      raycast(_ray: Float64Array, hit: Float64Array) {
        hit.fill(Number.NaN);
        return true;
      },
    };
    // A finite point off the ray or past its end (taken until 27 November: a point 1e300 off
    // stood a foot's target there and held the hips down for a second; a hostile test).
    const plane = new PlaneGround([0, 0, 0], [0, 1, 0]);
    const off = (k: number, by: number): Ground => ({
      raycast(ray: Float64Array, hit: Float64Array) {
        if (!plane.raycast(ray, hit)) return false;
        hit[k] += by;
        return true;
      },
    });
    for (const ground of [throwing, nan, off(0, 1e300), off(1, 1e6), off(2, 0.5), off(1, -5)]) {
      const { placement, pose, model, frame } = setUp(ground);
      frame(0.2);
      const before = [pose.translations.slice(), pose.rotations.slice(), model.slice()];
      try {
        placement.solve(pose, model, IDENTITY, 1 / 60, 0.2);
        expect.unreachable();
      } catch (error) {
        expect(isTendonError(error, 'placement/ground-failed')).toBe(true);
        expect((error as Error).message).toContain('left');
      }
      expect([pose.translations, pose.rotations, model]).toEqual(before);
    }
  });

  it('refuses a dt or time that is not a number (a string was read as one)', () => {
    const { placement, pose, model, frame } = setUp(new PlaneGround([0, 0, 0], [0, 1, 0]));
    frame(0.2);
    for (const [dt, time, what] of [
      ['0.016', 0.2, 'dt'],
      [1 / 60, '0.2', 'time'],
    ] as const) {
      expect(() => placement.solve(pose, model, IDENTITY, dt as never, time as never)).toThrow(
        expect.objectContaining({
          code: 'placement/invalid-input',
          message: expect.stringContaining(`${what} is`),
        }),
      );
    }
  });

  it('writes nothing when the ground fails part-way through a frame: not the report, the contacts nor the ease', () => {
    // Until 27 November a ground throwing on its second ray left the first foot's report, the
    // contact weights and planted flags of the frame, and the weight's ease stepped (a hostile test).
    const plane = new PlaneGround([0, 0, 0], [0, 1, 0]);
    let calls = 0;
    let failAt = -1;
    const flaky: Ground = {
      raycast(ray: Float64Array, hit: Float64Array) {
        calls++;
        if (calls === failAt) throw new RangeError('boom');
        return plane.raycast(ray, hit);
      },
    };
    const { placement, pose, model, frame } = setUp(flaky);
    placement.setWeight(0.2, 0.5);
    for (let f = 0; f < 10; f++) {
      frame(f / 60);
      placement.solve(pose, model, IDENTITY, 1 / 60, f / 60);
    }
    frame(0.3);
    const before = [
      placement.report.slice(),
      placement.contactWeights.slice(),
      placement.planted.slice(),
      placement.weight,
    ];
    calls = 0;
    failAt = 2;
    expect(() => placement.solve(pose, model, IDENTITY, 1 / 60, 0.3)).toThrow(
      expect.objectContaining({ code: 'placement/ground-failed' }),
    );
    expect([placement.report, placement.contactWeights, placement.planted, placement.weight]).toEqual(before);
  });

  it('refuses a solve from inside a ground (placements share their scratch), and works after', () => {
    const plane = new PlaneGround([0, 0.1, 0], [0, 1, 0]);
    const inner = setUp(plane);
    inner.frame(0.2);
    let calls = 0;
    const nesting: Ground = {
      raycast(ray: Float64Array, hit: Float64Array) {
        calls++;
        inner.placement.solve(inner.pose, inner.model, IDENTITY, 1 / 60, 0.2);
        return plane.raycast(ray, hit);
      },
    };
    const { placement, pose, model, frame } = setUp(nesting);
    frame(0.2);
    try {
      placement.solve(pose, model, IDENTITY, 1 / 60, 0.2);
      expect.unreachable();
    } catch (error) {
      expect(isTendonError(error, 'placement/ground-failed')).toBe(true);
      const cause = (error as Error).cause;
      expect(isTendonError(cause, 'placement/invalid-input')).toBe(true);
      expect((cause as Error).message).toContain("inside a ground's raycast");
    }
    expect(calls).toBe(1);
    // Neither placement is left refusing: the flag is down after the throw.
    expect(() => inner.placement.solve(inner.pose, inner.model, IDENTITY, 1 / 60, 0.2)).not.toThrow();
  });

  it('gives each placement the same bits whether it runs alone or interleaved with others', () => {
    // The scratch is shared by every placement in a thread: nothing of one may reach the next.
    const grounds = terrains([1, 0], 0);
    const run = (interleave: boolean) => {
      const a = setUp(grounds.bumps);
      const b = setUp(grounds.steps);
      const out: number[] = [];
      for (let f = 0; f < 90; f++) {
        const t = f / 60;
        const world = IDENTITY.slice();
        world[12] = 0.02 * f;
        if (interleave) {
          b.frame(t + 0.37);
          const other = IDENTITY.slice();
          other[0] = other[5] = other[10] = 0.9;
          other[12] = -0.03 * f;
          other[13] = 0.05;
          b.placement.solve(b.pose, b.model, other, 1 / 60, t + 0.37);
        }
        a.frame(t);
        a.placement.solve(a.pose, a.model, world, 1 / 60, t);
        out.push(...a.pose.rotations, ...a.model, ...a.placement.report, a.placement.pelvisOffset);
      }
      return out;
    };
    expect(run(true)).toEqual(run(false));
  });

  it.each([
    ['the robot (effector legs), with the joint-step limit', robot, { maxTurnSpeed: 10.2 }],
    ['the Fox (four legs), with body pitch', fox, { maxBodyPitch: 0.5 }],
  ] as const)('keeps the bits of %s interleaved with another of its kind', async (_, load, options) => {
    const character = await load();
    const clip = [...character.clips.values()][0];
    const track = computeContacts(clip, character.rig.legs);
    const grounds = terrains([0, 1], 0);
    const make = () => {
      const placement = new FootPlacement(clip.skeleton, character.rig, {
        ground: grounds.slope,
        ...options,
      });
      placement.setContactTrack(track);
      return {
        placement,
        pose: new Pose(clip.skeleton),
        model: createModelBuffer(clip.skeleton),
        context: new SamplerContext(clip),
      };
    };
    const run = (interleave: boolean) => {
      const a = make();
      const b = make();
      const out: number[] = [];
      const S = character.scale;
      for (let f = 0; f < 60; f++) {
        const t = f / 60;
        for (const [p, time, z] of interleave
          ? ([
              [b, t + 0.29, -0.4],
              [a, t, 0.3],
            ] as const)
          : ([[a, t, 0.3]] as const)) {
          sampleClip(clip, p.context, time, p.pose);
          forwardKinematics(p.pose, p.model);
          p.placement.solve(
            p.pose,
            p.model,
            [S, 0, 0, 0, 0, S, 0, 0, 0, 0, S, 0, 0, 0, z + 0.01 * f, 1],
            1 / 60,
            time,
          );
        }
        out.push(...a.pose.rotations, ...a.model, ...a.placement.report, a.placement.pelvisOffset);
      }
      return out;
    };
    expect(run(true)).toEqual(run(false));
  });

  it('refuses a pose with NaN in a joint it reads before writing anything, and is whole after', () => {
    // Two placements on the same frames; one is also handed bad poses between them. Before the
    // check, a NaN rotation in a knee threw ik/invalid-target after the pelvis and model were
    // written, and left NaN in the placement's springs: every later solve threw.
    const a = setUp(new PlaneGround([0, 0.05, 0], [0, 1, 0]));
    const b = setUp(new PlaneGround([0, 0.05, 0], [0, 1, 0]));
    const leg = a.rig.legs[0];
    const bad: [string, (pose: Pose, model: Float64Array) => void][] = [
      [
        'a NaN rotation in the knee',
        (pose) => {
          pose.rotations[4 * leg.middle] = Number.NaN;
        },
      ],
      [
        'an infinite translation of the hip',
        (pose) => {
          pose.translations[3 * leg.root + 1] = Number.POSITIVE_INFINITY;
        },
      ],
      [
        'a zero rotation of the foot',
        (pose) => {
          pose.rotations.fill(0, 4 * leg.end, 4 * leg.end + 4);
        },
      ],
      [
        'a NaN in the pelvis model matrix only',
        (_pose, model) => {
          model[16 * a.rig.pelvis + 13] = Number.NaN;
        },
      ],
    ];
    let refused = 0;
    for (let f = 0; f < 40; f++) {
      const time = f / 60;
      a.frame(time);
      b.frame(time);
      if (f % 8 === 4) {
        refused++;
        const [what, spoil] = bad[((f / 8) | 0) % bad.length];
        // The clip does not key every number: the good pose is put back by hand after.
        const good = [b.pose.translations.slice(), b.pose.rotations.slice(), b.model.slice()];
        spoil(b.pose, b.model);
        const poseBefore = [b.pose.translations.slice(), b.pose.rotations.slice(), b.model.slice()];
        let error: unknown = null;
        try {
          b.placement.solve(b.pose, b.model, IDENTITY, 1 / 60, time);
        } catch (e) {
          error = e;
        }
        expect(isTendonError(error, 'pose/not-finite'), what).toBe(true);
        expect((error as Error).message).toMatch(/joint "/);
        // Nothing written.
        expect([...b.pose.translations], what).toEqual([...poseBefore[0]]);
        expect([...b.pose.rotations], what).toEqual([...poseBefore[1]]);
        expect([...b.model], what).toEqual([...poseBefore[2]]);
        b.pose.translations.set(good[0]);
        b.pose.rotations.set(good[1]);
        b.model.set(good[2]);
      }
      a.placement.solve(a.pose, a.model, IDENTITY, 1 / 60, time);
      // The spoiled frames were refused whole: the placement's state is the other's.
      b.placement.solve(b.pose, b.model, IDENTITY, 1 / 60, time);
      expect([...b.model]).toEqual([...a.model]);
      expect([...b.placement.report]).toEqual([...a.placement.report]);
    }
    expect(refused).toBe(5);
  });

  it('brings down a foot planted by hand mid-swing over frames, not in one: ≤ 10° a frame', async () => {
    // A hostile test: a game stopping its character (the track dropped, both feet planted by hand,
    // as the demo does) dropped the swinging foot 37 cm onto the ground in one frame, its knee
    // turning 88°. The clip is held at the stop's frame.
    const { skeleton, clips, rig } = await robot();
    const clip = clips.get('Walking') as Clip;
    const track = computeContacts(clip, rig.legs);
    const ground = new PlaneGround([0, 0, 0], [0, 1, 0]);
    // (Again with reset() two frames into the stop, as after a teleport: the joint-step limit
    // starts afresh then, but the foot still comes down over frames: a reset dropped it 35 cm.)
    for (const [stop, resetAt] of [60, 66, 72, 75, 78, 81, 87, 93, 99, 105, 111, 66, 75, 81].map(
      (stop, k) => [stop, k >= 11 ? stop + 2 : -1],
    )) {
      const { placement, pose, model, context, world, velocity, steps } = walkingRobot(
        skeleton,
        rig,
        clip,
        track,
        ground,
      );
      const height = (leg: number) => {
        const f = 16 * rig.legs[leg].foot;
        return world[1] * model[f + 12] + world[5] * model[f + 13] + world[9] * model[f + 14] + world[13];
      };
      let highest = 0;
      let drop = 0;
      let last = [0, 0];
      for (let f = 0; f < stop + 40; f++) {
        const time = (Math.min(f, stop) / 60) % clip.duration;
        if (f === stop) {
          placement.setContactTrack(null);
          placement.contactWeights.fill(1);
          placement.planted.fill(1);
        }
        if (f === resetAt) placement.reset();
        pose.resetToRest();
        sampleClip(clip, context, time, pose);
        forwardKinematics(pose, model);
        const animated = pose.rotations.slice();
        if (f < stop) {
          track.groundVelocityAt(time, velocity, 0);
          world[14] -= (velocity[2] * 0.5) / 60;
        }
        placement.solve(pose, model, world, 1 / 60, time);
        if (f >= stop - 1) steps.add(animated, pose.rotations);
        const placed = [height(0), height(1)];
        if (f === stop - 1) highest = Math.max(placed[0], placed[1]);
        if (f >= stop) drop = Math.max(drop, last[0] - placed[0], last[1] - placed[1]);
        last = placed;
      }
      if (resetAt < 0) expect(steps.max, `stopped at frame ${stop}`).toBeLessThanOrEqual(10 + 1e-6);
      // Both feet down (the robot's foot joint stands within 2 cm of the ground), none dropped
      // more than 8 cm in a frame (29–37 cm before; the clip itself lowers a foot up to 3 cm a frame there).
      expect(Math.max(height(0), height(1)), `stopped at frame ${stop}`).toBeLessThan(0.02);
      expect(drop, `stopped at frame ${stop} (a foot ${highest.toFixed(2)} m up)`).toBeLessThan(0.08);
    }
  });

  it('lets go of a lock out of reach after a move without reset() (a teleport): ≤ 10° a frame after it, planted feet on the ground', async () => {
    // A hostile test: moved 7.6 m and turned 69° without reset() over bumps, the old locks held,
    // a leg turned 95-161° to reach them and the planted feet stood 0.5-0.85 m off the ground.
    const { skeleton, clips, rig } = await robot();
    const clip = clips.get('Walking') as Clip;
    const track = computeContacts(clip, rig.legs);
    const columns = 161;
    const heights = new Float64Array(columns * columns);
    for (let r = 0; r < columns; r++)
      for (let c = 0; c < columns; c++)
        heights[r * columns + c] = 0.05 * Math.sin(r * 0.9) + 0.04 * Math.cos(c * 1.3);
    const ground = new HeightfieldGround({
      originX: -20,
      originZ: -20,
      cellSize: 0.25,
      columns,
      rows: columns,
      heights,
    });
    for (const teleport of [60, 70]) {
      const { placement, pose, model, context, world, velocity, steps } = walkingRobot(
        skeleton,
        rig,
        clip,
        track,
        ground,
      );
      let highest = 0;
      for (let f = 0; f < teleport + 40; f++) {
        const time = (f / 60) % clip.duration;
        if (f === teleport) {
          // 7 m along x, 3 m along z, turned 1.2 rad about +Y (a cos and sin worked out here).
          world.set([0.5 * 0.362357754, 0, -0.5 * 0.932039086, 0, 0, 0.5, 0, 0], 0);
          world.set([0.5 * 0.932039086, 0, 0.5 * 0.362357754], 8);
          world[12] += 7;
          world[14] += 3;
        }
        track.groundVelocityAt(time, velocity, 0);
        world[12] -= (world[8] * velocity[2]) / 60;
        world[14] -= (world[10] * velocity[2]) / 60;
        world[13] = ground.heightAt(world[12], world[14]);
        pose.resetToRest();
        sampleClip(clip, context, time, pose);
        forwardKinematics(pose, model);
        const animated = pose.rotations.slice();
        placement.solve(pose, model, world, 1 / 60, time);
        if (f >= teleport) steps.add(animated, pose.rotations);
        if (f > teleport + 2) {
          for (let i = 0; i < 2; i++) {
            if (placement.planted[i] !== 1) continue;
            const o = 16 * rig.legs[i].foot;
            const x =
              world[0] * model[o + 12] + world[4] * model[o + 13] + world[8] * model[o + 14] + world[12];
            const y =
              world[1] * model[o + 12] + world[5] * model[o + 13] + world[9] * model[o + 14] + world[13];
            const z =
              world[2] * model[o + 12] + world[6] * model[o + 13] + world[10] * model[o + 14] + world[14];
            highest = Math.max(highest, y - ground.heightAt(x, z));
          }
        }
      }
      // (The teleport's own frame turns the legs at once, as a reset would: its step is not counted.)
      expect(steps.max, `teleported at ${teleport}`).toBeLessThanOrEqual(10 + 1e-6);
      // The robot's foot joint stands about 2 cm above its sole.
      expect(highest, `teleported at ${teleport}`).toBeLessThan(0.04);
    }
  });

  it('refuses contacts set by hand out of range before writing anything, and the next frame is as if it had not come', () => {
    // Two placements driven by hand (docs/placement.md: fill contactWeights 0..1, planted 0 or 1)
    // on the same frames, easing in; one is also handed bad contacts between them. Before the
    // check, a NaN weight threw ik/invalid-target with NaN written into the pose, the model and the
    // pelvis offset, and every later solve threw; a weight of 5 or −3 was taken.
    const a = setUp(new PlaneGround([0, 0.05, 0], [0, 1, 0]));
    const b = setUp(new PlaneGround([0, 0.05, 0], [0, 1, 0]));
    for (const p of [a, b]) {
      p.placement.setContactTrack(null);
      p.placement.setWeight(0, 0);
      p.placement.setWeight(1, 0.3);
    }
    const bad: [string, number, number, RegExp][] = [
      ['NaN', 0, Number.NaN, /contactWeights\[0\] \(leg 'left'\) is NaN/],
      ['5', 1, 5, /contactWeights\[1\] \(leg 'right'\) is 5/],
      ['−3', 0, -3, /contactWeights\[0\] \(leg 'left'\) is -3/],
      ['∞', 1, Number.POSITIVE_INFINITY, /contactWeights\[1\] \(leg 'right'\) is Infinity/],
      ['planted 7', 0, 7, /planted\[0\] \(leg 'left'\) is 7, not 0 or 1/],
    ];
    const fill = (p: typeof a, time: number) => {
      p.contacts.sample(time, 0.1, p.placement.contactWeights, p.placement.planted);
    };
    let refused = 0;
    for (let f = 0; f < 60; f++) {
      const time = f / 60;
      a.frame(time);
      b.frame(time);
      if (f % 7 === 3 && refused < bad.length) {
        const [what, leg, value, message] = bad[refused++];
        if (what.startsWith('planted')) b.placement.planted[leg] = value;
        else b.placement.contactWeights[leg] = value;
        const before = [
          b.pose.translations.slice(),
          b.pose.rotations.slice(),
          b.model.slice(),
          b.placement.report.slice(),
        ];
        const pelvisOffset = b.placement.pelvisOffset;
        const weight = b.placement.weight;
        let error: unknown = null;
        try {
          b.placement.solve(b.pose, b.model, IDENTITY, 1 / 60, time);
        } catch (e) {
          error = e;
        }
        expect(isTendonError(error, 'placement/invalid-input'), what).toBe(true);
        expect((error as Error).message, what).toMatch(message);
        // Nothing written: the pose, the model, the report, the hips, the ease.
        expect([...b.pose.translations], what).toEqual([...before[0]]);
        expect([...b.pose.rotations], what).toEqual([...before[1]]);
        expect([...b.model], what).toEqual([...before[2]]);
        expect([...b.placement.report], what).toEqual([...before[3]]);
        expect(b.placement.pelvisOffset, what).toBe(pelvisOffset);
        expect(b.placement.weight, what).toBe(weight);
      }
      fill(a, time);
      fill(b, time);
      a.placement.solve(a.pose, a.model, IDENTITY, 1 / 60, time);
      // The refused frames left no trace: the next good one is the other's, bit for bit.
      b.placement.solve(b.pose, b.model, IDENTITY, 1 / 60, time);
      expect([...b.pose.translations]).toEqual([...a.pose.translations]);
      expect([...b.pose.rotations]).toEqual([...a.pose.rotations]);
      expect([...b.model]).toEqual([...a.model]);
      expect([...b.placement.report]).toEqual([...a.placement.report]);
      expect(b.placement.pelvisOffset).toBe(a.placement.pelvisOffset);
    }
    expect(refused).toBe(bad.length);
    // Some frames locked a foot and dropped the hips: the contacts were read.
    expect(a.placement.pelvisOffset).not.toBe(0);
  });

  it('does not read contacts set by hand while a track drives them', () => {
    const { placement, pose, model, frame } = setUp(new PlaneGround([0, 0.05, 0], [0, 1, 0]));
    frame(0.2);
    placement.contactWeights[0] = Number.NaN;
    placement.planted[1] = 7;
    expect(() => placement.solve(pose, model, IDENTITY, 1 / 60, 0.2)).not.toThrow();
    expect(placement.contactWeights.every((c) => c >= 0 && c <= 1)).toBe(true);
  });

  it('refuses a contact track that is not a ContactTrack (a JSON copy), changing nothing', () => {
    // Before the check, a parsed JSON copy (legCount kept) was taken and every later solve threw a
    // bare TypeError (this.track.sampleAt is not a function); { legCount: 2 } threw one after
    // replacing the track.
    const a = setUp(new PlaneGround([0, 0.05, 0], [0, 1, 0]));
    const b = setUp(new PlaneGround([0, 0.05, 0], [0, 1, 0]));
    const parsed = JSON.parse(JSON.stringify({ ...b.contacts, legCount: b.contacts.legCount }));
    for (const [what, track] of [
      ['a parsed JSON copy', parsed],
      ['{ legCount: 2 }', { legCount: 2 }],
      ['undefined', undefined],
      ['a number', 2],
    ] as [string, unknown][]) {
      expect(() => b.placement.setContactTrack(track as never, 0.05, 0.05), what).toThrow(
        expect.objectContaining({
          code: 'argument/invalid',
          message: expect.stringMatching(/not a ContactTrack/),
        }),
      );
    }
    // The ramps given with them were not taken either: b solves as a, bit for bit.
    for (let f = 0; f < 30; f++) {
      const time = f / 60;
      a.frame(time);
      b.frame(time);
      a.placement.solve(a.pose, a.model, IDENTITY, 1 / 60, time);
      b.placement.solve(b.pose, b.model, IDENTITY, 1 / 60, time);
      expect([...b.model]).toEqual([...a.model]);
      expect([...b.placement.contactWeights]).toEqual([...a.placement.contactWeights]);
    }
    expect(() => b.placement.setContactTrack(null)).not.toThrow();
  });

  it('refuses NaN in the world matrix, a bad dt and a pose of another skeleton', () => {
    const { placement, pose, model, frame } = setUp(new PlaneGround([0, 0, 0], [0, 1, 0]));
    frame(0);
    const bad = IDENTITY.slice();
    bad[13] = Number.NaN;
    expect(() => placement.solve(pose, model, bad, 1 / 60, 0)).toThrow(
      expect.objectContaining({ code: 'placement/invalid-input' }),
    );
    expect(() => placement.solve(pose, model, IDENTITY, -1, 0)).toThrow(
      expect.objectContaining({ code: 'placement/invalid-input' }),
    );
    const other = new Pose(syntheticWalker().skeleton);
    expect(() => placement.solve(other, model, IDENTITY, 1 / 60, 0)).toThrow(
      expect.objectContaining({ code: 'pose/skeleton-mismatch' }),
    );
    // With a contact track, the clip time is required: left out, the contacts were read at 0 every
    // frame (feet never locked, sliding 2 cm a frame) without a word. Without one, it is not read.
    expect(() => placement.solve(pose, model, IDENTITY, 1 / 60)).toThrow(
      expect.objectContaining({
        code: 'placement/invalid-input',
        message: expect.stringContaining('no time given'),
      }),
    );
    placement.setContactTrack(null);
    placement.contactWeights.fill(1);
    placement.planted.fill(0);
    expect(() => placement.solve(pose, model, IDENTITY, 1 / 60)).not.toThrow();
    // (A string compares as its number: "0.5" and "0.25" s were taken.)
    for (const [goal, ease] of [
      [2, 0.25],
      ['0.5', 0.25],
      [0.5, '0.25'],
    ]) {
      expect(() => placement.setWeight(goal as never, ease as never), String([goal, ease])).toThrow(
        expect.objectContaining({ code: 'placement/invalid-option' }),
      );
    }
    expect(
      () => new FootPlacement(syntheticWalker().skeleton, syntheticWalker().rig, { ground: {} as Ground }),
    ).toThrow(expect.objectContaining({ code: 'placement/invalid-option' }));
    // A forward that is not 3 finite numbers, or is none at all (its state has room for 3).
    const { skeleton, rig } = syntheticWalker();
    const ground = new PlaneGround([0, 0, 0], [0, 1, 0]);
    for (const forward of [
      [0, 1],
      [0, 0, 1, 0],
      [0, Number.NaN, 1],
      [0, 0, 0],
      // Straight up or down: no part along the ground to take a side axis from.
      [0, 1, 0],
      [1e-9, -2, 0],
    ]) {
      expect(
        () =>
          new FootPlacement(skeleton, rig, {
            ground,
            forward: forward as unknown as [number, number, number],
          }),
      ).toThrow(expect.objectContaining({ code: 'placement/invalid-option' }));
    }
    // An edge clearance outside [0, 1] legs, or not a number.
    for (const edgeClearance of [-0.1, 1.5, Number.NaN, '0.1']) {
      expect(
        () => new FootPlacement(skeleton, rig, { ground, edgeClearance: edgeClearance as number }),
      ).toThrow(expect.objectContaining({ code: 'placement/invalid-option' }));
    }
    // Lengths and times with no upper bound still finite: rayAbove Infinity was taken, and every
    // solve then threw ground-failed, blaming the ground (a hostile test).
    for (const key of [
      'rayAbove',
      'rayBelow',
      'lockRadius',
      'footSmoothTime',
      'groundEaseTime',
      'anticipation',
    ]) {
      expect(
        () => new FootPlacement(skeleton, rig, { ground, [key]: Number.POSITIVE_INFINITY }),
        key,
      ).toThrow(
        expect.objectContaining({
          code: 'placement/invalid-option',
          message: expect.stringContaining(`${key} = Infinity is not a finite number ≥ 0`),
        }),
      );
    }
    // A joint-step limit slower than 3 rad/s (0.05 a frame at 60 Hz): 0.6 held a swinging leg back
    // until its solve, taken whole, jumped 54° in a frame (a hostile test).
    for (const maxTurnSpeed of [0.6, 6e-5, 2.99, 0, -1, Number.NaN, '10' as unknown as number]) {
      expect(() => new FootPlacement(skeleton, rig, { ground, maxTurnSpeed }), `${maxTurnSpeed}`).toThrow(
        expect.objectContaining({
          code: 'placement/invalid-option',
          message: expect.stringContaining(`maxTurnSpeed = ${String(maxTurnSpeed)} is not a number ≥ 3`),
        }),
      );
    }
    for (const maxTurnSpeed of [3, 10.47, 1e6, Number.POSITIVE_INFINITY]) {
      expect(() => new FootPlacement(skeleton, rig, { ground, maxTurnSpeed })).not.toThrow();
    }
    // The per-solve option it replaced is refused by name (its 0, "off", is no speed), not ignored.
    for (const maxJointStep of [0, 0.1745]) {
      const old = { ground, maxJointStep } as unknown as FootPlacementOptions;
      expect(() => new FootPlacement(skeleton, rig, old)).toThrow(
        expect.objectContaining({
          code: 'placement/invalid-option',
          message: expect.stringContaining('maxJointStep (radians a solve) is now maxTurnSpeed'),
        }),
      );
    }
    // Any array of 3 (a typed array too), as before the check.
    const typed = new Float64Array([0, 0, 1]) as unknown as [number, number, number];
    expect(() => new FootPlacement(skeleton, rig, { ground, forward: typed })).not.toThrow();
  });

  it('eases a foot out over a hole (never switched), and back in past it', () => {
    const { placement, pose, model, frame } = setUp(new Hole());
    const world = IDENTITY.slice();
    const weights: number[] = [];
    for (let f = 0; f < 180; f++) {
      world[12] = -0.9 + (1.8 * f) / 180;
      frame(f / 60);
      placement.solve(pose, model, world, 1 / 60, f / 60);
      weights.push(placement.report[LEG_REPORT.weight]);
    }
    expect(Math.min(...weights)).toBe(0);
    expect(weights[weights.length - 1]).toBe(1);
    for (let k = 1; k < weights.length; k++) expect(Math.abs(weights[k] - weights[k - 1])).toBeLessThan(0.13);
  });

  it('places the feet the same whether their heights come from setFootHeights or the option', () => {
    const ground = new PlaneGround([0, 0.05, 0], [0, 1, 0.2]);
    const { skeleton, clip, rig } = syntheticWalker();
    const heights = [0.07, 0.09];
    const targets = (set: boolean) => {
      const placement = new FootPlacement(skeleton, rig, set ? { ground } : { ground, footHeights: heights });
      if (set) placement.setFootHeights(heights);
      const pose = new Pose(skeleton);
      const model = createModelBuffer(skeleton);
      sampleClip(clip, new SamplerContext(clip), 0.3, pose);
      forwardKinematics(pose, model);
      placement.solve(pose, model, IDENTITY, 1 / 60);
      return Array.from(placement.report);
    };
    expect(targets(true)).toEqual(targets(false));
  });

  it('moves the hips about as far as its weight: at 1%, under 2% of a 15 cm drop (the Fox)', async () => {
    // The landing's pull on the hips is weighted as the targets are (a foot heading for ground
    // lower than the ground it passes over drew the full drop at any weight). Not exactly 1%: the
    // Fox's front legs stand straight in the clip, so their reach takes a little more.
    const character = await fox();
    const clip = character.clips.get('Walk') as Clip;
    const placement = new FootPlacement(clip.skeleton, character.rig, {
      ground: new PlaneGround([0, -0.15, 0], [0, 1, 0]),
    });
    placement.setContactTrack(computeContacts(clip, character.rig.legs, { loop: true }));
    placement.setWeight(0.01, 0);
    const pose = new Pose(clip.skeleton);
    const model = createModelBuffer(clip.skeleton);
    const context = new SamplerContext(clip);
    const s = character.scale;
    const world = [s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1];
    let most = 0;
    for (let f = 0; f < 120; f++) {
      sampleClip(clip, context, f / 60, pose);
      forwardKinematics(pose, model);
      placement.solve(pose, model, world, 1 / 60, f / 60);
      most = Math.max(most, Math.abs(placement.pelvisOffset));
    }
    expect(most).toBeGreaterThan(0.001);
    expect(most).toBeLessThan(0.02 * 0.15);
  });

  it('raises the pelvis no faster than maxRiseSpeed legs per second (CMU walk up steps)', () => {
    const { character, clip, walkOver } = cmuWalk();
    const rises = (options: { maxRiseSpeed?: number }) => {
      let fastest = 0;
      let highest = 0;
      let last = Number.NaN;
      walkOver('steps', {
        options,
        trace: (_f, placement) => {
          const now = placement.pelvisOffset;
          if (!Number.isNaN(last)) fastest = Math.max(fastest, (now - last) * 60);
          highest = Math.max(highest, now);
          last = now;
        },
      });
      return { fastest, highest };
    };
    // The capture's shorter leg, hip to ankle, in metres (the pelvis offset is in world units).
    const rest = restModelMatrices(clip.skeleton);
    const leg = Math.min(...character.rig.legs.map((l) => legLength(rest, l))) * character.scale;
    const slow = rises({});
    expect(slow.highest).toBeGreaterThan(0.02);
    expect(slow.fastest).toBeLessThanOrEqual(0.2 * leg + 1e-9);
    expect(rises({ maxRiseSpeed: Number.POSITIVE_INFINITY }).fastest).toBeGreaterThan(0.2 * leg);
  });

  it('switched off and on mid-clip, moves no joint more than 10° in a frame (CMU walk)', () => {
    const off = cmuWalk().walkOver('flat', { toggle: [60, 110] });
    expect(off.maxAddedRotationStepDeg).toBeLessThanOrEqual(10);
    expect(summary(off.contactErrors).mean).toBeLessThan(0.01);
  });

  it('after reset() places the hips as a fresh placement would (no state of the pose before it)', () => {
    const character = cmu('cmu_02_01_walk.bvh');
    const clip = [...character.clips.values()][0];
    const { skeleton, rig } = character;
    const track = computeContacts(clip, rig.legs, { loop: false });
    const ground = terrains([0, 1], -1.3).steps;
    const s = character.scale;
    const world = [s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1];
    const make = () => {
      const placement = new FootPlacement(skeleton, rig, { ground });
      placement.setContactTrack(track);
      return placement;
    };
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    const context = new SamplerContext(clip);
    const at = (placement: FootPlacement, f: number) => {
      sampleClip(clip, context, f / 60, pose);
      forwardKinematics(pose, model);
      // The character's origin on the ground under its pelvis, as a game's controller keeps it.
      const p = 16 * rig.pelvis + 12;
      world[13] = groundUnder(ground, s * model[p], s * model[p + 2])?.[1] ?? 0;
      placement.solve(pose, model, world, 1 / 60, f / 60);
      return placement.pelvisOffset;
    };
    const walked = make();
    let deepest = 0;
    for (let f = 0; f < 155; f++) deepest = Math.min(deepest, at(walked, f));
    // It had the hips well down on the steps before the teleport.
    expect(deepest).toBeLessThan(-0.05);
    walked.reset();
    const fresh = at(make(), 155);
    expect(Math.abs(at(walked, 155) - fresh)).toBeLessThan(0.005);
  });

  // Where the hips stand well below the animation's (down a slope, a step; CMU 131_01's turn), the
  // pelvis once lagged behind the easing feet (its rise is limited) and the pass-through at weight
  // 0 dropped the rest in a frame: 28° on CMU 131_01 switched off at frame 430, 49° and 52° on CMU
  // 02_01's steps at 106 and slope at 75. The pelvis is now weighted as the targets are.
  // And a foot whose heading is held (CMU 131_01 turning a flat foot, 25° by frame 207) turns back
  // as the placement eases out, not at once: switched off there, no step beyond the walk's own
  // 8.8° (with the turn unweighted, the joint-step limit held the pop to its 10°).
  // Easing in on CMU 131_01's bumps from frame 300, the hips 13 cm down at full weight for a foot
  // over a trough sank with the weight's rise on top of their own (3.1 cm in a frame, a knee turning
  // 11.9°): the weighted pelvis now sinks no faster than a standing knee may bend.
  it.each([
    ['cmu_131_01_start_walk_stop.bvh', 'flat', 430, 10],
    ['cmu_02_01_walk.bvh', 'steps', 106, 10],
    ['cmu_02_01_walk.bvh', 'slope', 75, 10],
    ['cmu_131_01_start_walk_stop.bvh', 'flat', 200, 9],
    ['cmu_131_01_start_walk_stop.bvh', 'bumps', 250, 10],
  ] as const)(
    'switched off and on over %s on %s from frame %i: no joint more than %i° in a frame',
    (file, terrain, f0, most) => {
      const m = cmuWalk(file).walkOver(terrain, { toggle: [f0, f0 + 50] });
      expect(m.maxAddedRotationStepDeg).toBeLessThanOrEqual(most);
    },
  );

  // Switched off over a short ease, the legs went back to the animation at the ease's end in one
  // frame, however far the joint-step limit still held them from it (40.8° at CMU 02_01's knee on
  // the slope, off at frame 70 over 0.1 s): at weight 0 the solve now goes on until the limit has
  // taken them back, and only then passes the animation through.
  it.each([
    ['cmu_02_01_walk.bvh', 'slope', 70],
    ['cmu_131_01_start_walk_stop.bvh', 'slope', 314],
  ] as const)(
    'switched off over 0.1 s over %s on %s from frame %i: no joint more than 10° in a frame, then the animation',
    (file, terrain, f0) => {
      let through = -1;
      const m = cmuWalk(file).walkOver(terrain, {
        toggle: [f0, 1e9],
        toggleEase: 0.1,
        trace: (f, _placement, model, animated) => {
          if (through < 0 && f > f0 && model.every((x, k) => x === animated[k])) through = f;
        },
      });
      expect(m.maxAddedRotationStepDeg).toBeLessThanOrEqual(10 + 1e-9);
      // The animation itself, bit for bit, within 0.25 s of the switch.
      expect(through).toBeGreaterThan(f0);
      expect(through).toBeLessThanOrEqual(f0 + 15);
    },
  );

  // Once the legs are back on the animation, a solve at weight 0 is a pass-through again: it asks
  // the ground nothing. With keys stored as float32 (as three's are), conj(a)·a is no unit
  // quaternion, and a test of 1 − w² never passed: the solve went on for good. And an ease of 0
  // switches at once, however much the joint-step limit still holds.
  it.each([
    ['float32 keys, switched off over 0.1 s', 0.1],
    ['switched off at once', 0],
  ] as const)('CMU 02_01 on the slope, %s: the animation passed through, the ground not asked', (_, ease) => {
    const { character, clip } = cmuWalk('cmu_02_01_walk.bvh');
    const skeleton = clip.skeleton;
    const slope = terrains([0, 1], -1.3).slope;
    let rays = 0;
    const ground: Ground = {
      raycast: (ray, hit) => {
        rays++;
        return slope.raycast(ray, hit);
      },
    };
    const placement = new FootPlacement(skeleton, character.rig, { ground });
    placement.setContactTrack(computeContacts(clip, character.rig.legs, { loop: false }));
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    const animated = createModelBuffer(skeleton);
    const context = new SamplerContext(clip);
    const S = character.scale;
    const world = [S, 0, 0, 0, 0, S, 0, 0, 0, 0, S, 0, 0, 0, 0, 1];
    const f0 = 70;
    let heldAtSwitch = false;
    let through = -1;
    for (let f = 0; f < f0 + 40; f++) {
      const t = f / 60;
      sampleClip(clip, context, t, pose);
      const r = pose.rotations;
      for (let k = 0; k < r.length; k++) r[k] = Math.fround(r[k]);
      forwardKinematics(pose, animated);
      model.set(animated);
      if (f === f0) placement.setWeight(0, ease);
      rays = 0;
      placement.solve(pose, model, world, 1 / 60, t);
      const same = model.every((x, k) => x === animated[k]);
      if (f === f0 - 1) heldAtSwitch = !same;
      if (f >= f0 && through < 0 && same && rays === 0) through = f;
      if (through >= 0) {
        expect(rays).toBe(0);
        expect(same).toBe(true);
      }
    }
    expect(heldAtSwitch).toBe(true);
    if (ease === 0) expect(through).toBe(f0);
    else {
      expect(through).toBeGreaterThan(f0);
      expect(through).toBeLessThanOrEqual(f0 + 20);
    }
  });

  // The weighted pelvis held to the knees' rate may not stand above what a planted foot's weighted
  // target lets its leg reach: held without that, a sole stood 2.1 cm short for 15 frames after
  // CMU 131_01 was switched on again over the bumps at frame 450.
  it('switched on again over CMU 131_01’s bumps: every planted foot reaches its target as placement eases in', () => {
    const { character, walkOver } = cmuWalk('cmu_131_01_start_walk_stop.bvh');
    let worst = 0;
    let frames = 0;
    walkOver('bumps', {
      toggle: [400, 450],
      trace: (f, placement) => {
        if (f < 450 || f > 480) return;
        for (let i = 0; i < 2; i++) {
          if (placement.planted[i] === 0) continue;
          frames++;
          const error = placement.report[i * LEG_REPORT.length + LEG_REPORT.error] * character.scale;
          if (error > worst) worst = error;
        }
      },
    });
    expect(frames).toBeGreaterThan(20);
    expect(worst).toBeLessThan(0.001);
  });
});

/**
 * The Fox's body pitch is blended with the animation's by the weight, as its pelvis and feet are:
 * sprung toward the weighted targets, it lagged as placement eased out, a planted front paw stood
 * up to 6.8 cm out of reach, and at weight 0 the elbow took it back in a frame (55° switched off at
 * frame 80 on the slope, 55° at 190, where the walk's own worst step is 25°).
 */
describe('FootPlacement on four legs, switched off and on', () => {
  it.each([80, 190])(
    'over the slope from frame %i: no step beyond the walk’s own by more than 2°',
    async (f0) => {
      const character = await fox();
      const clip = character.clips.get('Walk') as Clip;
      const track = computeContacts(clip, character.rig.legs, { loop: true });
      const [gx, , gz] = track.groundVelocity;
      const l = Math.hypot(gx, gz);
      const ground = terrains([-gx / l, -gz / l], 0.5).slope;
      const run = (toggle?: [number, number]) =>
        walk({ clip, rig: character.rig, track, ground, scale: character.scale, seconds: 6, toggle });
      const own = run().maxAddedRotationStepDeg;
      expect(run([f0, f0 + 40]).maxAddedRotationStepDeg).toBeLessThanOrEqual(own + 2);
    },
  );

  // Where the joint-step limit holds a planted paw off its solve, the limit yields only as far as
  // the paw needs (bisection): a leg that took its whole solve there turned an elbow 47.7° in a
  // frame, switched off at frame 68 over the steps (its walk's own worst, 34.4°).
  it('over the steps from frame 68: no step beyond the walk’s own by more than 2°', async () => {
    const { run } = await foxWalk('steps');
    const own = run().maxAddedRotationStepDeg;
    expect(run({ toggle: [68, 108] }).maxAddedRotationStepDeg).toBeLessThanOrEqual(own + 2);
  });

  // The body's pitch is held to the joint-step limit too: switched back on over 0.05 s on the
  // slope, the weight brought the pitch in within three frames and the pelvis turned 13.8° in one
  // beyond the clip's own turn (frame 91).
  it('switched on over 0.05 s or 0.01 s on the slope: the pelvis turns within 10° a frame beyond the clip', async () => {
    const { character, run } = await foxWalk('slope');
    const pelvis = character.rig.pelvis;
    const worst = run({ toggle: [50, 90], toggleEase: 0.05 });
    expect(worst.maxStepBeyondClipDeg).toBeLessThanOrEqual(12);
    expect(worst.beyondClipAt[1] === pelvis && worst.maxStepBeyondClipDeg > 10).toBe(false);
    // From the first frame back on, too (it was a fresh start for the pitch: 28.3° over 0.01 s).
    const quick = run({ toggle: [50, 90], toggleEase: 0.01 });
    expect(quick.beyondClipAt[1] === pelvis && quick.maxStepBeyondClipDeg > 10).toBe(false);
  });

  // Nor while it eases to a weight between 0 and 1: the lag would have to close at once where
  // that ease ends.
  it('eased to a weight of 0.5 on the slope: every planted paw stands at its target', async () => {
    const { character, run } = await foxWalk('slope');
    const off = plantedOffTarget(character.rig.legs);
    run({
      trace: (f, placement, model, _animated, world) => {
        if (f === 60) placement.setWeight(0.5, 0.25);
        if (f >= 60) off.see(placement, model, world);
      },
    });
    expect(off.frames()).toBeGreaterThan(300);
    expect(off.worst()).toBeLessThan(0.01);
  });

  // A planted foot may lag its solve while placement switches, not at a steady weight below 1:
  // allowed at any weight below 1 (for a day), the Fox's planted paws stood up to 6.6 cm off
  // their targets at weight 0.8 on the slope, and slid 4.9 cm.
  it('at a steady weight of 0.8 on the slope: every planted paw stands at its target', async () => {
    const { character, run } = await foxWalk('slope');
    const off = plantedOffTarget(character.rig.legs);
    run({
      trace: (f, placement, model, _animated, world) => {
        if (f === 0) placement.setWeight(0.8, 0);
        if (f >= 10) off.see(placement, model, world);
      },
    });
    expect(off.frames()).toBeGreaterThan(500);
    expect(off.worst()).toBeLessThan(0.01);
  });
});

/**
 * Robot Walking switched off at frame f0 and on 40 frames later: its left knee, which the clip
 * snaps straight 14° a frame, jumped 13.2° / 14.8° / 14.2° as placement eased out or in (a planted
 * foot's leg took its solve whole wherever the joint-step limit held the foot 1% of a leg off it).
 * While placement switches a planted foot may now lag its solve, and then the limit yields only
 * as far as the foot needs.
 */
describe('FootPlacement on the robot, switched off and on', () => {
  it.each([
    ['bumps', 248, 0.25],
    ['slope', 134, 0.25],
    ['steps', 74, 0.25],
    // The limit has 0.2 s after an ease in to catch up: without, 29.4° as a 0.1 s ease ended.
    ['slope', 92, 0.1],
    // Switched on again, the first frame is limited from the animation the legs stood at (it was
    // a fresh start, unlimited: 19.0°).
    ['slope', 98, 0.1],
  ] as const)(
    'over the %s from frame %i, eased over %f s: no joint more than 10° in a frame',
    async (terrain, f0, ease) => {
      const character = await robot();
      const clip = character.clips.get('Walking') as Clip;
      const track = computeContacts(clip, character.rig.legs, { loop: true });
      const [gx, , gz] = track.groundVelocity;
      const l = Math.hypot(gx, gz);
      const ground = terrains([-gx / l, -gz / l], 0.5)[terrain];
      // Once switched on again (the ease over), each planted foot stands at its target, in metres.
      const off = plantedOffTarget(character.rig.legs);
      const m = walk({
        clip,
        rig: character.rig,
        track,
        ground,
        scale: character.scale,
        seconds: 6,
        toggle: [f0, f0 + 40],
        toggleEase: ease,
        trace: (f, placement, model, _animated, world) => {
          if (f >= f0 + 40 + 15) off.see(placement, model, world);
        },
      });
      expect(m.maxAddedRotationStepDeg).toBeLessThanOrEqual(10 + 1e-9);
      expect(off.frames()).toBeGreaterThan(20);
      expect(off.worst()).toBeLessThan(0.005);
    },
  );
});

describe('FootPlacement where the ground creases', () => {
  // The bumps laid from 0.72 m back: the right heel stands where the first slope (21°) rises from
  // flat ground as the foot pushes off. The normal at the heel's hit turned 12° in a frame there,
  // the foot's turn (smoothed) did not, and the toe's rise, read off the heel's plane, dropped the
  // foot 1.8 cm into the slope. The plane is now the one the foot is turned to.
  it('stands no sole in the ground (CMU 02_01, the bumps from −0.72 m)', () => {
    const m = cmuWalk('cmu_02_01_walk.bvh', -0.72).walkOver('bumps', {});
    expect(Math.max(...m.sunk)).toBeLessThanOrEqual(0.01);
  });
});

/**
 * The farthest a planted foot's joint stands from its target (world units) over the frames it is
 * shown (`see`, after each solve), and how many planted feet it saw.
 */
function plantedOffTarget(legs: readonly LegRig[]) {
  let worst = 0;
  let frames = 0;
  const see = (placement: FootPlacement, model: Float64Array, world: Float64Array) => {
    legs.forEach((leg, i) => {
      if (placement.planted[i] === 0) return;
      const r = LEG_REPORT.length * i + LEG_REPORT.target;
      const o = 16 * leg.foot + 12;
      let d2 = 0;
      for (let k = 0; k < 3; k++) {
        const at =
          world[k] * model[o] + world[4 + k] * model[o + 1] + world[8 + k] * model[o + 2] + world[12 + k];
        d2 += (at - placement.report[r + k]) ** 2;
      }
      worst = Math.max(worst, Math.sqrt(d2));
      frames++;
    });
  };
  return { see, worst: () => worst, frames: () => frames };
}

/** The Fox's Walk along its ground velocity over one of the test terrains, 6 s. */
async function foxWalk(terrain: string) {
  const character = await fox();
  const clip = character.clips.get('Walk') as Clip;
  const track = computeContacts(clip, character.rig.legs, { loop: true });
  const [gx, , gz] = track.groundVelocity;
  const l = Math.hypot(gx, gz);
  const ground = terrains([-gx / l, -gz / l], 0.5)[terrain];
  const run = (more: Partial<Parameters<typeof walk>[0]> = {}) =>
    walk({ clip, rig: character.rig, track, ground, scale: character.scale, seconds: 6, ...more });
  return { character, run };
}

/** CMU 02_01's walk along +Z over one of the test terrains, with more of the harness's options. */
function cmuWalk(file = 'cmu_02_01_walk.bvh', start = -1.3) {
  const character = cmu(file);
  const clip = [...character.clips.values()][0];
  const track = computeContacts(clip, character.rig.legs, { loop: false });
  const walkOver = (terrain: string, more: Partial<Parameters<typeof walk>[0]>) =>
    walk({
      clip,
      rig: character.rig,
      track,
      ground: terrains([0, 1], start)[terrain],
      scale: character.scale,
      seconds: clip.duration,
      ...more,
    });
  return { character, clip, walkOver };
}

void HIT;

describe('FootPlacement at other frame rates', () => {
  // The joint-step limit is a speed (maxTurnSpeed, radians a second), scaled to each solve's dt
  // from a 60 Hz frame up. As radians a solve (0.1.0's maxJointStep) it held a 30 Hz walk to half
  // the speed: the robot's soles stood 0.37 cm off the steps and 0.20 cm off flat ground at
  // contacts, its planted feet slid 0.33–0.36 cm.
  it.each(['flat', 'steps'] as const)(
    'places the robot walking on %s at 30 Hz as at 60 (no faster than maxTurnSpeed), and at 144 Hz',
    async (terrain) => {
      const character = await robot();
      const clip = character.clips.get('Walking') as Clip;
      const track = computeContacts(clip, character.rig.legs, { loop: true });
      const { along, start } = path(clip, character.rig.pelvis, character.scale, track.groundVelocity);
      const ground = terrains(along, start)[terrain];
      const speedDeg = (0.1745 * 60 * 180) / Math.PI;
      for (const fps of [30, 60, 144]) {
        const m = walk({ clip, rig: character.rig, track, ground, scale: character.scale, seconds: 6, fps });
        // Above 60 Hz, a 60 Hz frame's worth a solve (FRAME_FLOOR).
        const most = fps > 60 ? speedDeg / 60 : speedDeg / fps;
        expect(m.maxAddedRotationStepDeg, `${fps} Hz`).toBeLessThanOrEqual(most + 1e-6);
        expect(m.kneeFlips, `${fps} Hz`).toBe(0);
        expect(summary(m.contactErrors).max, `${fps} Hz`).toBeLessThan(0.001);
        expect(summary(m.slides).max, `${fps} Hz`).toBeLessThan(0.001);
      }
    },
  );
});

describe('FootPlacement on a character facing −Z', () => {
  // VRM 0.x models face −Z. Until 27 November placement took +Z whatever the rig: a straight rest
  // leg bent its knee backwards (31 cm behind the hip–ankle line, crouched 15 cm).
  it("bends straight rest legs toward the way the rig faces (findRig's forward), as given by hand", () => {
    const names = ['hips', 'spine', 'leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'leftToes'];
    names.push('rightUpperLeg', 'rightLowerLeg', 'rightFoot', 'rightToes');
    const at = [
      [0, 1, 0],
      [0, 1.3, 0],
      [0.09, 0.93, 0],
      [0.09, 0.5, 0],
      [0.09, 0.08, 0],
      [0.09, 0.02, -0.14],
      [-0.09, 0.93, 0],
      [-0.09, 0.5, 0],
      [-0.09, 0.08, 0],
      [-0.09, 0.02, -0.14],
    ];
    const parents = [-1, 0, 0, 2, 3, 4, 0, 6, 7, 8];
    const skeleton = skeletonFromPoints(names.map((name, j) => ({ name, parent: parents[j], at: at[j] })));
    const rig = findRig(skeleton);
    expect(rig.forward).toEqual([0, 0, -1]);
    const kneeAhead = (options: Partial<FootPlacementOptions>) => {
      const placement = new FootPlacement(skeleton, rig, {
        ground: new PlaneGround([0, 0, 0], [0, 1, 0]),
        ...options,
      });
      const pose = new Pose(skeleton);
      const model = createModelBuffer(skeleton);
      for (let f = 0; f < 60; f++) {
        placement.contactWeights.fill(1);
        placement.planted.fill(1);
        pose.resetToRest();
        // Crouched 15 cm, as an animation would: the legs must bend.
        pose.translations[1] -= 0.15;
        forwardKinematics(pose, model);
        placement.solve(pose, model, IDENTITY, 1 / 60, f / 60);
      }
      // How far the left knee stands toward −Z from the line from hip to ankle.
      const z = (j: number) => model[16 * j + 14];
      return -(z(3) - (z(2) + z(4)) / 2);
    };
    expect(kneeAhead({})).toBeGreaterThan(0.1);
    expect(kneeAhead({ forward: [0, 0, -1] })).toBe(kneeAhead({}));
    expect(kneeAhead({ forward: [0, 0, 1] })).toBeLessThan(-0.1);
  });
});
