/**
 * Cosines and sines computed by tendon's own arithmetic, the same bits on every engine.
 *
 * `Math.cos` and `Math.sin` are approximated differently by different JavaScript engines (V8,
 * SpiderMonkey, JavaScriptCore, QuickJS disagree in the last bit on a few percent of arguments), so
 * an angle that reaches a pose through them (a joint limit, a twist, a BVH rotation key) would make
 * a pose computed in one engine differ from the same pose computed in another. These use only
 * `+ − × ÷` and `Math.round`, which IEEE 754 and the language define exactly: a range reduction by
 * π/2 in three parts (Cody and Waite), then the minimax polynomials of fdlibm's `__kernel_sin` and
 * `__kernel_cos` on [−π/4, π/4]. Accurate to about 1 ulp for arguments up to about 1e5 radians
 * (the reduction's products are exact up to 2^20 · π/2, about 1.6e6); beyond, the results are wrong,
 * past about 1e16 radians even outside [−1, 1] or not finite (the same bits everywhere still):
 * callers keep their angles small.
 *
 * @packageDocumentation
 */

// π/2 in three parts, each with trailing zero bits, so that k × part is exact for |k| < 2^20.
const PIO2_1 = 1.5707963267341256;
const PIO2_2 = 6.077100506303966e-11;
const PIO2_3 = 2.0222662487111665e-21;
const INV_PIO2 = 0.6366197723675814;

// fdlibm's __kernel_sin coefficients.
const S1 = -0.16666666666666632;
const S2 = 0.00833333333332249;
const S3 = -0.0001984126982985795;
const S4 = 0.0000027557313707070068;
const S5 = -2.5050760253406863e-8;
const S6 = 1.58969099521155e-10;
// fdlibm's __kernel_cos coefficients.
const C1 = 0.0416666666666666;
const C2 = -0.001388888888887411;
const C3 = 0.00002480158728947673;
const C4 = -2.7557314351390663e-7;
const C5 = 2.087572321298175e-9;
const C6 = -1.1359647557788195e-11;

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

/** The angle {@link cosSinInto} was given, for {@link cosSinAt}. */
const given = new Float64Array(1);

/**
 * Writes `cos θ` and `sin θ` into `out[o]` and `out[o + 1]` (θ in radians, finite); returns `out`.
 * Exact for 0, ±π/2 and ±π. NaN for a non-finite angle.
 */
export function cosSinInto(angleRad: number, out: Float64Array | number[], o = 0): Float64Array | number[] {
  given[0] = angleRad;
  cosSinAt(given, 0, out, o);
  return out;
}

/**
 * {@link cosSinInto} of the angle `angles[ao]`: for a caller in a frame loop, whose angle then
 * reaches the arithmetic unboxed (a double passed to a call V8 does not inline is allocated).
 */
export function cosSinAt(angles: Float64Array, ao: number, out: Float64Array | number[], o: number): void {
  const x = angles[ao];
  if (x === 0 || x === Math.PI || x === -Math.PI || x === Math.PI / 2 || x === -Math.PI / 2) {
    out[o] = x === 0 ? 1 : x === Math.PI || x === -Math.PI ? -1 : 0;
    out[o + 1] = x === Math.PI / 2 ? 1 : x === -Math.PI / 2 ? -1 : 0;
    return;
  }
  if (!(x - x === 0)) {
    out[o] = Number.NaN;
    out[o + 1] = Number.NaN;
    return;
  }
  const k = Math.round(x * INV_PIO2);
  const r = x - k * PIO2_1 - k * PIO2_2 - k * PIO2_3;
  const c = kernelCos(r);
  const s = kernelSin(r);
  // The quadrant, k mod 4 (k may be negative).
  const q = k - 4 * Math.floor(k / 4);
  out[o] = q === 0 ? c : q === 1 ? -s : q === 2 ? -c : s;
  out[o + 1] = q === 0 ? s : q === 1 ? c : q === 2 ? -s : -c;
}

/** `[cos θ, sin θ]` of an angle in radians, by `cosSinInto`: the same bits on every engine. */
export function cosSinOfAngle(angleRad: number): [number, number] {
  const out: [number, number] = [0, 0];
  cosSinInto(angleRad, out);
  return out;
}
