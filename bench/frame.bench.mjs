/**
 * Cost of one character frame, tendon vs three.js, in one process.
 *
 * A frame is what a game does per character per tick:
 *   tendon:  sampleClip + forwardKinematics + Skin.computePalette for every skin of the skeleton;
 *   three:   mixer.update + root.updateMatrixWorld + skeleton.update for every skeleton.
 * Both load the same asset with their own loader, both advance 1/60 s per frame.
 *
 * Timing: warm up, then alternate rounds of N frames (tendon, three, three, tendon, ...) and take
 * medians: the machine is shared and noisy, and interleaving exposes both libraries to the same
 * noise, so the ratio stays meaningful even when absolute times drift.
 * Allocation: heapUsed before and after 100,000 frames, with a young generation big enough that
 * no scavenge should run in between (a scavenge would hide garbage); GCs are counted to prove it,
 * and a run a GC interrupted is repeated with fewer frames.
 *
 * Run: npm run bench (builds, then runs this file with --expose-gc; it re-runs itself with the
 * V8 flags it needs). `node --expose-gc bench/frame.bench.mjs bvh` runs only the named scenarios
 * (robot, bvh, fox). Results: a table on stdout and bench/results/frame.json.
 */

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AnimationClip, AnimationMixer, Group, Matrix4, Skeleton as ThreeSkeleton } from 'three';
import { BVHLoader } from 'three/examples/jsm/loaders/BVHLoader.js';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import {
  createModelBuffer,
  forwardKinematics,
  importBvh,
  importGltf,
  Pose,
  SamplerContext,
  Skin,
  sampleClip,
} from '../dist/index.js';
import { glbWithoutTextures } from './glb.mjs';
import { environment, measureAllocation, median, printTable, runWithV8Flags } from './harness.mjs';

const DT = 1 / 60;
const FRAME_BUDGET_NS = 1e9 / 60;
const WARMUP_FRAMES = 20_000;
const ROUNDS = 9;
const ROUND_TARGET_NS = 75e6;
/** Frames of an allocation run; fewer when a GC interrupts one (see measureAllocation). */
const ALLOC_FRAMES = [100_000, 10_000, 1_000];
/** Frames both libraries run from t = 0 before their palettes are compared. */
const CHECK_FRAMES = 37;
const TARGET_RATIO = 10;
// The young generation must hold 100,000 frames of garbage, should there be any, without a
// scavenge; min = max so it does not start small and grow (growing needs scavenges).

const SCENARIOS = [
  {
    id: 'robot',
    name: 'RobotExpressive Walking',
    kind: 'gltf',
    file: 'gltf/RobotExpressive.glb',
    clip: 'Walking',
  },
  { id: 'bvh', name: 'CMU 02_01 walk (BVH)', kind: 'bvh', file: 'bvh/cmu_02_01_walk.bvh' },
  { id: 'fox', name: 'Fox Walk', kind: 'gltf', file: 'gltf/Fox.glb', clip: 'Walk' },
];

const asset = (file) => new URL(`../../shared/assets/${file}`, import.meta.url);

// ---------------------------------------------------------------------------------------------
// tendon

async function loadTendon(scenario) {
  if (scenario.kind === 'bvh') {
    const { skeleton, clip } = importBvh(readFileSync(asset(scenario.file), 'utf8'), { scale: 1 });
    return { skeleton, clip, skins: [restSkin(skeleton)] };
  }
  const imported = await importGltf(readFileSync(asset(scenario.file)), { source: scenario.file });
  for (const entry of imported.skeletons) {
    const clip = entry.clips.find((c) => c.name === scenario.clip);
    if (clip !== undefined) return { skeleton: entry.skeleton, clip, skins: entry.skins };
  }
  throw new Error(`${scenario.file}: no skeleton plays "${scenario.clip}"`);
}

/**
 * A BVH file has no skin: bind every joint at the rest pose (inverse bind = inverse rest model
 * matrix), as three's `new Skeleton(bones)` does. three's Matrix4 inverts: setup only.
 */
function restSkin(skeleton) {
  const model = createModelBuffer(skeleton);
  forwardKinematics(new Pose(skeleton), model);
  const inverseBindMatrices = new Float64Array(model.length);
  const m = new Matrix4();
  for (let j = 0; j < skeleton.jointCount; j++) {
    m.fromArray(model, 16 * j)
      .invert()
      .toArray(inverseBindMatrices, 16 * j);
  }
  const joints = Array.from({ length: skeleton.jointCount }, (_, j) => j);
  return new Skin(skeleton, { joints, inverseBindMatrices, name: 'rest' });
}

