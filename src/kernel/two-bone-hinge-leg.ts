/**
 * The common two-bone limb solved in one function: `twoBoneSolve`'s hinge-true path for a limb at
 * a weight above 0 without bend range or end rotation (softness, twist, a pole and an `endLocal` point
 * included), whose root has a parent.
 *
 * Every number is the general path's (`twoBoneSolveGeneral`), computed by the same operations in
 * the same order, so the bits are the same (test/kernel/two-bone-hinge-leg.test.ts compares them).
 * What it saves is the traffic around the arithmetic: the general path passes its vectors through
 * a scratch array between five functions; here they stay in locals, the root's parent inverse
 * too. Any rare branch (a target at the root, squares near overflow,
 * a NaN met on the way) returns `false` before anything is written, and `twoBoneSolve` runs the
 * general path, which handles it.
 *
 * @packageDocumentation
 */

import { localToModel } from './local-to-model.js';
import { rotationBetween, scaleTurn } from './quat.js';
import { turnSense } from './turn-sense.js';
import { TWO_BONE, TWO_BONE_RESULT } from './two-bone-layout.js';
import { distanceInto, FAR } from './vec3.js';

const S = TWO_BONE;
const R = TWO_BONE_RESULT;

// Bits of the solve's flags, kept in a local until the result is written.
const OUT_OF_REACH = 1;
const CLAMPED = 2;
const DEGENERATE = 4;

// The limb's end, model space (endInto), for vec3.distanceInto.
const ends = new Float64Array(3);
// A root turn near a half turn: the end's direction, the target's, the hinge, then the turn.
const half = new Float64Array(13);
// The root's and the middle's turns, scaled by a weight below 1.
const turns = new Float64Array(8);

/**
 * Whether the leg's settings let {@link twoBoneHingeLeg} solve it: hinge-true, a weight in (0, 1],
 * no bend range or end rotation. (A leg eased in or out by its weight is common in placement; the
 * general path, left for rare legs, runs interpreted for long after start-up, boxing its doubles.)
 */
export function hingeLegFits(settings: Float64Array): boolean {
  const weight = settings[S.weight];
  return (
    settings[S.hasHinge] > 0 &&
    weight > 0 &&
    weight <= 1 &&
    !(settings[S.hasBendRange] > 0) &&
    !(settings[S.hasEndRotation] > 0)
  );
}

/**
 * Solves the limb (joints `root`, `mid`, `end` or the point `endLocal`, settings in the
 * {@link TWO_BONE} layout) as `twoBoneSolve`'s general path would, for a limb {@link hingeLegFits}
 * accepts (any other it declines): writes the rotations of root and middle, the model matrices of `root … subtreeEnd − 1`
 * and `result` ({@link TWO_BONE_RESULT}), and returns `true`. Returns `false`, having written
 * nothing, where the solve takes a rare branch (the general path then runs). Allocates nothing.
 */
