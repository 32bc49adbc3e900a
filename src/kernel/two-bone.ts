/**
 * Analytic two-bone IK (hip–knee–foot, shoulder–elbow–wrist), closed form, trig-free.
 *
 * The solve runs in the frame of the root joint's parent: there the chain is rigid whatever the
 * ancestors do (rotation, translation, uniform or non-uniform scale, a mirror), so distances are
 * kept and the corrections are plain rotations. Only `+ − × ÷` and `√` are used (docs/methods.md §5).
 *
 * @packageDocumentation
 */

import { AT_TWIST_MIN, halfAngleBound } from './joint-limits.js';
import { localToModel } from './local-to-model.js';
import { invertAffine, mirrored } from './mat4.js';
import {
  conjugate,
  fromAxisCosSin,
  fromMat4,
  multiply,
  normalize,
  rotateVec3,
  rotationBetween,
  scaleTurn,
} from './quat.js';
import { turnSense } from './turn-sense.js';
import { twoBoneHingeLeg } from './two-bone-hinge-leg.js';
import { TWO_BONE, TWO_BONE_RESULT } from './two-bone-layout.js';
import { distanceInto, FAR, pullIn } from './vec3.js';

export { turnSense } from './turn-sense.js';
export { TWO_BONE, TWO_BONE_MEMORY_LENGTH, TWO_BONE_RESULT } from './two-bone-layout.js';

const S = TWO_BONE;
const R = TWO_BONE_RESULT;

// Scratch, written and read within one call (kernels never call back out). Helpers take offsets
// into it and never loose numbers: V8 boxes a double passed to (or returned from) a call it does
// not inline, which would allocate on every solve.
const pinv = new Float64Array(16);
const v = new Float64Array(110);
// Vectors (3) and quaternions (4) in v, all in the solve frame unless said otherwise.
const P = 12; // pole (or the current knee), relative to the root
const H = 15; // hinge axis
const Q_ROOT = 20; // root correction (composes on the left of the root's rotation)
const Q_MID = 24; // middle correction (local frame in hinge mode, solve frame before finish)
const Q_TMP = 28;
const Q_TMP2 = 32;
const FRAME = 36; // 16: a rotation frame, 3x3 in a 4x4 layout
const N = 52; // unit root → target direction
const X = 55; // working vectors
const Y = 58;
const Z = 61;
const CS = 67; // a cosine and a sine
const U = 70; // root → middle
const W = 73; // middle → end
const LEN = 76; // l1, l2, the distance to reach, the full reach
const WANTED = 80; // 16: the end's wanted frame, then its wanted local rotation, 3x3 in 4x4
const NEAR = 96; // the target or pole, model space, pulled in when far (vec3.pullIn)
const NEW_MID = 99; // the middle joint's new local rotation, before it is written
const NEW_ROOT = 103; // the root's
const END = 107; // the limb's end, model space (endPosition)

/**
 * Solves two-bone IK for the joints `root`, `mid`, `end` (each below the previous; twist bones may
 * sit between) toward `settings[target]`, writing the local rotations of root and mid (and of end
 * when its model rotation is matched) and recomputing the model matrices of root's subtree.
 *
 * With a hinge axis (`hasHinge`), the middle joint turns only about its hinge, by the change of
 * bend that makes the root–end distance right, choosing the bend side the hinge allows (a knee
 * never bends backwards), within the bend range if one is set; the root then turns the chain onto
 * the target and rolls it so that the knee lies in the plane of root, target and the pole (or the
 * current knee, which moves the knee least). Without one, the least-motion construction: the knee
 * goes to the point of the circle of solutions nearest the pole or the current knee, and each
 * joint takes the minimal rotation that carries its child there.
 *
 * Writes nothing at all when the weight is 0, nor when a number it reads from the model matrices
 * or the rotations of root and middle is NaN or infinite, or a rotation is zero: it then sets
 * `result[invalid]` (checked as the numbers are read, on values in hand). Never throws and never
 * produces NaN for finite inputs: out-of-reach targets straighten (or fold) the limb toward them; a target at the root,
 * a straight limb and a pole on the root–target line fall back to the hinge or to `memory` (the
 * bend-plane normal of the last solve, in the root's parent frame) so the bend side survives.
 *
 * The common limb (hinge-true, a weight in (0, 1], no bend range or end rotation) goes through
 * {@link twoBoneHingeLeg}: the same arithmetic in the same order, fused into one function, so the
 * same bits; every other case, and any rare branch it meets, through {@link twoBoneSolveGeneral}.
 * Allocates nothing.
 */
export function twoBoneSolve(
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
  memory: Float64Array,
  result: Float64Array,
): void {
  if (
    twoBoneHingeLeg(
      model,
      parents,
      translations,
      rotations,
      scales,
      root,
      mid,
      end,
      subtreeEnd,
      settings,
      result,
    )
  ) {
    return;
  }
  twoBoneSolveGeneral(
    model,
    parents,
    translations,
    rotations,
    scales,
    root,
    mid,
    end,
    subtreeEnd,
    settings,
    memory,
    result,
  );
}

/**
 * {@link twoBoneSolve}, every case by the general code: the scratch-array path that the fused common
 * case ({@link twoBoneHingeLeg}) is checked against, bit for bit (test/kernel/two-bone-hinge-leg.test.ts).
 * The same arguments, the same results.
 */
