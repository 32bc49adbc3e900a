/**
 * twoBoneSolveBatch against TwoBoneIk.solve, bit for bit: a crowd of characters of one two-legged
 * skeleton in one set of buffers, each leg with its own options (hinge or least-motion, pole or
 * none, softness, weight, twist, bend range, an end rotation, an end joint or an endLocal point),
 * under rotated, translated, scaled, non-uniform and mirrored pelvises, with targets at the root,
 * at full extension, past it, folded, far beyond doubles' squares, and NaN. Each leg is solved by
 * the per-call kernel itself, so no order of operations differs: equality is exact (Object.is on
 * every number, NaN included), not to a tolerance.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TwoBoneIk, type TwoBoneIkOptions } from '../../src/ik/two-bone.js';
import { localToModel } from '../../src/kernel/local-to-model.js';
import { TWO_BONE, TWO_BONE_MEMORY_LENGTH } from '../../src/kernel/two-bone.js';
import { TWO_BONE_LEG, TWO_BONE_STATUS, twoBoneSolveBatch } from '../../src/kernel/two-bone-batch.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';
import { PARENT_CASES } from '../ik/parents.js';
import { PROPERTY_SEED } from '../ik/runs.js';
import { arbDirection as direction, arbUnitNumber as unit } from './helpers.js';

const L1 = 0.45;
const L2 = 0.42;

/** body → pelvis → (hipL → kneeL → ankleL → toeL), (hipR → kneeR → ankleR): knees bent about +X. */
const SKELETON = Skeleton.create({
  names: ['body', 'pelvis', 'hipL', 'kneeL', 'ankleL', 'toeL', 'hipR', 'kneeR', 'ankleR'],
  parents: [-1, 0, 1, 2, 3, 4, 1, 6, 7],
  restTranslations: [
    ...[0, 1, 0],
    ...[0, 0, 0],
    ...[0.1, -0.05, 0],
    ...[0, -L1, 0.03],
    ...[0, -L2, -0.03],
    ...[0, -0.05, 0.12],
    ...[-0.1, -0.05, 0],
    ...[0, -L1, 0.03],
    ...[0, -L2, -0.03],
  ],
});
const J = SKELETON.jointCount;
const LIMBS = [
  { root: 2, middle: 3, end: 4 },
  { root: 6, middle: 7, end: 8 },
] as const;

/** What one leg of one character gets: options and the kind of this frame's inputs. */
interface LegCase {
  readonly mode: 'hinge' | 'least-motion';
  readonly endLocal: boolean;
  readonly softness: number;
  readonly weight: number;
  readonly twist: number;
  readonly bendRange: boolean;
  /** Where the target is (see targetOf). */
  readonly kind: string;
  readonly dir: readonly number[];
  readonly radius: number;
  /** The pole as an offset from the middle joint, or none. */
  readonly pole: readonly number[] | null;
  /** A model-space end rotation (a zero one is invalid), or none. */
  readonly endRotation: readonly number[] | null;
  /** A NaN in the local translation of the leg's root, middle or end (0, 1, 2; −1: none). */
  readonly nanLocal: number;
  /** A number put in a local rotation or scale of the leg's root, middle or end (0, 1, 2). */
  readonly badLocal?: {
    readonly array: 'rotations' | 'scales';
    readonly joint: number;
    readonly value: number;
  };
}

interface CharacterCase {
  readonly parent: number;
  readonly pelvisRotation: readonly number[];
  readonly legRotations: readonly number[];
  readonly legs: readonly LegCase[];
}

const quat = fc
  .tuple(unit, unit, unit, unit)
  .filter(([x, y, z, w]) => x * x + y * y + z * z + w * w > 0.01)
  .map(([x, y, z, w]) => {
    const l = Math.sqrt(x * x + y * y + z * z + w * w);
    return [x / l, y / l, z / l, w / l];
  });
