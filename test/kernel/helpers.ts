/**
 * Shared fixtures for the kernel tests: seeded generators, fast-check arbitraries and tolerant
 * comparisons. Quaternions are `(x, y, z, w)`, matrices column-major, as in src/kernel.
 */
import fc from 'fast-check';
import { glMatrix } from 'gl-matrix';
import type { Object3D } from 'three';

// gl-matrix's typings only admit Float32Array/Array, but it works with any array type: make its
// `create()` helpers allocate doubles so the oracle computes and stores in float64.
glMatrix.setMatrixArrayType(Float64Array as unknown as Float32ArrayConstructor);

/** fast-check options: fixed seed so failures reproduce. */
export const RUNS = { seed: 42, numRuns: 2000 } as const;
/** For the heavier properties. */
export const FEW_RUNS = { seed: 42, numRuns: 300 } as const;

export type Arr = ArrayLike<number>;

/** Mulberry32: a tiny seeded PRNG for bulk data (skeletons, tracks, garbage fill). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Uniform in `[lo, hi)`. */
export function uniform(r: () => number, lo: number, hi: number): number {
  return lo + (hi - lo) * r();
}

/** Integer in `[lo, hi]`. */
export function randInt(r: () => number, lo: number, hi: number): number {
  return lo + Math.floor(r() * (hi - lo + 1));
}

/** A uniformly distributed unit quaternion (Shoemake), any hemisphere. */
export function randomQuat(r: () => number): [number, number, number, number] {
  const u1 = r();
  const u2 = r() * 2 * Math.PI;
  const u3 = r() * 2 * Math.PI;
  const a = Math.sqrt(1 - u1);
  const b = Math.sqrt(u1);
  return [a * Math.sin(u2), a * Math.cos(u2), b * Math.sin(u3), b * Math.cos(u3)];
}

/** A uniformly distributed unit 3-vector. */
export function randomUnitVec3(r: () => number): [number, number, number] {
  const z = uniform(r, -1, 1);
  const phi = uniform(r, 0, 2 * Math.PI);
  const rho = Math.sqrt(1 - z * z);
  return [rho * Math.cos(phi), rho * Math.sin(phi), z];
}

export function randomVec3(r: () => number, range: number): [number, number, number] {
  return [uniform(r, -range, range), uniform(r, -range, range), uniform(r, -range, range)];
}

/** A scale with each component in ±[0.2, 3] (non-uniform, sometimes negative). */
export function randomScale(r: () => number, allowNegative = true): [number, number, number] {
  const c = () => {
    const m = uniform(r, 0.2, 3);
    return allowNegative && r() < 0.2 ? -m : m;
  };
  return [c(), c(), c()];
}

export function normalize4(q: Arr): [number, number, number, number] {
  const l = Math.hypot(q[0], q[1], q[2], q[3]);
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
}

export function normalize3(v: Arr): [number, number, number] {
  const l = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / l, v[1] / l, v[2] / l];
}

const coord = fc.double({ min: -1, max: 1, noNaN: true });

/** Unit quaternions from fast-check (biased toward axis-aligned and signed-zero corner cases). */
export const arbQuat = fc
  .tuple(coord, coord, coord, coord)
  .filter(([x, y, z, w]) => x * x + y * y + z * z + w * w > 1e-6)
  .map((q) => normalize4(q));

/** Unit 3-vectors from fast-check. */
export const arbUnitVec3 = fc
  .tuple(coord, coord, coord)
  .filter(([x, y, z]) => x * x + y * y + z * z > 1e-6)
  .map((v) => normalize3(v));

/** A number in `[-1, 1]`, spread evenly (no corner bias: the two-bone properties' own). */
export const arbUnitNumber = fc.double({ min: -1, max: 1, noNaN: true });

/** A unit 3-vector normalized from a point of `[-1, 1]³` at least 0.1 from the centre, no corner bias. */
export const arbDirection = fc
  .tuple(arbUnitNumber, arbUnitNumber, arbUnitNumber)
  .filter(([x, y, z]) => x * x + y * y + z * z > 0.01)
  .map(([x, y, z]) => {
    const l = Math.sqrt(x * x + y * y + z * z);
    return [x / l, y / l, z / l];
  });

/** Any 3-vector with components in `[-range, range]`. */
export function arbVec3(range = 10) {
  const c = fc.double({ min: -range, max: range, noNaN: true });
  return fc.tuple(c, c, c);
}

/** Scale components in ±[0.1, 5] (non-uniform, any sign combination). */
export const arbScale = (() => {
  const c = fc
    .tuple(fc.double({ min: 0.1, max: 5, noNaN: true }), fc.boolean())
    .map(([m, neg]) => (neg ? -m : m));
  return fc.tuple(c, c, c);
})();

/** A general 4x4 matrix with entries in [-2, 2]. */
export const arbMat4 = fc.array(fc.double({ min: -2, max: 2, noNaN: true }), {
  minLength: 16,
  maxLength: 16,
});

// Plain throws rather than `expect` in these helpers: they run inside properties thousands of times.
function sameLength(a: Arr, b: Arr): void {
  if (a.length !== b.length) throw new Error(`length ${a.length} !== ${b.length}`);
}

/** Largest absolute componentwise difference. */
export function maxDiff(a: Arr, b: Arr): number {
  sameLength(a, b);
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    if (!(d <= m)) m = d; // NaN propagates as a failure
  }
  return m;
}

function fmt(a: Arr): string {
  return `[${Array.from(a, (x) => x.toPrecision(17)).join(', ')}]`;
}

