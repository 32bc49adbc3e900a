/**
 * LookAt on the robot: the head's forward turns to a point (shared with the neck and torso by
 * shares), stays upright, eases in and out, and keeps within its cone.
 */
import { describe, expect, it } from 'vitest';
import type { Clip } from '../../src/animation/clip.js';
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import { TendonError } from '../../src/errors.js';
import { LookAt, type LookAtOptions } from '../../src/placement/look-at.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { findRig } from '../../src/rig/find-rig.js';
import type { Rig } from '../../src/rig/limbs.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';
import { fox, robot } from './characters.js';

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** The head's forward (the rest pose's +Z carried by its rotation) in model space, normalized. */
function headForward(model: Float64Array, rest: Float64Array, head: number): number[] {
  // Forward in the head's frame is its rest rotation's inverse applied to +Z; carried to model
  // space by its current matrix: equivalently the current matrix times (rest matrix⁻¹ · +Z).
  const r = rest.subarray(16 * head, 16 * head + 16);
  const m = model.subarray(16 * head, 16 * head + 16);
  // Rest columns are orthogonal with equal lengths: the inverse's 3x3 is the transpose over length².
  const len2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  const local = [r[2] / len2, r[6] / len2, r[10] / len2];
  const f = [0, 1, 2].map((k) => m[k] * local[0] + m[4 + k] * local[1] + m[8 + k] * local[2]);
  const l = Math.hypot(f[0], f[1], f[2]);
  return f.map((x) => x / l);
}

/** The robot at rest: its skeleton, rig, pose and model matrices (forward kinematics done). */
async function robotAtRest() {
  const { skeleton } = await robot();
  const rig = findRig(skeleton);
  const pose = new Pose(skeleton);
  const model = createModelBuffer(skeleton);
  forwardKinematics(pose, model);
  return { skeleton, rig, pose, model };
}