/** A small turn: a limb perturbed from rest, not flung about. */
const smallQuat = fc.tuple(unit, unit, unit).map(([x, y, z]) => {
  const h = [0.3 * x, 0.3 * y, 0.3 * z];
  const w = Math.sqrt(1 - h[0] * h[0] - h[1] * h[1] - h[2] * h[2]);
  return [h[0], h[1], h[2], w];
});

/**
 * Targets by kind, in the root's parent frame relative to the hip (turned into model space per
 * character): inside the reach, at the root, at full extension, past it, folded, too far to square,
 * NaN.
 */
const targetKind = fc.constantFrom(
  'inside',
  'root',
  'full',
  'past',
  'fold',
  'huge',
  'nan',
  'inside',
  'inside',
);

const legCase = fc.record({
  mode: fc.constantFrom<'hinge' | 'least-motion'>('hinge', 'hinge', 'least-motion'),
  endLocal: fc.boolean(),
  softness: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 0.5, noNaN: true })),
  weight: fc.oneof(
    fc.constant(1),
    fc.constant(1),
    fc.constant(0),
    fc.double({ min: 0, max: 1, noNaN: true }),
  ),
  twist: fc.oneof(fc.constant(0), fc.double({ min: -3, max: 3, noNaN: true })),
  bendRange: fc.boolean(),
  kind: targetKind,
  dir: direction,
  radius: fc.double({ min: 0.05, max: 0.85, noNaN: true }),
  pole: fc.oneof(fc.constant(null), direction, fc.constant([Number.NaN, 0, 0])),
  endRotation: fc.oneof(fc.constant(null), fc.constant(null), quat, fc.constant([0, 0, 0, 0])),
  nanLocal: fc.oneof(
    fc.constant(-1),
    fc.constant(-1),
    fc.constant(-1),
    fc.constant(-1),
    fc.constantFrom(0, 1, 2),
  ),
});

const characterCase = fc.record({
  parent: fc.integer({ min: 0, max: PARENT_CASES.length - 1 }),
  pelvisRotation: quat,
  legRotations: fc.array(smallQuat, { minLength: 6, maxLength: 6 }).map((qs) => qs.flat()),
  legs: fc.array(legCase, { minLength: 2, maxLength: 2 }),
});

/** The model-space target of a leg case, from the character's rest-free hip and pelvis frame. */
function targetOf(c: LegCase, model: Float64Array, hip: number): number[] {
  const h = [model[16 * hip + 12], model[16 * hip + 13], model[16 * hip + 14]];
  // Distances measured in the parent frame: the pelvis's column length (uniform cases) scales them.
  const p = 16 * 1;
  const scale = Math.sqrt(model[p] ** 2 + model[p + 1] ** 2 + model[p + 2] ** 2);
  const r =
    c.kind === 'root'
      ? 0
      : c.kind === 'full'
        ? L1 + L2
        : c.kind === 'past'
          ? 3 * (L1 + L2)
          : c.kind === 'fold'
            ? 0.01
            : c.kind === 'huge'
              ? 1e200
              : c.radius;
  if (c.kind === 'nan') return [Number.NaN, h[1], h[2]];
  return [0, 1, 2].map((k) => h[k] + c.dir[k] * r * (c.kind === 'huge' ? 1 : scale));
}

function optionsOf(leg: LegCase, l: number): TwoBoneIkOptions {
  const limb = LIMBS[l];
  return {
    root: limb.root,
    middle: limb.middle,
    ...(leg.endLocal ? { endLocal: [0, -L2, -0.03] } : { end: limb.end }),
    mode: leg.mode,
    hingeAxis: [1, 0, 0],
    softness: leg.softness,
    weight: leg.weight,
    twist: leg.twist,
    ...(leg.bendRange && leg.mode === 'hinge' ? { bendRange: [0.2, 2.4] as [number, number] } : {}),
  };
}

