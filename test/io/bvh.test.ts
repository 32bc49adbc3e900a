/**
 * BVH import: every shared asset against the facts of its LICENSES entry and against three.js's
 * BVHLoader (the reference this importer follows), a hand-computed small file, and one test per
 * kind of malformed input.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AnimationMixer, Euler, Group, KeyframeTrack, Quaternion } from 'three';
import { BVHLoader } from 'three/examples/jsm/loaders/BVHLoader.js';
import { describe, expect, it } from 'vitest';
import type { RawTrack } from '../../src/animation/clip.js';
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import { isTendonError, type TendonErrorCode } from '../../src/errors.js';
import { type BvhImport, importBvh } from '../../src/io/bvh.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';

// three.js keeps keyframes in Float32Array by default, which rounds times and values to 7 digits;
// in float64 the comparison measures the conventions (composition order, offsets, interpolation).
KeyframeTrack.prototype.TimeBufferType = Float64Array;
KeyframeTrack.prototype.ValueBufferType = Float64Array;

const ASSETS = new URL('../../../shared/assets/bvh/', import.meta.url);
const readAsset = (file: string): string => readFileSync(new URL(file, ASSETS), 'utf8');
const assetFiles = readdirSync(fileURLToPath(ASSETS))
  .filter((f) => f.endsWith('.bvh'))
  .sort();

/** From ../shared/assets/LICENSES.md (counted there by another parser). */
const FACTS: Record<string, { joints: number; endSites: number; frames: number; frameTime: number }> = {
  'cmu_02_01_walk.bvh': { joints: 31, endSites: 7, frames: 343, frameTime: 0.008333 },
  'cmu_131_01_start_walk_stop.bvh': { joints: 31, endSites: 7, frames: 994, frameTime: 0.0083333 },
  'cmu_run_jog_daz_filtered.bvh': { joints: 19, endSites: 5, frames: 174, frameTime: 0.008333 },
  'cmu_01_03_climb_ladder_hang.bvh': { joints: 31, endSites: 7, frames: 4511, frameTime: 0.0083333 },
  'pirouette.bvh': { joints: 43, endSites: 14, frames: 592, frameTime: 0.00833333 },
};

const TIMES = 10;
const TOLERANCE = 1e-5;

/** End Sites are the joints named after their parent (the importer's `<parent>_End` rule). */
function endSiteCount(result: BvhImport): number {
  const { names, parents } = result.skeleton;
  return names.filter((name, j) => parents[j] >= 0 && name.startsWith(`${names[parents[j]]}_End`)).length;
}

/**
 * Poses the file with tendon and with three.js at 10 times between keys and returns the largest
 * difference of any model-matrix element, relative to max(1, |three's|). Our import uses `scale`;
 * three's translations are multiplied by it before comparing.
 */
function compareWithThree(text: string, source: string, scale: number): { worst: number; where: string } {
  const ours = importBvh(text, { source, scale });
  const three = new BVHLoader().parse(text);
  const bones = three.skeleton.bones;
  expect(bones.length).toBe(ours.skeleton.jointCount);
  expect(three.clip.duration).toBeCloseTo(ours.clip.duration, 12);
  const group = new Group();
  group.add(bones[0]);
  const mixer = new AnimationMixer(group);
  mixer.clipAction(three.clip).play();
  const pose = new Pose(ours.skeleton);
  const model = createModelBuffer(ours.skeleton);
  const context = new SamplerContext(ours.clip);
  let worst = 0;
  let where = '';
  for (let i = 0; i < TIMES; i++) {
    // Strictly inside [0, duration): three's LoopRepeat wraps there, our 'clamp' holds.
    const t = ((i + 0.37) / TIMES) * ours.clip.duration;
    sampleClip(ours.clip, context, t, pose, 'clamp');
    forwardKinematics(pose, model);
    mixer.setTime(t);
    group.updateMatrixWorld(true);
    for (let j = 0; j < bones.length; j++) {
      const e = bones[j].matrixWorld.elements;
      for (let k = 0; k < 16; k++) {
        const b = k >= 12 && k < 15 ? e[k] * scale : e[k];
        const error = Math.abs(model[16 * j + k] - b) / Math.max(1, Math.abs(b));
        if (!(error <= worst)) {
          worst = error;
          where = `t=${t.toFixed(4)} joint ${j} (${ours.skeleton.names[j]}) element ${k}`;
        }
      }
    }
  }
  return { worst, where };
}

