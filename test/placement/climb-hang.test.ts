/**
 * The robot (no climbing animation: procedural over its Idle clip) climbs a ladder of 10 rungs 30 cm
 * apart, from the ground below onto the ground above and back down, and hangs from a bar swinging
 * for 5 s and moving along it: every gripping hand and foot within 1 cm of its rung or the bar, no
 * joint turned more than 10° from one frame to the next by the IK.
 */
import { describe, expect, it } from 'vitest';
import type { Clip } from '../../src/animation/clip.js';
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import { isTendonError } from '../../src/errors.js';
import { BarHang, HANG_HAND } from '../../src/placement/bar-hang.js';
import { CLIMB_LIMB, LadderClimb } from '../../src/placement/ladder-climb.js';
import {
  createModelBuffer,
  forwardKinematics,
  restModelMatrices,
} from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { findRig } from '../../src/rig/find-rig.js';
import { AddedRotationSteps } from './added-rotation-steps.js';
import { cmu, robot } from './characters.js';

/** The robot over its Idle clip: the character, a sampler on the clip, and the poses a frame uses. */
async function idleRobot() {
  const character = await robot();
  const { skeleton, rig } = character;
  const idle = character.clips.get('Idle') as Clip;
  return {
    character,
    skeleton,
    rig,
    idle,
    context: new SamplerContext(idle),
    animated: new Pose(skeleton),
    pose: new Pose(skeleton),
    model: createModelBuffer(skeleton),
  };
}

function worldOf(W: Float64Array, m: Float64Array, joint: number): number[] {
  const p = [m[16 * joint + 12], m[16 * joint + 13], m[16 * joint + 14]];
  return [0, 1, 2].map((k) => W[k] * p[0] + W[4 + k] * p[1] + W[8 + k] * p[2] + W[12 + k]);
}

/** The farther of a hang's gripping hands from its grip on the bar, world units (0 when none grips). */
function gripError(hang: BarHang, model: Float64Array): number {
  let worst = 0;
  for (let h = 0; h < 2; h++) {
    const o = h * HANG_HAND.length;
    if (hang.report[o + HANG_HAND.gripping] !== 1) continue;
    const p = worldOf(hang.world, model, hang.arms[h].end);
    worst = Math.max(
      worst,
      Math.hypot(p[0] - hang.report[o], p[1] - hang.report[o + 1], p[2] - hang.report[o + 2]),
    );
  }
  return worst;
}

/** Climbs `climb` up and back down at `rate` rungs a second over the robot's Idle clip. */
function climbUpAndDown(
  robot: Awaited<ReturnType<typeof idleRobot>>,
  climb: LadderClimb,
  rate: number,
  afterUpdate?: () => void,
) {
  const { skeleton, rig, idle, context, animated, pose, model } = robot;
  const steps = new AddedRotationSteps(skeleton.jointCount);
  const feet = [rig.legs[0].foot, rig.legs[1].foot];
  let maxError = 0;
  let gripping = 0;
  let top = Number.NEGATIVE_INFINITY;
  const dt = 1 / 60;
  const frames = Math.ceil((climb.end - climb.start) / rate / dt) + 30;
  for (let f = 0; f < 2 * frames; f++) {
    sampleClip(idle, context, f * dt, animated);
    pose.copyFrom(animated);
    forwardKinematics(pose, model);
    climb.update(pose, model, (f < frames ? 1 : -1) * rate * dt);
    afterUpdate?.();
    steps.add(animated.rotations, pose.rotations);
    top = Math.max(top, climb.progress);
    for (let i = 0; i < 4; i++) {
      const r = CLIMB_LIMB.length * i;
      if (climb.report[r + CLIMB_LIMB.gripping] !== 1) continue;
      const joint = i % 2 === 1 ? feet[i === 1 ? 0 : 1] : climb.limbs[i].end;
      const p = worldOf(climb.world, model, joint);
      maxError = Math.max(
        maxError,
        Math.hypot(p[0] - climb.report[r], p[1] - climb.report[r + 1], p[2] - climb.report[r + 2]),
      );
      gripping++;
    }
  }
  return { top, maxError, gripping, maxStep: steps.max };
}

/** Up to the top and back down, gripping limbs within 1 cm of their rungs, ≤ 10° a frame. */
function expectClimbed(climb: LadderClimb, m: ReturnType<typeof climbUpAndDown>): void {
  expect(m.top).toBe(climb.end);
  expect(climb.progress).toBe(climb.start);
  expect(m.gripping).toBeGreaterThan(2000);
  expect(m.maxError).toBeLessThanOrEqual(0.01);
  expect(m.maxStep).toBeLessThanOrEqual(10);
}