/** Local pose of one character: the parent case on the body, its pelvis and leg turns, the NaNs. */
function characterPose(c: CharacterCase): Pose {
  const pose = new Pose(SKELETON);
  const pc = PARENT_CASES[c.parent];
  pose.translations.set(pc.translation, 0);
  pose.rotations.set(pc.rotation, 0);
  pose.scales.set(pc.scale, 0);
  pose.rotations.set(c.pelvisRotation, 4);
  const legJoints = [2, 3, 4, 6, 7, 8];
  legJoints.forEach((j, k) => {
    pose.rotations.set(c.legRotations.slice(4 * k, 4 * k + 4), 4 * j);
  });
  c.legs.forEach((leg, l) => {
    if (leg.nanLocal >= 0) {
      const limb = LIMBS[l];
      const j = [limb.root, limb.middle, limb.end][leg.nanLocal];
      pose.translations[3 * j + 1] = Number.NaN;
    }
    if (leg.badLocal !== undefined) {
      const limb = LIMBS[l];
      const j = [limb.root, limb.middle, limb.end][leg.badLocal.joint];
      pose[leg.badLocal.array][(leg.badLocal.array === 'rotations' ? 4 : 3) * j + 1] = leg.badLocal.value;
    }
  });
  return pose;
}

/**
 * The legs' inputs in model space: target, pole and end rotation. `swap` gives each leg the other
 * leg's kinds of input (the second frame), about its own hip.
 */
function inputsOf(c: CharacterCase, model: Float64Array, swap: boolean) {
  return LIMBS.map((limb, l) => {
    const leg = c.legs[swap ? 1 - l : l];
    const target = targetOf(leg, model, limb.root);
    const offset = leg.pole;
    const pole = offset === null ? null : [0, 1, 2].map((k) => model[16 * limb.middle + 12 + k] + offset[k]);
    return { target, pole, endRotation: leg.endRotation };
  });
}

