/**
 * FABRIK's positional passes (docs/methods.md §4) over a chain of points in one frame.
 *
 * `positions` holds `3·count` numbers (joint 0 is the root), `lengths` the `count − 1` segment
 * lengths. Nothing here allocates or uses trigonometry. The rotational forward pass (turning the
 * points into local rotations, with joint limits enforced inside it) is in `src/ik/fabrik.ts`,
 * built on `aimJoint` from `./joint-limits.js`.
 *
 * @packageDocumentation
 */
import { chainOnLine } from './chain-line.js';

/**
 * Backward pass: puts the last point on `target[to…]`, then each point on the line from its
 * (already moved) successor toward its old place, at the segment's length. A point that the
 * successor landed on exactly (no direction to keep) keeps the direction its segment had before
 * the pass; a zero-length segment collapses the two points.
 */
export function fabrikBackward(
  positions: Float64Array,
  lengths: Float64Array,
  count: number,
  target: Float64Array,
  to: number,
): void {
  reach(positions, lengths, count, target, to, -1);
}

/**
 * Forward pass: puts the first point back on `root[ro…]`, then each point on the line from its
 * (already moved) predecessor toward where the backward pass left it, at the segment's length. A
 * point its predecessor landed on exactly keeps the direction its segment had before the pass. With
 * no joint limits this is all of FABRIK's forward pass; the rotations are read off the points once,
 * at the end of a solve.
 */
export function fabrikForward(
  positions: Float64Array,
  lengths: Float64Array,
  count: number,
  root: Float64Array,
  ro: number,
): void {
  reach(positions, lengths, count, root, ro, 1);
}

/**
 * One reaching pass, the two directions being the same procedure: `step` 1 anchors point 0 on
 * `anchor[ao…]` and walks toward the tip, −1 anchors the last point and walks toward the root. Each
 * point goes on the line from its (already moved) neighbour toward its own place, at the length of
 * the segment between them; without a direction there, the segment keeps the one it had.
 */
function reach(
  positions: Float64Array,
  lengths: Float64Array,
  count: number,
  anchor: Float64Array,
  ao: number,
  step: 1 | -1,
): void {
  const first = step === 1 ? 0 : 3 * (count - 1);
  // Old position of the neighbour, for the degenerate direction.
  let oldX = positions[first];
  let oldY = positions[first + 1];
  let oldZ = positions[first + 2];
  // The neighbour's new position stays in registers: each step depends on the one before, and a
  // round trip through memory would lengthen that chain.
  let nx = anchor[ao];
  let ny = anchor[ao + 1];
  let nz = anchor[ao + 2];
  positions[first] = nx;
  positions[first + 1] = ny;
  positions[first + 2] = nz;
  for (let k = 1; k < count; k++) {
    const i = step === 1 ? k : count - 1 - k;
    const o = 3 * i;
    const px = positions[o];
    const py = positions[o + 1];
    const pz = positions[o + 2];
    let dx = px - nx;
    let dy = py - ny;
    let dz = pz - nz;
    let lenSq = dx * dx + dy * dy + dz * dz;
    // Below 1e-300 a squared length is subnormal or nearly so: its square root has lost digits, and
    // the direction with it. Such a segment keeps its old direction instead.
    if (!(lenSq > 1e-300)) {
      dx = px - oldX;
      dy = py - oldY;
      dz = pz - oldZ;
      lenSq = dx * dx + dy * dy + dz * dz;
    }
    // Segment i joins points i and i + 1: walking forward it is the one before point i.
    const length = lengths[step === 1 ? i - 1 : i];
    const scale = lenSq > 1e-300 ? length / Math.sqrt(lenSq) : 0;
    oldX = px;
    oldY = py;
    oldZ = pz;
    nx += dx * scale;
    ny += dy * scale;
    nz += dz * scale;
    positions[o] = nx;
    positions[o + 1] = ny;
    positions[o + 2] = nz;
  }
}

/**
 * Lays the chain straight from its root (point 0, unchanged) toward `target[to…]`: the answer for a
 * target out of reach. When the target sits on the root, the chain keeps the direction from the
 * root to its current end (or, if that is zero too, stays as it is).
 */
export function fabrikStraight(
  positions: Float64Array,
  lengths: Float64Array,
  count: number,
  target: Float64Array,
  to: number,
): void {
  const rx = positions[0];
  const ry = positions[1];
  const rz = positions[2];
  let dx = target[to] - rx;
  let dy = target[to + 1] - ry;
  let dz = target[to + 2] - rz;
  let lenSq = dx * dx + dy * dy + dz * dz;
  if (!(lenSq > 0)) {
    const last = 3 * (count - 1);
    dx = positions[last] - rx;
    dy = positions[last + 1] - ry;
    dz = positions[last + 2] - rz;
    lenSq = dx * dx + dy * dy + dz * dz;
    if (!(lenSq > 0)) return;
  }
  const inv = 1 / Math.sqrt(lenSq);
  dx *= inv;
  dy *= inv;
  dz *= inv;
  let reach = 0;
  for (let i = 1; i < count; i++) {
    reach += lengths[i - 1];
    positions[3 * i] = rx + dx * reach;
    positions[3 * i + 1] = ry + dy * reach;
    positions[3 * i + 2] = rz + dz * reach;
  }
}

