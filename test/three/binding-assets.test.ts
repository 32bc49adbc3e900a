/**
 * Every shared glTF asset binds to three's GLTFLoader result both ways: with the skeleton
 * bindThreeSkeleton builds, and with importGltf's (whose unnamed nodes are `node_<index>` while
 * three leaves them unnamed). Either way the palette tendon writes equals three's own.
 */
import {
  AnimationMixer,
  Bone,
  BufferGeometry,
  Group,
  MeshBasicMaterial,
  Object3D,
  SkinnedMesh,
  Skeleton as ThreeSkeleton,
} from 'three';
import { describe, expect, it } from 'vitest';
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import { importGltf } from '../../src/io/gltf.js';
import { forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';
import { bindThreeSkeleton } from '../../src/three/index.js';
import { listAssets, maxRelativeError, readAsset } from '../helpers/assets.js';
import { loadWithThree } from '../helpers/three-gltf.js';

const TIMES = [0, 0.13, 0.52, 0.97];

function firstSkeleton(scene: { traverse(f: (o: object) => void): void }) {
  let found: SkinnedMesh | undefined;
  scene.traverse((o) => {
    if (found === undefined && (o as SkinnedMesh).isSkinnedMesh) found = o as SkinnedMesh;
  });
  return found!.skeleton;
}

describe.each(listAssets('gltf'))('bindThreeSkeleton on %s', (file) => {
  it('without a skeleton: Mode 2 palette equals three’s under its first clip', async () => {
    const { gltf } = await loadWithThree(readAsset('gltf', file));
    const binding = bindThreeSkeleton(gltf.scene);
    const mixer = new AnimationMixer(gltf.scene);
    if (gltf.animations.length > 0) mixer.clipAction(gltf.animations[0]).play();
    let worst = 0;
    for (const time of TIMES) {
      mixer.setTime(time);
      binding.readFromThree();
      forwardKinematics(binding.pose, binding.model);
      binding.writeBoneMatrices();
      const ours = binding.threeSkeletons.map((k) => Float32Array.from(k.boneMatrices!));
      gltf.scene.updateMatrixWorld(true);
      for (const [i, k] of binding.threeSkeletons.entries()) {
        k.update();
        worst = Math.max(worst, maxRelativeError(ours[i], k.boneMatrices!));
      }
    }
    expect(worst).toBeLessThanOrEqual(1e-5);
  });

  it('with importGltf’s skeleton: every joint found, tendon’s sampled palette equals three’s mixer', async () => {
    const bytes = readAsset('gltf', file);
    const imported = (await importGltf(bytes, { source: file })).skeletons[0];
    const { gltf } = await loadWithThree(bytes);
    const binding = bindThreeSkeleton(gltf.scene, { skeleton: imported.skeleton }).useTendonPalette();
    expect(binding.skeleton).toBe(imported.skeleton);
    // The object of each joint is the node importGltf read for it.
    const other = await loadWithThree(bytes);
    const again = bindThreeSkeleton(other.gltf.scene, { skeleton: imported.skeleton });
    const nodeOfObject = new Map([...other.objectOfNode].map(([node, object]) => [object, node]));
    again.objects.forEach((o, j) => {
      expect(nodeOfObject.get(o)).toBe(imported.nodes[j]);
    });
    const mixer = new AnimationMixer(other.gltf.scene);
    const clip = imported.clips[0];
    if (clip !== undefined) {
      mixer.clipAction(other.gltf.animations.find((a) => a.name === clip.name)!).play();
    }
    const theirs = firstSkeleton(other.gltf.scene);
    const context = clip === undefined ? undefined : new SamplerContext(clip);
    let worst = 0;
    for (const time of TIMES) {
      if (clip !== undefined && context !== undefined) sampleClip(clip, context, time, binding.pose, 'loop');
      forwardKinematics(binding.pose, binding.model);
      binding.writeBoneMatrices();
      mixer.setTime(time);
      other.gltf.scene.updateMatrixWorld(true);
      theirs.update();
      worst = Math.max(
        worst,
        maxRelativeError(binding.threeSkeletons[0].boneMatrices!, theirs.boneMatrices!),
      );
    }
    expect(worst).toBeLessThanOrEqual(1e-5);
  });
});

/**
 * A scene as GLTFLoader makes one: an armature holding bones of these glTF names (kept in
 * `userData.name`), each 1 m further along +X, bound to a skinned mesh.
 */
function bonesNamed(names: string[]) {
  const armature = new Object3D();
  const bones = names.map((name, k) => {
    const bone = new Bone();
    bone.userData.name = name;
    bone.name = name;
    bone.position.x = k + 1;
    return bone;
  });
  armature.add(...bones);
  const mesh = new SkinnedMesh(new BufferGeometry(), new MeshBasicMaterial());
  mesh.bind(new ThreeSkeleton(bones));
  const scene = new Group();
  scene.add(armature, mesh);
  return { scene, armature, bones };
}

describe('bindThreeSkeleton with a given skeleton, where names differ from three’s', () => {
  it('matches unnamed nodes and repeated names by place, and refuses a named stranger', () => {
    // As GLTFLoader makes them: an unnamed armature, two nodes named "arm" (three renames the
    // second "arm_1" and keeps "arm" in userData.name), one unnamed bone.
    const armature = new Object3D();
    const arm = new Bone();
    arm.name = 'arm';
    arm.userData.name = 'arm';
    const second = new Bone();
    second.name = 'arm_1';
    second.userData.name = 'arm';
    const unnamed = new Bone();
    armature.add(arm, second, unnamed);
    const mesh = new SkinnedMesh(new BufferGeometry(), new MeshBasicMaterial());
    mesh.bind(new ThreeSkeleton([arm, second, unnamed]));
    const scene = new Group();
    scene.add(armature, mesh);
    // importGltf's names for the same nodes: node index for the unnamed, `_<index>` for the repeat.
    const given = Skeleton.create({ names: ['node_0', 'arm', 'arm_2', 'node_3'], parents: [-1, 0, 0, 0] });
    const binding = bindThreeSkeleton(scene, { skeleton: given });
    expect(binding.objects).toEqual([armature, arm, second, unnamed]);
    const stranger = Skeleton.create({ names: ['node_0', 'arm', 'leg_2', 'node_3'], parents: [-1, 0, 0, 0] });
    expect(() => bindThreeSkeleton(scene, { skeleton: stranger })).toThrow(
      /joint "leg_2" that three does not/,
    );
  });

  it('matches repeated names by place even where the suffixes collide', () => {
    // Three bones named "Arm" under Hips, the file's nodes 2, 4 and 3 in that order: importGltf
    // calls them Arm, Arm_4, Arm_3 (node indices), the binding Arm, Arm_3, Arm_4 (joint indices).
    // Until 27 November "Arm_3" was looked up among the binding's names and bound to the other
    // arm: the two arms swapped, no error (a hostile test).
    const armature = new Object3D();
    const hips = new Bone();
    hips.name = 'Hips';
    const arms = [1, 3, 2].map((x, k) => {
      const bone = new Bone();
      bone.name = k === 0 ? 'Arm' : `Arm_${k}`;
      bone.userData.name = 'Arm';
      bone.position.x = x;
      return bone;
    });
    armature.add(hips);
    hips.add(...arms);
    const mesh = new SkinnedMesh(new BufferGeometry(), new MeshBasicMaterial());
    mesh.bind(new ThreeSkeleton([hips, ...arms]));
    const scene = new Group();
    scene.add(armature, mesh);
    expect(bindThreeSkeleton(scene).skeleton.names).toEqual(['joint_0', 'Hips', 'Arm', 'Arm_3', 'Arm_4']);
    const given = Skeleton.create({
      names: ['node_0', 'Hips', 'Arm', 'Arm_4', 'Arm_3'],
      parents: [-1, 0, 1, 1, 1],
    });
    expect(bindThreeSkeleton(scene, { skeleton: given }).objects).toEqual([armature, hips, ...arms]);
  });

  it('binds with the skeleton importGltf names A, A, A_1 (A, A_1_1, A_1), each joint to its own bone', () => {
    // A name made unique twice over (A_1_1) was matched by its last suffix only, as "A_1", and the
    // bind threw (a review).
    const { scene, armature, bones } = bonesNamed(['A', 'A', 'A_1']);
    const given = Skeleton.create({ names: ['node_0', 'A', 'A_1_1', 'A_1'], parents: [-1, 0, 0, 0] });
    expect(bindThreeSkeleton(scene, { skeleton: given }).objects).toEqual([armature, ...bones]);
  });

  it('never gives a repeated name a name another joint has: A, A, A_2 bind as A, A_2_1, A_2', () => {
    const { scene, bones } = bonesNamed(['A', 'A', 'A_2']);
    const binding = bindThreeSkeleton(scene);
    // (Until 27 November the second A, joint 2, was named A_2: the real A_2 was renamed A_2_3.)
    expect(binding.skeleton.names).toEqual(['joint_0', 'A', 'A_2_1', 'A_2']);
    expect(binding.objects[binding.skeleton.jointIndex('A_2')]).toBe(bones[2]);
  });
});