function tendonCharacter({ skeleton, clip, skins }) {
  const pose = new Pose(skeleton);
  const context = new SamplerContext(clip);
  const model = createModelBuffer(skeleton);
  const palettes = skins.map((skin) => skin.createPalette());
  const state = { time: 0 };
  return {
    palettes,
    run(frames) {
      // Time lives in a local: a double written to an object or closure slot every frame could
      // box a HeapNumber, and the harness's garbage would be blamed on the library.
      let time = state.time;
      for (let f = 0; f < frames; f++) {
        time += DT;
        sampleClip(clip, context, time, pose, 'loop');
        forwardKinematics(pose, model);
        for (let s = 0; s < skins.length; s++) skins[s].computePalette(model, palettes[s]);
      }
      state.time = time;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// three.js

async function loadThree(scenario) {
  if (scenario.kind === 'bvh') {
    // BVHLoader gives every joint a position track (constant OFFSET where the file has no position
    // channel), tendon only joints with position channels: kept, it is the clip a three user gets.
    const { skeleton, clip } = new BVHLoader().parse(readFileSync(asset(scenario.file), 'utf8'));
    const root = new Group();
    root.add(skeleton.bones[0]);
    // BVHLoader's own Skeleton took its inverses before the bones had world matrices.
    root.updateMatrixWorld(true);
    return { root, clip, skeletons: [new ThreeSkeleton(skeleton.bones)] };
  }
  const gltf = await new GLTFLoader().parseAsync(glbWithoutTextures(readFileSync(asset(scenario.file))), '');
  const source = gltf.animations.find((c) => c.name === scenario.clip);
  if (source === undefined) throw new Error(`${scenario.file}: three found no clip "${scenario.clip}"`);
  // tendon does not import morph-target weights; three would animate them on top of the same
  // skeleton work, which would not be the same frame.
  const tracks = source.tracks.filter((track) => !track.name.endsWith('.morphTargetInfluences'));
  const clip = new AnimationClip(source.name, source.duration, tracks);
  // GLTFLoader gives the meshes of one glTF skin one Skeleton; the renderer updates each once.
  const skeletons = new Set();
  gltf.scene.traverse((object) => {
    if (object.isSkinnedMesh) skeletons.add(object.skeleton);
  });
  return { root: gltf.scene, clip, skeletons: [...skeletons] };
}

function threeCharacter({ root, clip, skeletons }) {
  const mixer = new AnimationMixer(root);
  mixer.clipAction(clip).play();
  return {
    palettes: skeletons.map((skeleton) => skeleton.boneMatrices),
    run(frames) {
      for (let f = 0; f < frames; f++) {
        mixer.update(DT);
        root.updateMatrixWorld();
        for (let s = 0; s < skeletons.length; s++) skeletons[s].update();
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// measurement

/**
 * Largest difference between the two libraries' palettes after the same frames from t = 0: a
 * guard that both really compute the same frame (three keeps float32 keys, so ~1e-6 is expected).
 * Each tendon palette is paired with the closest three palette of its size: the loaders neither
 * name joints alike (three renames duplicates) nor promise the same skin order.
 */
function paletteDifference(tendon, three) {
  const difference = (a, b) => {
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
    return worst;
  };
  let worst = 0;
  for (const palette of tendon.palettes) {
    const candidates = three.palettes.filter((other) => other.length === palette.length);
    if (candidates.length === 0) throw new Error('no three.js skeleton has as many joints as a tendon skin');
    worst = Math.max(worst, Math.min(...candidates.map((other) => difference(palette, other))));
  }
  return worst;
}

function nsPerFrame(character, frames) {
  const start = process.hrtime.bigint();
  character.run(frames);
  return Number(process.hrtime.bigint() - start) / frames;
}

/** Frames per round so that a round lasts about ROUND_TARGET_NS, from a post-warm-up sample. */
function framesPerRound(character) {
  const estimate = nsPerFrame(character, 5000);
  return Math.max(1000, Math.round(ROUND_TARGET_NS / estimate));
}

/** Alternating rounds; the order flips every round so that neither side always runs second. */
function timeRounds(tendon, three) {
  const nTendon = framesPerRound(tendon);
  const nThree = framesPerRound(three);
  const rounds = { tendon: [], three: [] };
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? ['tendon', 'three'] : ['three', 'tendon'];
    for (const side of order) {
      rounds[side].push(side === 'tendon' ? nsPerFrame(tendon, nTendon) : nsPerFrame(three, nThree));
    }
  }
  return { framesPerRound: { tendon: nTendon, three: nThree }, rounds };
}

/** Bytes allocated per frame (heap growth over ALLOC_FRAMES frames; see harness.mjs). */
function allocationPerFrame(character) {
  return measureAllocation((frames) => character.run(frames), ALLOC_FRAMES);
}

async function runScenario(scenario) {
  const tendonAsset = await loadTendon(scenario);
  const threeAsset = await loadThree(scenario);
  const tendon = tendonCharacter(tendonAsset);
  const three = threeCharacter(threeAsset);
  tendon.run(CHECK_FRAMES);
  three.run(CHECK_FRAMES);
  const maxPaletteDifference = paletteDifference(tendon, three);
  tendon.run(WARMUP_FRAMES);
  three.run(WARMUP_FRAMES);
  const { framesPerRound: perRound, rounds } = timeRounds(tendon, three);
  const tendonNs = median(rounds.tendon);
  const threeNs = median(rounds.three);
  return {
    scenario: scenario.name,
    joints: tendonAsset.skeleton.jointCount,
    skins: tendonAsset.skins.map((skin) => skin.jointCount),
    tracks: { tendon: tendonAsset.clip.trackCount, three: threeAsset.clip.tracks.length },
    maxPaletteDifference,
    framesPerRound: perRound,
    roundsNsPerFrame: rounds,
    tendonNsPerFrame: tendonNs,
    threeNsPerFrame: threeNs,
    ratio: threeNs / tendonNs,
    tendonFramesPerSecondPerCore: 1e9 / tendonNs,
    tendonCharactersPer60HzFrame: FRAME_BUDGET_NS / tendonNs,
    allocation: { tendon: await allocationPerFrame(tendon), three: await allocationPerFrame(three) },
  };
}

// ---------------------------------------------------------------------------------------------
// report

function printResults(results) {
  const header = [
    'scenario',
    'joints',
    'tendon ns/frame',
    'three ns/frame',
    'ratio (three/tendon)',
    'tendon B/frame',
    'three B/frame',
    'tendon frames/s/core',
    'chars per 16.7 ms',
  ];
  const bytes = (a) => `${a.bytesPerCall.toFixed(1)}${a.lowerBound ? ' (≥, GC ran)' : ''}`;
  const rows = results.map((r) => [
    r.scenario,
    String(r.joints),
    r.tendonNsPerFrame.toFixed(0),
    r.threeNsPerFrame.toFixed(0),
    `${r.ratio.toFixed(1)}×`,
    bytes(r.allocation.tendon),
    bytes(r.allocation.three),
    Math.round(r.tendonFramesPerSecondPerCore).toLocaleString('en-US'),
    Math.floor(r.tendonCharactersPer60HzFrame).toLocaleString('en-US'),
  ]);
  printTable(header, rows);
  console.log();
  for (const r of results) {
    const gcs = (a) =>
      [...a.interrupted, a]
        .map((run) => `${run.count} frames ${run.gcs.length === 0 ? 'no GC' : `${run.gcs.join(', ')} ran`}`)
        .join(' → ');
    console.log(
      `${r.scenario}: tracks tendon ${r.tracks.tendon} / three ${r.tracks.three}, skins [${r.skins}], ` +
        `rounds of ${r.framesPerRound.tendon} / ${r.framesPerRound.three} frames, ` +
        `palettes agree to ${r.maxPaletteDifference.toExponential(1)}, ` +
        `allocation runs: tendon ${gcs(r.allocation.tendon)}; three ${gcs(r.allocation.three)}`,
    );
  }
  console.log();
  console.log(`Target: ≥ ${TARGET_RATIO}× three.js and 0 bytes per frame.`);
  for (const r of results) {
    const fast = r.ratio >= TARGET_RATIO;
    // V8's smallest object is 16 B, so < 1 B/frame is residue of the measurement, not per frame.
    const free = r.allocation.tendon.bytesPerCall < 1 && !r.allocation.tendon.lowerBound;
    const verdict = fast && free ? 'meets it' : 'does NOT meet it';
    console.log(
      `  ${r.scenario}: ${verdict} (${r.ratio.toFixed(1)}× ${fast ? '≥' : '<'} ${TARGET_RATIO}×, ` +
        `${r.allocation.tendon.bytesPerCall.toFixed(1)} B/frame${free ? ' ≈ 0' : ' ≠ 0'})`,
    );
  }
}

async function main() {
  if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');
  // Scenario ids on the command line run only those: three.js's speed depends on which scenarios
  // ran before it in the process (its code turns polymorphic), so a single one is worth a look.
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((id) => !SCENARIOS.some((s) => s.id === id));
  if (unknown.length > 0)
    throw new Error(`unknown scenario ${unknown}; known: ${SCENARIOS.map((s) => s.id)}`);
  const scenarios = wanted.length === 0 ? SCENARIOS : SCENARIOS.filter((s) => wanted.includes(s.id));
  const results = [];
  for (const scenario of scenarios) {
    console.error(`measuring ${scenario.name} ...`);
    results.push(await runScenario(scenario));
  }
  printResults(results);
  const out = new URL('./results/frame.json', import.meta.url);
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  const meta = {
    ...environment(),
    scenarios: scenarios.map((s) => s.id),
    dtSeconds: DT,
    warmupFrames: WARMUP_FRAMES,
    rounds: ROUNDS,
    allocationFrames: ALLOC_FRAMES,
    target: { ratio: TARGET_RATIO, bytesPerFrame: 0 },
  };
  writeFileSync(out, `${JSON.stringify({ meta, results }, null, 2)}\n`);
  console.log(`\nwritten ${fileURLToPath(out)}`);
}

await runWithV8Flags(import.meta.url, main);