export function twoBoneSolveGeneral(
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
  memory: Float64Array,
  result: Float64Array,
): void {
  result[R.error] = 0;
  result[R.reached] = 0;
  result[R.outOfReach] = 0;
  result[R.clamped] = 0;
  result[R.degenerate] = 0;
  result[R.invalid] = 0;
  const parent = parents[root];
  // The root's parent frame: P⁻¹ maps model space into it.
  if (parent >= 0) {
    if (!invertAffine(pinv, 0, model, parent * 16)) {
      // A zero scale collapses the frame (degenerate); a NaN or an infinity in it is invalid input.
      const o = parent * 16;
      let sum = 0;
      for (let k = 0; k < 15; k++) sum += model[o + k] - model[o + k];
      result[sum === 0 ? R.degenerate : R.invalid] = 1;
      writeError(model, mid, end, settings, result);
      return;
    }
  } else {
    // A root joint: the solve frame is model space.
    for (let i = 0; i < 16; i++) pinv[i] = i % 5 === 0 ? 1 : 0;
  }
  if (settings[S.weight] <= 0) {
    writeError(model, mid, end, settings, result);
    result[R.clamped] = 1;
    return;
  }
  // Into the solve frame (P⁻¹ in locals: this is the hot path): the root, the middle, the end
  // and the target, then the pole, all but the root relative to the root.
  const p00 = pinv[0];
  const p01 = pinv[1];
  const p02 = pinv[2];
  const p10 = pinv[4];
  const p11 = pinv[5];
  const p12 = pinv[6];
  const p20 = pinv[8];
  const p21 = pinv[9];
  const p22 = pinv[10];
  let o = root * 16 + 12;
  let x = model[o];
  let y = model[o + 1];
  let z = model[o + 2];
  const ax = p00 * x + p10 * y + p20 * z + pinv[12];
  const ay = p01 * x + p11 * y + p21 * z + pinv[13];
  const az = p02 * x + p12 * y + p22 * z + pinv[14];
  // Differences of model positions go through P⁻¹'s 3x3 alone.
  o = mid * 16 + 12;
  x = model[o] - model[root * 16 + 12];
  y = model[o + 1] - model[root * 16 + 13];
  z = model[o + 2] - model[root * 16 + 14];
  const ux = p00 * x + p10 * y + p20 * z;
  const uy = p01 * x + p11 * y + p21 * z;
  const uz = p02 * x + p12 * y + p22 * z;
  const l1 = Math.sqrt(ux * ux + uy * uy + uz * uz);
  endPosition(model, mid, end, settings);
  x = v[END] - model[o];
  y = v[END + 1] - model[o + 1];
  z = v[END + 2] - model[o + 2];
  const wx = p00 * x + p10 * y + p20 * z;
  const wy = p01 * x + p11 * y + p21 * z;
  const wz = p02 * x + p12 * y + p22 * z;
  const l2 = Math.sqrt(wx * wx + wy * wy + wz * wz);
  x = settings[S.target];
  y = settings[S.target + 1];
  z = settings[S.target + 2];
  let tx = p00 * x + p10 * y + p20 * z + pinv[12] - ax;
  let ty = p01 * x + p11 * y + p21 * z + pinv[13] - ay;
  let tz = p02 * x + p12 * y + p22 * z + pinv[14] - az;
  let lat = Math.sqrt(tx * tx + ty * ty + tz * tz);
  if (!(lat <= FAR)) {
    // Rare: a target so far that its squares overflow (or near it) is aimed at through the point
    // in its direction at vec3.FAR from the root; out of reach, only its direction counts.
    pulledIntoSolveFrame(settings, S.target, model, root * 16 + 12);
    tx = v[NEAR];
    ty = v[NEAR + 1];
    tz = v[NEAR + 2];
    lat = Math.sqrt(tx * tx + ty * ty + tz * tz);
  }
  if (settings[S.hasPole] > 0) {
    x = settings[S.pole];
    y = settings[S.pole + 1];
    z = settings[S.pole + 2];
    v[P] = p00 * x + p10 * y + p20 * z + pinv[12] - ax;
    v[P + 1] = p01 * x + p11 * y + p21 * z + pinv[13] - ay;
    v[P + 2] = p02 * x + p12 * y + p22 * z + pinv[14] - az;
    const size = Math.abs(v[P]) + Math.abs(v[P + 1]) + Math.abs(v[P + 2]);
    if (!(size <= FAR)) {
      // Rare, likewise: only the pole's side of the root–target line counts, not its distance.
      pulledIntoSolveFrame(settings, S.pole, model, root * 16 + 12);
      v[P] = v[NEAR];
      v[P + 1] = v[NEAR + 1];
      v[P + 2] = v[NEAR + 2];
    }
  } else {
    // No pole: keep the knee as close as it can stay to where it is.
    v[P] = ux;
    v[P + 1] = uy;
    v[P + 2] = uz;
  }
  // The numbers read so far, summed: NaN or infinite when a model matrix held a NaN or an infinity
  // (or the geometry overflowed). Then nothing is written (the caller says what it was).
  const read = l1 + l2 + lat + (v[P] + v[P + 1] + v[P + 2]);
  if (!(read - read === 0)) {
    result[R.invalid] = 1;
    writeError(model, mid, end, settings, result);
    return;
  }
  const reach = l1 + l2;
  const fold = l1 > l2 ? l1 - l2 : l2 - l1;
  if (reach === 0) {
    // Both bones of zero length: nothing to turn, and any target away from the root is unreachable.
    result[R.degenerate] = 1;
    if (lat > 0) result[R.outOfReach] = 1;
    writeError(model, mid, end, settings, result);
    if (result[R.error] <= settings[S.tolerance]) result[R.reached] = 1;
    return;
  }
  // Direction root → target; a target at the root keeps the current root → end direction.
  if (lat > reach * 1e-12) {
    v[N] = tx / lat;
    v[N + 1] = ty / lat;
    v[N + 2] = tz / lat;
  } else {
    v[N] = ux + wx;
    v[N + 1] = uy + wy;
    v[N + 2] = uz + wz;
    v[LEN + 3] = reach;
    if (!normalize3(N)) {
      v[N] = ux / l1;
      v[N + 1] = uy / l1;
      v[N + 2] = uz / l1;
    }
    result[R.degenerate] = 1;
    lat = 0;
  }
  // Softening: past (1 − softness) of the reach, the distance eases toward full reach as
  // x / (1 + x): smooth (C1) where it starts, monotone, and never quite straight, so no snap.
  // Out of reach is the target's distance, not the softened one (which never gets there).
  if (lat > reach) result[R.outOfReach] = 1;
  const softness = settings[S.softness];
  if (softness > 0) {
    const start = reach * (1 - softness);
    // A softness too small to move the start (a subnormal) leaves no width to ease over: none.
    if (lat > start && start < reach) {
      const width = reach - start;
      const x = (lat - start) / width;
      lat = start + (width * x) / (1 + x);
      result[R.clamped] = 1;
    }
  }
  let d = lat;
  if (d > reach) {
    d = reach;
    result[R.outOfReach] = 1;
  } else if (d < fold) {
    d = fold;
    result[R.outOfReach] = 1;
  }
  setIdentity(v, Q_ROOT);
  setIdentity(v, Q_MID);
  v[U] = ux;
  v[U + 1] = uy;
  v[U + 2] = uz;
  v[W] = wx;
  v[W + 1] = wy;
  v[W + 2] = wz;
  v[LEN] = l1;
  v[LEN + 1] = l2;
  v[LEN + 2] = d;
  v[LEN + 3] = reach;
  const hinge = settings[S.hasHinge] > 0;
  if (hinge) solveHinge(model, parents, scales, root, mid, settings, result);
  else solveLeastMotion(settings, memory, result);
  if (result[R.invalid] > 0) {
    writeError(model, mid, end, settings, result);
    return;
  }
  finish(
    model,
    parents,
    translations,
    rotations,
    scales,
    root,
    mid,
    end,
    subtreeEnd,
    settings,
    result,
    hinge,
  );
}

