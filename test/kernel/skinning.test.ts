/** skinVertices: linear-blend skinning with renormalized weights, against a gl-matrix reference. */
import { vec3 as gv } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { type JointIndexArray, skinVertices } from '../../src/kernel/skinning.js';
import * as trs from '../../src/kernel/trs.js';
import {
  expectClose,
  expectIdentical,
  expectRelClose,
  randInt,
  randomQuat,
  randomScale,
  randomUnitVec3,
  randomVec3,
  rng,
  uniform,
} from './helpers.js';

function randomPalette(r: () => number, k: number): Float64Array {
  const p = new Float64Array(16 * k);
  for (let j = 0; j < k; j++)
    trs.compose(p, 16 * j, randomVec3(r, 3), 0, randomQuat(r), 0, randomScale(r), 0);
  return p;
}

interface Mesh {
  positions: Float64Array;
  joints: Uint16Array;
  weights: Float64Array;
}

function randomMesh(r: () => number, count: number, influences: number, k: number): Mesh {
  const positions = new Float64Array(3 * count);
  const joints = new Uint16Array(influences * count);
  const weights = new Float64Array(influences * count);
  for (let v = 0; v < count; v++) {
    positions.set(randomVec3(r, 2), 3 * v);
    let any = false;
    for (let i = 0; i < influences; i++) {
      joints[v * influences + i] = randInt(r, 0, k - 1);
      // unnormalized weights, some exactly zero
      const w = r() < 0.3 ? 0 : uniform(r, 0.01, 1);
      weights[v * influences + i] = w;
      any ||= w > 0;
    }
    if (!any) weights[v * influences] = 0.5;
  }
  return { positions, joints, weights };
}

/** Σ w_k P_k v / Σ w_k, with gl-matrix doing the transforms (w = 1 for points, 0 for directions). */
function reference(
  mesh: Mesh,
  influences: number,
  palette: Float64Array,
  isDirection: boolean,
): Float64Array {
  const count = mesh.positions.length / 3;
  const out = new Float64Array(3 * count);
  for (let v = 0; v < count; v++) {
    const p = mesh.positions.subarray(3 * v, 3 * v + 3);
    const acc = [0, 0, 0];
    let total = 0;
    for (let i = 0; i < influences; i++) {
      const w = mesh.weights[v * influences + i];
      if (w === 0) continue;
      const m = palette.slice(
        16 * mesh.joints[v * influences + i],
        16 * mesh.joints[v * influences + i] + 16,
      );
      if (isDirection) m.fill(0, 12, 15);
      const q = gv.transformMat4(new Float64Array(3), p, m);
      for (let c = 0; c < 3; c++) acc[c] += w * q[c];
      total += w;
    }
    const res = total === 0 ? Array.from(p) : acc.map((x) => x / total);
    out.set(isDirection && total !== 0 ? gv.normalize(new Float64Array(3), res) : res, 3 * v);
  }
  return out;
}

