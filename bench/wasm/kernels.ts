/**
 * An experiment, not part of tendon: forward kinematics and 3×4 skinning palettes of a crowd as
 * WebAssembly, written in AssemblyScript with the arithmetic of src/kernel/local-to-model.ts and
 * src/kernel/skin-palette.ts in the same order (no fused multiply-add), so the results are the
 * same bits. `fkSimd` computes rows x and y of each column of the parent product in one f64x2,
 * each lane the scalar's sum in the scalar's order. bench/wasm-kernels.mjs checks the bits and times them.
 *
 * Build (writes kernels.wasm beside this file):
 *   npx -y -p assemblyscript@0.28 asc bench/wasm/kernels.ts -O3 --noAssert --runtime stub \
 *     --enable simd --initialMemory 1 -o bench/wasm/kernels.wasm
 */
// Forward kinematics over flat arrays in linear memory: the same arithmetic as tendon's localToModel.
export function fk(parents: usize, t: usize, r: usize, s: usize, m: usize, n: i32, count: i32): void {
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

// Forward kinematics over flat arrays in linear memory: the same arithmetic as tendon's localToModel.
export function fkSimd(parents: usize, t: usize, r: usize, s: usize, m: usize, n: i32, count: i32): void {
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
      const a0 = v128.load(po),
        a1 = v128.load(po, 32),
        a2 = v128.load(po, 64),
        a3 = v128.load(po, 96);
      const a02 = load<f64>(po, 16),
        a12 = load<f64>(po, 48),
        a22 = load<f64>(po, 80),
        a32 = load<f64>(po, 112);
      v128.store(
        o,
        f64x2.add(
          f64x2.add(f64x2.mul(a0, f64x2.splat(l00)), f64x2.mul(a1, f64x2.splat(l01))),
          f64x2.mul(a2, f64x2.splat(l02)),
        ),
      );
      store<f64>(o, a02 * l00 + a12 * l01 + a22 * l02, 16);
      store<f64>(o, 0, 24);
      v128.store(
        o,
        f64x2.add(
          f64x2.add(f64x2.mul(a0, f64x2.splat(l10)), f64x2.mul(a1, f64x2.splat(l11))),
          f64x2.mul(a2, f64x2.splat(l12)),
        ),
        32,
      );
      store<f64>(o, a02 * l10 + a12 * l11 + a22 * l12, 48);
      store<f64>(o, 0, 56);
      v128.store(
        o,
        f64x2.add(
          f64x2.add(f64x2.mul(a0, f64x2.splat(l20)), f64x2.mul(a1, f64x2.splat(l21))),
          f64x2.mul(a2, f64x2.splat(l22)),
        ),
        64,
      );
      store<f64>(o, a02 * l20 + a12 * l21 + a22 * l22, 80);
      store<f64>(o, 0, 88);
      v128.store(
        o,
        f64x2.add(
          f64x2.add(
            f64x2.add(f64x2.mul(a0, f64x2.splat(l30)), f64x2.mul(a1, f64x2.splat(l31))),
            f64x2.mul(a2, f64x2.splat(l32)),
          ),
          a3,
        ),
        96,
      );
      store<f64>(o, a02 * l30 + a12 * l31 + a22 * l32 + a32, 112);
      store<f64>(o, 1, 120);
    }
  }
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