/**
 * v[NEAR…] = the point `settings[so…]` (the target or the pole, model space) pulled in to vec3.FAR
 * from the root's model position `model[ro…]` (vec3.pullIn), in the solve frame relative to the root,
 * with the hot path's arithmetic (so the same bits): the rare path of a point too far to square.
 */
function pulledIntoSolveFrame(settings: Float64Array, so: number, model: Float64Array, ro: number): void {
  pullIn(v, NEAR, settings, so, model, ro);
  const x = v[NEAR];
  const y = v[NEAR + 1];
  const z = v[NEAR + 2];
  const rx = model[ro];
  const ry = model[ro + 1];
  const rz = model[ro + 2];
  const ax = pinv[0] * rx + pinv[4] * ry + pinv[8] * rz + pinv[12];
  const ay = pinv[1] * rx + pinv[5] * ry + pinv[9] * rz + pinv[13];
  const az = pinv[2] * rx + pinv[6] * ry + pinv[10] * rz + pinv[14];
  v[NEAR] = pinv[0] * x + pinv[4] * y + pinv[8] * z + pinv[12] - ax;
  v[NEAR + 1] = pinv[1] * x + pinv[5] * y + pinv[9] * z + pinv[13] - ay;
  v[NEAR + 2] = pinv[2] * x + pinv[6] * y + pinv[10] * z + pinv[14] - az;
}

/**
 * Hinge-true: turn the middle joint about its hinge to make |end − root| the distance to reach
 * (docs/methods.md §2), on the side the hinge allows and within the bend range; then align
 * root → end with root → target and roll the knee into the plane of root, target and pole.
 *
 * Written as one function over local numbers, with the common branches of the small quaternion
 * helpers written out: this is the hot path, and with helper calls passing everything through the
 * scratch array the bench's leg solve (bench/ik.bench.mjs, set-up and FK included) took 1.28× as
 * long. Rare branches still call the helpers.
 */