function run(characters: readonly CharacterCase[], frames: number): void {
  const count = characters.length;
  const legCount = count * 2;
  // The crowd's buffers.
  const parents = new Int32Array(J * count);
  const translations = new Float64Array(3 * J * count);
  const rotations = new Float64Array(4 * J * count);
  const scales = new Float64Array(3 * J * count);
  const model = new Float64Array(16 * J * count);
  const legs = new Int32Array(TWO_BONE_LEG.length * legCount);
  const settings = new Float64Array(TWO_BONE.length * legCount);
  const memory = new Float64Array(TWO_BONE_MEMORY_LENGTH * legCount);
  const errors = new Float64Array(legCount);
  const status = new Uint8Array(legCount);
  // The per-call side: a pose, a model buffer and a TwoBoneIk per leg.
  const poses = characters.map(characterPose);
  const models = poses.map(() => createModelBuffer(SKELETON));
  const solvers = characters.map((c) => c.legs.map((leg, l) => new TwoBoneIk(SKELETON, optionsOf(leg, l))));
  characters.forEach((_, c) => {
    for (let j = 0; j < J; j++) {
      const p = SKELETON.parents[j];
      parents[c * J + j] = p < 0 ? -1 : c * J + p;
    }
    translations.set(poses[c].translations, 3 * J * c);
    rotations.set(poses[c].rotations, 4 * J * c);
    scales.set(poses[c].scales, 3 * J * c);
    solvers[c].forEach((ik, l) => {
      const o = TWO_BONE_LEG.length * (2 * c + l);
      legs[o] = c * J + ik.root;
      legs[o + 1] = c * J + ik.middle;
      legs[o + 2] = ik.end < 0 ? -1 : c * J + ik.end;
      legs[o + 3] = c * J + SKELETON.subtreeEnds[ik.root];
    });
  });
  for (let frame = 0; frame < frames; frame++) {
    // Forward kinematics on both sides (the same arithmetic: the same bits).
    localToModel(model, parents, translations, rotations, scales, 0, J * count);
    characters.forEach((c, ci) => {
      forwardKinematics(poses[ci], models[ci]);
      expectSame(model.subarray(16 * J * ci, 16 * J * (ci + 1)), models[ci], 'model before');
      const inputs = inputsOf(c, models[ci], frame > 0);
      solvers[ci].forEach((ik, l) => {
        const leg = 2 * ci + l;
        const o = TWO_BONE.length * leg;
        const input = inputs[l];
        ik.writeSettings(settings, o);
        settings.set(input.target, o + TWO_BONE.target);
        settings[o + TWO_BONE.hasPole] = input.pole !== null ? 1 : 0;
        if (input.pole !== null) settings.set(input.pole, o + TWO_BONE.pole);
        settings[o + TWO_BONE.hasEndRotation] = input.endRotation !== null ? 1 : 0;
        if (input.endRotation !== null) settings.set(input.endRotation, o + TWO_BONE.endRotation);
        // The per-call solve: a throw leaves its pose untouched, where the batch flags the leg.
        let threw = false;
        let flags = 0;
        let error = 0;
        try {
          const st = ik.solve(poses[ci], models[ci], input.target, input.pole, input.endRotation);
          flags =
            (st.reached ? TWO_BONE_STATUS.reached : 0) |
            (st.outOfReach ? TWO_BONE_STATUS.outOfReach : 0) |
            (st.clamped ? TWO_BONE_STATUS.clamped : 0) |
            (st.degenerate ? TWO_BONE_STATUS.degenerate : 0);
          error = st.error;
        } catch {
          threw = true;
        }
        expected.set(leg, { threw, flags, error });
      });
    });
    const invalid = twoBoneSolveBatch(
      model,
      parents,
      translations,
      rotations,
      scales,
      legs,
      settings,
      memory,
      errors,
      status,
      0,
      legCount,
    );
    let threwCount = 0;
    characters.forEach((_, ci) => {
      expectSame(rotations.subarray(4 * J * ci, 4 * J * (ci + 1)), poses[ci].rotations, 'rotations');
      expectSame(model.subarray(16 * J * ci, 16 * J * (ci + 1)), models[ci], 'model');
      for (let l = 0; l < 2; l++) {
        const leg = 2 * ci + l;
        const e = expected.get(leg)!;
        if (e.threw) {
          threwCount++;
          expect(status[leg]).toBe(TWO_BONE_STATUS.invalid);
          expect(errors[leg]).toBeNaN();
        } else {
          if (status[leg] !== e.flags)
            expect.fail(`frame ${frame} leg ${leg}: status ${status[leg]}, per call ${e.flags}`);
          expect(Object.is(errors[leg], e.error)).toBe(true);
        }
      }
    });
    expect(invalid).toBe(threwCount);
  }
}

const expected = new Map<number, { threw: boolean; flags: number; error: number }>();

/** Every number the same (Object.is: NaN equals NaN, 0 and −0 differ). */
function expectSame(actual: Float64Array, wanted: Float64Array, what: string): void {
  expect(actual.length).toBe(wanted.length);
  for (let i = 0; i < actual.length; i++) {
    if (!Object.is(actual[i], wanted[i])) {
      expect.fail(`${what}[${i}]: batch ${actual[i]}, per call ${wanted[i]}`);
    }
  }
}

/**
 * Both legs of the rest pose aimed at a reachable target, `spoil` applied to the first one's
 * settings or pose, then solved as a batch: the first is flagged invalid (error NaN) with nothing
 * of it written (its rotations, model matrices and bend memory as they were), the second solved.
 */