/**
 * When {@link chainOnLine} holds (with `sinSq`), moves the inner points sideways by `offset[oo]` (a
 * length) so that the next backward pass bends the chain, and returns `true`. The points only steer
 * the next pass: the segment lengths are not read from them. Sideways means toward `side[so…]`
 * (a direction of any length: the side the chain bent last, so that a limb that straightens and
 * bends again bends the same way) made perpendicular to the root–target line, or, when that is
 * zero or along the line, {@link chainOnLine}'s fixed perpendicular. `scratch` needs 3 numbers.
 */
export function fabrikUnfold(
  positions: Float64Array,
  count: number,
  target: Float64Array,
  to: number,
  offset: Float64Array,
  oo: number,
  scratch: Float64Array,
  sinSq: number,
  side: Float64Array,
  so: number,
): boolean {
  if (!chainOnLine(positions, count, target, to, scratch, 0, sinSq)) return false;
  const lx = target[to] - positions[0];
  const ly = target[to + 1] - positions[1];
  const lz = target[to + 2] - positions[2];
  const lSq = lx * lx + ly * ly + lz * lz;
  const sx = side[so];
  const sy = side[so + 1];
  const sz = side[so + 2];
  const sSq = sx * sx + sy * sy + sz * sz;
  if (lSq > 0 && sSq > 0) {
    const along = (sx * lx + sy * ly + sz * lz) / lSq;
    const px = sx - along * lx;
    const py = sy - along * ly;
    const pz = sz - along * lz;
    const pSq = px * px + py * py + pz * pz;
    // Across the line by at least 1e-3 of its length (0.06°): a direction to trust.
    if (pSq > 1e-6 * sSq) {
      const inv = 1 / Math.sqrt(pSq);
      scratch[0] = px * inv;
      scratch[1] = py * inv;
      scratch[2] = pz * inv;
    }
  }
  const k = offset[oo];
  for (let i = 1; i < count - 1; i++) {
    positions[3 * i] += scratch[0] * k;
    positions[3 * i + 1] += scratch[1] * k;
    positions[3 * i + 2] += scratch[2] * k;
  }
  return true;
}

/**
 * The smallest ratio of successive moves {@link fabrikExtrapolate} extrapolates from: below it
 * FABRIK converges fast enough on its own.
 */
export const EXTRAPOLATE_MIN_RATIO = 0.3;

/**
 * The largest ratio of successive moves {@link fabrikExtrapolate} extrapolates from. Near full reach
 * the ratio creeps toward 1 (0.999 and beyond: each move is at most a thousandth shorter than the
 * one before), and the jump (ρ / (1 − ρ) times the last move) is what converges at all; the caller
 * keeps it only if it brought the end closer, so a jump too long costs an iteration, not the answer.
 */
export const EXTRAPOLATE_MAX_RATIO = 0.99999;

/**
 * FABRIK converges linearly, and slowly near full extension: each iteration moves the points by
 * about ρ times the move before, in about the same direction. This records an iteration's move
 * (`positions − previous` into `change`, `previous` ← `positions`) and, when `extrapolate` is set
 * and the move is that ratio ρ ∈ [{@link EXTRAPOLATE_MIN_RATIO}, {@link EXTRAPOLATE_MAX_RATIO}]
 * of the previous one (measured along it), moves the points on to where the geometric series of
 * moves ends, `positions + ρ / (1 − ρ) · change`, and returns `true`. The points then do not keep
 * the segment lengths: the caller re-imposes them (a forward pass) and keeps the result only if
 * it is closer to the target, restoring `previous` otherwise. Allocates nothing.
 */
export function fabrikExtrapolate(
  positions: Float64Array,
  previous: Float64Array,
  change: Float64Array,
  count: number,
  extrapolate: boolean,
): boolean {
  let along = 0;
  let before = 0;
  const n = 3 * count;
  // Point by point: three coordinates per step of the sums' dependency chains, not one.
  for (let i = 0; i < n; i += 3) {
    const dx = positions[i] - previous[i];
    const dy = positions[i + 1] - previous[i + 1];
    const dz = positions[i + 2] - previous[i + 2];
    const cx = change[i];
    const cy = change[i + 1];
    const cz = change[i + 2];
    along += dx * cx + dy * cy + dz * cz;
    before += cx * cx + cy * cy + cz * cz;
    change[i] = dx;
    change[i + 1] = dy;
    change[i + 2] = dz;
    previous[i] = positions[i];
    previous[i + 1] = positions[i + 1];
    previous[i + 2] = positions[i + 2];
  }
  if (!extrapolate || !(before > 0)) return false;
  const ratio = along / before;
  if (!(ratio >= EXTRAPOLATE_MIN_RATIO && ratio <= EXTRAPOLATE_MAX_RATIO)) return false;
  const ahead = ratio / (1 - ratio);
  for (let i = 0; i < n; i++) positions[i] += ahead * change[i];
  return true;
}
