/**
 * CcdIk: convergence without limits, error never growing with limits, limits honoured, rigid bones,
 * unit quaternions, degenerate geometry, every parent case, a 10-bone chain against FABRIK, a real
 * asset, invalid input, and no trigonometry while solving.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CcdIk } from '../../src/ik/ccd.js';
import { FabrikIk } from '../../src/ik/fabrik.js';
import { compileJointLimits } from '../../src/ik/joint-limits.js';
import { clampRotation, LIMIT_STRIDE } from '../../src/kernel/joint-limits.js';
import * as mat4 from '../../src/kernel/mat4.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import {
  buildRig,
  chainArb,
  chainInParent,
  checkUnit,
  dist,
  expectAllFinite,
  expectWithinLimit,
  limitArb,
  type Quat,
  type ChainRig as Rig,
  reachOf,
  relative,
  segmentLengths,
  setChain,
  targetAt,
  unit,
  type Vec,
} from '../helpers/chains.js';
import { chainSolverContract } from './chain-solver-contract.js';
import { PARENT_CASES } from './parents.js';
import { PROPERTY_RUNS, PROPERTY_SEED } from './runs.js';

const RUNS = { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS };
const CASE_RUNS = { seed: PROPERTY_SEED, numRuns: Math.max(1, Math.floor(PROPERTY_RUNS / 20)) };

/** End–target distance in the frame of the chain's parent (where CCD's error never grows). */
function errorInParent(rig: Rig, target: Float64Array): number {
  const inv = new Float64Array(16);
  mat4.invert(inv, 0, rig.model, 0);
  const points = chainInParent(rig);
  const end = points[points.length - 1];
  const t = [0, 1, 2].map(
    (r) => inv[r] * target[0] + inv[4 + r] * target[1] + inv[8 + r] * target[2] + inv[12 + r],
  );
  return dist(end, 0, t, 0);
}

function checkModelIsFk(rig: Rig): void {
  const fresh = createModelBuffer(rig.skeleton);
  forwardKinematics(rig.pose, fresh);
  let bad = -1;
  for (let i = 0; i < fresh.length && bad < 0; i++) {
    if (!(Math.abs(fresh[i] - rig.model[i]) <= 1e-12 * (1 + Math.abs(fresh[i])))) bad = i;
  }
  expect(bad).toBe(-1);
}

function reachableProperty(
  rig: Rig,
  solver: CcdIk,
  bones: number,
  runs: { seed: number; numRuns: number },
): void {
  fc.assert(
    fc.property(chainArb(bones, 0.5, 1.5), ({ lengths, rotations, dir, fraction }) => {
      setChain(rig, lengths, rotations);
      const before = segmentLengths(chainInParent(rig));
      const { reach, inner } = reachOf(lengths);
      const lo = inner + 0.1 * reach;
      const target = targetAt(rig, dir, lo + (0.9 * reach - lo) * fraction);
      const status = solver.solve(rig.pose, rig.model, target);
      expect(status.reached).toBe(true);
      expect(status.outOfReach).toBe(false);
      expect(status.error).toBeLessThanOrEqual(solver.tolerance);
      checkModelIsFk(rig);
      checkUnit(rig);
      const after = segmentLengths(chainInParent(rig));
      for (let i = 0; i < bones; i++)
        expect(Math.abs(after[i] - before[i])).toBeLessThanOrEqual(1e-9 * before[i]);
    }),
    runs,
  );
}

describe('CcdIk: reachable targets, no limits', () => {
  it('reaches every reachable target within its iteration cap; bones rigid; quaternions unit', () => {
    const rig = buildRig(3);
    const solver = new CcdIk(rig.skeleton, { joints: rig.chain, maxIterations: 20000 });
    reachableProperty(rig, solver, 3, RUNS);
  });

  for (const parentCase of PARENT_CASES) {
    it(`${parentCase.name}: reaches, bones rigid in the parent's frame`, () => {
      const rig = buildRig(3, parentCase);
      const scale = Math.min(...parentCase.scale.map(Math.abs));
      const solver = new CcdIk(rig.skeleton, {
        joints: rig.chain,
        tolerance: 1e-6 * scale,
        maxIterations: 20000,
      });
      reachableProperty(rig, solver, 3, CASE_RUNS);
    });
  }
});

