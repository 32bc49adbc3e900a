/**
 * Cost of tendon/three per character, next to three.js's own per-frame work, and bytes allocated
 * per call (0 is the target for every tendon line).
 *
 * The character is RobotExpressive loaded by three's GLTFLoader (45 joints, 43 bones, two
 * THREE.Skeletons over them, as GLTFLoader makes one per mesh node), bound with bindThreeSkeleton,
 * standing in a scene under a moved and turned root. Lines:
 *   three  Skeleton.update ×2          the palette three's renderer computes each frame (per skeleton)
 *   three  updateMatrixWorld + update  the bones' world matrices and the palette: three's frame
 *   tendon writeToThree (all)          Mode 1 write-back of every joint
 *   tendon writeToThree (4 limbs)      Mode 1 write-back of 12 joints (what leg and arm IK change)
 *   tendon writeToThree + restoreThree Mode 1 write-back of 12 joints, then the animation put back
 *   tendon readFromThree               Mode 1 read of every joint
 *   tendon writeBoneMatrices           Mode 2: the palette into both skeletons' boneMatrices
 *   tendon FK + writeBoneMatrices      Mode 2's frame, the counterpart of three's frame above
 *   tendon IkDebugHelper.update        the skeleton, two chains and a few markers of each kind
 *   ground: ThreeRaycastGround.raycast vs three's Raycaster with three-mesh-bvh's
 *   acceleratedRaycast (firstHitOnly), one downward ray on a 128 × 128 bumpy plane (32,768 triangles).
 *
 * Timing: warm-up, then rounds alternating over the lines, medians (the machine is shared). Bytes:
 * the harness's heap-delta with GC detection. Runs in well under 20 s.
 *
 * Run: npm run bench (builds first), or after a build `node --expose-gc bench/three.bench.mjs`.
 * Results: a table on stdout and bench/results/three.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AnimationMixer, Mesh, MeshBasicMaterial, PlaneGeometry, Raycaster, Scene, Vector3 } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { acceleratedRaycast, computeBoundsTree } from 'three-mesh-bvh';
import { createModelBuffer, forwardKinematics } from '../dist/index.js';
import { HIT, RAY } from '../dist/placement/ground.js';
import { bindThreeSkeleton, IkDebugHelper, ThreeRaycastGround } from '../dist/three/index.js';
import { glbWithoutTextures } from './glb.mjs';
import { environment, measureAllocation, median, printTable, runWithV8Flags, timedLoop } from './harness.mjs';

const WARMUP_CALLS = 20_000;
const ROUNDS = 7;
const ROUND_TARGET_NS = 25e6;
const ALLOC_CALLS = [20_000, 2_000, 200];

/** What leg and arm IK change on the robot: 4 limbs × 3 joints. */
const LIMB_JOINTS = [
  ...['UpperLeg.L', 'LowerLeg.L', 'Foot.L', 'UpperLeg.R', 'LowerLeg.R', 'Foot.R'],
  ...['UpperArm.L', 'LowerArm.L', 'Palm2.L', 'UpperArm.R', 'LowerArm.R', 'Palm2.R'],
];

const asset = (file) => new URL(`../../shared/assets/${file}`, import.meta.url);

