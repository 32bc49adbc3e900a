/** Pose blending: weighted layers with masks, and additive layers. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  additiveApply,
  additiveDelta,
  blendAccumulate,
  blendClear,
  blendFinish,
} from '../../src/kernel/blend.js';
import * as quat from '../../src/kernel/quat.js';
import {
  type Arr,
  expectClose,
  expectIdentical,
  expectRelClose,
  expectSameRotation,
  FEW_RUNS,
  normalize4,
  randomQuat,
  randomScale,
  randomVec3,
  rng,
  slice,
  uniform,
} from './helpers.js';

interface Pose {
  t: Float64Array;
  r: Float64Array;
  s: Float64Array;
}

function randomPose(r: () => number, n: number): Pose {
  const p: Pose = { t: new Float64Array(3 * n), r: new Float64Array(4 * n), s: new Float64Array(3 * n) };
  for (let j = 0; j < n; j++) {
    p.t.set(randomVec3(r, 3), 3 * j);
    p.r.set(randomQuat(r), 4 * j);
    p.s.set(randomScale(r), 3 * j);
  }
  return p;
}

/** Layer weights travel in an array (`weight[weightIndex]`); garbage around it checks the index. */
const W = (w: number) => Float64Array.of(Number.NaN, w, Number.NaN);

const copyPose = (p: Pose): Pose => ({ t: p.t.slice(), r: p.r.slice(), s: p.s.slice() });

function accumulator(n: number) {
  const acc = {
    t: new Float64Array(3 * n),
    r: new Float64Array(4 * n),
    s: new Float64Array(3 * n),
    w: new Float64Array(n),
  };
  // stale garbage, so that a missing blendClear would show
  acc.t.fill(3);
  acc.r.fill(-2);
  acc.s.fill(7);
  acc.w.fill(5);
  blendClear(acc.t, acc.r, acc.s, acc.w, n);
  return acc;
}

/** Blends `layers` (pose, weight, mask) with the kernels; joints nobody touched take `fallback`. */
function blend(layers: [Pose, number, Float64Array | null][], fallback: Pose, n: number): Pose {
  const acc = accumulator(n);
  for (const [p, w, mask] of layers)
    blendAccumulate(acc.t, acc.r, acc.s, acc.w, p.t, p.r, p.s, W(w), 1, mask, n);
  const out: Pose = { t: new Float64Array(3 * n), r: new Float64Array(4 * n), s: new Float64Array(3 * n) };
  blendFinish(out.t, out.r, out.s, acc.t, acc.r, acc.s, acc.w, fallback.t, fallback.r, fallback.s, n);
  return out;
}

function dot4(a: Arr, b: Arr): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

const N = 8;