describe('importBvh on the shared assets', () => {
  it('finds the five assets the facts describe', () => {
    expect(assetFiles).toEqual(Object.keys(FACTS).sort());
  });

  describe.each(assetFiles)('%s', (file) => {
    const text = readAsset(file);
    const facts = FACTS[file];

    it('has the joints, End Sites, frames and frame time of the facts', () => {
      const result = importBvh(text, { source: file });
      expect(result.skeleton.jointCount).toBe(facts.joints + facts.endSites);
      expect(endSiteCount(result)).toBe(facts.endSites);
      expect(result.frameCount).toBe(facts.frames);
      expect(result.frameTime).toBe(facts.frameTime);
      expect(result.clip.name).toBe(file);
      expect(result.clip.duration).toBeCloseTo((facts.frames - 1) * facts.frameTime, 12);
      // One rotation track per joint (every joint here has rotation channels), one translation
      // track for the 6-channel root.
      expect(result.clip.trackCount).toBe(facts.joints + 1);
      expect(result.clip.keyCounts.every((count) => count === facts.frames)).toBe(true);
    });

    it('keeps three.js bone order, names and rest offsets', () => {
      const ours = importBvh(text, { source: file });
      const bones = new BVHLoader().parse(text).skeleton.bones;
      expect(bones.length).toBe(ours.skeleton.jointCount);
      for (let j = 0; j < bones.length; j++) {
        const name = ours.skeleton.names[j];
        expect(
          bones[j].name === 'ENDSITE'
            ? `${ours.skeleton.names[ours.skeleton.parents[j]]}_End`
            : bones[j].name,
        ).toBe(name);
        const parentBone = bones[j].parent;
        const p = ours.skeleton.parents[j];
        expect(p < 0 ? parentBone : bones.indexOf(parentBone as (typeof bones)[number])).toBe(
          p < 0 ? null : p,
        );
        // Compared as numbers: three's `0 + OFFSET` turns the files' "-0.00000" into +0.
        const rest = Array.from(ours.skeleton.restTranslations.subarray(3 * j, 3 * j + 3), (v) => v + 0);
        expect(rest).toEqual(bones[j].position.toArray());
      }
    });

    it('poses every joint like three.js at 10 times between keys, to 1e-5', () => {
      const { worst, where } = compareWithThree(text, file, 1);
      expect(worst, `worst at ${where}`).toBeLessThanOrEqual(TOLERANCE);
    });

    it('with scale 0.01, has three.js translations × 0.01', () => {
      const { worst, where } = compareWithThree(text, file, 0.01);
      expect(worst, `worst at ${where}`).toBeLessThanOrEqual(TOLERANCE);
    });
  });
});

/** Lines of a small file: a 6-channel root in Z X Y order and a joint in Y X Z order. */
const TINY_LINES = [
  'HIERARCHY', // 1
  'ROOT Hips', // 2
  '{', // 3
  '  OFFSET 1 2 3', // 4
  '  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation', // 5
  '  JOINT Spine', // 6
  '  {', // 7
  '    OFFSET 0 5 0', // 8
  '    CHANNELS 3 Yrotation Xrotation Zrotation', // 9
  '    End Site', // 10
  '    {', // 11
  '      OFFSET 0 3 0', // 12
  '    }', // 13
  '  }', // 14
  '}', // 15
  'MOTION', // 16
  'Frames: 4', // 17
  'Frame Time: 0.5', // 18
  '0.5 1 -2 30 45 60 10 -20 170', // 19
  '1 2 3 -30 15 -120 -5 40 -170', // 20
  '0 0 0 0 0 0 0 0 0', // 21
  '-1.5 .25 2e-1 179 -89 181 90 90 90', // 22
];
const TINY = `${TINY_LINES.join('\n')}\n`;

/** TINY with its lines changed by `edit` (line n is index n − 1). */
function tiny(edit: (lines: string[]) => void): string {
  const lines = TINY_LINES.slice();
  edit(lines);
  return `${lines.join('\n')}\n`;
}

function track(result: BvhImport, joint: string, path: RawTrack['path']): RawTrack | undefined {
  const j = result.skeleton.indexOf(joint);
  return result.clip.toRaw().tracks.find((t) => t.joint === j && t.path === path);
}

/** three.js's Euler with the channel order as its order: `q(c1) · q(c2) · q(c3)`, built there. */
function eulerQuaternion(order: 'ZXY' | 'YXZ', degrees: Record<'X' | 'Y' | 'Z', number>): number[] {
  const rad = Math.PI / 180;
  const euler = new Euler(degrees.X * rad, degrees.Y * rad, degrees.Z * rad, order);
  return new Quaternion().setFromEuler(euler).toArray();
}

