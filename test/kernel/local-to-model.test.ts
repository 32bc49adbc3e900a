/**
 * Forward kinematics against three.js Object3D hierarchies (position / quaternion / scale,
 * updateMatrixWorld), and partial updates against full recomputes.
 */
import { Object3D } from 'three';
import { describe, expect, it } from 'vitest';
import { localToModel, localToModelAlong } from '../../src/kernel/local-to-model.js';
import * as mat4 from '../../src/kernel/mat4.js';
import * as trs from '../../src/kernel/trs.js';
import {
  expectIdentical,
  expectRelClose,
  randInt,
  randomQuat,
  randomSkeleton,
  rng,
  type Skeleton,
  slice,
  threeHierarchy,
} from './helpers.js';

function fullModel(sk: Skeleton): Float64Array {
  const m = new Float64Array(16 * sk.n);
  localToModel(m, sk.parents, sk.t, sk.r, sk.s, 0, sk.n);
  return m;
}

/** One past the largest index in the subtree of `j` (descendants need not be contiguous). */
function subtreeEnd(parents: Int32Array, j: number): number {
  const inSub = new Uint8Array(parents.length);
  inSub[j] = 1;
  let end = j + 1;
  for (let i = j + 1; i < parents.length; i++) {
    if (parents[i] >= 0 && inSub[parents[i]]) {
      inSub[i] = 1;
      end = i + 1;
    }
  }
  return end;
}

describe('localToModel', () => {
  it('matches three.js matrixWorld on 200 random skeletons to 1e-12 relative', () => {
    const rand = rng(2024);
    for (let trial = 0; trial < 200; trial++) {
      const sk = randomSkeleton(rand, randInt(rand, 1, 40));
      const model = fullModel(sk);
      const nodes = threeHierarchy(sk, () => new Object3D());
      for (let i = 0; i < sk.n; i++) {
        expectRelClose(slice(model, 16 * i, 16), nodes[i].matrixWorld.elements, 1e-12, `joint ${i}`);
      }
    }
  });

  it('equals the product of trs.compose matrices down the chain (M_i = M_parent · T_i)', () => {
    const rand = rng(7);
    for (let trial = 0; trial < 100; trial++) {
      const sk = randomSkeleton(rand, randInt(rand, 1, 30));
      const model = fullModel(sk);
      const ref = new Float64Array(16 * sk.n);
      const local = new Float64Array(16);
      for (let i = 0; i < sk.n; i++) {
        trs.compose(local, 0, sk.t, 3 * i, sk.r, 4 * i, sk.s, 3 * i);
        if (sk.parents[i] < 0) mat4.copy(ref, 16 * i, local, 0);
        else mat4.multiplyAffine(ref, 16 * i, ref, 16 * sk.parents[i], local, 0);
      }
      // the fused kernel does the same arithmetic in the same order
      expectIdentical(model, ref, 'fused vs compose · multiplyAffine');
    }
  });

  it('roots take the identity as parent: a root model matrix is its local matrix', () => {
    const sk = randomSkeleton(rng(3), 5);
    sk.parents.set([-1, 0, -1, 2, -1]);
    const model = fullModel(sk);
    for (const i of [0, 2, 4]) {
      const local = new Float64Array(16);
      trs.compose(local, 0, sk.t, 3 * i, sk.r, 4 * i, sk.s, 3 * i);
      expectIdentical(slice(model, 16 * i, 16), local, `root ${i}`);
    }
  });

  it('partial update of a subtree after a rotation change equals a full recompute, bit for bit', () => {
    const rand = rng(99);
    for (let trial = 0; trial < 200; trial++) {
      const sk = randomSkeleton(rand, randInt(rand, 2, 40));
      const model = fullModel(sk);
      const j = randInt(rand, 0, sk.n - 1);
      sk.r.set(randomQuat(rand), 4 * j);
      const end = subtreeEnd(sk.parents, j);
      const before = model.slice();
      localToModel(model, sk.parents, sk.t, sk.r, sk.s, j, end);
      expectIdentical(model, fullModel(sk), `joint ${j}, range [${j}, ${end})`);
      // nothing before j was touched
      expectIdentical(model.subarray(0, 16 * j), before.subarray(0, 16 * j), 'joints before the range');
    }
  });

  it('writes only the joints in [from, to)', () => {
    const rand = rng(5);
    for (let trial = 0; trial < 50; trial++) {
      const sk = randomSkeleton(rand, randInt(rand, 3, 20));
      const full = fullModel(sk);
      const from = randInt(rand, 0, sk.n - 1);
      const to = randInt(rand, from, sk.n);
      // joints below `from` are up to date (the contract), the rest is garbage
      const model = new Float64Array(16 * sk.n).fill(Number.NaN);
      model.set(full.subarray(0, 16 * from));
      localToModel(model, sk.parents, sk.t, sk.r, sk.s, from, to);
      expectIdentical(model.subarray(0, 16 * to), full.subarray(0, 16 * to), 'range');
      for (let k = 16 * to; k < model.length; k++) expect(model[k]).toBeNaN();
    }
  });

  it('an empty range writes nothing', () => {
    const sk = randomSkeleton(rng(6), 4);
    const model = new Float64Array(64).fill(3);
    localToModel(model, sk.parents, sk.t, sk.r, sk.s, 2, 2);
    expect(model.every((x) => x === 3)).toBe(true);
  });
});

describe('localToModelAlong', () => {
  it('recomputes the path from a joint up to a leaf, bit for bit as a full recompute, and nothing else', () => {
    const rand = rng(17);
    for (let trial = 0; trial < 200; trial++) {
      const sk = randomSkeleton(rand, randInt(rand, 2, 40));
      const model = fullModel(sk);
      // A path: a joint and its ancestors, root first.
      const leaf = randInt(rand, 0, sk.n - 1);
      const chain: number[] = [];
      for (let j = leaf; j >= 0; j = sk.parents[j]) chain.unshift(j);
      const path = Int32Array.from(chain);
      const from = randInt(rand, 0, path.length - 1);
      for (let p = from; p < path.length; p++) sk.r.set(randomQuat(rand), 4 * path[p]);
      const want = fullModel(sk);
      const before = model.slice();
      localToModelAlong(model, sk.parents, sk.t, sk.r, sk.s, path, from);
      const onPath = new Set(chain.slice(from));
      for (let j = 0; j < sk.n; j++) {
        const got = model.subarray(16 * j, 16 * j + 16);
        if (onPath.has(j)) expectIdentical(got, want.subarray(16 * j, 16 * j + 16), `joint ${j} on the path`);
        else expectIdentical(got, before.subarray(16 * j, 16 * j + 16), `joint ${j} off the path`);
      }
    }
  });
});
