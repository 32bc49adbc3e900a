/**
 * tendon's own cosine and sine: within 1 ulp-ish of the platform's (checked against V8's) over
 * seeded arguments, exact where they must be, and made of arithmetic alone (the cross-engine runs
 * in test/ik/determinism.test.ts and test/placement/determinism.test.ts give the same bits).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cosSinInto, cosSinOfAngle } from '../../src/math/angle.js';
import { withoutTrigonometry } from '../ik/without-trigonometry.js';

/** Distance in units in the last place between two doubles of the same sign (or both tiny). */
function ulps(a: number, b: number): number {
  if (a === b) return 0;
  const scale = Math.max(Math.abs(a), Math.abs(b), 2 ** -1022);
  const ulp = 2 ** (Math.floor(Math.log2(scale)) - 52);
  return Math.abs(a - b) / ulp;
}

const runs = Number(process.env.FUZZ_RUNS ?? 20000);

describe('cosSinOfAngle', () => {
  it('is exact at 0, ±π/2 and ±π', () => {
    expect(cosSinOfAngle(0)).toEqual([1, 0]);
    expect(cosSinOfAngle(Math.PI / 2)).toEqual([0, 1]);
    expect(cosSinOfAngle(-Math.PI / 2)).toEqual([0, -1]);
    expect(cosSinOfAngle(Math.PI)).toEqual([-1, 0]);
    expect(cosSinOfAngle(-Math.PI)).toEqual([-1, 0]);
  });

  it('agrees with Math.cos and Math.sin to 2 ulps (or 1e-16 absolute near a zero) up to 1e5 rad', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ min: -4, max: 4, noNaN: true }),
          fc.double({ min: -1e5, max: 1e5, noNaN: true }),
        ),
        (x) => {
          const [c, s] = cosSinOfAngle(x);
          const okC =
            ulps(c, Math.cos(x)) <= 2 || Math.abs(c - Math.cos(x)) <= 1e-16 * Math.max(1, Math.abs(x));
          const okS =
            ulps(s, Math.sin(x)) <= 2 || Math.abs(s - Math.sin(x)) <= 1e-16 * Math.max(1, Math.abs(x));
          expect(okC && okS).toBe(true);
        },
      ),
      { numRuns: runs, seed: 99 },
    );
  });

  it('uses no transcendental function, and answers NaN for a non-finite angle', () => {
    const out = new Float64Array(2);
    withoutTrigonometry(() => {
      for (let i = -1000; i <= 1000; i++) cosSinInto(i * 0.0137, out);
    });
    expect([...cosSinInto(Number.POSITIVE_INFINITY, out)]).toEqual([Number.NaN, Number.NaN]);
  });
});
