/**
 * An experiment, not part of tendon: sampling, forward kinematics and 3×4 skinning palettes of a
 * crowd as WebAssembly, written in AssemblyScript with the arithmetic of src/kernel/keyframes.ts,
 * src/kernel/local-to-model.ts and src/kernel/skin-palette.ts in the same order (no fused
 * multiply-add), so the results are the same bits. `fkSimd` computes rows x and y of each column of
 * the parent product in one f64x2, each lane the scalar's sum in the scalar's order.
 * bench/wasm-kernels.mjs checks the bits and times them.
 *
 * Build (writes kernels.wasm beside this file):
 *   npx -y -p assemblyscript@0.28 asc bench/wasm/kernels.ts -O3 --noAssert --runtime stub \
 *     --enable simd --initialMemory 1 -o bench/wasm/kernels.wasm
 */
// Forward kinematics over flat arrays in linear memory: the same arithmetic as tendon's localToModel.
// With `simd`, rows x and y of each column of the parent product are one f64x2: the matrices are
// stored column by column, so those two rows sit side by side; row z is the odd one of three.
function forwardKinematics(
  parents: usize,
  t: usize,
  r: usize,
  s: usize,
  m: usize,
  n: i32,
  count: i32,
  simd: bool,
): void {
  for (let c = 0; c < count; c++) {
    const base = <usize>(c * n);
    for (let i: usize = 0; i < <usize>n; i++) {
      const j = base + i;
      const qo = r + (j << 5);
      const vo = t + j * 24;
      const so = s + j * 24;
      const x = load<f64>(qo),
        y = load<f64>(qo, 8),
        z = load<f64>(qo, 16),
        w = load<f64>(qo, 24);
      const sx = load<f64>(so),
        sy = load<f64>(so, 8),
        sz = load<f64>(so, 16);
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
      const l30 = load<f64>(vo),
        l31 = load<f64>(vo, 8),
        l32 = load<f64>(vo, 16);
      const o = m + (j << 7);
      const p = load<i32>(parents + (i << 2));
      if (p < 0) {
        store<f64>(o, l00);
        store<f64>(o, l01, 8);
        store<f64>(o, l02, 16);
        store<f64>(o, 0, 24);
        store<f64>(o, l10, 32);
        store<f64>(o, l11, 40);
        store<f64>(o, l12, 48);
        store<f64>(o, 0, 56);
        store<f64>(o, l20, 64);
        store<f64>(o, l21, 72);
        store<f64>(o, l22, 80);
        store<f64>(o, 0, 88);
        store<f64>(o, l30, 96);
        store<f64>(o, l31, 104);
        store<f64>(o, l32, 112);
        store<f64>(o, 1, 120);
        continue;
      }
      const po = m + ((base + <usize>p) << 7);
      if (simd) {
        const a0 = v128.load(po),
          a1 = v128.load(po, 32),
          a2 = v128.load(po, 64),
          a3 = v128.load(po, 96);
        const a02 = load<f64>(po, 16),
          a12 = load<f64>(po, 48),
          a22 = load<f64>(po, 80),
          a32 = load<f64>(po, 112);
        v128.store(o, rowsXY(a0, a1, a2, l00, l01, l02));
        store<f64>(o, a02 * l00 + a12 * l01 + a22 * l02, 16);
        store<f64>(o, 0, 24);
        v128.store(o, rowsXY(a0, a1, a2, l10, l11, l12), 32);
        store<f64>(o, a02 * l10 + a12 * l11 + a22 * l12, 48);
        store<f64>(o, 0, 56);
        v128.store(o, rowsXY(a0, a1, a2, l20, l21, l22), 64);
        store<f64>(o, a02 * l20 + a12 * l21 + a22 * l22, 80);
        store<f64>(o, 0, 88);
        v128.store(o, f64x2.add(rowsXY(a0, a1, a2, l30, l31, l32), a3), 96);
        store<f64>(o, a02 * l30 + a12 * l31 + a22 * l32 + a32, 112);
        store<f64>(o, 1, 120);
      } else {
        const a00 = load<f64>(po),
          a01 = load<f64>(po, 8),
          a02 = load<f64>(po, 16);
        const a10 = load<f64>(po, 32),
          a11 = load<f64>(po, 40),
          a12 = load<f64>(po, 48);
        const a20 = load<f64>(po, 64),
          a21 = load<f64>(po, 72),
          a22 = load<f64>(po, 80);
        const a30 = load<f64>(po, 96),
          a31 = load<f64>(po, 104),
          a32 = load<f64>(po, 112);
        store<f64>(o, a00 * l00 + a10 * l01 + a20 * l02);
        store<f64>(o, a01 * l00 + a11 * l01 + a21 * l02, 8);
        store<f64>(o, a02 * l00 + a12 * l01 + a22 * l02, 16);
        store<f64>(o, 0, 24);
        store<f64>(o, a00 * l10 + a10 * l11 + a20 * l12, 32);
        store<f64>(o, a01 * l10 + a11 * l11 + a21 * l12, 40);
        store<f64>(o, a02 * l10 + a12 * l11 + a22 * l12, 48);
        store<f64>(o, 0, 56);
        store<f64>(o, a00 * l20 + a10 * l21 + a20 * l22, 64);
        store<f64>(o, a01 * l20 + a11 * l21 + a21 * l22, 72);
        store<f64>(o, a02 * l20 + a12 * l21 + a22 * l22, 80);
        store<f64>(o, 0, 88);
        store<f64>(o, a00 * l30 + a10 * l31 + a20 * l32 + a30, 96);
        store<f64>(o, a01 * l30 + a11 * l31 + a21 * l32 + a31, 104);
        store<f64>(o, a02 * l30 + a12 * l31 + a22 * l32 + a32, 112);
        store<f64>(o, 1, 120);
      }
    }
  }
}