describe('CcdIk: mirrored bones in the chain', () => {
  it('reaches every reachable target: a negative scale reflects a frame, and the steps follow it', () => {
    const rig = buildRig(3, PARENT_CASES[1]);
    for (const [j, sc] of [
      [0, [-1, 1, 1]],
      [2, [1, 1, -1]],
      [3, [-1, -1, -1]],
    ] as const) {
      rig.pose.scales.set(sc, 3 * rig.chain[j]);
    }
    const solver = new CcdIk(rig.skeleton, { joints: rig.chain, maxIterations: 20000 });
    reachableProperty(rig, solver, 3, CASE_RUNS);
  });
});

describe('CcdIk: out of reach and degenerate geometry', () => {
  for (const parentCase of PARENT_CASES) {
    it(`${parentCase.name}: out of reach, points the chain at the target, says so`, () => {
      const rig = buildRig(3, parentCase);
      const solver = new CcdIk(rig.skeleton, { joints: rig.chain, maxIterations: 500 });
      fc.assert(
        fc.property(chainArb(3, 0.5, 1.5), fc.double({ min: 1.01, max: 100, noNaN: true }), (c, factor) => {
          setChain(rig, c.lengths, c.rotations);
          const { reach } = reachOf(c.lengths);
          const target = targetAt(rig, c.dir, reach * factor);
          const status = solver.solve(rig.pose, rig.model, target);
          expect(status.outOfReach).toBe(true);
          expect(status.reached).toBe(false);
          // One pass lays the chain straight toward the target (measured in the parent's frame,
          // where the chain is rigid); the sweeps after it change (next to) nothing.
          expect(errorInParent(rig, target)).toBeLessThanOrEqual(
            reach * (factor - 1) + 1e-12 * reach * factor,
          );
          expect(status.iterations).toBeLessThanOrEqual(3);
          checkUnit(rig);
          checkModelIsFk(rig);
        }),
        CASE_RUNS,
      );
    });
  }

  it('at or a hair short of full reach, across a straight chain: straight in one sweep, counted', () => {
    for (const parentCase of PARENT_CASES) {
      const rig = buildRig(4, parentCase);
      const solver = new CcdIk(rig.skeleton, { joints: rig.chain });
      // The chain lies straight along +Y; the target is along +X, across it.
      for (const [distance, outOfReach] of [
        [4 * (1 + 1e-12), true],
        [4, false],
        [4 * (1 - 1e-9), false],
      ] as [number, boolean][]) {
        setChain(
          rig,
          [1, 1, 1, 1],
          [0, 1, 2, 3, 4].map(() => [0, 0, 0, 1] as Quat),
        );
        const target = targetAt(rig, [1, 0, 0], distance);
        const status = solver.solve(rig.pose, rig.model, target);
        expect([status.outOfReach, status.iterations], `${parentCase.name} at ${distance}`).toEqual([
          outOfReach,
          1,
        ]);
        expect(errorInParent(rig, target)).toBeLessThanOrEqual(Math.abs(4 - distance) + 1e-12);
        expect(status.reached).toBe(status.error <= solver.tolerance);
      }
    }
  });

  it('a straightening pass undone (the straight chain misses the tolerance) is not counted', () => {
    const rig = buildRig(4);
    // A bent chain, the target just within reach (5e-7 short: the band where straightening is tried).
    setChain(
      rig,
      [1, 1, 1, 1],
      [
        [0, 0, 0, 1],
        [0.2, 0, 0, 1],
        [-0.3, 0, 0, 1],
        [0.2, 0, 0, 1],
        [0, 0, 0, 1],
      ],
    );
    const target = targetAt(rig, [1, 0.2, 0], 4 * (1 - 5e-7));
    const solver = new CcdIk(rig.skeleton, { joints: rig.chain, tolerance: 1e-9, maxIterations: 1 });
    const start = errorInParent(rig, target);
    const status = solver.solve(rig.pose, rig.model, target);
    // The one sweep the cap allows was made: the chain moved toward the target.
    expect(status.iterations).toBe(1);
    expect(errorInParent(rig, target)).toBeLessThan(0.9 * start);
  });

  it('too close (one bone longer than the rest): says so, never beats the fold, never worsens', () => {
    const rig = buildRig(3);
    const solver = new CcdIk(rig.skeleton, { joints: rig.chain, maxIterations: 50 });
    fc.assert(
      fc.property(chainArb(3, 0.5, 1.5), fc.double({ min: 0, max: 0.95, noNaN: true }), (c, fraction) => {
        // The first bone longer than the other two together by at least 0.2: a fold radius no
        // rounding hides.
        const lengths = [3.2, c.lengths[1], c.lengths[2]];
        setChain(rig, lengths, c.rotations);
        const { inner } = reachOf(lengths);
        const target = targetAt(rig, c.dir, inner * fraction);
        const before = errorInParent(rig, target);
        const status = solver.solve(rig.pose, rig.model, target);
        expect(status.outOfReach).toBe(true);
        // Unreached, unless the fold's radius itself is within the tolerance of the target.
        if (inner * (1 - fraction) > solver.tolerance) expect(status.reached).toBe(false);
        // The nearest the end can come is the fold's radius from the root. CCD creeps toward it
        // (each sweep turns joints toward a target almost on their own line by little), so how
        // near it gets within the cap is not a property; that it never ends farther than it began is.
        expect(status.error).toBeGreaterThanOrEqual(inner * (1 - fraction) * (1 - 1e-9));
        expect(status.error).toBeLessThanOrEqual(before * (1 + 1e-12) + 1e-12);
        checkUnit(rig);
        checkModelIsFk(rig);
      }),
      CASE_RUNS,
    );
  });

  it('too close, the chain straight along the target line: folds it to the fold radius', () => {
    const rig = buildRig(3);
    const solver = new CcdIk(rig.skeleton, { joints: rig.chain, maxIterations: 500 });
    for (const [lengths, dir, fraction] of [
      [[3, 1, 1], [0, 1, 0], 0.5],
      [[3, 1, 1], [0, -1, 0], 0.5],
      [[2, 0.5, 0.7], [0, 1, 0], 0.9],
      [[2, 0.5, 0.7], [0, -1, 0], 0.3],
    ] as [number[], Vec, number][]) {
      setChain(rig, lengths, [
        [0, 0, 0, 1],
        [0, 0, 0, 1],
        [0, 0, 0, 1],
        [0, 0, 0, 1],
      ]);
      const { inner, reach } = reachOf(lengths);
      const status = solver.solve(rig.pose, rig.model, targetAt(rig, dir, inner * fraction));
      expect(status.outOfReach).toBe(true);
      expect(status.error).toBeGreaterThanOrEqual(inner * (1 - fraction) * (1 - 1e-9));
      // Within 1% of the chain's length of the fold radius (CCD creeps the last part; left
      // straight, the error would be most of the chain's length).
      expect(status.error).toBeLessThanOrEqual(inner * (1 - fraction) + 1e-2 * reach);
    }
  });

  it('one bone: points it at the target within a few sweeps', () => {
    const rig = buildRig(1);
    const solver = new CcdIk(rig.skeleton, { joints: rig.chain });
    fc.assert(
      fc.property(chainArb(1, 0.5, 1.5), fc.double({ min: 0.1, max: 3, noNaN: true }), (c, factor) => {
        setChain(rig, c.lengths, c.rotations);
        const length = c.lengths[0];
        const status = solver.solve(rig.pose, rig.model, targetAt(rig, c.dir, length * factor));
        expect(status.outOfReach).toBe(factor !== 1);
        expect(status.error).toBeCloseTo(length * Math.abs(factor - 1), 9);
        expect(status.iterations).toBeLessThanOrEqual(3);
        checkUnit(rig);
        checkModelIsFk(rig);
      }),
      CASE_RUNS,
    );
  });

  const rig = buildRig(3);
  const straight: Quat[] = [
    [0, 0, 0, 1],
    [0, 0, 0, 1],
    [0, 0, 0, 1],
    [0, 0, 0, 1],
  ];
  const cases: [string, Vec, number][] = [
    ['target at the root', [0, 1, 0], 0],
    ['straight chain, target on its line within reach', [0, 1, 0], 1.5],
    ['straight chain, target exactly at full reach', [0, 1, 0], 3],
    ['straight chain, target behind the chain (180°)', [0, -1, 0], 2],
    ['straight chain, target sideways at full reach', [1, 0, 0], 3],
  ];
  for (const [name, dir, distance] of cases) {
    it(name, () => {
      setChain(rig, [1, 1, 1], straight);
      const solver = new CcdIk(rig.skeleton, { joints: rig.chain, maxIterations: 500 });
      const status = solver.solve(rig.pose, rig.model, targetAt(rig, dir, distance));
      expectAllFinite(rig.pose.rotations);
      expectAllFinite(rig.model);
      expect(Number.isFinite(status.error)).toBe(true);
      if (distance < 3) expect(status.reached).toBe(true);
      // Exactly at full reach CCD only creeps toward straight.
      else expect(status.error).toBeLessThanOrEqual(1e-2);
      checkModelIsFk(rig);
      checkUnit(rig);
    });
  }

  it('zero-length bones and any finite target: finite pose', () => {
    const solver = new CcdIk(rig.skeleton, { joints: rig.chain, maxIterations: 8 });
    fc.assert(
      fc.property(
        chainArb(3, 0, 2),
        fc.tuple(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), unit, unit),
        (c, [x, y, z]) => {
          setChain(rig, c.lengths, c.rotations);
          const status = solver.solve(rig.pose, rig.model, new Float64Array([x, y, z]));
          expectAllFinite(rig.pose.rotations);
          expectAllFinite(rig.model);
          expect(Number.isFinite(status.error)).toBe(true);
          checkUnit(rig);
        },
      ),
      CASE_RUNS,
    );
  });
});

