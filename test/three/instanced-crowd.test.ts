/**
 * ThreeInstancedCrowd on RobotExpressive: each character's instances are where three itself puts
 * the meshes of a copy of the robot posed the same way (three's hierarchy for the rigid parts,
 * three's own CPU skinning for the skinned ones, against the shader's arithmetic done here on the
 * palette texture's data). The shader itself runs in test/browser/three-in-browser.test.ts.
 */
import {
  Bone,
  BoxGeometry,
  type BufferAttribute,
  Float32BufferAttribute,
  Group,
  type InstancedMesh,
  Matrix4,
  Mesh,
  MeshBasicMaterial,
  type Object3D,
  ShaderMaterial,
  SkinnedMesh,
  Skeleton as ThreeSkeleton,
  Uint16BufferAttribute,
  Vector3,
  Vector4,
} from 'three';
import { describe, expect, it } from 'vitest';
import { isTendonError } from '../../src/errors.js';
import { importGltf } from '../../src/io/gltf.js';
import { Crowd } from '../../src/pose/crowd.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';
import { bindThreeSkeleton, ThreeInstancedCrowd } from '../../src/three/index.js';
import { readAsset } from '../helpers/assets.js';
import { loadWithThree } from '../helpers/three-gltf.js';

const bytes = readAsset('gltf', 'RobotExpressive.glb');

/** Rigid and skinned meshes below `root`, in traversal order (the order the crowd makes them). */
function meshesOf(root: Object3D): { rigid: Mesh[]; skinned: SkinnedMesh[] } {
  const rigid: Mesh[] = [];
  const skinned: SkinnedMesh[] = [];
  root.traverse((o) => {
    if ((o as SkinnedMesh).isSkinnedMesh === true) skinned.push(o as SkinnedMesh);
    else if ((o as Mesh).isMesh === true) rigid.push(o as Mesh);
  });
  return { rigid, skinned };
}

/** Character c's model-to-world matrix: along x, turned about y, half size (the robot is 3 units tall). */
function worldOf(c: number): Float64Array {
  const m = new Matrix4()
    .makeRotationY(0.7 * c - 0.4)
    .scale(new Vector3(0.5, 0.5, 0.5))
    .setPosition(1.5 * c, 0.1 * c, -0.3 * c);
  return Float64Array.from(m.elements);
}

/**
 * A bind matrix other than GLTFLoader's (the robot's are the identity): the skinned meshes bound
 * again with it, in both the drawn robot and the references, so that its handling shows.
 */
const REBIND = new Matrix4().makeRotationZ(0.3).setPosition(0.2, -0.1, 0.05);

function rebind(scene: Object3D): void {
  scene.updateMatrixWorld(true);
  meshesOf(scene).skinned.forEach((mesh) => {
    mesh.bind(mesh.skeleton, REBIND);
  });
}

async function setUp(count: number, capacity = 4) {
  const { skeleton, clips } = (await importGltf(bytes)).skeletons[0];
  const drawnScene = (await loadWithThree(bytes)).gltf.scene;
  rebind(drawnScene);
  const drawn = new ThreeInstancedCrowd(bindThreeSkeleton(drawnScene, { skeleton }), { capacity });
  const walk = clips.find((c) => c.name === 'Walking');
  if (walk === undefined) throw new Error('no Walking clip');
  const crowd = new Crowd(skeleton, count);
  const worlds = new Float64Array(16 * count);
  for (let c = 0; c < count; c++) {
    crowd.setClip(c, walk);
    crowd.times[c] = 0.13 + 0.29 * c;
    worlds.set(worldOf(c), 16 * c);
  }
  crowd.sample();
  crowd.forwardKinematics();
  drawn.writePalettes(crowd);
  drawn.update(crowd, worlds);
  return { skeleton, drawn, crowd, worlds };
}

/** A copy of the robot, posed as character c by three: its local transforms, its world matrix. */
async function reference(skeleton: Skeleton, crowd: Crowd, worlds: Float64Array, c: number) {
  const scene = (await loadWithThree(bytes)).gltf.scene;
  rebind(scene);
  const binding = bindThreeSkeleton(scene, { skeleton });
  const pose = crowd.poseOf(c);
  binding.pose.translations.set(pose.translations);
  binding.pose.rotations.set(pose.rotations);
  binding.pose.scales.set(pose.scales);
  binding.writeToThree();
  binding.objects.forEach((o, j) => {
    o.scale.fromArray(pose.scales, 3 * j);
  });
  scene.matrixAutoUpdate = false;
  scene.matrix.fromArray(worlds, 16 * c);
  scene.updateMatrixWorld(true);
  return meshesOf(scene);
}

function relativeDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let max = 0;
  let size = 0;
  for (let i = 0; i < a.length; i++) {
    max = Math.max(max, Math.abs(a[i] - b[i]));
    size = Math.max(size, Math.abs(b[i]));
  }
  return max / size;
}