describe('LadderClimb', () => {
  it('climbs rungs wide for the robot one rung a move: 0.40 m apart, grips within 1 cm, ≤ 10° per frame', async () => {
    // Two rungs a move, a gripping hand rose 0.6 m against its shoulder while it held: past the
    // arm's reach at the top (5.7 cm off its rung, 24° a frame at 1.2 rungs a second until
    // 27 November; a hostile test). One rung a move, both hands on one rung, it rises 0.3 m.
    const robot = await idleRobot();
    const { character, skeleton, rig } = robot;
    const ladder = {
      bottom: [1, 0, 2] as [number, number, number],
      facing: [0, -1] as [number, number],
      rungCount: 8,
    };
    const climb = new LadderClimb(skeleton, rig, {
      ladder: { ...ladder, spacing: 0.4 },
      scale: character.scale,
    });
    expect(climb.step).toBe(1);
    const m = climbUpAndDown(robot, climb, 0.6);
    expectClimbed(climb, m);
    // 0.3 m apart: two rungs a move, as the robot climbs its ladder below; asked for, one.
    expect(
      new LadderClimb(skeleton, rig, { ladder: { ...ladder, spacing: 0.3 }, scale: character.scale }).step,
    ).toBe(2);
    const asked = new LadderClimb(skeleton, rig, {
      ladder: { ...ladder, spacing: 0.3 },
      scale: character.scale,
      rungsPerMove: 1,
    });
    expect(asked.step).toBe(1);
    for (const rungsPerMove of [0, 3, 1.5, '2', Number.NaN]) {
      expect(
        () =>
          new LadderClimb(skeleton, rig, {
            ladder: { ...ladder, spacing: 0.3 },
            rungsPerMove: rungsPerMove as never,
          }),
        String(rungsPerMove),
      ).toThrow(
        expect.objectContaining({
          code: 'placement/invalid-option',
          message: expect.stringContaining('rungsPerMove'),
        }),
      );
    }
  });

  it('climbs the robot up 10 rungs and back down: grips within 1 cm, ≤ 10° per frame', async () => {
    const robot = await idleRobot();
    const climb = new LadderClimb(robot.skeleton, robot.rig, {
      ladder: { bottom: [1, 0, 2], facing: [0, -1], rungCount: 10, spacing: 0.3 },
      scale: robot.character.scale,
    });
    expect(climb.step).toBe(2);
    const m = climbUpAndDown(robot, climb, 1.2);
    expectClimbed(climb, m);
  });

  it('stands below the ladder with both hands on rungs, none hovering mid-move, and climbs on from there', async () => {
    // Standing, the hands' progress stands still with the body: until 27 November, where it stood
    // within a hand's move, that hand hovered mid-arc off the ladder for as long as the character
    // stood (the robot on 0.3 m rungs: its right hand two rungs a move, its left one; a review).
    const robot = await idleRobot();
    const { skeleton, rig, character, idle, context, animated, pose, model } = robot;
    // (At 0.6 rungs a second on the widest rungs, as the test above climbs them.)
    for (const [spacing, rungsPerMove, rate] of [
      [0.25, 2, 1.2],
      [0.3, 2, 1.2],
      [0.3, 1, 1.2],
      [0.4, 1, 0.6],
    ] as const) {
      const climb = new LadderClimb(skeleton, rig, {
        ladder: { bottom: [1, 0, 2], facing: [0, -1], rungCount: 10, spacing },
        scale: character.scale,
        rungsPerMove,
      });
      let standing = 0;
      let hovering = 0;
      // A second standing still, then on up the first rungs.
      for (let f = 0; f < 60; f++) {
        sampleClip(idle, context, f / 60, animated);
        pose.copyFrom(animated);
        forwardKinematics(pose, model);
        climb.update(pose, model, 0);
        if (climb.world[13] !== 0) continue;
        standing++;
        for (const i of [0, 2]) {
          if (climb.report[CLIMB_LIMB.length * i + CLIMB_LIMB.gripping] !== 1) hovering++;
        }
      }
      expect(standing, `${spacing} m, ${rungsPerMove}`).toBe(60);
      expect(hovering, `${spacing} m, ${rungsPerMove}`).toBe(0);
      expectClimbed(climb, climbUpAndDown(robot, climb, rate));
    }
  });

  it('keeps the body on the ground while a foot stands there below a first rung higher than a spacing', async () => {
    // The body's height below the first rung was taken a spacing a rung: with the first rung at
    // 0.6 m on 0.3 m rungs the robot rose 11 cm while a foot stood on the ground, that leg
    // stretched past reach (a hand 8 cm off its rung, 33° a frame) until 27 November.
    const robot = await idleRobot();
    const { skeleton, rig, character } = robot;
    for (const [firstRung, bound] of [
      [0.45, 10.5],
      [0.6, 12.5],
    ] as const) {
      const climb = new LadderClimb(skeleton, rig, {
        ladder: { bottom: [1, 0, 2], facing: [0, -1], rungCount: 10, spacing: 0.3, firstRung },
        scale: character.scale,
      });
      let lifted = 0;
      let onGround = 0;
      const m = climbUpAndDown(robot, climb, 1.2, () => {
        for (const i of [1, 3]) {
          const r = CLIMB_LIMB.length * i;
          if (climb.report[r + CLIMB_LIMB.gripping] === 1 && climb.report[r + CLIMB_LIMB.rung] === -1) {
            onGround++;
            lifted = Math.max(lifted, climb.world[13]);
          }
        }
      });
      expect(onGround, String(firstRung)).toBeGreaterThan(200);
      expect(lifted, String(firstRung)).toBeLessThanOrEqual(1e-9);
      expect(m.top).toBe(climb.end);
      expect(m.maxError, String(firstRung)).toBeLessThanOrEqual(0.01);
      // Over the 10° target: the first foot's step onto rung 1 rises 0.75 m and 0.9 m in the time a
      // step of 0.6 m takes on even rungs (docs/placement.md, limits).
      expect(m.maxStep, String(firstRung)).toBeLessThanOrEqual(bound);
    }
  });

  it('keeps a hand on the ladder while the feet climb, up the rails past the last rung, on short ladders too', async () => {
    // Until 27 November a hand let go once its next rung was past the top: the robot climbed its
    // last 4 rungs by its feet alone, hands hanging half a metre from the ladder, and on a ladder
    // of 5 rungs or fewer the hands never gripped (a hostile test).
    const robot = await idleRobot();
    const { skeleton, rig, idle, context, animated, pose, model } = robot;
    for (const rungCount of [3, 10]) {
      const climb = new LadderClimb(skeleton, rig, {
        ladder: { bottom: [0, 0, 0], facing: [0, 1], rungCount, spacing: 0.3 },
        scale: robot.character.scale,
      });
      let handsFree = 0;
      let handGrips = 0;
      let worst = 0;
      for (let f = 0; climb.progress < climb.end; f++) {
        sampleClip(idle, context, f / 60, animated);
        pose.copyFrom(animated);
        forwardKinematics(pose, model);
        climb.update(pose, model, 1.2 / 60);
        const r = (i: number, k: number) => climb.report[CLIMB_LIMB.length * i + k];
        // A foot on a rung, and the climb not yet within two and a half rungs of its top (the hands
        // let go while the feet climb their last rung, before the body moves over): some hand holds.
        const footOnRung =
          climb.progress < rungCount - 2.5 &&
          [1, 3].some((i) => r(i, CLIMB_LIMB.gripping) === 1 && r(i, CLIMB_LIMB.rung) >= 0);
        const hands = [0, 2].filter((i) => r(i, CLIMB_LIMB.gripping) === 1);
        if (footOnRung && hands.length === 0) handsFree++;
        handGrips += hands.length;
        for (const i of hands) {
          const p = worldOf(climb.world, model, climb.limbs[i].end);
          worst = Math.max(worst, Math.hypot(p[0] - r(i, 0), p[1] - r(i, 1), p[2] - r(i, 2)));
        }
      }
      expect(handsFree, `${rungCount} rungs`).toBe(0);
      expect(handGrips, `${rungCount} rungs`).toBeGreaterThan(100);
      expect(worst, `${rungCount} rungs`).toBeLessThan(0.01);
    }
  });

  it("holds the rails' tops still: no arc away from a grip to the same grip (its height an ulp apart)", async () => {
    // A review: 15 rungs 0.27 apart, rails 0.54 over the last: the grip meant for the top came out
    // an ulp under it, and the hand holding the top arced 6.75 cm away and back.
    const { skeleton, rig, scale } = await robot();
    const climb = new LadderClimb(skeleton, rig, {
      ladder: { bottom: [0, 0, 0], facing: [0, 1], rungCount: 15, spacing: 0.27, railHeight: 0.54 },
      scale,
    });
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    const railTop = 0.27 + 14 * 0.27 + 0.54;
    let atTop = 0;
    for (let f = 0; climb.progress < climb.end; f++) {
      forwardKinematics(pose.resetToRest(), model);
      climb.update(pose, model, 0.02);
      for (const i of [0, 2]) {
        const r = CLIMB_LIMB.length * i;
        if (climb.report[r + 1] < railTop - 1e-9 || climb.report[r + CLIMB_LIMB.weight] === 0) continue;
        atTop++;
        expect(Math.abs(climb.report[r + 2])).toBeLessThan(1e-9);
      }
    }
    expect(atTop).toBeGreaterThan(10);
  });

  it('on the ladder, moves one limb at a time, each onto the next rung but one', async () => {
    const { skeleton, rig, scale } = await robot();
    const climb = new LadderClimb(skeleton, rig, {
      ladder: { bottom: [0, 0, 0], facing: [1, 0], rungCount: 10, spacing: 0.3 },
      scale,
    });
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    const held = [Number.NaN, Number.NaN, Number.NaN, Number.NaN];
    for (let k = 0; k < 400; k++) {
      forwardKinematics(pose.resetToRest(), model);
      climb.update(pose, model, 0.02);
      let moving = 0;
      for (let i = 0; i < 4; i++) {
        const r = CLIMB_LIMB.length * i;
        if (climb.report[r + CLIMB_LIMB.gripping] === 0 && climb.report[r + CLIMB_LIMB.weight] > 0) moving++;
        const rung = climb.report[r + CLIMB_LIMB.rung];
        if (
          !Number.isNaN(rung) &&
          rung >= 0 &&
          rung < 10 &&
          !Number.isNaN(held[i]) &&
          held[i] >= 0 &&
          held[i] < 10 &&
          rung !== held[i]
        ) {
          expect(rung - held[i]).toBe(2);
        }
        if (!Number.isNaN(rung)) held[i] = rung;
      }
      // On the ground below and above, hands and feet step to their own rhythm.
      if (climb.progress > 1 && climb.progress < 6) expect(moving).toBeLessThanOrEqual(1);
    }
  });

  it('climbs the same at any length of the ladder’s facing, 1e-200 to 1e200', async () => {
    // Until 27 November its length was squared: 1e-200 was refused as zero, 3e-162 squashed the
    // climber 4.6%, and 1e200 flattened it (its world's x and z columns 0), no error (a hostile test).
    const { skeleton, rig, scale } = await robot();
    const run = (length: number) => {
      const climb = new LadderClimb(skeleton, rig, {
        ladder: { bottom: [0, 0, 0], facing: [0.6 * length, -0.8 * length], rungCount: 10, spacing: 0.3 },
        scale,
      });
      const pose = new Pose(skeleton);
      const model = createModelBuffer(skeleton);
      for (let k = 0; k < 60; k++) {
        forwardKinematics(pose.resetToRest(), model);
        climb.update(pose, model, 0.02);
      }
      return [...climb.world, ...climb.report, ...pose.rotations];
    };
    const unit = run(1);
    // To rounding: the facing is divided by its larger component, whose ratio to the other rounds.
    for (const length of [1e-200, 3e-162, 1e-3, 1e3, 1e200]) {
      const numbers = run(length);
      // (The report's rung is NaN where a limb holds none: the same in both.)
      const off = Math.max(
        ...numbers.map((v, k) =>
          Number.isNaN(unit[k]) ? (Number.isNaN(v) ? 0 : Number.POSITIVE_INFINITY) : Math.abs(v - unit[k]),
        ),
      );
      expect(off, `${length}`).toBeLessThan(1e-9);
    }
  });

  it("puts a capture's feet on the rungs though its origin is its hips (CMU: its rest pose's soles 16 units below it)", () => {
    // Until 27 November heights were taken from the origin as the soles' level: CMU's feet went
    // 51–64 cm under their rungs over its rest pose, 149–162 cm over a frame of its clip (a
    // hostile test); then, with the shoulders still measured from the origin, a hand 6.9 cm off
    // its rung (a review). Over its rest pose every limb is checked; over a walk frame, the feet.
    const character = cmu('cmu_02_01_walk.bvh');
    const { skeleton } = character;
    const clip = [...character.clips.values()][0];
    const rig = findRig(skeleton);
    const worst = (base: 'rest' | 'frame') => {
      const climb = new LadderClimb(skeleton, rig, {
        ladder: { bottom: [0, 0, 0], facing: [0, 1], rungCount: 10, spacing: 0.3 },
        scale: 0.0254 / 0.45,
      });
      const pose = new Pose(skeleton);
      const model = createModelBuffer(skeleton);
      const context = new SamplerContext(clip);
      let most = 0;
      for (let f = 0; f < 1000; f++) {
        if (base === 'rest') pose.resetToRest();
        else {
          // The clip's first frame, in place: its hips up at their height in the capture.
          sampleClip(clip, context, 0, pose);
          pose.translations[0] = 0;
          pose.translations[2] = 0;
          pose.rotations.set([0, 0, 0, 1], 0);
        }
        forwardKinematics(pose, model);
        climb.update(pose, model, 1.2 / 60, 1 / 60);
        const W = climb.world;
        for (const i of base === 'rest' ? [0, 1, 2, 3] : [1, 3]) {
          const r = i * CLIMB_LIMB.length;
          if (climb.report[r + CLIMB_LIMB.gripping] !== 1) continue;
          const j = climb.limbs[i].end;
          const p = [0, 1, 2].map(
            (k) =>
              W[k] * model[16 * j + 12] +
              W[4 + k] * model[16 * j + 13] +
              W[8 + k] * model[16 * j + 14] +
              W[12 + k],
          );
          most = Math.max(
            most,
            Math.hypot(p[0] - climb.report[r], p[1] - climb.report[r + 1], p[2] - climb.report[r + 2]),
          );
        }
      }
      return most;
    };
    expect(worst('rest')).toBeLessThan(0.01);
    // (A walking frame's legs, one bent forward, reach less: 3.6 cm at worst.)
    expect(worst('frame')).toBeLessThan(0.04);
  });

  it('refuses a ladder of one rung and a rig without arms, with typed errors', async () => {
    const { skeleton, rig } = await robot();
    const ladder = {
      bottom: [0, 0, 0] as [number, number, number],
      facing: [0, 1] as [number, number],
      rungCount: 1,
      spacing: 0.3,
    };
    expect(() => new LadderClimb(skeleton, rig, { ladder })).toThrow(
      expect.objectContaining({ code: 'placement/invalid-option' }),
    );
    try {
      new LadderClimb(skeleton, { ...rig, arms: [] }, { ladder: { ...ladder, rungCount: 5 } });
      expect.unreachable();
    } catch (error) {
      expect(isTendonError(error, 'placement/invalid-option')).toBe(true);
    }
  });
});

