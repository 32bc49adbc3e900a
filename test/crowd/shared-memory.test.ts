/**
 * The pieces a worker builds its view from: a crowd and a two-bone batch on one SharedArrayBuffer
 * (`shared: true`) and their views (`fromBuffer`: the same memory, nothing written, the wrong size
 * refused), and a clip rebuilt from its table (`Clip.fromTable`: the same numbers, no rotation
 * normalized again; a table out of range refused).
 */
import { describe, expect, it } from 'vitest';
import { Clip } from '../../src/animation/clip.js';
import { isTendonError, type TendonErrorCode } from '../../src/errors.js';
import { AimBatch } from '../../src/ik/aim-batch.js';
import { TwoBoneBatch, type TwoBoneBatchLimb } from '../../src/ik/two-bone-batch.js';
import { Crowd } from '../../src/pose/crowd.js';
import { robot } from '../placement/characters.js';

const { skeleton, rig, clips } = await robot();
const limbs: TwoBoneBatchLimb[] = rig.legs.map((leg) => ({
  root: leg.root,
  middle: leg.middle,
  endLocal: leg.endLocal as [number, number, number],
}));

describe('shared crowds', () => {
  it('a shared crowd is the plain one on a SharedArrayBuffer; fromBuffer views it without writing', () => {
    const plain = new Crowd(skeleton, 5);
    const shared = new Crowd(skeleton, 5, { shared: true });
    expect(shared.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(plain.buffer).not.toBeInstanceOf(SharedArrayBuffer);
    expect(shared.model).toEqual(plain.model);
    expect(shared.parents).toEqual(plain.parents);
    shared.times[3] = 1.25;
    const before = new Uint8Array(shared.buffer).slice();
    const view = Crowd.fromBuffer(skeleton, 5, shared.buffer);
    expect(new Uint8Array(shared.buffer)).toEqual(before);
    expect(view.times[3]).toBe(1.25);
    view.rotations[7] = 0.5;
    expect(shared.rotations[7]).toBe(0.5);
    expect(view.clipOf(0)).toBeNull();
    expect(() => Crowd.fromBuffer(skeleton, 6, shared.buffer)).toThrow(
      expect.objectContaining({ code: 'pose/buffer-size' }),
    );
  });

  it('a shared batch holds its settings, memory and results; fromBuffer views them', () => {
    const plain = new TwoBoneBatch(skeleton, limbs, 4);
    const shared = new TwoBoneBatch(skeleton, limbs, 4, { shared: true });
    expect(shared.buffer).toBeInstanceOf(SharedArrayBuffer);
    shared.settings.forEach((s, i) => {
      expect(s).toEqual(plain.settings[i]);
    });
    expect(shared.legs).toEqual(plain.legs);
    expect(shared.limbOptions).toEqual(limbs);
    const view = TwoBoneBatch.fromBuffer(skeleton, limbs, 4, shared.buffer);
    view.targets[2] = 3;
    expect(shared.targets[2]).toBe(3);
    expect(view.settings[5]).toEqual(shared.settings[5]);
    expect(() => TwoBoneBatch.fromBuffer(skeleton, limbs, 3, shared.buffer)).toThrow(
      expect.objectContaining({ code: 'pose/buffer-size' }),
    );
  });

  it('refuses a buffer that is not one, options that are not an object and a pose that is not one, by TendonError', () => {
    const expectRefused = (call: () => unknown, code: TendonErrorCode, text: RegExp) => {
      let error: unknown;
      try {
        call();
      } catch (e) {
        error = e;
      }
      expect(isTendonError(error, code), String(error)).toBe(true);
      expect(String(error)).toMatch(text);
    };
    const aim = [{ joint: 'Head', forward: [0, 0, 1] as [number, number, number] }];
    // A null was no buffer to adopt: a fresh, unshared crowd came back, the caller none the wiser.
    for (const buffer of [null, undefined, new Float64Array(8), 64]) {
      const b = buffer as unknown as ArrayBuffer;
      expectRefused(
        () => Crowd.fromBuffer(skeleton, 2, b),
        'pose/buffer-size',
        /Crowd\.fromBuffer: the buffer is/,
      );
      expectRefused(
        () => TwoBoneBatch.fromBuffer(skeleton, limbs, 2, b),
        'pose/buffer-size',
        /TwoBoneBatch\.fromBuffer: the buffer is/,
      );
      expectRefused(
        () => AimBatch.fromBuffer(skeleton, aim, 2, b),
        'pose/buffer-size',
        /AimBatch\.fromBuffer/,
      );
    }
    // The next constructor still allocates its own memory (nothing left adopted).
    expect(new Crowd(skeleton, 2).buffer.byteLength).toBe(new Crowd(skeleton, 2).buffer.byteLength);
    for (const options of [null, 3, 'shared']) {
      const o = options as unknown as { shared?: boolean };
      expectRefused(() => new Crowd(skeleton, 2, o), 'argument/invalid', /new Crowd: options/);
      expectRefused(
        () => new TwoBoneBatch(skeleton, limbs, 2, o),
        'argument/invalid',
        /new TwoBoneBatch: options/,
      );
      expectRefused(() => new AimBatch(skeleton, aim, 2, o), 'argument/invalid', /new AimBatch: options/);
    }
    const batch = new TwoBoneBatch(skeleton, limbs, 2);
    const aims = new AimBatch(skeleton, aim, 2);
    for (const pose of [null, undefined, 7]) {
      const p = pose as unknown as Crowd;
      expectRefused(() => batch.solve(p), 'argument/invalid', /TwoBoneBatch\.solve: the pose is/);
      expectRefused(() => aims.solve(p), 'argument/invalid', /AimBatch\.solve: the pose is/);
    }
    // An object without the buffers: their size, not a TypeError.
    expectRefused(() => batch.solve({} as Crowd), 'pose/buffer-size', /TwoBoneBatch\.solve/);
  });

  it('Clip.fromTable rebuilds a clip with the same numbers and refuses a table out of range', () => {
    for (const clip of clips.values()) {
      const copy = Clip.fromTable(skeleton, clip.name, clip.duration, {
        trackCount: clip.trackCount,
        targets: clip.targets.slice(),
        paths: clip.paths.slice(),
        interpolations: clip.interpolations.slice(),
        timeOffsets: clip.timeOffsets.slice(),
        keyCounts: clip.keyCounts.slice(),
        valueOffsets: clip.valueOffsets.slice(),
        times: clip.times.slice(),
        values: clip.values.slice(),
      });
      expect(copy.values).toEqual(clip.values);
      expect(copy.duration).toBe(clip.duration);
    }
    const clip = [...clips.values()][0];
    const table = { ...clip, targets: clip.targets.map(() => skeleton.jointCount) };
    expect(() => Clip.fromTable(skeleton, 'bad', 1, table)).toThrow(
      expect.objectContaining({ code: 'clip/invalid-track' }),
    );
    expect(() => Clip.fromTable(skeleton, 'bad', 1, { ...clip, values: new Float64Array(1) })).toThrow(
      expect.objectContaining({ code: 'clip/array-size' }),
    );
    expect(() => Clip.fromTable(skeleton, 'bad', Number.NaN, clip)).toThrow(
      expect.objectContaining({ code: 'clip/not-finite' }),
    );
  });
});
