/**
 * Every entrance of the solvers refuses what a JavaScript caller can pass by mistake (no options,
 * options of the wrong type, a null pose or buffer, a target that is not an array) with a
 * TendonError, never a bare TypeError, and leaves the pose as it was.
 */
import { describe, expect, it } from 'vitest';
import { isTendonError } from '../../src/errors.js';
import { AimIk } from '../../src/ik/aim.js';
import { CcdIk } from '../../src/ik/ccd.js';
import { FabrikIk } from '../../src/ik/fabrik.js';
import { TwoBoneIk } from '../../src/ik/two-bone.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';

const skeleton = Skeleton.create({
  names: ['hip', 'knee', 'ankle', 'toe'],
  parents: [-1, 0, 1, 2],
  restTranslations: [0, 1, 0, 0, -0.45, 0.03, 0, -0.42, -0.03, 0, -0.05, 0.1],
});

// biome-ignore lint/suspicious/noExplicitAny: deliberately wrong arguments, as JavaScript passes them
type Anything = any;

function typed(fn: () => unknown): string {
  try {
    fn();
    return 'no error';
  } catch (error) {
    return isTendonError(error) ? 'TendonError' : `${(error as Error).name}: ${(error as Error).message}`;
  }
}

const makers: [string, (options: Anything) => { solve: (...args: Anything[]) => unknown }][] = [
  ['TwoBoneIk', (o) => new TwoBoneIk(skeleton, o)],
  ['AimIk', (o) => new AimIk(skeleton, o)],
  ['FabrikIk', (o) => new FabrikIk(skeleton, o)],
  ['CcdIk', (o) => new CcdIk(skeleton, o)],
];
const good: Record<string, Anything> = {
  TwoBoneIk: { root: 0, middle: 1, end: 2 },
  AimIk: { joint: 1 },
  FabrikIk: { joints: [0, 1, 2] },
  CcdIk: { joints: [0, 1, 2] },
};

describe.each(makers)('%s', (name, make) => {
  it.each([
    ['no options', undefined],
    ['null options', null],
    ['a number for options', 3],
    [
      'a string joint that is not there',
      { ...good[name], root: 'nope', joint: 'nope', joints: ['nope', 1, 2] },
    ],
    [
      'an options field of the wrong type',
      { ...good[name], weight: 'heavy', tolerance: 'x', maxIterations: 'many' },
    ],
  ])('refuses %s with a TendonError', (_, options) => {
    expect(typed(() => make(options))).toBe('TendonError');
  });

  it.each([
    ['a null pose', (s: Anything, model: Float64Array) => s.solve(null, model, [0, 0.5, 0.3])],
    [
      'a null model buffer',
      (s: Anything, _m: Float64Array, pose: Pose) => s.solve(pose, null, [0, 0.5, 0.3]),
    ],
    [
      'an undefined target',
      (s: Anything, model: Float64Array, pose: Pose) => s.solve(pose, model, undefined),
    ],
    ['a string target', (s: Anything, model: Float64Array, pose: Pose) => s.solve(pose, model, 'xyz')],
    [
      'a target with NaN',
      (s: Anything, model: Float64Array, pose: Pose) => s.solve(pose, model, [Number.NaN, 0, 0]),
    ],
  ])('refuses %s in a solve with a TendonError, the pose untouched', (_, call) => {
    const solver = make(good[name]);
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    forwardKinematics(pose, model);
    const before = [pose.rotations.slice(), model.slice()];
    expect(typed(() => call(solver, model, pose))).toBe('TendonError');
    expect([pose.rotations, model]).toEqual(before);
  });
});

describe('unknown options', () => {
  it('refuse a misspelled or unknown option, naming it and the nearest known one (they were ignored)', () => {
    // Until 27 November `wieght`, `coneangle`, `maxIteration`, a hinge's `angle` and a cone's
    // `twistmin` were taken as no option at all, without a word (a hostile test).
    const cases: [() => unknown, string, string][] = [
      [
        () => new TwoBoneIk(skeleton, { root: 0, middle: 1, end: 2, wieght: 0.5 } as Anything),
        'wieght',
        'weight',
      ],
      [() => new AimIk(skeleton, { joint: 1, coneangle: 0.5 } as Anything), 'coneangle', 'coneAngle'],
      [
        () => new FabrikIk(skeleton, { joints: [0, 1, 2], maxIteration: 8 } as Anything),
        'maxIteration',
        'maxIterations',
      ],
      [
        () =>
          new CcdIk(skeleton, {
            joints: [0, 1, 2],
            limits: [{ kind: 'hinge', axis: [1, 0, 0], angle: 1 }, null, null],
          } as Anything),
        'angle',
        '',
      ],
      [
        () =>
          new FabrikIk(skeleton, {
            joints: [0, 1, 2],
            limits: [{ kind: 'cone', angle: 1, twistmin: -1 }, null, null],
          } as Anything),
        'twistmin',
        'twistMin',
      ],
    ];
    for (const [make, key, nearest] of cases) {
      expect(make, key).toThrow(
        expect.objectContaining({
          code: 'ik/invalid-option',
          message: expect.stringContaining(
            nearest === '' ? `unknown option "${key}"` : `unknown option "${key}" (did you mean "${nearest}"`,
          ),
        }),
      );
    }
  });
});
