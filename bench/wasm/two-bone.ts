/**
 * An experiment, not part of tendon: the two-bone batch's common leg (src/kernel/two-bone-hinge-leg.ts:
 * hinge-true, full weight, no bend range or end rotation, a pole or none, an end joint or an
 * `endLocal` point) and the forward kinematics of its joints (src/kernel/local-to-model.ts), as
 * WebAssembly written in AssemblyScript, with tendon's arithmetic in tendon's order (no fused
 * multiply-add), so that a leg's results are the same bits. A leg whose inputs are not finite, or
 * that takes one of the kernel's rare branches, is left untouched and flagged (status 255): tendon
 * would solve it by its general path. bench/wasm-two-bone.mjs checks the bits and times it beside
 * TwoBoneBatch, the textbook closed form and Babylon.
 *
 * Build (writes two-bone.wasm beside this file):
 *   npx -y -p assemblyscript@0.28 asc bench/wasm/two-bone.ts -O3 --noAssert --runtime stub \
 *     --initialMemory 1 -o bench/wasm/two-bone.wasm
 */

// The TWO_BONE settings layout (src/kernel/two-bone-layout.ts).
const TARGET = 0;
const POLE = 3;
const HAS_POLE = 6;
const WEIGHT = 7;
const SOFTNESS = 8;
const TWIST = 9;
const HINGE = 11;
const HAS_HINGE = 14;
const HAS_BEND_RANGE = 19;
const HAS_END_ROTATION = 24;
const TOLERANCE = 25;
const END_LOCAL = 26;
const HAS_END_LOCAL = 29;
const SETTINGS = 34;

const FAR: f64 = 1e100;
const OUT_OF_REACH = 1;
const CLAMPED = 2;
const DEGENERATE = 4;
/** Status of a leg this kernel left to tendon's general path (nothing written). */
const DECLINED: u8 = 255;

function f(p: usize, i: i32): f64 {
  return load<f64>(p + ((<usize>i) << 3));
}
function put(p: usize, i: i32, v: f64): void {
  store<f64>(p + ((<usize>i) << 3), v);
}

// The end in model space (two-bone-hinge-leg.ts endInto), kept in globals.
let endX: f64 = 0;
let endY: f64 = 0;
let endZ: f64 = 0;

function endInto(model: usize, mo: i32, end: i32, s: usize): void {
  if (f(s, HAS_END_LOCAL) > 0) {
    const px = f(s, END_LOCAL);
    const py = f(s, END_LOCAL + 1);
    const pz = f(s, END_LOCAL + 2);
    endX = f(model, mo) * px + f(model, mo + 4) * py + f(model, mo + 8) * pz + f(model, mo + 12);
    endY = f(model, mo + 1) * px + f(model, mo + 5) * py + f(model, mo + 9) * pz + f(model, mo + 13);
    endZ = f(model, mo + 2) * px + f(model, mo + 6) * py + f(model, mo + 10) * pz + f(model, mo + 14);
  } else {
    const e = end * 16 + 12;
    endX = f(model, e);
    endY = f(model, e + 1);
    endZ = f(model, e + 2);
  }
}

function turnSense(parents: usize, scales: usize, root: i32, mid: i32): f64 {
  let sense: f64 = 1;
  for (
    let j = load<i32>(parents + ((<usize>mid) << 2));
    j >= root;
    j = load<i32>(parents + ((<usize>j) << 2))
  ) {
    const o = j * 3;
    if (f(scales, o) * f(scales, o + 1) * f(scales, o + 2) < 0) sense = -sense;
    if (j === root) break;
  }
  return sense;
}