/** `|a − b| ≤ tol` componentwise (absolute). NaN anywhere fails. */
export function expectClose(actual: Arr, expected: Arr, tol: number, what = ''): void {
  const d = maxDiff(actual, expected);
  if (!(d <= tol)) {
    throw new Error(`${what} differs by ${d} > ${tol}\n actual   ${fmt(actual)}\n expected ${fmt(expected)}`);
  }
}

/** `|a − b| ≤ tol · max(1, max|expected|)`: relative to the magnitude of the expected array. */
export function expectRelClose(actual: Arr, expected: Arr, tol: number, what = ''): void {
  let scale = 1;
  for (let i = 0; i < expected.length; i++) scale = Math.max(scale, Math.abs(expected[i]));
  expectClose(actual, expected, tol * scale, what);
}

/** Same rotation: `q ≈ p` or `q ≈ −p`. */
export function expectSameRotation(actual: Arr, expected: Arr, tol: number, what = ''): void {
  const neg = [-expected[0], -expected[1], -expected[2], -expected[3]];
  const d = Math.min(maxDiff(actual, expected), maxDiff(actual, neg));
  if (!(d <= tol)) {
    throw new Error(
      `${what} is not the same rotation (off by ${d} > ${tol})\n actual   ${fmt(actual)}\n expected ±${fmt(expected)}`,
    );
  }
}

/** Exact numeric equality (`+0 == −0`, NaN never equal). */
export function expectExact(actual: Arr, expected: Arr, what = ''): void {
  sameLength(actual, expected);
  for (let i = 0; i < actual.length; i++) {
    if (!(actual[i] === expected[i])) {
      throw new Error(
        `${what}[${i}]: ${actual[i]} !== ${expected[i]}\n actual   ${fmt(actual)}\n expected ${fmt(expected)}`,
      );
    }
  }
}

/** Bit-for-bit equality (`Object.is`: distinguishes ±0, NaN equals NaN). */
export function expectIdentical(actual: Arr, expected: Arr, what = ''): void {
  sameLength(actual, expected);
  for (let i = 0; i < actual.length; i++) {
    if (!Object.is(actual[i], expected[i])) {
      throw new Error(`${what}[${i}]: ${actual[i]} is not ${expected[i]}`);
    }
  }
}

export function expectAllFinite(a: Arr, what = ''): void {
  for (let i = 0; i < a.length; i++) {
    if (!Number.isFinite(a[i])) throw new Error(`${what}[${i}] is ${a[i]}`);
  }
}

/**
 * Places `values` at offset `o` inside a larger Float64Array filled with seeded garbage, so that a
 * kernel reading or writing outside its slot shows up. Returns the buffer and a snapshot of it.
 */
export function embed(values: Arr, o: number, r: () => number, tail = 5): Float64Array {
  const buf = new Float64Array(o + values.length + tail);
  for (let i = 0; i < buf.length; i++) buf[i] = uniform(r, -1e3, 1e3);
  for (let i = 0; i < values.length; i++) buf[o + i] = values[i];
  return buf;
}

/** Asserts that `buf` equals `before` everywhere outside `[o, o + len)`. */
export function expectGarbageUntouched(buf: Arr, before: Arr, o: number, len: number, what = ''): void {
  for (let i = 0; i < buf.length; i++) {
    if (i >= o && i < o + len) continue;
    if (!Object.is(buf[i], before[i]))
      throw new Error(`${what}: element ${i} outside [${o}, ${o + len}) changed`);
  }
}

export function slice(a: Arr, o: number, len: number): number[] {
  return Array.from({ length: len }, (_, i) => a[o + i]);
}

export interface Skeleton {
  n: number;
  parents: Int32Array;
  t: Float64Array;
  r: Float64Array;
  s: Float64Array;
}

/** A random parent-before-child skeleton: several roots, branching, non-uniform and negative scales. */
export function randomSkeleton(
  rand: () => number,
  n: number,
  scale: (r: () => number) => [number, number, number] = randomScale,
): Skeleton {
  const parents = new Int32Array(n);
  const t = new Float64Array(3 * n);
  const r = new Float64Array(4 * n);
  const s = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    // mostly chains (deep hierarchies), sometimes a branch, rarely a new root
    const u = rand();
    parents[i] = i === 0 || u < 0.05 ? -1 : u < 0.6 ? i - 1 : randInt(rand, 0, i - 1);
    t.set(randomVec3(rand, 2), 3 * i);
    r.set(randomQuat(rand), 4 * i);
    s.set(rand() < 0.3 ? [1, 1, 1] : scale(rand), 3 * i);
  }
  return { n, parents, t, r, s };
}

/** The same skeleton as three.js nodes (`Object3D` or `Bone`), world matrices updated. */
export function threeHierarchy<T extends Object3D>(sk: Skeleton, make: () => T): T[] {
  const nodes = Array.from({ length: sk.n }, make);
  for (let i = 0; i < sk.n; i++) {
    const o = nodes[i];
    o.position.set(sk.t[3 * i], sk.t[3 * i + 1], sk.t[3 * i + 2]);
    o.quaternion.set(sk.r[4 * i], sk.r[4 * i + 1], sk.r[4 * i + 2], sk.r[4 * i + 3]);
    o.scale.set(sk.s[3 * i], sk.s[3 * i + 1], sk.s[3 * i + 2]);
    if (sk.parents[i] >= 0) nodes[sk.parents[i]].add(o);
  }
  for (let i = 0; i < sk.n; i++) if (sk.parents[i] < 0) nodes[i].updateMatrixWorld(true);
  return nodes;
}