describe('LadderClimb: what it is given', () => {
  const ladder = {
    bottom: [0, 0, 0] as [number, number, number],
    facing: [0, 1] as [number, number],
    rungCount: 10,
    spacing: 0.3,
  };

  it('refuses an option out of range from the constructor, naming it (placement/invalid-option)', async () => {
    const { skeleton, rig, scale } = await robot();
    const bad: [string, Record<string, unknown>][] = [
      ['standOff', { standOff: Number.NaN }],
      ['standOff', { standOff: -1 }],
      ['standOff', { standOff: Number.POSITIVE_INFINITY }],
      ['arc', { arc: Number.NaN }],
      ['arc', { arc: Number.POSITIVE_INFINITY }],
      ['arc', { arc: -0.1 }],
      ['handRungsAbove', { handRungsAbove: Number.NaN }],
      ['handRungsAbove', { handRungsAbove: 2.5 }],
      ['handRungsAbove', { handRungsAbove: -3 }],
      ['handRungsAbove', { handRungsAbove: 1 }],
      ['handRungsAbove', { handRungsAbove: '3' }],
      ['scale', { scale: 0 }],
      ['ladder.width', { ladder: { ...ladder, width: -0.45 } }],
      ['ladder.firstRung', { ladder: { ...ladder, firstRung: 0 } }],
      ['ladder.rungCount', { ladder: { ...ladder, rungCount: 4.5 } }],
      ['ladder.spacing', { ladder: { ...ladder, spacing: -0.3 } }],
      // Each named (until 27 November: "a ladder needs a finite bottom and facing"; a hostile test).
      ['ladder.spacing', { ladder: { ...ladder, spacing: Number.NaN } }],
      ['ladder.spacing', { ladder: { ...ladder, spacing: '0.3' } }],
      ['ladder.rungCount', { ladder: { ...ladder, rungCount: Number.POSITIVE_INFINITY } }],
      ['ladder.rungCount', { ladder: { ...ladder, rungCount: undefined } }],
      ['ladder.firstRung', { ladder: { ...ladder, firstRung: Number.NaN } }],
      ['ladder.width', { ladder: { ...ladder, width: '0.45' } }],
      ['ladder.bottom[1]', { ladder: { ...ladder, bottom: [0, Number.NaN, 0] } }],
      ['ladder.facing[0]', { ladder: { ...ladder, facing: ['1', 0] } }],
    ];
    for (const [name, options] of bad) {
      expect(() => new LadderClimb(skeleton, rig, { ladder, scale, ...options } as never), name).toThrow(
        expect.objectContaining({
          code: 'placement/invalid-option',
          message: expect.stringContaining(`${name} is`),
        }),
      );
    }
    // The edges of the ranges are in them.
    for (const options of [{ standOff: 0 }, { arc: 0 }, { handRungsAbove: 2 }, { handRungsAbove: 12 }]) {
      const climb = new LadderClimb(skeleton, rig, { ladder, scale, ...options });
      const pose = new Pose(skeleton);
      const model = createModelBuffer(skeleton);
      forwardKinematics(pose, model);
      climb.progress = 4;
      climb.update(pose, model, 0);
      expect(
        climb.report.every((v, k) => k % CLIMB_LIMB.length === CLIMB_LIMB.rung || Number.isFinite(v)),
      ).toBe(true);
    }
  });

  it('refuses a delta or dt that is not a number, not read as one (a string was coerced)', async () => {
    const { skeleton, rig, scale } = await robot();
    const climb = new LadderClimb(skeleton, rig, { ladder, scale });
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    forwardKinematics(pose, model);
    climb.update(pose, model, 0.1, 1 / 60);
    const progress = climb.progress;
    for (const [delta, dt, what] of [
      ['0.1', 1 / 60, 'delta'],
      [0.1, '0.016', 'dt'],
    ] as const) {
      expect(() => climb.update(pose, model, delta as never, dt as never)).toThrow(
        expect.objectContaining({
          code: 'placement/invalid-input',
          message: expect.stringContaining(`${what} is`),
        }),
      );
      expect(climb.progress).toBe(progress);
    }
  });

  it('refuses a progress that is not a finite number, keeping the one it had (placement/invalid-input)', async () => {
    const { skeleton, rig, scale } = await robot();
    const climb = new LadderClimb(skeleton, rig, { ladder, scale });
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    forwardKinematics(pose, model);
    climb.progress = 2.5;
    for (const value of [undefined, Number.NaN, Number.POSITIVE_INFINITY, '3', null]) {
      expect(() => {
        climb.progress = value as never;
      }).toThrow(expect.objectContaining({ code: 'placement/invalid-input' }));
      expect(climb.progress).toBe(2.5);
    }
    climb.update(pose, model, 0.1);
    expect(climb.progress).toBe(2.6);
    // Past the ends, the next update clamps it.
    climb.progress = 1e9;
    climb.update(pose, model, 0);
    expect(climb.progress).toBe(climb.end);
  });

  it('leaves progress, world, report, pose and model as they were when it refuses an update', async () => {
    const { skeleton, rig, scale } = await robot();
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    forwardKinematics(pose, model);
    const snapshot = (climb: LadderClimb) => [
      climb.progress,
      ...climb.world,
      ...climb.report,
      ...pose.translations,
      ...pose.rotations,
      ...model,
    ];
    // A ladder so far out that the character's world matrix passes doubles: each option is
    // finite, the targets are not.
    const far = new LadderClimb(skeleton, rig, {
      ladder: { ...ladder, bottom: [1.7e308, 0, 0], facing: [1, 0] },
      scale,
      standOff: 1e308,
    });
    const before = snapshot(far);
    expect(() => far.update(pose, model, 1)).toThrow(
      expect.objectContaining({ code: 'placement/invalid-input' }),
    );
    expect(snapshot(far)).toEqual(before);
    // A NaN in an arm, mid-climb: refused before the progress moves.
    const climb = new LadderClimb(skeleton, rig, { ladder, scale });
    climb.progress = 3;
    climb.update(pose, model, 0.1);
    const elbow = rig.arms[0].middle;
    const rotation = pose.rotations[4 * elbow];
    pose.rotations[4 * elbow] = Number.NaN;
    const held = snapshot(climb);
    expect(() => climb.update(pose, model, 0.1)).toThrow(
      expect.objectContaining({ code: 'pose/not-finite' }),
    );
    expect(() => climb.update(pose, model, Number.NaN)).toThrow(
      expect.objectContaining({ code: 'placement/invalid-input' }),
    );
    expect(snapshot(climb)).toEqual(held);
    pose.rotations[4 * elbow] = rotation;
  });
});