describe('blendClear / blendAccumulate / blendFinish', () => {
  it('blendClear zeroes exactly the first n joints of the accumulator', () => {
    const t = new Float64Array(12).fill(1);
    const r = new Float64Array(16).fill(1);
    const s = new Float64Array(12).fill(1);
    const w = new Float64Array(4).fill(1);
    blendClear(t, r, s, w, 3);
    expect(Array.from(t)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
    expect(Array.from(r)).toEqual([...new Array(12).fill(0), 1, 1, 1, 1]);
    expect(Array.from(s)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
    expect(Array.from(w)).toEqual([0, 0, 0, 1]);
  });

  it('one layer of weight 1 reproduces that layer (rotations to rounding)', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const r = rng(seed);
        const a = randomPose(r, N);
        const out = blend([[a, 1, null]], randomPose(r, N), N);
        expectIdentical(out.t, a.t, 't');
        expectIdentical(out.s, a.s, 's');
        expectClose(out.r, a.r, 4.5e-16, 'r');
      }),
      FEW_RUNS,
    );
  });

  it('any single positive weight reproduces the layer too (weights are divided out)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.double({ min: 1e-3, max: 1e3, noNaN: true }), (seed, w) => {
        const r = rng(seed);
        const a = randomPose(r, N);
        const out = blend([[a, w, null]], randomPose(r, N), N);
        expectRelClose(out.t, a.t, 1e-15, 't');
        expectRelClose(out.s, a.s, 1e-15, 's');
        expectClose(out.r, a.r, 1e-15, 'r');
      }),
      FEW_RUNS,
    );
  });

  it('two layers w, 1 − w: weighted average of t and s; rotation = normalize(w a + (1 − w) b′), b′ = ±b toward a', () => {
    fc.assert(
      // (weights below ~1e-300 would underflow the first layer's accumulated rotation, losing the
      // hemisphere: the rotation is still right, its sign is then arbitrary)
      fc.property(fc.integer(), fc.double({ min: 1e-9, max: 1 - 1e-9, noNaN: true }), (seed, w) => {
        const r = rng(seed);
        const a = randomPose(r, N);
        const b = randomPose(r, N);
        const out = blend(
          [
            [a, w, null],
            [b, 1 - w, null],
          ],
          randomPose(r, N),
          N,
        );
        for (let j = 0; j < N; j++) {
          for (const [name, arr, bb, st] of [
            ['t', a.t, b.t, 3],
            ['s', a.s, b.s, 3],
          ] as const) {
            const want = [0, 1, 2].map(
              (c) => (w * arr[st * j + c] + (1 - w) * bb[st * j + c]) / (w + (1 - w)),
            );
            expectRelClose(slice(name === 't' ? out.t : out.s, 3 * j, 3), want, 1e-14, `${name} joint ${j}`);
          }
          const qa = slice(a.r, 4 * j, 4);
          const qb = slice(b.r, 4 * j, 4);
          const sign = dot4(qa, qb) < 0 ? -1 : 1;
          const want = normalize4(qa.map((x, c) => w * x + (1 - w) * sign * qb[c]));
          expectClose(slice(out.r, 4 * j, 4), want, 1e-14, `r joint ${j}`);
        }
      }),
      FEW_RUNS,
    );
  });

  it('a layer holding −q blends exactly like one holding q', () => {
    fc.assert(
      fc.property(fc.integer(), fc.double({ min: 0.01, max: 0.99, noNaN: true }), (seed, w) => {
        const r = rng(seed);
        const a = randomPose(r, N);
        const b = randomPose(r, N);
        const bNeg = copyPose(b);
        for (let i = 0; i < bNeg.r.length; i++) bNeg.r[i] = -bNeg.r[i];
        const fb = randomPose(r, N);
        const one = blend(
          [
            [a, w, null],
            [b, 1 - w, null],
          ],
          fb,
          N,
        );
        const two = blend(
          [
            [a, w, null],
            [bNeg, 1 - w, null],
          ],
          fb,
          N,
        );
        expectIdentical(two.r, one.r, 'rotations');
        // and the blend of q with −q (the same rotation) is q, not a 0/0
        const self = blend(
          [
            [b, w, null],
            [bNeg, 1 - w, null],
          ],
          fb,
          N,
        );
        for (let j = 0; j < N; j++)
          expectSameRotation(slice(self.r, 4 * j, 4), slice(b.r, 4 * j, 4), 1e-15, 'q with −q');
      }),
      FEW_RUNS,
    );
  });

  it('three layers: sums in the hemisphere of what has been accumulated so far', () => {
    const r = rng(31);
    for (let trial = 0; trial < 200; trial++) {
      const layers = [randomPose(r, N), randomPose(r, N), randomPose(r, N)];
      const ws = [uniform(r, 0.1, 1), uniform(r, 0.1, 1), uniform(r, 0.1, 1)];
      const out = blend(
        layers.map((p, i) => [p, ws[i], null] as [Pose, number, null]),
        randomPose(r, N),
        N,
      );
      for (let j = 0; j < N; j++) {
        const acc = [0, 0, 0, 0];
        layers.forEach((p, i) => {
          const q = slice(p.r, 4 * j, 4);
          const sg = dot4(acc, q) < 0 ? -1 : 1;
          for (let c = 0; c < 4; c++) acc[c] += q[c] * ws[i] * sg;
        });
        expectClose(slice(out.r, 4 * j, 4), normalize4(acc), 1e-14, `joint ${j}`);
      }
    }
  });

  it('a mask of 0 on a joint leaves it at the fallback (bit for bit); masks scale the weight', () => {
    const r = rng(32);
    for (let trial = 0; trial < 200; trial++) {
      const a = randomPose(r, N);
      const b = randomPose(r, N);
      const fb = randomPose(r, N);
      const mask = Float64Array.from({ length: N }, (_, j) => (j % 3 === 0 ? 0 : uniform(r, 0.1, 1)));
      // only a masked layer: joints with mask 0 fall back
      const out = blend([[a, 0.7, mask]], fb, N);
      for (let j = 0; j < N; j++) {
        if (mask[j] === 0) {
          expectIdentical(slice(out.t, 3 * j, 3), slice(fb.t, 3 * j, 3), `t joint ${j}`);
          expectIdentical(slice(out.r, 4 * j, 4), slice(fb.r, 4 * j, 4), `r joint ${j}`);
          expectIdentical(slice(out.s, 3 * j, 3), slice(fb.s, 3 * j, 3), `s joint ${j}`);
        } else {
          expectRelClose(slice(out.t, 3 * j, 3), slice(a.t, 3 * j, 3), 1e-15, `t joint ${j}`);
        }
      }
      // a full layer plus a masked layer: masked-out joints are the full layer alone
      const out2 = blend(
        [
          [a, 0.5, null],
          [b, 0.5, mask],
        ],
        fb,
        N,
      );
      for (let j = 0; j < N; j++) {
        const wb = 0.5 * mask[j];
        const want = [0, 1, 2].map((c) => (0.5 * a.t[3 * j + c] + wb * b.t[3 * j + c]) / (0.5 + wb));
        expectRelClose(slice(out2.t, 3 * j, 3), want, 1e-14, `masked t joint ${j}`);
        if (mask[j] === 0)
          expectClose(slice(out2.r, 4 * j, 4), slice(a.r, 4 * j, 4), 4.5e-16, `masked r joint ${j}`);
      }
    }
  });

  it('weight 0 (or negative) contributes nothing; all-zero weights give the fallback', () => {
    const r = rng(33);
    const a = randomPose(r, N);
    const b = randomPose(r, N);
    const fb = randomPose(r, N);
    const out = blend(
      [
        [a, 1, null],
        [b, 0, null],
        [b, -1, null],
      ],
      fb,
      N,
    );
    expectIdentical(out.t, a.t, 't');
    const none = blend(
      [
        [a, 0, null],
        [b, 0, null],
      ],
      fb,
      N,
    );
    expectIdentical(none.t, fb.t, 't');
    expectIdentical(none.r, fb.r, 'r');
    expectIdentical(none.s, fb.s, 's');
  });

  it('blendFinish may write into the fallback arrays', () => {
    const r = rng(34);
    for (let trial = 0; trial < 50; trial++) {
      const a = randomPose(r, N);
      const fb = randomPose(r, N);
      const mask = Float64Array.from({ length: N }, () => (r() < 0.4 ? 0 : 1));
      const expected = blend([[a, 0.3, mask]], fb, N);
      const acc = accumulator(N);
      blendAccumulate(acc.t, acc.r, acc.s, acc.w, a.t, a.r, a.s, W(0.3), 1, mask, N);
      const inPlace = copyPose(fb);
      blendFinish(
        inPlace.t,
        inPlace.r,
        inPlace.s,
        acc.t,
        acc.r,
        acc.s,
        acc.w,
        inPlace.t,
        inPlace.r,
        inPlace.s,
        N,
      );
      expectIdentical(inPlace.t, expected.t, 't');
      expectIdentical(inPlace.r, expected.r, 'r');
      expectIdentical(inPlace.s, expected.s, 's');
    }
  });
});

