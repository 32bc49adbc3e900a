/**
 * glTF import beyond the shared assets: sparse accessors, normalized integer weights, nodes listed
 * child-first, skins without inverse bind matrices, several skins, STEP and CUBICSPLINE (checked
 * against three.js's GLTFLoader and its GLTFCubicSplineInterpolant), and malformed files.
 */
import { Document, Logger, WebIO } from '@gltf-transform/core';
import { AnimationMixer, SkinnedMesh, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import { TendonError } from '../../src/errors.js';
import { type GltfImport, importGltf } from '../../src/io/gltf.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { skinMesh } from '../../src/skin/skin.js';
import { maxRelativeError, readAsset } from '../helpers/assets.js';
import { buildSyntheticGlb, type SyntheticOptions } from '../helpers/synthetic-gltf.js';
import { loadWithThree, useFloat64Tracks } from '../helpers/three-gltf.js';

useFloat64Tracks();

/** Poses both libraries at times before, between, on and after keys; returns the worst errors. */
async function compareWithThree(
  bytes: Uint8Array,
  ours: GltfImport,
): Promise<{ model: number; skin: number }> {
  const three = await loadWithThree(bytes);
  const entry = ours.skeletons[0];
  const clip = entry.clips[0];
  const mixer = new AnimationMixer(three.gltf.scene);
  mixer.clipAction(three.gltf.animations[0]).play();
  const pose = new Pose(entry.skeleton);
  const model = createModelBuffer(entry.skeleton);
  const context = new SamplerContext(clip);
  let worstModel = 0;
  let worstSkin = 0;
  for (const t of [0, 0.1, 0.25, 0.3, 0.5, 0.77, 1, 1.5, 1.999]) {
    mixer.setTime(t);
    three.gltf.scene.updateMatrixWorld(true);
    pose.resetToRest();
    sampleClip(clip, context, t, pose, 'loop');
    forwardKinematics(pose, model);
    for (let j = 0; j < entry.skeleton.jointCount; j++) {
      const object = three.objectOfNode.get(entry.nodes[j])!;
      worstModel = Math.max(
        worstModel,
        maxRelativeError(model.subarray(16 * j, 16 * j + 16), object.matrixWorld.elements),
      );
    }
    const primitive = ours.primitives[0];
    const palette = primitive.skin.createPalette();
    primitive.skin.computePalette(model, palette);
    const skinned = new Float32Array(primitive.positions.length);
    skinMesh(primitive, palette, skinned);
    const mesh = three.objectOfNode.get(primitive.node) as SkinnedMesh;
    expect(mesh).toBeInstanceOf(SkinnedMesh);
    const v = new Vector3();
    const expected: number[] = [];
    for (let i = 0; i < primitive.positions.length / 3; i++) {
      v.fromBufferAttribute(mesh.geometry.getAttribute('position'), i);
      mesh.applyBoneTransform(i, v).applyMatrix4(mesh.matrixWorld);
      expected.push(v.x, v.y, v.z);
    }
    worstSkin = Math.max(worstSkin, maxRelativeError(skinned, expected));
  }
  return { model: worstModel, skin: worstSkin };
}

async function expectGltfError(data: Uint8Array | string, code: string, message: RegExp): Promise<void> {
  try {
    await importGltf(data, { source: 'case.glb' });
  } catch (error) {
    expect(error).toBeInstanceOf(TendonError);
    expect((error as TendonError).code).toBe(code);
    expect((error as TendonError).message).toMatch(/case\.glb/);
    expect((error as TendonError).message).toMatch(message);
    return;
  }
  throw new Error(`expected ${code}`);
}

describe('importGltf on built files', () => {
  const variants: [string, SyntheticOptions][] = [
    ['linear, float weights', {}],
    ['STEP', { interpolation: 'STEP' }],
    ['CUBICSPLINE', { interpolation: 'CUBICSPLINE' }],
    ['sparse rotation output', { sparse: true }],
    ['normalized uint8 weights', { weights: 'uint8' }],
    ['normalized uint16 weights', { weights: 'uint16' }],
    ['nodes listed child-first', { childFirst: true }],
    ['no inverseBindMatrices', { noInverseBind: true }],
  ];
  it.each(variants)('%s: poses and skins like three.js', async (_, options) => {
    const bytes = await buildSyntheticGlb(options);
    const ours = await importGltf(bytes, { source: 'synthetic.glb' });
    const { model, skin } = await compareWithThree(bytes, ours);
    // three.js's cubic-spline path ends in float32 (8e-8 observed); every other path is float64.
    expect(model).toBeLessThan(options.interpolation === 'CUBICSPLINE' ? 1e-6 : 1e-9);
    // three.js renormalizes integer weights and stores them back as integers, quantized again to
    // 1/255 or 1/65535; tendon keeps the renormalized weights as floats.
    const quantum = options.weights === 'uint8' ? 1 / 255 : options.weights === 'uint16' ? 1 / 65535 : 0;
    expect(skin).toBeLessThan(1e-6 + 2 * quantum);
  });

  it('really writes a sparse accessor, and reads it densely', async () => {
    const bytes = await buildSyntheticGlb({ sparse: true });
    const json = await new WebIO().setLogger(new Logger(Logger.Verbosity.SILENT)).binaryToJSON(bytes);
    expect(json.json.accessors!.some((a) => a.sparse !== undefined)).toBe(true);
    const clip = (await importGltf(bytes)).skeletons[0].clips[0];
    const rotation = clip.paths.indexOf(1);
    // Key 2 is (0.5, 0, 0, 0.866): its zeros came from the sparse base, its non-zeros from the values.
    const v = clip.valueOffsets[rotation] + 8;
    expect(clip.values[v]).toBeCloseTo(0.5, 6);
    expect(clip.values[v + 3]).toBeCloseTo(0.8660254, 6);
  });

  it('orders joints parent-first whatever the file order, keeping node indices', async () => {
    const ours = await importGltf(await buildSyntheticGlb({ childFirst: true }));
    const { skeleton, nodes } = ours.skeletons[0];
    expect(skeleton.names).toEqual(['root', 'upper', 'lower']);
    expect([...skeleton.parents]).toEqual([-1, 0, 1]);
    expect([...nodes]).toEqual([2, 1, 0]);
    expect([...ours.skins[0].joints]).toEqual([0, 1, 2]);
  });

  it('renormalizes weights, including normalized integers', async () => {
    for (const weights of ['float', 'uint8', 'uint16'] as const) {
      const primitive = (await importGltf(await buildSyntheticGlb({ weights }))).primitives[0];
      expect(primitive.influences).toBe(4);
      for (let v = 0; v < 4; v++) {
        const sum = primitive.weights.slice(4 * v, 4 * v + 4).reduce((a, b) => a + b, 0);
        expect(sum).toBeCloseTo(1, 6);
      }
      // 0.5 : 0.57 (as stored) keeps its ratio after renormalization.
      const scale = weights === 'uint8' ? 255 : weights === 'uint16' ? 65535 : 0;
      const ratio = scale ? Math.round(0.57 * scale) / Math.round(0.5 * scale) : Math.fround(0.57) / 0.5;
      expect(primitive.weights[5] / primitive.weights[4]).toBeCloseTo(ratio, 6);
    }
  });

  it('gives identity inverse bind matrices when the skin has none', async () => {
    const skin = (await importGltf(await buildSyntheticGlb({ noInverseBind: true }))).skins[0];
    for (let k = 0; k < 3; k++) {
      expect([...skin.inverseBindMatrices.subarray(16 * k, 16 * k + 16)]).toEqual([
        1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
      ]);
    }
  });

  it('imports several skins; skins over the same joints and ancestors share one skeleton', async () => {
    const ours = await importGltf(await buildSyntheticGlb({ secondSkin: true }));
    expect(ours.skins.map((s) => s.name)).toEqual(['arm', 'tip']);
    expect(ours.skinByIndex).toEqual(ours.skins);
    expect(ours.skeletons).toHaveLength(1);
    expect(ours.skins[1].skeleton).toBe(ours.skeletons[0].skeleton);
    expect([...ours.skins[1].joints]).toEqual([2]);
    expect(ours.primitives.map((p) => p.skin.name)).toEqual(['arm', 'tip']);
  });

  it('gives RobotExpressive one skeleton and one palette for its two skins, and reads data: URIs', async () => {
    const robot = await importGltf(readAsset('gltf', 'RobotExpressive.glb'));
    // Hand.L and Hand.R list the same 43 joints with the same inverse bind matrices.
    expect(robot.skinByIndex).toHaveLength(2);
    expect(robot.skinByIndex[0]).toBe(robot.skinByIndex[1]);
    expect(robot.skins).toHaveLength(1);
    expect(robot.skeletons).toHaveLength(1);
    expect(new Set(robot.primitives.map((p) => p.skin)).size).toBe(1);
    expect(robot.skeletons[0].skeleton.indexOf('PoleTarget.L')).toBeGreaterThan(0);
    const simple = await importGltf(readAsset('gltf', 'SimpleSkin.gltf'));
    expect(simple.skeletons[0].skeleton.jointCount).toBe(2);
    const text = new TextDecoder().decode(readAsset('gltf', 'SimpleSkin.gltf'));
    expect((await importGltf(text)).skeletons[0].clips[0].duration).toBeCloseTo(5.5, 6);
  });
});

describe('importGltf on malformed input', () => {
  it('a truncated .glb', async () => {
    const fox = readAsset('gltf', 'Fox.glb');
    await expectGltfError(fox.subarray(0, fox.length >> 1), 'gltf/parse', /truncated/);
    await expectGltfError(fox.subarray(0, 16), 'gltf/parse', /truncated/);
  });

  it('bytes that are neither .glb nor JSON, and JSON that is not glTF', async () => {
    await expectGltfError(new Uint8Array([1, 2, 3, 4, 5]), 'gltf/parse', /not a \.glb/);
    await expectGltfError('{"asset": {"version": "2.0"', 'gltf/parse', /JSON/);
    await expectGltfError('{"nodes": []}', 'gltf/parse', /asset/);
  });

  it('a .gltf whose buffer is missing', async () => {
    const json = JSON.stringify({
      asset: { version: '2.0' },
      scenes: [{ nodes: [0] }],
      nodes: [{ name: 'joint' }],
      skins: [{ joints: [0], inverseBindMatrices: 0 }],
      accessors: [{ bufferView: 0, componentType: 5126, count: 1, type: 'MAT4' }],
      bufferViews: [{ buffer: 0, byteLength: 64 }],
      buffers: [{ uri: 'missing.bin', byteLength: 64 }],
    });
    await expectGltfError(
      json,
      'gltf/parse',
      /buffer 0 is the file "missing\.bin".*options\.resources \(none given\)/,
    );
    // Given under another name: the names given are listed.
    await expect(
      importGltf(json, { source: 'case.gltf', resources: { 'other.bin': new Uint8Array(64) } }),
    ).rejects.toThrow(/case\.gltf: buffer 0 is the file "missing\.bin".*given: "other\.bin"/);
    // A URI that names a property of every object is no resource either.
    await expectGltfError(
      json.replace('missing.bin', 'constructor'),
      'gltf/parse',
      /buffer 0 is the file "constructor"/,
    );
    // Under its own name it is read.
    await expect(
      importGltf(json, { source: 'case.gltf', resources: { 'missing.bin': new Uint8Array(64) } }),
    ).resolves.toBeDefined();
  });

  it('names a repeated node by its index, never taking another joint’s name', async () => {
    // Node 1 a second "A": named A_1 until 27 November, taking the name of node 3, the real A_1,
    // renamed A_1_3 (jointIndex('A_1') was the wrong bone; a hostile test).
    const doc = new Document();
    const root = doc.createNode('Root');
    const second = doc.createNode('A');
    const first = doc.createNode('A');
    const real = doc.createNode('A_1');
    root.addChild(first).addChild(second).addChild(real);
    doc.createScene().addChild(root);
    const skin = doc.createSkin().addJoint(root).addJoint(first).addJoint(second).addJoint(real);
    root.setSkin(skin);
    const bytes = await new WebIO().setLogger(new Logger(Logger.Verbosity.SILENT)).writeBinary(doc);
    const { skeleton } = (await importGltf(bytes)).skeletons[0];
    expect(skeleton.names).toEqual(['Root', 'A', 'A_1_1', 'A_1']);
    expect(skeleton.parents[skeleton.jointIndex('A_1')]).toBe(0);
  });

  it('a file without a skin', async () => {
    const doc = new Document();
    doc.createScene().addChild(doc.createNode('lonely'));
    const bytes = await new WebIO().setLogger(new Logger(Logger.Verbosity.SILENT)).writeBinary(doc);
    await expectGltfError(bytes, 'gltf/no-skin', /no skin/);
  });

  it('a vertex bound to a joint the skin does not have', async () => {
    await expectGltfError(
      await buildSyntheticGlb({ corrupt: 'joint-index' }),
      'gltf/invalid',
      /joint 7.*"arm"/,
    );
  });

  it('key times out of order', async () => {
    await expectGltfError(
      await buildSyntheticGlb({ corrupt: 'times' }),
      'gltf/invalid',
      /"move".*upper.*comes before/,
    );
  });

  it('a rotation channel whose values are not VEC4', async () => {
    await expectGltfError(await buildSyntheticGlb({ corrupt: 'rotation-type' }), 'gltf/invalid', /VEC4/);
  });
});

/** The parts of a glTF's JSON the warning tests change. */
interface EditableGltf {
  scenes: { nodes: number[] }[];
  nodes: { name?: string }[];
  skins: { joints: number[] }[];
  animations: { name?: string; channels: { sampler: number; target: { node: number; path: string } }[] }[];
}

/** SimpleSkin.gltf (node 0 the skinned mesh, nodes 1-2 the joints) as JSON text, edited by `edit`. */
function editedSimpleSkin(edit: (json: EditableGltf) => void): string {
  const json = JSON.parse(new TextDecoder().decode(readAsset('gltf', 'SimpleSkin.gltf')));
  edit(json);
  return JSON.stringify(json);
}

describe('importGltf warnings for what it does not import', () => {
  it('names an animation none of whose channels targets a joint as dropped', async () => {
    const text = editedSimpleSkin((json) => {
      json.nodes[0].name = 'Mesh';
      json.animations[0].channels[0].target.node = 0;
    });
    const ours = await importGltf(text, { source: 'x.gltf' });
    expect(ours.skeletons[0].clips).toEqual([]);
    expect(ours.warnings).toEqual([
      'x.gltf: animation "animation_0" dropped, none of its 1 channel(s) imported: ' +
        'channel 0 (node 0 "Mesh", rotation): not a joint or an ancestor of one',
    ]);
  });

  it('lists the channels left out of an imported animation, with their node and why', async () => {
    const text = editedSimpleSkin((json) => {
      json.animations[0].name = 'wave';
      json.animations[0].channels.push(
        { sampler: 0, target: { node: 0, path: 'rotation' } },
        { sampler: 0, target: { node: 0, path: 'weights' } },
      );
    });
    const ours = await importGltf(text, { source: 'x.gltf' });
    // What is imported is unchanged: the joint's channel, and only it.
    expect(ours.skeletons[0].clips.map((clip) => clip.toRaw().tracks.length)).toEqual([1]);
    expect(ours.warnings).toEqual([
      'x.gltf: animation "wave": 2 of 3 channel(s) not imported: ' +
        'channel 1 (node 0, rotation): not a joint or an ancestor of one; ' +
        'channel 2 (node 0, weights): morph-target weights',
    ]);
  });

  it('gives one short warning for thousands of dropped channels', async () => {
    const text = editedSimpleSkin((json) => {
      for (let k = 0; k < 3000; k++)
        json.animations[0].channels.push({ sampler: 0, target: { node: 0, path: 'scale' } });
    });
    const { warnings } = await importGltf(text, { source: 'x.gltf' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /3000 of 3001 channel\(s\) not imported: channel 1 \(node 0, scale\).*; and 2995 more$/,
    );
    expect(warnings[0].length).toBeLessThan(600);
  });

  it('does not warn about a channel that another skeleton imports', async () => {
    const text = editedSimpleSkin((json) => {
      json.nodes.push({ name: 'other' });
      json.scenes[0].nodes.push(3);
      json.skins.push({ joints: [3] });
      json.animations[0].channels.push({ sampler: 0, target: { node: 3, path: 'rotation' } });
    });
    const ours = await importGltf(text, { source: 'x.gltf' });
    expect(ours.skeletons).toHaveLength(2);
    expect(ours.skeletons.map((entry) => entry.clips.map((clip) => clip.toRaw().tracks.length))).toEqual([
      [1],
      [1],
    ]);
    expect(ours.warnings).toEqual([]);
  });

  it("names RobotExpressive's face morph-weight channels, one warning per animation", async () => {
    const robot = await importGltf(readAsset('gltf', 'RobotExpressive.glb'), { source: 'robot.glb' });
    expect(robot.skeletons[0].clips).toHaveLength(14);
    expect(robot.warnings.length).toBeGreaterThan(0);
    expect(robot.warnings.length).toBeLessThanOrEqual(14);
    for (const warning of robot.warnings) {
      expect(warning).toMatch(
        /^robot\.glb: animation "\w+": 1 of \d+ channel\(s\) not imported: channel 0 \(node 13 "Head", weights\): morph-target weights$/,
      );
    }
  });
});
