/**
 * twoBoneHingeLeg against twoBoneSolveGeneral, bit for bit. twoBoneSolve (and so TwoBoneIk and the
 * batch) takes the fused leg where it fits, so their own tests compare it with itself: here it is
 * compared with the general path, called directly, on legs under every parent case of the IK properties (rotated,
 * scaled, non-uniform, mirrored), with and without a pole, softness, twist and an endLocal point,
 * targets inside, at full reach, past it, folded, at the root and too far to square. Where the
 * fused leg declines (a rare branch), it must have written nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TwoBoneIk } from '../../src/ik/two-bone.js';
import { localToModel } from '../../src/kernel/local-to-model.js';
import {
  TWO_BONE,
  TWO_BONE_MEMORY_LENGTH,
  TWO_BONE_RESULT,
  twoBoneSolve,
  twoBoneSolveGeneral,
} from '../../src/kernel/two-bone.js';
import { hingeLegFits, twoBoneHingeLeg } from '../../src/kernel/two-bone-hinge-leg.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';
import { PARENT_CASES } from '../ik/parents.js';
import { PROPERTY_SEED } from '../ik/runs.js';
import { arbDirection as direction, arbUnitNumber as unit } from './helpers.js';

const L1 = 0.45;
const L2 = 0.42;

/** body → pelvis → hip → knee → ankle → toe: the knee bent about +X at rest. */
const SKELETON = Skeleton.create({
  names: ['body', 'pelvis', 'hip', 'knee', 'ankle', 'toe'],
  parents: [-1, 0, 1, 2, 3, 4],
  restTranslations: [0, 1, 0, 0, 0, 0, 0.1, -0.05, 0, 0, -L1, 0.03, 0, -L2, -0.03, 0, -0.05, 0.12],
});
const J = SKELETON.jointCount;
const HIP = 2;
const KNEE = 3;
const ANKLE = 4;

const turn = (size: number) =>
  fc.tuple(unit, unit, unit).map(([x, y, z]) => {
    const h = [size * x, size * y, size * z];
    return [h[0], h[1], h[2], Math.sqrt(1 - h[0] * h[0] - h[1] * h[1] - h[2] * h[2])];
  });

const legCase = fc.record({
  parent: fc.integer({ min: 0, max: PARENT_CASES.length - 1 }),
  pelvis: turn(0.7),
  hip: turn(0.3),
  knee: turn(0.3),
  // Float32-like noise on the knee's scale (the robot's bones carry 1e-5): the general kernel's
  // second pass is the caller's business, but one pass must match.
  kneeScale: fc.oneof(fc.constant(1), fc.double({ min: 0.99998, max: 1.00002, noNaN: true })),
  // A mirror on the hip itself: the knee's local turns act the other way (turnSense −1).
  hipMirror: fc.boolean(),
  endLocal: fc.boolean(),
  softness: fc.oneof(fc.constant(0), fc.constant(0), fc.double({ min: 0, max: 0.5, noNaN: true })),
  twist: fc.oneof(fc.constant(0), fc.double({ min: -3, max: 3, noNaN: true })),
  kind: fc.constantFrom('inside', 'inside', 'inside', 'full', 'past', 'fold', 'root', 'huge'),
  dir: direction,
  radius: fc.double({ min: 0.05, max: 0.85, noNaN: true }),
  pole: fc.oneof(fc.constant(null), direction, fc.constant([0, 0, 0])),
  // Eased in or out: below full weight each turn is nlerped from the identity.
  weight: fc.oneof(fc.constant(1), fc.constant(1), fc.double({ min: 1e-6, max: 1, noNaN: true })),
});
type LegCase = typeof legCase extends fc.Arbitrary<infer T> ? T : never;

/** A leg inside its reach, at rest under an unmoved parent. */
const BASE: LegCase = {
  parent: 0,
  pelvis: [0, 0, 0, 1],
  hip: [0, 0, 0, 1],
  knee: [0, 0, 0, 1],
  kneeScale: 1,
  hipMirror: false,
  endLocal: false,
  softness: 0,
  twist: 0,
  kind: 'inside',
  dir: [0, -0.8, 0.6],
  radius: 0.6,
  pole: null,
  weight: 1,
};