function solveHinge(
  model: Float64Array,
  parents: Int32Array,
  scales: Float64Array,
  root: number,
  mid: number,
  settings: Float64Array,
  result: Float64Array,
): void {
  const ux = v[U];
  const uy = v[U + 1];
  const uz = v[U + 2];
  const wx = v[W];
  const wy = v[W + 1];
  const wz = v[W + 2];
  const l1 = v[LEN];
  const l2 = v[LEN + 1];
  const d = v[LEN + 2];
  const nx = v[N];
  const ny = v[N + 1];
  const nz = v[N + 2];
  const hlx = settings[S.hinge];
  const hly = settings[S.hinge + 1];
  const hlz = settings[S.hinge + 2];
  // The hinge in the solve frame: P⁻¹ · M_mid applied to the local axis after the joint's own
  // scale (which acts before its rotation) is divided out, normalized, times the turn sense
  // (turnSense). Dividing by the signed scale leaves the joint's rotation (times the ancestors'
  // uniform scale), with one square root instead of the three of normalizing the frame's columns.
  // A zero scale component collapses the frame: that axis component then counts for nothing.
  const so = mid * 3;
  const sx = scales[so];
  const sy = scales[so + 1];
  const sz = scales[so + 2];
  const hsx = sx !== 0 ? hlx / sx : 0;
  const hsy = sy !== 0 ? hly / sy : 0;
  const hsz = sz !== 0 ? hlz / sz : 0;
  const m = mid * 16;
  const mx = model[m] * hsx + model[m + 4] * hsy + model[m + 8] * hsz;
  const my = model[m + 1] * hsx + model[m + 5] * hsy + model[m + 9] * hsz;
  const mz = model[m + 2] * hsx + model[m + 6] * hsy + model[m + 10] * hsz;
  let hx = pinv[0] * mx + pinv[4] * my + pinv[8] * mz;
  let hy = pinv[1] * mx + pinv[5] * my + pinv[9] * mz;
  let hz = pinv[2] * mx + pinv[6] * my + pinv[10] * mz;
  const hl = Math.sqrt(hx * hx + hy * hy + hz * hz);
  if (!(hl - hl === 0)) {
    // A NaN or an infinity in the middle joint's matrix or scale.
    result[R.invalid] = 1;
    return;
  }
  const hinv = hl > 0 ? turnSense(parents, scales, root, mid) / hl : 0;
  hx *= hinv;
  hy *= hinv;
  hz *= hinv;
  // Turning w about h by δ: w(δ) = w∥ + cos δ · p + sin δ · q (p = w⊥, q = h × p), and
  // |u + w(δ)|² = d² gives cos δ · pm + sin δ · qm = rm.
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
  // The end relative to the root after the turn (unchanged when the hinge cannot act).
  let ex = ux + wx;
  let ey = uy + wy;
  let ez = uz + wz;
  if (amp > l1 * l2 * 1e-12) {
    let cr = rm / amp;
    if (cr > 1) {
      if (cr > 1 + 1e-9) result[R.outOfReach] = 1;
      cr = 1;
    } else if (cr < -1) {
      if (cr < -1 - 1e-9) result[R.outOfReach] = 1;
      cr = -1;
    }
    const sr = Math.sqrt(1 - cr * cr);
    const ca = pm / amp;
    const sa = qm / amp;
    // Two turns reach the distance, δ = α ± γ. Take the one that bends the way the hinge allows:
    // positive bend about h, measured as w(δ) · (h × e1) with e1 = u / l1.
    const cos1 = ca * cr - sa * sr;
    const sin1 = sa * cr + ca * sr;
    const cos2 = ca * cr + sa * sr;
    const sin2 = sa * cr - ca * sr;
    const bx = (hy * uz - hz * uy) / l1;
    const by = (hz * ux - hx * uz) / l1;
    const bz = (hx * uy - hy * ux) / l1;
    const pb = px * bx + py * by + pz * bz;
    const qb = qx * bx + qy * by + qz * bz;
    const first = cos1 * pb + sin1 * qb >= cos2 * pb + sin2 * qb;
    let cosd = first ? cos1 : cos2;
    let sind = first ? sin1 : sin2;
    if (settings[S.hasBendRange] > 0) {
      // Current bend β0 of w about h from u, both across h; the bend after the turn is β0 + δ.
      // Divided by the length of u's part across h (not by l1): a hinge not perpendicular to the
      // upper bone would otherwise give a cosine and sine short of unit, and a clamped turn short
      // of (or past) the limit.
      const wp = Math.sqrt(px * px + py * py + pz * pz);
      const uh = ux * hx + uy * hy + uz * hz;
      const ax = ux - uh * hx;
      const ay = uy - uh * hy;
      const az = uz - uh * hz;
      const up = Math.sqrt(ax * ax + ay * ay + az * az);
      if (wp > 0 && up > 0) {
        const c0 = (px * ux + py * uy + pz * uz) / (wp * up);
        const s0 = (pb * l1) / (wp * up);
        v[CS] = c0 * cosd - s0 * sind;
        v[CS + 1] = s0 * cosd + c0 * sind;
        if (clampBend(settings)) {
          // δ = β_limit − β0.
          const cl = v[CS];
          const sl = v[CS + 1];
          cosd = cl * c0 + sl * s0;
          sind = sl * c0 - cl * s0;
          result[R.clamped] = 1;
        }
      }
    }
    // The turn about the local hinge axis: the same turn, in the joint's own frame. Its half
    // angle as in quat.fromAxisCosSin, for a cosine and sine already unit (products of unit pairs).
    let hs = sind;
    let hc = 1 + cosd;
    if (cosd < 0) {
      hs = sind < 0 ? cosd - 1 : 1 - cosd;
      hc = sind < 0 ? -sind : sind;
    }
    const hq = 1 / Math.sqrt(hs * hs + hc * hc);
    v[Q_MID] = hlx * hs * hq;
    v[Q_MID + 1] = hly * hs * hq;
    v[Q_MID + 2] = hlz * hs * hq;
    v[Q_MID + 3] = hc * hq;
    ex = ux + wh * hx + cosd * px + sind * qx;
    ey = uy + wh * hy + cosd * py + sind * qy;
    ez = uz + wh * hz + cosd * pz + sind * qz;
  } else {
    result[R.degenerate] = 1;
  }
  // Align root → end with root → target (a half turn about the hinge when they are opposite):
  // quat.rotationBetween, whose common branch (under ~154°) is written out.
  let rx = 0;
  let ry = 0;
  let rz = 0;
  let rw = 1;
  const el = Math.sqrt(ex * ex + ey * ey + ez * ez);
  if (el > v[LEN + 3] * 1e-12) {
    // The half-vector formula on e as it is, (e × n, |e| + e · n): no division to normalize e.
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
      v[X] = ex / el;
      v[X + 1] = ey / el;
      v[X + 2] = ez / el;
      v[H] = hx;
      v[H + 1] = hy;
      v[H + 2] = hz;
      rotationBetween(v, Q_ROOT, v, X, v, N, v, H);
      rx = v[Q_ROOT];
      ry = v[Q_ROOT + 1];
      rz = v[Q_ROOT + 2];
      rw = v[Q_ROOT + 3];
    }
  }
  v[Q_ROOT] = rx;
  v[Q_ROOT + 1] = ry;
  v[Q_ROOT + 2] = rz;
  v[Q_ROOT + 3] = rw;
  // Roll about n so that the hinge, after the alignment, points across n where the wanted hinge
  // does: the pole's (the normal of the plane through n and the pole's side), or without a pole
  // (or one on the line) the input pose's own hinge. Taken from the hinge, not from the knee's side
  // of the root–target line: at and past full reach the knee lies on that line to within rounding,
  // and a roll taken from its side would spin the thigh about the leg from one frame to the next.
  // The hinge is defined on a straight limb too.
  const tx = 2 * (ry * hz - rz * hy);
  const ty = 2 * (rz * hx - rx * hz);
  const tz = 2 * (rx * hy - ry * hx);
  let kx = hx + rw * tx + ry * tz - rz * ty;
  let ky = hy + rw * ty + rz * tx - rx * tz;
  let kz = hz + rw * tz + rx * ty - ry * tx;
  let along = kx * nx + ky * ny + kz * nz;
  kx -= along * nx;
  ky -= along * ny;
  kz -= along * nz;
  // The wanted hinge across n: the pole's side × n (the hinge of a limb bent toward the pole).
  let ox = hx;
  let oy = hy;
  let oz = hz;
  const min = l1 * 1e-9;
  if (settings[S.hasPole] > 0) {
    let sx = v[P];
    let sy = v[P + 1];
    let sz = v[P + 2];
    along = sx * nx + sy * ny + sz * nz;
    sx -= along * nx;
    sy -= along * ny;
    sz -= along * nz;
    // A pole within 1e-6 of the upper bone's length of the line gives no side: the pose's hinge,
    // and the solve says so (as least motion does).
    const pmin = l1 * 1e-6;
    if (sx * sx + sy * sy + sz * sz > pmin * pmin) {
      ox = sy * nz - sz * ny;
      oy = sz * nx - sx * nz;
      oz = sx * ny - sy * nx;
    } else {
      result[R.degenerate] = 1;
    }
  }
  along = ox * nx + oy * ny + oz * nz;
  ox -= along * nx;
  oy -= along * ny;
  oz -= along * nz;
  if (kx * kx + ky * ky + kz * kz > min * min && ox * ox + oy * oy + oz * oz > min * min) {
    // The wanted hinge turned about n by the configured twist (Rodrigues across the axis).
    const tc = settings[S.twist];
    const ts = settings[S.twist + 1];
    const sx2 = ox * tc + (ny * oz - nz * oy) * ts;
    const sy2 = oy * tc + (nz * ox - nx * oz) * ts;
    const sz2 = oz * tc + (nx * oy - ny * ox) * ts;
    // By the angle's cosine and sine about n exactly (a cross product's direction would be poor
    // when the two are nearly opposite), both times |k| |s|: the turn needs only their ratio.
    v[CS] = kx * sx2 + ky * sy2 + kz * sz2;
    v[CS + 1] = (ky * sz2 - kz * sy2) * nx + (kz * sx2 - kx * sz2) * ny + (kx * sy2 - ky * sx2) * nz;
    fromAxisCosSin(v, Q_TMP2, v, N, v, CS);
    multiply(v, Q_ROOT, v, Q_TMP2, v, Q_ROOT);
  } else {
    // The hinge lies along the root–target line: no roll defines the bend plane.
    result[R.degenerate] = 1;
  }
}

