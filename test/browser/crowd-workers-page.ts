/**
 * Runs in Chromium: a crowd of 300 two-bone legs split across 2 Web Workers (browserCrowdWorker,
 * crowd-worker.ts) over SharedArrayBuffers, 3 frames, against the same crowd on the page's thread;
 * or, in a page that is not cross-origin isolated, the calling-thread fallback. Publishes what it
 * saw on `window.tendonResult`.
 */
import {
  browserCrowdWorker,
  Clip,
  CROWD_STEP,
  Crowd,
  CrowdWorkers,
  isTendonError,
  Skeleton,
  sharedMemoryStatus,
  TwoBoneBatch,
} from '../../src/index.js';

export interface CrowdWorkersResult {
  readonly available: boolean;
  readonly reason: string;
  readonly parallel: boolean;
  readonly workerCount: number;
  readonly same: boolean;
  readonly invalid: number;
  readonly sharedError: string;
  readonly failure: string;
}

const skeleton = Skeleton.create({
  names: ['pelvis', 'hip', 'knee', 'ankle'],
  parents: [-1, 0, 1, 2],
  restTranslations: [0, 1, 0, 0.1, -0.05, 0, 0, -0.45, 0.03, 0, -0.42, -0.03],
});
const s = Math.sqrt(1 - 0.01);
const swing = Clip.create(skeleton, {
  tracks: [
    { joint: 'hip', path: 'rotation', times: [0, 0.5, 1], values: [0, 0, 0, 1, 0.1, 0, 0, s, 0, 0, 0, 1] },
  ],
});
const count = 300;
const J = skeleton.jointCount;

function make(shared: boolean) {
  const crowd = new Crowd(skeleton, count, { shared });
  const legs = new TwoBoneBatch(skeleton, [{ root: 'hip', middle: 'knee', end: 'ankle' }], count, { shared });
  for (let c = 0; c < count; c++) crowd.setClip(c, swing);
  return { crowd, legs };
}
function targets({ crowd, legs }: ReturnType<typeof make>, frame: number): void {
  for (let c = 0; c < count; c++) {
    const o = 16 * (c * J + 3) + 12;
    legs.targets.set(
      [crowd.model[o], crowd.model[o + 1] - 0.02 * (c % 3), crowd.model[o + 2] + 0.01 * frame],
      3 * c,
    );
  }
  legs.targets[3 * 17] = Number.NaN;
}

async function run(): Promise<CrowdWorkersResult> {
  const { available, reason } = sharedMemoryStatus();
  let sharedError = '';
  try {
    new Crowd(skeleton, 1, { shared: true });
  } catch (error) {
    sharedError = isTendonError(error) ? error.code : String(error);
  }
  const split = make(available);
  const workers = await CrowdWorkers.start(split.crowd, {
    workers: 2,
    createWorker: browserCrowdWorker(new URL('./worker.js', location.href)),
    batch: split.legs,
    fallback: 'calling-thread',
  });
  const one = make(false);
  let invalid = 0;
  for (let frame = 0; frame < 3; frame++) {
    for (let c = 0; c < count; c++) split.crowd.times[c] = one.crowd.times[c] = c / count + frame / 60;
    await workers.run(CROWD_STEP.sample | CROWD_STEP.forwardKinematics);
    targets(split, frame);
    invalid = await workers.run(CROWD_STEP.legs);
    one.crowd.sample();
    one.crowd.forwardKinematics();
    targets(one, frame);
    one.legs.solve(one.crowd);
  }
  const same = (a: ArrayLike<number>, b: ArrayLike<number>) =>
    a.length === b.length && Array.prototype.every.call(a, (x: number, i: number) => Object.is(x, b[i]));
  const allSame =
    same(split.crowd.model, one.crowd.model) &&
    same(split.crowd.rotations, one.crowd.rotations) &&
    same(split.legs.errors, one.legs.errors) &&
    same(split.legs.status, one.legs.status);
  // A NaN time in the second worker's range: the frame rejects, it does not hang.
  split.crowd.times[count - 1] = Number.NaN;
  const failure = await workers.run().then(
    () => 'none',
    (error: unknown) => (isTendonError(error) ? `${error.code}: ${error.message}` : String(error)),
  );
  workers.terminate();
  return {
    available,
    reason,
    parallel: workers.parallel,
    workerCount: workers.workerCount,
    same: allSame,
    invalid,
    sharedError,
    failure,
  };
}

const scope = window as unknown as { tendonResult?: CrowdWorkersResult | { error: string } };
run().then(
  (result) => {
    scope.tendonResult = result;
  },
  (error: unknown) => {
    scope.tendonResult = { error: String(error) };
  },
);
