/**
 * DlsRefine, the damped least-squares steps FabrikIk hands a stalled limited chain to: convergence
 * near full reach, the escape from a straight hinge at its limit, limits kept, the closest pose
 * left, and every parent case.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { setupChain } from '../../src/ik/chain-setup.js';
import { DlsRefine } from '../../src/ik/dls-refine.js';
import type { JointLimit } from '../../src/ik/joint-limits.js';
import { clampRotation, LIMIT_STRIDE } from '../../src/kernel/joint-limits.js';
import { invertAffine } from '../../src/kernel/mat4.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import {
  ARM_LIMITS,
  buildRig,
  type ChainRig,
  chainArb,
  checkUnit,
  dist,
  expectAllFinite,
  limitArb,
  type Quat,
  reachOf,
  setChain,
  targetAt,
  turnAbout,
} from '../helpers/chains.js';
import { PARENT_CASES } from './parents.js';
import { PROPERTY_RUNS, PROPERTY_SEED } from './runs.js';

function refinerFor(rig: ChainRig, tolerance = 1e-9, limits: readonly (JointLimit | null)[] = ARM_LIMITS) {
  const setup = setupChain(rig.skeleton, { joints: rig.chain, limits, tolerance }, 'test', 64);
  const parent = rig.skeleton.parents[rig.chain[0]];
  const parentModel = rig.model.slice(16 * parent, 16 * parent + 16);
  const parentInverse = new Float64Array(16);
  invertAffine(parentInverse, 0, parentModel, 0);
  return { setup, refiner: new DlsRefine(rig.skeleton, setup, parentModel, parentInverse) };
}

/**
 * Each chain joint's rotation is within its limit to 1e-9 rad: clamping it changes no component by
 * more than 5e-10 (a half-angle's). Joints whose rotation equals `unless`'s (rotations, 4 per joint)
 * are skipped: a pose the test clamped at a swing of exactly π, where the twist is undefined, clamps
 * again to another twist.
 */
function expectWithinLimits(rig: ChainRig, limits: Float64Array, unless?: Float64Array): void {
  for (let i = 0; i < rig.chain.length; i++) {
    const q = rig.pose.rotations.slice(4 * rig.chain[i], 4 * rig.chain[i] + 4);
    if (unless !== undefined && q.every((x, k) => x === unless[4 * rig.chain[i] + k])) continue;
    const clamped = q.slice();
    clampRotation(clamped, 0, limits, LIMIT_STRIDE * i);
    for (let k = 0; k < 4; k++) expect(Math.abs(clamped[k] - q[k])).toBeLessThanOrEqual(5e-10);
  }
}

/**
 * The point on the line from the root through the end at `share` of the chain's reach (3: bones of
 * 1 in the root's parent frame, where the chain is rigid), in model space.
 */
function targetAlongLine(rig: ChainRig, share: number): Float64Array {
  const parent = rig.skeleton.parents[rig.chain[0]];
  const P = rig.model.slice(16 * parent, 16 * parent + 16);
  const inv = new Float64Array(16);
  invertAffine(inv, 0, P, 0);
  const local = (o: number) =>
    [0, 1, 2].map(
      (r) =>
        inv[r] * rig.model[o] + inv[4 + r] * rig.model[o + 1] + inv[8 + r] * rig.model[o + 2] + inv[12 + r],
    );
  const root = local(16 * rig.chain[0] + 12);
  const end = local(16 * rig.chain[3] + 12);
  const d = [0, 1, 2].map((k) => end[k] - root[k]);
  const span = Math.hypot(...d);
  const t = [0, 1, 2].map((k) => root[k] + (d[k] / span) * share * 3);
  return Float64Array.from([0, 1, 2].map((r) => P[r] * t[0] + P[4 + r] * t[1] + P[8 + r] * t[2] + P[12 + r]));
}