describe('BarHang', () => {
  it('hangs the robot from a bar for 5 s, swinging and moving along it: hands within 1 cm', async () => {
    const { character, skeleton, rig, idle, context, animated, pose, model } = await idleRobot();
    const hang = new BarHang(skeleton, rig, { from: [-2, 2.4, 0], to: [2, 2.4, 0], scale: character.scale });
    const steps = new AddedRotationSteps(skeleton.jointCount);
    let maxError = 0;
    let minZ = Number.POSITIVE_INFINITY;
    let maxZ = Number.NEGATIVE_INFINITY;
    const start = hang.position;
    for (let f = 0; f < 300; f++) {
      sampleClip(idle, context, f / 60, animated);
      pose.copyFrom(animated);
      forwardKinematics(pose, model);
      if (f === 10) hang.pushBody(0, 0, 60);
      hang.update(pose, model, 1 / 60, f >= 150 && f < 250 ? 0.006 : 0);
      steps.add(animated.rotations, pose.rotations);
      minZ = Math.min(minZ, hang.world[14]);
      maxZ = Math.max(maxZ, hang.world[14]);
      maxError = Math.max(maxError, gripError(hang, model));
    }
    expect(maxZ - minZ).toBeGreaterThan(0.1); // it swings
    expect(hang.position - start).toBeCloseTo(0.6, 9); // and moved 60 cm along the bar
    expect(maxError).toBeLessThanOrEqual(0.01);
    expect(steps.max).toBeLessThanOrEqual(10);
  });
});

describe('BarHang at other frame rates', () => {
  /**
   * The robot kicked once (kickBody) and left to swing for 6.5 s at `fps`: the swing's amplitude
   * (the body's travel across the bar, metres) in the 2 s from 0.5 s and in the 2 s from 4.5 s.
   */
  async function swing(fps: number, damping: number) {
    const { character, skeleton, rig, pose, model } = await idleRobot();
    const hang = new BarHang(skeleton, rig, {
      from: [-2, 2.4, 0],
      to: [2, 2.4, 0],
      scale: character.scale,
      damping,
    });
    const amplitude = [0, 0];
    hang.kickBody(0, 0, 0.8);
    for (let f = 0; f < Math.round(6.5 * fps); f++) {
      pose.resetToRest();
      forwardKinematics(pose, model);
      hang.update(pose, model, 1 / fps);
      const t = (f + 1) / fps;
      const w = t >= 0.5 && t < 2.5 ? 0 : t >= 4.5 ? 1 : -1;
      if (w >= 0) amplitude[w] = Math.max(amplitude[w], Math.abs(hang.world[14]));
    }
    return amplitude;
  }

  // Until 27 November each Verlet step was moved back onto the swing's circle along the radius,
  // losing a share of the swing that grew with the frame's length: with no damping 0.33 of it was
  // left after 6 s at 30 Hz, 0.57 at 60, 0.79 at 144; and a one-off push (pushBody, an
  // acceleration over one update) swung the body twice as far at 30 Hz as at 60.
  it.each([0, 0.15])(
    'swings as far and as long at 30, 60 and 144 Hz, damped by its damping (%f) alone',
    async (damping) => {
      const at60 = await swing(60, damping);
      // Amplitude ~ exp(−c t / 2) over the 4 s between the windows, for a small swing; this one,
      // some 50° either way, fades a little faster (0.706 where a small one would keep 0.741).
      expect(Math.abs(at60[1] / at60[0] - Math.exp(-2 * damping))).toBeLessThan(0.05);
      for (const fps of [30, 144]) {
        const [first, last] = await swing(fps, damping);
        expect(Math.abs(first / at60[0] - 1), `${fps} Hz`).toBeLessThan(0.01);
        expect(Math.abs(last / first - at60[1] / at60[0]), `${fps} Hz`).toBeLessThan(0.01);
      }
    },
  );

  // Until 27 November a hand that landed part-way through an update took the rest of it, the
  // other's reach setting off only at the next: every reach cost up to a frame, and at 30 Hz the
  // body fell a reach behind within 1.5 s, its hands stopping 12 cm from where they stop at 60 Hz.
  // (And the hands first held where the body was after the first update's move: the first reach
  // set off a frame late, at any rate.)
  it('goes hand over hand at the same pace at 30, 60 and 144 Hz, and stops with the same grips', async () => {
    const run = async (fps: number) => {
      const { character, skeleton, rig, pose, model } = await idleRobot();
      const hang = new BarHang(skeleton, rig, { from: [-3, 3, 0], to: [3, 3, 0], scale: character.scale });
      const landings: number[] = [];
      const was = [1, 1];
      for (let f = 0; f < Math.round(2.6 * fps); f++) {
        pose.resetToRest();
        forwardKinematics(pose, model);
        const t = f / fps;
        hang.update(pose, model, 1 / fps, t < 1.6 ? 0.6 / fps : 0);
        for (let h = 0; h < 2; h++) {
          const gripping = hang.report[h * HANG_HAND.length + HANG_HAND.gripping];
          if (gripping === 1 && was[h] === 0) landings.push((f + 1) / fps);
          was[h] = gripping;
        }
      }
      const grips = [0, 1].map((h) => hang.report[h * HANG_HAND.length] - hang.world[12]);
      return { landings, grips };
    };
    const at60 = await run(60);
    expect(at60.landings.length).toBeGreaterThan(5);
    for (const fps of [30, 144]) {
      const { landings, grips } = await run(fps);
      expect(landings.length, `${fps} Hz`).toBe(at60.landings.length);
      landings.forEach((t, k) => {
        expect(Math.abs(t - at60.landings[k]), `${fps} Hz, landing ${k}`).toBeLessThanOrEqual(1 / 30 + 1e-9);
      });
      grips.forEach((x, h) => {
        // (144 Hz moves 0.25 cm further: its last moving update ends at 1.604 s.)
        expect(Math.abs(x - at60.grips[h]), `${fps} Hz, hand ${h}`).toBeLessThan(0.004);
      });
    }
  });

  // Until 27 November a long update was one Verlet step: its fall under gravity became speed along
  // the arc (a 19° swing rose to 46° after a 0.5 s frame, went over the bar after 1 s), and a long
  // move in one update left a gripping hand 1.2 m from its grip.
  it('swings through a 2 s frame (a tab back from the background) as through 2 s of frames, hands on the bar', async () => {
    const run = async (hitch: boolean, move: number) => {
      const { character, skeleton, rig, pose, model } = await idleRobot();
      const hang = new BarHang(skeleton, rig, {
        from: [-4, 2.4, 0],
        to: [4, 2.4, 0],
        scale: character.scale,
      });
      hang.kickBody(0, 0, 0.8);
      const swing: number[] = [];
      let worstGrip = 0;
      const frame = (dt: number, along: number) => {
        pose.resetToRest();
        forwardKinematics(pose, model);
        hang.update(pose, model, dt, along);
        swing.push(hang.world[14]);
        worstGrip = Math.max(worstGrip, gripError(hang, model));
      };
      for (let f = 0; f < 60; f++) frame(1 / 60, 0);
      if (hitch) frame(2, move);
      else for (let f = 0; f < 120; f++) frame(1 / 60, move / 120);
      const at = swing.length;
      for (let f = 0; f < 120; f++) frame(1 / 60, 0);
      return { after: swing.slice(at), worstGrip, position: hang.position };
    };
    const smooth = await run(false, 0);
    const hitch = await run(true, 0);
    for (let f = 0; f < smooth.after.length; f++) {
      expect(Math.abs(hitch.after[f] - smooth.after[f]), `frame ${f}`).toBeLessThan(0.03);
    }
    expect(hitch.worstGrip).toBeLessThanOrEqual(0.01);
    // A 2.5 m move in the 2 s frame: the hands go along, hand over hand, not left behind.
    expect((await run(true, 2.5)).worstGrip).toBeLessThanOrEqual(0.01);
  });

  // The arc's angle had no bound: past 1e16 rad the cosine's reduction is not exact, and a push
  // of 1e30 left the body 6e122 from the bar, 1e45 wrote NaN into the world matrix, no error.
  it('keeps the body on its circle for any push or kick it takes, or refuses the update with nothing written', async () => {
    for (const [push, kick] of [
      [1e30, 0],
      [1e45, 0],
      [0, 1e42],
      [1e300, 0],
    ]) {
      const { character, skeleton, rig, pose, model } = await idleRobot();
      const hang = new BarHang(skeleton, rig, {
        from: [-2, 2.4, 0],
        to: [2, 2.4, 0],
        scale: character.scale,
      });
      forwardKinematics(pose, model);
      hang.update(pose, model, 1 / 60);
      const before = [...hang.world];
      hang.pushBody(0, 0, push);
      if (kick !== 0) hang.kickBody(0, 0, kick);
      let refused = false;
      try {
        hang.update(pose, model, 1 / 60);
      } catch (error) {
        expect(error).toEqual(expect.objectContaining({ code: 'placement/invalid-input' }));
        refused = true;
      }
      // A push of 1e30 is taken (the old step took it too, and left the body 6e122 from the bar).
      if (push === 1e30) expect(refused).toBe(false);
      if (refused) expect([...hang.world], `${push} ${kick}`).toEqual(before);
      else {
        expect(hang.world.every(Number.isFinite), `${push} ${kick}`).toBe(true);
        // The body's origin stays at its hang's length below the bar (within the arm's reach).
        expect(Math.abs(hang.world[13] - 2.4), `${push} ${kick}`).toBeLessThan(3);
      }
    }
  });

  it('refuses a kick that is not a number within ±1e300, or kicks adding up past it, taking none', async () => {
    const { character, skeleton, rig, pose, model } = await idleRobot();
    const hang = new BarHang(skeleton, rig, { from: [-2, 2.4, 0], to: [2, 2.4, 0], scale: character.scale });
    const twin = new BarHang(skeleton, rig, { from: [-2, 2.4, 0], to: [2, 2.4, 0], scale: character.scale });
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, 1.7e308, '1' as unknown as number]) {
      expect(() => hang.kickBody(0, bad, 0)).toThrow(
        expect.objectContaining({
          code: 'placement/invalid-input',
          message: expect.stringContaining('kickBody'),
        }),
      );
    }
    hang.kickBody(1e300, 0, 0);
    expect(() => hang.kickBody(1e300, 0, 0)).toThrow(
      expect.objectContaining({ code: 'placement/invalid-input' }),
    );
    hang.kickBody(-1e300, 0, 0.5);
    twin.kickBody(0, 0, 0.5);
    // Kicks wait for an update that advances time; then the hang swings as its twin kicked once.
    forwardKinematics(pose, model);
    hang.update(pose, model, 0);
    twin.update(pose, model, 0);
    for (let f = 0; f < 30; f++) {
      hang.update(pose, model, 1 / 60);
      const w = hang.world.slice();
      twin.update(pose, model, 1 / 60);
      expect(w).toEqual(twin.world);
    }
    expect(Math.abs(hang.world[14])).toBeGreaterThan(0.05);
  });
});