/** The pose and the settings of one case; `twoBoneSolve` and the fused leg each get a copy. */
function setUp(c: LegCase, hingeAxis: readonly [number, number, number] = [1, 0, 0]) {
  const pc = PARENT_CASES[c.parent];
  const translations = SKELETON.restTranslations.slice();
  const rotations = SKELETON.restRotations.slice();
  const scales = SKELETON.restScales.slice();
  translations.set(pc.translation, 0);
  rotations.set(pc.rotation, 0);
  scales.set(pc.scale, 0);
  rotations.set(c.pelvis, 4);
  rotations.set(c.hip, 4 * HIP);
  rotations.set(c.knee, 4 * KNEE);
  scales[3 * KNEE + 1] = c.kneeScale;
  if (c.hipMirror) scales[3 * HIP] = -1;
  const parents = Int32Array.from(SKELETON.parents);
  const model = new Float64Array(16 * J);
  localToModel(model, parents, translations, rotations, scales, 0, J);
  const ik = new TwoBoneIk(SKELETON, {
    root: HIP,
    middle: KNEE,
    ...(c.endLocal ? { endLocal: [0, -L2, -0.03] } : { end: ANKLE }),
    hingeAxis,
    softness: c.softness,
    twist: c.twist,
    weight: c.weight,
  });
  const settings = new Float64Array(TWO_BONE.length);
  ik.writeSettings(settings, 0);
  const h = [model[16 * HIP + 12], model[16 * HIP + 13], model[16 * HIP + 14]];
  const scale = Math.hypot(model[16], model[17], model[18]);
  const r = { inside: c.radius, full: L1 + L2, past: 3 * (L1 + L2), fold: 0.01, root: 0, huge: 1e200 }[
    c.kind
  ] as number;
  const s = c.kind === 'huge' ? 1 : scale;
  settings.set(
    [0, 1, 2].map((k) => h[k] + c.dir[k] * r * s),
    TWO_BONE.target,
  );
  if (c.pole !== null) {
    const knee = 16 * KNEE + 12;
    const pole = c.pole;
    settings.set(
      [0, 1, 2].map((k) => model[knee + k] + pole[k] * s),
      TWO_BONE.pole,
    );
    settings[TWO_BONE.hasPole] = 1;
  }
  return { parents, translations, rotations, scales, model, settings, end: c.endLocal ? -1 : ANKLE };
}

type Leg = ReturnType<typeof setUp>;

/** A kernel on a copy of the leg: its rotations, model matrices, result and memory. */
function solveCopy(leg: Leg, kernel: typeof twoBoneSolve) {
  const rotations = leg.rotations.slice();
  const model = leg.model.slice();
  const result = new Float64Array(TWO_BONE_RESULT.length);
  const memory = new Float64Array(TWO_BONE_MEMORY_LENGTH);
  kernel(
    model,
    leg.parents,
    leg.translations,
    rotations,
    leg.scales,
    HIP,
    KNEE,
    leg.end,
    J,
    leg.settings,
    memory,
    result,
  );
  return { rotations, model, result, memory };
}

/** The fused leg on another copy, its result array filled with −1 first. */
function fused(leg: Leg) {
  const rotations = leg.rotations.slice();
  const model = leg.model.slice();
  const result = new Float64Array(TWO_BONE_RESULT.length).fill(-1);
  const solved = twoBoneHingeLeg(
    model,
    leg.parents,
    leg.translations,
    rotations,
    leg.scales,
    HIP,
    KNEE,
    leg.end,
    J,
    leg.settings,
    result,
  );
  return { solved, rotations, model, result };
}

function expectSame(actual: Float64Array, wanted: Float64Array, what: string): void {
  for (let i = 0; i < actual.length; i++) {
    if (!Object.is(actual[i], wanted[i]))
      expect.fail(`${what}[${i}]: fused ${actual[i]}, kernel ${wanted[i]}`);
  }
}

