/**
 * Runs in Chromium with WebGL: the robot drawn by three's WebGLRenderer twice, once animated by
 * three (AnimationMixer, bones, Skeleton.update) and once by tendon/three's Mode 2 (tendon samples
 * the clip and writes boneMatrices; three's bone work is off). Publishes both images' pixels
 * (and a third, tendon at another time, which must differ) on `window.tendonThreeResult`.
 */
import {
  AnimationMixer,
  type Mesh,
  MeshNormalMaterial,
  Object3D,
  PerspectiveCamera,
  Scene,
  WebGLRenderer,
  WebGLRenderTarget,
} from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { Crowd, forwardKinematics, importGltf, SamplerContext, sampleClip } from '../../src/index.js';
import { bindThreeSkeleton, IkDebugHelper, ThreeInstancedCrowd } from '../../src/three/index.js';

export interface ThreeBrowserResult {
  readonly size: number;
  /** RGBA pixels, three's own animation. */
  readonly three: number[];
  /** RGBA pixels, tendon's palette at the same time. */
  readonly tendon: number[];
  /** RGBA pixels, tendon's palette 0.3 s later. */
  readonly later: number[];
  readonly boneTextures: boolean;
  /** RGBA pixels, an IkDebugHelper alone (skeleton, a chain, a target, a ground hit). */
  readonly helper: number[];
  /** RGBA pixels, the robot as a ThreeInstancedCrowd of one, at the same time: GPU skinning from the 3×4 palette texture. */
  readonly instanced: number[];
  /** Draw calls of the instanced image. */
  readonly instancedCalls: number;
}

const SIZE = 200;
const TIME = 0.42;

function place(root: Object3D): void {
  root.position.set(0.4, -1.2, 0);
  root.rotation.y = 0.7;
}

async function run(): Promise<ThreeBrowserResult> {
  const bytes = new Uint8Array(await (await fetch('/assets/RobotExpressive.glb')).arrayBuffer());
  const loader = new GLTFLoader();
  const a = await loader.parseAsync(bytes.slice().buffer, '');
  const b = await loader.parseAsync(bytes.slice().buffer, '');
  const renderer = new WebGLRenderer({ antialias: false });
  renderer.setSize(SIZE, SIZE);
  document.body.appendChild(renderer.domElement);
  const target = new WebGLRenderTarget(SIZE, SIZE);
  const camera = new PerspectiveCamera(40, 1, 0.1, 100);
  camera.position.set(0, 1, 9);
  camera.lookAt(0, 1, 0);
  const read = (scene: Scene): number[] => {
    const pixels = new Uint8Array(4 * SIZE * SIZE);
    renderer.setRenderTarget(target);
    renderer.render(scene, camera);
    renderer.readRenderTargetPixels(target, 0, 0, SIZE, SIZE, pixels);
    renderer.setRenderTarget(null);
    return Array.from(pixels);
  };

  const sceneA = new Scene();
  sceneA.overrideMaterial = new MeshNormalMaterial();
  sceneA.add(a.scene);
  place(a.scene);
  const mixer = new AnimationMixer(a.scene);
  mixer.clipAction(a.animations.find((c) => c.name === 'Walking')!).play();
  mixer.setTime(TIME);

  const sceneB = new Scene();
  sceneB.overrideMaterial = new MeshNormalMaterial();
  sceneB.add(b.scene);
  place(b.scene);
  const { skeleton, clips } = (await importGltf(bytes)).skeletons[0];
  const robot = bindThreeSkeleton(b.scene, { skeleton }).useTendonPalette();
  const walk = clips.find((c) => c.name === 'Walking')!;
  const context = new SamplerContext(walk);
  const pose = (time: number): void => {
    sampleClip(walk, context, time, robot.pose, 'loop');
    forwardKinematics(robot.pose, robot.model);
    robot.writeBoneMatrices();
  };

  const three = read(sceneA);
  // Render once first so three makes its bone textures, then write: the write must reach them.
  read(sceneB);
  pose(TIME);
  const tendon = read(sceneB);
  pose(TIME + 0.3);
  const later = read(sceneB);
  const boneTextures = robot.threeSkeletons.every((k) => k.boneTexture !== null);
  const sceneC = new Scene();
  const arm = ['UpperArm.L', 'LowerArm.L', 'Palm2.L'].map((name) => skeleton.jointIndex(name));
  const helper = new IkDebugHelper(skeleton, { chains: [arm] });
  sceneC.add(helper);
  helper.update(robot.model, robot.rootWorld, {
    targets: [1.2, 3.2, 0.4],
    hits: [0.4, -1.2, 0, 0, 1, 0, 1],
  });
  const drawnHelper = read(sceneC);

  // The same robot as an instanced crowd of one: its meshes' materials replaced (as the other
  // scenes' overrideMaterial does) before the crowd clones and patches the skinned ones.
  const c = await loader.parseAsync(bytes.slice().buffer, '');
  const normals = new MeshNormalMaterial();
  c.scene.traverse((o) => {
    if ((o as Mesh).isMesh === true) (o as Mesh).material = normals;
  });
  const drawnCrowd = new ThreeInstancedCrowd(bindThreeSkeleton(c.scene, { skeleton }), { capacity: 2 });
  const crowd = new Crowd(skeleton, 1);
  crowd.setClip(0, walk);
  crowd.times[0] = TIME;
  crowd.sample('loop');
  crowd.forwardKinematics();
  const placed = new Object3D();
  place(placed);
  placed.updateMatrix();
  drawnCrowd.writePalettes(crowd);
  drawnCrowd.update(crowd, Float64Array.from(placed.matrix.elements));
  const sceneD = new Scene();
  sceneD.add(drawnCrowd.group);
  const instanced = read(sceneD);
  const instancedCalls = renderer.info.render.calls;
  return { size: SIZE, three, tendon, later, boneTextures, helper: drawnHelper, instanced, instancedCalls };
}

const scope = window as unknown as { tendonThreeResult?: ThreeBrowserResult | { error: string } };
run().then(
  (result) => {
    scope.tendonThreeResult = result;
  },
  (error: unknown) => {
    scope.tendonThreeResult = {
      error: error instanceof Error ? `${error.message}\n${error.stack}` : String(error),
    };
  },
);