/** localToModel(from, to), src/kernel/local-to-model.ts's arithmetic. */
function toModel(model: usize, parents: usize, tr: usize, rot: usize, sc: usize, from: i32, to: i32): void {
  for (let i = from; i < to; i++) {
    const qo = i * 4;
    const vo = i * 3;
    const x = f(rot, qo),
      y = f(rot, qo + 1),
      z = f(rot, qo + 2),
      w = f(rot, qo + 3);
    const sx = f(sc, vo),
      sy = f(sc, vo + 1),
      sz = f(sc, vo + 2);
    const x2 = x + x,
      y2 = y + y,
      z2 = z + z;
    const xx = x * x2,
      xy = x * y2,
      xz = x * z2,
      yy = y * y2,
      yz = y * z2,
      zz = z * z2;
    const wx = w * x2,
      wy = w * y2,
      wz = w * z2;
    const l00 = (1 - (yy + zz)) * sx,
      l01 = (xy + wz) * sx,
      l02 = (xz - wy) * sx;
    const l10 = (xy - wz) * sy,
      l11 = (1 - (xx + zz)) * sy,
      l12 = (yz + wx) * sy;
    const l20 = (xz + wy) * sz,
      l21 = (yz - wx) * sz,
      l22 = (1 - (xx + yy)) * sz;
    const l30 = f(tr, vo),
      l31 = f(tr, vo + 1),
      l32 = f(tr, vo + 2);
    const o = i * 16;
    const p = load<i32>(parents + ((<usize>i) << 2));
    if (p < 0) {
      put(model, o, l00);
      put(model, o + 1, l01);
      put(model, o + 2, l02);
      put(model, o + 3, 0);
      put(model, o + 4, l10);
      put(model, o + 5, l11);
      put(model, o + 6, l12);
      put(model, o + 7, 0);
      put(model, o + 8, l20);
      put(model, o + 9, l21);
      put(model, o + 10, l22);
      put(model, o + 11, 0);
      put(model, o + 12, l30);
      put(model, o + 13, l31);
      put(model, o + 14, l32);
      put(model, o + 15, 1);
      continue;
    }
    const po = p * 16;
    const a00 = f(model, po),
      a01 = f(model, po + 1),
      a02 = f(model, po + 2);
    const a10 = f(model, po + 4),
      a11 = f(model, po + 5),
      a12 = f(model, po + 6);
    const a20 = f(model, po + 8),
      a21 = f(model, po + 9),
      a22 = f(model, po + 10);
    const a30 = f(model, po + 12),
      a31 = f(model, po + 13),
      a32 = f(model, po + 14);
    put(model, o, a00 * l00 + a10 * l01 + a20 * l02);
    put(model, o + 1, a01 * l00 + a11 * l01 + a21 * l02);
    put(model, o + 2, a02 * l00 + a12 * l01 + a22 * l02);
    put(model, o + 3, 0);
    put(model, o + 4, a00 * l10 + a10 * l11 + a20 * l12);
    put(model, o + 5, a01 * l10 + a11 * l11 + a21 * l12);
    put(model, o + 6, a02 * l10 + a12 * l11 + a22 * l12);
    put(model, o + 7, 0);
    put(model, o + 8, a00 * l20 + a10 * l21 + a20 * l22);
    put(model, o + 9, a01 * l20 + a11 * l21 + a21 * l22);
    put(model, o + 10, a02 * l20 + a12 * l21 + a22 * l22);
    put(model, o + 11, 0);
    put(model, o + 12, a00 * l30 + a10 * l31 + a20 * l32 + a30);
    put(model, o + 13, a01 * l30 + a11 * l31 + a21 * l32 + a31);
    put(model, o + 14, a02 * l30 + a12 * l31 + a22 * l32 + a32);
    put(model, o + 15, 1);
  }
}

/** Whether the numbers TwoBoneIk checks before a solve are finite (two-bone-batch.ts legInputsFinite's sum). */
function inputsFinite(s: usize, tr: usize, rot: usize, sc: usize, root: i32, mid: i32, end: i32): bool {
  let sum = f(s, TARGET) + f(s, TARGET + 1) + f(s, TARGET + 2) + f(s, WEIGHT) + f(s, SOFTNESS);
  if (f(s, HAS_POLE) > 0) sum += f(s, POLE) + f(s, POLE + 1) + f(s, POLE + 2);
  for (let k = 0; k < 3; k++) {
    const j = k === 0 ? root : k === 1 ? mid : end;
    if (j < 0) continue;
    const o = 3 * j;
    const q = 4 * j;
    sum +=
      f(tr, o) +
      f(tr, o + 1) +
      f(tr, o + 2) +
      (f(sc, o) + f(sc, o + 1) + f(sc, o + 2)) +
      (f(rot, q) + f(rot, q + 1) + f(rot, q + 2) + f(rot, q + 3));
  }
  return sum - sum === 0;
}