describe('twoBoneHingeLeg', () => {
  it('gives the general path’s bits where it solves, and writes nothing where it declines', () => {
    let solved = 0;
    let declined = 0;
    fc.assert(
      fc.property(legCase, (c) => {
        const leg = setUp(c);
        expect(hingeLegFits(leg.settings)).toBe(true);
        const a = solveCopy(leg, twoBoneSolveGeneral);
        const b = fused(leg);
        if (b.solved) {
          solved++;
          expectSame(b.rotations, a.rotations, 'rotations');
          expectSame(b.model, a.model, 'model');
          expectSame(b.result, a.result, 'result');
          // The hinge path keeps no bend memory: the general one wrote none either.
          expect(Array.from(a.memory)).toEqual([0, 0, 0, 0]);
        } else {
          declined++;
          expectSame(b.rotations, leg.rotations, 'rotations untouched');
          expectSame(b.model, leg.model, 'model untouched');
          expect(Array.from(b.result)).toEqual([-1, -1, -1, -1, -1, -1]);
        }
        // twoBoneSolve takes the one or the other: the general path's bits either way.
        const c2 = solveCopy(leg, twoBoneSolve);
        expectSame(c2.rotations, a.rotations, 'twoBoneSolve rotations');
        expectSame(c2.model, a.model, 'twoBoneSolve model');
        expectSame(c2.result, a.result, 'twoBoneSolve result');
      }),
      { seed: PROPERTY_SEED, numRuns: 3000 },
    );
    // Not a vacuous pass: the fused leg solves the common cases and declines the rare ones (the
    // targets at the root: an eighth of the cases).
    expect(solved).toBeGreaterThan(2000);
    expect(declined).toBeGreaterThan(200);
  });

  it('declines a target at the root; solves a root turn near a half turn with the general path’s bits', () => {
    const base = BASE;
    expect(fused(setUp(base)).solved).toBe(true);
    expect(fused(setUp({ ...base, kind: 'root' })).solved).toBe(false);
    // The leg hangs down, nearly straight at this reach; a target straight up turns the root by
    // more than the ~154° of the half-vector formula's common branch (rotationBetween's other).
    for (const c of [
      { ...base, radius: 0.86, dir: [0, 1, 0.05] },
      { ...base, radius: 0.86, dir: [0, 1, 0] },
      { ...base, radius: 0.86, dir: [0, 1, 0.05], weight: 0.3, pole: [0, 0, 1] },
      { ...base, radius: 0.86, dir: [0, 0.2, 1] },
    ]) {
      const leg = setUp(c);
      const a = solveCopy(leg, twoBoneSolveGeneral);
      const b = fused(leg);
      expect(b.solved).toBe(true);
      expectSame(b.rotations, a.rotations, 'rotations');
      expectSame(b.model, a.model, 'model');
      expectSame(b.result, a.result, 'result');
    }
  });

  it('flags a hinge that cannot act (along the shin) degenerate, as the general path does', () => {
    const leg = setUp(BASE, [0, -L2, -0.03].map((x) => x / Math.hypot(L2, 0.03)) as [number, number, number]);
    const a = solveCopy(leg, twoBoneSolveGeneral);
    const b = fused(leg);
    expect(b.solved).toBe(true);
    expect(b.result[TWO_BONE_RESULT.degenerate]).toBe(1);
    expectSame(b.rotations, a.rotations, 'rotations');
    expectSame(b.model, a.model, 'model');
    expectSame(b.result, a.result, 'result');
  });

  it('declines, writing nothing, a root joint, a NaN or zero rotation and a collapsed parent frame', () => {
    const declines = (leg: Leg) => {
      const b = fused(leg);
      expect(b.solved).toBe(false);
      expectSame(b.rotations, leg.rotations, 'rotations untouched');
      expectSame(b.model, leg.model, 'model untouched');
      expect(Array.from(b.result)).toEqual([-1, -1, -1, -1, -1, -1]);
    };
    const asRoot = setUp(BASE);
    const parents = asRoot.parents.slice();
    parents[HIP] = -1;
    declines({ ...asRoot, parents });
    for (const rotation of [
      [Number.NaN, 0, 0, 1],
      [0, 0, 0, 0],
    ]) {
      const leg = setUp(BASE);
      leg.rotations.set(rotation, 4 * KNEE);
      declines(leg);
    }
    const collapsed = setUp(BASE);
    collapsed.model.fill(0, 16, 27); // the pelvis's (the hip's parent's) 3×3 part: no inverse
    declines(collapsed);
    const nan = setUp(BASE);
    nan.model[16 * KNEE + 13] = Number.NaN;
    declines(nan);
  });

  it('is taken only by legs it fits: hinge-true, a weight above 0, no bend range or end rotation', () => {
    const settings = new Float64Array(TWO_BONE.length);
    const limb = { root: HIP, middle: KNEE, end: ANKLE };
    new TwoBoneIk(SKELETON, limb).writeSettings(settings, 0);
    expect(hingeLegFits(settings)).toBe(true);
    new TwoBoneIk(SKELETON, { ...limb, weight: 0.5 }).writeSettings(settings, 0);
    expect(hingeLegFits(settings)).toBe(true);
    for (const options of [
      { mode: 'least-motion' as const },
      { weight: 0 },
      { bendRange: [0.2, 2.4] as [number, number] },
    ]) {
      new TwoBoneIk(SKELETON, { ...limb, ...options }).writeSettings(settings, 0);
      expect(hingeLegFits(settings)).toBe(false);
    }
    new TwoBoneIk(SKELETON, limb).writeSettings(settings, 0);
    settings[TWO_BONE.hasEndRotation] = 1;
    expect(hingeLegFits(settings)).toBe(false);
    // Called directly with settings it does not fit, it declines, writing nothing.
    const leg = setUp(BASE);
    leg.settings[TWO_BONE.weight] = 0;
    const b = fused(leg);
    expect(b.solved).toBe(false);
    expectSame(b.rotations, leg.rotations, 'rotations untouched');
    expectSame(b.model, leg.model, 'model untouched');
  });
});