function expectFirstLegRefused(
  spoil: (leg: { settings: Float64Array; rotations: Float64Array }) => void,
): void {
  const translations = new Float64Array(SKELETON.restTranslations);
  const rotations = new Float64Array(SKELETON.restRotations);
  const scales = new Float64Array(SKELETON.restScales);
  const model = new Float64Array(16 * J);
  localToModel(model, SKELETON.parents, translations, rotations, scales, 0, J);
  const legs = new Int32Array(8);
  const settings = new Float64Array(2 * TWO_BONE.length);
  LIMBS.forEach((limb, l) => {
    legs.set([limb.root, limb.middle, limb.end, SKELETON.subtreeEnds[limb.root]], 4 * l);
    new TwoBoneIk(SKELETON, limb).writeSettings(settings, TWO_BONE.length * l);
    settings.set([model[16 * limb.root + 12], 0.3, 0.2], TWO_BONE.length * l + TWO_BONE.target);
  });
  spoil({ settings, rotations });
  const memory = new Float64Array(8).fill(0.5);
  const errors = new Float64Array(2);
  const status = new Uint8Array(2);
  const before = { rotations: rotations.slice(), model: model.slice() };
  const invalid = twoBoneSolveBatch(
    model,
    SKELETON.parents,
    translations,
    rotations,
    scales,
    legs,
    settings,
    memory,
    errors,
    status,
    0,
    2,
  );
  expect(invalid).toBe(1);
  expect(status[0]).toBe(TWO_BONE_STATUS.invalid);
  expect(errors[0]).toBeNaN();
  expect(status[1] & TWO_BONE_STATUS.invalid).toBe(0);
  expectSame(rotations.subarray(0, 4 * 6), before.rotations.subarray(0, 4 * 6), 'rotations');
  expectSame(model.subarray(0, 16 * 6), before.model.subarray(0, 16 * 6), 'model');
  expectSame(memory.subarray(0, 4), new Float64Array(4).fill(0.5), 'memory');
}

/** One character, both legs hinged and reaching a target inside their reach, nothing invalid. */
function sampleBase(): CharacterCase {
  return {
    parent: 0,
    pelvisRotation: [0, 0, 0, 1],
    legRotations: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1],
    legs: [0, 1].map(
      (): LegCase => ({
        mode: 'hinge' as const,
        endLocal: false,
        softness: 0,
        weight: 1,
        twist: 0,
        bendRange: false,
        kind: 'inside',
        dir: [0, -0.8, 0.6],
        radius: 0.6,
        pole: null,
        endRotation: null,
        nanLocal: -1,
      }),
    ),
  };
}