// Rows x and y of the parent's 3×3 part times the column (u, v, w): a0·u + a1·v + a2·w, summed in
// the scalar's order.
function rowsXY(a0: v128, a1: v128, a2: v128, u: f64, v: f64, w: f64): v128 {
  return f64x2.add(
    f64x2.add(f64x2.mul(a0, f64x2.splat(u)), f64x2.mul(a1, f64x2.splat(v))),
    f64x2.mul(a2, f64x2.splat(w)),
  );
}

export function fk(parents: usize, t: usize, r: usize, s: usize, m: usize, n: i32, count: i32): void {
  forwardKinematics(parents, t, r, s, m, n, count, false);
}

export function fkSimd(parents: usize, t: usize, r: usize, s: usize, m: usize, n: i32, count: i32): void {
  forwardKinematics(parents, t, r, s, m, n, count, true);
}

// 3×4 skinning palettes of `count` characters: the same arithmetic as tendon's skinPalettes.
export function palettes(
  out: usize,
  model: usize,
  jointCount: i32,
  joints: usize,
  k: i32,
  inverseBind: usize,
  count: i32,
): void {
  for (let c = 0; c < count; c++) {
    const mo = model + ((<usize>(c * jointCount)) << 7);
    const po = out + <usize>(c * k * 12) * 4;
    for (let i = 0; i < k; i++) {
      const ao = mo + ((<usize>load<i32>(joints + ((<usize>i) << 2))) << 7);
      const bo = inverseBind + ((<usize>i) << 7);
      const a00 = load<f64>(ao),
        a01 = load<f64>(ao, 8),
        a02 = load<f64>(ao, 16);
      const a10 = load<f64>(ao, 32),
        a11 = load<f64>(ao, 40),
        a12 = load<f64>(ao, 48);
      const a20 = load<f64>(ao, 64),
        a21 = load<f64>(ao, 72),
        a22 = load<f64>(ao, 80);
      const a30 = load<f64>(ao, 96),
        a31 = load<f64>(ao, 104),
        a32 = load<f64>(ao, 112);
      const b00 = load<f64>(bo),
        b01 = load<f64>(bo, 8),
        b02 = load<f64>(bo, 16);
      const b10 = load<f64>(bo, 32),
        b11 = load<f64>(bo, 40),
        b12 = load<f64>(bo, 48);
      const b20 = load<f64>(bo, 64),
        b21 = load<f64>(bo, 72),
        b22 = load<f64>(bo, 80);
      const b30 = load<f64>(bo, 96),
        b31 = load<f64>(bo, 104),
        b32 = load<f64>(bo, 112);
      const o = po + <usize>(i * 12) * 4;
      store<f32>(o, <f32>(a00 * b00 + a10 * b01 + a20 * b02));
      store<f32>(o, <f32>(a00 * b10 + a10 * b11 + a20 * b12), 4);
      store<f32>(o, <f32>(a00 * b20 + a10 * b21 + a20 * b22), 8);
      store<f32>(o, <f32>(a00 * b30 + a10 * b31 + a20 * b32 + a30), 12);
      store<f32>(o, <f32>(a01 * b00 + a11 * b01 + a21 * b02), 16);
      store<f32>(o, <f32>(a01 * b10 + a11 * b11 + a21 * b12), 20);
      store<f32>(o, <f32>(a01 * b20 + a11 * b21 + a21 * b22), 24);
      store<f32>(o, <f32>(a01 * b30 + a11 * b31 + a21 * b32 + a31), 28);
      store<f32>(o, <f32>(a02 * b00 + a12 * b01 + a22 * b02), 32);
      store<f32>(o, <f32>(a02 * b10 + a12 * b11 + a22 * b12), 36);
      store<f32>(o, <f32>(a02 * b20 + a12 * b21 + a22 * b22), 40);
      store<f32>(o, <f32>(a02 * b30 + a12 * b31 + a22 * b32 + a32), 44);
    }
  }
}