/**
 * Least motion: the knee on the circle of solutions nearest the pole (or the current knee); each
 * joint takes the minimal rotation that carries its child where it must go.
 */
function solveLeastMotion(settings: Float64Array, memory: Float64Array, result: Float64Array): void {
  const l1 = v[LEN];
  const l2 = v[LEN + 1];
  const d = v[LEN + 2];
  const nx = v[N];
  const ny = v[N + 1];
  const nz = v[N + 2];
  // The law of cosines: the knee's distance along n, and the radius of the circle of solutions.
  let ct = (l1 * l1 + d * d - l2 * l2) / (2 * l1 * (d > 0 ? d : 1));
  ct = ct < -1 ? -1 : ct > 1 ? 1 : ct;
  const radius = l1 * Math.sqrt(1 - ct * ct);
  const mx = nx * l1 * ct;
  const my = ny * l1 * ct;
  const mz = nz * l1 * ct;
  // The knee's side: the pole, relative to the circle's centre, across n.
  v[Y] = v[P] - mx;
  v[Y + 1] = v[P + 1] - my;
  v[Y + 2] = v[P + 2] - mz;
  if (acrossAxis(Y)) {
    rememberSide(memory);
  } else {
    // Straight limb or pole on the line: the side the limb bent last time.
    result[R.degenerate] = 1;
    sideFromMemory(memory);
  }
  twistAbout(Y, settings);
  // The new knee, relative to the root.
  v[Z] = mx + radius * v[Y];
  v[Z + 1] = my + radius * v[Y + 1];
  v[Z + 2] = mz + radius * v[Y + 2];
  // Root: carry the knee direction onto the new knee direction.
  copy3(v, X, v, U);
  normalize3(X);
  copy3(v, Y, v, Z);
  normalize3(Y);
  fromToInto(v, Q_ROOT, X, Y, N);
  // Middle: after the root's turn, carry its end onto the target point n · d.
  rotateVec3(v, X, v, Q_ROOT, v, W);
  v[Y] = nx * d - v[Z];
  v[Y + 1] = ny * d - v[Z + 1];
  v[Y + 2] = nz * d - v[Z + 2];
  if (normalize3(Y) && normalize3(X)) {
    fromToInto(v, Q_MID, X, Y, N);
    // That turn applies after the root's; as a turn of the unchanged pose its axis is
    // R_root⁻¹ · axis (the angle is the same).
    v[Q_TMP] = -v[Q_ROOT];
    v[Q_TMP + 1] = -v[Q_ROOT + 1];
    v[Q_TMP + 2] = -v[Q_ROOT + 2];
    v[Q_TMP + 3] = v[Q_ROOT + 3];
    rotateVec3(v, Q_MID, v, Q_TMP, v, Q_MID);
  }
}

