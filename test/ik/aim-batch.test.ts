/**
 * AimBatch against AimIk.solve, bit for bit: a crowd of characters of one skeleton (a head with an
 * up axis, an offset, cone and twist limits and a weight; an arm without an up axis), under
 * rotated, translated, scaled, non-uniform and mirrored bodies, with targets anywhere, at the
 * joint, nearer than the offset, far beyond doubles' squares and NaN, up directions along the
 * target, NaN or given to a bone without an up axis, and NaN in a local transform. The batch runs
 * the solver object's steps in the same order on the same helpers, so no order of operations
 * differs: equality is exact (Object.is on every number), over two frames.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AimIk, type AimIkOptions } from '../../src/ik/aim.js';
import { AimBatch } from '../../src/ik/aim-batch.js';
import { localToModel } from '../../src/kernel/local-to-model.js';
import { TWO_BONE_STATUS } from '../../src/kernel/two-bone-batch.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';
import { PARENT_CASES } from './parents.js';
import { PROPERTY_SEED } from './runs.js';

/** body → chest → (neck → head → nose), (arm → hand). */
const SKELETON = Skeleton.create({
  names: ['body', 'chest', 'neck', 'head', 'nose', 'arm', 'hand'],
  parents: [-1, 0, 1, 2, 3, 1, 5],
  restTranslations: [0, 1, 0, 0, 0.4, 0, 0, 0.3, 0, 0, 0.1, 0, 0, 0.05, 0.1, 0.2, 0.2, 0, 0.3, 0, 0],
});
const J = SKELETON.jointCount;
const HEAD = 3;
const ARM = 5;

const unit = fc.double({ min: -1, max: 1, noNaN: true });
const quat = fc
  .tuple(unit, unit, unit, unit)
  .filter(([x, y, z, w]) => x * x + y * y + z * z + w * w > 0.01)
  .map(([x, y, z, w]) => {
    const l = Math.sqrt(x * x + y * y + z * z + w * w);
    return [x / l, y / l, z / l, w / l];
  });
const vector = fc.tuple(unit, unit, unit);

const headOptions = fc.record({
  offset: fc.oneof(fc.constant(undefined), fc.constant([0, 0.05, 0.1] as [number, number, number])),
  coneAngle: fc.oneof(fc.constant(undefined), fc.double({ min: 0.1, max: 3, noNaN: true })),
  twist: fc.oneof(fc.constant(undefined), fc.constant([-0.5, 0.7])),
  weight: fc.oneof(fc.constant(1), fc.constant(0), fc.double({ min: 0, max: 1, noNaN: true })),
});

/** A target: where, relative to the bone's joint (model space). */
const target = fc.oneof(
  { weight: 5, arbitrary: vector.map(([x, y, z]) => ({ kind: 'near', v: [x, y, z] })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'joint', v: [0, 0, 0] }) },
  { weight: 1, arbitrary: vector.map(([x, y, z]) => ({ kind: 'close', v: [0.01 * x, 0.01 * y, 0.01 * z] })) },
  {
    weight: 1,
    arbitrary: vector.map(([x, y, z]) => ({ kind: 'far', v: [1e200 * x, 1e200 * y, 1e200 * z] })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'nan', v: [Number.NaN, 0, 0] }) },
);
/** An up direction: none, any, NaN (the arm has no up axis: any up is refused there). */
const up = fc.oneof(
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 3, arbitrary: vector },
  { weight: 1, arbitrary: fc.constant([Number.NaN, 1, 0]) },
);

const character = fc.record({
  parent: fc.integer({ min: 0, max: PARENT_CASES.length - 1 }),
  rotations: fc.array(quat, { minLength: J, maxLength: J }),
  head: headOptions,
  targets: fc.array(target, { minLength: 4, maxLength: 4 }),
  ups: fc.array(up, { minLength: 4, maxLength: 4 }),
  nan: fc.oneof(fc.constant(-1), fc.constant(-1), fc.constant(-1), fc.constantFrom(HEAD, ARM)),
});
type Character = typeof character extends fc.Arbitrary<infer T> ? T : never;