describe('LookAt', () => {
  it("turns the robot's head to a point in front, sharing the turn with neck and torso", async () => {
    const { skeleton, rig, pose, model } = await robotAtRest();
    const rest = model.slice();
    const look = new LookAt(skeleton, rig, { smoothTime: 0 });
    expect(look.joints.map((j) => skeleton.names[j])).toEqual(['Torso', 'Neck', 'Head']);
    const head = rig.head;
    const eye = model.subarray(16 * head + 12, 16 * head + 15).slice();
    const target = [eye[0] + 1.2, eye[1] + 0.4, eye[2] + 2];
    look.solve(pose, model, target, IDENTITY, 1 / 60);
    const f = headForward(model, rest, head);
    const p = model.subarray(16 * head + 12, 16 * head + 15);
    const d = [target[0] - p[0], target[1] - p[1], target[2] - p[2]];
    const dl = Math.hypot(d[0], d[1], d[2]);
    const cos = (f[0] * d[0] + f[1] * d[1] + f[2] * d[2]) / dl;
    expect(cos).toBeGreaterThan(0.9999);
    // The neck and torso took part of the turn.
    for (const name of ['Torso', 'Neck']) {
      const j = skeleton.jointIndex(name);
      expect(Math.abs(pose.rotations[4 * j + 3] - skeleton.restRotations[4 * j + 3])).toBeGreaterThan(1e-4);
    }
  });

  it('holds within the cone for a point behind, and eases out to the animation', async () => {
    const { skeleton, rig, pose, model } = await robotAtRest();
    const look = new LookAt(skeleton, rig, { coneAngle: 0.5 });
    look.solve(pose, model, [0, 3, 5], IDENTITY, 1 / 60);
    expect(Array.from(look.clamped)).toEqual([0, 0, 0]);
    look.reset();
    pose.resetToRest();
    forwardKinematics(pose, model);
    look.solve(pose, model, [0, 3, -5], IDENTITY, 1 / 60);
    expect(Array.from(look.clamped)).toEqual([1, 1, 1]);
    look.setWeight(0, 0.2);
    for (let f = 0; f < 13; f++) {
      pose.resetToRest();
      forwardKinematics(pose, model);
      look.solve(pose, model, [0, 3, 5], IDENTITY, 1 / 60);
    }
    expect(look.weight).toBe(0);
    expect(pose.rotations).toEqual(skeleton.restRotations);
  });

  it('never turns a joint more than 9° a frame (3π rad/s) for a target crossing behind, circling or jumping side to side', async () => {
    // Until 27 November a target crossing the line straight behind the head (1 mm a frame, 2 m
    // back) turned the torso 89.9° and the head 83.4° in one frame: the cone's nearest turn flips
    // from one side to the other there (a hostile test).
    const character = await robot();
    const { skeleton } = character;
    const rig = findRig(skeleton);
    const idle = character.clips.get('Idle') as Clip;
    const world = [0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 1];
    const base = new Pose(skeleton);
    const baseModel = createModelBuffer(skeleton);
    sampleClip(idle, new SamplerContext(idle), 0, base);
    forwardKinematics(base, baseModel);
    // [label, target at frame f, whether it pops without the limit]
    const paths: [string, (f: number) => number[], boolean][] = [
      // (Smooth without the limit too since the aim's roll is redone after its cone, 27 November.)
      ['crossing behind', (f) => [(f - 40) * 0.001, 1.5, -2], false],
      // Once round the head in 2 s (the cone's nearest turn flips from side to side behind it).
      ['circling', (f) => circle[f % circle.length], true],
      ['jumping side to side', (f) => [Math.floor(f / 20) % 2 === 0 ? -2 : 2, 1.5, 0], true],
      ['jumping side to side behind', (f) => [Math.floor(f / 20) % 2 === 0 ? -2 : 2, 1.5, -1], true],
    ];
    // 120 points round a circle of 2 m, by rotating a step (cos, sin of 3°) with no Math.sin.
    const circle: number[][] = [];
    let [cx, cz] = [0, 2];
    const [c3, s3] = [0.9986295347545738, 0.05233595624294383];
    for (let k = 0; k < 120; k++) {
      circle.push([cx, 1.5, cz]);
      [cx, cz] = [c3 * cx - s3 * cz, s3 * cx + c3 * cz];
    }
    const angle = (a: Float64Array, b: Float64Array, j: number) => {
      const d = Math.abs(
        a[4 * j] * b[4 * j] +
          a[4 * j + 1] * b[4 * j + 1] +
          a[4 * j + 2] * b[4 * j + 2] +
          a[4 * j + 3] * b[4 * j + 3],
      );
      return (2 * Math.acos(Math.min(1, d)) * 180) / Math.PI;
    };
    for (const [label, at, pops] of paths) {
      for (const maxTurnSpeed of [undefined, Number.POSITIVE_INFINITY]) {
        const look = new LookAt(skeleton, rig, maxTurnSpeed === undefined ? {} : { maxTurnSpeed });
        const pose = new Pose(skeleton);
        const model = createModelBuffer(skeleton);
        let previous: Float64Array | null = null;
        let most = 0;
        for (let f = 0; f < 240; f++) {
          pose.copyFrom(base);
          model.set(baseModel);
          look.solve(pose, model, at(f), world, 1 / 60);
          if (previous)
            for (const j of look.joints) most = Math.max(most, angle(previous, pose.rotations, j));
          previous = pose.rotations.slice();
        }
        if (maxTurnSpeed === undefined) expect(most, label).toBeLessThanOrEqual(9 + 1e-9);
        // Without the limit the same paths pop (the measure can fail).
        else if (pops) expect(most, label).toBeGreaterThan(30);
      }
    }
  });

  it("keeps a head the clip spins within its cone, and turns no joint more than 9° a frame beyond the clip's own turn (robot Dance)", async () => {
    // Until 27 November the limit held the turn the look adds: where the Dance clip spins the
    // head (25° a frame, to 163° from rest) that turn was carried along, and the head stood 138°
    // from rest with a cone of 46° (a hostile test).
    const character = await robot();
    const { skeleton } = character;
    const rig = findRig(skeleton);
    const dance = character.clips.get('Dance') as Clip;
    const context = new SamplerContext(dance);
    const look = new LookAt(skeleton, rig);
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    const restModel = createModelBuffer(skeleton);
    forwardKinematics(new Pose(skeleton), restModel);
    // Each look joint's forward in its own frame, and where its rest rotation points it.
    const forwardOf = (j: number, q: ArrayLike<number>, o: number) => {
      const r = restModel.subarray(16 * j, 16 * j + 16);
      const v = [r[2], r[6], r[10]];
      const [x, y, z, w] = [q[o], q[o + 1], q[o + 2], q[o + 3]];
      const tx = 2 * (y * v[2] - z * v[1]);
      const ty = 2 * (z * v[0] - x * v[2]);
      const tz = 2 * (x * v[1] - y * v[0]);
      const f = [
        v[0] + w * tx + (y * tz - z * ty),
        v[1] + w * ty + (z * tx - x * tz),
        v[2] + w * tz + (x * ty - y * tx),
      ];
      const l = Math.hypot(f[0], f[1], f[2]);
      return f.map((c) => c / l);
    };
    const degrees = (a: number[], b: number[]) =>
      (Math.acos(Math.min(1, a[0] * b[0] + a[1] * b[1] + a[2] * b[2])) * 180) / Math.PI;
    const turn = (a: Float64Array, b: Float64Array, o: number) =>
      (2 *
        Math.acos(
          Math.min(
            1,
            Math.abs(a[o] * b[o] + a[o + 1] * b[o + 1] + a[o + 2] * b[o + 2] + a[o + 3] * b[o + 3]),
          ),
        ) *
        180) /
      Math.PI;
    // The target circles the robot at head height once in 6 s (3 m out), by steps of 1° (no Math.sin).
    const [c1, s1] = [0.9998476951563913, 0.01745240643728351];
    let [tx, tz] = [0, 3];
    let headMost = 0;
    let animatedMost = 0;
    let beyond = 0;
    let previous: Float64Array | null = null;
    let previousAnimated: Float64Array | null = null;
    for (let f = 0; f < 600; f++) {
      pose.resetToRest();
      sampleClip(dance, context, (f / 60) % dance.duration, pose);
      const animated = pose.rotations.slice();
      forwardKinematics(pose, model);
      look.solve(pose, model, [tx, 1.5, tz], IDENTITY, 1 / 60);
      [tx, tz] = [c1 * tx - s1 * tz, s1 * tx + c1 * tz];
      const head = look.joints[look.joints.length - 1];
      const rest = forwardOf(head, skeleton.restRotations, 4 * head);
      headMost = Math.max(headMost, degrees(rest, forwardOf(head, pose.rotations, 4 * head)));
      animatedMost = Math.max(animatedMost, degrees(rest, forwardOf(head, animated, 4 * head)));
      if (previous && previousAnimated) {
        for (const j of look.joints) {
          beyond = Math.max(
            beyond,
            turn(previous, pose.rotations, 4 * j) - turn(previousAnimated, animated, 4 * j),
          );
        }
      }
      previous = pose.rotations.slice();
      previousAnimated = animated;
    }
    // The clip spins the head far past the cone; the look holds it in (0.8 rad = 45.84°; 138° before).
    expect(animatedMost).toBeGreaterThan(150);
    expect(headMost).toBeLessThan(45.9);
    // (Within 9° plus the little that holding a turned-back joint in its cone may move it.)
    expect(beyond).toBeLessThanOrEqual(9.01);
  });

  it('refuses a dt that is not a number (a string was read as one)', async () => {
    const { skeleton, rig, pose, model } = await robotAtRest();
    const look = new LookAt(skeleton, rig);
    expect(() => look.solve(pose, model, [0, 1.5, 2], IDENTITY, '0.016' as never)).toThrow(
      expect.objectContaining({ code: 'placement/invalid-input', message: expect.stringContaining('dt is') }),
    );
  });

  it('keeps looking with a smoothing time of 1e-200 or after a step of 1e308 seconds', async () => {
    // Until 27 November the target's spring kept a NaN velocity there: every later frame was
    // refused as an ik/invalid-target (a hostile test).
    const { skeleton, rig, pose, model } = await robotAtRest();
    const start = model.slice();
    const rotations = pose.rotations.slice();
    for (const [options, dts] of [
      [{ smoothTime: 1e-200 }, [1 / 60, 1 / 60, 1 / 60, 1 / 60]],
      [{}, [1 / 60, 1e308, 1 / 60, 1 / 60]],
    ] as const) {
      const look = new LookAt(skeleton, rig, options);
      dts.forEach((dt, f) => {
        pose.rotations.set(rotations);
        model.set(start);
        look.solve(pose, model, f < 1 ? [2, 1.5, 2] : [-2, 1.5, 2], IDENTITY, dt);
        expect(model.every(Number.isFinite)).toBe(true);
      });
    }
  });

  it('eases out faster than it may turn at the limit’s pace, then passes the pose as given; a weight set again every frame keeps the limit', async () => {
    // A review: eased out over 0.05 s the held-back turn snapped back in a frame once the weight
    // reached 0 (29°), and setWeight(1, 0) every frame kept the limit off.
    const { skeleton, rig, pose, model } = await robotAtRest();
    const start = model.slice();
    const rotations = pose.rotations.slice();
    const angle = (a: Float64Array, b: Float64Array, j: number) => {
      let d = 0;
      for (let c = 0; c < 4; c++) d += a[4 * j + c] * b[4 * j + c];
      return (2 * Math.acos(Math.min(1, Math.abs(d))) * 180) / Math.PI;
    };
    const run = (frame: (look: LookAt, f: number) => number[]) => {
      const look = new LookAt(skeleton, rig, { smoothTime: 0 });
      let previous: Float64Array | null = null;
      let most = 0;
      for (let f = 0; f < 80; f++) {
        pose.rotations.set(rotations);
        model.set(start);
        look.solve(pose, model, frame(look, f), IDENTITY, 1 / 60);
        if (previous && f > 0)
          for (const j of look.joints) most = Math.max(most, angle(previous, pose.rotations, j));
        previous = pose.rotations.slice();
      }
      return { most, look };
    };
    const easedOut = run((look, f) => {
      if (f === 20) look.setWeight(0, 0.05);
      return [3, 1.5, 0.5];
    });
    // (Frame 0 to 1 is the first look, at once.)
    expect(easedOut.most).toBeLessThanOrEqual(9 + 1e-9);
    expect(easedOut.look.weight).toBe(0);
    expect(pose.rotations).toEqual(rotations);
    const setEachFrame = run((look, f) => {
      look.setWeight(1, 0);
      return [f % 20 < 10 ? 3 : -3, 1.5, 0.5];
    });
    expect(setEachFrame.most).toBeLessThanOrEqual(9 + 1e-9);
  });

  it('a pose not animated since its last solve (a joint the clip has no channel for) is turned from where the look found it, not from its own turn', async () => {
    // A hostile test of placement.md's own loop, which sampled the Walking clip (no Torso channel)
    // without resetting the pose: the torso stood turned 46° instead of 11.5°, and stayed so once
    // the look had eased out.
    const { skeleton, clips } = await robot();
    const rig = findRig(skeleton);
    const walk = clips.get('Walking') as Clip;
    const torso = skeleton.jointIndex('Torso');
    const run = (reset: boolean) => {
      const look = new LookAt(skeleton, rig);
      const pose = new Pose(skeleton);
      const model = createModelBuffer(skeleton);
      const context = new SamplerContext(walk);
      const world = [0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 1];
      const frames: Float64Array[] = [];
      for (let f = 0; f < 240; f++) {
        if (f === 120) look.setWeight(0, 0.3);
        if (f === 200) look.setWeight(1, 0.3);
        if (reset) pose.resetToRest();
        sampleClip(walk, context, f / 60, pose);
        forwardKinematics(pose, model);
        look.solve(pose, model, [3, 1.6, 1], world, 1 / 60);
        frames.push(Float64Array.of(...pose.rotations, ...model));
      }
      return { frames, rotations: pose.rotations };
    };
    const reset = run(true);
    const given = run(false);
    // The same bits, frame by frame, whether the pose was reset or not.
    for (let f = 0; f < reset.frames.length; f++) expect(given.frames[f]).toEqual(reset.frames[f]);
    // (And the torso did turn: at frame 119 it is off the rest, at 199 back on it.)
    const rest = new Pose(skeleton).rotations;
    const at = (f: number) => reset.frames[f].subarray(4 * torso, 4 * torso + 4);
    expect(Array.from(at(119))).not.toEqual(Array.from(rest.subarray(4 * torso, 4 * torso + 4)));
    expect(Array.from(at(199))).toEqual(Array.from(rest.subarray(4 * torso, 4 * torso + 4)));
  });

  it('turns at once on its first solve, after reset() and after a weight set with no ease', async () => {
    const { skeleton, rig, pose, model } = await robotAtRest();
    const start = model.slice();
    const rotations = pose.rotations.slice();
    const frame = (look: LookAt, target: number[]) => {
      pose.rotations.set(rotations);
      model.set(start);
      look.solve(pose, model, target, IDENTITY, 1 / 60);
      return pose.rotations.slice();
    };
    // Far to each side: 9° a frame takes several frames to get from one to the other.
    const [left, right] = [
      [3, 1.5, 0.5],
      [-3, 1.5, 0.5],
    ];
    const firstLeft = frame(new LookAt(skeleton, rig, { smoothTime: 0 }), left);
    const firstRight = frame(new LookAt(skeleton, rig, { smoothTime: 0 }), right);
    const look = new LookAt(skeleton, rig, { smoothTime: 0 });
    expect(frame(look, left)).toEqual(firstLeft);
    // Limited: not there in a frame.
    expect(frame(look, right)).not.toEqual(firstRight);
    look.reset();
    expect(frame(look, right)).toEqual(firstRight);
    look.setWeight(0, 0);
    frame(look, left);
    look.setWeight(1, 0);
    expect(frame(look, left)).toEqual(firstLeft);
    // Eased in instead, the limit holds from the animation (weight 0: nothing added).
    look.setWeight(0, 0);
    frame(look, right);
    look.setWeight(1, 0.01);
    expect(frame(look, right)).not.toEqual(firstRight);
  });

  it('turns each joint as its AimIk would, to the bit, whether its joints are a chain or not', async () => {
    const character = await robot();
    const { skeleton } = character;
    const clip = character.clips.get('Walking') as Clip;
    const rig = findRig(skeleton);
    const j = (name: string) => skeleton.jointIndex(name);
    const cases: LookAtOptions[] = [
      {},
      // A chain with a joint between two of its joints (Torso), and one that is no chain.
      { joints: [j('Abdomen'), j('Neck'), j('Head')], shares: [0.3, 0.5, 1] },
      { joints: [j('Torso'), j('Head'), j('Neck')], shares: [0.3, 0.5, 1] },
      { coneAngle: 0.3 },
    ];
    const world = [0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0, 0.2, 0, -1, 1];
    for (const options of cases) {
      // No turn limit: the target jumps front to back every frame, and the limit is not AimIk's.
      const look = new LookAt(skeleton, rig, {
        ...options,
        smoothTime: 0,
        maxTurnSpeed: Number.POSITIVE_INFINITY,
      });
      const shares = options.shares ?? [0.25, 0.4, 1];
      const pose = new Pose(skeleton);
      const model = createModelBuffer(skeleton);
      const reference = new Pose(skeleton);
      const referenceModel = createModelBuffer(skeleton);
      const context = new SamplerContext(clip);
      let differing = 0;
      for (let f = 0; f < 90; f++) {
        // Reset first: the clip has no Torso channel (the reference would turn on from the look's
        // last turn, which the look itself does not).
        pose.resetToRest();
        sampleClip(clip, context, f / 60, pose);
        forwardKinematics(pose, model);
        reference.copyFrom(pose);
        referenceModel.set(model);
        if (f === 30) look.setWeight(0, 0.2);
        if (f === 50) look.setWeight(1, 0.3);
        const target = [Math.cos(f / 9) * 2, 1 + Math.sin(f / 13), f % 2 === 0 ? 3 : -3 + f / 30];
        look.solve(pose, model, target, world, 1 / 60);
        // The look's own AimIk solvers, in turn, as LookAt solved with them until 26 November.
        const modelTarget = new Float64Array([
          (target[0] - 0.2) / 0.5,
          target[1] / 0.5,
          (target[2] + 1) / 0.5,
        ]);
        if (look.weight > 0) {
          look.solvers.forEach((solver, i) => {
            solver.weight = shares[i] * look.weight;
            solver.solve(reference, referenceModel, modelTarget, new Float64Array([0, 1, 0]));
          });
        }
        if (!pose.rotations.every((v, k) => Object.is(v, reference.rotations[k]))) differing++;
        if (!model.every((v, k) => Object.is(v, referenceModel[k]))) differing++;
      }
      expect(differing).toBe(0);
    }
  });

  it('refuses a joint it turns holding a NaN before it turns any (nothing written)', async () => {
    const { skeleton, rig, pose, model } = await robotAtRest();
    const look = new LookAt(skeleton, rig, { smoothTime: 0 });
    const neck = skeleton.jointIndex('Neck');
    pose.translations[3 * neck] = Number.NaN;
    const rotations = pose.rotations.slice();
    const before = model.slice();
    let error: unknown;
    try {
      look.solve(pose, model, [1, 2, 3], IDENTITY, 1 / 60);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TendonError);
    expect((error as TendonError).code).toBe('pose/not-finite');
    expect((error as TendonError).message).toContain('"Neck"');
    // Until 26 November the torso, below the neck, had been turned before the neck's turn failed.
    expect([...pose.rotations]).toEqual([...rotations]);
    expect([...model]).toEqual([...before]);
  });

  it('keeps the model whole on small skeletons: a chain whose middle joint does not turn, a skeleton not stored depth-first', () => {
    const rigOf = (head: number): Rig => ({
      legs: [],
      arms: [],
      pelvis: -1,
      spine: [],
      neck: [],
      head,
      convention: null,
    });
    // R → A → B → C → D: A turns half a turn, B's target is its own origin (nothing to turn), C
    // reads B's matrix, which A's turn moved.
    const chain = Skeleton.create({
      names: ['R', 'A', 'B', 'C', 'D'],
      parents: [-1, 0, 1, 2, 3],
      restTranslations: [0, 0, 0, 0, 1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1],
    });
    const options = { joints: [1, 2, 3], shares: [1, 0.5, 1], coneAngle: Math.PI, smoothTime: 0 };
    const look = new LookAt(chain, rigOf(3), options);
    const pose = new Pose(chain);
    const model = createModelBuffer(chain);
    forwardKinematics(pose, model);
    const target = [0, 1, -0.5];
    look.solve(pose, model, target, IDENTITY, 1 / 60);
    const reference = new Pose(chain);
    const referenceModel = createModelBuffer(chain);
    forwardKinematics(reference, referenceModel);
    look.solvers.forEach((solver, i) => {
      solver.weight = options.shares[i];
      solver.solve(reference, referenceModel, new Float64Array(target), new Float64Array([0, 1, 0]));
    });
    expect(look.solvers[1].status.degenerate).toBe(true);
    expect(Array.from(pose.rotations)).toEqual(Array.from(reference.rotations));
    expect(Array.from(model)).toEqual(Array.from(referenceModel));
    // R: A, X; A: B; X: Y, stored breadth-first: X lies inside A's index range, not below it.
    const wide = Skeleton.create({
      names: ['R', 'A', 'X', 'B', 'Y'],
      parents: [-1, 0, 0, 1, 2],
      restTranslations: [0, 0, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0],
    });
    const across = new LookAt(wide, rigOf(2), { joints: [1, 2], shares: [0.5, 1], smoothTime: 0 });
    const widePose = new Pose(wide);
    const wideModel = createModelBuffer(wide);
    forwardKinematics(widePose, wideModel);
    across.solve(widePose, wideModel, [3, 2, 4], IDENTITY, 1 / 60);
    const fresh = createModelBuffer(wide);
    forwardKinematics(widePose, fresh);
    expect(Array.from(wideModel)).toEqual(Array.from(fresh));
    expect(widePose.rotations[4 * 2 + 3]).not.toBe(1);
  });

  // Until 27 November the look took +Z whatever the rig: a character facing −Z (VRM 0.x) turned its
  // head away from a target in front of it, every cone clamped.
  it("looks the way the rig faces (findRig's forward): a head facing −Z turns to a point in front", () => {
    const rig = (forward: [number, number, number] | null): Rig => ({
      legs: [],
      arms: [],
      pelvis: -1,
      spine: [],
      neck: [],
      head: 1,
      convention: null,
      forward,
    });
    const skeleton = Skeleton.create({
      names: ['neck', 'head'],
      parents: [-1, 0],
      restTranslations: [0, 1.5, 0, 0, 0.1, 0],
    });
    // In front of a character facing −Z, a little to one side and up.
    const target = [0.3, 1.8, -2];
    const offTarget = (forward: [number, number, number] | null, options: LookAtOptions = {}) => {
      const look = new LookAt(skeleton, rig(forward), { smoothTime: 0, ...options });
      const pose = new Pose(skeleton);
      const model = createModelBuffer(skeleton);
      forwardKinematics(pose, model);
      look.solve(pose, model, target, IDENTITY, 1 / 60);
      // The head's −Z axis against the direction to the target, degrees.
      const d = [0, 1, 2].map((k) => target[k] - model[16 + 12 + k]);
      const a = [0, 1, 2].map((k) => -model[16 + 8 + k]);
      const cos = (a[0] * d[0] + a[1] * d[1] + a[2] * d[2]) / Math.hypot(...a) / Math.hypot(...d);
      return { degrees: (Math.acos(Math.min(1, cos)) * 180) / Math.PI, clamped: look.clamped[0] };
    };
    expect(offTarget([0, 0, -1]).degrees).toBeLessThan(1e-6);
    expect(offTarget([0, 0, -1]).clamped).toBe(0);
    // Given by hand, the same; without a facing (a rig written by hand), +Z: away from it.
    expect(offTarget(null, { forward: [0, 0, -1] }).degrees).toBeLessThan(1e-6);
    expect(offTarget(null).degrees).toBeGreaterThan(30);
  });

  // The default joints began at the rig's top spine joint, from which a four-legged body's front
  // legs hang: the look dragged the Fox's planted front paws (0.7 cm of slide became 5.2 cm
  // looking 56° aside).
  it('turns by default no joint a leg hangs from (the Fox: neck and head), and a biped its torso too', async () => {
    const animal = await fox();
    const look = new LookAt(animal.skeleton, animal.rig);
    for (const j of look.joints) {
      for (const leg of animal.rig.legs) expect(animal.skeleton.isAncestor(j, leg.root)).toBe(false);
    }
    expect(look.joints).toContain(animal.rig.head);
    const human = await robot();
    expect(new LookAt(human.skeleton, human.rig).joints[0]).toBe(human.rig.spine[human.rig.spine.length - 1]);
  });

  // A joint given by name was kept as given, and every solve threw "cannot be turned" after writing
  // the first joint's aim; an up leaning toward forward rolled the head off upright (13° for
  // [0, 1, 0.3], upside down near forward).
  it('takes joints by name as by index, and an up leaning toward forward as its part across it', async () => {
    const { skeleton, rig } = await robot();
    const target = [1, 4, 3];
    const solveWith = (options: LookAtOptions) => {
      const look = new LookAt(skeleton, rig, { smoothTime: 0, ...options });
      const pose = new Pose(skeleton);
      const model = createModelBuffer(skeleton);
      forwardKinematics(pose, model);
      look.solve(pose, model, target, IDENTITY, 1 / 60);
      return { joints: look.joints, rotations: Array.from(pose.rotations) };
    };
    const neck = skeleton.indexOf('Neck');
    const head = skeleton.indexOf('Head');
    const byIndex = solveWith({ joints: [neck, head] });
    const byName = solveWith({ joints: ['Neck', 'Head'] });
    expect(byName).toEqual(byIndex);
    expect(() => new LookAt(skeleton, rig, { joints: ['Nek'] })).toThrow(
      expect.objectContaining({
        code: 'placement/invalid-option',
        message: expect.stringContaining('joints[0]'),
      }),
    );
    expect(solveWith({ up: [0, 2, 0.6] }).rotations).toEqual(solveWith({ up: [0, 2, 0] }).rotations);
  });

  it('reports no clamp while its weight is 0', async () => {
    const { skeleton, rig, pose, model } = await robotAtRest();
    const look = new LookAt(skeleton, rig, { coneAngle: 0.3 });
    look.solve(pose, model, [0, 3, -5], IDENTITY, 1 / 60);
    expect(Array.from(look.clamped)).toEqual([1, 1, 1]);
    look.setWeight(0, 0);
    look.solve(pose, model, [0, 3, -5], IDENTITY, 1 / 60);
    expect(Array.from(look.clamped)).toEqual([0, 0, 0]);
  });
  it('refuses a target the inverse world sends past doubles with nothing stepped: the next frame is as if it had not come', async () => {
    const { skeleton, rig } = await robotAtRest();
    const world = [0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 1];
    const tiny = [1e-100, 0, 0, 0, 0, 1e-100, 0, 0, 0, 0, 1e-100, 0, 0, 0, 0, 1];
    const run = (refuse: boolean) => {
      const look = new LookAt(skeleton, rig);
      const model = createModelBuffer(skeleton);
      let pose = new Pose(skeleton);
      for (let frame = 0; frame < 3; frame++) {
        pose = new Pose(skeleton);
        forwardKinematics(pose, model);
        if (frame === 1 && refuse) {
          const rotations = pose.rotations.slice();
          let error: unknown;
          try {
            look.solve(pose, model, [1e300, 1.6, 3], tiny, 1 / 60);
          } catch (e) {
            error = e;
          }
          expect((error as TendonError).code).toBe('ik/invalid-target');
          expect([...pose.rotations]).toEqual([...rotations]);
        } else look.solve(pose, model, [1, 1.6, 3], world, 1 / 60);
      }
      return [...pose.rotations, look.weight];
    };
    // Until 26 November (night) the refused frame's target had stepped the smoothing: the head
    // then looked 70° away from where a look that never saw it looked.
    expect(run(true)).toEqual(run(false));
  });

  it('refuses bad options as its own (placement/invalid-option, naming the option)', async () => {
    const { skeleton, rig } = await robotAtRest();
    const refuses = (options: Record<string, unknown>, text: string) => {
      let error: unknown;
      try {
        new LookAt(skeleton, rig, options as LookAtOptions);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TendonError);
      expect((error as TendonError).code).toBe('placement/invalid-option');
      expect((error as TendonError).message).toContain(text);
    };
    for (const smoothTime of [Number.NaN, -1, Number.POSITIVE_INFINITY, 'slow'])
      refuses({ smoothTime }, 'smoothTime');
    refuses({ coneAngle: 10 }, 'coneAngle');
    refuses({ coneAngle: Number.NaN }, 'coneAngle');
    refuses({ up: [0, 0, 1] }, 'parallel');
    refuses({ up: [0, Number.NaN, 1] }, 'up');
    refuses({ forward: [0, 0] }, 'forward');
    for (const maxTurnSpeed of [0, -1, Number.NaN, '6']) refuses({ maxTurnSpeed }, 'maxTurnSpeed');
    // Typed arrays and a smoothing of 0 (no smoothing) are fine.
    expect(
      () => new LookAt(skeleton, rig, { up: new Float64Array([0, 1, 0]) as never, smoothTime: 0 }),
    ).not.toThrow();
    // setWeight takes numbers only (a string compared and converted, and was taken).
    const look = new LookAt(skeleton, rig);
    for (const [goal, time] of [
      ['0.5', 0.3],
      [0.5, '0.3'],
      [1.5, 0.3],
      [0.5, Number.NaN],
    ]) {
      expect(() => look.setWeight(goal as number, time as number)).toThrow(
        expect.objectContaining({ code: 'placement/invalid-option' }),
      );
    }
    expect(look.weight).toBe(1);
  });
});