describe('CcdIk: joint limits', () => {
  for (const parentCase of PARENT_CASES) {
    it(`${parentCase.name}: limits hold to 1e-9; the error never grows past where the limits put the chain`, () => {
      const rig = buildRig(3, parentCase);
      fc.assert(
        fc.property(
          chainArb(3, 0.5, 1.5),
          fc.array(limitArb, { minLength: 4, maxLength: 4 }),
          fc.double({ min: 0, max: 2, noNaN: true }),
          (c, limits, factor) => {
            setChain(rig, c.lengths, c.rotations);
            const target = targetAt(rig, c.dir, reachOf(c.lengths).reach * factor);
            // The error once the start pose is clamped into the limits (nothing else) bounds the
            // solve's. Measured in the parent's frame: under a non-uniformly scaled parent the
            // model-space error need not shrink monotonically (see CcdIk).
            const startPose = rig.pose.clone();
            const startModel = rig.model.slice();
            const { records } = compileJointLimits(rig.skeleton, Int32Array.from(rig.chain), limits, 'test');
            for (let i = 0; i < rig.chain.length; i++) {
              clampRotation(startPose.rotations, 4 * rig.chain[i], records, LIMIT_STRIDE * i);
            }
            forwardKinematics(startPose, startModel);
            const limitedStart = errorInParent({ ...rig, pose: startPose, model: startModel }, target);
            const solver = new CcdIk(rig.skeleton, { joints: rig.chain, limits, maxIterations: 16 });
            const status = solver.solve(rig.pose, rig.model, target);
            expectAllFinite(rig.pose.rotations);
            expectAllFinite(rig.model);
            checkUnit(rig);
            checkModelIsFk(rig);
            // The status reports the pose it leaves.
            const endError = dist(rig.model, 16 * rig.chain[3] + 12, target, 0);
            expect(Math.abs(status.error - endError)).toBeLessThanOrEqual(1e-12 * (1 + endError));
            expect(errorInParent(rig, target)).toBeLessThanOrEqual(limitedStart * (1 + 1e-12) + 1e-12);
            for (let i = 0; i < 4; i++) {
              const limit = limits[i];
              // Near a half-turn swing CCD's poses carry more rounding in d than FABRIK's (1.1e-14
              // seen, against FABRIK's allowance of 1e-14): allow 1e-12 there.
              if (limit) expectWithinLimit(relative(rig, rig.chain[i]), limit, [0, 1, 0], 1e-12);
            }
          },
        ),
        CASE_RUNS,
      );
    });
  }

  it('the error decreases sweep by sweep without limits (never grows)', () => {
    const rig = buildRig(4);
    const solvers = [1, 2, 4, 8].map(
      (n) => new CcdIk(rig.skeleton, { joints: rig.chain, maxIterations: n, tolerance: 0 }),
    );
    fc.assert(
      fc.property(chainArb(4, 0.5, 1.5), fc.double({ min: 0, max: 1.5, noNaN: true }), (c, factor) => {
        setChain(rig, c.lengths, c.rotations);
        const target = targetAt(rig, c.dir, reachOf(c.lengths).reach * factor);
        let previous = Number.POSITIVE_INFINITY;
        for (const solver of solvers) {
          const error = solver.solve(rig.pose.clone(), rig.model.slice(), target).error;
          expect(error).toBeLessThanOrEqual(previous + 1e-12);
          previous = error;
        }
      }),
      CASE_RUNS,
    );
  });
});