export function twoBoneHingeLeg(
  model: Float64Array,
  parents: Int32Array,
  translations: Float64Array,
  rotations: Float64Array,
  scales: Float64Array,
  root: number,
  mid: number,
  end: number,
  subtreeEnd: number,
  settings: Float64Array,
  result: Float64Array,
): boolean {
  const parent = parents[root];
  if (parent < 0 || !hingeLegFits(settings)) return false;
  // The root's parent frame's inverse (mat4.invertAffine, in locals).
  const o = parent * 16;
  const a00 = model[o];
  const a01 = model[o + 1];
  const a02 = model[o + 2];
  const a10 = model[o + 4];
  const a11 = model[o + 5];
  const a12 = model[o + 6];
  const a20 = model[o + 8];
  const a21 = model[o + 9];
  const a22 = model[o + 10];
  const c00 = a11 * a22 - a12 * a21;
  const c10 = a12 * a20 - a10 * a22;
  const c20 = a10 * a21 - a11 * a20;
  const det = a00 * c00 + a01 * c10 + a02 * c20;
  const dinv = 1 / det;
  if (det === 0 || !(det - det === 0) || !(dinv - dinv === 0)) return false;
  const p00 = c00 * dinv;
  const p01 = (a02 * a21 - a01 * a22) * dinv;
  const p02 = (a01 * a12 - a02 * a11) * dinv;
  const p10 = c10 * dinv;
  const p11 = (a00 * a22 - a02 * a20) * dinv;
  const p12 = (a02 * a10 - a00 * a12) * dinv;
  const p20 = c20 * dinv;
  const p21 = (a01 * a20 - a00 * a21) * dinv;
  const p22 = (a00 * a11 - a01 * a10) * dinv;
  let x = model[o + 12];
  let y = model[o + 13];
  let z = model[o + 14];
  const p30 = -(p00 * x + p10 * y + p20 * z);
  const p31 = -(p01 * x + p11 * y + p21 * z);
  const p32 = -(p02 * x + p12 * y + p22 * z);
  // Into the solve frame: the root, then the middle, the end, the target and the pole relative to it.
  const ro = root * 16 + 12;
  x = model[ro];
  y = model[ro + 1];
  z = model[ro + 2];
  const ax = p00 * x + p10 * y + p20 * z + p30;
  const ay = p01 * x + p11 * y + p21 * z + p31;
  const az = p02 * x + p12 * y + p22 * z + p32;
  const mo = mid * 16;
  x = model[mo + 12] - model[ro];
  y = model[mo + 13] - model[ro + 1];
  z = model[mo + 14] - model[ro + 2];
  const ux = p00 * x + p10 * y + p20 * z;
  const uy = p01 * x + p11 * y + p21 * z;
  const uz = p02 * x + p12 * y + p22 * z;
  const l1 = Math.sqrt(ux * ux + uy * uy + uz * uz);
  endInto(model, mo, end, settings);
  x = ends[0] - model[mo + 12];
  y = ends[1] - model[mo + 13];
  z = ends[2] - model[mo + 14];
  const wx = p00 * x + p10 * y + p20 * z;
  const wy = p01 * x + p11 * y + p21 * z;
  const wz = p02 * x + p12 * y + p22 * z;
  const l2 = Math.sqrt(wx * wx + wy * wy + wz * wz);
  const gx = settings[S.target];
  const gy = settings[S.target + 1];
  const gz = settings[S.target + 2];
  const tx = p00 * gx + p10 * gy + p20 * gz + p30 - ax;
  const ty = p01 * gx + p11 * gy + p21 * gz + p31 - ay;
  const tz = p02 * gx + p12 * gy + p22 * gz + p32 - az;
  const lat = Math.sqrt(tx * tx + ty * ty + tz * tz);
  if (!(lat <= FAR)) return false;
  const hasPole = settings[S.hasPole] > 0;
  let polex = ux;
  let poley = uy;
  let polez = uz;
  if (hasPole) {
    x = settings[S.pole];
    y = settings[S.pole + 1];
    z = settings[S.pole + 2];
    polex = p00 * x + p10 * y + p20 * z + p30 - ax;
    poley = p01 * x + p11 * y + p21 * z + p31 - ay;
    polez = p02 * x + p12 * y + p22 * z + p32 - az;
    const size = Math.abs(polex) + Math.abs(poley) + Math.abs(polez);
    if (!(size <= FAR)) return false;
  }
  const read = l1 + l2 + lat + (polex + poley + polez);
  if (!(read - read === 0)) return false;
  const reach = l1 + l2;
  const fold = l1 > l2 ? l1 - l2 : l2 - l1;
  if (reach === 0 || !(lat > reach * 1e-12)) return false;
  const nx = tx / lat;
  const ny = ty / lat;
  const nz = tz / lat;
  let flags = lat > reach ? OUT_OF_REACH : 0;
  let d = lat;
  const softness = settings[S.softness];
  if (softness > 0) {
    const start = reach * (1 - softness);
    if (lat > start && start < reach) {
      const width = reach - start;
      const past = (lat - start) / width;
      d = start + (width * past) / (1 + past);
      flags |= CLAMPED;
    }
  }
  if (d > reach) {
    d = reach;
    flags |= OUT_OF_REACH;
  } else if (d < fold) {
    d = fold;
    flags |= OUT_OF_REACH;
  }
  // The hinge turn (two-bone.ts, solveHinge).
  const hlx = settings[S.hinge];
  const hly = settings[S.hinge + 1];
  const hlz = settings[S.hinge + 2];
  const so = mid * 3;
  const sx = scales[so];
  const sy = scales[so + 1];
  const sz = scales[so + 2];
  const hsx = sx !== 0 ? hlx / sx : 0;
  const hsy = sy !== 0 ? hly / sy : 0;
  const hsz = sz !== 0 ? hlz / sz : 0;
  const mx = model[mo] * hsx + model[mo + 4] * hsy + model[mo + 8] * hsz;
  const my = model[mo + 1] * hsx + model[mo + 5] * hsy + model[mo + 9] * hsz;
  const mz = model[mo + 2] * hsx + model[mo + 6] * hsy + model[mo + 10] * hsz;
  let hx = p00 * mx + p10 * my + p20 * mz;
  let hy = p01 * mx + p11 * my + p21 * mz;
  let hz = p02 * mx + p12 * my + p22 * mz;
  const hl = Math.sqrt(hx * hx + hy * hy + hz * hz);
  if (!(hl - hl === 0)) return false;
  const hinv = hl > 0 ? turnSense(parents, scales, root, mid) / hl : 0;
  hx *= hinv;
  hy *= hinv;
  hz *= hinv;
  const wh = wx * hx + wy * hy + wz * hz;
  const px = wx - wh * hx;
  const py = wy - wh * hy;
  const pz = wz - wh * hz;
  const qx = hy * pz - hz * py;
  const qy = hz * px - hx * pz;
  const qz = hx * py - hy * px;
  const pm = -(px * ux + py * uy + pz * uz);
  const qm = -(qx * ux + qy * uy + qz * uz);
  const rm = (l2 * l2 + l1 * l1 - d * d) / 2 + wh * (hx * ux + hy * uy + hz * uz);
  const amp = Math.sqrt(pm * pm + qm * qm);
  let ex = ux + wx;
  let ey = uy + wy;
  let ez = uz + wz;
  // The middle joint's turn (identity unless the hinge acts).
  let bx = 0;
  let by = 0;
  let bz = 0;
  let bw = 1;
  if (amp > l1 * l2 * 1e-12) {
    let cr = rm / amp;
    if (cr > 1) {
      if (cr > 1 + 1e-9) flags |= OUT_OF_REACH;
      cr = 1;
    } else if (cr < -1) {
      if (cr < -1 - 1e-9) flags |= OUT_OF_REACH;
      cr = -1;
    }
    const sr = Math.sqrt(1 - cr * cr);
    const ca = pm / amp;
    const sa = qm / amp;
    const cos1 = ca * cr - sa * sr;
    const sin1 = sa * cr + ca * sr;
    const cos2 = ca * cr + sa * sr;
    const sin2 = sa * cr - ca * sr;
    const fx = (hy * uz - hz * uy) / l1;
    const fy = (hz * ux - hx * uz) / l1;
    const fz = (hx * uy - hy * ux) / l1;
    const pb = px * fx + py * fy + pz * fz;
    const qb = qx * fx + qy * fy + qz * fz;
    const first = cos1 * pb + sin1 * qb >= cos2 * pb + sin2 * qb;
    const cosd = first ? cos1 : cos2;
    const sind = first ? sin1 : sin2;
    // The half turn's numbers, each computed on every call: a turn past 90° (a knee folded
    // further than a walk folds it, on a ladder) first met after warm-up would otherwise find
    // operations V8 has no feedback for, throw the compiled solver away and run it interpreted
    // for a while, boxing its doubles. The same numbers as before, bit for bit.
    const negative = sind < 0;
    const below = cosd - 1;
    const above = 1 - cosd;
    const flipped = -sind;
    let hs = sind;
    let hc = 1 + cosd;
    if (cosd < 0) {
      hs = negative ? below : above;
      hc = negative ? flipped : sind;
    }
    const hq = 1 / Math.sqrt(hs * hs + hc * hc);
    bx = hlx * hs * hq;
    by = hly * hs * hq;
    bz = hlz * hs * hq;
    bw = hc * hq;
    ex = ux + wh * hx + cosd * px + sind * qx;
    ey = uy + wh * hy + cosd * py + sind * qy;
    ez = uz + wh * hz + cosd * pz + sind * qz;
  } else {
    flags |= DEGENERATE;
  }
  // Root → end onto root → target (the half-vector formula; near a half turn, rotationBetween).
  let rx = 0;
  let ry = 0;
  let rz = 0;
  let rw = 1;
  const el = Math.sqrt(ex * ex + ey * ey + ez * ez);
  if (el > reach * 1e-12) {
    const c = ex * nx + ey * ny + ez * nz;
    if (c > -0.9 * el) {
      rx = ey * nz - ez * ny;
      ry = ez * nx - ex * nz;
      rz = ex * ny - ey * nx;
      rw = el + c;
      const inv = 1 / Math.sqrt(rx * rx + ry * ry + rz * rz + rw * rw);
      rx *= inv;
      ry *= inv;
      rz *= inv;
      rw *= inv;
    } else {
      // Near a half turn (a target behind the limb: 31 legs in 42,000 of the robot's walk on the
      // bench's bumps): quat.rotationBetween, as the general path calls it, with the hinge as the
      // half turn's axis. Taken here rather than by declining: the general path, run that seldom,
      // stays interpreted for many minutes after start-up and allocates at each call.
      const t = half;
      t[0] = ex / el;
      t[1] = ey / el;
      t[2] = ez / el;
      t[3] = nx;
      t[4] = ny;
      t[5] = nz;
      t[6] = hx;
      t[7] = hy;
      t[8] = hz;
      rotationBetween(t, 9, t, 0, t, 3, t, 6);
      rx = t[9];
      ry = t[10];
      rz = t[11];
      rw = t[12];
    }
  }
  // The roll about n that puts the hinge where the pole (or the pose's own hinge) wants it.
  const tx2 = 2 * (ry * hz - rz * hy);
  const ty2 = 2 * (rz * hx - rx * hz);
  const tz2 = 2 * (rx * hy - ry * hx);
  let kx = hx + rw * tx2 + ry * tz2 - rz * ty2;
  let ky = hy + rw * ty2 + rz * tx2 - rx * tz2;
  let kz = hz + rw * tz2 + rx * ty2 - ry * tx2;
  let along = kx * nx + ky * ny + kz * nz;
  kx -= along * nx;
  ky -= along * ny;
  kz -= along * nz;
  let ox = hx;
  let oy = hy;
  let oz = hz;
  const min = l1 * 1e-9;
  if (hasPole) {
    let sx3 = polex;
    let sy3 = poley;
    let sz3 = polez;
    along = sx3 * nx + sy3 * ny + sz3 * nz;
    sx3 -= along * nx;
    sy3 -= along * ny;
    sz3 -= along * nz;
    const pmin = l1 * 1e-6;
    if (sx3 * sx3 + sy3 * sy3 + sz3 * sz3 > pmin * pmin) {
      ox = sy3 * nz - sz3 * ny;
      oy = sz3 * nx - sx3 * nz;
      oz = sx3 * ny - sy3 * nx;
    } else {
      // On the line: no side (the general path says so too).
      flags |= DEGENERATE;
    }
  }
  along = ox * nx + oy * ny + oz * nz;
  ox -= along * nx;
  oy -= along * ny;
  oz -= along * nz;
  if (kx * kx + ky * ky + kz * kz > min * min && ox * ox + oy * oy + oz * oz > min * min) {
    const tc = settings[S.twist];
    const ts = settings[S.twist + 1];
    const sx2 = ox * tc + (ny * oz - nz * oy) * ts;
    const sy2 = oy * tc + (nz * ox - nx * oz) * ts;
    const sz2 = oz * tc + (nx * oy - ny * ox) * ts;
    const cc = kx * sx2 + ky * sy2 + kz * sz2;
    const cs = (ky * sz2 - kz * sy2) * nx + (kz * sx2 - kx * sz2) * ny + (kx * sy2 - ky * sx2) * nz;
    // quat.fromAxisCosSin, its common branch.
    const r = Math.sqrt(cc * cc + cs * cs);
    if (!(r > 1e-150 && r < 1e150)) return false;
    let vs: number;
    let ws: number;
    if (cc >= 0) {
      vs = cs;
      ws = r + cc;
    } else if (cs < 0) {
      vs = cc - r;
      ws = -cs;
    } else {
      vs = r - cc;
      ws = cs;
    }
    const l = Math.sqrt(vs * vs + ws * ws);
    const hv = vs / l;
    const qx2 = nx * hv;
    const qy2 = ny * hv;
    const qz2 = nz * hv;
    const qw2 = ws / l;
    // quat.multiply(roll, root turn).
    const nrx = qw2 * rx + qx2 * rw + qy2 * rz - qz2 * ry;
    const nry = qw2 * ry - qx2 * rz + qy2 * rw + qz2 * rx;
    const nrz = qw2 * rz + qx2 * ry - qy2 * rx + qz2 * rw;
    const nrw = qw2 * rw - qx2 * rx - qy2 * ry - qz2 * rz;
    rx = nrx;
    ry = nry;
    rz = nrz;
    rw = nrw;
  } else {
    flags |= DEGENERATE;
  }
  // Below full weight, each turn is scaled by the weight, as the general path scales it.
  if (settings[S.weight] < 1) {
    const t = turns;
    t[0] = rx;
    t[1] = ry;
    t[2] = rz;
    t[3] = rw;
    t[4] = bx;
    t[5] = by;
    t[6] = bz;
    t[7] = bw;
    scaleTurn(t, 0, settings, S.weight);
    scaleTurn(t, 4, settings, S.weight);
    rx = t[0];
    ry = t[1];
    rz = t[2];
    rw = t[3];
    bx = t[4];
    by = t[5];
    bz = t[6];
    bw = t[7];
    flags |= CLAMPED;
  }
  // The new rotations: the middle's own times its turn, the turn times the root's own.
  const mq = mid * 4;
  let qax = rotations[mq];
  let qay = rotations[mq + 1];
  let qaz = rotations[mq + 2];
  let qaw = rotations[mq + 3];
  const nmx = qaw * bx + qax * bw + qay * bz - qaz * by;
  const nmy = qaw * by - qax * bz + qay * bw + qaz * bx;
  const nmz = qaw * bz + qax * by - qay * bx + qaz * bw;
  const nmw = qaw * bw - qax * bx - qay * by - qaz * bz;
  const rq = root * 4;
  qax = rotations[rq];
  qay = rotations[rq + 1];
  qaz = rotations[rq + 2];
  qaw = rotations[rq + 3];
  const nrx = rw * qax + rx * qaw + ry * qaz - rz * qay;
  const nry = rw * qay - rx * qaz + ry * qaw + rz * qax;
  const nrz = rw * qaz + rx * qay - ry * qax + rz * qaw;
  const nrw = rw * qaw - rx * qax - ry * qay - rz * qaz;
  const midSq = nmx * nmx + nmy * nmy + nmz * nmz + nmw * nmw;
  const rootSq = nrx * nrx + nry * nry + nrz * nrz + nrw * nrw;
  if (!(midSq > 0 && midSq < Number.POSITIVE_INFINITY && rootSq > 0 && rootSq < Number.POSITIVE_INFINITY)) {
    return false;
  }
  const mi = 1 / Math.sqrt(midSq);
  const ri = 1 / Math.sqrt(rootSq);
  rotations[mq] = nmx * mi;
  rotations[mq + 1] = nmy * mi;
  rotations[mq + 2] = nmz * mi;
  rotations[mq + 3] = nmw * mi;
  rotations[rq] = nrx * ri;
  rotations[rq + 1] = nry * ri;
  rotations[rq + 2] = nrz * ri;
  rotations[rq + 3] = nrw * ri;
  localToModel(model, parents, translations, rotations, scales, root, subtreeEnd);
  // The end's distance to the target (two-bone.ts, writeError).
  endInto(model, mo, end, settings);
  distanceInto(result, R.error, ends, 0, settings, S.target);
  result[R.reached] = result[R.error] <= settings[S.tolerance] ? 1 : 0;
  result[R.outOfReach] = (flags & OUT_OF_REACH) > 0 ? 1 : 0;
  result[R.clamped] = (flags & CLAMPED) > 0 ? 1 : 0;
  result[R.degenerate] = (flags & DEGENERATE) > 0 ? 1 : 0;
  result[R.invalid] = 0;
  return true;
}

/**
 * ends[0…2] = the limb's end in model space: the end joint's position, or the point `endLocal` of
 * the middle joint's frame (model offset `mo`). two-bone.ts's endPosition, the same arithmetic,
 * written again: one helper for both, taking its output array, made the fused leg 3–6% slower
 * (`node bench/ab.mjs <build> . leg`, four runs).
 */
function endInto(model: Float64Array, mo: number, end: number, settings: Float64Array): void {
  if (settings[S.hasEndLocal] > 0) {
    const px = settings[S.endLocal];
    const py = settings[S.endLocal + 1];
    const pz = settings[S.endLocal + 2];
    ends[0] = model[mo] * px + model[mo + 4] * py + model[mo + 8] * pz + model[mo + 12];
    ends[1] = model[mo + 1] * px + model[mo + 5] * py + model[mo + 9] * pz + model[mo + 13];
    ends[2] = model[mo + 2] * px + model[mo + 6] * py + model[mo + 10] * pz + model[mo + 14];
  } else {
    const e = end * 16 + 12;
    ends[0] = model[e];
    ends[1] = model[e + 1];
    ends[2] = model[e + 2];
  }
}