/** Applies the corrections (weighted), matches the end rotation, updates FK, fills the result. */
function finish(
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
  midInLocalFrame: boolean,
): void {
  if (settings[S.weight] < 1) {
    scaleTurn(v, Q_ROOT, settings, S.weight);
    scaleTurn(v, Q_MID, settings, S.weight);
    result[R.clamped] = 1;
  }
  // The new rotations, into scratch first: nothing is written unless both are usable.
  // Middle joint first, while the frames are those of the unchanged pose.
  if (midInLocalFrame) {
    multiply(v, NEW_MID, rotations, mid * 4, v, Q_MID);
  } else {
    frameRotation(model, mid);
    // A mirrored bone between the solve frame and the middle joint turns the sense of its local
    // turns (see turnSense).
    conjugateIntoLocal(rotations, mid * 4, scales, mid * 3, turnSense(parents, scales, root, mid), v, Q_MID);
  }
  // Root: its rotation frame's parent is the frame we solved in, so the turn composes on the left.
  multiply(v, NEW_ROOT, v, Q_ROOT, rotations, root * 4);
  // A zero, NaN or infinite rotation in the pose (or one the corrections made so) is invalid input:
  // checked on the numbers the normalization reads anyway, before either joint is written.
  const mx = v[NEW_MID];
  const my = v[NEW_MID + 1];
  const mz = v[NEW_MID + 2];
  const mw = v[NEW_MID + 3];
  const rx = v[NEW_ROOT];
  const ry = v[NEW_ROOT + 1];
  const rz = v[NEW_ROOT + 2];
  const rw = v[NEW_ROOT + 3];
  const midSq = mx * mx + my * my + mz * mz + mw * mw;
  const rootSq = rx * rx + ry * ry + rz * rz + rw * rw;
  let valid =
    midSq > 0 && midSq < Number.POSITIVE_INFINITY && rootSq > 0 && rootSq < Number.POSITIVE_INFINITY;
  if (settings[S.hasEndRotation] > 0 && settings[S.weight] < 1) {
    // A blended end rotation starts from the end's own (matchEndRotation): it too must be one.
    const eo = end * 4;
    const endSq =
      rotations[eo] * rotations[eo] +
      rotations[eo + 1] * rotations[eo + 1] +
      rotations[eo + 2] * rotations[eo + 2] +
      rotations[eo + 3] * rotations[eo + 3];
    if (!(endSq > 0 && endSq < Number.POSITIVE_INFINITY)) valid = false;
  }
  if (!valid) {
    result[R.invalid] = 1;
    writeError(model, mid, end, settings, result);
    return;
  }
  const mi = 1 / Math.sqrt(midSq);
  const ri = 1 / Math.sqrt(rootSq);
  const mo = mid * 4;
  const ro = root * 4;
  rotations[mo] = mx * mi;
  rotations[mo + 1] = my * mi;
  rotations[mo + 2] = mz * mi;
  rotations[mo + 3] = mw * mi;
  rotations[ro] = rx * ri;
  rotations[ro + 1] = ry * ri;
  rotations[ro + 2] = rz * ri;
  rotations[ro + 3] = rw * ri;
  localToModel(model, parents, translations, rotations, scales, root, subtreeEnd);
  if (settings[S.hasEndRotation] > 0) {
    matchEndRotation(model, parents, rotations, scales, end, settings);
    // The end and whatever hangs below it (the range may hold other joints: harmless).
    localToModel(model, parents, translations, rotations, scales, end, subtreeEnd);
  }
  writeError(model, mid, end, settings, result);
  if (result[R.error] <= settings[S.tolerance]) result[R.reached] = 1;
}

/** result[error] = model-space distance from the limb's end (joint or point) to the target. */
function writeError(
  model: Float64Array,
  mid: number,
  end: number,
  settings: Float64Array,
  result: Float64Array,
): void {
  endPosition(model, mid, end, settings);
  distanceInto(result, R.error, v, END, settings, S.target);
}

/**
 * v[END…] = the limb's end in model space: the end joint's position, or the point `endLocal` of the
 * middle joint's frame (a leg whose foot is a bone of its own, elsewhere in the hierarchy).
 */
function endPosition(model: Float64Array, mid: number, end: number, settings: Float64Array): void {
  if (settings[S.hasEndLocal] > 0) {
    const m = mid * 16;
    const px = settings[S.endLocal];
    const py = settings[S.endLocal + 1];
    const pz = settings[S.endLocal + 2];
    v[END] = model[m] * px + model[m + 4] * py + model[m + 8] * pz + model[m + 12];
    v[END + 1] = model[m + 1] * px + model[m + 5] * py + model[m + 9] * pz + model[m + 13];
    v[END + 2] = model[m + 2] * px + model[m + 6] * py + model[m + 10] * pz + model[m + 14];
  } else {
    const e = end * 16 + 12;
    v[END] = model[e];
    v[END + 1] = model[e + 1];
    v[END + 2] = model[e + 2];
  }
}

function copy3(out: Float64Array, o: number, src: Float64Array, so: number): void {
  out[o] = src[so];
  out[o + 1] = src[so + 1];
  out[o + 2] = src[so + 2];
}

function setIdentity(out: Float64Array, o: number): void {
  out[o] = 0;
  out[o + 1] = 0;
  out[o + 2] = 0;
  out[o + 3] = 1;
}

/**
 * Normalizes v[o..] in place when it is longer than 1e-12 of the full reach (v[LEN + 3]); returns
 * whether it was (a boolean, not the length: a double returned from a call V8 does not inline is
 * boxed).
 */
function normalize3(o: number): boolean {
  const x = v[o];
  const y = v[o + 1];
  const z = v[o + 2];
  const l = Math.sqrt(x * x + y * y + z * z);
  if (!(l > v[LEN + 3] * 1e-12)) return false;
  v[o] = x / l;
  v[o + 1] = y / l;
  v[o + 2] = z / l;
  return true;
}

/**
 * v[o..] ← its component across the root → target axis v[N]. Returns whether that component is
 * long enough to give a direction: at least 1e-9 of the upper bone's length.
 */
