import { describe, expect, it } from 'vitest';
import { Clip, type RawTrack } from '../../src/animation/clip.js';
import { TendonError } from '../../src/errors.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';

const skeleton = Skeleton.create({ names: ['hip', 'knee'], parents: [-1, 0] });

function expectClipError(tracks: RawTrack[], code: string, message: RegExp): void {
  try {
    Clip.create(skeleton, { name: 'bad', tracks });
  } catch (error) {
    expect(error).toBeInstanceOf(TendonError);
    expect((error as TendonError).code).toBe(code);
    expect((error as TendonError).message).toMatch(/Clip "bad"/);
    expect((error as TendonError).message).toMatch(message);
    return;
  }
  throw new Error(`expected ${code}`);
}

describe('Clip.create', () => {
  it('packs tracks flat, resolves names, normalizes rotation keys and takes the last key as duration', () => {
    const clip = Clip.create(skeleton, {
      name: 'walk',
      tracks: [
        { joint: 'knee', path: 'rotation', times: [0, 0.5], values: [0, 0, 0, 2, 0, 0, 1, 1] },
        { joint: 0, path: 'translation', interpolation: 'STEP', times: [0.25], values: [1, 2, 3] },
      ],
    });
    expect(clip.duration).toBe(0.5);
    expect(clip.trackCount).toBe(2);
    expect([...clip.targets]).toEqual([1, 0]);
    expect([...clip.values.subarray(0, 4)]).toEqual([0, 0, 0, 1]);
    expect(clip.values[6]).toBeCloseTo(Math.SQRT1_2, 15);
    expect([...clip.times]).toEqual([0, 0.5, 0.25]);
    const raw = clip.toRaw();
    const rebuilt = Clip.create(skeleton, raw).values;
    // Renormalizing a unit quaternion may move it by an ulp, no more.
    for (let i = 0; i < rebuilt.length; i++)
      expect(Math.abs(rebuilt[i] - clip.values[i])).toBeLessThan(1e-15);
    expect(Clip.create(skeleton, { tracks: [], duration: 2 }).duration).toBe(2);
  });

  it('rejects bad tracks with typed errors naming the clip, joint and path', () => {
    expectClipError(
      [{ joint: 'ankle', path: 'rotation', times: [0], values: [0, 0, 0, 1] }],
      'clip/invalid-track',
      /"ankle"/,
    );
    expectClipError(
      [{ joint: 5, path: 'rotation', times: [0], values: [0, 0, 0, 1] }],
      'clip/invalid-track',
      /joint 5/,
    );
    expectClipError(
      [{ joint: 0, path: 'weights' as 'scale', times: [0], values: [1, 1, 1] }],
      'clip/invalid-track',
      /unknown path/,
    );
    expectClipError(
      [{ joint: 0, path: 'scale', interpolation: 'SMOOTH' as 'STEP', times: [0], values: [1, 1, 1] }],
      'clip/invalid-track',
      /interpolation/,
    );
    expectClipError(
      [
        { joint: 0, path: 'scale', times: [0], values: [1, 1, 1] },
        { joint: 'hip', path: 'scale', times: [0], values: [1, 1, 1] },
      ],
      'clip/invalid-track',
      /second track/,
    );
    expectClipError(
      [{ joint: 0, path: 'scale', times: [], values: [] }],
      'clip/invalid-track',
      /at least one key/,
    );
    expectClipError(
      [{ joint: 1, path: 'rotation', times: [0, 1], values: [0, 0, 0, 1] }],
      'clip/array-size',
      /knee\.rotation.*4 values for 2 keys; expected 8/,
    );
    expectClipError(
      [{ joint: 1, path: 'rotation', interpolation: 'CUBICSPLINE', times: [0], values: [0, 0, 0, 1] }],
      'clip/array-size',
      /expected 12/,
    );
    expectClipError(
      [{ joint: 0, path: 'translation', times: [0, 2, 1], values: new Array(9).fill(0) }],
      'clip/times-not-increasing',
      /key 2 at 1 s/,
    );
    expectClipError(
      [{ joint: 0, path: 'translation', times: [0, Number.NaN], values: new Array(6).fill(0) }],
      'clip/not-finite',
      /time 1/,
    );
    expectClipError(
      [{ joint: 0, path: 'translation', times: [0], values: [0, Number.POSITIVE_INFINITY, 0] }],
      'clip/not-finite',
      /value 1/,
    );
    expectClipError(
      [{ joint: 1, path: 'rotation', times: [0], values: [0, 0, 0, 0] }],
      'clip/not-finite',
      /zero quaternion/,
    );
  });
});