// Sampling one clip into every character (each its own time and key cursors), looping: the
// arithmetic of src/animation/sampler.ts's wrapTimeAt, src/kernel/keyframes.ts's sampleTracksAt
// (step and linear keys; cubic keys trap) and src/kernel/quat.ts's trig-free slerpFrom. `tracks` holds 6 i32 per
// track: target joint, path (0 translation, 1 rotation, 2 scale), interpolation (0 step, 1 linear,
// 2 cubic), time offset, key count, value offset; `series` slerpFrom's 64 series weights.
function findKey(times: usize, base: i32, count: i32, t: f64, hint: i32): i32 {
  const last = count - 2;
  if (last <= 0) return 0;
  let k = hint < 0 ? 0 : hint > last ? last : hint;
  if (load<f64>(times + ((<usize>(base + k)) << 3)) <= t) {
    for (let step = 0; step < 4; step++) {
      if (k >= last || t < load<f64>(times + ((<usize>(base + k + 1)) << 3))) return k;
      k++;
    }
    if (k >= last || t < load<f64>(times + ((<usize>(base + k + 1)) << 3))) return k;
    let lo = k;
    let hi = last;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (load<f64>(times + ((<usize>(base + mid)) << 3)) <= t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
  for (let step = 0; step < 4; step++) {
    if (k <= 0) return 0;
    k--;
    if (load<f64>(times + ((<usize>(base + k)) << 3)) <= t) return k;
  }
  let lo = 0;
  let hi = k;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (load<f64>(times + ((<usize>(base + mid)) << 3)) <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function slerpInto(out: usize, a: usize, b0: usize, t: f64, series: usize): void {
  const ax = load<f64>(a),
    ay = load<f64>(a, 8),
    az = load<f64>(a, 16),
    aw = load<f64>(a, 24);
  let bx = load<f64>(b0),
    by = load<f64>(b0, 8),
    bz = load<f64>(b0, 16),
    bw = load<f64>(b0, 24);
  let cos = ax * bx + ay * by + az * bz + aw * bw;
  if (cos < 0) {
    cos = -cos;
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
  }
  const xm1 = (cos > 1 ? 1 : cos) - 1;
  const h = -xm1;
  let n: i32;
  if (h <= 6e-6) n = h <= 5.4e-17 ? 0 : h <= 1.039e-8 ? 1 : 2;
  else if (h <= 9.711e-4) n = h <= 1.441e-4 ? 3 : 4;
  else if (h <= 1.698e-2) n = h <= 3.464e-3 ? 5 : h <= 8.591e-3 ? 6 : 7;
  else {
    const half = h * 0.5;
    let bound = half * half;
    n = 1;
    while (bound > 2.7e-17 && n < 63) {
      bound *= half;
      n++;
    }
  }
  const u = 1 - t;
  const u2 = u * u;
  const t2 = t * t;
  let acc0: f64 = 1;
  let acc1: f64 = 1;
  for (let i = n; i > 0; i--) {
    const k = load<f64>(series + ((<usize>i) << 3)) * xm1;
    const ii = <f64>(i * i);
    acc0 = 1 + k * (u2 - ii) * acc0;
    acc1 = 1 + k * (t2 - ii) * acc1;
  }
  const s0 = u * acc0;
  const s1 = t * acc1;
  const x = ax * s0 + bx * s1;
  const y = ay * s0 + by * s1;
  const z = az * s0 + bz * s1;
  const w = aw * s0 + bw * s1;
  const lenSq = x * x + y * y + z * z + w * w;
  const inv = lenSq > 0 ? 1 / Math.sqrt(lenSq) : 0;
  store<f64>(out, x * inv);
  store<f64>(out, y * inv, 8);
  store<f64>(out, z * inv, 16);
  store<f64>(out, w * inv, 24);
}

function copyValue(out: usize, v: usize, stride: i32): void {
  store<f64>(out, load<f64>(v));
  store<f64>(out, load<f64>(v, 8), 8);
  store<f64>(out, load<f64>(v, 16), 16);
  if (stride === 4) store<f64>(out, load<f64>(v, 24), 24);
}

export function sample(
  tracks: usize,
  trackCount: i32,
  times: usize,
  values: usize,
  series: usize,
  duration: f64,
  clock: usize,
  cursors: usize,
  t: usize,
  r: usize,
  s: usize,
  jointCount: i32,
  count: i32,
): void {
  for (let c = 0; c < count; c++) {
    const time = load<f64>(clock + ((<usize>c) << 3));
    let tt: f64;
    if (duration <= 0) tt = 0;
    else if (time >= 0 && time < duration) tt = time;
    else {
      const w = time - Math.floor(time / duration) * duration;
      tt = w >= 0 && w < duration ? w : 0;
    }
    const cur = cursors + ((<usize>(c * trackCount)) << 2);
    const joint0 = c * jointCount;
    for (let i = 0; i < trackCount; i++) {
      const tr = tracks + <usize>(i * 24);
      const path = load<i32>(tr, 4);
      const stride = path === 1 ? 4 : 3;
      const target = joint0 + load<i32>(tr);
      const o = path === 1 ? r + ((<usize>target) << 5) : (path === 0 ? t : s) + <usize>target * 24;
      const base = load<i32>(tr, 12);
      const keys = load<i32>(tr, 16);
      const k = findKey(times, base, keys, tt, load<i32>(cur + ((<usize>i) << 2)));
      store<i32>(cur + ((<usize>i) << 2), k);
      const interp = load<i32>(tr, 8);
      const keyWidth = interp === 2 ? stride * 3 : stride;
      const valueCenter = interp === 2 ? stride : 0;
      const v0 = load<i32>(tr, 20) + k * keyWidth + valueCenter;
      const p0 = values + ((<usize>v0) << 3);
      if (keys < 2) {
        copyValue(o, p0, stride);
        continue;
      }
      const t0 = load<f64>(times + ((<usize>(base + k)) << 3));
      const t1 = load<f64>(times + ((<usize>(base + k + 1)) << 3));
      const v1 = v0 + keyWidth;
      const p1 = values + ((<usize>v1) << 3);
      // The later key first, as src/kernel/keyframes.ts: at a time two keys share, the later holds.
      if (tt >= t1) {
        copyValue(o, p1, stride);
        continue;
      }
      if (tt <= t0 || interp === 0) {
        copyValue(o, p0, stride);
        continue;
      }
      const dt = t1 - t0;
      const u = (tt - t0) / dt;
      if (interp === 1) {
        if (stride === 4) slerpInto(o, p0, p1, u, series);
        else {
          const a0 = load<f64>(p0),
            a1 = load<f64>(p0, 8),
            a2 = load<f64>(p0, 16);
          store<f64>(o, a0 + (load<f64>(p1) - a0) * u);
          store<f64>(o, a1 + (load<f64>(p1, 8) - a1) * u, 8);
          store<f64>(o, a2 + (load<f64>(p1, 16) - a2) * u, 16);
        }
        continue;
      }
      // Cubic: not in the robot's clips; left out of the experiment.
      unreachable();
    }
  }
}
