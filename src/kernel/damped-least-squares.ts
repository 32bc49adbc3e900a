/**
 * One damped least-squares (Levenberg–Marquardt) step for an end point driven by joint angles.
 *
 * @packageDocumentation
 */

/**
 * The joint-angle changes that move an end point by `e = problem[po…po + 2]` as far as the
 * Jacobian allows, damped by `λ² = problem[po + 3]`: `θ = Jᵀ (J Jᵀ + λ² I)⁻¹ e`, where `J`'s
 * `count` columns are `columns[3k…3k + 2]` (how the end moves per unit of angle `k`). Writes `θ_k`
 * to `out[k]` and returns `true`; returns `false` (writing nothing) when the damped system is
 * singular, which takes `λ² = 0` and columns that do not span. (The damping comes in the array: V8
 * boxes a double passed to a call it does not inline.)
 *
 * Damping trades the step's length for its reliability: near a singular pose (a chain nearly
 * straight, where plain Gauss–Newton steps explode) the step shrinks toward the gradient's
 * direction. `J Jᵀ` is 3×3 whatever the number of angles, so the step costs one 3×3 solve (by
 * its adjugate: + − × ÷ only) and two passes over the columns. Allocates nothing.
 */
export function dampedLeastSquares(
  out: Float64Array,
  columns: Float64Array,
  count: number,
  problem: Float64Array,
  po: number,
): boolean {
  const dampingSq = problem[po + 3];
  // A = J Jᵀ + λ² I, symmetric.
  let a00 = dampingSq;
  let a01 = 0;
  let a02 = 0;
  let a11 = dampingSq;
  let a12 = 0;
  let a22 = dampingSq;
  for (let k = 0; k < count; k++) {
    const x = columns[3 * k];
    const y = columns[3 * k + 1];
    const z = columns[3 * k + 2];
    a00 += x * x;
    a01 += x * y;
    a02 += x * z;
    a11 += y * y;
    a12 += y * z;
    a22 += z * z;
  }
  // The adjugate (A is symmetric, so is it) and the determinant.
  const c00 = a11 * a22 - a12 * a12;
  const c01 = a02 * a12 - a01 * a22;
  const c02 = a01 * a12 - a02 * a11;
  const c11 = a00 * a22 - a02 * a02;
  const c12 = a01 * a02 - a00 * a12;
  const c22 = a00 * a11 - a01 * a01;
  const det = a00 * c00 + a01 * c01 + a02 * c02;
  if (!(det > 0) || det === Number.POSITIVE_INFINITY) return false;
  const ex = problem[po];
  const ey = problem[po + 1];
  const ez = problem[po + 2];
  const yx = (c00 * ex + c01 * ey + c02 * ez) / det;
  const yy = (c01 * ex + c11 * ey + c12 * ez) / det;
  const yz = (c02 * ex + c12 * ey + c22 * ez) / det;
  for (let k = 0; k < count; k++) {
    out[k] = columns[3 * k] * yx + columns[3 * k + 1] * yy + columns[3 * k + 2] * yz;
  }
  return true;
}
