/**
 * Analytic two-bone IK (hip–knee–foot, shoulder–elbow–wrist), closed form, trig-free.
 *
 * The solve runs in the frame of the root joint's parent: there the chain is rigid whatever the
 * ancestors do (rotation, translation, uniform or non-uniform scale, a mirror), so distances are
 * kept and the corrections are plain rotations. Only `+ − × ÷` and `√` are used (ALGORITHMS.md §5).
 *
 * @packageDocumentation
 */

import { localToModel } from './local-to-model.js';
import { invert } from './mat4.js';
import { fromMat4, multiply, normalize } from './quat.js';

/** Layout of the `settings` array of {@link twoBoneSolve} (indices). */
export const TWO_BONE = {
  /** Target, model space (3). */
  target: 0,
  /** Pole point, model space (3). */
  pole: 3,
  /** 1 when the pole is used. */
  hasPole: 6,
  /** Blend weight in [0, 1]. */
  weight: 7,
  /** Softening: fraction of the full reach over which the reach eases out, in [0, 1). */
  softness: 8,
  /** Twist of the bend plane about the root–target axis: cos, sin (2). */
  twist: 9,
  /** Hinge axis of the middle joint in its own rotation frame (3), unit. */
  hinge: 11,
  /** 1 when the hinge axis is known (hinge-true mode), 0 for least-motion mode. */
  hasHinge: 14,
  /** Bend range about the hinge: cos, sin of the minimum (2), cos, sin of the maximum (2). */
  bendMin: 15,
  bendMax: 17,
  /** 1 when the bend range applies. */
  hasBendRange: 19,
  /** Model-space rotation the end bone should keep (4). */
  endRotation: 20,
  /** 1 when the end rotation is matched. */
  hasEndRotation: 24,
  /** Reached when the end is within this distance of the target (model units). */
  tolerance: 25,
  /** Length of the settings array. */
  length: 26,
} as const;

/** Layout of the `result` array of {@link twoBoneSolve}. */
export const TWO_BONE_RESULT = {
  /** Distance from the end to the target after the solve, model space. */
  error: 0,
  /** 1 when reached. */
  reached: 1,
  /** 1 when the target was out of reach (too far or too close). */
  outOfReach: 2,
  /** 1 when softening, the bend range or the weight changed the answer. */
  clamped: 3,
  /** 1 when the bend side had to come from the hinge or memory (straight limb, pole on the line). */
  degenerate: 4,
  /** Length of the result array. */
  length: 5,
} as const;

/**
 * Length of the `memory` array of {@link twoBoneSolve}: the last bend-plane normal, in the root's
 * parent frame, and a flag that it is set.
 */
export const TWO_BONE_MEMORY_LENGTH = 4;

const S = TWO_BONE;
const R = TWO_BONE_RESULT;