describe('CcdIk and FabrikIk on a 10-bone chain', () => {
  it('both reach every reachable target within tolerance, without limits', () => {
    const rig = buildRig(10);
    const ccd = new CcdIk(rig.skeleton, { joints: rig.chain, maxIterations: 20000 });
    const fabrik = new FabrikIk(rig.skeleton, { joints: rig.chain, maxIterations: 20000 });
    fc.assert(
      fc.property(chainArb(10, 0.5, 1.5), ({ lengths, rotations, dir, fraction }) => {
        setChain(rig, lengths, rotations);
        const { reach, inner } = reachOf(lengths);
        const lo = inner + 0.1 * reach;
        const target = targetAt(rig, dir, lo + (0.9 * reach - lo) * fraction);
        const pose = rig.pose.clone();
        const model = rig.model.slice();
        const a = ccd.solve(rig.pose, rig.model, target);
        expect(a.reached).toBe(true);
        const b = fabrik.solve(pose, model, target);
        expect(b.reached).toBe(true);
      }),
      { seed: PROPERTY_SEED, numRuns: Math.max(1, Math.floor(PROPERTY_RUNS / 20)) },
    );
  });
});

describe('CcdIk: repeated solves', () => {
  it('quaternions stay unit to 1e-12 after 10^6 solves', () => {
    const rig = buildRig(2);
    const solver = new CcdIk(rig.skeleton, { joints: rig.chain, maxIterations: 1 });
    const targets = [
      targetAt(rig, [1, 0.5, 0], 1.2),
      targetAt(rig, [-0.2, 1, 0.7], 1.7),
      targetAt(rig, [0, 0, 1], 3),
    ];
    for (let k = 0; k < 1_000_000; k++) solver.solve(rig.pose, rig.model, targets[k % 3]);
    checkUnit(rig);
    expectAllFinite(rig.model);
  });
});

chainSolverContract('CcdIk', (skeleton, options) => new CcdIk(skeleton, options), {
  leg: ['b_RightLeg01_019', 'b_RightLeg02_020', 'b_RightFoot01_021', 'b_RightFoot02_022'],
  maxIterations: 500,
});