describe('the climb and the hang for a character facing another way', () => {
  // They placed model +Z toward the ladder and across the bar whatever the rig: a character facing
  // −Z (VRM 0.x) climbed with its back to the ladder. Now the rig's rest facing (findRig's
  // forward) goes where +Z went: the world matrix maps the character's forward, not model +Z.
  it('map the rig’s forward to where a +Z character’s forward goes, its up and place unchanged', async () => {
    const { character, skeleton, rig, pose, model } = await idleRobot();
    const worldOf = (forward: [number, number, number], make: (r: typeof rig) => LadderClimb | BarHang) => {
      const controller = make({ ...rig, forward });
      pose.resetToRest();
      forwardKinematics(pose, model);
      if (controller instanceof LadderClimb) controller.update(pose, model, 0.01);
      else controller.update(pose, model, 1 / 60);
      return Array.from(controller.world);
    };
    for (const make of [
      (r: typeof rig) =>
        new LadderClimb(skeleton, r, {
          ladder: { bottom: [1, 0, 2], facing: [0, -1], rungCount: 10, spacing: 0.3 },
          scale: character.scale,
        }),
      (r: typeof rig) =>
        new BarHang(skeleton, r, { from: [-2, 2.4, 0], to: [2, 2.4, 0], scale: character.scale }),
    ]) {
      const z = worldOf([0, 0, 1], make);
      const col = (w: number[], c: number) => w.slice(4 * c, 4 * c + 3);
      for (const [forward, axis] of [
        [[0, 0, -1], 2],
        [[1, 0, 0], 0],
        [[-1, 0, 0], 0],
      ] as const) {
        const w = worldOf([...forward] as [number, number, number], make);
        const sign = forward[0] + forward[1] + forward[2];
        // The model's forward axis onto the world's forward; up and the origin as they were.
        for (let k = 0; k < 3; k++) {
          expect(sign * col(w, axis)[k]).toBeCloseTo(col(z, 2)[k], 12);
          expect(col(w, 1)[k]).toBeCloseTo(col(z, 1)[k], 12);
          expect(col(w, 3)[k]).toBeCloseTo(col(z, 3)[k], 12);
        }
      }
      // A rig that does not say (written by hand) is taken as facing +Z, bit for bit.
      expect(worldOf(null as unknown as [number, number, number], make)).toEqual(z);
    }
  });
});

describe('BarHang from a ledge (ledgeWall)', () => {
  /**
   * The robot hanging from a ledge along +X (facing −Z: the wall under the edge at z < 0) for 6 s:
   * pushed into the wall, then away from it, then left to swing back. Returns the body point's
   * least and largest z (the shoulders' midpoint: the world origin raised by the rest shoulder
   * height along the body's up), its z at the end, the hands' largest distance to the edge and the
   * largest IK step.
   */
  // `reversed`: the edge laid from +X to −X, so it faces +Z and the body hangs on the −Z side; z,
  // the pushes and the measures are mirrored (z·−1), so the same bounds hold.
  const hangFromLedge = async (ledgeWall: number | undefined, rise = 0, reversed = false) => {
    const { character, skeleton, rig, idle, context, animated, pose, model } = await idleRobot();
    const side = reversed ? -1 : 1;
    // The edge from (−2, 2.4 − rise, 0) to (2, 2.4 + rise, 0): its height at x is 2.4 + rise·x/2.
    const ends: [number, number, number][] = [
      [-2, 2.4 - rise, 0],
      [2, 2.4 + rise, 0],
    ];
    if (reversed) ends.reverse();
    const hang = new BarHang(skeleton, rig, {
      from: ends[0],
      to: ends[1],
      scale: character.scale,
      ledgeWall,
    });
    const rest = restModelMatrices(skeleton);
    const [l, r] = [rig.arms[0].root, rig.arms[1].root];
    const shoulder = 0.5 * (rest[16 * l + 13] + rest[16 * r + 13]) * character.scale;
    const steps = new AddedRotationSteps(skeleton.jointCount);
    const out = {
      minZ: Number.POSITIVE_INFINITY,
      maxZ: Number.NEGATIVE_INFINITY,
      endZ: 0,
      hands: 0,
      grip: 0,
      steps: 0,
    };
    for (let f = 0; f < 360; f++) {
      sampleClip(idle, context, f / 60, animated);
      pose.copyFrom(animated);
      forwardKinematics(pose, model);
      if (f === 10) hang.pushBody(0, 0, -60 * side);
      if (f === 60) hang.pushBody(0, 0, 90 * side);
      hang.update(pose, model, 1 / 60);
      steps.add(animated.rotations, pose.rotations);
      const W = hang.world;
      const up = Math.hypot(W[4], W[5], W[6]);
      const z = side * (W[14] + (W[6] / up) * shoulder);
      out.minZ = Math.min(out.minZ, z);
      out.maxZ = Math.max(out.maxZ, z);
      out.endZ = z;
      for (let h = 0; h < 2; h++) {
        const o = h * HANG_HAND.length;
        if (hang.report[o + HANG_HAND.gripping] !== 1) continue;
        const p = worldOf(W, model, hang.arms[h].end);
        const t = hang.report.subarray(o, o + 3);
        out.hands = Math.max(out.hands, Math.hypot(p[0] - t[0], p[1] - t[1], p[2] - t[2]));
        // The grip is on the edge.
        out.grip = Math.max(out.grip, Math.hypot(t[1] - (2.4 + (rise * t[0]) / 2), t[2]));
      }
    }
    out.steps = steps.max;
    return out;
  };

  it('rests against the wall, swings back from it when pushed and stops against it, never into it: hands on the edge', async () => {
    const ledge = await hangFromLedge(0.15);
    expect(ledge.minZ).toBeGreaterThanOrEqual(0.15 - 1e-9);
    expect(ledge.maxZ).toBeGreaterThan(0.4); // pushed away, it swings back from the wall
    expect(ledge.endZ).toBeCloseTo(0.15, 3); // and comes to rest against it
    // (Measured 7.9e-8 m and 0.50°: bounds that catch a regression, under the issue's 1 cm, 10°.)
    expect(ledge.hands).toBeLessThanOrEqual(1e-6);
    expect(ledge.grip).toBeLessThanOrEqual(1e-9);
    expect(ledge.steps).toBeLessThanOrEqual(2);
    if (process.env.REPORT) console.log('ledge', JSON.stringify(ledge));
    // A bar: the same pushes swing the body through where the wall would be.
    const bar = await hangFromLedge(undefined);
    expect(bar.minZ).toBeLessThan(-0.2);
    // A ledge rising 10 cm a metre along its length: the same.
    const sloped = await hangFromLedge(0.15, 0.2);
    expect(sloped.minZ).toBeGreaterThanOrEqual(0.15 - 1e-9);
    expect(sloped.maxZ).toBeGreaterThan(0.4);
    expect(sloped.endZ).toBeCloseTo(0.15, 3);
    expect(sloped.hands).toBeLessThanOrEqual(1e-6);
    expect(sloped.grip).toBeLessThanOrEqual(1e-9);
    // The edge laid the other way faces +Z: the body hangs on the −Z side, the wall on the +Z.
    const reversed = await hangFromLedge(0.15, 0, true);
    expect(reversed.minZ).toBeGreaterThanOrEqual(0.15 - 1e-9);
    expect(reversed.maxZ).toBeGreaterThan(0.4);
    expect(reversed.endZ).toBeCloseTo(0.15, 3);
    expect(reversed.hands).toBeLessThanOrEqual(1e-6);
  });

  it('refuses a gap below 0, not a number, or as long as the hang (placement/invalid-option, naming ledgeWall)', async () => {
    const { skeleton, rig } = await robot();
    for (const ledgeWall of [-0.1, Number.NaN, Number.POSITIVE_INFINITY, 100, '0.1']) {
      expect(
        () => new BarHang(skeleton, rig, { from: [-2, 2.4, 0], to: [2, 2.4, 0], ledgeWall } as never),
        String(ledgeWall),
      ).toThrow(
        expect.objectContaining({
          code: 'placement/invalid-option',
          message: expect.stringContaining('ledgeWall'),
        }),
      );
    }
    expect(
      () => new BarHang(skeleton, rig, { from: [-2, 2.4, 0], to: [2, 2.4, 0], ledgeWall: 0 }),
    ).not.toThrow();
  });
});