function bonesOf(c: Character): AimIkOptions[] {
  const h = c.head;
  return [
    {
      joint: HEAD,
      forward: [0, 0, 1],
      up: [0, 1, 0],
      ...(h.offset !== undefined ? { offset: h.offset } : {}),
      ...(h.coneAngle !== undefined ? { coneAngle: h.coneAngle } : {}),
      ...(h.twist !== undefined ? { twistMin: h.twist[0], twistMax: h.twist[1] } : {}),
      weight: h.weight,
    },
    { joint: ARM },
  ];
}

function poseOf(c: Character): Pose {
  const pose = new Pose(SKELETON);
  const pc = PARENT_CASES[c.parent];
  pose.translations.set(pc.translation, 0);
  pose.scales.set(pc.scale, 0);
  c.rotations.forEach((q, j) => {
    pose.rotations.set(q, 4 * j);
  });
  if (c.nan >= 0) pose.translations[3 * c.nan + 2] = Number.NaN;
  return pose;
}

function expectSame(actual: ArrayLike<number>, wanted: ArrayLike<number>, what: string): void {
  expect(actual.length).toBe(wanted.length);
  for (let i = 0; i < actual.length; i++) {
    if (!Object.is(actual[i], wanted[i]))
      expect.fail(`${what}[${i}]: batch ${actual[i]}, per call ${wanted[i]}`);
  }
}

/**
 * One crowd: every character's bones by a batch (bones set up with the first character's options:
 * a batch shares its bones' options) and by an AimIk per bone per character, two frames.
 */
function run(characters: readonly Character[]): void {
  const count = characters.length;
  const bones = bonesOf(characters[0]);
  const batch = new AimBatch(SKELETON, bones, count);
  const solvers = characters.map(() => bones.map((b) => new AimIk(SKELETON, b)));
  const poses = characters.map(poseOf);
  const models = poses.map(() => createModelBuffer(SKELETON));
  const crowd = {
    translations: new Float64Array(3 * J * count),
    rotations: new Float64Array(4 * J * count),
    scales: new Float64Array(3 * J * count),
    model: new Float64Array(16 * J * count),
  };
  poses.forEach((pose, c) => {
    crowd.translations.set(pose.translations, 3 * J * c);
    crowd.rotations.set(pose.rotations, 4 * J * c);
    crowd.scales.set(pose.scales, 3 * J * c);
  });
  for (let frame = 0; frame < 2; frame++) {
    localToModel(crowd.model, batch.parents, crowd.translations, crowd.rotations, crowd.scales, 0, J * count);
    const expected: { threw: boolean; bits: number; error: number }[] = [];
    characters.forEach((c, ci) => {
      forwardKinematics(poses[ci], models[ci]);
      bones.forEach((bone, b) => {
        const i = 2 * ci + b;
        const joint = bone.joint as number;
        const t = c.targets[2 * frame + b];
        const o = 16 * joint + 12;
        const targetModel = Float64Array.from([0, 1, 2], (k) => models[ci][o + k] + t.v[k]);
        const u = c.ups[2 * frame + b];
        const upModel = u === null ? null : Float64Array.from(u);
        batch.targets.set(targetModel, 3 * i);
        batch.useUp[i] = upModel === null ? 0 : 1;
        if (upModel !== null) batch.ups.set(upModel, 3 * i);
        try {
          const st = solvers[ci][b].solve(poses[ci], models[ci], targetModel, upModel);
          const bits =
            (st.reached ? TWO_BONE_STATUS.reached : 0) |
            (st.clamped ? TWO_BONE_STATUS.clamped : 0) |
            (st.degenerate ? TWO_BONE_STATUS.degenerate : 0);
          expected.push({ threw: false, bits, error: st.error });
        } catch {
          expected.push({ threw: true, bits: TWO_BONE_STATUS.invalid, error: Number.NaN });
        }
      });
    });
    const invalid = batch.solve(crowd);
    for (const e of expected) {
      for (const [name, bit] of Object.entries(TWO_BONE_STATUS)) if ((e.bits & bit) !== 0) seen.add(name);
    }
    expect(invalid).toBe(expected.filter((e) => e.threw).length);
    expected.forEach((e, i) => {
      if (batch.status[i] !== e.bits)
        expect.fail(`frame ${frame} aim ${i}: status ${batch.status[i]}, per call ${e.bits}`);
      expect(Object.is(batch.errors[i], e.error)).toBe(true);
    });
    poses.forEach((pose, c) => {
      expectSame(crowd.rotations.subarray(4 * J * c, 4 * J * (c + 1)), pose.rotations, 'rotations');
      expectSame(crowd.model.subarray(16 * J * c, 16 * J * (c + 1)), models[c], 'model');
    });
  }
}

