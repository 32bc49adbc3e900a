// The runnable example: the bundled RobotExpressive robot walks, blends into a run, and has its
// hands skinned on the CPU. Run with `npm run example` (it builds tendon first).
import { readFileSync } from 'node:fs';
import {
  createJointMask,
  createModelBuffer,
  forwardKinematics,
  importGltf,
  Mixer,
  Pose,
  skinMesh,
} from '../dist/index.js';

const file = new URL('./assets/RobotExpressive.glb', import.meta.url);
const robot = await importGltf(readFileSync(file), { source: 'RobotExpressive.glb' });
const { skeleton, skins, clips } = robot.skeletons[0];
console.log(
  `RobotExpressive: ${skeleton.jointCount} joints, ${robot.skinByIndex.length} glTF skins sharing ${skins.length} palette, ${clips.length} clips`,
);
console.log(`  clips: ${clips.map((c) => `${c.name} ${c.duration.toFixed(2)} s`).join(', ')}`);

const clip = (name) => clips.find((c) => c.name === name);
const pose = new Pose(skeleton);
const model = createModelBuffer(skeleton);
const palettes = skins.map((skin) => skin.createPalette());
const footL = skeleton.jointIndex('Foot.L');
const footR = skeleton.jointIndex('Foot.R');
const hips = skeleton.jointIndex('Hips');
const heightOf = (joint) => model[16 * joint + 13];

function frame(mixer) {
  mixer.evaluate(pose);
  forwardKinematics(pose, model);
  for (let i = 0; i < skins.length; i++) skins[i].computePalette(model, palettes[i]);
}

// One walk cycle at 60 Hz: the feet take turns on the ground.
const walking = new Mixer(skeleton);
walking.addLayer({ clip: clip('Walking') });
console.log('\nWalking, one cycle (model-space heights in metres):');
console.log('  time    Foot.L  Foot.R  Hips');
const cycle = clip('Walking').duration;
for (let i = 0; i < 12; i++) {
  frame(walking);
  const bar = (y) => '#'.repeat(Math.max(0, Math.round((y - 0.0) * 40)));
  console.log(
    `  ${walking.layers[0].time.toFixed(3)}  ${heightOf(footL).toFixed(3)}   ${heightOf(footR).toFixed(3)}   ${heightOf(hips).toFixed(3)}  L ${bar(heightOf(footL))}`,
  );
  walking.advance(cycle / 12);
}

// Walk and run blended half and half, with a waving upper body on top (a masked layer).
const blended = new Mixer(skeleton);
blended.addLayer({ clip: clip('Walking'), weight: 0.5 });
blended.addLayer({ clip: clip('Running'), weight: 0.5 });
blended.addLayer({ clip: clip('Wave'), weight: 1e6, mask: createJointMask(skeleton, ['Shoulder.R']) });
blended.advance(0.25);
frame(blended);
const hand = skeleton.jointIndex('LowerArm.R');
console.log(
  `\nWalk/run blend with a waving right arm at 0.25 s: hips at ${heightOf(hips).toFixed(3)} m, right forearm at ${heightOf(hand).toFixed(3)} m`,
);

// CPU skinning of the hands (the robot's only skinned meshes; the rest are rigid parts).
for (const primitive of robot.primitives) {
  const palette = palettes[skins.indexOf(primitive.skin)];
  const out = new Float32Array(primitive.positions.length);
  skinMesh(primitive, palette, out);
  let minY = Number.POSITIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (let v = 1; v < out.length; v += 3) {
    minY = Math.min(minY, out[v]);
    maxY = Math.max(maxY, out[v]);
  }
  console.log(
    `  skinned ${primitive.name}: ${out.length / 3} vertices, y from ${minY.toFixed(3)} to ${maxY.toFixed(3)} m`,
  );
}

// How many characters fit in a 60 Hz frame (sample + blend + FK + palettes), on this core.
const start = performance.now();
let frames = 0;
while (performance.now() - start < 500) {
  for (let i = 0; i < 1000; i++) {
    walking.advance(1 / 60);
    frame(walking);
  }
  frames += 1000;
}
const ns = ((performance.now() - start) * 1e6) / frames;
console.log(
  `\nOne character frame (sample + FK + palette): ${ns.toFixed(0)} ns, about ${Math.floor(16.7e6 / ns)} characters per 60 Hz frame on one core`,
);