describe('BarHang at rest', () => {
  /** Runs `frames` frames of the Idle clip, moving `move(f)` along the bar; measures every frame. */
  async function hangFor(frames: number, start: number | null, move: (f: number) => number) {
    const { character, skeleton, rig, idle, context, animated, pose, model } = await idleRobot();
    const barY = 2.4;
    const hang = new BarHang(skeleton, rig, {
      from: [-2, barY, 0],
      to: [2, barY, 0],
      scale: character.scale,
    });
    if (start !== null) hang.position = start;
    const steps = new AddedRotationSteps(skeleton.jointCount);
    /** Per frame: each hand's gripping flag and its hand joint's distance from the bar. */
    const log: { gripping: number[]; offBar: number[] }[] = [];
    for (let f = 0; f < frames; f++) {
      sampleClip(idle, context, (f / 60) % idle.duration, animated);
      pose.copyFrom(animated);
      forwardKinematics(pose, model);
      hang.update(pose, model, 1 / 60, move(f));
      steps.add(animated.rotations, pose.rotations);
      const gripping: number[] = [];
      const offBar: number[] = [];
      for (let h = 0; h < 2; h++) {
        gripping.push(hang.report[h * HANG_HAND.length + HANG_HAND.gripping]);
        const p = worldOf(hang.world, model, hang.arms[h].end);
        offBar.push(Math.hypot(p[1] - barY, p[2]));
      }
      log.push({ gripping, offBar });
    }
    return { frames: log, steps: steps.max, hang };
  }

  it('hangs still for 5 s by both hands, each within 1 cm of the bar, wherever it starts', async () => {
    // 2 m is the default start, the middle of the bar; the others are part-way through a step.
    for (const start of [null, 1, 1.05, 0.9, 2.93]) {
      const run = await hangFor(300, start, () => 0);
      for (const frame of run.frames) {
        expect(frame.gripping).toEqual([1, 1]);
        expect(Math.max(...frame.offBar)).toBeLessThanOrEqual(0.01);
      }
      expect(run.steps).toBeLessThanOrEqual(10);
    }
  });

  it('stopped mid-reach, brings the free hand onto the bar within 0.25 s, smoothly', async () => {
    // Moving 1 cm a frame, one hand or the other is always in the air after the first few frames.
    for (const stopAt of [5, 20, 23, 26, 31, 47]) {
      const run = await hangFor(stopAt + 300, null, (f) => (f < stopAt ? 0.01 : 0));
      expect(Math.min(...run.frames[stopAt - 1].gripping)).toBe(0);
      for (const frame of run.frames.slice(stopAt + 15)) {
        expect(frame.gripping).toEqual([1, 1]);
        expect(Math.max(...frame.offBar)).toBeLessThanOrEqual(0.01);
      }
      expect(run.steps).toBeLessThanOrEqual(10);
    }
  });

  it('moving, goes hand over hand: one hand at a time, each in turn', async () => {
    const run = await hangFor(240, null, (f) => (f < 120 ? 0.006 : -0.006));
    let changes = 0;
    let lastFree = -1;
    for (const frame of run.frames) {
      expect(frame.gripping[0] + frame.gripping[1]).toBeGreaterThanOrEqual(1);
      const free = frame.gripping.indexOf(0);
      if (free >= 0 && free !== lastFree) {
        if (lastFree >= 0) changes++;
        lastFree = free;
      }
      for (let h = 0; h < 2; h++)
        if (frame.gripping[h] === 1) expect(frame.offBar[h]).toBeLessThanOrEqual(0.01);
    }
    expect(changes).toBeGreaterThanOrEqual(6); // 72 cm each way, a hand every 15 cm
    expect(run.steps).toBeLessThanOrEqual(10);
  });
});