function projectAcross(o: number): boolean {
  const nx = v[N];
  const ny = v[N + 1];
  const nz = v[N + 2];
  const along = v[o] * nx + v[o + 1] * ny + v[o + 2] * nz;
  const x = v[o] - along * nx;
  const y = v[o + 1] - along * ny;
  const z = v[o + 2] - along * nz;
  v[o] = x;
  v[o + 1] = y;
  v[o + 2] = z;
  const min = v[LEN] * 1e-9;
  return x * x + y * y + z * z > min * min;
}

/**
 * v[o..] ← its component across the root → target axis v[N], normalized. Returns false (leaving
 * it unnormalized) when that component is too short to give a direction ({@link projectAcross}).
 */
function acrossAxis(o: number): boolean {
  if (!projectAcross(o)) return false;
  const x = v[o];
  const y = v[o + 1];
  const z = v[o + 2];
  const l = Math.sqrt(x * x + y * y + z * z);
  v[o] = x / l;
  v[o + 1] = y / l;
  v[o + 2] = z / l;
  return true;
}

/**
 * The rotation part of joint j's frame in the root's parent frame (P⁻¹ · M_j with the columns
 * normalized) into v[FRAME] (3x3 in a 4x4 layout). The chain's bones have uniform scale, so
 * normalizing the columns leaves a rotation.
 */
function frameRotation(model: Float64Array, joint: number): void {
  const m = joint * 16;
  for (let c = 0; c < 3; c++) {
    const x = model[m + 4 * c];
    const y = model[m + 4 * c + 1];
    const z = model[m + 4 * c + 2];
    const fx = pinv[0] * x + pinv[4] * y + pinv[8] * z;
    const fy = pinv[1] * x + pinv[5] * y + pinv[9] * z;
    const fz = pinv[2] * x + pinv[6] * y + pinv[10] * z;
    const l = Math.sqrt(fx * fx + fy * fy + fz * fz);
    const inv = l > 0 ? 1 / l : 0;
    v[FRAME + 4 * c] = fx * inv;
    v[FRAME + 4 * c + 1] = fy * inv;
    v[FRAME + 4 * c + 2] = fz * inv;
  }
}

/**
 * v[NEW_MID] = q · (local turn): the turn R given in the solve frame, made by the joint itself. Its frame
 * there is F = G · R_joint · D (v[FRAME], normalized columns; D the signs of the joint's scale), and
 * a local turn about `a` acts about sense · G · R_joint · a, so a = sense · D · Fᵀ · axis; the angle
 * stays.
 */
function conjugateIntoLocal(
  rotations: Float64Array,
  ro: number,
  scales: Float64Array,
  so: number,
  sense: number,
  src: Float64Array,
  o: number,
): void {
  const x = src[o];
  const y = src[o + 1];
  const z = src[o + 2];
  const f = FRAME;
  const ax = v[f] * x + v[f + 1] * y + v[f + 2] * z;
  const ay = v[f + 4] * x + v[f + 5] * y + v[f + 6] * z;
  const az = v[f + 8] * x + v[f + 9] * y + v[f + 10] * z;
  v[Q_TMP] = scales[so] < 0 ? -sense * ax : sense * ax;
  v[Q_TMP + 1] = scales[so + 1] < 0 ? -sense * ay : sense * ay;
  v[Q_TMP + 2] = scales[so + 2] < 0 ? -sense * az : sense * az;
  v[Q_TMP + 3] = src[o + 3];
  multiply(v, NEW_MID, rotations, ro, v, Q_TMP);
}

/**
 * out[o..] = the minimal rotation from the unit vector v[ia..] to the unit vector v[ib..]; when
 * they are opposite, a half turn about v[ifb..] made perpendicular (the hinge or the root–target
 * axis: a turn the limb can make).
 */
function fromToInto(out: Float64Array, o: number, ia: number, ib: number, ifb: number): void {
  rotationBetween(out, o, v, ia, v, ib, v, ifb);
}

/** v[o..] (a vector across v[N], of any length) turned about v[N] by the configured twist. */
function twistAbout(o: number, settings: Float64Array): void {
  const c = settings[S.twist];
  const s = settings[S.twist + 1];
  const x = v[o];
  const y = v[o + 1];
  const z = v[o + 2];
  const nx = v[N];
  const ny = v[N + 1];
  const nz = v[N + 2];
  // Rodrigues for a vector across the axis: x cos + (n × x) sin.
  v[o] = x * c + (ny * z - nz * y) * s;
  v[o + 1] = y * c + (nz * x - nx * z) * s;
  v[o + 2] = z * c + (nx * y - ny * x) * s;
}

/**
 * Clamps the bend (v[CS], v[CS + 1]) into the bend range, writing the bound nearer on the circle
 * back to v[CS] when outside; returns whether it clamped. Measured from the range's middle the bend
 * is within ±π and the range is `±(max − min)/2`, under 2π wide: as half-angles, the twist range
 * of a joint limit, clamped by the same rule ({@link halfAngleBound}).
 */
function clampBend(settings: Float64Array): boolean {
  const c = v[CS];
  const s = v[CS + 1];
  const cm = settings[S.bendMid];
  const sm = settings[S.bendMid + 1];
  // The bend from the middle, then its half-angle's sine and cosine up to a positive factor,
  // from whichever of (sin, 1 + cos) and (1 − cos, sin) is the better conditioned.
  const cr = c * cm + s * sm;
  const sr = s * cm - c * sm;
  let hs = sr;
  let hc = 1 + cr;
  if (cr < 0) {
    hs = sr < 0 ? cr - 1 : 1 - cr;
    hc = sr < 0 ? -sr : sr;
  }
  const qc = settings[S.bendQuarter];
  const qs = settings[S.bendQuarter + 1];
  const bound = halfAngleBound(hs, hc, qc, -qs, qc, qs);
  if (bound === 0) return false;
  const o = bound === AT_TWIST_MIN ? S.bendMin : S.bendMax;
  v[CS] = settings[o];
  v[CS + 1] = settings[o + 1];
  return true;
}