describe('DlsRefine', () => {
  // Elbow straight at its 0 limit, the wrist bent to its cone's edge: the chain is too long for a
  // target on its line at 0.95 of the reach, and only the elbow can shorten it. Wrist bent across
  // the elbow's hinge: a saddle (bending the elbow changes the error only to second order). Wrist
  // bent in the hinge's plane, against the elbow's allowed side: bending the elbow alone takes the
  // end away (a local minimum; the way out bends the elbow and flips the wrist).
  const wrists: [string, Quat][] = [
    ['across the hinge (a saddle)', turnAbout([0, 0, 1], 0.6)],
    ['against the hinge (a local minimum)', turnAbout([-1, 0, 0], 0.6)],
  ];
  for (const parentCase of PARENT_CASES) {
    for (const [how, wrist] of wrists) {
      it(`${parentCase.name}: leaves a straight elbow held at its limit, the wrist bent ${how}, and reaches`, () => {
        const rig = buildRig(3, parentCase);
        setChain(rig, [1, 1, 1], [[0, 0, 0, 1], [0, 0, 0, 1], wrist, [0, 0, 0, 1]]);
        const target = targetAlongLine(rig, 0.95);
        const { setup, refiner } = refinerFor(rig, 1e-12);
        const status = refiner.refine(rig.pose, rig.model, target, 64);
        expect(status.reached).toBe(true);
        expect(status.error).toBeCloseTo(dist(rig.model, 16 * rig.chain[3] + 12, target, 0), 12);
        // The elbow bent off its limit, on the side its hinge allows.
        const elbow = rig.pose.rotations.slice(4 * rig.chain[1], 4 * rig.chain[1] + 4);
        expect(elbow[0]).toBeGreaterThan(1e-3);
        expectWithinLimits(rig, setup.limits);
      });
    }
  }

  it('converges in a few steps near full reach, where the passes crawl', () => {
    const rig = buildRig(3);
    // An arm at 0.999 of its reach: elbow straight at its limit, wrist bent a little.
    setChain(
      rig,
      [1, 1, 1],
      [turnAbout([1, 0, 1], 0.3), [0, 0, 0, 1], turnAbout([1, 0, 0.3], 0.2), [0, 0, 0, 1]],
    );
    const e = 16 * rig.chain[3] + 12;
    const target = targetAlongLine(rig, 0.999);
    // Moved sideways a little: the answer needs every joint.
    target[0] += 0.01;
    const { setup, refiner } = refinerFor(rig);
    const status = refiner.refine(rig.pose, rig.model, target, 64);
    expect(status.reached).toBe(true);
    expect(status.iterations).toBeLessThanOrEqual(8);
    expect(dist(rig.model, e, target, 0)).toBeLessThanOrEqual(1e-9);
    expectWithinLimits(rig, setup.limits);
  });

  it('never leaves the chain farther from the target than it found it, and keeps the limits', () => {
    const rig = buildRig(3);
    const e = 16 * rig.chain[3] + 12;
    let seed = 17;
    const random = () => {
      seed = (seed * 1664525 + 1013904223) >>> 0;
      return seed / 4294967296;
    };
    const { setup, refiner } = refinerFor(rig, 1e-6);
    for (let k = 0; k < 300; k++) {
      const pose: Quat[] = [
        turnAbout([random() - 0.5, 0, random() - 0.5], 1.1 * random()),
        turnAbout([1, 0, 0], 2.4 * random()),
        turnAbout([random() - 0.5, 0, random() - 0.5], 0.55 * random()),
        [0, 0, 0, 1],
      ];
      setChain(rig, [1, 1, 1], pose);
      const target = Float64Array.from([0, 1, 2].map((i) => rig.model[e + i] + 2 * random() - 1));
      const before = dist(rig.model, e, target, 0);
      const steps = 1 + Math.floor(8 * random());
      const status = refiner.refine(rig.pose, rig.model, target, steps);
      expect(status.iterations).toBeLessThanOrEqual(steps);
      expect(status.error).toBeLessThanOrEqual(before);
      expect(dist(rig.model, e, target, 0)).toBeCloseTo(status.error, 12);
      expectWithinLimits(rig, setup.limits);
    }
  });
});

describe('DlsRefine: any chain, limits and target', () => {
  for (const parentCase of PARENT_CASES) {
    it(`${parentCase.name}: never farther, limits hold, FK current, finite and unit`, () => {
      const rig = buildRig(3, parentCase);
      const e = 16 * rig.chain[3] + 12;
      fc.assert(
        fc.property(
          chainArb(3, 0.2, 2),
          fc.array(limitArb, { minLength: 4, maxLength: 4 }),
          fc.double({ min: 0, max: 2, noNaN: true }),
          fc.integer({ min: 1, max: 8 }),
          (c, limits, factor, steps) => {
            setChain(rig, c.lengths, c.rotations);
            const { setup, refiner } = refinerFor(rig, 0, limits);
            // FabrikIk hands over poses within the limits.
            for (let i = 0; i < 4; i++)
              clampRotation(rig.pose.rotations, 4 * rig.chain[i], setup.limits, LIMIT_STRIDE * i);
            forwardKinematics(rig.pose, rig.model);
            const start = rig.pose.rotations.slice();
            const target = targetAt(rig, c.dir, reachOf(c.lengths).reach * factor);
            const before = dist(rig.model, e, target, 0);
            const status = refiner.refine(rig.pose, rig.model, target, steps);
            expect(status.iterations).toBeLessThanOrEqual(steps);
            // Rounding aside: the start itself is the closest pose when no step gains.
            expect(status.error).toBeLessThanOrEqual(before * (1 + 1e-12));
            const after = dist(rig.model, e, target, 0);
            expect(Math.abs(after - status.error)).toBeLessThanOrEqual(1e-12 * Math.max(1, after));
            expectAllFinite(rig.pose.rotations);
            checkUnit(rig);
            // The joints a step turned (the others are as the test clamped them).
            expectWithinLimits(rig, setup.limits, start);
            const fresh = createModelBuffer(rig.skeleton);
            forwardKinematics(rig.pose, fresh);
            let worst = 0;
            for (let k = 0; k < fresh.length; k++)
              worst = Math.max(worst, Math.abs(fresh[k] - rig.model[k]) / (1 + Math.abs(fresh[k])));
            expect(worst).toBeLessThanOrEqual(1e-12);
          },
        ),
        { seed: PROPERTY_SEED, numRuns: Math.max(1, Math.floor(PROPERTY_RUNS / 20)) },
      );
    });
  }
});
