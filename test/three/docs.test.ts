/**
 * Runs the ```js blocks of docs/three.md against the sources (three.js's GLTFLoader output of the
 * robot standing in for the page's `gltf`), so the documentation cannot drift from the code: the
 * Mode 1 example puts three's hand on the target, the Mode 2 example renders three's own palette,
 * the ground and debug-helper examples do what they say.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import * as tendon from '../../src/index.js';
import * as tendonThree from '../../src/three/index.js';
import { maxRelativeError, readAsset } from '../helpers/assets.js';
import { loadWithThree } from '../helpers/three-gltf.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const docs = readFileSync(`${root}docs/three.md`, 'utf8');
const blocks = [...docs.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
const modules: Record<string, unknown> = { three: THREE, tendon, 'tendon/three': tendonThree };
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  ...args: string[]
) => (...args: unknown[]) => Promise<Record<string, unknown>>;

/** Runs a block with `env` as its free variables; returns the named top-level bindings it made. */
async function run(
  code: string,
  env: Record<string, unknown>,
  names: readonly string[],
): Promise<Record<string, unknown>> {
  const body = code.replace(
    /^import \{([^}]*)\} from '([^']+)';$/gm,
    (_, list: string, from: string) => `const {${list}} = __modules[${JSON.stringify(from)}];`,
  );
  const result = names.map((n) => `${n}: typeof ${n} === 'undefined' ? undefined : ${n}`).join(', ');
  // Function bodies are sloppy mode, so `with` can supply the page's variables (gltf, scene, ...).
  const fn = new AsyncFunction('__modules', '__env', `with (__env) {\n${body}\nreturn { ${result} };\n}`);
  return fn(modules, env);
}

const block = (needle: string): string => {
  const found = blocks.find((b) => b.includes(needle));
  if (found === undefined) throw new Error(`docs/three.md has no js block with ${needle}`);
  return found;
};

async function robotScene() {
  const bytes = readAsset('gltf', 'RobotExpressive.glb');
  const three = await loadWithThree(bytes);
  const scene = new THREE.Scene();
  scene.add(three.gltf.scene);
  return { bytes, gltf: three.gltf, scene, renderer: { render() {} }, camera: null };
}

