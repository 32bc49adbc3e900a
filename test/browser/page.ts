/**
 * Runs in Chromium: imports a glTF with tendon's browser build, poses it, and publishes the model
 * matrices (and how a truncated file fails) on `window.tendonResult` for the test to read.
 */
import {
  createModelBuffer,
  forwardKinematics,
  importGltf,
  isTendonError,
  Pose,
  SamplerContext,
  sampleClip,
} from '../../src/index.js';

export interface BrowserResult {
  readonly joints: number;
  readonly clip: string;
  readonly matrices: number[];
  readonly truncatedError: string;
}

async function run(): Promise<BrowserResult> {
  const bytes = new Uint8Array(await (await fetch('/assets/RobotExpressive.glb')).arrayBuffer());
  const imported = await importGltf(bytes, { source: 'RobotExpressive.glb' });
  const { skeleton, clips } = imported.skeletons[0];
  const clip = clips.find((c) => c.name === 'Walking')!;
  const pose = new Pose(skeleton);
  const model = createModelBuffer(skeleton);
  const context = new SamplerContext(clip);
  const matrices: number[] = [];
  for (const t of [0, 0.1, 0.37, 0.8]) {
    sampleClip(clip, context, t, pose);
    forwardKinematics(pose, model);
    matrices.push(...model);
  }
  let truncatedError = 'none';
  try {
    await importGltf(bytes.subarray(0, 1000), { source: 'cut.glb' });
  } catch (error) {
    truncatedError = isTendonError(error) ? error.code : String(error);
  }
  return { joints: skeleton.jointCount, clip: clip.name, matrices, truncatedError };
}

const scope = window as unknown as { tendonResult?: BrowserResult | { error: string } };
run().then(
  (result) => {
    scope.tendonResult = result;
  },
  (error: unknown) => {
    scope.tendonResult = { error: String(error) };
  },
);