describe('twoBoneSolveBatch', () => {
  it('gives TwoBoneIk.solve’s bits for every leg of a crowd, over two frames (memory carried)', () => {
    fc.assert(
      fc.property(fc.array(characterCase, { minLength: 1, maxLength: 12 }), (characters) => {
        run(characters, 2);
      }),
      { seed: PROPERTY_SEED, numRuns: 300 },
    );
  });

  it('flags a NaN target, pole or local and leaves that leg alone, the others solved', () => {
    const base = sampleBase();
    const nanTarget = { ...base, legs: [{ ...base.legs[0], kind: 'nan' }, base.legs[1]] };
    const nanPole = { ...base, legs: [base.legs[0], { ...base.legs[1], pole: [Number.NaN, 0, 0] }] };
    const nanLocal = { ...base, legs: [{ ...base.legs[0], nanLocal: 1 }, base.legs[1]] };
    const zeroEnd = { ...base, legs: [{ ...base.legs[0], endRotation: [0, 0, 0, 0] }, base.legs[1]] };
    expected.clear();
    run([base, nanTarget, nanPole, nanLocal, zeroEnd], 1);
    for (const leg of [2, 5, 6, 8]) expect(expected.get(leg)!.threw).toBe(true);
    for (const leg of [0, 1, 3, 4, 7, 9]) expect(expected.get(leg)!.threw).toBe(false);
  });

  it('flags a NaN or an infinity in a rotation or scale of root, middle or end where TwoBoneIk throws', () => {
    // The fused kernel finds the root's and the middle's rotations itself (it declines before it
    // writes); the batch checks the rest before the kernel runs: both are held to the throws here.
    const base = sampleBase();
    const cases: CharacterCase[] = [base];
    for (const array of ['rotations', 'scales'] as const) {
      for (let joint = 0; joint < 3; joint++) {
        for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
          cases.push({
            ...base,
            legs: [{ ...base.legs[0], badLocal: { array, joint, value } }, base.legs[1]],
          });
        }
      }
    }
    expected.clear();
    run(cases, 1);
    for (let c = 1; c < cases.length; c++) {
      expect(expected.get(2 * c)!.threw).toBe(true);
      expect(expected.get(2 * c + 1)!.threw).toBe(false);
    }
  });

  it('flags a leg whose weight or softness was set to NaN in its settings, writing nothing of it', () => {
    for (const slot of [TWO_BONE.weight, TWO_BONE.softness]) {
      expectFirstLegRefused((leg) => {
        leg.settings[slot] = Number.NaN;
      });
    }
  });

  it('flags a leg at weight 0 whose root rotation has length 0 (TwoBoneIk.solve throws there), writing nothing of it', () => {
    // At weight 0 the solve writes no rotation, but the pose it would read must still be usable.
    expectFirstLegRefused((leg) => {
      leg.settings[TWO_BONE.weight] = 0;
      leg.rotations.fill(0, 4 * LIMBS[0].root, 4 * LIMBS[0].root + 4);
    });
  });

  it('solves a leg range (first, count) and nothing outside it', () => {
    const characters: CharacterCase[] = fc.sample(characterCase, { seed: PROPERTY_SEED, numRuns: 3 });
    const count = characters.length;
    const poses = characters.map(characterPose);
    const parents = new Int32Array(J * count);
    const translations = new Float64Array(3 * J * count);
    const rotations = new Float64Array(4 * J * count);
    const scales = new Float64Array(3 * J * count);
    const model = new Float64Array(16 * J * count);
    for (let c = 0; c < count; c++) {
      for (let j = 0; j < J; j++) {
        const p = SKELETON.parents[j];
        parents[c * J + j] = p < 0 ? -1 : c * J + p;
      }
      translations.set(poses[c].translations, 3 * J * c);
      rotations.set(poses[c].rotations, 4 * J * c);
      scales.set(poses[c].scales, 3 * J * c);
    }
    localToModel(model, parents, translations, rotations, scales, 0, J * count);
    const legs = new Int32Array(4 * count);
    const settings = new Float64Array(TWO_BONE.length * count);
    for (let c = 0; c < count; c++) {
      legs.set([c * J + 2, c * J + 3, c * J + 4, c * J + 6], 4 * c);
      new TwoBoneIk(SKELETON, { root: 2, middle: 3, end: 4 }).writeSettings(settings, TWO_BONE.length * c);
      settings.set([model[16 * (c * J + 2) + 12], -5, 0.3], TWO_BONE.length * c + TWO_BONE.target);
    }
    const before = { rotations: rotations.slice(), model: model.slice() };
    const status = new Uint8Array(count);
    twoBoneSolveBatch(
      model,
      parents,
      translations,
      rotations,
      scales,
      legs,
      settings,
      new Float64Array(4 * count),
      new Float64Array(count),
      status,
      1,
      1,
    );
    expect(status[0]).toBe(0);
    expect(status[2]).toBe(0);
    expect(status[1] & TWO_BONE_STATUS.outOfReach).toBe(TWO_BONE_STATUS.outOfReach);
    for (const c of [0, 2]) {
      expectSame(
        rotations.subarray(4 * J * c, 4 * J * (c + 1)),
        before.rotations.subarray(4 * J * c, 4 * J * (c + 1)),
        'r',
      );
      expectSame(
        model.subarray(16 * J * c, 16 * J * (c + 1)),
        before.model.subarray(16 * J * c, 16 * J * (c + 1)),
        'm',
      );
    }
    expect(rotations[4 * (J + 2)]).not.toBe(before.rotations[4 * (J + 2)]);
  });
});