async function setUp() {
  const gltf = await new GLTFLoader().parseAsync(
    glbWithoutTextures(readFileSync(asset('gltf/RobotExpressive.glb'))),
    '',
  );
  const scene = new Scene();
  const root = gltf.scene;
  scene.add(root);
  root.position.set(2, 0, -1);
  root.rotation.y = 0.6;
  const binding = bindThreeSkeleton(root);
  // A pose from three's animation, as Mode 1 starts from.
  const mixer = new AnimationMixer(root);
  mixer.clipAction(gltf.animations.find((c) => c.name === 'Walking')).play();
  mixer.update(0.37);
  scene.updateMatrixWorld();
  binding.readFromThree();
  forwardKinematics(binding.pose, binding.model);
  const s = binding.skeleton;
  const limbs = Int32Array.from(LIMB_JOINTS, (name) => s.jointIndex(name));
  const skeletons = binding.threeSkeletons;
  const model = createModelBuffer(s);
  const helper = new IkDebugHelper(s, { chains: [limbs.subarray(0, 3), limbs.subarray(3, 6)] });
  const markers = {
    targets: new Float64Array([1.2, 3.2, 0.4, -1.2, 3.2, 0.4]),
    poles: new Float64Array([0.6, 1, 2]),
    contacts: new Float64Array([0.5, 0, 0, -0.5, 0, 0]),
    hits: new Float64Array([0.5, 0, 0, 0, 1, 0, 2, -0.5, 0, 0, 0, 1, 0, 2]),
    rungs: new Float64Array([-1, 1, 1, 1, 1, 1]),
  };
  const first = binding.objects[s.jointIndex('UpperArm.L')];
  const lines = [
    {
      id: 'three-skeleton-update',
      label: `three  Skeleton.update ×${skeletons.length}`,
      op: () => {
        for (let i = 0; i < skeletons.length; i++) skeletons[i].update();
      },
      read: () => skeletons[0].boneMatrices[12],
    },
    {
      id: 'three-frame',
      label: 'three  updateMatrixWorld + update',
      op: () => {
        root.updateMatrixWorld();
        for (let i = 0; i < skeletons.length; i++) skeletons[i].update();
      },
      read: () => skeletons[0].boneMatrices[12],
    },
    {
      id: 'write-all',
      label: 'tendon writeToThree (all)',
      op: () => binding.writeToThree(),
      read: () => first.quaternion.x,
    },
    {
      id: 'write-limbs',
      label: `tendon writeToThree (${limbs.length} joints)`,
      op: () => binding.writeToThree(limbs),
      read: () => first.quaternion.x,
    },
    {
      id: 'restore-limbs',
      label: `tendon writeToThree (${limbs.length} joints) + restoreThree`,
      op: () => {
        binding.writeToThree(limbs);
        binding.restoreThree();
      },
      read: () => first.quaternion.x,
    },
    {
      id: 'read',
      label: 'tendon readFromThree',
      op: () => binding.readFromThree(),
      read: () => binding.pose.rotations[5],
    },
    {
      id: 'palette',
      label: 'tendon writeBoneMatrices',
      op: () => binding.writeBoneMatrices(),
      read: () => skeletons[0].boneMatrices[12],
    },
    {
      id: 'mode2-frame',
      label: 'tendon FK + writeBoneMatrices',
      op: () => {
        forwardKinematics(binding.pose, model);
        binding.writeBoneMatrices(model);
      },
      read: () => skeletons[1].boneMatrices[12],
    },
    {
      id: 'debug-helper',
      label: 'tendon IkDebugHelper.update',
      op: () => helper.update(binding.model, binding.rootWorld, markers),
      read: () => helper.geometry.drawRange.count,
    },
  ];
  return { lines, binding, skeletons };
}