// Scratch, written and read within one call (kernels never call back out).
const pinv = new Float64Array(16);
const v = new Float64Array(64);
// Offsets in v.
const A = 0;
const B = 3;
const C = 6;
const T = 9;
const P = 12;
const H = 15;
const Q_ROOT = 20;
const Q_MID = 24;
const Q_TMP = 28;
const Q_TMP2 = 32;
const FRAME = 36; // 16 numbers: a rotation frame for fromMat4

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
 * Writes nothing at all when the weight is 0. Never throws and never produces NaN for finite
 * inputs: out-of-reach targets straighten (or fold) the limb toward them; a target at the root,
 * a straight limb and a pole on the root–target line fall back to the hinge or to `memory` (the
 * bend-plane normal of the last solve, in the root's parent frame) so the bend side survives.
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
  result.fill(0);
  const weight = settings[S.weight];
  const parent = parents[root];
  // The root's parent frame: P⁻¹ maps model space into it.
  if (parent >= 0) {
    if (!invert(pinv, 0, model, parent * 16)) {
      result[R.degenerate] = 1;
      result[R.error] = distanceToTarget(model, end, settings);
      return;
    }
  } else {
    pinv.fill(0);
    pinv[0] = pinv[5] = pinv[10] = pinv[15] = 1;
  }
  if (weight <= 0) {
    result[R.error] = distanceToTarget(model, end, settings);
    result[R.clamped] = 1;
    return;
  }
  toFrame(v, A, model, root * 16 + 12);
  toFrame(v, B, model, mid * 16 + 12);
  toFrame(v, C, model, end * 16 + 12);
  toFrame(v, T, settings, S.target);
  if (settings[S.hasPole] > 0) toFrame(v, P, settings, S.pole);
  else copy3(v, P, v, B); // no pole: keep the knee as close as it can stay to where it is

  const ax = v[A];
  const ay = v[A + 1];
  const az = v[A + 2];
  const ux = v[B] - ax;
  const uy = v[B + 1] - ay;
  const uz = v[B + 2] - az;
  const l1 = Math.sqrt(ux * ux + uy * uy + uz * uz);
  const wx = v[C] - v[B];
  const wy = v[C + 1] - v[B + 1];
  const wz = v[C + 2] - v[B + 2];
  const l2 = Math.sqrt(wx * wx + wy * wy + wz * wz);
  let tx = v[T] - ax;
  let ty = v[T + 1] - ay;
  let tz = v[T + 2] - az;
  let lat = Math.sqrt(tx * tx + ty * ty + tz * tz);
  const reach = l1 + l2;
  const fold = l1 > l2 ? l1 - l2 : l2 - l1;
  if (reach === 0) {
    result[R.degenerate] = 1;
    result[R.error] = distanceToTarget(model, end, settings);
    return;
  }
  // Direction root → target; a target at the root keeps the current root → end direction.
  let nx: number;
  let ny: number;
  let nz: number;
  if (lat > reach * 1e-12) {
    nx = tx / lat;
    ny = ty / lat;
    nz = tz / lat;
  } else {
    const ex = v[C] - ax;
    const ey = v[C + 1] - ay;
    const ez = v[C + 2] - az;
    const el = Math.sqrt(ex * ex + ey * ey + ez * ez);
    if (el > reach * 1e-12) {
      nx = ex / el;
      ny = ey / el;
      nz = ez / el;
    } else {
      nx = ux / l1;
      ny = uy / l1;
      nz = uz / l1;
    }
    result[R.degenerate] = 1;
    lat = 0;
  }
  // Softening: past (1 − softness) of the reach, the distance eases toward full reach as
  // x / (1 + x): smooth (C1) where it starts, monotone, and never quite straight, so no snap.
  const softness = settings[S.softness];
  if (softness > 0) {
    const start = reach * (1 - softness);
    if (lat > start) {
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
  tx = nx * d;
  ty = ny * d;
  tz = nz * d;

  // Corrections, as rotations in the root's parent frame, start at the identity.
  setIdentity(v, Q_ROOT);
  setIdentity(v, Q_MID);
  const hingeTrue = settings[S.hasHinge] > 0;
  // Knee position after the middle joint's correction (relative to the root), and end position.
  let kx = ux;
  let ky = uy;
  let kz = uz;
  let cx = ux + wx;
  let cy = uy + wy;
  let cz = uz + wz;
  if (hingeTrue) {
    // The hinge in this frame: the middle joint's rotation frame applied to its local axis.
    frameRotation(model, mid);
    const hl = S.hinge;
    rotateByFrame(v, H, settings[hl], settings[hl + 1], settings[hl + 2]);
    const hx = v[H];
    const hy = v[H + 1];
    const hz = v[H + 2];
    // Turning w = c − b about h by δ: |c(δ) − a|² = |u|² + |w|² + 2 u·w(δ). Solve
    // cos δ · p + sin δ · q = r for the distance d (all relative to b).
    const wh = wx * hx + wy * hy + wz * hz;
    const px = wx - wh * hx;
    const py = wy - wh * hy;
    const pz = wz - wh * hz;
    // h × w⊥
    const qx = hy * pz - hz * py;
    const qy = hz * px - hx * pz;
    const qz = hx * py - hy * px;
    // With m = a − b = −u: |c − a|² = |w|² + |u|² − 2 w(δ)·m, so w(δ)·m = (|w|² + |u|² − d²)/2.
    const pm = -(px * ux + py * uy + pz * uz);
    const qm = -(qx * ux + qy * uy + qz * uz);
    const rm = (l2 * l2 + l1 * l1 - d * d) / 2 + wh * (hx * ux + hy * uy + hz * uz);
    const amp = Math.sqrt(pm * pm + qm * qm);
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
      // Two turns reach the distance: δ = α ± γ. Take the one that bends the way the hinge
      // allows (positive bend about h: e1 × w points along h, e1 = the root → knee direction).
      const cos1 = ca * cr - sa * sr;
      const sin1 = sa * cr + ca * sr;
      const cos2 = ca * cr + sa * sr;
      const sin2 = sa * cr - ca * sr;
      // Bend measure of each: w(δ) · (h × e1), e1 = u / l1.
      const bx = (hy * uz - hz * uy) / l1;
      const by = (hz * ux - hx * uz) / l1;
      const bz = (hx * uy - hy * ux) / l1;
      const pb = px * bx + py * by + pz * bz;
      const qb = qx * bx + qy * by + qz * bz;
      const bend1 = cos1 * pb + sin1 * qb;
      const bend2 = cos2 * pb + sin2 * qb;
      let cosd = bend1 >= bend2 ? cos1 : cos2;
      let sind = bend1 >= bend2 ? sin1 : sin2;
      if (settings[S.hasBendRange] > 0) {
        // Current bend angle β0 of w about h from e1, and the bend after the turn β = β0 + δ.
        const wp = Math.sqrt(px * px + py * py + pz * pz);
        if (wp > 0) {
          const c0 = (px * ux + py * uy + pz * uz) / (wp * l1);
          const s0 = pb / wp;
          const cb = c0 * cosd - s0 * sind;
          const sb = s0 * cosd + c0 * sind;
          const limited = clampAngle(cb, sb, settings, S.bendMin, S.bendMax);
          if (limited) {
            // δ = β_limit − β0.
            const cl = v[Q_TMP];
            const sl = v[Q_TMP + 1];
            cosd = cl * c0 + sl * s0;
            sind = sl * c0 - cl * s0;
            result[R.clamped] = 1;
          }
        }
      }
      // Stored about the local hinge axis: the same turn, in the joint's own frame.
      axisAngleInto(v, Q_MID, settings[hl], settings[hl + 1], settings[hl + 2], cosd, sind);
      // The end after the turn: c = u + w(δ).
      cx = ux + wh * hx + cosd * px + sind * qx;
      cy = uy + wh * hy + cosd * py + sind * qy;
      cz = uz + wh * hz + cosd * pz + sind * qz;
    } else {
      result[R.degenerate] = 1;
    }
  } else {
    // Least motion: the knee on the circle of solutions, nearest the pole or the current knee.
    const ct = clamp((l1 * l1 + d * d - l2 * l2) / (2 * l1 * (d > 0 ? d : 1)), -1, 1);
    const radius = l1 * Math.sqrt(1 - ct * ct);
    const mx = nx * l1 * ct;
    const my = ny * l1 * ct;
    const mz = nz * l1 * ct;
    let ox = v[P] - ax - mx;
    let oy = v[P + 1] - ay - my;
    let oz = v[P + 2] - az - mz;
    const on = ox * nx + oy * ny + oz * nz;
    ox -= on * nx;
    oy -= on * ny;
    oz -= on * nz;
    let ol = Math.sqrt(ox * ox + oy * oy + oz * oz);
    if (!(ol > l1 * 1e-9)) {
      // Straight limb or pole on the line: the side from memory (last bend normal × n).
      result[R.degenerate] = 1;
      sideFromMemory(memory, nx, ny, nz);
      ox = v[Q_TMP];
      oy = v[Q_TMP + 1];
      oz = v[Q_TMP + 2];
      ol = Math.sqrt(ox * ox + oy * oy + oz * oz);
    }
    twistAbout(ox / ol, oy / ol, oz / ol, nx, ny, nz, settings);
    const kx2 = mx + radius * v[Q_TMP];
    const ky2 = my + radius * v[Q_TMP + 1];
    const kz2 = mz + radius * v[Q_TMP + 2];
    // Root: carry the knee direction onto the new knee direction.
    fromToInto(v, Q_ROOT, ux / l1, uy / l1, uz / l1, kx2 / l1, ky2 / l1, kz2 / l1, nx, ny, nz);
    // Middle: after the root's turn, carry its end onto the target.
    rotateInto(v, Q_TMP2, v, Q_ROOT, wx, wy, wz);
    const rwx = v[Q_TMP2];
    const rwy = v[Q_TMP2 + 1];
    const rwz = v[Q_TMP2 + 2];
    const ex = tx - kx2;
    const ey = ty - ky2;
    const ez = tz - kz2;
    const el = Math.sqrt(ex * ex + ey * ey + ez * ez);
    if (el > 0) {
      fromToInto(v, Q_MID, rwx / l2, rwy / l2, rwz / l2, ex / el, ey / el, ez / el, nx, ny, nz);
      // That turn applies after the root's; as a turn of the unchanged pose its axis is
      // R_root⁻¹ · axis (the angle is the same).
      v[Q_TMP] = -v[Q_ROOT];
      v[Q_TMP + 1] = -v[Q_ROOT + 1];
      v[Q_TMP + 2] = -v[Q_ROOT + 2];
      v[Q_TMP + 3] = v[Q_ROOT + 3];
      rotateInto(v, Q_TMP2, v, Q_TMP, v[Q_MID], v[Q_MID + 1], v[Q_MID + 2]);
      v[Q_MID] = v[Q_TMP2];
      v[Q_MID + 1] = v[Q_TMP2 + 1];
      v[Q_MID + 2] = v[Q_TMP2 + 2];
    }
    rememberNormal(memory, kx2, ky2, kz2, tx, ty, tz);
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
      weight,
      false,
    );
    return;
  }
  // Hinge-true root: align root → end with root → target, then roll the knee into the plane of
  // the root, the target and the pole (or the current knee).
  const cl = Math.sqrt(cx * cx + cy * cy + cz * cz);
  if (cl > reach * 1e-12) {
    fromToInto(v, Q_ROOT, cx / cl, cy / cl, cz / cl, nx, ny, nz, v[H], v[H + 1], v[H + 2]);
  }
  // The knee after the alignment.
  rotateInto(v, Q_TMP2, v, Q_ROOT, kx, ky, kz);
  kx = v[Q_TMP2];
  ky = v[Q_TMP2 + 1];
  kz = v[Q_TMP2 + 2];
  const kn = kx * nx + ky * ny + kz * nz;
  let kpx = kx - kn * nx;
  let kpy = ky - kn * ny;
  let kpz = kz - kn * nz;
  const kpl = Math.sqrt(kpx * kpx + kpy * kpy + kpz * kpz);
  let ox = v[P] - ax;
  let oy = v[P + 1] - ay;
  let oz = v[P + 2] - az;
  const on = ox * nx + oy * ny + oz * nz;
  ox -= on * nx;
  oy -= on * ny;
  oz -= on * nz;
  const ol = Math.sqrt(ox * ox + oy * oy + oz * oz);
  if (kpl > l1 * 1e-9 && ol > l1 * 1e-9) {
    twistAbout(ox / ol, oy / ol, oz / ol, nx, ny, nz, settings);
    kpx /= kpl;
    kpy /= kpl;
    kpz /= kpl;
    // The roll is about n exactly, by the angle from the knee's side to the pole's side: built
    // from their cosine and sine rather than from their cross product, whose direction would be
    // poor when the two sides are nearly opposite.
    const sx = v[Q_TMP];
    const sy = v[Q_TMP + 1];
    const sz = v[Q_TMP + 2];
    const rc = kpx * sx + kpy * sy + kpz * sz;
    const rs = (kpy * sz - kpz * sy) * nx + (kpz * sx - kpx * sz) * ny + (kpx * sy - kpy * sx) * nz;
    axisAngleInto(v, Q_TMP2, nx, ny, nz, rc, rs);
    multiply(v, Q_ROOT, v, Q_TMP2, v, Q_ROOT);
  } else {
    // A straight limb has no knee side to roll; the hinge keeps the bend side.
    result[R.degenerate] = 1;
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
    weight,
    true,
  );
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
  weight: number,
  midInLocalFrame: boolean,
): void {
  if (weight < 1) {
    scaleRotation(v, Q_ROOT, weight);
    scaleRotation(v, Q_MID, weight);
    result[R.clamped] = 1;
  }
  // Middle joint first, while the frames are those of the unchanged pose.
  if (midInLocalFrame) {
    // The hinge-true turn is already about the local hinge axis.
    multiply(rotations, mid * 4, rotations, mid * 4, v, Q_MID);
  } else {
    // A rotation in the root's parent frame (taken before the root turns): into the joint's frame.
    frameRotation(model, mid);
    conjugateIntoLocal(rotations, mid * 4, v, Q_MID);
  }
  normalize(rotations, mid * 4, rotations, mid * 4);
  // Root: its rotation frame's parent is the frame we solved in, so the turn composes on the left.
  multiply(rotations, root * 4, v, Q_ROOT, rotations, root * 4);
  normalize(rotations, root * 4, rotations, root * 4);
  localToModel(model, parents, translations, rotations, scales, root, subtreeEnd);
  if (settings[S.hasEndRotation] > 0) {
    matchEndRotation(model, parents, rotations, end, settings, weight);
    localToModel(model, parents, translations, rotations, scales, end, end + 1);
    // The end's descendants follow it.
    localToModel(model, parents, translations, rotations, scales, end + 1, subtreeEnd);
  }
  const error = distanceToTarget(model, end, settings);
  result[R.error] = error;
  if (error <= settings[S.tolerance]) result[R.reached] = 1;
}

