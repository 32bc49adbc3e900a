/**
 * Angles to cosines and sines, for solver set-up only.
 *
 * Solvers take angles in radians in their options and convert them here, once, when they are
 * configured: the solve itself uses only + − × ÷ and √, so its results are bit-identical on every
 * JavaScript engine (ALGORITHMS.md §5). `Math.cos`/`Math.sin` may differ by an ulp between engines,
 * so two peers of a lockstep game should configure their solvers from the same cosines (see
 * {@link cosSinOfAngle}) or exchange them.
 *
 * @packageDocumentation
 */

/** `[cos θ, sin θ]` of an angle in radians; exact for 0, ±π/2 and π. */
export function cosSinOfAngle(angleRad: number): [number, number] {
  if (angleRad === 0) return [1, 0];
  if (angleRad === Math.PI / 2) return [0, 1];
  if (angleRad === -Math.PI / 2) return [0, -1];
  if (angleRad === Math.PI || angleRad === -Math.PI) return [-1, 0];
  return [Math.cos(angleRad), Math.sin(angleRad)];
}
