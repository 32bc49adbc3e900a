import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decayFactor,
  EASED_WEIGHT_LENGTH,
  easedWeightSet,
  easedWeightStep,
  easedWeightValue,
  springOmega,
  springStep,
  springStep3,
} from '../../src/placement/spring.js';

/** Spring parameters, as the steps take them: [omega, dt]. */
const params = (omega: number, dt: number) => Float64Array.of(omega, dt);
/** Eased-weight parameters: [goal, easeTime, dt]. */
const ease = (goal: number, easeTime: number, dt: number) => Float64Array.of(goal, easeTime, dt);
/** A scalar goal in an array. */
const at = (goal: number) => Float64Array.of(goal);

const runs = Number(process.env.FUZZ_RUNS ?? 2000);

describe('decayFactor', () => {
  it('stays within 0.019 of exp(−x) and within (0, 1] everywhere', () => {
    for (let x = 0; x <= 20; x += 0.01) expect(Math.abs(decayFactor(x) - Math.exp(-x))).toBeLessThan(0.019);
    expect(decayFactor(0)).toBe(1);
    for (const x of [10, 1e3, 1e9, 1e300]) {
      expect(decayFactor(x)).toBeGreaterThanOrEqual(0);
      expect(decayFactor(x)).toBeLessThan(1);
    }
  });
});

describe('springStep (critically damped)', () => {
  it('settles on its goal without overshooting, from rest, at 60 Hz', () => {
    const state = new Float64Array([0, 0]);
    const omega = springOmega(0.1);
    let previous = 0;
    for (let i = 0; i < 120; i++) {
      springStep(state, 0, at(1), 0, params(omega, 1 / 60));
      expect(state[0]).toBeGreaterThanOrEqual(previous);
      expect(state[0]).toBeLessThanOrEqual(1);
      previous = state[0];
    }
    expect(state[0]).toBeGreaterThan(0.9999);
  });

  it('is stable for any step: never moves away from the goal by more than it started', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -10, max: 10, noNaN: true }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.double({ min: 1e-3, max: 10, noNaN: true }),
        (start, dt, smooth) => {
          const state = new Float64Array([start, 0]);
          springStep(state, 0, at(0), 0, params(springOmega(smooth), dt));
          expect(Number.isFinite(state[0])).toBe(true);
          expect(Math.abs(state[0])).toBeLessThanOrEqual(Math.abs(start) + 1e-12);
        },
      ),
      { numRuns: runs, seed: 17 },
    );
  });

  it('stays finite at the doubles’ ends: any smoothing time from 1e-300, any step to 1e308, any goal to ±1e300', () => {
    // Until 27 November a smoothing time of 1e-200 (ω·dt past the doubles) made its velocity
    // −∞·0 = NaN, kept in the state: a LookAt then refused every later frame (a hostile test).
    fc.assert(
      fc.property(
        fc.double({ min: -1e300, max: 1e300, noNaN: true }),
        fc.double({ min: -1e300, max: 1e300, noNaN: true }),
        fc.double({ min: 0, max: 1e308, noNaN: true }),
        fc.double({ min: 1e-300, max: 1e3, noNaN: true }),
        (start, goal, dt, smooth) => {
          const state = new Float64Array([start, 0]);
          for (let k = 0; k < 3; k++) springStep(state, 0, at(goal), 0, params(springOmega(smooth), dt));
          expect(Number.isFinite(state[0]) && Number.isFinite(state[1])).toBe(true);
        },
      ),
      { numRuns: runs, seed: 23 },
    );
    const state = new Float64Array([0, 0]);
    springStep(state, 0, at(2), 0, params(springOmega(1e-200), 1 / 60));
    expect([...state]).toEqual([2, 0]);
  });

  it('snaps with a smoothing time of 0, and the vector step matches three scalar steps', () => {
    const state = new Float64Array([5, 3]);
    springStep(state, 0, at(2), 0, params(springOmega(0), 1 / 60));
    expect([...state]).toEqual([2, 0]);
    const v = new Float64Array([1, 2, 3, 0.5, -0.5, 0]);
    const goal = Float64Array.of(4, -1, 3);
    springStep3(v, 0, goal, 0, params(20, 1 / 30));
    for (let k = 0; k < 3; k++) {
      const s = new Float64Array([[1, 2, 3][k], [0.5, -0.5, 0][k]]);
      springStep(s, 0, goal, k, params(20, 1 / 30));
      expect(v[k]).toBe(s[0]);
      expect(v[3 + k]).toBe(s[1]);
    }
  });
});

describe('eased weights', () => {
  it('reach the goal exactly after the ease time, with no jump on the way', () => {
    const w = new Float64Array(EASED_WEIGHT_LENGTH);
    let previous = easedWeightValue(w, 0);
    for (let i = 0; i < 15; i++) {
      easedWeightStep(w, 0, ease(1, 0.25, 1 / 60));
      const value = easedWeightValue(w, 0);
      expect(value - previous).toBeLessThan(0.11); // 1.5/0.25 per second at most: 0.1 per frame
      previous = value;
    }
    expect(easedWeightValue(w, 0)).toBe(1);
  });

  it('turn round from where they are when the goal changes mid-ease', () => {
    const w = new Float64Array(EASED_WEIGHT_LENGTH);
    easedWeightSet(w, 0, 1);
    for (let i = 0; i < 5; i++) easedWeightStep(w, 0, ease(0, 0.2, 1 / 60));
    const before = easedWeightValue(w, 0);
    easedWeightStep(w, 0, ease(1, 0.2, 0));
    expect(easedWeightValue(w, 0)).toBe(before);
    easedWeightStep(w, 0, ease(0.3, 0.2, 1));
    expect(easedWeightValue(w, 0)).toBe(0.3);
  });
});
