import { describe, expect, it } from 'vitest';
import { TendonError } from '../../src/errors.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';
import { Skin, skinMesh } from '../../src/skin/skin.js';

const bone = Skeleton.create({
  names: ['root', 'tip'],
  parents: [-1, 0],
  restTranslations: [0, 0, 0, 0, 1, 0],
});
const skin = new Skin(bone, { joints: [0, 1] });
const model = createModelBuffer(bone);
forwardKinematics(new Pose(bone), model);
const palette = skin.createPalette();
skin.computePalette(model, palette);

const mesh = (weights: number[]) => ({
  positions: new Float32Array([1, 2, 3, 4, 5, 6]),
  normals: new Float32Array([0, 1, 0, 0, 1, 0]),
  joints: new Uint16Array([0, 1, 0, 0, 0, 1, 0, 0]),
  weights: new Float32Array(weights),
  influences: 4,
});

describe('skinMesh', () => {
  it('refuses a NaN, infinite or negative weight with skin/not-finite naming the vertex, writing nothing', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0.5]) {
      const positionsOut = new Float32Array(6).fill(7);
      const normalsOut = new Float32Array(6).fill(7);
      try {
        // Vertex 1's second influence is bad; vertex 0 is fine and must not be written either.
        skinMesh(mesh([1, 0, 0, 0, 0.5, bad, 0, 0]), palette, positionsOut, normalsOut);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(TendonError);
        expect((error as TendonError).code).toBe('skin/not-finite');
        expect((error as TendonError).message).toContain('vertex 1 ');
      }
      expect(positionsOut.every((v) => v === 7)).toBe(true);
      expect(normalsOut.every((v) => v === 7)).toBe(true);
    }
  });

  it('still skins valid weights, zero and unnormalized ones included', () => {
    const out = new Float32Array(6);
    const normalsOut = new Float32Array(6);
    skinMesh(mesh([0.25, 0.25, 0, 0, 0, 0, 0, 0]), palette, out, normalsOut);
    // Vertex 0: half root (identity), half tip (1 up), the weights 0.25 renormalized to 0.5; vertex
    // 1 has no weight and keeps its bind position.
    expect(Array.from(out)).toEqual([1, 2.5, 3, 4, 5, 6]);
    expect(Array.from(normalsOut)).toEqual([0, 1, 0, 0, 1, 0]);
  });

  it('skins weights whose sum leaves the doubles as their ratios say, and refuses what it cannot read (a hostile test)', () => {
    // Until 27 November 1e308 twice gave NaN, 5e-324 Infinity; a joint of -1, a palette of 20
    // numbers and normals for two vertices of one wrote NaN without a word.
    const one = (weights: number[], joints = [0, 1, 0, 0]) => ({
      positions: new Float64Array([1, 2, 3]),
      joints: new Int32Array(joints),
      weights: new Float64Array(weights),
      influences: 4,
    });
    const half = new Float64Array(3);
    skinMesh(one([1, 1, 0, 0]), palette, half);
    for (const w of [1e308, 1e-320, 5e-324]) {
      const out = new Float64Array(3);
      skinMesh(one([w, w, 0, 0]), palette, out);
      expect(Array.from(out), `${w}`).toEqual(Array.from(half));
    }
    const refuses = (call: () => void, code: string) =>
      expect(call).toThrow(expect.objectContaining({ code }));
    refuses(
      () => skinMesh(one([0.5, 0.5, 0, 0], [-1, 1, 0, 0]), palette, new Float64Array(3)),
      'skin/joint-out-of-range',
    );
    refuses(
      () => skinMesh(one([1, 0, 0, 0]), palette.subarray(0, 20), new Float64Array(3)),
      'skin/array-size',
    );
    refuses(
      () =>
        skinMesh(
          { ...one([1, 0, 0, 0]), normals: new Float64Array(6) },
          palette,
          new Float64Array(3),
          new Float64Array(6),
        ),
      'skin/array-size',
    );
  });
});
