/**
 * Files built to break an importer (issue 14's findings): each is refused with a typed error naming
 * the file and the object, or read, but never escapes as a bare exception, and never costs time or
 * stack out of proportion to its size.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isTendonError } from '../../src/errors.js';
import { importBvh } from '../../src/io/bvh.js';
import { importGltf } from '../../src/io/gltf.js';
import { assetsDir } from '../helpers/assets.js';

const encode = (json: unknown) => new TextEncoder().encode(JSON.stringify(json));

/** The parts of a glTF's JSON these tests change. */
interface GltfJson {
  accessors: Record<string, unknown>[];
  bufferViews: Record<string, unknown>[];
  buffers: Record<string, unknown>[];
}

describe('glTF', () => {
  const simple = JSON.parse(readFileSync(`${assetsDir}gltf/SimpleSkin.gltf`, 'utf8'));

  it.each([
    ['translation', [1, 2], 'nodes[1].translation is [1, 2], not 3 finite numbers'],
    ['translation', null, 'nodes[1].translation is null'],
    ['rotation', [0, 0, 1], 'nodes[1].rotation is [0, 0, 1], not 4 finite numbers'],
    ['scale', [1, 1, 'x'], 'nodes[1].scale is [1, 1, x]'],
  ])('refuses a node %s of %j with gltf/invalid, naming the node', async (field, value, message) => {
    const json = structuredClone(simple);
    json.nodes[1][field] = value;
    try {
      await importGltf(encode(json), { source: 'bad.gltf' });
      expect.unreachable();
    } catch (error) {
      expect(isTendonError(error, 'gltf/invalid')).toBe(true);
      expect((error as Error).message).toContain('bad.gltf');
      expect((error as Error).message).toContain(message);
    }
  });

  it.each([
    [
      'an accessor claiming 10^9 elements of a 4-byte view',
      (j: GltfJson) => (j.accessors[0].count = 1e9),
      'accessors[0]: 1000000000 elements',
    ],
    [
      'an accessor of no data claiming 10^9 elements',
      (j: GltfJson) => {
        delete j.accessors[0].bufferView;
        j.accessors[0].count = 1e9;
      },
      'out of proportion',
    ],
    [
      'a buffer view past its buffer',
      (j: GltfJson) => (j.bufferViews[0].byteLength = 2 ** 32),
      'does not fit in buffers[0]',
    ],
    [
      'a buffer larger than its data',
      (j: GltfJson) => (j.buffers[0].byteLength = 10 ** 9),
      'declares 1000000000 bytes but its data has',
    ],
    [
      'a sparse accessor claiming 10^9 entries',
      (j: GltfJson) => {
        j.accessors[0].sparse = {
          count: 1e9,
          indices: { bufferView: 0, componentType: 5125 },
          values: { bufferView: 0 },
        };
      },
      'sparse.count is 1000000000',
    ],
  ])('refuses %s before allocating for it (gltf/invalid, naming it)', async (_, mutate, message) => {
    const json = structuredClone(simple);
    mutate(json);
    try {
      await importGltf(encode(json), { source: 'lying.gltf' });
      expect.unreachable();
    } catch (error) {
      expect(isTendonError(error, 'gltf/invalid')).toBe(true);
      expect((error as Error).message).toContain('lying.gltf');
      expect((error as Error).message).toContain(message);
    }
  });

  it('checks a .glb JSON chunk against its binary chunk too', async () => {
    const glb = readFileSync(`${assetsDir}gltf/RobotExpressive.glb`);
    const jsonLength = glb.readUInt32LE(12);
    const json = JSON.parse(glb.subarray(20, 20 + jsonLength).toString('utf8'));
    json.accessors[0].count *= 1000;
    let text = JSON.stringify(json);
    // Keep the chunk's length (pad or fail the test's own assumption).
    expect(text.length).toBeLessThanOrEqual(jsonLength);
    text = text.padEnd(jsonLength, ' ');
    const bytes = new Uint8Array(glb);
    bytes.set(new TextEncoder().encode(text), 20);
    await expect(importGltf(bytes, { source: 'lying.glb' })).rejects.toMatchObject({ code: 'gltf/invalid' });
  });

  it('refuses a triangle index past the vertices (gltf/invalid, naming it)', async () => {
    const json = structuredClone(simple);
    const accessor = json.accessors[json.meshes[0].primitives[0].indices];
    const view = json.bufferViews[accessor.bufferView];
    const uri: string = json.buffers[view.buffer].uri;
    const comma = uri.indexOf(',');
    const data = Buffer.from(uri.slice(comma + 1), 'base64');
    const at = (view.byteOffset ?? 0) + (accessor.byteOffset ?? 0);
    expect(accessor.componentType).toBe(5123);
    data.writeUInt16LE(60_000, at);
    json.buffers[view.buffer].uri = `${uri.slice(0, comma + 1)}${data.toString('base64')}`;
    await expect(importGltf(encode(json), { source: 'index.gltf' })).rejects.toMatchObject({
      code: 'gltf/invalid',
      message: expect.stringContaining('indices[0] is 60000'),
    });
  });

  it('reads a joint nested 100,000 nodes deep (no recursion on the file’s depth)', async () => {
    const n = 100_000;
    const nodes = Array.from({ length: n }, (_, i) =>
      i + 1 < n ? { name: `n${i}`, children: [i + 1] } : { name: `n${i}` },
    );
    const json = {
      asset: { version: '2.0' },
      scene: 0,
      scenes: [{ nodes: [0] }],
      nodes,
      skins: [{ joints: [n - 2, n - 1] }],
    };
    // Past the default limits: refused, naming the limit and the option that raises it.
    await expect(importGltf(encode(json), { source: 'deep.gltf' })).rejects.toMatchObject({
      code: 'gltf/invalid',
      message: expect.stringContaining('options.maxJoints'),
    });
    await expect(importGltf(encode(json), { source: 'deep.gltf', maxJoints: n })).rejects.toMatchObject({
      code: 'gltf/invalid',
      message: expect.stringContaining('1000 deep'),
    });
    const imported = await importGltf(encode(json), { source: 'deep.gltf', maxJoints: n, maxDepth: n });
    const { skeleton } = imported.skeletons[0];
    expect(skeleton.jointCount).toBe(n);
    expect(skeleton.parents[n - 1]).toBe(n - 2);
  });

  it('refuses a skin of more joints than maxJoints before building anything', async () => {
    const n = 50;
    const json = {
      asset: { version: '2.0' },
      nodes: Array.from({ length: n }, (_, i) => ({ name: `j${i}` })),
      skins: [{ name: 'wide', joints: Array.from({ length: n }, (_, i) => i) }],
    };
    await expect(importGltf(encode(json), { source: 'wide.gltf', maxJoints: 49 })).rejects.toMatchObject({
      code: 'gltf/invalid',
      message: expect.stringMatching(/wide\.gltf: skin "wide" has 50 joints, more than 49/),
    });
    expect((await importGltf(encode(json), { maxJoints: 50 })).skeletons[0].skeleton.jointCount).toBe(50);
  });

  it('refuses options of the wrong kind with a TendonError', async () => {
    const bytes = encode(simple);
    for (const options of [
      null,
      3,
      { source: 3 },
      { resources: 3 },
      { resources: { a: 3 } },
      { maxJoints: 0 },
      { maxDepth: 'x' },
    ]) {
      await expect(importGltf(bytes, options as never)).rejects.toMatchObject({ code: 'argument/invalid' });
    }
  });
});