/** Remembers the bend plane of this solve (normal = n × knee side, side in v[Y]). */
function rememberSide(memory: Float64Array): void {
  const nx = v[N];
  const ny = v[N + 1];
  const nz = v[N + 2];
  memory[0] = ny * v[Y + 2] - nz * v[Y + 1];
  memory[1] = nz * v[Y] - nx * v[Y + 2];
  memory[2] = nx * v[Y + 1] - ny * v[Y];
  memory[3] = 1;
}

/** v[Y..] = the knee side from the remembered bend plane (normal × n), or any perpendicular. */
function sideFromMemory(memory: Float64Array): void {
  const nx = v[N];
  const ny = v[N + 1];
  const nz = v[N + 2];
  if (memory[3] > 0) {
    v[Y] = memory[1] * nz - memory[2] * ny;
    v[Y + 1] = memory[2] * nx - memory[0] * nz;
    v[Y + 2] = memory[0] * ny - memory[1] * nx;
    if (acrossAxis(Y)) return;
  }
  const ax = nx < 0 ? -nx : nx;
  const ay = ny < 0 ? -ny : ny;
  const az = nz < 0 ? -nz : nz;
  if (ax <= ay && ax <= az) {
    v[Y] = 0;
    v[Y + 1] = -nz;
    v[Y + 2] = ny;
  } else if (ay <= az) {
    v[Y] = nz;
    v[Y + 1] = 0;
    v[Y + 2] = -nx;
  } else {
    v[Y] = -ny;
    v[Y + 1] = nx;
    v[Y + 2] = 0;
  }
  normalize3(Y);
}

/**
 * Sets the end's local rotation so that its model matrix has the rotation settings[endRotation]
 * as `trs.decompose` reads it (a mirrored matrix has its X scale negated), blended by the weight.
 * In the solve frame the wanted frame is W = P⁻¹ · rotation (columns normalized) and the end's is
 * F · R_end · D (F its parent's frame, D the signs of its own scale): R_end = Fᵀ · W · X · D, with X
 * negating the first column when the end's model matrix is mirrored. That is a rotation whatever
 * the mirrors along the way, since they make F, W, X and D disagree in orientation in pairs.
 */
function matchEndRotation(
  model: Float64Array,
  parents: Int32Array,
  rotations: Float64Array,
  scales: Float64Array,
  end: number,
  settings: Float64Array,
): void {
  const e = S.endRotation;
  const tx = settings[e];
  const ty = settings[e + 1];
  const tz = settings[e + 2];
  const tw = settings[e + 3];
  const x2 = tx + tx;
  const y2 = ty + ty;
  const z2 = tz + tz;
  const m = end * 16;
  // The sign of the 3x3 determinant (a boolean comes back from a call unboxed).
  const isMirrored = mirrored(model, m);
  const w = WANTED;
  // Columns of the wanted rotation, brought into the solve frame, normalized, signed by X · D.
  for (let c = 0; c < 3; c++) {
    const x = c === 0 ? 1 - ty * y2 - tz * z2 : c === 1 ? tx * y2 - tw * z2 : tx * z2 + tw * y2;
    const y = c === 0 ? tx * y2 + tw * z2 : c === 1 ? 1 - tx * x2 - tz * z2 : ty * z2 - tw * x2;
    const z = c === 0 ? tx * z2 - tw * y2 : c === 1 ? ty * z2 + tw * x2 : 1 - tx * x2 - ty * y2;
    const fx = pinv[0] * x + pinv[4] * y + pinv[8] * z;
    const fy = pinv[1] * x + pinv[5] * y + pinv[9] * z;
    const fz = pinv[2] * x + pinv[6] * y + pinv[10] * z;
    const flip = (c === 0 && isMirrored) !== scales[end * 3 + c] < 0;
    const inv = (flip ? -1 : 1) / Math.sqrt(fx * fx + fy * fy + fz * fz);
    v[w + 4 * c] = fx * inv;
    v[w + 4 * c + 1] = fy * inv;
    v[w + 4 * c + 2] = fz * inv;
  }
  // The end's parent's frame in the solve frame; local = Fᵀ · (W · X · D), entry (r, c) the dot
  // product of F's column r and that column c.
  frameRotation(model, parents[end]);
  const f = FRAME;
  for (let c = 0; c < 3; c++) {
    const x = v[w + 4 * c];
    const y = v[w + 4 * c + 1];
    const z = v[w + 4 * c + 2];
    for (let r = 0; r < 3; r++) {
      v[w + 4 * c + r] = v[f + 4 * r] * x + v[f + 4 * r + 1] * y + v[f + 4 * r + 2] * z;
    }
  }
  fromMat4(v, Q_TMP, v, w);
  normalize(v, Q_TMP, v, Q_TMP);
  const o = end * 4;
  if (settings[S.weight] < 1) {
    // From the current local rotation: q ← q · nlerp(I, q⁻¹ · wanted, w).
    conjugate(v, Q_TMP2, rotations, o);
    multiply(v, Q_TMP2, v, Q_TMP2, v, Q_TMP);
    scaleTurn(v, Q_TMP2, settings, S.weight);
    multiply(rotations, o, rotations, o, v, Q_TMP2);
  } else {
    rotations[o] = v[Q_TMP];
    rotations[o + 1] = v[Q_TMP + 1];
    rotations[o + 2] = v[Q_TMP + 2];
    rotations[o + 3] = v[Q_TMP + 3];
  }
  normalize(rotations, o, rotations, o);
}