describe('ThreeInstancedCrowd', () => {
  it('places each rigid part where three puts it on a copy posed the same way, one draw per mesh', async () => {
    const { skeleton, drawn, crowd, worlds } = await setUp(3);
    const parts = drawn.group.children as InstancedMesh[];
    const robot = meshesOf((await loadWithThree(bytes)).gltf.scene);
    // One instanced mesh per mesh of the robot, whatever the number of characters.
    expect(parts.length).toBe(robot.rigid.length + robot.skinned.length);
    expect(robot.rigid.length).toBeGreaterThan(10);
    expect(robot.skinned.length).toBeGreaterThan(0);
    for (const part of parts) expect(part.count).toBe(3);
    let compared = 0;
    for (let c = 0; c < 3; c++) {
      const ref = await reference(skeleton, crowd, worlds, c);
      ref.rigid.forEach((mesh, k) => {
        const instance = new Matrix4();
        parts[k].getMatrixAt(c, instance);
        // Float32 instance matrices: the difference is their rounding.
        expect(relativeDifference(instance.elements, mesh.matrixWorld.elements)).toBeLessThan(1e-6);
        compared++;
      });
    }
    expect(compared).toBe(3 * robot.rigid.length);
  });

  it('skins each instance from its row of the palette texture as three skins a copy posed the same way', async () => {
    const { skeleton, drawn, crowd, worlds } = await setUp(3);
    const parts = drawn.group.children as InstancedMesh[];
    expect(drawn.skins.length).toBe(1);
    const joints = drawn.skins[0].joints.length;
    const palette = drawn.palettes[0];
    expect(drawn.textures[0].image.width).toBe(3 * joints);
    expect(drawn.textures[0].image.height).toBe(4);
    let vertices = 0;
    let worst = 0;
    for (let c = 0; c < 3; c++) {
      const ref = await reference(skeleton, crowd, worlds, c);
      ref.skinned.forEach((mesh, k) => {
        mesh.skeleton.update();
        const part = parts[ref.rigid.length + k];
        const instance = new Matrix4();
        part.getMatrixAt(c, instance);
        const position = part.geometry.getAttribute('position');
        const index = part.geometry.getAttribute('skinIndex') as BufferAttribute;
        const weight = part.geometry.getAttribute('skinWeight') as BufferAttribute;
        const expected = new Vector3();
        for (let v = 0; v < position.count; v += 7) {
          // The vertex shader's arithmetic: Σ wᵢ · palette rows of joint i, on the bind-baked vertex.
          const p = new Vector3().fromBufferAttribute(position, v);
          const out = [0, 0, 0];
          const w = new Vector4().fromBufferAttribute(weight, v);
          const ix = new Vector4().fromBufferAttribute(index, v);
          for (let i = 0; i < 4; i++) {
            const wi = w.getComponent(i);
            const o = 12 * (c * joints + ix.getComponent(i));
            for (let r = 0; r < 3; r++) {
              out[r] +=
                wi *
                (palette[o + 4 * r] * p.x +
                  palette[o + 4 * r + 1] * p.y +
                  palette[o + 4 * r + 2] * p.z +
                  palette[o + 4 * r + 3]);
            }
          }
          const drawnAt = new Vector3(out[0], out[1], out[2]).applyMatrix4(instance);
          mesh.getVertexPosition(v, expected);
          expected.applyMatrix4(mesh.matrixWorld);
          worst = Math.max(worst, drawnAt.distanceTo(expected));
          vertices++;
        }
      });
    }
    expect(vertices).toBeGreaterThan(100);
    // World units (the robot stands 1.5 tall here): float32 palettes and vertices.
    expect(worst).toBeLessThan(1e-5);
  });

  it('draws only the crowd’s characters, and refuses what it cannot draw, by name', async () => {
    const { skeleton, drawn, crowd, worlds } = await setUp(2, 3);
    for (const part of drawn.group.children as InstancedMesh[]) {
      expect(part.count).toBe(2);
      // Fewer than the capacity: only the drawn instances' matrices are uploaded.
      expect(part.instanceMatrix.updateRanges).toEqual([{ start: 0, count: 32 }]);
    }
    // The skinned parts cast no shadow (nothing would skin it); the others keep their source's.
    const skinnedParts = (drawn.group.children as InstancedMesh[]).filter(
      (p) => p.geometry.getAttribute('skinIndex') !== undefined,
    );
    expect(skinnedParts.length).toBeGreaterThan(0);
    for (const part of skinnedParts) expect(part.castShadow).toBe(false);
    const big = new Crowd(skeleton, 4);
    const codeOf = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return isTendonError(error) ? error.code : String(error);
      }
      return 'no error';
    };
    expect(codeOf(() => drawn.writePalettes(big))).toBe('argument/invalid');
    expect(codeOf(() => drawn.update(crowd, worlds.subarray(0, 16)))).toBe('pose/buffer-size');
    // A NaN or an infinity in a world matrix was written to the instances as it was.
    const drawnBefore = (drawn.group.children as InstancedMesh[]).map((p) => p.instanceMatrix.array.slice());
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      const broken = worlds.slice();
      broken[16 + 13] = bad;
      expect(codeOf(() => drawn.update(crowd, broken))).toBe('pose/not-finite');
      expect(() => drawn.update(crowd, broken)).toThrow(/character 1's world matrix has .* at 13/);
    }
    (drawn.group.children as InstancedMesh[]).forEach((p, k) => {
      expect(p.instanceMatrix.array).toEqual(drawnBefore[k]);
    });
    const other = Skeleton.create({ names: ['a'], parents: [-1] });
    expect(codeOf(() => drawn.update(new Crowd(other, 1), worlds))).toBe('pose/skeleton-mismatch');
    const scene = (await loadWithThree(bytes)).gltf.scene;
    const binding = bindThreeSkeleton(scene, { skeleton });
    expect(codeOf(() => new ThreeInstancedCrowd(binding, { capacity: 0 }))).toBe('argument/invalid');
    expect(codeOf(() => new ThreeInstancedCrowd(binding, { capacity: 2.5 }))).toBe('argument/invalid');
    binding.meshes[0].bindMode = 'detached';
    expect(codeOf(() => new ThreeInstancedCrowd(binding, { capacity: 2 }))).toBe('three/unsupported-mesh');
    // Disposed: once, then refused (three would upload its freed textures again, unseen).
    drawn.dispose();
    drawn.dispose();
    expect(codeOf(() => drawn.writePalettes(crowd))).toBe('three/disposed');
    expect(codeOf(() => drawn.update(crowd, worlds))).toBe('three/disposed');
  });

  it('places a mesh that is itself a joint (an ancestor of the bones) by its own motion', () => {
    // root → body (a Mesh, so a joint: it lies between the root and the bone) → bone; a skinned
    // box on the bone beside it.
    const root = new Group();
    const body = new Mesh(new BoxGeometry(1, 1, 1), new MeshBasicMaterial());
    body.position.set(0, 1, 0);
    root.add(body);
    const bone = new Bone();
    bone.position.set(0, 0.5, 0);
    body.add(bone);
    const box = new BoxGeometry(0.2, 0.2, 0.2);
    const n = box.getAttribute('position').count;
    box.setAttribute('skinIndex', new Uint16BufferAttribute(new Uint16Array(4 * n), 4));
    box.setAttribute('skinWeight', new Float32BufferAttribute(new Float32Array(4 * n).fill(0.25), 4));
    const skinned = new SkinnedMesh(box, new MeshBasicMaterial());
    root.add(skinned);
    root.updateMatrixWorld(true);
    skinned.bind(new ThreeSkeleton([bone]));
    const binding = bindThreeSkeleton(root);
    const drawn = new ThreeInstancedCrowd(binding, { capacity: 1 });
    const bodyJoint = binding.objects.indexOf(body);
    expect(bodyJoint).toBeGreaterThanOrEqual(0);
    const crowd = new Crowd(binding.skeleton, 1);
    crowd.translations.set([5, 1, 0], 3 * bodyJoint);
    crowd.rotations.set([0, Math.sin(0.4), 0, Math.cos(0.4)], 4 * bodyJoint);
    crowd.forwardKinematics();
    const world = Float64Array.from(new Matrix4().makeTranslation(0, 0, 2).elements);
    drawn.writePalettes(crowd);
    drawn.update(crowd, world);
    const part = (drawn.group.children as InstancedMesh[]).find((m) => m.geometry === body.geometry);
    if (part === undefined) throw new Error('no instanced body');
    const instance = new Matrix4();
    part.getMatrixAt(0, instance);
    // Three moves the body the same way: its instance is where three puts it.
    body.position.set(5, 1, 0);
    body.quaternion.set(0, Math.sin(0.4), 0, Math.cos(0.4));
    root.matrix.fromArray(world);
    root.matrixAutoUpdate = false;
    root.updateMatrixWorld(true);
    expect(relativeDifference(instance.elements, body.matrixWorld.elements)).toBeLessThan(1e-6);
  });

  it('refuses a skinned mesh whose material it cannot patch, by name', async () => {
    const { skeleton } = (await importGltf(bytes)).skeletons[0];
    const scene = (await loadWithThree(bytes)).gltf.scene;
    const hand = meshesOf(scene).skinned[0];
    hand.material = new ShaderMaterial();
    try {
      new ThreeInstancedCrowd(bindThreeSkeleton(scene, { skeleton }), { capacity: 2 });
      expect.fail('no error');
    } catch (error) {
      expect(isTendonError(error) && error.code).toBe('three/unsupported-mesh');
      expect(String(error)).toContain('ShaderMaterial');
      expect(String(error)).toContain(hand.name);
    }
  });
});