/**
 * Legs `0 … count − 1`: targets from `targets` (3 a leg) into each leg's settings, then the leg
 * solved as twoBoneHingeLeg solves it; `errors` and `status` (TWO_BONE_STATUS bits, or 255 for a
 * leg left to the general path). Returns the number of legs declined.
 */
export function legs(
  model: usize,
  parents: usize,
  tr: usize,
  rot: usize,
  sc: usize,
  legTable: usize,
  settings: usize,
  targets: usize,
  errors: usize,
  status: usize,
  count: i32,
): i32 {
  let declined = 0;
  for (let i = 0; i < count; i++) {
    const s = settings + <usize>(i * SETTINGS) * 8;
    put(s, TARGET, f(targets, 3 * i));
    put(s, TARGET + 1, f(targets, 3 * i + 1));
    put(s, TARGET + 2, f(targets, 3 * i + 2));
    const lo = legTable + ((<usize>(4 * i)) << 2);
    const root = load<i32>(lo),
      mid = load<i32>(lo, 4),
      end = load<i32>(lo, 8),
      subtreeEnd = load<i32>(lo, 12);
    if (
      !inputsFinite(s, tr, rot, sc, root, mid, end) ||
      !leg(model, parents, tr, rot, sc, root, mid, end, subtreeEnd, s, errors, status, i)
    ) {
      store<u8>(status + <usize>i, DECLINED);
      declined++;
    }
  }
  return declined;
}

