/**
 * dampedLeastSquares against a direct solve of the normal equations, and what damping does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dampedLeastSquares } from '../../src/kernel/damped-least-squares.js';
import { RUNS } from './helpers.js';

/** (J Jᵀ + λ² I) y = e by Gaussian elimination with partial pivoting, then θ = Jᵀ y: the oracle. */
function oracle(columns: number[][], error: number[], dampingSq: number): number[] {
  const a = [0, 1, 2].map((r) => [0, 1, 2].map((c) => (r === c ? dampingSq : 0)));
  for (const col of columns)
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) a[r][c] += col[r] * col[c];
  const m = a.map((row, r) => [...row, error[r]]);
  for (let p = 0; p < 3; p++) {
    let best = p;
    for (let r = p + 1; r < 3; r++) if (Math.abs(m[r][p]) > Math.abs(m[best][p])) best = r;
    [m[p], m[best]] = [m[best], m[p]];
    for (let r = p + 1; r < 3; r++) {
      const f = m[r][p] / m[p][p];
      for (let c = p; c < 4; c++) m[r][c] -= f * m[p][c];
    }
  }
  const y = [0, 0, 0];
  for (let r = 2; r >= 0; r--) {
    let s = m[r][3];
    for (let c = r + 1; c < 3; c++) s -= m[r][c] * y[c];
    y[r] = s / m[r][r];
  }
  return columns.map((c) => c[0] * y[0] + c[1] * y[1] + c[2] * y[2]);
}

const component = fc.double({ min: -2, max: 2, noNaN: true });
const vector = fc.tuple(component, component, component);

describe('dampedLeastSquares', () => {
  it('matches a direct solve of (J Jᵀ + λ² I) y = e, θ = Jᵀ y', () => {
    fc.assert(
      fc.property(
        fc.array(vector, { minLength: 1, maxLength: 9 }),
        vector,
        fc.double({ min: 1e-3, max: 1, noNaN: true }),
        (columns, error, damping) => {
          const out = new Float64Array(columns.length);
          const ok = dampedLeastSquares(
            out,
            Float64Array.from(columns.flat()),
            columns.length,
            Float64Array.from([...error, damping * damping]),
            0,
          );
          expect(ok).toBe(true);
          const want = oracle(columns, error, damping * damping);
          const scale = Math.max(1, ...want.map(Math.abs));
          for (let k = 0; k < columns.length; k++)
            expect(Math.abs(out[k] - want[k])).toBeLessThanOrEqual(1e-9 * scale);
        },
      ),
      RUNS,
    );
  });

  it('undamped, with columns that span, moves the end by exactly the error (J θ = e)', () => {
    const columns = [
      [1, 0.2, 0],
      [0, 1, 0.3],
      [0.1, 0, 1],
      [0.5, 0.5, 0.5],
    ];
    const error = [0.3, -0.7, 0.2];
    const out = new Float64Array(4);
    expect(
      dampedLeastSquares(out, Float64Array.from(columns.flat()), 4, Float64Array.from([...error, 0]), 0),
    ).toBe(true);
    for (let r = 0; r < 3; r++) {
      let moved = 0;
      for (let k = 0; k < 4; k++) moved += columns[k][r] * out[k];
      expect(moved).toBeCloseTo(error[r], 12);
    }
  });

  it('damping shortens the step and keeps it finite where the columns do not span', () => {
    // Both columns along x: undamped the system is singular, damped the step follows the gradient.
    const columns = Float64Array.from([1, 0, 0, 2, 0, 0]);
    const problem = Float64Array.from([1, 1, 0, 0]);
    const out = new Float64Array(2).fill(7);
    expect(dampedLeastSquares(out, columns, 2, problem, 0)).toBe(false);
    expect([...out]).toEqual([7, 7]);
    let previous = Number.POSITIVE_INFINITY;
    for (const damping of [0.01, 0.1, 1, 10]) {
      problem[3] = damping * damping;
      expect(dampedLeastSquares(out, columns, 2, problem, 0)).toBe(true);
      // Along Jᵀ e = (1, 2), shorter as the damping grows.
      expect(out[1] / out[0]).toBeCloseTo(2, 12);
      expect(out[0]).toBeLessThan(previous);
      previous = out[0];
    }
    // At λ → 0 the x component of the error is met exactly: (1·θ0 + 2·θ1) → 1.
    problem[3] = 1e-12;
    dampedLeastSquares(out, columns, 2, problem, 0);
    expect(out[0] + 2 * out[1]).toBeCloseTo(1, 9);
  });

  it('reads the error and damping at their offset and writes only `count` angles', () => {
    const out = new Float64Array(3).fill(5);
    const problem = Float64Array.from([9, 9, 1, 2, 3, 0.25]);
    expect(dampedLeastSquares(out, Float64Array.from([1, 0, 0, 0, 1, 0]), 2, problem, 2)).toBe(true);
    expect(out[0]).toBeCloseTo(1 / 1.25, 14);
    expect(out[1]).toBeCloseTo(2 / 1.25, 14);
    expect(out[2]).toBe(5);
  });
});