describe('skinVertices', () => {
  it('points: Σ w P v / Σ w for unnormalized weights, 1, 4 and 8 influences', () => {
    const r = rng(11);
    for (const influences of [1, 4, 8]) {
      for (let trial = 0; trial < 40; trial++) {
        const k = randInt(r, 1, 10);
        const palette = randomPalette(r, k);
        const mesh = randomMesh(r, 50, influences, k);
        const out = new Float64Array(mesh.positions.length);
        skinVertices(out, mesh.positions, mesh.joints, mesh.weights, influences, palette, false);
        expectRelClose(out, reference(mesh, influences, palette, false), 1e-13, `influences ${influences}`);
      }
    }
  });

  it('weights (0.5, 0.57) transform exactly like (0.5/1.07, 0.57/1.07)', () => {
    const r = rng(12);
    for (let trial = 0; trial < 100; trial++) {
      const palette = randomPalette(r, 2);
      const positions = Float64Array.from(randomVec3(r, 2));
      const joints = new Uint8Array([0, 1, 0, 0]);
      const raw = new Float64Array([0.5, 0.57, 0, 0]);
      const normalized = new Float64Array([0.5 / 1.07, 0.57 / 1.07, 0, 0]);
      const a = new Float64Array(3);
      const b = new Float64Array(3);
      skinVertices(a, positions, joints, raw, 4, palette, false);
      skinVertices(b, positions, joints, normalized, 4, palette, false);
      expectRelClose(a, b, 1e-14, 'renormalized');
      // and not like the raw weights, which would scale the point by 1.07
      const unnorm = [0, 1, 2].map((c) => 1.07 * b[c]);
      expect(Math.max(...[0, 1, 2].map((c) => Math.abs(a[c] - unnorm[c])))).toBeGreaterThan(1e-3);
    }
  });

  it('all-zero weights keep the bind position (and direction) bit for bit', () => {
    const r = rng(13);
    const palette = randomPalette(r, 3);
    const positions = new Float64Array([1.5, -2.25, 3.125, 0.1, 0.2, 0.3]);
    const joints = new Uint8Array([0, 1, 2, 0, 1, 2, 0, 0]);
    const weights = new Float64Array([0, 0, 0, 0, 0.2, 0.3, 0, 0]);
    const out = new Float64Array(6).fill(Number.NaN);
    skinVertices(out, positions, joints, weights, 4, palette, false);
    expectIdentical(out.subarray(0, 3), [1.5, -2.25, 3.125], 'point');
    skinVertices(out, positions, joints, weights, 4, palette, true);
    expectIdentical(out.subarray(0, 3), [1.5, -2.25, 3.125], 'direction');
  });

  it('directions ignore translation, come out unit length and match the reference', () => {
    const r = rng(14);
    for (let trial = 0; trial < 60; trial++) {
      const k = randInt(r, 1, 8);
      const palette = randomPalette(r, k);
      const mesh = randomMesh(r, 40, 4, k);
      for (let v = 0; v < 40; v++) mesh.positions.set(randomUnitVec3(r), 3 * v);
      const out = new Float64Array(mesh.positions.length);
      skinVertices(out, mesh.positions, mesh.joints, mesh.weights, 4, palette, true);
      expectClose(out, reference(mesh, 4, palette, true), 1e-12, 'directions');
      for (let v = 0; v < 40; v++) {
        expect(Math.abs(Math.hypot(out[3 * v], out[3 * v + 1], out[3 * v + 2]) - 1)).toBeLessThan(1e-15);
      }
      // moving every joint's translation changes nothing
      const moved = palette.slice();
      for (let j = 0; j < k; j++) moved.set(randomVec3(r, 100), 16 * j + 12);
      const out2 = new Float64Array(mesh.positions.length);
      skinVertices(out2, mesh.positions, mesh.joints, mesh.weights, 4, moved, true);
      expectIdentical(out2, out, 'translation-independent');
    }
  });

  it('out may be positions itself', () => {
    const r = rng(15);
    for (const isDirection of [false, true]) {
      const palette = randomPalette(r, 5);
      const mesh = randomMesh(r, 100, 4, 5);
      const expected = new Float64Array(mesh.positions.length);
      skinVertices(expected, mesh.positions, mesh.joints, mesh.weights, 4, palette, isDirection);
      const inPlace = mesh.positions.slice();
      skinVertices(inPlace, inPlace, mesh.joints, mesh.weights, 4, palette, isDirection);
      expectIdentical(inPlace, expected, `in place, isDirection=${isDirection}`);
    }
  });

  it('accepts every joint index array type and float32 data', () => {
    const r = rng(16);
    const palette = randomPalette(r, 6);
    const mesh = randomMesh(r, 30, 4, 6);
    const expected = new Float64Array(mesh.positions.length);
    skinVertices(expected, mesh.positions, mesh.joints, mesh.weights, 4, palette, false);
    const types: JointIndexArray[] = [
      Uint8Array.from(mesh.joints),
      Uint32Array.from(mesh.joints),
      Int32Array.from(mesh.joints),
    ];
    for (const joints of types) {
      const out = new Float64Array(mesh.positions.length);
      skinVertices(out, mesh.positions, joints, mesh.weights, 4, palette, false);
      expectIdentical(out, expected, joints.constructor.name);
    }
    // float32 in, float32 out: the same as the double computation on the float32 values, rounded
    const p32 = Float32Array.from(mesh.positions);
    const w32 = Float32Array.from(mesh.weights);
    const pal32 = Float32Array.from(palette);
    const out32 = new Float32Array(mesh.positions.length);
    skinVertices(out32, p32, mesh.joints, w32, 4, pal32, false);
    const out64 = new Float64Array(mesh.positions.length);
    skinVertices(
      out64,
      Float64Array.from(p32),
      mesh.joints,
      Float64Array.from(w32),
      4,
      Float64Array.from(pal32),
      false,
    );
    expectIdentical(out32, Float32Array.from(out64), 'float32');
    expectRelClose(out32, expected, 1e-5, 'float32 close to float64');
  });

  it('a vertex bound to one joint with weight 1 is exactly P v', () => {
    const r = rng(17);
    const palette = randomPalette(r, 4);
    for (let j = 0; j < 4; j++) {
      const p = Float64Array.from(randomVec3(r, 3));
      const out = new Float64Array(3);
      skinVertices(out, p, new Uint8Array([j]), new Float64Array([1]), 1, palette, false);
      expectClose(
        out,
        gv.transformMat4(new Float64Array(3), p, palette.subarray(16 * j, 16 * j + 16)),
        1e-14,
      );
    }
  });
});
