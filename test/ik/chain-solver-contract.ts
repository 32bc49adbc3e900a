/**
 * The contract every chain solver (FABRIK, CCD) keeps, as one suite each test file registers:
 * invalid input is a typed error that leaves the pose and model untouched bit for bit (even when the
 * pose violates a limit: validation comes before any clamping), every malformed option is refused at
 * construction, no solve calls Math's transcendental functions, and a real character's leg and
 * tail reach targets.
 */
import { describe, expect, it } from 'vitest';
import type { TendonErrorCode } from '../../src/errors.js';
import type { ChainIkOptions } from '../../src/ik/chain-setup.js';
import type { IkStatus } from '../../src/ik/ik-status.js';
import type { JointLimit } from '../../src/ik/joint-limits.js';
import { importGltf } from '../../src/io/gltf.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import type { Skeleton } from '../../src/skeleton/skeleton.js';
import { readAsset } from '../helpers/assets.js';
import {
  buildRig,
  dist,
  expectAllFinite,
  expectCode,
  setChain,
  targetAt,
  type Vec,
} from '../helpers/chains.js';
import { PARENT_CASES } from './parents.js';
import { withoutTrigonometry } from './without-trigonometry.js';

/** A chain solver as the suite sees it. */
export interface ChainSolver {
  readonly joints: Int32Array;
  solve(pose: Pose, model: Float64Array, target: Float64Array): IkStatus;
}

/** The real-asset test's settings for one solver. */
export interface RealAssetCase<S extends ChainSolver> {
  /** A leg of Fox.glb, root to tip (the tail is always solved too). */
  readonly leg: readonly string[];
  /** The iteration cap that solver needs there. */
  readonly maxIterations: number;
  /** Checks of the solver's own, after each solve: `fresh` is the pose's forward kinematics. */
  readonly check?: (solver: S, fresh: Float64Array, span: number) => void;
}