describe('docs/three.md', () => {
  it('has the six examples', () => {
    expect(blocks.length).toBe(6);
  });

  it('the README shows the Mode 1 example as it is here (so this test runs the README’s too)', () => {
    const readme = readFileSync(`${root}README.md`, 'utf8');
    const three = [...readme.matchAll(/```js\n([\s\S]*?)```/g)]
      .map((m) => m[1])
      .filter((code) => code.includes("from 'tendon/three'"));
    expect(three).toEqual([block('readFromThree')]);
  });

  it('Mode 1 example (under 20 lines): three’s hand reaches the target', async () => {
    const code = block('readFromThree');
    expect(code.trim().split('\n').length).toBeLessThan(20);
    const env = await robotScene();
    const { frame, robot, target } = await run(code, env, ['frame', 'robot', 'target']);
    const binding = robot as tendonThree.ThreeSkeletonBinding;
    const hand = binding.objects[binding.skeleton.indexOf('Palm2.L')];
    const world = new THREE.Vector3();
    const goal = new THREE.Vector3(...(target as Float64Array));
    // Where three draws the hand: at render time (the frame puts the animation back after it).
    const drawn: number[] = [];
    env.renderer.render = () => {
      env.scene.updateMatrixWorld();
      drawn.push(world.setFromMatrixPosition(hand.matrixWorld).distanceTo(goal));
    };
    for (let i = 0; i < 30; i++) (frame as (dt: number) => void)(1 / 60);
    expect(drawn.length).toBe(30);
    for (const d of drawn) expect(d).toBeLessThanOrEqual(1e-4);
  });

  it('placement example: the planted feet stand on the three.js terrain, the head turns to the point', async () => {
    const env = await robotScene();
    // A 10° slope: the walk's feet would hang above it or sink into it.
    const terrain = new THREE.Mesh(new THREE.PlaneGeometry(40, 40, 8, 8).rotateX(-Math.PI / 2));
    terrain.rotation.z = 0.17;
    env.scene.add(terrain);
    const { frame, feet, look, robot } = await run(block('new FootPlacement('), { ...env, terrain }, [
      'frame',
      'feet',
      'look',
      'robot',
    ]);
    const placement = feet as tendon.FootPlacement;
    const binding = robot as tendonThree.ThreeSkeletonBinding;
    let planted = 0;
    for (let f = 0; f < 90; f++) {
      (frame as (dt: number) => void)(1 / 60);
      if (f < 30) continue;
      for (let i = 0; i < placement.legs.length; i++) {
        const r = i * tendon.LEG_REPORT.length;
        if (placement.planted[i] !== 1 || placement.report[r + tendon.LEG_REPORT.weight] < 1) continue;
        planted++;
        // The leg reaches its target, and the target's ground is the slope under it.
        expect(placement.report[r + tendon.LEG_REPORT.error]).toBeLessThan(1e-4);
        const x = placement.report[r + tendon.LEG_REPORT.groundPoint];
        const y = placement.report[r + tendon.LEG_REPORT.groundPoint + 1];
        expect(Math.abs(y - Math.tan(0.17) * x)).toBeLessThan(1e-9);
      }
    }
    expect(planted).toBeGreaterThan(30);
    expect((look as tendon.LookAt).solvers.length).toBeGreaterThan(0);
    // What three draws (at render time: the frame puts the animation back after it) is what tendon
    // solved: the foot bone's world matrix is rootWorld · model.
    let drawn = Number.NaN;
    env.renderer.render = () => {
      env.scene.updateMatrixWorld();
      const j = placement.legs[0].foot;
      const world = new THREE.Matrix4()
        .fromArray(binding.rootWorld)
        .multiply(new THREE.Matrix4().fromArray(binding.model, 16 * j));
      drawn = maxRelativeError(
        new Float64Array(binding.objects[j].matrixWorld.elements),
        new Float64Array(world.elements),
      );
    };
    (frame as (dt: number) => void)(1 / 60);
    expect(drawn).toBeLessThan(1e-9);
  });

  it('Mode 2 example: the palette equals what three computes for the same time', async () => {
    const env = await robotScene();
    const { frame, robot } = await run(block('writeBoneMatrices()'), env, ['frame', 'robot']);
    const other = await loadWithThree(env.bytes);
    const mixer = new THREE.AnimationMixer(other.gltf.scene);
    mixer.clipAction(other.gltf.animations.find((c) => c.name === 'Walking')!).play();
    let theirs: THREE.Skeleton | null = null;
    other.gltf.scene.traverse((o) => {
      if ((o as THREE.SkinnedMesh).isSkinnedMesh && theirs === null)
        theirs = (o as THREE.SkinnedMesh).skeleton;
    });
    const binding = robot as tendonThree.ThreeSkeletonBinding;
    for (const time of [0.2, 0.65]) {
      (frame as (t: number) => void)(time);
      mixer.setTime(time);
      other.gltf.scene.updateMatrixWorld(true);
      theirs!.update();
      for (const skeleton of binding.threeSkeletons) {
        expect(maxRelativeError(skeleton.boneMatrices!, theirs!.boneMatrices!)).toBeLessThanOrEqual(1e-5);
      }
    }
  });

  it('instanced crowd example: one draw per mesh for a hundred robots, each placed and skinned', async () => {
    const bytes = readAsset('gltf', 'RobotExpressive.glb');
    const gltf = (await loadWithThree(bytes)).gltf;
    const scene = new THREE.Scene();
    const env = { bytes, gltf, scene, renderer: { render() {} }, camera: null };
    const { frame, drawn, crowd, worlds } = await run(block('new ThreeInstancedCrowd('), env, [
      'frame',
      'drawn',
      'crowd',
      'worlds',
    ]);
    const instanced = drawn as tendonThree.ThreeInstancedCrowd;
    (frame as (t: number) => void)(0.3);
    expect(scene.children).toEqual([instanced.group]);
    const parts = instanced.group.children as THREE.InstancedMesh[];
    let meshes = 0;
    gltf.scene.traverse((o) => {
      if ((o as THREE.Mesh).isMesh === true) meshes++;
    });
    expect(parts.length).toBe(meshes);
    for (const part of parts) expect(part.count).toBe(100);
    // Robot 37 stands where its world matrix puts it: its body's instance near (14, ·, −6).
    const body = instanced.group.getObjectByName('Body') as THREE.InstancedMesh | undefined;
    const matrix = new THREE.Matrix4();
    (body ?? parts[0]).getMatrixAt(37, matrix);
    const at = new THREE.Vector3().setFromMatrixPosition(matrix);
    expect(Math.abs(at.x - 14)).toBeLessThan(1.5);
    expect(Math.abs(at.z + 6)).toBeLessThan(1.5);
    // The palettes written: robot 99's are not robot 0's (another time of the walk).
    const joints = instanced.skins[0].joints.length;
    const palette = instanced.palettes[0];
    const first = palette.subarray(0, 12 * joints);
    const last = palette.subarray(12 * joints * 99, 12 * joints * 100);
    expect(first.some((x, i) => Math.abs(x - last[i]) > 1e-3)).toBe(true);
    expect((crowd as tendon.Crowd).count).toBe(100);
    expect((worlds as Float64Array).length).toBe(1600);
  });

  it('ground and debug-helper examples', async () => {
    const terrain = new THREE.Mesh(new THREE.PlaneGeometry(40, 40, 8, 8));
    terrain.rotation.x = -Math.PI / 2;
    terrain.position.y = 0.75;
    terrain.updateMatrixWorld(true);
    const logs: unknown[][] = [];
    const console = { log: (...args: unknown[]) => logs.push(args) };
    const { hit } = await run(block('ground.raycast(ray, hit)'), { terrain, console }, ['hit']);
    expect(logs.length).toBe(1);
    expect(logs[0][1]).toBeCloseTo(0.75, 12);
    expect(Array.from(logs[0][3] as Float64Array)).toEqual(
      [0, 1, 0].map((v, i) => (i === 1 ? v : expect.closeTo(0, 12))),
    );

    const env = await robotScene();
    const mode1 = await run(block('readFromThree'), env, ['frame', 'robot', 'arm', 'target']);
    (mode1.frame as (dt: number) => void)(1 / 60);
    const { helper } = await run(block('new IkDebugHelper('), { ...env, ...mode1, hit }, ['helper']);
    const lines = helper as tendonThree.IkDebugHelper;
    expect(env.scene.children).toContain(lines);
    // 44 bones + 2 chain links, a target cross, a hit cross with its normal.
    expect(lines.geometry.drawRange.count).toBe(2 * 44 + 4 + 6 + 8);
  });
});
