/**
 * The line through a chain's root and its target, where iterative chain solvers stall: the test
 * for it and the thresholds FabrikIk and CcdIk share (docs/methods.md §4).
 *
 * @packageDocumentation
 */

/**
 * The sideways move of a chain kicked off the line, as a share of its length: enough for the next
 * pass or sweep to bend it, small next to the chain.
 */
export const LINE_KICK = 0.05;

/**
 * {@link chainOnLine}'s `sinSq` for a chain on the line: within 1e-3 rad, where no pass or sweep
 * leaves it in useful time.
 */
export const ON_LINE = 1e-6;

/**
 * {@link chainOnLine}'s `sinSq` for a chain near the line (0.05 rad), checked once passes or sweeps
 * have slowed down (see {@link SLOW_GAIN}): they are closing in on the line, where they stall, or
 * crawling along it toward a target they reach only after thousands more.
 */
export const NEAR_LINE = 2.5e-3;

/** An iteration that shrinks the error by less than this share of it is slow. */
export const SLOW_GAIN = 1e-2;

/**
 * Whether the target and every point lie on one line through the root, none farther from it than
 * `sinθ·|l|` where `|l|` is the distance from the root of the farthest of them and `sinSq` is
 * `sin²θ` (1e-6: θ = 1e-3 rad): a
 * straight chain aimed at, or directly away from, its target, or a target on the root of a straight
 * chain. Iterative solvers make no progress there (the line is a fixed point of FABRIK's passes,
 * and CCD's joint→end and joint→target vectors are parallel), and leaving a line 1e-3 rad away takes
 * too many iterations to be of use. When so, writes a unit vector perpendicular to the line to
 * `out[o…]` (from the coordinate axis least aligned with it: the same input always gives the same
 * side) and returns `true`. Needs at least three points.
 */
export function chainOnLine(
  positions: Float64Array,
  count: number,
  target: Float64Array,
  to: number,
  out: Float64Array,
  o: number,
  sinSq: number,
): boolean {
  if (count < 3) return false;
  const rx = positions[0];
  const ry = positions[1];
  const rz = positions[2];
  // The line: toward whichever of the target and the points is farthest from the root.
  let lx = target[to] - rx;
  let ly = target[to + 1] - ry;
  let lz = target[to + 2] - rz;
  let lLenSq = lx * lx + ly * ly + lz * lz;
  for (let i = 1; i < count; i++) {
    const px = positions[3 * i] - rx;
    const py = positions[3 * i + 1] - ry;
    const pz = positions[3 * i + 2] - rz;
    const pLenSq = px * px + py * py + pz * pz;
    if (pLenSq > lLenSq) {
      lx = px;
      ly = py;
      lz = pz;
      lLenSq = pLenSq;
    }
  }
  // Measured in units of l's largest part, so that no square leaves the doubles: in metres
  // squared, a chain 1e80 long overflowed and one 1e-82 long underflowed, and a chain bent 90° read
  // as on the line.
  const m = Math.max(lx < 0 ? -lx : lx, ly < 0 ? -ly : ly, lz < 0 ? -lz : lz);
  if (!(m > 0 && m < Number.POSITIVE_INFINITY)) return false;
  lx /= m;
  ly /= m;
  lz /= m;
  const lLen = Math.sqrt(lx * lx + ly * ly + lz * lz);
  const ux = lx / lLen;
  const uy = ly / lLen;
  const uz = lz / lLen;
  // No farther from the line than sinθ·|l|, in those units.
  const bound = Math.sqrt(sinSq) * lLen;
  for (let i = 1; i <= count; i++) {
    // The points 1 … count − 1, then the target.
    const src = i < count ? positions : target;
    const so = i < count ? 3 * i : to;
    const px = (src[so] - rx) / m;
    const py = (src[so + 1] - ry) / m;
    const pz = (src[so + 2] - rz) / m;
    const cx = py * uz - pz * uy;
    const cy = pz * ux - px * uz;
    const cz = px * uy - py * ux;
    // Its distance from the line |p × û|, first by its largest part (a point far beyond the chain
    // would square past the doubles; NaN fails too); points near the root are not held to an
    // angle they cannot define.
    const cm = Math.max(cx < 0 ? -cx : cx, cy < 0 ? -cy : cy, cz < 0 ? -cz : cz);
    if (!(cm <= bound)) return false;
    if (cx * cx + cy * cy + cz * cz > bound * bound) return false;
  }
  const ax = lx < 0 ? -lx : lx;
  const ay = ly < 0 ? -ly : ly;
  const az = lz < 0 ? -lz : lz;
  let sx: number;
  let sy: number;
  let sz: number;
  if (ax <= ay && ax <= az) {
    sx = 0;
    sy = -lz;
    sz = ly;
  } else if (ay <= az) {
    sx = lz;
    sy = 0;
    sz = -lx;
  } else {
    sx = -ly;
    sy = lx;
    sz = 0;
  }
  const k = 1 / Math.sqrt(sx * sx + sy * sy + sz * sz);
  out[o] = sx * k;
  out[o + 1] = sy * k;
  out[o + 2] = sz * k;
  return true;
}
