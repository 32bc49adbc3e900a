/**
 * Every shared glTF asset, posed by tendon and by three.js (GLTFLoader, AnimationMixer,
 * SkinnedMesh.applyBoneTransform): model matrices and skinned vertices must agree to 1e-5.
 */
import { AnimationMixer, type Object3D, SkinnedMesh, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import { importGltf } from '../../src/io/gltf.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { skinMesh } from '../../src/skin/skin.js';
import { listAssets, maxRelativeError, readAsset } from '../helpers/assets.js';
import { loadWithThree, useFloat64Tracks } from '../helpers/three-gltf.js';

useFloat64Tracks();

const TIMES = 10;

describe.each(listAssets('gltf'))('%s against three.js', (file) => {
  it('model matrices of every joint at 10 times of every clip agree to 1e-5', async () => {
    const bytes = readAsset('gltf', file);
    const ours = await importGltf(bytes, { source: file });
    const three = await loadWithThree(bytes);
    let compared = 0;
    let worst = 0;
    for (const entry of ours.skeletons) {
      const pose = new Pose(entry.skeleton);
      const model = createModelBuffer(entry.skeleton);
      expect(entry.clips.length).toBeGreaterThan(0);
      for (const clip of entry.clips) {
        const threeClip = three.gltf.animations.find((a) => a.name === clip.name);
        expect(threeClip, `three.js has clip ${clip.name}`).toBeDefined();
        const mixer = new AnimationMixer(three.gltf.scene);
        mixer.clipAction(threeClip!).play();
        const context = new SamplerContext(clip);
        for (let i = 0; i < TIMES; i++) {
          const t = ((i + 0.37) / TIMES) * clip.duration;
          mixer.setTime(t);
          three.gltf.scene.updateMatrixWorld(true);
          pose.resetToRest();
          sampleClip(clip, context, t, pose, 'loop');
          forwardKinematics(pose, model);
          for (let j = 0; j < entry.skeleton.jointCount; j++) {
            const object = three.objectOfNode.get(entry.nodes[j])!;
            const error = maxRelativeError(model.subarray(16 * j, 16 * j + 16), object.matrixWorld.elements);
            expect(error, `${clip.name} t=${t} joint ${entry.skeleton.names[j]}`).toBeLessThanOrEqual(1e-5);
            worst = Math.max(worst, error);
            compared++;
          }
        }
        mixer.stopAllAction();
        mixer.uncacheRoot(three.gltf.scene);
      }
    }
    expect(compared).toBeGreaterThan(0);
    console.log(`${file}: ${compared} joint matrices, max relative error ${worst.toExponential(2)}`);
  });

  it('CPU skinning agrees with SkinnedMesh.applyBoneTransform to 1e-5', async () => {
    const bytes = readAsset('gltf', file);
    const ours = await importGltf(bytes, { source: file });
    const three = await loadWithThree(bytes);
    expect(ours.primitives.length).toBeGreaterThan(0);
    for (const primitive of ours.primitives) {
      const entry = ours.skeletons.find((s) => s.skeleton === primitive.skin.skeleton)!;
      const clip = entry.clips[0];
      const threeClip = three.gltf.animations.find((a) => a.name === clip.name)!;
      const mixer = new AnimationMixer(three.gltf.scene);
      mixer.clipAction(threeClip).play();
      const t = clip.duration * 0.43;
      mixer.setTime(t);
      three.gltf.scene.updateMatrixWorld(true);
      const pose = new Pose(entry.skeleton);
      const model = createModelBuffer(entry.skeleton);
      sampleClip(clip, new SamplerContext(clip), t, pose);
      forwardKinematics(pose, model);
      const palette = primitive.skin.createPalette();
      primitive.skin.computePalette(model, palette);
      const skinned = new Float32Array(primitive.positions.length);
      skinMesh(primitive, palette, skinned);

      const mesh = findSkinnedMesh(three.objectOfNode.get(primitive.node)!, primitive.name);
      const expected = new Float32Array(skinned.length);
      const v = new Vector3();
      const position = mesh.geometry.getAttribute('position');
      for (let i = 0; i < position.count; i++) {
        v.fromBufferAttribute(position, i);
        // applyBoneTransform answers in the mesh's own frame (three then renders with matrixWorld).
        mesh.applyBoneTransform(i, v).applyMatrix4(mesh.matrixWorld);
        expected[3 * i] = v.x;
        expected[3 * i + 1] = v.y;
        expected[3 * i + 2] = v.z;
      }
      expect(maxRelativeError(skinned, expected), primitive.name).toBeLessThanOrEqual(1e-5);
      // The pose really moved the vertices: a test that compares bind poses proves nothing.
      expect(maxRelativeError(skinned, primitive.positions)).toBeGreaterThan(1e-3);
      mixer.uncacheRoot(three.gltf.scene);
    }
  });
});

/** The SkinnedMesh three.js made for `mesh[p]`: the node's object or its p-th child. */
function findSkinnedMesh(object: Object3D, name: string): SkinnedMesh {
  const p = Number(/\[(\d+)\]$/.exec(name)![1]);
  if (object instanceof SkinnedMesh) return object;
  const meshes = object.children.filter((c): c is SkinnedMesh => c instanceof SkinnedMesh);
  return meshes[p];
}
