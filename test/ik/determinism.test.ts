/**
 * docs/methods.md §5: the solvers use only + − × ÷ and √, so their results are bit-identical on
 * every JavaScript engine. Two proofs: the solver suite runs with Math's transcendental functions
 * replaced by throwing stand-ins, and the same seeded workload gives the same bits in V8 and in
 * QuickJS (whose Math library is a different implementation).
 */
import { getQuickJS } from 'quickjs-emscripten';
import { describe, expect, it } from 'vitest';
import { TwoBoneIk } from '../../src/ik/two-bone.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';
import { bundleDriver, runInQuickJS, runInV8 } from '../helpers/engines.js';
import { withoutTrigonometry } from './without-trigonometry.js';

describe('determinism', () => {
  it('solves without any of Math.sin, cos, tan, asin, acos, atan, atan2, exp, log, pow, hypot', () => {
    const skeleton = Skeleton.create({
      names: ['hip', 'knee', 'ankle'],
      parents: [-1, 0, 1],
      restTranslations: [0, 1, 0, 0, -0.45, 0.03, 0, -0.42, -0.03],
    });
    // Set-up may convert angles (once); only the solves run under the stand-ins.
    const solvers = [
      new TwoBoneIk(skeleton, {
        root: 0,
        middle: 1,
        end: 2,
        bendRange: [0.1, 2.5],
        twist: 0.3,
        softness: 0.1,
      }),
      new TwoBoneIk(skeleton, { root: 0, middle: 1, end: 2, mode: 'least-motion', weight: 0.5 }),
    ];
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    const flat = new Float64Array([0.1, 0.2, 0.3, 0.927]);
    withoutTrigonometry(() => {
      for (let i = 0; i < 20_000; i++) {
        pose.resetToRest();
        forwardKinematics(pose, model);
        const t = [((i * 7) % 13) / 10 - 0.6, ((i * 3) % 11) / 8, ((i * 5) % 17) / 10 - 0.8];
        const solver = solvers[i % 2];
        solver.solve(pose, model, t, i % 3 ? [0, 1, 1] : null, i % 5 ? null : flat);
      }
    });
    expect(pose.rotations.every(Number.isFinite)).toBe(true);
  });

  it('gives bit-identical poses in V8 and in QuickJS', async () => {
    const code = await bundleDriver(new URL('./determinism-driver.ts', import.meta.url));
    const solves = 300;
    const inV8 = runInV8(code, solves);
    const inQuickJS = await runInQuickJS(code, solves);
    expect(inQuickJS.length).toBe(inV8.length);
    expect(inQuickJS === inV8).toBe(true);
    const QuickJS = await getQuickJS();
    const vm = QuickJS.newContext();
    try {
      // And the engines do differ where transcendental functions are involved, so equal bits
      // above are a real result: V8 and QuickJS round Math.cos(9.99) differently.
      const cosThere = vm.unwrapResult(vm.evalCode('String(Math.cos(9.99))'));
      expect(vm.getString(cosThere)).not.toBe(String(Math.cos(9.99)));
      cosThere.dispose();
    } finally {
      vm.dispose();
    }
  });
});