describe('importBvh on a hand-written file', () => {
  const frames = TINY_LINES.slice(18).map((line) => line.split(' ').map(Number));

  it('builds the skeleton in file order with the End Site as a leaf', () => {
    const result = importBvh(TINY, { source: 'tiny.bvh', scale: 2 });
    expect(result.skeleton.names).toEqual(['Hips', 'Spine', 'Spine_End']);
    expect(Array.from(result.skeleton.parents)).toEqual([-1, 0, 1]);
    expect(Array.from(result.skeleton.restTranslations)).toEqual([2, 4, 6, 0, 10, 0, 0, 6, 0]);
    expect(Array.from(result.skeleton.restRotations)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(result.frameCount).toBe(4);
    expect(result.frameTime).toBe(0.5);
    expect(result.clip.duration).toBe(1.5);
    expect(result.clip.name).toBe('tiny.bvh');
    expect(importBvh(TINY, { source: 'tiny.bvh', name: 'walk' }).clip.name).toBe('walk');
    expect(importBvh(TINY).clip.name).toBe('bvh');
  });

  it('has translation keys OFFSET + channels at frame × frameTime, no track for a fixed offset', () => {
    const result = importBvh(TINY, { scale: 0.5 });
    const translation = track(result, 'Hips', 'translation')!;
    expect(Array.from(translation.times)).toEqual([0, 0.5, 1, 1.5]);
    const expected = frames.flatMap((v) => [(1 + v[0]) * 0.5, (2 + v[1]) * 0.5, (3 + v[2]) * 0.5]);
    expect(Array.from(translation.values)).toEqual(expected);
    expect(track(result, 'Spine', 'translation')).toBeUndefined();
    expect(track(result, 'Spine_End', 'rotation')).toBeUndefined();
    expect(result.clip.trackCount).toBe(3);
  });

  it('composes rotations q(c1)·q(c2)·q(c3) in channel order, sign-continuous between keys', () => {
    const result = importBvh(TINY);
    let flips = 0;
    for (const [joint, order, columns] of [
      ['Hips', 'ZXY', [3, 4, 5]],
      ['Spine', 'YXZ', [6, 7, 8]],
    ] as const) {
      const values = track(result, joint, 'rotation')!.values;
      for (let f = 0; f < frames.length; f++) {
        const v = frames[f];
        const degrees = { X: 0, Y: 0, Z: 0 };
        for (let c = 0; c < 3; c++) degrees[order[c] as 'X' | 'Y' | 'Z'] = v[columns[c]];
        const expected = eulerQuaternion(order, degrees);
        const key = Array.from(values).slice(4 * f, 4 * f + 4);
        const sign = key.reduce((sum, x, k) => sum + x * expected[k], 0) < 0 ? -1 : 1;
        if (sign < 0) flips++;
        for (let k = 0; k < 4; k++) expect(key[k]).toBeCloseTo(sign * expected[k], 14);
        if (f > 0) {
          const previous = Array.from(values).slice(4 * f - 4, 4 * f);
          expect(key.reduce((sum, x, k) => sum + x * previous[k], 0)).toBeGreaterThanOrEqual(0);
        }
      }
    }
    // The frames were chosen so that continuity has to negate some keys.
    expect(flips).toBeGreaterThan(0);
  });

  it('agrees with the axis-angle product and with three.js between keys', () => {
    const result = importBvh(TINY);
    const values = track(result, 'Spine', 'rotation')!.values;
    const v = frames[1];
    const axis = (x: number, y: number, z: number, degrees: number) =>
      new Quaternion().setFromAxisAngle({ x, y, z } as never, (degrees * Math.PI) / 180);
    const expected = axis(0, 1, 0, v[6])
      .multiply(axis(1, 0, 0, v[7]))
      .multiply(axis(0, 0, 1, v[8]))
      .toArray();
    const key = Array.from(values).slice(4, 8);
    const sign = key.reduce((sum, x, k) => sum + x * expected[k], 0) < 0 ? -1 : 1;
    for (let k = 0; k < 4; k++) expect(key[k]).toBeCloseTo(sign * expected[k], 14);
    const { worst, where } = compareWithThree(TINY, 'tiny.bvh', 1);
    expect(worst, where).toBeLessThanOrEqual(1e-12);
  });

  it('reads CRLF, LF and CR mixed in one file, tabs and trailing blank lines', () => {
    const endings = ['\r\n', '\n', '\r'];
    const mixed = TINY_LINES.map(
      (line, i) => line.replaceAll(' ', i % 2 ? '\t' : ' \t ') + endings[i % 3],
    ).join('');
    const a = importBvh(mixed);
    const b = importBvh(TINY);
    expect(a.skeleton.names).toEqual(b.skeleton.names);
    expect(a.clip.values).toEqual(b.clip.values);
    expect(a.clip.times).toEqual(b.clip.times);
    expect(importBvh(`${TINY}\n\r\n  \t\n\r`).frameCount).toBe(4);
    // Line numbers count every kind of line break.
    const broken = tiny((lines) => {
      lines[19] = '1 2 3 -30 15 -120 -5 40';
    });
    const brokenMixed = broken
      .split('\n')
      .map((line, i) => line + endings[i % 3])
      .join('');
    expectBvhError(brokenMixed, 'bvh/missing-values', 'line 20', 'frame 2 has 8 values');
  });

  it('accepts a forest, braces on the name line, lower-case keywords, and names End Sites uniquely', () => {
    const text = [
      'HIERARCHY',
      'ROOT A {',
      '  OFFSET 0 0 0',
      '  CHANNELS 3 xrotation YROTATION Zrotation',
      '  end site { OFFSET 1 0 0 }',
      '  End Site',
      '  {',
      '    OFFSET 2 0 0',
      '  }',
      '}',
      'root A_End',
      '{',
      '  OFFSET 5 0 0',
      '  CHANNELS 1 Yposition',
      '}',
      'MOTION',
      'Frames:\t2',
      'Frame Time:\t0.25',
      '0 0 90 7',
      '0 90 0 8',
    ].join('\n');
    const result = importBvh(text);
    expect(result.skeleton.names).toEqual(['A', 'A_End2', 'A_End3', 'A_End']);
    expect(Array.from(result.skeleton.parents)).toEqual([-1, 0, 0, -1]);
    expect(Array.from(track(result, 'A_End', 'translation')!.values)).toEqual([5, 7, 0, 5, 8, 0]);
    const values = track(result, 'A', 'rotation')!.values;
    expect(values[2]).toBeCloseTo(Math.SQRT1_2, 15);
    expect(values[5]).toBeCloseTo(Math.SQRT1_2, 15);
  });

  it('accepts joints with zero channels and channels in any count', () => {
    const text = [
      'HIERARCHY',
      'ROOT R',
      '{',
      '  OFFSET 0 1 0',
      '  CHANNELS 0',
      '  JOINT J',
      '  {',
      '    OFFSET 0 1 0',
      '    CHANNELS 2 Zposition Xrotation',
      '  }',
      '}',
      'MOTION',
      'Frames: 1',
      'Frame Time: 0.1',
      '4 180',
    ].join('\r');
    const result = importBvh(text);
    expect(result.clip.duration).toBe(0);
    expect(track(result, 'R', 'rotation')).toBeUndefined();
    expect(Array.from(track(result, 'J', 'translation')!.values)).toEqual([0, 1, 4]);
    const q = Array.from(track(result, 'J', 'rotation')!.values);
    expect(q[0]).toBeCloseTo(1, 15);
    expect(Math.abs(q[3])).toBeLessThan(1e-15);
  });
});

/** Runs the import, expecting a TendonError of `code` whose message names the source and `parts`. */
function expectBvhError(text: unknown, code: TendonErrorCode, ...parts: string[]): string {
  let caught: unknown;
  try {
    importBvh(text as string, { source: 'tiny.bvh' });
  } catch (error) {
    caught = error;
  }
  expect(isTendonError(caught, code), `expected ${code}, got ${String(caught)}`).toBe(true);
  const message = (caught as Error).message;
  expect(message).toContain('"tiny.bvh"');
  for (const part of parts) expect(message).toContain(part);
  return message;
}

describe('importBvh on malformed input', () => {
  it('the tiny file itself is valid', () => {
    expect(importBvh(TINY).frameCount).toBe(4);
  });

  it('rejects an empty file and a missing HIERARCHY', () => {
    expectBvhError('', 'bvh/parse', 'empty', 'HIERARCHY');
    expectBvhError(
      tiny((l) => l.shift()),
      'bvh/parse',
      'line 1',
      'expected HIERARCHY',
      '"ROOT"',
    );
  });

  it('rejects a missing MOTION', () => {
    expectBvhError(TINY_LINES.slice(0, 15).join('\n'), 'bvh/parse', 'line 15', 'expected a MOTION section');
    expectBvhError(
      tiny((l) => {
        l[15] = 'MOTIONS';
      }),
      'bvh/parse',
      'line 16',
      'unknown keyword "MOTIONS"',
    );
  });

  it('rejects an unknown keyword', () => {
    expectBvhError(
      tiny((l) => {
        l[7] = '    OFSET 0 5 0';
      }),
      'bvh/parse',
      'line 8',
      'unknown keyword "OFSET" in JOINT "Spine"',
    );
    expectBvhError(
      tiny((l) => {
        l[1] = 'JOINT Hips';
      }),
      'bvh/parse',
      'line 2',
      'unknown keyword "JOINT"; expected ROOT',
    );
  });

  it('rejects unbalanced braces', () => {
    expectBvhError(
      tiny((l) => l.splice(13, 1)),
      'bvh/parse',
      'line 15',
      '"MOTION" inside ROOT "Hips" (opened at line 2): unbalanced braces',
    );
    expectBvhError(
      tiny((l) => l.splice(15, 0, '}')),
      'bvh/parse',
      'line 16',
      "'}' without a matching '{'",
    );
    expectBvhError(
      tiny((l) => l.splice(6, 1)),
      'bvh/parse',
      'line 7',
      'expected \'{\' after JOINT "Spine" (line 6), found "OFFSET"',
    );
    expectBvhError(
      tiny((l) => l.splice(7, 0, '{')),
      'bvh/parse',
      'line 8',
      '"{" inside JOINT "Spine"',
    );
  });

  it('rejects a file truncated mid-hierarchy', () => {
    expectBvhError(
      TINY_LINES.slice(0, 9).join('\n'),
      'bvh/parse',
      'line 9',
      'the file ends inside JOINT "Spine" (opened at line 6)',
    );
    expectBvhError(
      TINY.slice(0, TINY.indexOf('End Site') + 3),
      'bvh/parse',
      'line 10',
      'expected "End Site"',
    );
  });

  it('rejects a bad channel name', () => {
    expectBvhError(
      tiny((l) => {
        l[8] = '    CHANNELS 3 Yrotation Wrotation Zrotation';
      }),
      'bvh/parse',
      'line 9',
      'unknown channel "Wrotation" in JOINT "Spine"',
    );
  });

  it('rejects a CHANNELS count that does not match its names', () => {
    expectBvhError(
      tiny((l) => {
        l[8] = '    CHANNELS 3 Yrotation Xrotation';
      }),
      'bvh/parse',
      'line 9',
      'CHANNELS of JOINT "Spine" declares 3 channels but lists 2 names',
    );
    expectBvhError(
      tiny((l) => {
        l[8] = '    CHANNELS three Yrotation Xrotation Zrotation';
      }),
      'bvh/parse',
      'line 9',
      'count "three" is not a non-negative integer',
    );
  });

  it('rejects an OFFSET with missing or non-numeric values, or none at all', () => {
    expectBvhError(
      tiny((l) => {
        l[7] = '    OFFSET 0 5';
      }),
      'bvh/parse',
      'line 8',
      'OFFSET of JOINT "Spine" needs 3 numbers, found 2',
    );
    expectBvhError(
      tiny((l) => {
        l[11] = '      OFFSET 0 three 0';
      }),
      'bvh/parse',
      'line 12',
      'OFFSET of the End Site of "Spine": Y value "three" is not a number',
    );
    expectBvhError(
      tiny((l) => l.splice(7, 1)),
      'bvh/parse',
      'line 13',
      'JOINT "Spine" has no OFFSET',
    );
    expectBvhError(
      tiny((l) => l.splice(8, 1)),
      'bvh/parse',
      'line 13',
      'JOINT "Spine" has no CHANNELS',
    );
  });

  it('rejects CHANNELS or JOINT inside an End Site, and duplicate joint names', () => {
    expectBvhError(
      tiny((l) => l.splice(11, 0, 'CHANNELS 1 Xrotation')),
      'bvh/parse',
      'line 12',
      'an End Site holds only an OFFSET',
    );
    expectBvhError(
      tiny((l) => {
        l[5] = '  JOINT Hips';
      }),
      'bvh/parse',
      'line 6',
      'JOINT "Hips" has the same name as the joint at line 2',
    );
  });

  it('rejects a missing or invalid Frames:', () => {
    expectBvhError(
      tiny((l) => l.splice(16, 1)),
      'bvh/frame-count',
      'line 17',
      'expected "Frames: <count>" after MOTION',
    );
    for (const bad of ['-1', '2.5', 'abc', '']) {
      expectBvhError(
        tiny((l) => {
          l[16] = `Frames: ${bad}`;
        }),
        'bvh/frame-count',
        'line 17',
        `Frames: "${bad}" is not a non-negative integer`,
      );
    }
    expectBvhError(TINY_LINES.slice(0, 16).join('\n'), 'bvh/frame-count', 'line 16', 'ends after MOTION');
  });

  it('rejects zero frames', () => {
    expectBvhError(
      tiny((l) => {
        l[16] = 'Frames: 0';
        l.splice(18);
      }),
      'bvh/frame-count',
      'line 17',
      'at least one frame',
    );
  });

  it('rejects a missing or invalid Frame Time:', () => {
    expectBvhError(
      tiny((l) => l.splice(17, 1)),
      'bvh/parse',
      'line 18',
      'expected "Frame Time: <seconds>"',
    );
    for (const bad of ['abc', '0', '-0.5', '1e999', '0x10']) {
      expectBvhError(
        tiny((l) => {
          l[17] = `Frame Time: ${bad}`;
        }),
        'bvh/parse',
        'line 18',
        `Frame Time: "${bad}" is not a positive number`,
      );
    }
  });

  it('rejects a frame line with fewer or more values than channels', () => {
    expectBvhError(
      tiny((l) => {
        l[19] = '1 2 3 -30 15 -120 -5 40';
      }),
      'bvh/missing-values',
      'line 20',
      'frame 2 has 8 values; the hierarchy declares 9 channels',
    );
    expectBvhError(
      tiny((l) => {
        l[20] += ' 1';
      }),
      'bvh/missing-values',
      'line 21',
      'frame 3 has 10 values',
    );
  });

  it('rejects frame values that are not finite decimal numbers', () => {
    for (const bad of ['abc', 'NaN', '1e999', '-Infinity', '0x10', '1.2.3', '--1']) {
      expectBvhError(
        tiny((l) => {
          l[20] = `0 0 0 0 ${bad} 0 0 0 0`;
        }),
        'bvh/not-finite',
        'line 21',
        `frame 3, value 5 (Hips Xrotation) is "${bad}"`,
      );
    }
    expectBvhError(
      tiny((l) => {
        l[18] = '0 0 0 0 0 0 0 0 x';
      }),
      'bvh/not-finite',
      'line 19',
      'Spine Zrotation',
    );
  });

  it('rejects fewer or more frame lines than Frames: declares', () => {
    expectBvhError(
      tiny((l) => {
        l[16] = 'Frames: 5';
      }),
      'bvh/frame-count',
      'line 17',
      '"Frames: 5" but 4 frame lines follow',
    );
    expectBvhError(
      tiny((l) => {
        l[16] = 'Frames: 3';
      }),
      'bvh/frame-count',
      'line 17',
      'the first extra frame is line 22',
    );
  });

  it('rejects text that is not a string and an invalid scale', () => {
    expectBvhError(42, 'bvh/parse', 'string');
    for (const scale of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      let caught: unknown;
      try {
        importBvh(TINY, { source: 'tiny.bvh', scale });
      } catch (error) {
        caught = error;
      }
      expect(isTendonError(caught, 'bvh/parse')).toBe(true);
      expect((caught as Error).message).toContain('options.scale');
    }
  });

  it('never throws anything but a bvh/ TendonError on truncated or corrupted files', () => {
    const outcomes = new Set<string>();
    const attempt = (text: string) => {
      try {
        importBvh(text);
        outcomes.add('ok');
      } catch (error) {
        if (!isTendonError(error) || !error.code.startsWith('bvh/')) throw error;
        outcomes.add(error.code);
      }
    };
    for (let end = 0; end <= TINY.length; end++) attempt(TINY.slice(0, end));
    for (let i = 0; i < TINY.length; i++) {
      for (const c of ['x', '{', '}', ' ', '\n', '-', '.', 'e', '9'])
        attempt(TINY.slice(0, i) + c + TINY.slice(i + 1));
    }
    // Every kind of fault came up, so the loop did exercise each path.
    expect([...outcomes].sort()).toEqual([
      'bvh/frame-count',
      'bvh/missing-values',
      'bvh/not-finite',
      'bvh/parse',
      'ok',
    ]);
  });
});
