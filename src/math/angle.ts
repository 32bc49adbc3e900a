/**
 * Cosines and sines computed by tendon's own arithmetic, the same bits on every engine.
 *
 * `Math.cos` and `Math.sin` are approximated differently by different JavaScript engines (V8,
 * SpiderMonkey, JavaScriptCore, QuickJS disagree in the last bit on a few percent of arguments), so
 * an angle that reaches a pose through them (a joint limit, a twist, a BVH rotation key) would make
 * a pose computed in one engine differ from the same pose computed in another. These use only
 * `+ − × ÷` and `Math.round`, which IEEE 754 and the language define exactly: a range reduction by
 * π/2 in three parts (Cody and Waite), then the minimax polynomials of fdlibm's `__kernel_sin` and
 * `__kernel_cos` on [−π/4, π/4]. Accurate to about 1 ulp for arguments up to about 1e5 radians;
 * beyond, the reduction loses accuracy (but still gives the same bits everywhere).
 *
 * @packageDocumentation
 */

// π/2 in three parts, each with trailing zero bits, so that k × part is exact for |k| < 2^20.
const PIO2_1 = 1.57079632673412561417;
const PIO2_2 = 6.0771005063039659766e-11;
const PIO2_3 = 2.0222662487111664558e-21;
const INV_PIO2 = 6.36619772367581382433e-1;

// fdlibm's __kernel_sin coefficients.
const S1 = -1.66666666666666324348e-1;
const S2 = 8.33333333332248946124e-3;
const S3 = -1.98412698298579493134e-4;
const S4 = 2.75573137070700676789e-6;
const S5 = -2.50507602534068634195e-8;
const S6 = 1.58969099521155010221e-10;
// fdlibm's __kernel_cos coefficients.
const C1 = 4.16666666666666019037e-2;
const C2 = -1.38888888888741095749e-3;
const C3 = 2.48015872894767294178e-5;
const C4 = -2.75573143513906633035e-7;
const C5 = 2.0875723212981748279e-9;
const C6 = -1.13596475577881948265e-11;

/** sin r for |r| ≤ π/4. */
function kernelSin(r: number): number {
  const z = r * r;
  const v = z * r;
  return r + v * (S1 + z * (S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)))));
}

/** cos r for |r| ≤ π/4, with fdlibm's care for the 1 − r²/2 rounding. */
function kernelCos(r: number): number {
  const z = r * r;
  const p = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
  const hz = 0.5 * z;
  const w = 1 - hz;
  return w + (1 - w - hz + z * p);
}

/**
 * Writes `cos θ` and `sin θ` into `out[o]` and `out[o + 1]` (θ in radians, finite); returns `out`.
 * Exact for 0, ±π/2 and ±π. NaN for a non-finite angle.
 */
export function cosSinInto(angleRad: number, out: Float64Array | number[], o = 0): Float64Array | number[] {
  const x = angleRad;
  if (x === 0 || x === Math.PI || x === -Math.PI || x === Math.PI / 2 || x === -Math.PI / 2) {
    out[o] = x === 0 ? 1 : x === Math.PI || x === -Math.PI ? -1 : 0;
    out[o + 1] = x === Math.PI / 2 ? 1 : x === -Math.PI / 2 ? -1 : 0;
    return out;
  }
  if (!(x - x === 0)) {
    out[o] = Number.NaN;
    out[o + 1] = Number.NaN;
    return out;
  }
  const k = Math.round(x * INV_PIO2);
  const r = x - k * PIO2_1 - k * PIO2_2 - k * PIO2_3;
  const c = kernelCos(r);
  const s = kernelSin(r);
  // The quadrant, k mod 4 (k may be negative).
  const q = k - 4 * Math.floor(k / 4);
  out[o] = q === 0 ? c : q === 1 ? -s : q === 2 ? -c : s;
  out[o + 1] = q === 0 ? s : q === 1 ? c : q === 2 ? -s : -c;
  return out;
}

/** `[cos θ, sin θ]` of an angle in radians, by {@link cosSinInto}: the same bits on every engine. */
export function cosSinOfAngle(angleRad: number): [number, number] {
  const out: [number, number] = [0, 0];
  cosSinInto(angleRad, out);
  return out;
}