describe('BarHang inputs', () => {
  const bar = { from: [-2, 2.4, 0] as const, to: [2, 2.4, 0] as const };

  it('refuses each option out of range from the constructor, naming it and its value', async () => {
    const { skeleton, rig } = await robot();
    const cases: [string, unknown][] = [
      ['armExtension', Number.NaN],
      ['armExtension', 0],
      ['armExtension', 3],
      ['gravity', Number.NaN],
      ['gravity', -9.81],
      ['damping', Number.NaN],
      ['damping', -5],
      ['handStep', 0],
      ['handStep', -0.3],
      ['handStep', Number.NaN],
      ['handStep', 5],
      ['gripWidth', Number.NaN],
      ['gripWidth', -0.1],
      ['gripWidth', 10],
      ['scale', 0],
      ['scale', '1'],
    ];
    for (const [option, value] of cases) {
      try {
        new BarHang(skeleton, rig, { ...bar, [option]: value });
        expect.unreachable(`${option} ${value}`);
      } catch (error) {
        expect(isTendonError(error, 'placement/invalid-option')).toBe(true);
        expect((error as Error).message).toContain(
          `options.${option} is ${typeof value === 'string' ? `the string "${value}"` : value}`,
        );
      }
    }
    // The default grip, the shoulders' width, on a bar narrower than that; a bar too steep.
    for (const ends of [
      { from: [0, 2, 0], to: [0.01, 2, 0] },
      { from: [0, 0, 0], to: [0.5, 3, 0] },
    ] as const) {
      expect(() => new BarHang(skeleton, rig, ends)).toThrow(
        expect.objectContaining({ code: 'placement/invalid-option' }),
      );
    }
  });

  it('hangs the same at three times the size: moves of half the reach, hands landing on the same frames', async () => {
    // The world ×3: the character's scale, the bar, gravity (the same period), the pushes and the
    // moves. Until 27 November the hands moved 0.3 world units by default at any size, and a hand
    // landed when its progress summed to 1, a frame early or late as the sum rounded.
    const character = await robot();
    const { skeleton, rig } = character;
    const run = (k: number, handStep?: number) => {
      const hang = new BarHang(skeleton, rig, {
        from: [-2 * k, 2.4 * k, 0],
        to: [2 * k, 2.4 * k, 0],
        scale: character.scale * k,
        gravity: 9.81 * k,
        ...(handStep === undefined ? {} : { handStep: handStep * k }),
      });
      const pose = new Pose(skeleton);
      const model = createModelBuffer(skeleton);
      const frames: { gripping: number[]; hands: number[]; rotations: number[] }[] = [];
      for (let f = 0; f < 300; f++) {
        forwardKinematics(pose.resetToRest(), model);
        if (f % 50 === 0) hang.pushBody(0, 0, 0.6 * k);
        // Along the bar and back: 1/120 of the reach-scaled world a frame.
        hang.update(pose, model, 1 / 60, (f < 150 ? 0.01 : -0.01) * k);
        const r = hang.report;
        const n = HANG_HAND.length;
        frames.push({
          gripping: [r[HANG_HAND.gripping], r[n + HANG_HAND.gripping]],
          hands: [r[0], r[1], r[2], r[n], r[n + 1], r[n + 2]].map((x) => x / k),
          rotations: [...pose.rotations],
        });
      }
      return frames;
    };
    for (const handStep of [undefined, 0.3]) {
      const one = run(1, handStep);
      const three = run(3, handStep);
      expect(one.filter((f) => f.gripping[0] === 0 || f.gripping[1] === 0).length).toBeGreaterThan(20);
      one.forEach((a, f) => {
        const b = three[f];
        expect(b.gripping, `frame ${f}`).toEqual(a.gripping);
        for (let i = 0; i < 6; i++)
          expect(Math.abs(b.hands[i] - a.hands[i]), `frame ${f}`).toBeLessThan(1e-9);
        for (let i = 0; i < a.rotations.length; i++) {
          expect(Math.abs(b.rotations[i] - a.rotations[i]), `frame ${f}`).toBeLessThan(1e-7);
        }
      });
    }
  });

  it('an update, a push or a position that throws leaves the hang as it was', async () => {
    const character = await robot();
    const { skeleton, rig } = character;
    const options = { ...bar, scale: character.scale };
    const hang = new BarHang(skeleton, rig, options);
    const twin = new BarHang(skeleton, rig, options);
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    const frame = (h: BarHang, f: number) => {
      forwardKinematics(pose.resetToRest(), model);
      if (f % 20 === 0) h.pushBody(0, 0, 30);
      h.update(pose, model, 1 / 60, 0.007);
    };
    // Mid-swing and mid-reach, each of them.
    for (let f = 0; f < 45; f++) frame(twin, f);
    for (let f = 0; f < 45; f++) frame(hang, f);
    hang.pushBody(0, 0, 30);
    twin.pushBody(0, 0, 30);
    const kept = () => [hang.position, ...hang.world, ...hang.report, ...pose.rotations, ...model];
    const before = kept();
    const bad: [string, () => void][] = [
      ['dt NaN', () => hang.update(pose, model, Number.NaN, 0)],
      ['dt Infinity', () => hang.update(pose, model, Number.POSITIVE_INFINITY, 0)],
      ['dt -1', () => hang.update(pose, model, -1, 0)],
      ['move NaN', () => hang.update(pose, model, 1 / 60, Number.NaN)],
      ['push NaN', () => hang.pushBody(Number.NaN, 0, 0)],
      ['push past ±1e300', () => hang.pushBody(1.7e308, 0, 0)],
      ['push a string', () => hang.pushBody(0, '1' as unknown as number, 0)],
      ['position NaN', () => ((hang as { position: number }).position = Number.NaN)],
    ];
    for (const [label, call] of bad) {
      expect(call, label).toThrow(expect.objectContaining({ code: 'placement/invalid-input' }));
      expect(kept(), label).toEqual(before);
    }
    // Nothing kept inside either: the next frames are the twin's, bit for bit.
    for (let f = 45; f < 90; f++) {
      frame(hang, f);
      const mine = [hang.position, ...hang.world, ...hang.report, ...pose.rotations];
      frame(twin, f);
      expect([twin.position, ...twin.world, ...twin.report, ...pose.rotations]).toEqual(mine);
    }
  });

  it('adds up more pushes than it keeps, and refuses pushes adding up past ±1e300', async () => {
    const { skeleton, rig } = await robot();
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    const run = (pushes: number[]) => {
      const hang = new BarHang(skeleton, rig, bar);
      for (const push of pushes) hang.pushBody(0, 0, push);
      forwardKinematics(pose.resetToRest(), model);
      hang.update(pose, model, 1 / 60, 0);
      return [...hang.world, ...pose.rotations];
    };
    // Six pushes: four kept as given, then summed into one.
    expect(run([1, 2, 3, 4, 5, 6])).toEqual(run([21]));
    const hang = new BarHang(skeleton, rig, bar);
    for (let k = 0; k < 4; k++) hang.pushBody(1e300, 0, 0);
    expect(() => hang.pushBody(1e300, 0, 0)).toThrow(
      expect.objectContaining({ code: 'placement/invalid-input' }),
    );
  });

  it('reset() forgets the swing and the grips: the next frames are those of a new hang, bit for bit', async () => {
    const character = await robot();
    const { skeleton, rig } = character;
    const options = { ...bar, scale: character.scale };
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    const frame = (h: BarHang, move: number) => {
      forwardKinematics(pose.resetToRest(), model);
      h.update(pose, model, 1 / 60, move);
      return [h.position, ...h.world, ...h.report, ...pose.rotations];
    };
    const hang = new BarHang(skeleton, rig, options);
    for (let f = 0; f < 40; f++) {
      if (f % 10 === 0) hang.pushBody(0, 0, 40);
      frame(hang, 0.008);
    }
    hang.pushBody(0, 0, 40); // not taken: reset forgets it
    // A teleport to 0.7 m, mid-swing and mid-reach.
    hang.position = 0.7;
    hang.reset();
    const fresh = new BarHang(skeleton, rig, options);
    fresh.position = 0.7;
    for (let f = 0; f < 30; f++) {
      const move = f < 20 ? -0.008 : 0;
      expect(frame(hang, move)).toEqual(frame(fresh, move));
    }
  });
});