/** Registers the contract's tests for the solver `create` builds, under `name`. */
export function chainSolverContract<S extends ChainSolver>(
  name: string,
  create: (skeleton: Skeleton, options: ChainIkOptions) => S,
  asset: RealAssetCase<S>,
): void {
  describe(`${name}: a real asset`, () => {
    it("moves Fox's leg and tail onto reachable targets", async () => {
      const imported = await importGltf(readAsset('gltf', 'Fox.glb'), { source: 'Fox.glb' });
      const { skeleton } = imported.skeletons[0];
      const pose = new Pose(skeleton);
      const model = createModelBuffer(skeleton);
      for (const joints of [asset.leg, ['b_Tail01_012', 'b_Tail02_013', 'b_Tail03_014']]) {
        pose.resetToRest();
        forwardKinematics(pose, model);
        const solver = create(skeleton, { joints, tolerance: 1e-3, maxIterations: asset.maxIterations });
        const root = solver.joints[0];
        const end = solver.joints[solver.joints.length - 1];
        // A target pulled a third of the way from the end toward the root, and sideways.
        const span = dist(model, 16 * root + 12, model, 16 * end + 12);
        const target = new Float64Array(3);
        for (let a = 0; a < 3; a++) {
          target[a] = model[16 * end + 12 + a] + (model[16 * root + 12 + a] - model[16 * end + 12 + a]) / 3;
        }
        target[0] += span * 0.2;
        const status = solver.solve(pose, model, target);
        expect(status.reached).toBe(true);
        const fresh = createModelBuffer(skeleton);
        forwardKinematics(pose, fresh);
        expect(dist(fresh, 16 * end + 12, target, 0)).toBeLessThanOrEqual(1e-3);
        asset.check?.(solver, fresh, span);
      }
    });
  });

  describe(`${name}: invalid input`, () => {
    const rig = buildRig(3);

    it.each([
      ['NaN', [Number.NaN, 0, 0]],
      ['Infinity', [0, Number.POSITIVE_INFINITY, 0]],
      ['-Infinity', [0, 0, Number.NEGATIVE_INFINITY]],
      ['too short', [1, 2]],
      ['too long', [1, 2, 3, 4]],
    ])('ik/invalid-target for a %s target, pose and model untouched bit for bit', (_name, target) => {
      setChain(
        rig,
        [1, 1, 1],
        [
          [0.1, 0, 0, 1],
          [0, 0.2, 0, 1],
          [0, 0, 0.3, 1],
          [0, 0, 0, 1],
        ],
      );
      for (const limits of [undefined, [{ kind: 'cone', angle: 0.01 } as const, null, null, null]]) {
        const solver = create(rig.skeleton, { joints: rig.chain, limits });
        const rotations = rig.pose.rotations.slice();
        const model = rig.model.slice();
        expectCode(() => solver.solve(rig.pose, rig.model, new Float64Array(target)), 'ik/invalid-target');
        expect(new Uint8Array(rig.pose.rotations.buffer)).toEqual(new Uint8Array(rotations.buffer));
        expect(new Uint8Array(rig.model.buffer)).toEqual(new Uint8Array(model.buffer));
      }
    });

    it('ik/invalid-target for a null or undefined target (not a TypeError)', () => {
      const solver = create(rig.skeleton, { joints: rig.chain });
      for (const target of [null, undefined]) {
        expectCode(
          () => solver.solve(rig.pose, rig.model, target as unknown as Float64Array),
          'ik/invalid-target',
        );
      }
    });

    it.each<[string, (pose: Pose, model: Float64Array, chain: number[]) => void]>([
      ['a NaN in a chain rotation', (pose, _m, chain) => (pose.rotations[4 * chain[1]] = Number.NaN)],
      ['a zero chain rotation', (pose, _m, chain) => pose.rotations.fill(0, 4 * chain[0], 4 * chain[0] + 4)],
      ['an infinite translation', (pose, _m, chain) => (pose.translations[3 * chain[2] + 1] = Infinity)],
      ['a NaN scale', (pose, _m, chain) => (pose.scales[3 * chain[3]] = Number.NaN)],
      ["a NaN in the root's parent's model matrix", (_p, model) => (model[5] = Number.NaN)],
    ])('pose/not-finite for %s, pose and model untouched bit for bit', (_name, spoil) => {
      const bad = buildRig(3);
      spoil(bad.pose, bad.model, bad.chain);
      const solver = create(bad.skeleton, { joints: bad.chain });
      const snapshot = [bad.pose.rotations, bad.pose.translations, bad.pose.scales, bad.model].map((a) =>
        new Uint8Array(a.buffer).slice(),
      );
      expectCode(() => solver.solve(bad.pose, bad.model, new Float64Array([0.5, 1, 0])), 'pose/not-finite');
      const after = [bad.pose.rotations, bad.pose.translations, bad.pose.scales, bad.model];
      for (const [i, a] of after.entries()) expect(new Uint8Array(a.buffer)).toEqual(snapshot[i]);
    });

    it('pose of another skeleton, wrong model buffer size', () => {
      const solver = create(rig.skeleton, { joints: rig.chain });
      const other = buildRig(3);
      expectCode(() => solver.solve(other.pose, other.model, new Float64Array(3)), 'pose/skeleton-mismatch');
      expectCode(() => solver.solve(rig.pose, new Float64Array(16), new Float64Array(3)), 'pose/buffer-size');
    });

    it.each<[string, ChainIkOptions, TendonErrorCode]>([
      ['unknown joint name', { joints: ['j0', 'nope'] }, 'ik/invalid-joint'],
      ['joint index out of range', { joints: [1, 99] }, 'ik/invalid-joint'],
      ['negative index', { joints: [-1, 2] }, 'ik/invalid-joint'],
      ['fractional index', { joints: [1, 2.5] }, 'ik/invalid-joint'],
      ['reversed chain', { joints: ['j2', 'j0'] }, 'ik/not-a-chain'],
      ['repeated joint', { joints: ['j0', 'j0'] }, 'ik/not-a-chain'],
      ['sibling branch', { joints: ['j2', 'leaf', 'j3'] }, 'ik/not-a-chain'],
      ['one joint', { joints: ['j0'] }, 'ik/not-a-chain'],
      ['no joints', { joints: [] }, 'ik/not-a-chain'],
      ['joints not an array', { joints: 'j0' as unknown as string[] }, 'ik/invalid-option'],
      ['negative tolerance', { joints: ['j0', 'j3'], tolerance: -1 }, 'ik/invalid-option'],
      ['NaN tolerance', { joints: ['j0', 'j3'], tolerance: Number.NaN }, 'ik/invalid-option'],
      ['fractional maxIterations', { joints: ['j0', 'j3'], maxIterations: 1.5 }, 'ik/invalid-option'],
      ['negative maxIterations', { joints: ['j0', 'j3'], maxIterations: -1 }, 'ik/invalid-option'],
      ['limits of the wrong length', { joints: ['j0', 'j3'], limits: [null] }, 'ik/invalid-option'],
      [
        'unknown limit kind',
        { joints: ['j0', 'j3'], limits: [{ kind: 'ball' } as unknown as JointLimit, null] },
        'ik/invalid-option',
      ],
      [
        'zero hinge axis',
        { joints: ['j0', 'j3'], limits: [{ kind: 'hinge', axis: [0, 0, 0] }, null] },
        'ik/invalid-option',
      ],
      [
        'NaN hinge axis',
        { joints: ['j0', 'j3'], limits: [{ kind: 'hinge', axis: [Number.NaN, 1, 0] }, null] },
        'ik/invalid-option',
      ],
      [
        'hinge min above max',
        { joints: ['j0', 'j3'], limits: [{ kind: 'hinge', axis: [1, 0, 0], min: 1, max: 0 }, null] },
        'ik/invalid-option',
      ],
      [
        'hinge range beyond π',
        { joints: ['j0', 'j3'], limits: [{ kind: 'hinge', axis: [1, 0, 0], max: 4 }, null] },
        'ik/invalid-option',
      ],
      [
        'negative cone',
        { joints: ['j0', 'j3'], limits: [{ kind: 'cone', angle: -0.1 }, null] },
        'ik/invalid-option',
      ],
      [
        'cone wider than π',
        { joints: ['j0', 'j3'], limits: [{ kind: 'cone', angle: 4 }, null] },
        'ik/invalid-option',
      ],
      [
        'cone twist min above max',
        { joints: ['j0', 'j3'], limits: [{ kind: 'cone', angle: 1, twistMin: 1, twistMax: -1 }, null] },
        'ik/invalid-option',
      ],
      [
        'cone without axis on a joint with no child offset',
        { joints: ['j0', 'leaf'], limits: [null, { kind: 'cone', angle: 1 }] },
        'ik/invalid-option',
      ],
    ])('%s', (_name, options, code) => {
      expectCode(() => create(rig.skeleton, options), code);
    });
  });

  describe(`${name}: targets of any finite size`, () => {
    it('lays the chain straight toward a target too far to square, and reports its true distance', () => {
      for (const pc of PARENT_CASES) {
        for (const [dir, distance] of [
          [[1, 0, 0], 1e155],
          [[0.3, -0.5, 0.8], 1e200],
          [[-1, 0.2, 0], 1e300],
          [[0, 0, -1], 1.7e308],
        ] as [Vec, number][]) {
          const rig = buildRig(3, pc);
          const solver = create(rig.skeleton, { joints: rig.chain });
          // The target in model space: far along `dir` from the root, in whatever frame that is.
          const root = 16 * rig.chain[0] + 12;
          const n = Math.hypot(...dir);
          const target = new Float64Array(dir.map((d, a) => rig.model[root + a] + (d / n) * distance));
          const status = solver.solve(rig.pose, rig.model, target);
          expectAllFinite(rig.model);
          expect(status.outOfReach).toBe(true);
          expect(status.reached).toBe(false);
          // The end lies on the ray from the root toward the target (model space), at full reach.
          const end = 16 * rig.chain[rig.chain.length - 1] + 12;
          const e = [0, 1, 2].map((a) => rig.model[end + a] - rig.model[root + a]);
          const el = Math.hypot(...e);
          const cos = e.reduce((sum, x, a) => sum + (x / el) * (dir[a] / n), 0);
          expect(1 - cos).toBeLessThan(1e-12);
          // The true distance, to rounding: the target's coordinate dwarfs the rig's.
          const far = Math.max(...target.map(Math.abs));
          const expected =
            Math.hypot(...[0, 1, 2].map((a) => target[a] / far - rig.model[end + a] / far)) * far;
          expect(Math.abs(status.error - expected) / expected).toBeLessThan(1e-12);
        }
      }
    });
  });

  describe(`${name}: determinism`, () => {
    it('uses no Math trigonometry, exp, log, pow or hypot while solving', () => {
      const rig = buildRig(4);
      const limits: JointLimit[] = [
        { kind: 'cone', angle: 1, twistMin: -0.5, twistMax: 0.5 },
        { kind: 'hinge', axis: [1, 0, 0], min: -1, max: 1 },
        { kind: 'cone', axis: [0, 1, 0], angle: 0.7 },
        { kind: 'hinge', axis: [0, 0, 1], min: 0, max: 2 },
        { kind: 'cone', axis: [0, 1, 0], angle: 0.3 },
      ];
      const limited = create(rig.skeleton, { joints: rig.chain, limits });
      const free = create(rig.skeleton, { joints: rig.chain });
      const targets = [
        targetAt(rig, [1, 1, 0], 2),
        targetAt(rig, [0, -1, 0], 3),
        targetAt(rig, [1, 0, 1], 9),
      ];
      withoutTrigonometry(() => {
        for (const t of targets) {
          limited.solve(rig.pose, rig.model, t);
          free.solve(rig.pose, rig.model, t);
        }
      });
      expectAllFinite(rig.pose.rotations);
    });
  });
}