describe('additiveDelta / additiveApply', () => {
  function delta(pose: Pose, ref: Pose, n: number): Pose {
    const d: Pose = { t: new Float64Array(3 * n), r: new Float64Array(4 * n), s: new Float64Array(3 * n) };
    additiveDelta(d.t, d.r, d.s, pose.t, pose.r, pose.s, ref.t, ref.r, ref.s, n);
    return d;
  }

  it('delta: Δt = t − t_ref, q_ref · Δq = q, s_ref · Δs = s', () => {
    const r = rng(41);
    for (let trial = 0; trial < 300; trial++) {
      const pose = randomPose(r, N);
      const ref = randomPose(r, N);
      const d = delta(pose, ref, N);
      for (let j = 0; j < N; j++) {
        const back = new Float64Array(4);
        quat.multiply(back, 0, ref.r, 4 * j, d.r, 4 * j);
        expectClose(back, slice(pose.r, 4 * j, 4), 1e-15 * 4, `q_ref · Δq, joint ${j}`);
        for (let c = 0; c < 3; c++) {
          expect(d.t[3 * j + c]).toBe(pose.t[3 * j + c] - ref.t[3 * j + c]);
          expect(d.s[3 * j + c]).toBe(pose.s[3 * j + c] / ref.s[3 * j + c]);
        }
      }
    }
  });

  it('a zero reference scale gives Δs = 1 on that axis', () => {
    const r = rng(42);
    const pose = randomPose(r, 2);
    const ref = randomPose(r, 2);
    ref.s.set([0, 2, 0], 0);
    const d = delta(pose, ref, 2);
    expect(d.s[0]).toBe(1);
    expect(d.s[1]).toBe(pose.s[1] / 2);
    expect(d.s[2]).toBe(1);
    expect(Array.from(d.s).every(Number.isFinite)).toBe(true);
  });

  it('apply with weight 1 on the reference pose reproduces the pose', () => {
    const r = rng(43);
    for (let trial = 0; trial < 300; trial++) {
      const pose = randomPose(r, N);
      const ref = randomPose(r, N);
      const d = delta(pose, ref, N);
      const base = copyPose(ref);
      additiveApply(base.t, base.r, base.s, d.t, d.r, d.s, W(1), 1, null, N);
      expectRelClose(base.t, pose.t, 1e-15 * 4, 't');
      expectRelClose(base.s, pose.s, 1e-15 * 4, 's');
      for (let j = 0; j < N; j++) {
        expectSameRotation(slice(base.r, 4 * j, 4), slice(pose.r, 4 * j, 4), 1e-15 * 4, `r joint ${j}`);
      }
    }
  });

  it('apply with weight 1 on any base is base · Δq, t + Δt, s · Δs', () => {
    const r = rng(44);
    for (let trial = 0; trial < 200; trial++) {
      const d = randomPose(r, N); // any unit Δq, any Δt, any Δs
      const base = randomPose(r, N);
      const out = copyPose(base);
      additiveApply(out.t, out.r, out.s, d.t, d.r, d.s, W(1), 1, null, N);
      for (let j = 0; j < N; j++) {
        const q = new Float64Array(4);
        quat.multiply(q, 0, base.r, 4 * j, d.r, 4 * j);
        expectSameRotation(slice(out.r, 4 * j, 4), q, 1e-15 * 4, `r joint ${j}`);
        for (let c = 0; c < 3; c++) {
          expect(out.t[3 * j + c]).toBe(base.t[3 * j + c] + d.t[3 * j + c]);
          expect(out.s[3 * j + c]).toBeCloseTo(base.s[3 * j + c] * d.s[3 * j + c], 13);
        }
      }
    }
  });

  it('weight 0, or a mask of 0, leaves the base untouched bit for bit', () => {
    const r = rng(45);
    for (let trial = 0; trial < 100; trial++) {
      const d = randomPose(r, N);
      const base = randomPose(r, N);
      const out = copyPose(base);
      additiveApply(out.t, out.r, out.s, d.t, d.r, d.s, W(0), 1, null, N);
      expectIdentical(out.t, base.t, 't');
      expectIdentical(out.r, base.r, 'r');
      expectIdentical(out.s, base.s, 's');
      const mask = Float64Array.from({ length: N }, (_, j) => (j % 2 === 0 ? 0 : 1));
      additiveApply(out.t, out.r, out.s, d.t, d.r, d.s, W(1), 1, mask, N);
      for (let j = 0; j < N; j += 2) {
        expectIdentical(slice(out.t, 3 * j, 3), slice(base.t, 3 * j, 3), `t joint ${j}`);
        expectIdentical(slice(out.r, 4 * j, 4), slice(base.r, 4 * j, 4), `r joint ${j}`);
        expectIdentical(slice(out.s, 3 * j, 3), slice(base.s, 3 * j, 3), `s joint ${j}`);
      }
    }
  });

  it('partial weight: t + wΔt, s·(1 + w(Δs − 1)), q · nlerp(identity, Δq, w); Δq and −Δq agree', () => {
    const r = rng(46);
    for (let trial = 0; trial < 200; trial++) {
      const d = randomPose(r, N);
      const base = randomPose(r, N);
      const w = uniform(r, 0.05, 0.95);
      const out = copyPose(base);
      additiveApply(out.t, out.r, out.s, d.t, d.r, d.s, W(w), 1, null, N);
      const neg = copyPose(d);
      for (let i = 0; i < neg.r.length; i++) neg.r[i] = -neg.r[i];
      const outNeg = copyPose(base);
      additiveApply(outNeg.t, outNeg.r, outNeg.s, neg.t, neg.r, neg.s, W(w), 1, null, N);
      for (let j = 0; j < N; j++) {
        const partial = new Float64Array(4);
        quat.nlerp(partial, 0, [0, 0, 0, 1], 0, d.r, 4 * j, w);
        const want = new Float64Array(4);
        quat.multiply(want, 0, base.r, 4 * j, partial, 0);
        expectSameRotation(slice(out.r, 4 * j, 4), want, 1e-15 * 4, `r joint ${j}`);
        expectSameRotation(slice(outNeg.r, 4 * j, 4), want, 1e-15 * 4, `−Δq joint ${j}`);
        for (let c = 0; c < 3; c++) {
          expect(out.t[3 * j + c]).toBeCloseTo(base.t[3 * j + c] + w * d.t[3 * j + c], 13);
          expect(out.s[3 * j + c]).toBeCloseTo(base.s[3 * j + c] * (1 + w * (d.s[3 * j + c] - 1)), 13);
        }
      }
    }
  });
});