/** Model-space distance from the end joint to the target. */
function distanceToTarget(model: Float64Array, end: number, settings: Float64Array): number {
  const o = end * 16 + 12;
  const dx = model[o] - settings[S.target];
  const dy = model[o + 1] - settings[S.target + 1];
  const dz = model[o + 2] - settings[S.target + 2];
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}

/** out[o..] = P⁻¹ · point (the root's parent frame). */
function toFrame(out: Float64Array, o: number, src: Float64Array, so: number): void {
  const x = src[so];
  const y = src[so + 1];
  const z = src[so + 2];
  out[o] = pinv[0] * x + pinv[4] * y + pinv[8] * z + pinv[12];
  out[o + 1] = pinv[1] * x + pinv[5] * y + pinv[9] * z + pinv[13];
  out[o + 2] = pinv[2] * x + pinv[6] * y + pinv[10] * z + pinv[14];
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

function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/**
 * The rotation part of joint j's frame in the root's parent frame (P⁻¹ · M_j with the columns
 * normalized), into v[FRAME] as a 3x3 in a 4x4 layout. The chain's bones have uniform scale, so
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

/** v[o..] = (frame rotation) · (x, y, z), normalized. */
function rotateByFrame(out: Float64Array, o: number, x: number, y: number, z: number): void {
  const f = FRAME;
  const rx = v[f] * x + v[f + 4] * y + v[f + 8] * z;
  const ry = v[f + 1] * x + v[f + 5] * y + v[f + 9] * z;
  const rz = v[f + 2] * x + v[f + 6] * y + v[f + 10] * z;
  const l = Math.sqrt(rx * rx + ry * ry + rz * rz);
  const inv = l > 0 ? 1 / l : 0;
  out[o] = rx * inv;
  out[o + 1] = ry * inv;
  out[o + 2] = rz * inv;
}

/**
 * q ← q · (F⁻¹ · R · F): a rotation R given in the solve frame, applied in the joint's own frame
 * (F = the joint's frame rotation, in v[FRAME]).
 */
function conjugateIntoLocal(rotations: Float64Array, ro: number, src: Float64Array, so: number): void {
  // Local axis = F⁻¹ · axis (Fᵀ for a rotation); the angle is unchanged.
  const x = src[so];
  const y = src[so + 1];
  const z = src[so + 2];
  const f = FRAME;
  v[Q_TMP] = v[f] * x + v[f + 1] * y + v[f + 2] * z;
  v[Q_TMP + 1] = v[f + 4] * x + v[f + 5] * y + v[f + 6] * z;
  v[Q_TMP + 2] = v[f + 8] * x + v[f + 9] * y + v[f + 10] * z;
  v[Q_TMP + 3] = src[so + 3];
  multiply(rotations, ro, rotations, ro, v, Q_TMP);
}

/**
 * out[o..] = the minimal rotation from unit (ax, ay, az) to unit (bx, by, bz); for opposite
 * vectors a half turn about the component of `fallback` perpendicular to a (the hinge or the
 * root–target axis: a turn the limb can make), or about any perpendicular when that vanishes.
 */
function fromToInto(
  out: Float64Array,
  o: number,
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  fx: number,
  fy: number,
  fz: number,
): void {
  const w = 1 + ax * bx + ay * by + az * bz;
  if (w > 1e-12) {
    const x = ay * bz - az * by;
    const y = az * bx - ax * bz;
    const z = ax * by - ay * bx;
    const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
    out[o] = x * inv;
    out[o + 1] = y * inv;
    out[o + 2] = z * inv;
    out[o + 3] = w * inv;
    return;
  }
  const fa = fx * ax + fy * ay + fz * az;
  let px = fx - fa * ax;
  let py = fy - fa * ay;
  let pz = fz - fa * az;
  let pl = Math.sqrt(px * px + py * py + pz * pz);
  if (!(pl > 1e-9)) {
    // Any perpendicular: cross with the coordinate axis least aligned with a.
    const aax = ax < 0 ? -ax : ax;
    const aay = ay < 0 ? -ay : ay;
    const aaz = az < 0 ? -az : az;
    if (aax <= aay && aax <= aaz) {
      px = 0;
      py = -az;
      pz = ay;
    } else if (aay <= aaz) {
      px = az;
      py = 0;
      pz = -ax;
    } else {
      px = -ay;
      py = ax;
      pz = 0;
    }
    pl = Math.sqrt(px * px + py * py + pz * pz);
  }
  // A half turn about p carries a to −a exactly; the small remaining turn from −a to b is then
  // accurate by the half-vector formula. (Treating nearly opposite vectors as exactly opposite
  // would leave an error of up to √(2·threshold) rad.)
  px /= pl;
  py /= pl;
  pz /= pl;
  const rx = az * by - ay * bz; // (−a) × b
  const ry = ax * bz - az * bx;
  const rz = ay * bx - ax * by;
  const rw = 1 - (ax * bx + ay * by + az * bz);
  const inv = 1 / Math.sqrt(rx * rx + ry * ry + rz * rz + rw * rw);
  // (r · half turn), r = (rx, ry, rz, rw)·inv, half turn = (p, 0).
  const qx = rx * inv;
  const qy = ry * inv;
  const qz = rz * inv;
  const qw = rw * inv;
  out[o] = qw * px + qy * pz - qz * py;
  out[o + 1] = qw * py - qx * pz + qz * px;
  out[o + 2] = qw * pz + qx * py - qy * px;
  out[o + 3] = 0 - (qx * px + qy * py + qz * pz); // +0 for an exact half turn
}

/**
 * out[o..] = the turn about the unit axis (ax, ay, az) by the angle whose cosine and sine are
 * proportional to (c, s); the identity when both are 0. Trig-free, and exact at both ends: each
 * half-angle formula √((1 ± cos)/2) is used only where it does not amplify the rounding of the
 * cosine, the other half coming from sin = 2 sin(θ/2) cos(θ/2).
 */
function axisAngleInto(
  out: Float64Array,
  o: number,
  ax: number,
  ay: number,
  az: number,
  c: number,
  s: number,
): void {
  const r = Math.sqrt(c * c + s * s);
  if (!(r > 0)) {
    setIdentity(out, o);
    return;
  }
  const cn = c / r;
  const sn = s / r;
  let half: number;
  let hs: number;
  if (cn >= 0) {
    half = Math.sqrt((1 + cn) / 2);
    hs = sn / (2 * half);
  } else {
    hs = Math.sqrt((1 - cn) / 2);
    if (sn < 0) hs = -hs;
    half = sn / (2 * hs);
  }
  out[o] = ax * hs;
  out[o + 1] = ay * hs;
  out[o + 2] = az * hs;
  out[o + 3] = half;
}

/** out[o..] = q · (x, y, z) with q = src[so..]. */
function rotateInto(
  out: Float64Array,
  o: number,
  src: Float64Array,
  so: number,
  x: number,
  y: number,
  z: number,
): void {
  const qx = src[so];
  const qy = src[so + 1];
  const qz = src[so + 2];
  const qw = src[so + 3];
  const tx = 2 * (qy * z - qz * y);
  const ty = 2 * (qz * x - qx * z);
  const tz = 2 * (qx * y - qy * x);
  out[o] = x + qw * tx + qy * tz - qz * ty;
  out[o + 1] = y + qw * ty + qz * tx - qx * tz;
  out[o + 2] = z + qw * tz + qx * ty - qy * tx;
}

/**
 * v[Q_TMP..] = the unit direction (x, y, z) (perpendicular to n) turned about n by the
 * configured twist (cos, sin).
 */
function twistAbout(
  x: number,
  y: number,
  z: number,
  nx: number,
  ny: number,
  nz: number,
  settings: Float64Array,
): void {
  const c = settings[S.twist];
  const s = settings[S.twist + 1];
  // Rodrigues for a vector perpendicular to the axis: x cos + (n × x) sin.
  v[Q_TMP] = x * c + (ny * z - nz * y) * s;
  v[Q_TMP + 1] = y * c + (nz * x - nx * z) * s;
  v[Q_TMP + 2] = z * c + (nx * y - ny * x) * s;
}

/**
 * Clamps the angle (c, s) into [min, max] (cos/sin pairs at settings[lo], settings[hi]), the range
 * taken counter-clockwise from min to max. Writes the limit hit to v[Q_TMP], v[Q_TMP + 1] and
 * returns true when it clamped.
 */
function clampAngle(c: number, s: number, settings: Float64Array, lo: number, hi: number): boolean {
  const c0 = settings[lo];
  const s0 = settings[lo + 1];
  const c1 = settings[hi];
  const s1 = settings[hi + 1];
  // Angle from min to the value and from min to max, compared as points on the circle.
  const cv = c * c0 + s * s0;
  const sv = s * c0 - c * s0;
  const cr = c1 * c0 + s1 * s0;
  const sr = s1 * c0 - c1 * s0;
  if (ccwLessOrEqual(cv, sv, cr, sr)) return false;
  // Outside: snap to the nearer end.
  const dMin = 1 - (c * c0 + s * s0);
  const dMax = 1 - (c * c1 + s * s1);
  if (dMin <= dMax) {
    v[Q_TMP] = c0;
    v[Q_TMP + 1] = s0;
  } else {
    v[Q_TMP] = c1;
    v[Q_TMP + 1] = s1;
  }
  return true;
}

/** Whether angle a (ca, sa) ≤ angle b (cb, sb), both taken in [0, 2π). */
function ccwLessOrEqual(ca: number, sa: number, cb: number, sb: number): boolean {
  const ha = sa >= 0 ? 0 : 1;
  const hb = sb >= 0 ? 0 : 1;
  if (ha !== hb) return ha < hb;
  // Same half: the angle grows as the cosine falls (upper half) or rises (lower half).
  return ha === 0 ? ca >= cb : ca <= cb;
}

/** q ← slerp(identity, q, w), in place (shorter arc). */
function scaleRotation(out: Float64Array, o: number, w: number): void {
  let x = out[o];
  let y = out[o + 1];
  let z = out[o + 2];
  let qw = out[o + 3];
  if (qw < 0) {
    x = -x;
    y = -y;
    z = -z;
    qw = -qw;
  }
  // nlerp from the identity; renormalized. Exact at w = 0 and 1 and monotone between.
  const bx = x * w;
  const by = y * w;
  const bz = z * w;
  const bw = 1 - w + qw * w;
  const inv = 1 / Math.sqrt(bx * bx + by * by + bz * bz + bw * bw);
  out[o] = bx * inv;
  out[o + 1] = by * inv;
  out[o + 2] = bz * inv;
  out[o + 3] = bw * inv;
}

/** Stores the bend-plane normal (knee × target) for the next degenerate solve. */
function rememberNormal(
  memory: Float64Array,
  kx: number,
  ky: number,
  kz: number,
  tx: number,
  ty: number,
  tz: number,
): void {
  const x = ky * tz - kz * ty;
  const y = kz * tx - kx * tz;
  const z = kx * ty - ky * tx;
  const l = Math.sqrt(x * x + y * y + z * z);
  if (!(l > 0)) return;
  memory[0] = x / l;
  memory[1] = y / l;
  memory[2] = z / l;
  memory[3] = 1;
}

/** v[Q_TMP..] = a knee direction ⊥ n from the remembered bend normal (or any perpendicular). */
function sideFromMemory(memory: Float64Array, nx: number, ny: number, nz: number): void {
  let x: number;
  let y: number;
  let z: number;
  if (memory[3] > 0) {
    // knee side = n × normal (the normal was knee × target).
    x = ny * memory[2] - nz * memory[1];
    y = nz * memory[0] - nx * memory[2];
    z = nx * memory[1] - ny * memory[0];
  } else {
    x = 0;
    y = 0;
    z = 0;
  }
  if (!(x * x + y * y + z * z > 1e-18)) {
    const ax = nx < 0 ? -nx : nx;
    const ay = ny < 0 ? -ny : ny;
    const az = nz < 0 ? -nz : nz;
    if (ax <= ay && ax <= az) {
      x = 0;
      y = -nz;
      z = ny;
    } else if (ay <= az) {
      x = nz;
      y = 0;
      z = -nx;
    } else {
      x = -ny;
      y = nx;
      z = 0;
    }
  }
  v[Q_TMP] = x;
  v[Q_TMP + 1] = y;
  v[Q_TMP + 2] = z;
}

/**
 * Sets the end's local rotation so its rotation in model space (as seen through the root's parent
 * frame) equals settings[endRotation], blended by the weight.
 */
function matchEndRotation(
  model: Float64Array,
  parents: Int32Array,
  rotations: Float64Array,
  end: number,
  settings: Float64Array,
  weight: number,
): void {
  // Target rotation in the solve frame: P⁻¹'s rotation part times the model-space rotation.
  const e = S.endRotation;
  const tx = settings[e];
  const ty = settings[e + 1];
  const tz = settings[e + 2];
  const tw = settings[e + 3];
  // Columns of the target rotation matrix, brought into the solve frame and normalized.
  const x2 = tx + tx;
  const y2 = ty + ty;
  const z2 = tz + tz;
  const f = FRAME;
  for (let c = 0; c < 3; c++) {
    const x = c === 0 ? 1 - ty * y2 - tz * z2 : c === 1 ? tx * y2 - tw * z2 : tx * z2 + tw * y2;
    const y = c === 0 ? tx * y2 + tw * z2 : c === 1 ? 1 - tx * x2 - tz * z2 : ty * z2 - tw * x2;
    const z = c === 0 ? tx * z2 - tw * y2 : c === 1 ? ty * z2 + tw * x2 : 1 - tx * x2 - ty * y2;
    const fx = pinv[0] * x + pinv[4] * y + pinv[8] * z;
    const fy = pinv[1] * x + pinv[5] * y + pinv[9] * z;
    const fz = pinv[2] * x + pinv[6] * y + pinv[10] * z;
    const l = Math.sqrt(fx * fx + fy * fy + fz * fz);
    v[f + 4 * c] = fx / l;
    v[f + 4 * c + 1] = fy / l;
    v[f + 4 * c + 2] = fz / l;
  }
  fromMat4(v, Q_TMP2, v, f);
  // The end's parent's rotation in the solve frame.
  frameRotation(model, parents[end]);
  fromMat4(v, Q_TMP, v, f);
  // local = parent⁻¹ · target
  v[Q_TMP] = -v[Q_TMP];
  v[Q_TMP + 1] = -v[Q_TMP + 1];
  v[Q_TMP + 2] = -v[Q_TMP + 2];
  multiply(v, Q_TMP, v, Q_TMP, v, Q_TMP2);
  normalize(v, Q_TMP, v, Q_TMP);
  if (weight < 1) {
    // Blend from the current local rotation: q ← q · slerp(I, q⁻¹ · target, w).
    const o = end * 4;
    v[Q_TMP2] = -rotations[o];
    v[Q_TMP2 + 1] = -rotations[o + 1];
    v[Q_TMP2 + 2] = -rotations[o + 2];
    v[Q_TMP2 + 3] = rotations[o + 3];
    multiply(v, Q_TMP2, v, Q_TMP2, v, Q_TMP);
    scaleRotation(v, Q_TMP2, weight);
    multiply(rotations, o, rotations, o, v, Q_TMP2);
  } else {
    rotations[end * 4] = v[Q_TMP];
    rotations[end * 4 + 1] = v[Q_TMP + 1];
    rotations[end * 4 + 2] = v[Q_TMP + 2];
    rotations[end * 4 + 3] = v[Q_TMP + 3];
  }
  normalize(rotations, end * 4, rotations, end * 4);
}