function leg(
  model: usize,
  parents: usize,
  translations: usize,
  rotations: usize,
  scales: usize,
  root: i32,
  mid: i32,
  end: i32,
  subtreeEnd: i32,
  settings: usize,
  errors: usize,
  status: usize,
  i: i32,
): bool {
  const parent = load<i32>(parents + ((<usize>root) << 2));
  if (parent < 0) return false;
  if (
    !(
      f(settings, HAS_HINGE) > 0 &&
      f(settings, WEIGHT) === 1 &&
      !(f(settings, HAS_BEND_RANGE) > 0) &&
      !(f(settings, HAS_END_ROTATION) > 0)
    )
  )
    return false;
  const o = parent * 16;
  const a00 = f(model, o),
    a01 = f(model, o + 1),
    a02 = f(model, o + 2);
  const a10 = f(model, o + 4),
    a11 = f(model, o + 5),
    a12 = f(model, o + 6);
  const a20 = f(model, o + 8),
    a21 = f(model, o + 9),
    a22 = f(model, o + 10);
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
  let x = f(model, o + 12);
  let y = f(model, o + 13);
  let z = f(model, o + 14);
  const p30 = -(p00 * x + p10 * y + p20 * z);
  const p31 = -(p01 * x + p11 * y + p21 * z);
  const p32 = -(p02 * x + p12 * y + p22 * z);
  const ro = root * 16 + 12;
  x = f(model, ro);
  y = f(model, ro + 1);
  z = f(model, ro + 2);
  const ax = p00 * x + p10 * y + p20 * z + p30;
  const ay = p01 * x + p11 * y + p21 * z + p31;
  const az = p02 * x + p12 * y + p22 * z + p32;
  const mo = mid * 16;
  x = f(model, mo + 12) - f(model, ro);
  y = f(model, mo + 13) - f(model, ro + 1);
  z = f(model, mo + 14) - f(model, ro + 2);
  const ux = p00 * x + p10 * y + p20 * z;
  const uy = p01 * x + p11 * y + p21 * z;
  const uz = p02 * x + p12 * y + p22 * z;
  const l1 = Math.sqrt(ux * ux + uy * uy + uz * uz);
  endInto(model, mo, end, settings);
  x = endX - f(model, mo + 12);
  y = endY - f(model, mo + 13);
  z = endZ - f(model, mo + 14);
  const wx = p00 * x + p10 * y + p20 * z;
  const wy = p01 * x + p11 * y + p21 * z;
  const wz = p02 * x + p12 * y + p22 * z;
  const l2 = Math.sqrt(wx * wx + wy * wy + wz * wz);
  const gx = f(settings, TARGET),
    gy = f(settings, TARGET + 1),
    gz = f(settings, TARGET + 2);
  const tx = p00 * gx + p10 * gy + p20 * gz + p30 - ax;
  const ty = p01 * gx + p11 * gy + p21 * gz + p31 - ay;
  const tz = p02 * gx + p12 * gy + p22 * gz + p32 - az;
  const lat = Math.sqrt(tx * tx + ty * ty + tz * tz);
  if (!(lat <= FAR)) return false;
  const hasPole = f(settings, HAS_POLE) > 0;
  let polex = ux,
    poley = uy,
    polez = uz;
  if (hasPole) {
    x = f(settings, POLE);
    y = f(settings, POLE + 1);
    z = f(settings, POLE + 2);
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
  const nx = tx / lat,
    ny = ty / lat,
    nz = tz / lat;
  let flags = lat > reach ? OUT_OF_REACH : 0;
  let d = lat;
  const softness = f(settings, SOFTNESS);
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
  const hlx = f(settings, HINGE),
    hly = f(settings, HINGE + 1),
    hlz = f(settings, HINGE + 2);
  const so = mid * 3;
  const sx = f(scales, so),
    sy = f(scales, so + 1),
    sz = f(scales, so + 2);
  const hsx = sx !== 0 ? hlx / sx : 0;
  const hsy = sy !== 0 ? hly / sy : 0;
  const hsz = sz !== 0 ? hlz / sz : 0;
  const mx = f(model, mo) * hsx + f(model, mo + 4) * hsy + f(model, mo + 8) * hsz;
  const my = f(model, mo + 1) * hsx + f(model, mo + 5) * hsy + f(model, mo + 9) * hsz;
  const mz = f(model, mo + 2) * hsx + f(model, mo + 6) * hsy + f(model, mo + 10) * hsz;
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
  const px = wx - wh * hx,
    py = wy - wh * hy,
    pz = wz - wh * hz;
  const qx = hy * pz - hz * py,
    qy = hz * px - hx * pz,
    qz = hx * py - hy * px;
  const pm = -(px * ux + py * uy + pz * uz);
  const qm = -(qx * ux + qy * uy + qz * uz);
  const rm = (l2 * l2 + l1 * l1 - d * d) / 2 + wh * (hx * ux + hy * uy + hz * uz);
  const amp = Math.sqrt(pm * pm + qm * qm);
  let ex = ux + wx,
    ey = uy + wy,
    ez = uz + wz;
  let bx: f64 = 0,
    by: f64 = 0,
    bz: f64 = 0,
    bw: f64 = 1;
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
    const ca = pm / amp,
      sa = qm / amp;
    const cos1 = ca * cr - sa * sr,
      sin1 = sa * cr + ca * sr;
    const cos2 = ca * cr + sa * sr,
      sin2 = sa * cr - ca * sr;
    const fx = (hy * uz - hz * uy) / l1;
    const fy = (hz * ux - hx * uz) / l1;
    const fz = (hx * uy - hy * ux) / l1;
    const pb = px * fx + py * fy + pz * fz;
    const qb = qx * fx + qy * fy + qz * fz;
    const first = cos1 * pb + sin1 * qb >= cos2 * pb + sin2 * qb;
    const cosd = first ? cos1 : cos2;
    const sind = first ? sin1 : sin2;
    let hs = sind;
    let hc = 1 + cosd;
    if (cosd < 0) {
      hs = sind < 0 ? cosd - 1 : 1 - cosd;
      hc = sind < 0 ? -sind : sind;
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
  let rx: f64 = 0,
    ry: f64 = 0,
    rz: f64 = 0,
    rw: f64 = 1;
  const el = Math.sqrt(ex * ex + ey * ey + ez * ez);
  if (el > reach * 1e-12) {
    const c = ex * nx + ey * ny + ez * nz;
    if (!(c > -0.9 * el)) return false;
    rx = ey * nz - ez * ny;
    ry = ez * nx - ex * nz;
    rz = ex * ny - ey * nx;
    rw = el + c;
    const inv = 1 / Math.sqrt(rx * rx + ry * ry + rz * rz + rw * rw);
    rx *= inv;
    ry *= inv;
    rz *= inv;
    rw *= inv;
  }
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
  let ox = hx,
    oy = hy,
    oz = hz;
  const min = l1 * 1e-9;
  if (hasPole) {
    let sx3 = polex,
      sy3 = poley,
      sz3 = polez;
    along = sx3 * nx + sy3 * ny + sz3 * nz;
    sx3 -= along * nx;
    sy3 -= along * ny;
    sz3 -= along * nz;
    const pmin = l1 * 1e-6;
    if (sx3 * sx3 + sy3 * sy3 + sz3 * sz3 > pmin * pmin) {
      ox = sy3 * nz - sz3 * ny;
      oy = sz3 * nx - sx3 * nz;
      oz = sx3 * ny - sy3 * nx;
    }
  }
  along = ox * nx + oy * ny + oz * nz;
  ox -= along * nx;
  oy -= along * ny;
  oz -= along * nz;
  if (kx * kx + ky * ky + kz * kz > min * min && ox * ox + oy * oy + oz * oz > min * min) {
    const tc = f(settings, TWIST),
      ts = f(settings, TWIST + 1);
    const sx2 = ox * tc + (ny * oz - nz * oy) * ts;
    const sy2 = oy * tc + (nz * ox - nx * oz) * ts;
    const sz2 = oz * tc + (nx * oy - ny * ox) * ts;
    const cc = kx * sx2 + ky * sy2 + kz * sz2;
    const cs = (ky * sz2 - kz * sy2) * nx + (kz * sx2 - kx * sz2) * ny + (kx * sy2 - ky * sx2) * nz;
    const r = Math.sqrt(cc * cc + cs * cs);
    if (!(r > 1e-150 && r < 1e150)) return false;
    let vs: f64, ws: f64;
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
    const qx2 = nx * hv,
      qy2 = ny * hv,
      qz2 = nz * hv,
      qw2 = ws / l;
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
  const mq = mid * 4;
  let qax = f(rotations, mq),
    qay = f(rotations, mq + 1),
    qaz = f(rotations, mq + 2),
    qaw = f(rotations, mq + 3);
  const nmx = qaw * bx + qax * bw + qay * bz - qaz * by;
  const nmy = qaw * by - qax * bz + qay * bw + qaz * bx;
  const nmz = qaw * bz + qax * by - qay * bx + qaz * bw;
  const nmw = qaw * bw - qax * bx - qay * by - qaz * bz;
  const rq = root * 4;
  qax = f(rotations, rq);
  qay = f(rotations, rq + 1);
  qaz = f(rotations, rq + 2);
  qaw = f(rotations, rq + 3);
  const nrx = rw * qax + rx * qaw + ry * qaz - rz * qay;
  const nry = rw * qay - rx * qaz + ry * qaw + rz * qax;
  const nrz = rw * qaz + rx * qay - ry * qax + rz * qaw;
  const nrw = rw * qaw - rx * qax - ry * qay - rz * qaz;
  const midSq = nmx * nmx + nmy * nmy + nmz * nmz + nmw * nmw;
  const rootSq = nrx * nrx + nry * nry + nrz * nrz + nrw * nrw;
  if (!(midSq > 0 && midSq < Infinity && rootSq > 0 && rootSq < Infinity)) return false;
  const mi = 1 / Math.sqrt(midSq);
  const ri = 1 / Math.sqrt(rootSq);
  put(rotations, mq, nmx * mi);
  put(rotations, mq + 1, nmy * mi);
  put(rotations, mq + 2, nmz * mi);
  put(rotations, mq + 3, nmw * mi);
  put(rotations, rq, nrx * ri);
  put(rotations, rq + 1, nry * ri);
  put(rotations, rq + 2, nrz * ri);
  put(rotations, rq + 3, nrw * ri);
  toModel(model, parents, translations, rotations, scales, root, subtreeEnd);
  endInto(model, mo, end, settings);
  const dx = endX - gx,
    dy = endY - gy,
    dz = endZ - gz;
  const sq = dx * dx + dy * dy + dz * dz;
  // (vec3.distanceInto's common case; the rare ones are declined after the write, as a probe.)
  const error = sq < 1e300 && sq > 1e-300 ? Math.sqrt(sq) : sq === 0 ? 0 : NaN;
  put(errors, i, error);
  store<u8>(
    status + <usize>i,
    (error <= f(settings, TOLERANCE) ? 1 : 0) |
      ((flags & OUT_OF_REACH) > 0 ? 2 : 0) |
      ((flags & CLAMPED) > 0 ? 4 : 0) |
      ((flags & DEGENERATE) > 0 ? 8 : 0),
  );
  return true;
}
