/**
 * The knee hinge of a leg that is straight at rest (a capture's T-pose): it has no bend plane to
 * take the hinge from, so the knee bends about the character's side axis, forward. FootPlacement
 * and RungRetarget both bend such legs so.
 *
 * @packageDocumentation
 */
import { decompose } from '../kernel/trs.js';
import type { LegRig } from '../rig/limbs.js';
import { legEndIn } from './contacts.js';

/**
 * The hinge axis for `leg`'s two-bone solver, in its middle joint's rest frame: the side axis
 * (up × `forward`, a unit model-space direction) where the rest pose is straight, so that the knee
 * bends forward; `undefined` where the rest pose bends (the solver takes its bend plane).
 */
export function straightKneeHinge(
  rest: Float64Array,
  leg: LegRig,
  forward: readonly number[],
): [number, number, number] | undefined {
  // up × forward with up = (0, 1, 0).
  return restIsStraight(rest, leg) ? axisIn(rest, leg.middle, forward[2], 0, -forward[0]) : undefined;
}

/** Whether a leg's rest pose is straight (bent by less than ~0.06°, too little for a bend plane). */
function restIsStraight(rest: Float64Array, leg: LegRig): boolean {
  const a = 16 * leg.root + 12;
  const b = 16 * leg.middle + 12;
  const [cx, cy, cz] = legEndIn(rest, leg);
  const ux = rest[b] - rest[a];
  const uy = rest[b + 1] - rest[a + 1];
  const uz = rest[b + 2] - rest[a + 2];
  const wx = cx - rest[b];
  const wy = cy - rest[b + 1];
  const wz = cz - rest[b + 2];
  const nx = uy * wz - uz * wy;
  const ny = uz * wx - ux * wz;
  const nz = ux * wy - uy * wx;
  const n = Math.sqrt(nx * nx + ny * ny + nz * nz);
  const lu = Math.sqrt(ux * ux + uy * uy + uz * uz);
  const lw = Math.sqrt(wx * wx + wy * wy + wz * wz);
  return !(n > 1e-3 * lu * lw);
}

/** The model-space direction (sx, sy, sz) in `joint`'s rest rotation frame. */
function axisIn(
  rest: Float64Array,
  joint: number,
  sx: number,
  sy: number,
  sz: number,
): [number, number, number] {
  const t = new Float64Array(3);
  const q = new Float64Array(4);
  const sc = new Float64Array(3);
  decompose(t, 0, q, 0, sc, 0, rest, 16 * joint);
  // q⁻¹ · s · q.
  const x = -q[0];
  const y = -q[1];
  const z = -q[2];
  const w = q[3];
  const tx = 2 * (y * sz - z * sy);
  const ty = 2 * (z * sx - x * sz);
  const tz = 2 * (x * sy - y * sx);
  return [sx + w * tx + (y * tz - z * ty), sy + w * ty + (z * tx - x * tz), sz + w * tz + (x * ty - y * tx)];
}