function groundLines() {
  const geometry = new PlaneGeometry(20, 20, 128, 128);
  const position = geometry.getAttribute('position');
  for (let i = 0; i < position.count; i++) {
    const x = position.getX(i);
    const y = position.getY(i);
    position.setZ(i, 0.3 * Math.sin(1.3 * x) * Math.cos(0.9 * y));
  }
  geometry.computeBoundsTree = computeBoundsTree;
  geometry.computeBoundsTree();
  const mesh = new Mesh(geometry, new MeshBasicMaterial({ side: 2 }));
  mesh.raycast = acceleratedRaycast;
  mesh.rotation.x = -Math.PI / 2;
  mesh.updateMatrixWorld(true);
  const ground = new ThreeRaycastGround([mesh]);
  const RAYS = 64;
  const rays = [];
  for (let k = 0; k < RAYS; k++) {
    const ray = new Float64Array(RAY.length);
    ray.set([((k * 37) % 64) / 4 - 8, 5, ((k * 11) % 64) / 4 - 8, 0, -1, 0, 20]);
    rays.push(ray);
  }
  const hit = new Float64Array(HIT.length);
  const raycaster = new Raycaster();
  raycaster.firstHitOnly = true;
  const found = [];
  const origin = new Vector3();
  const down = new Vector3(0, -1, 0);
  const state = { k: 0, y: 0 };
  return [
    {
      id: 'ground-tendon',
      label: 'ground  ThreeRaycastGround.raycast',
      op: () => {
        const k = state.k;
        state.k = k + 1 === RAYS ? 0 : k + 1;
        ground.raycast(rays[k], hit);
      },
      read: () => hit[1],
    },
    {
      id: 'ground-three-bvh',
      label: 'ground  Raycaster + acceleratedRaycast',
      op: () => {
        const k = state.k;
        state.k = k + 1 === RAYS ? 0 : k + 1;
        const r = rays[k];
        origin.set(r[0], r[1], r[2]);
        raycaster.set(origin, down);
        found.length = 0;
        raycaster.intersectObject(mesh, false, found);
      },
      read: () => (found.length > 0 ? found[0].point.y : 0),
    },
  ];
}

function nsPerCall(run, calls) {
  const start = process.hrtime.bigint();
  run(calls);
  return Number(process.hrtime.bigint() - start) / calls;
}

async function main() {
  const started = performance.now();
  const { lines } = await setUp();
  const ground = groundLines();
  const all = [...lines, ...ground];
  for (const line of all) {
    line.run = timedLoop(line.op, line.read, 1);
    line.run(WARMUP_CALLS);
    line.calls = Math.max(1000, Math.round(ROUND_TARGET_NS / nsPerCall(line.run, 2000)));
    line.samples = [];
  }
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? all : [...all].reverse();
    for (const line of order) line.samples.push(nsPerCall(line.run, line.calls));
  }
  for (const line of all) {
    line.ns = median(line.samples);
    line.allocation = await measureAllocation(line.run, ALLOC_CALLS);
  }
  const reference = lines[0].ns;
  const rows = all.map((line) => [
    line.label,
    line.ns < 1000 ? `${line.ns.toFixed(0)} ns` : `${(line.ns / 1000).toFixed(2)} µs`,
    line.id.startsWith('ground') ? '' : `${(line.ns / reference).toFixed(2)}×`,
    `${line.allocation.bytesPerCall.toFixed(1)}${line.allocation.lowerBound ? '+' : ''}`,
  ]);
  const header = ['per character (RobotExpressive, 45 joints)', 'time', 'vs three update', 'bytes/call'];
  printTable(header, rows);
  const leaks = all.filter((l) => !l.id.startsWith('three') && l.id !== 'ground-three-bvh');
  const allocating = leaks.filter((l) => l.allocation.bytesPerCall >= 1);
  console.log();
  console.log(
    allocating.length === 0
      ? 'tendon/three: 0 bytes per call on every line (target: 0).'
      : `tendon/three allocates: ${allocating.map((l) => `${l.label} ${l.allocation.bytesPerCall.toFixed(1)} B`).join(', ')}`,
  );
  const out = new URL('results/three.json', import.meta.url);
  mkdirSync(new URL('results/', import.meta.url), { recursive: true });
  const results = all.map((l) => ({
    id: l.id,
    label: l.label,
    nsPerCall: l.ns,
    samples: l.samples,
    bytesPerCall: l.allocation.bytesPerCall,
    allocationLowerBound: l.allocation.lowerBound,
  }));
  writeFileSync(out, `${JSON.stringify({ meta: environment(), results }, null, 2)}\n`);
  console.log(`written ${fileURLToPath(out)} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (allocating.length > 0) process.exitCode = 1;
}

await runWithV8Flags(import.meta.url, main);