/** The outcomes the property met (each must be covered). */
const seen = new Set<string>();

describe('AimBatch', () => {
  it('turns every bone of a crowd to AimIk.solve’s bits, invalid aims flagged and left alone', () => {
    fc.assert(
      fc.property(fc.array(character, { minLength: 1, maxLength: 10 }), (characters) => {
        run(characters);
      }),
      { seed: PROPERTY_SEED, numRuns: 300 },
    );
    expect([...seen].sort()).toEqual(['clamped', 'degenerate', 'invalid', 'reached']);
  });

  it('refuses a range outside the crowd and buffers of another size', () => {
    const batch = new AimBatch(SKELETON, [{ joint: HEAD, forward: [0, 0, 1] }], 2);
    const n = 2 * J;
    const crowd = {
      translations: new Float64Array(3 * n),
      rotations: new Float64Array(4 * n),
      scales: new Float64Array(3 * n),
      model: new Float64Array(16 * n),
    };
    expect(() => batch.solve(crowd, 1, 2)).toThrow(expect.objectContaining({ code: 'argument/invalid' }));
    expect(() => batch.solve({ ...crowd, model: new Float64Array(3) })).toThrow(
      expect.objectContaining({ code: 'pose/buffer-size' }),
    );
  });

  it('shares its per-aim arrays (shared: true), and a view of them solves to the same bits', () => {
    const bones: AimIkOptions[] = [{ joint: HEAD, forward: [0, 0, 1], coneAngle: 1 }];
    const n = 4;
    const shared = new AimBatch(SKELETON, bones, n, { shared: true });
    expect(shared.buffer).toBeInstanceOf(SharedArrayBuffer);
    const view = AimBatch.fromBuffer(SKELETON, shared.boneOptions, n, shared.buffer);
    const plain = new AimBatch(SKELETON, bones, n);
    expect(Array.from(view.parents)).toEqual(Array.from(plain.parents));
    expect(plain.buffer).toBeInstanceOf(ArrayBuffer);
    const pose = () => {
      const translations = new Float64Array(3 * J * n);
      const rotations = new Float64Array(4 * J * n);
      const scales = new Float64Array(3 * J * n);
      for (let c = 0; c < n; c++) {
        translations.set(SKELETON.restTranslations, 3 * J * c);
        rotations.set(SKELETON.restRotations, 4 * J * c);
        scales.set(SKELETON.restScales, 3 * J * c);
      }
      const model = new Float64Array(16 * J * n);
      localToModel(model, plain.parents, translations, rotations, scales, 0, J * n);
      return { translations, rotations, scales, model };
    };
    const [a, b] = [pose(), pose()];
    for (let c = 0; c < n; c++) {
      // Written into the shared batch, read by its view.
      shared.targets.set([c - 1.5, 2, 1], 3 * c);
      plain.targets.set([c - 1.5, 2, 1], 3 * c);
    }
    expect(view.solve(a)).toBe(0);
    expect(plain.solve(b)).toBe(0);
    expect(Array.from(a.rotations)).toEqual(Array.from(b.rotations));
    expect(Array.from(shared.errors)).toEqual(Array.from(plain.errors));
    expect(Array.from(shared.status)).toEqual(Array.from(plain.status));
    expect(shared.status.every((bits) => (bits & TWO_BONE_STATUS.reached) !== 0)).toBe(true);
    expect(() => AimBatch.fromBuffer(SKELETON, bones, n + 1, shared.buffer)).toThrow(
      expect.objectContaining({ code: 'pose/buffer-size' }),
    );
    // Another bone of the same count: the buffer knows the batch aimed the head.
    expect(() =>
      AimBatch.fromBuffer(SKELETON, [{ joint: ARM, forward: [0, 1, 0] }], n, shared.buffer),
    ).toThrow(
      expect.objectContaining({
        code: 'argument/invalid',
        message: expect.stringContaining('not the batch'),
      }),
    );
  });
});
