/**
 * tendon/three's binding on RobotExpressive loaded by three's own GLTFLoader: the skeleton it
 * builds matches importGltf's; Mode 1 (read three's animated pose, solve, write back) and Mode 2
 * (tendon's palette in three's boneMatrices) agree with what three computes itself.
 */
import {
  AnimationClip,
  AnimationMixer,
  Bone,
  CylinderGeometry,
  Float32BufferAttribute,
  Group,
  Matrix4,
  type Mesh,
  MeshBasicMaterial,
  Object3D,
  QuaternionKeyframeTrack,
  Scene,
  SkinnedMesh,
  Skeleton as ThreeSkeleton,
  Uint16BufferAttribute,
  Vector3,
} from 'three';
import { describe, expect, it } from 'vitest';
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import { isTendonError } from '../../src/errors.js';
import { TwoBoneIk } from '../../src/ik/two-bone.js';
import { importGltf } from '../../src/io/gltf.js';
import { forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';
import { bindThreeSkeleton } from '../../src/three/index.js';
import { maxRelativeError, readAsset } from '../helpers/assets.js';
import { loadWithThree } from '../helpers/three-gltf.js';

const FILE = 'RobotExpressive.glb';

async function loadRobot() {
  const bytes = readAsset('gltf', FILE);
  const three = await loadWithThree(bytes);
  return { bytes, three, root: three.gltf.scene };
}

function skinnedMeshes(root: Object3D): SkinnedMesh[] {
  const meshes: SkinnedMesh[] = [];
  root.traverse((o) => {
    if ((o as SkinnedMesh).isSkinnedMesh) meshes.push(o as SkinnedMesh);
  });
  return meshes;
}

/** Largest |a − b| over the translation, rotation and scale of every joint's rest transform. */
function restDifference(
  a: { restTranslations: Float64Array; restRotations: Float64Array; restScales: Float64Array },
  b: { restTranslations: Float64Array; restRotations: Float64Array; restScales: Float64Array },
): number {
  let worst = 0;
  for (const key of ['restTranslations', 'restRotations', 'restScales'] as const) {
    for (let i = 0; i < a[key].length; i++) worst = Math.max(worst, Math.abs(a[key][i] - b[key][i]));
  }
  return worst;
}

describe('bindThreeSkeleton on RobotExpressive (GLTFLoader)', () => {
  it('builds the skeleton importGltf builds: names, parents, rest transforms, skin', async () => {
    const { bytes, root } = await loadRobot();
    const ours = (await importGltf(bytes, { source: FILE })).skeletons[0];
    for (const source of [root, skinnedMeshes(root)[0], skinnedMeshes(root)[0].skeleton]) {
      const binding = bindThreeSkeleton(source);
      const s = binding.skeleton;
      expect(s.names).toEqual(ours.skeleton.names);
      expect(Array.from(s.parents)).toEqual(Array.from(ours.skeleton.parents));
      expect(restDifference(s, ours.skeleton)).toBeLessThanOrEqual(1e-6);
      expect(binding.root).toBe(root);
      expect(Array.from(binding.skins[0].joints)).toEqual(Array.from(ours.skins[0].joints));
      expect(maxRelativeError(binding.skins[0].inverseBindMatrices, ours.skins[0].inverseBindMatrices)).toBe(
        0,
      );
      // The maps agree: joint → bone → joint, and ancestors map to no bone.
      const bones = binding.threeSkeletons[0].bones;
      for (let b = 0; b < bones.length; b++) {
        expect(binding.objects[binding.jointOfBone[b]]).toBe(bones[b]);
        expect(binding.boneOfJoint[binding.jointOfBone[b]]).toBe(b);
      }
      expect(binding.boneOfJoint[s.indexOf('RootNode')]).toBe(-1);
      expect(binding.boneOfJoint[s.indexOf('RobotArmature')]).toBe(-1);
    }
    // From the whole scene, every skinned mesh is bound (each GLTFLoader mesh node has its own
    // THREE.Skeleton over the same bones).
    const whole = bindThreeSkeleton(root);
    expect(whole.meshes.length).toBe(skinnedMeshes(root).length);
    expect(whole.threeSkeletons.length).toBe(new Set(skinnedMeshes(root).map((m) => m.skeleton)).size);
  });

  it('picks gltf.scene as the root also inside a scene, and takes an explicit root', async () => {
    const { root } = await loadRobot();
    const scene = new Scene();
    const player = new Group();
    scene.add(player);
    player.add(root);
    const mesh = skinnedMeshes(root)[0];
    // The highest ancestor below the scene is now `player`: gltf.scene becomes a joint.
    const fromMesh = bindThreeSkeleton(mesh);
    expect(fromMesh.root).toBe(player);
    expect(fromMesh.skeleton.jointCount).toBe(46);
    const explicit = bindThreeSkeleton(mesh, { root });
    expect(explicit.root).toBe(root);
    expect(explicit.skeleton.jointCount).toBe(45);
    const world = bindThreeSkeleton(mesh, { root: null });
    expect(world.root).toBeNull();
    expect(world.skeleton.jointCount).toBe(48); // scene, player, gltf.scene, the 45
    expect(() => bindThreeSkeleton(mesh, { root: new Object3D() })).toThrow(
      expect.objectContaining({ code: 'three/invalid-root' }),
    );
    const bone = mesh.skeleton.bones[5];
    try {
      bindThreeSkeleton(mesh, { root: bone });
      expect.unreachable();
    } catch (error) {
      expect(isTendonError(error, 'three/invalid-root')).toBe(true);
    }
    expect(() => bindThreeSkeleton(new Group())).toThrow(
      expect.objectContaining({ code: 'three/no-skeleton' }),
    );
  });

  it('binds a skeleton made by hand (bones under the mesh, as three’s examples do), and one robot of two', async () => {
    const geometry = new CylinderGeometry(0.2, 0.2, 3, 8, 6);
    const position = geometry.getAttribute('position');
    const indices: number[] = [];
    const weights: number[] = [];
    for (let i = 0; i < position.count; i++) {
      const y = position.getY(i) + 1.5;
      const bone = Math.min(2, Math.floor(y));
      const w = y - bone;
      indices.push(bone, Math.min(2, bone + 1), 0, 0);
      weights.push(1 - w, w, 0, 0);
    }
    geometry.setAttribute('skinIndex', new Uint16BufferAttribute(indices, 4));
    geometry.setAttribute('skinWeight', new Float32BufferAttribute(weights, 4));
    const bones = [new Bone(), new Bone(), new Bone()];
    bones[0].position.y = -1.5;
    bones[1].position.y = 1;
    bones[2].position.y = 1;
    bones[0].add(bones[1]);
    bones[1].add(bones[2]);
    const mesh = new SkinnedMesh(geometry, new MeshBasicMaterial());
    mesh.add(bones[0]);
    mesh.bind(new ThreeSkeleton(bones));
    const scene = new Scene();
    scene.add(mesh);
    mesh.position.set(3, 0, 1);
    mesh.rotation.z = 0.3;
    const binding = bindThreeSkeleton(mesh);
    expect(binding.root).toBe(mesh);
    expect(binding.skeleton.names).toEqual(['joint_0', 'joint_1', 'joint_2']);
    bones[1].rotation.x = 0.5;
    bones[2].rotation.z = -0.4;
    binding.readFromThree();
    forwardKinematics(binding.pose, binding.model);
    binding.writeBoneMatrices();
    const ours = Float32Array.from(mesh.skeleton.boneMatrices!);
    scene.updateMatrixWorld();
    mesh.skeleton.update();
    expect(maxRelativeError(ours, mesh.skeleton.boneMatrices!)).toBeLessThanOrEqual(1e-6);

    // Two robots in one group: the first found is bound, with its own meshes only.
    const a = (await loadRobot()).root;
    const b = (await loadRobot()).root;
    const group = new Group();
    group.add(a, b);
    const first = bindThreeSkeleton(group);
    expect(first.root).toBe(group);
    expect(first.skeleton.jointCount).toBe(46); // gltf.scene of the first robot, then its 45
    expect(first.meshes.every((m) => skinnedMeshes(a).includes(m))).toBe(true);
    expect(first.meshes.length).toBe(skinnedMeshes(a).length);
  });

  it('Mode 1: readFromThree + forwardKinematics equals three’s matrixWorld under the Walking clip', async () => {
    const { three, root } = await loadRobot();
    const scene = new Scene();
    scene.add(root);
    root.position.set(1.5, -0.25, 3);
    root.rotation.set(0.1, 0.8, -0.05);
    root.scale.setScalar(1.3);
    const binding = bindThreeSkeleton(root);
    const mixer = new AnimationMixer(root);
    const walking = three.gltf.animations.find((a) => a.name === 'Walking')!;
    mixer.clipAction(walking).play();
    const world = new Float64Array(16);
    let worst = 0;
    let checked = 0;
    for (let frame = 0; frame < 40; frame++) {
      mixer.update(1 / 60 + frame * 0.0011);
      binding.readFromThree();
      forwardKinematics(binding.pose, binding.model);
      scene.updateMatrixWorld();
      expect(maxRelativeError(binding.rootWorld, root.matrixWorld.elements)).toBe(0);
      for (let j = 0; j < binding.skeleton.jointCount; j++) {
        const m = new Matrix4().fromArray(binding.model, 16 * j).premultiply(root.matrixWorld);
        world.set(m.elements);
        const expected = binding.objects[j].matrixWorld.elements;
        const error = maxRelativeError(world, expected);
        worst = Math.max(worst, error);
        checked++;
        // Positions in world units, as the brief states the check.
        for (let c = 12; c < 15; c++) expect(Math.abs(world[c] - expected[c])).toBeLessThanOrEqual(1e-5);
      }
    }
    expect(checked).toBe(40 * 45);
    expect(worst).toBeLessThanOrEqual(1e-9);
  });

  it('Mode 1: a TwoBoneIk solve written back puts three’s hand on the target', async () => {
    const { three, root } = await loadRobot();
    const scene = new Scene();
    scene.add(root);
    root.position.set(-2, 0.5, 1);
    root.rotation.set(0, -1.1, 0);
    const binding = bindThreeSkeleton(root);
    const mixer = new AnimationMixer(root);
    mixer.clipAction(three.gltf.animations.find((a) => a.name === 'Walking')!).play();
    const s = binding.skeleton;
    const ik = new TwoBoneIk(s, { root: 'UpperArm.L', middle: 'LowerArm.L', end: 'Palm2.L' });
    const endObject = binding.objects[ik.end];
    const target = new Float64Array(3);
    const expected = new Vector3();
    const got = new Vector3();
    let worst = 0;
    for (let frame = 0; frame < 12; frame++) {
      mixer.update(0.07);
      binding.readFromThree();
      const model = binding.model;
      forwardKinematics(binding.pose, model);
      // A target between the shoulder and the hand, off the arm's line: reachable, and far from
      // where the animation holds the hand.
      for (let c = 0; c < 3; c++) {
        const a = model[16 * ik.root + 12 + c];
        const e = model[16 * ik.end + 12 + c];
        target[c] = a + 0.7 * (e - a) + (c === 1 ? 0.2 : 0.1) * Math.abs(e - a);
      }
      const status = ik.solve(binding.pose, model, target);
      expect(status.reached).toBe(true);
      // Every other frame, write only the joints the solver changed.
      binding.writeToThree(frame % 2 === 0 ? undefined : [ik.root, ik.middle, ik.end]);
      scene.updateMatrixWorld();
      expected.set(target[0], target[1], target[2]).applyMatrix4(root.matrixWorld);
      got.setFromMatrixPosition(endObject.matrixWorld);
      worst = Math.max(worst, got.distanceTo(expected));
    }
    expect(worst).toBeLessThanOrEqual(1e-4);
    expect(() => binding.writeToThree([0, 45])).toThrow(
      expect.objectContaining({ code: 'pose/joint-out-of-range' }),
    );
  });

  it('Mode 1: reading and writing back an unsolved pose changes no bone', async () => {
    const { three, root } = await loadRobot();
    const binding = bindThreeSkeleton(root);
    const mixer = new AnimationMixer(root);
    mixer.clipAction(three.gltf.animations.find((a) => a.name === 'Running')!).play();
    mixer.update(0.4);
    const before = binding.objects.map((o) => [...o.position.toArray(), ...o.quaternion.toArray()]);
    binding.readFromThree().writeToThree();
    const after = binding.objects.map((o) => [...o.position.toArray(), ...o.quaternion.toArray()]);
    expect(after).toEqual(before);
  });

  // Until 27 November a NaN in the pose went into three's bones (and a NaN root matrix into the
  // palette): the character vanished, no word.
  it('refuses to write a NaN or an infinity to three, naming the joint, with nothing written', async () => {
    const { root } = await loadRobot();
    const binding = bindThreeSkeleton(root);
    binding.readFromThree();
    const before = binding.objects.map((o) => [...o.position.toArray(), ...o.quaternion.toArray()]);
    const j = binding.skeleton.indexOf('LowerLeg.L');
    binding.pose.rotations[4 * j + 1] = Number.NaN;
    for (const write of [() => binding.writeToThree(), () => binding.writeToThree([0, j])]) {
      expect(write).toThrow(
        expect.objectContaining({
          code: 'pose/not-finite',
          message: expect.stringContaining('"LowerLeg.L"'),
        }),
      );
    }
    expect(binding.objects.map((o) => [...o.position.toArray(), ...o.quaternion.toArray()])).toEqual(before);
    binding.readFromThree();
    forwardKinematics(binding.pose, binding.model);
    const palette = Array.from(binding.threeSkeletons[0].boneMatrices ?? []);
    binding.model[16 * j + 13] = Number.POSITIVE_INFINITY;
    expect(() => binding.writeBoneMatrices()).toThrow(
      expect.objectContaining({ code: 'pose/not-finite', message: expect.stringContaining('"LowerLeg.L"') }),
    );
    forwardKinematics(binding.pose, binding.model);
    root.position.x = Number.NaN;
    expect(() => binding.writeBoneMatrices()).toThrow(
      expect.objectContaining({ code: 'pose/not-finite', message: expect.stringContaining('world matrix') }),
    );
    expect(Array.from(binding.threeSkeletons[0].boneMatrices ?? [])).toEqual(palette);
  });

  it('Mode 1: restoreThree after each frame keeps last frame’s IK out of the next frame’s animation', () => {
    // A clip that holds the hip still (two equal keys: three's mixer writes it once) and does not
    // animate the knee; TwoBoneIk at weight 0.5 toward a fixed target. Every frame is the same.
    const run = (restore: boolean) => {
      const root = new Group();
      const hip = new Bone();
      hip.name = 'hip';
      hip.position.set(0, 1, 0);
      const knee = new Bone();
      knee.name = 'knee';
      knee.position.set(0, -0.45, 0.02);
      const ankle = new Bone();
      ankle.name = 'ankle';
      ankle.position.set(0, -0.42, 0);
      root.add(hip);
      hip.add(knee);
      knee.add(ankle);
      const held = new QuaternionKeyframeTrack('hip.quaternion', [0, 1], [0, 0, 0, 1, 0, 0, 0, 1]);
      const mixer = new AnimationMixer(root);
      mixer.clipAction(new AnimationClip('hold', 1, [held])).play();
      root.updateMatrixWorld(true);
      const binding = bindThreeSkeleton(new ThreeSkeleton([hip, knee, ankle]), { root });
      const ik = new TwoBoneIk(binding.skeleton, { root: 'hip', middle: 'knee', end: 'ankle', weight: 0.5 });
      const ankles: number[][] = [];
      for (let f = 0; f < 6; f++) {
        mixer.update(1 / 60);
        binding.readFromThree();
        forwardKinematics(binding.pose, binding.model);
        ik.solve(binding.pose, binding.model, [0, 0.35, 0.45]);
        binding.writeToThree();
        ankles.push(Array.from(binding.model.subarray(16 * ik.end + 12, 16 * ik.end + 15)));
        if (restore) binding.restoreThree();
      }
      return ankles;
    };
    const restored = run(true);
    for (const a of restored) expect(a).toEqual(restored[0]);
    // Without it, the ankle crept toward the full-weight solve (0.26 → 0.36 m in z by frame 1).
    const crept = run(false);
    expect(crept[5][2] - crept[0][2]).toBeGreaterThan(0.1);
  });

  it('Mode 2: writeBoneMatrices equals three’s Skeleton.update palette within 1e-5', async () => {
    const { three, root } = await loadRobot();
    const scene = new Scene();
    scene.add(root);
    root.position.set(0.3, 1, -4);
    root.rotation.set(0.2, 2.5, 0);
    const binding = bindThreeSkeleton(root);
    const mixer = new AnimationMixer(root);
    mixer.clipAction(three.gltf.animations.find((a) => a.name === 'Walking')!).play();
    expect(binding.threeSkeletons.length).toBeGreaterThan(1);
    let worst = 0;
    for (let frame = 0; frame < 10; frame++) {
      mixer.update(0.09);
      binding.readFromThree();
      forwardKinematics(binding.pose, binding.model);
      binding.writeBoneMatrices();
      const ours = binding.threeSkeletons.map((k) => Float32Array.from(k.boneMatrices!));
      scene.updateMatrixWorld();
      for (const [i, k] of binding.threeSkeletons.entries()) {
        k.update();
        const theirs = k.boneMatrices!;
        expect(ours[i].length).toBe(theirs.length);
        worst = Math.max(worst, maxRelativeError(ours[i], theirs));
      }
    }
    expect(worst).toBeLessThanOrEqual(1e-5);
  });

  it('Mode 2 with importGltf’s skeleton and clip: tendon samples, the palette matches three’s mixer', async () => {
    const { bytes, three, root } = await loadRobot();
    const imported = (await importGltf(bytes, { source: FILE })).skeletons[0];
    const binding = bindThreeSkeleton(root, { skeleton: imported.skeleton }).useTendonPalette();
    expect(binding.skeleton).toBe(imported.skeleton);
    binding.objects.forEach((o, j) => {
      expect(o.userData.name ?? o.name).toBe(imported.skeleton.names[j]);
    });
    // An independent three.js copy of the robot, animated by three.
    const other = await loadWithThree(bytes);
    const mixer = new AnimationMixer(other.gltf.scene);
    mixer.clipAction(other.gltf.animations.find((a) => a.name === 'Walking')!).play();
    const theirs = skinnedMeshes(other.gltf.scene)[0].skeleton;
    const walk = imported.clips.find((c) => c.name === 'Walking')!;
    const context = new SamplerContext(walk);
    let worst = 0;
    for (const time of [0.05, 0.31, 0.77]) {
      sampleClip(walk, context, time, binding.pose, 'loop');
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
    expect(three.gltf.animations.length).toBeGreaterThan(0);
    const fox = (await importGltf(readAsset('gltf', 'Fox.glb'))).skeletons[0].skeleton;
    expect(() => bindThreeSkeleton(root, { skeleton: fox })).toThrow(
      expect.objectContaining({ code: 'three/invalid-skeleton' }),
    );
    // Same names, one joint moved to another parent: refused, naming it.
    const s = imported.skeleton;
    const parents = Int32Array.from(s.parents);
    parents[s.indexOf('UpperArm.L')] = s.indexOf('Torso');
    const moved = Skeleton.create({ names: s.names, parents });
    expect(() => bindThreeSkeleton(root, { skeleton: moved })).toThrow(/UpperArm\.L/);
  });

  it('Mode 2: what hangs from the bones (the robot’s rigid parts) follows tendon’s pose', async () => {
    const { bytes, root } = await loadRobot();
    const other = (await loadWithThree(bytes)).gltf;
    const imported = (await importGltf(bytes, { source: FILE })).skeletons[0];
    const binding = bindThreeSkeleton(root, { skeleton: imported.skeleton }).useTendonPalette();
    const mixer = new AnimationMixer(other.scene);
    mixer.clipAction(other.animations.find((a) => a.name === 'Walking')!).play();
    const walk = imported.clips.find((c) => c.name === 'Walking')!;
    const context = new SamplerContext(walk);
    const rigid = (scene: Object3D) => {
      const found: Object3D[] = [];
      scene.traverse((o) => {
        if ((o as Mesh).isMesh && !(o as SkinnedMesh).isSkinnedMesh) found.push(o);
      });
      return found;
    };
    const ours = rigid(root);
    const theirs = rigid(other.scene);
    expect(ours.length).toBeGreaterThan(5);
    expect(ours.length).toBe(theirs.length);
    let worst = 0;
    for (const [i, time] of [0.1, 0.55].entries()) {
      for (const scene of [root, other.scene]) scene.position.set(i, 0.5, -i);
      sampleClip(walk, context, time, binding.pose, 'loop');
      forwardKinematics(binding.pose, binding.model);
      binding.writeBoneMatrices();
      root.updateMatrixWorld();
      mixer.setTime(time);
      other.scene.updateMatrixWorld();
      for (let k = 0; k < ours.length; k++) {
        worst = Math.max(
          worst,
          maxRelativeError(ours[k].matrixWorld.elements, theirs[k].matrixWorld.elements),
        );
      }
    }
    expect(worst).toBeLessThanOrEqual(1e-5);
  });

  it('Mode 2: useTendonPalette stops three’s update from overwriting the palette, and restores it', async () => {
    const { three, root } = await loadRobot();
    const binding = bindThreeSkeleton(root);
    const mixer = new AnimationMixer(root);
    mixer.clipAction(three.gltf.animations.find((a) => a.name === 'Walking')!).play();
    const bones = binding.threeSkeletons[0].bones;
    binding.useTendonPalette();
    expect(bones.every((b) => !b.matrixAutoUpdate && !b.matrixWorldAutoUpdate)).toBe(true);
    expect(binding.meshes.every((m) => !m.frustumCulled)).toBe(true);
    mixer.update(0.3);
    binding.readFromThree();
    forwardKinematics(binding.pose, binding.model);
    binding.writeBoneMatrices();
    const written = Float32Array.from(binding.threeSkeletons[0].boneMatrices!);
    root.updateMatrixWorld(true);
    for (const k of binding.threeSkeletons) k.update(); // what the renderer does every frame
    expect(Array.from(binding.threeSkeletons[0].boneMatrices!)).toEqual(Array.from(written));
    // three's bone texture (made by the renderer) is flagged for upload on every write.
    const skeleton = binding.threeSkeletons[0];
    skeleton.computeBoneTexture();
    const version = skeleton.boneTexture!.version;
    binding.writeBoneMatrices();
    expect(skeleton.boneTexture!.version).toBeGreaterThan(version);
    binding.restoreThreePalette();
    expect(bones.every((b) => b.matrixAutoUpdate && b.matrixWorldAutoUpdate)).toBe(true);
    expect(binding.meshes.every((m) => m.frustumCulled)).toBe(true);
    root.updateMatrixWorld(true);
    skeleton.update();
    expect(maxRelativeError(skeleton.boneMatrices!.subarray(0, written.length), written)).toBeLessThanOrEqual(
      1e-5,
    );
    expect(() => binding.writeBoneMatrices(new Float64Array(16))).toThrow(
      expect.objectContaining({ code: 'pose/buffer-size' }),
    );
  });

  it('Mode 2 over the same bones by two bindings, restored in either order, gives three its bones back; an app’s own update comes back', async () => {
    // Until 27 November each binding kept its own copy of the flags: used A then B and restored A
    // then B, the bones stayed frozen with A's changes, and an update the app had set on the
    // skeleton was deleted (a hostile test).
    const { root } = await loadRobot();
    const a = bindThreeSkeleton(root);
    const b = bindThreeSkeleton(root);
    const bones = a.threeSkeletons[0].bones;
    const own = () => undefined;
    const skeleton = a.threeSkeletons[0];
    skeleton.update = own;
    for (const order of [
      [a, b],
      [b, a],
    ]) {
      a.useTendonPalette();
      b.useTendonPalette();
      order[0].restoreThreePalette();
      // The other still uses tendon's palette: three keeps off the bones.
      expect(bones.every((bone) => !bone.matrixAutoUpdate && !bone.matrixWorldAutoUpdate)).toBe(true);
      order[1].restoreThreePalette();
      expect(bones.every((bone) => bone.matrixAutoUpdate && bone.matrixWorldAutoUpdate)).toBe(true);
      expect(a.meshes.every((m) => m.frustumCulled)).toBe(true);
      expect(skeleton.update).toBe(own);
    }
  });
});