describe('weights: the climb and the hang eased in and out', () => {
  const ladder = {
    bottom: [1, 0, 2] as [number, number, number],
    facing: [0, -1] as [number, number],
    rungCount: 10,
    spacing: 0.3,
  };
  const DT = 1 / 60;

  /**
   * The robot over its Idle clip, `frames` frames of `step(f, pose, model)` (which updates the
   * controller): the largest frame-to-frame change of the rotation the controller adds to any
   * joint, and each frame's weight.
   */
  function run(
    character: Awaited<ReturnType<typeof robot>>,
    frames: number,
    step: (f: number, pose: Pose, model: Float64Array) => number,
  ): { steps: number; weights: number[] } {
    const idle = character.clips.get('Idle') as Clip;
    const context = new SamplerContext(idle);
    const animated = new Pose(character.skeleton);
    const pose = new Pose(character.skeleton);
    const model = createModelBuffer(character.skeleton);
    const steps = new AddedRotationSteps(character.skeleton.jointCount);
    const weights: number[] = [];
    for (let f = 0; f < frames; f++) {
      sampleClip(idle, context, (f * DT) % idle.duration, animated);
      pose.copyFrom(animated);
      forwardKinematics(pose, model);
      weights.push(step(f, pose, model));
      steps.add(animated.rotations, pose.rotations);
    }
    return { steps: steps.max, weights };
  }

  it('at weight 0 leaves the pose and the model as given, bit for bit, and still climbs', async () => {
    const { skeleton, rig, scale } = await robot();
    const climb = new LadderClimb(skeleton, rig, { ladder, scale });
    climb.setWeight(0, 0);
    expect(climb.weight).toBe(0);
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    forwardKinematics(pose, model);
    const before = [...pose.translations, ...pose.rotations, ...model];
    climb.update(pose, model, 3.2, DT);
    expect([...pose.translations, ...pose.rotations, ...model]).toEqual(before);
    expect(climb.progress).toBeCloseTo(0.2, 12);
    for (let i = 0; i < 4; i++) expect(climb.report[CLIMB_LIMB.length * i + CLIMB_LIMB.weight]).toBe(0);
    // Back to 1 at once: the limbs are on their rungs again.
    climb.setWeight(1, 0);
    climb.update(pose, model, 0, DT);
    expect(pose.rotations).not.toEqual(Float64Array.from(before.slice(3 * skeleton.jointCount)));
  });

  it('eases the climb out and back in over 0.5 s mid-ladder: no jump, no joint over 10° a frame', async () => {
    const character = await robot();
    const { skeleton, rig, scale } = character;
    const climb = new LadderClimb(skeleton, rig, { ladder, scale });
    climb.progress = 2;
    const { steps, weights } = run(character, 150, (f, pose, model) => {
      if (f === 30) climb.setWeight(0, 0.5);
      if (f === 90) climb.setWeight(1, 0.5);
      climb.update(pose, model, 1.2 * DT, DT);
      return climb.weight;
    });
    expect(weights[29]).toBe(1);
    // Smoothstep over 30 frames: strictly between halfway, 0 exactly at the end, and never a
    // step larger than its steepest (1.5 / 30 of the way).
    expect(weights[44]).toBeGreaterThan(0.4);
    expect(weights[44]).toBeLessThan(0.6);
    expect(weights[59]).toBe(0);
    expect(weights[119]).toBe(1);
    for (let f = 1; f < weights.length; f++) {
      expect(Math.abs(weights[f] - weights[f - 1])).toBeLessThanOrEqual(1.5 / 30 + 1e-12);
    }
    for (let f = 31; f < 60; f++) expect(weights[f]).toBeLessThan(weights[f - 1]);
    expect(steps).toBeLessThanOrEqual(10);
    // The same switch at once: the limbs jump.
    const jump = new LadderClimb(skeleton, rig, { ladder, scale });
    jump.progress = 2;
    const sudden = run(character, 60, (f, pose, model) => {
      if (f === 30) jump.setWeight(0, 0);
      jump.update(pose, model, 1.2 * DT, DT);
      return jump.weight;
    });
    expect(sudden.steps).toBeGreaterThan(20);
  });

  it('eases the hang out and back in over 0.5 s while it swings: no jump, no joint over 10° a frame', async () => {
    const character = await robot();
    const { skeleton, rig, scale } = character;
    const hang = new BarHang(skeleton, rig, { from: [-2, 2.4, 0], to: [2, 2.4, 0], scale });
    const { steps, weights } = run(character, 200, (f, pose, model) => {
      if (f === 5) hang.pushBody(0, 0, 60);
      if (f === 40) hang.setWeight(0, 0.5);
      if (f === 120) hang.setWeight(1, 0.5);
      hang.update(pose, model, DT, 0);
      return hang.weight;
    });
    expect(weights[39]).toBe(1);
    expect(weights[54]).toBeGreaterThan(0.4);
    expect(weights[54]).toBeLessThan(0.6);
    expect(weights[69]).toBe(0);
    expect(weights[149]).toBe(1);
    expect(steps).toBeLessThanOrEqual(10);
    // The same switch at once: the arms jump.
    const jump = new BarHang(skeleton, rig, { from: [-2, 2.4, 0], to: [2, 2.4, 0], scale });
    const sudden = run(character, 60, (f, pose, model) => {
      if (f === 30) jump.setWeight(0, 0);
      jump.update(pose, model, DT, 0);
      return jump.weight;
    });
    expect(sudden.steps).toBeGreaterThan(20);
  });

  it('eased out and in over 0.25 s or 0.1 s: no joint over 9° a frame (the turn limit), then the animation as given', async () => {
    // A hostile test: over 0.25 s at 60 Hz the climb turned a joint 12° and the hang 16° a frame;
    // over 0.1 s, 28° and 37°.
    const character = await robot();
    const { skeleton, rig, scale } = character;
    for (const ease of [0.25, 0.1]) {
      const climb = new LadderClimb(skeleton, rig, { ladder, scale });
      climb.progress = 2;
      const hang = new BarHang(skeleton, rig, { from: [-2, 2.4, 0], to: [2, 2.4, 0], scale });
      for (const [name, update, setWeight] of [
        [
          'climb',
          // (At 0.6 rungs a second: at 1.2 the reaching elbow turns 9.5° a frame by itself.)
          (pose: Pose, model: Float64Array) => climb.update(pose, model, 0.6 * DT, DT),
          (w: number) => climb.setWeight(w, ease),
        ],
        [
          'hang',
          (pose: Pose, model: Float64Array) => hang.update(pose, model, DT, 0),
          (w: number) => hang.setWeight(w, ease),
        ],
      ] as const) {
        let untouched = false;
        const { steps } = run(character, 150, (f, pose, model) => {
          if (f === 30) setWeight(0);
          if (f === 100) setWeight(1);
          const before = pose.rotations.slice();
          update(pose, model);
          // Long after the ease out, the turn is gone: the pose passes as given.
          if (f === 99) untouched = pose.rotations.every((v, k) => Object.is(v, before[k]));
          return 0;
        });
        expect(steps, `${name}, eased over ${ease} s`).toBeLessThanOrEqual(9 + 1e-9);
        expect(untouched, `${name}, eased over ${ease} s`).toBe(true);
      }
    }
  });

  it('refuses a maxTurnSpeed that is not a number > 0 (placement/invalid-option), and takes Infinity', async () => {
    const { skeleton, rig, scale } = await robot();
    for (const maxTurnSpeed of [0, -1, Number.NaN, '3']) {
      for (const make of [
        () => new LadderClimb(skeleton, rig, { ladder, scale, maxTurnSpeed } as never),
        () =>
          new BarHang(skeleton, rig, { from: [-2, 2.4, 0], to: [2, 2.4, 0], scale, maxTurnSpeed } as never),
      ]) {
        expect(make, String(maxTurnSpeed)).toThrow(
          expect.objectContaining({
            code: 'placement/invalid-option',
            message: expect.stringContaining('maxTurnSpeed'),
          }),
        );
      }
    }
    expect(
      () => new LadderClimb(skeleton, rig, { ladder, scale, maxTurnSpeed: Number.POSITIVE_INFINITY }),
    ).not.toThrow();
  });

  it('by the default ease, turned back mid-ease (off, on, off, on): no joint over 10° a frame', async () => {
    const character = await robot();
    const { skeleton, rig, scale } = character;
    const climb = new LadderClimb(skeleton, rig, { ladder, scale });
    climb.progress = 2;
    const switches = (f: number, set: (goal: number) => void) => {
      if (f === 20 || f === 60) set(0);
      if (f === 35 || f === 100) set(1);
    };
    const climbing = run(character, 160, (f, pose, model) => {
      switches(f, (goal) => climb.setWeight(goal));
      climb.update(pose, model, 1.2 * DT, DT);
      return climb.weight;
    });
    const hang = new BarHang(skeleton, rig, { from: [-2, 2.4, 0], to: [2, 2.4, 0], scale });
    const hanging = run(character, 160, (f, pose, model) => {
      if (f === 5) hang.pushBody(0, 0, 60);
      switches(f, (goal) => hang.setWeight(goal));
      hang.update(pose, model, DT, f > 80 ? 0.006 : 0);
      return hang.weight;
    });
    for (const { steps, weights } of [climbing, hanging]) {
      expect(Math.min(...weights.slice(20, 35))).toBeGreaterThan(0.3); // turned back mid-ease
      expect(weights[159]).toBe(1);
      expect(steps).toBeLessThanOrEqual(10);
    }
  });

  it('at weight 0 the hang leaves the pose and the model as given, and still swings', async () => {
    const { skeleton, rig, scale } = await robot();
    const hang = new BarHang(skeleton, rig, { from: [-2, 2.4, 0], to: [2, 2.4, 0], scale });
    hang.setWeight(0, 0);
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    forwardKinematics(pose, model);
    const before = [...pose.translations, ...pose.rotations, ...model];
    hang.pushBody(0, 0, 60);
    const world = hang.world.slice();
    hang.update(pose, model, DT, 0);
    hang.update(pose, model, DT, 0);
    expect([...pose.translations, ...pose.rotations, ...model]).toEqual(before);
    expect(hang.world).not.toEqual(world);
  });

  it('refuses a weight outside [0, 1] or a bad ease time, and a bad dt, changing nothing', async () => {
    const { skeleton, rig, scale } = await robot();
    const climb = new LadderClimb(skeleton, rig, { ladder, scale });
    const hang = new BarHang(skeleton, rig, { from: [-2, 2.4, 0], to: [2, 2.4, 0], scale });
    climb.setWeight(0.5, 1);
    hang.setWeight(0.5, 1);
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    forwardKinematics(pose, model);
    climb.update(pose, model, 0.1, 0.25);
    hang.update(pose, model, 0.25);
    const climbWeight = climb.weight;
    const hangWeight = hang.weight;
    expect(climbWeight).toBeGreaterThan(0.5);
    expect(climbWeight).toBeLessThan(1);
    for (const [goal, time] of [
      [1.5, 0.3],
      [-0.1, 0.3],
      [Number.NaN, 0.3],
      [0.5, -1],
      [0.5, Number.POSITIVE_INFINITY],
      [0.5, Number.NaN],
    ]) {
      expect(() => climb.setWeight(goal, time)).toThrow(
        expect.objectContaining({ code: 'placement/invalid-option' }),
      );
      expect(() => hang.setWeight(goal, time)).toThrow(
        expect.objectContaining({ code: 'placement/invalid-option' }),
      );
    }
    // Not numbers (a string would compare and convert).
    expect(() => climb.setWeight('0.5' as unknown as number)).toThrow(
      expect.objectContaining({ code: 'placement/invalid-option' }),
    );
    expect(() => hang.setWeight(1, '0.2' as unknown as number)).toThrow(
      expect.objectContaining({ code: 'placement/invalid-option' }),
    );
    const snapshot = () => [climb.progress, climb.weight, ...climb.report, ...pose.rotations, ...model];
    const held = snapshot();
    for (const dt of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => climb.update(pose, model, 0.1, dt)).toThrow(
        expect.objectContaining({ code: 'placement/invalid-input' }),
      );
    }
    expect(snapshot()).toEqual(held);
    // The next good update goes on from where the ease was, toward 0.5.
    climb.update(pose, model, 0, 0.25);
    expect(climb.weight).toBeLessThan(climbWeight);
    expect(climb.weight).toBeGreaterThan(0.5);
    expect(hang.weight).toBe(hangWeight);
  });
});