describe('BVH', () => {
  it('names 64,000 End Sites under one joint in order (linear, not quadratic)', () => {
    let text = 'HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Xposition Yposition Zposition\n';
    text += ' JOINT Hips_End3\n {\n  OFFSET 0 1 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n }\n';
    for (let i = 0; i < 64_000; i++) text += ' End Site\n {\n  OFFSET 0 1 0\n }\n';
    text += '}\nMOTION\nFrames: 1\nFrame Time: 0.0333\n0 0 0 0 0 0\n';
    const { skeleton } = importBvh(text, { source: 'many.bvh', maxJoints: 70_000 });
    expect(skeleton.jointCount).toBe(64_002);
    // A real joint already holds Hips_End3: the End Sites skip it.
    expect(skeleton.names.slice(0, 6)).toEqual([
      'Hips',
      'Hips_End3',
      'Hips_End',
      'Hips_End2',
      'Hips_End4',
      'Hips_End5',
    ]);
    expect(new Set(skeleton.names).size).toBe(64_002);
  });

  it('refuses more joints than maxJoints and nesting deeper than maxDepth, as it reads them', () => {
    const many = (count: number) =>
      `HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Xposition Yposition Zposition\n${' End Site\n {\n  OFFSET 0 1 0\n }\n'.repeat(count)}}\nMOTION\nFrames: 1\nFrame Time: 0.0333\n0 0 0\n`;
    expect(() => importBvh(many(10_000), { source: 'many.bvh' })).toThrow(
      /many\.bvh.*more than 10000 joints \(options\.maxJoints/,
    );
    expect(importBvh(many(10_000), { maxJoints: 10_001 }).skeleton.jointCount).toBe(10_001);
    const deep = (depth: number) =>
      `HIERARCHY\nROOT j0\n{\nOFFSET 0 0 0\nCHANNELS 3 Xposition Yposition Zposition\n${'JOINT j\n{\nOFFSET 0 1 0\nCHANNELS 1 Zrotation\n'.replace('JOINT j', 'JOINT j#').repeat(depth - 1)}${'}\n'.repeat(depth)}MOTION\nFrames: 1\nFrame Time: 0.0333\n0 0 0${' 0'.repeat(depth - 1)}\n`;
    const numbered = (depth: number) => {
      let k = 0;
      return deep(depth).replace(/JOINT j#/g, () => `JOINT j${++k}`);
    };
    expect(() => importBvh(numbered(1_001), { source: 'deep.bvh' })).toThrow(
      /deep\.bvh.*nested more than 1000 deep \(options\.maxDepth/,
    );
    expect(importBvh(numbered(1_001), { maxDepth: 1_001 }).skeleton.jointCount).toBe(1_001);
  });

  it('refuses options of the wrong kind with a TendonError', () => {
    const text =
      'HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 1 Xposition\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n0\n';
    for (const options of [
      null,
      3,
      { source: 3 },
      { name: 4 },
      { maxJoints: -1 },
      { maxDepth: Number.NaN },
    ]) {
      expect(() => importBvh(text, options as never)).toThrow(
        expect.objectContaining({ code: 'argument/invalid' }),
      );
    }
  });
});
