/**
 * tendon/three's entrances against what a JavaScript caller can pass by mistake, probed as the
 * core's are (test/helpers/entrances.ts): a TendonError with nothing written, or a finite result.
 */
import { Mesh, MeshBasicMaterial, PlaneGeometry } from 'three';
import { beforeAll } from 'vitest';
import { Crowd } from '../../src/pose/crowd.js';
import { forwardKinematics } from '../../src/pose/forward-kinematics.js';
import type { Skeleton } from '../../src/skeleton/skeleton.js';
import {
  bindThreeSkeleton,
  IkDebugHelper,
  ThreeInstancedCrowd,
  ThreeRaycastGround,
  type ThreeSkeletonBinding,
} from '../../src/three/index.js';
import { readAsset } from '../helpers/assets.js';
import { describeEntrances, type Entrance } from '../helpers/entrances.js';
import { loadWithThree, type ThreeGltf } from '../helpers/three-gltf.js';

interface Fixture {
  three: ThreeGltf;
  binding: ThreeSkeletonBinding;
  skeleton: Skeleton;
  floor: Mesh;
}

const ENTRANCES: Entrance<Fixture>[] = [
  {
    name: 'bindThreeSkeleton',
    args: (f) => [f.three.gltf.scene, { root: f.three.gltf.scene }],
    run: (_, [source, options]) => bindThreeSkeleton(source, options),
  },
  {
    name: 'binding.writeToThree',
    args: () => [[0, 1, 2]],
    run: (f, [joints]) => f.binding.readFromThree().writeToThree(joints),
  },
  {
    name: 'binding.writeBoneMatrices',
    args: (f) => [f.binding.model],
    run: (f, [model]) => f.binding.writeBoneMatrices(model),
  },
  {
    name: 'new ThreeRaycastGround',
    args: (f) => [[f.floor], { includeInvisible: true }],
    run: (_, [objects, options]) => new ThreeRaycastGround(objects, options),
  },
  {
    name: 'threeGround.raycast',
    args: () => [new Float64Array([0, 1, 0, 0, -1, 0, 5]), new Float64Array(7)],
    run: (f, [ray, hit]) => new ThreeRaycastGround([f.floor]).raycast(ray, hit),
  },
  {
    name: 'new IkDebugHelper',
    args: () => [{ chains: [[0, 1, 2]], maxMarkers: 4, size: 0.1 }],
    run: (f, [options]) => new IkDebugHelper(f.skeleton, options),
  },
  {
    name: 'debugHelper.update',
    args: (f) => [f.binding.model, null, { targets: [0, 1, 0], hits: [0, 0, 0, 0, 1, 0] }],
    run: (f, [model, world, frame]) =>
      new IkDebugHelper(f.skeleton, { chains: [[0, 1, 2]] }).update(model, world, frame),
  },
  {
    name: 'new ThreeInstancedCrowd',
    args: (f) => [f.binding, { capacity: 2 }],
    run: (_, [binding, options]) => new ThreeInstancedCrowd(binding, options),
  },
  {
    name: 'instancedCrowd.writePalettes',
    args: (f) => [new Crowd(f.skeleton, 2)],
    run: (f, [crowd]) => new ThreeInstancedCrowd(f.binding, { capacity: 2 }).writePalettes(crowd),
  },
  {
    name: 'instancedCrowd.update',
    args: (f) => [new Crowd(f.skeleton, 2), new Float64Array(32)],
    run: (f, [crowd, worlds]) => new ThreeInstancedCrowd(f.binding, { capacity: 2 }).update(crowd, worlds),
  },
];

let fixture: Fixture;

beforeAll(async () => {
  const three = await loadWithThree(readAsset('gltf', 'RobotExpressive.glb'));
  const binding = bindThreeSkeleton(three.gltf.scene);
  const floor = new Mesh(new PlaneGeometry(10, 10).rotateX(-Math.PI / 2), new MeshBasicMaterial());
  floor.updateMatrixWorld();
  fixture = { three, binding, skeleton: binding.skeleton, floor };
});

const fresh = (f: Fixture) => {
  f.binding.pose.resetToRest();
  forwardKinematics(f.binding.pose, f.binding.model);
};

describeEntrances('every tendon/three entrance', ENTRANCES, () => fixture, fresh);
