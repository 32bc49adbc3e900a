/**
 * Where a placed crowd's frame goes: memory. Robots walking over the bumps of terrain.mjs, each with
 * its own FootPlacement on the crowd's arrays (placement-step.mjs), 16 at a time through sample,
 * forward kinematics and placement. Three measures, each of alternating runs in one process:
 *
 * - cost per robot against the crowd's size: flat while the crowd's arrays and the placements'
 *   state fit in the caches, then a step up;
 * - 1,000 robots with one FootPlacement each, and the same robots all sharing one (wrong results,
 *   but one placement's state stays in the caches): what the placements' own memory costs;
 * - 1,000 robots on the calling thread and on 2 workers (CrowdWorkers, chunk 16).
 *
 * Run: `npm run build && node bench/crowd-memory.mjs` (not part of `npm run bench`: about a minute).
 * `YOUNG=16` gives the workers a 16 MB young generation (`nodeCrowdWorker`'s `resourceLimits`):
 * try it with `node --max-semi-space-size=256 --min-semi-space-size=256`, the crowd bench's flags.
 */
import { readFileSync } from 'node:fs';
import { nodeCrowdWorker } from '../dist/crowd/node.js';
import * as tendon from '../dist/index.js';
import { environment, median } from './harness.mjs';
import { placedCrowdStep, placedWorlds } from './placement-step.mjs';

const DT = 1 / 60;
const CHUNK = 16;
const RUN_MS = 700;
const ROUNDS = 5;

const bytes = readFileSync(new URL('../examples/assets/RobotExpressive.glb', import.meta.url));
const imported = await tendon.importGltf(bytes, { source: 'RobotExpressive.glb' });
const { skeleton, clips } = imported.skeletons[0];
const walk = clips.find((c) => c.name === 'Walking');

/** A placed crowd of `count` robots: `frame()` runs one frame; `share`: one placement for all. */
async function placedCrowd(count, { share = false, workers = 0 } = {}) {
  const shared = workers > 0;
  const crowd = new tendon.Crowd(skeleton, count, { shared });
  for (let c = 0; c < count; c++) {
    crowd.setClip(c, walk);
    crowd.times[c] = (c * walk.duration * 0.6180339887498949) % walk.duration;
  }
  const memory = (length) =>
    shared ? new Float64Array(new SharedArrayBuffer(8 * length)) : new Float64Array(length);
  const data = { worlds: memory(16 * count), clock: memory(1) };
  placedWorlds(data.worlds, count);
  const { step, robots } = placedCrowdStep(crowd, data);
  const pool = shared
    ? await tendon.CrowdWorkers.start(crowd, {
        workers,
        chunk: CHUNK,
        createWorker: nodeCrowdWorker({
          url: new URL('./placement-worker.mjs', import.meta.url),
          resourceLimits: process.env.YOUNG
            ? { maxYoungGenerationSizeMb: Number(process.env.YOUNG) }
            : undefined,
        }),
        custom: { step, data },
      })
    : null;
  const S = tendon.CROWD_STEP;
  const steps = S.sample | S.forwardKinematics | S.custom;
  let shareDone = !share;
  const frame = () => {
    data.clock[0] = DT;
    for (let c = 0; c < count; c++) crowd.times[c] += DT;
    if (pool !== null) {
      pool.runSync(steps);
      return;
    }
    for (let first = 0; first < count; first += CHUNK) {
      const n = Math.min(CHUNK, count - first);
      crowd.sample('loop', first, n);
      crowd.forwardKinematics(first, n);
      step(first, n);
    }
    if (!shareDone) {
      // Every robot made its placement in the first frame: now give them all the first one's.
      for (let c = 1; c < count; c++) if (robots[c] !== null) robots[c].placement = robots[0].placement;
      shareDone = true;
    }
  };
  for (let f = 0; f < 30; f++) frame();
  return { count, frame, close: () => pool?.terminate() };
}

/** µs per robot of each line, medians of ROUNDS alternating runs of ~RUN_MS. */
function measure(lines) {
  const times = lines.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    lines.forEach((line, i) => {
      const start = performance.now();
      let frames = 0;
      while (performance.now() - start < RUN_MS) {
        line.frame();
        frames++;
      }
      times[i].push(((performance.now() - start) * 1e3) / frames / line.count);
    });
  }
  return times.map((t) => ({ median: median(t), min: Math.min(...t), max: Math.max(...t) }));
}

const fmt = (m) => `${m.median.toFixed(2)} µs/robot (runs ${m.min.toFixed(2)}–${m.max.toFixed(2)})`;

console.log(
  `Placed crowd memory (RobotExpressive Walking, ${CHUNK} at a time; ${environment().cpu}, ${environment().node})`,
);
{
  const sizes = [100, 200, 400, 1000, 2000];
  const lines = [];
  for (const n of sizes) lines.push(await placedCrowd(n));
  measure(lines).forEach((m, i) => {
    console.log(`  ${String(sizes[i]).padStart(5)} robots: ${fmt(m)}`);
  });
}
{
  const lines = [await placedCrowd(1000), await placedCrowd(1000, { share: true })];
  const [own, one] = measure(lines);
  console.log(`  1000 robots, a FootPlacement each: ${fmt(own)}`);
  console.log(
    `  1000 robots sharing one FootPlacement: ${fmt(one)} (${(one.median / own.median).toFixed(2)}×)`,
  );
}
{
  const lines = [await placedCrowd(1000), await placedCrowd(1000, { workers: 2 })];
  const [single, parallel] = measure(lines);
  console.log(`  1000 robots, calling thread: ${fmt(single)}`);
  console.log(
    `  1000 robots, 2 workers: ${fmt(parallel)} (speed-up ${(single.median / parallel.median).toFixed(2)}×)`,
  );
  for (const line of lines) line.close();
}
