import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Clip } from '../../src/animation/clip.js';
import { SamplerContext, sampleClip, sampleClipClock, wrapTime } from '../../src/animation/sampler.js';
import { TendonError } from '../../src/errors.js';
import { importBvh } from '../../src/io/bvh.js';
import { Pose } from '../../src/pose/pose.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';
import { readAsset } from '../helpers/assets.js';

const skeleton = Skeleton.create({ names: ['a', 'b', 'c'], parents: [-1, 0, 1] });
const clip = Clip.create(skeleton, {
  name: 'test',
  tracks: [
    { joint: 1, path: 'translation', times: [0, 1, 2], values: [0, 0, 0, 1, 0, 0, 1, 2, 0] },
    { joint: 2, path: 'rotation', times: [0.5, 1.5], values: [0, 0, 0, 1, 0, 0, 1, 0] },
  ],
});

describe('wrapTime', () => {
  it('loops into [0, duration) and clamps into [0, duration]', () => {
    expect(wrapTime(2.5, 2, 'loop')).toBe(0.5);
    expect(wrapTime(2, 2, 'loop')).toBe(0);
    expect(wrapTime(-0.5, 2, 'loop')).toBe(1.5);
    expect(wrapTime(2.5, 2, 'clamp')).toBe(2);
    expect(wrapTime(-1, 2, 'clamp')).toBe(0);
    expect(wrapTime(5, 0, 'loop')).toBe(0);
  });
});

describe('sampleClip', () => {
  it('interpolates, holds end values outside a track, and leaves unanimated channels alone', () => {
    const pose = new Pose(skeleton);
    pose.translations[0] = 42;
    sampleClip(clip, new SamplerContext(clip), 1.5, pose, 'clamp');
    expect([...pose.translations.subarray(3, 6)]).toEqual([1, 1, 0]);
    expect(pose.translations[0]).toBe(42);
    // The rotation track ends at 1.5: a 180° turn about Z, reached exactly.
    expect([...pose.rotations.subarray(8, 12)]).toEqual([0, 0, 1, 0]);
    sampleClip(clip, new SamplerContext(clip), 0.25, pose, 'clamp');
    expect([...pose.rotations.subarray(8, 12)]).toEqual([0, 0, 0, 1]);
    // Halfway along the 180° arc: a quarter... of a full turn, 90° about Z.
    sampleClip(clip, new SamplerContext(clip), 1, pose, 'clamp');
    expect(pose.rotations[10]).toBeCloseTo(Math.SQRT1_2, 15);
    expect(pose.rotations[11]).toBeCloseTo(Math.SQRT1_2, 15);
  });

  it('gives the same pose with a reused context as with a fresh one, for any sequence of times', () => {
    const bvh = importBvh(new TextDecoder().decode(readAsset('bvh', 'cmu_02_01_walk.bvh')));
    const walk = bvh.clip;
    const context = new SamplerContext(walk);
    const reused = new Pose(bvh.skeleton);
    const fresh = new Pose(bvh.skeleton);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({ min: -1, max: 4, noNaN: true }), fc.constant(walk.duration)), {
          minLength: 1,
          maxLength: 30,
        }),
        fc.constantFrom<'loop' | 'clamp'>('loop', 'clamp'),
        (times, mode) => {
          for (const t of times) {
            sampleClip(walk, context, t, reused, mode);
            sampleClip(walk, new SamplerContext(walk), t, fresh, mode);
            expect(reused.rotations).toEqual(fresh.rotations);
            expect(reused.translations).toEqual(fresh.translations);
          }
        },
      ),
      { seed: 3, numRuns: 200 },
    );
  });

  it('samples forward playback frame by frame like random access', () => {
    const bvh = importBvh(new TextDecoder().decode(readAsset('bvh', 'cmu_02_01_walk.bvh')));
    const context = new SamplerContext(bvh.clip);
    const a = new Pose(bvh.skeleton);
    const b = new Pose(bvh.skeleton);
    for (let frame = 0; frame < 400; frame++) {
      const t = frame / 60;
      sampleClip(bvh.clip, context, t, a);
      sampleClip(bvh.clip, new SamplerContext(bvh.clip), t, b);
      expect(a.rotations).toEqual(b.rotations);
    }
  });

  it('rejects a bad time, a foreign context or pose, and writes nothing', () => {
    const pose = new Pose(skeleton);
    const before = pose.clone();
    const context = new SamplerContext(clip);
    const other = Clip.create(skeleton, { name: 'other', tracks: [] });
    const codes: string[] = [];
    for (const call of [
      () => sampleClip(clip, context, Number.NaN, pose),
      () => sampleClip(clip, context, Number.POSITIVE_INFINITY, pose),
      () => sampleClip(clip, new SamplerContext(other), 0.5, pose),
      () => sampleClip(clip, context, 0.5, new Pose(Skeleton.create({ names: ['x'], parents: [-1] }))),
    ]) {
      try {
        call();
      } catch (error) {
        expect(error).toBeInstanceOf(TendonError);
        codes.push((error as TendonError).code);
      }
    }
    expect(codes).toEqual([
      'animation/invalid-time',
      'animation/invalid-time',
      'animation/context-mismatch',
      'clip/skeleton-mismatch',
    ]);
    expect(pose.translations).toEqual(before.translations);
    expect(pose.rotations).toEqual(before.rotations);
  });
  it('sampleClipClock: the pose sampleClip gives at the time in context.clock, bit for bit; its refusals name it', () => {
    const bvh = importBvh(new TextDecoder().decode(readAsset('bvh', 'cmu_02_01_walk.bvh')));
    const walk = bvh.clip;
    const a = new SamplerContext(walk);
    const b = new SamplerContext(walk);
    const byTime = new Pose(bvh.skeleton);
    const byClock = new Pose(bvh.skeleton);
    for (const mode of ['loop', 'clamp'] as const) {
      for (let frame = -30; frame < 600; frame += 7) {
        const t = frame / 60 + 0.001;
        sampleClip(walk, a, t, byTime, mode);
        b.clock[0] = t;
        sampleClipClock(walk, b, byClock, mode);
        expect(byClock.rotations).toEqual(byTime.rotations);
        expect(byClock.translations).toEqual(byTime.translations);
      }
    }
    const pose = new Pose(skeleton);
    const before = pose.clone();
    const context = new SamplerContext(clip);
    context.clock[0] = Number.NaN;
    expect(() => sampleClipClock(clip, context, pose)).toThrowError(
      expect.objectContaining({
        code: 'animation/invalid-time',
        message: expect.stringContaining('sampleClipClock'),
      }),
    );
    context.clock[0] = 0.5;
    expect(() => sampleClipClock(clip, null as unknown as SamplerContext, pose)).toThrowError(
      expect.objectContaining({ code: 'argument/invalid' }),
    );
    expect(pose.rotations).toEqual(before.rotations);
  });
});
