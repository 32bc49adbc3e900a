/**
 * A placed crowd on a CrowdSchedule, alone in its process: 1,000 RobotExpressive robots walking
 * over the bumps of terrain.mjs, each with its own FootPlacement (placement-step.mjs), 16 at a time
 * through sample, forward kinematics and placement; every robot every frame, then 100 every frame
 * and 900 every 4th (each placed with its own wait), on one thread and on 2 workers (CrowdWorkers
 * with the schedule). The crowd bench has the same lines among its others, where its workers run
 * slower (docs/crowds.md, Workers); here nothing else shares the process.
 *
 * Run: `npm run build && node bench/crowd-schedule.mjs` (about 30 s; the last part of `npm run bench`,
 * in a process of its own: the crowd bench's workers, among its other lines, run slower).
 */
import { readFileSync } from 'node:fs';
import { nodeCrowdWorker } from '../dist/crowd/node.js';
import * as tendon from '../dist/index.js';
import { environment, median } from './harness.mjs';
import { placedCrowdStep, placedWorlds } from './placement-step.mjs';

const COUNT = 1000;
const NEAR = 100;
const PERIOD = 4;
const CHUNK = 16;
const DT = 1 / 60;
const WARM_FRAMES = 300;
const FRAMES = 150;
const ROUNDS = 5;

const bytes = readFileSync(new URL('../examples/assets/RobotExpressive.glb', import.meta.url));
const { skeleton, clips } = (await tendon.importGltf(bytes, { source: 'RobotExpressive.glb' })).skeletons[0];
const walk = clips.find((c) => c.name === 'Walking');

/** One placed crowd: `frame()` runs a frame; `close()` stops its workers. */
async function placedCrowd(workers, lod) {
  const shared = workers > 0;
  const crowd = new tendon.Crowd(skeleton, COUNT, { shared });
  for (let c = 0; c < COUNT; c++) {
    crowd.setClip(c, walk);
    crowd.times[c] = (c * walk.duration * 0.6180339887498949) % walk.duration;
  }
  const schedule = new tendon.CrowdSchedule(COUNT, { block: CHUNK, shared });
  if (lod) schedule.periods.fill(PERIOD, NEAR);
  const memory = (ctor, length) =>
    shared ? new ctor(new SharedArrayBuffer(ctor.BYTES_PER_ELEMENT * length)) : new ctor(length);
  const data = {
    worlds: memory(Float64Array, 16 * COUNT),
    clock: memory(Float64Array, 1),
    seconds: lod ? schedule.seconds : null,
  };
  placedWorlds(data.worlds, COUNT);
  const { step } = placedCrowdStep(crowd, data);
  const pool = await tendon.CrowdWorkers.start(crowd, {
    workers,
    fallback: 'calling-thread',
    chunk: CHUNK,
    createWorker: nodeCrowdWorker({
      url: new URL('./placement-worker.mjs', import.meta.url),
      resourceLimits: { maxYoungGenerationSizeMb: 16 },
    }),
    schedule: lod ? schedule : undefined,
    custom: { step, data },
  });
  const steps = tendon.CROWD_STEP.sample | tendon.CROWD_STEP.forwardKinematics | tendon.CROWD_STEP.custom;
  let updated = 0;
  return {
    name: `${workers > 0 ? `${workers} workers` : 'one thread'}, ${lod ? `${NEAR} every frame, ${COUNT - NEAR} every ${PERIOD}th` : 'every robot every frame'}`,
    frame() {
      data.clock[0] = DT;
      for (let c = 0; c < COUNT; c++) crowd.times[c] += DT;
      if (lod) {
        schedule.plan(DT);
        for (let c = 0; c < COUNT; c++) updated += schedule.due[c];
      } else updated += COUNT;
      pool.runSync(steps);
    },
    updated: () => updated,
    close: () => pool.terminate(),
  };
}

const lines = [];
for (const lod of [false, true]) for (const workers of [0, 2]) lines.push(await placedCrowd(workers, lod));
for (const line of lines) for (let f = 0; f < WARM_FRAMES; f++) line.frame();
const times = lines.map(() => []);
const updatedBefore = lines.map((l) => l.updated());
for (let r = 0; r < ROUNDS; r++) {
  for (const [i, line] of lines.entries()) {
    const start = performance.now();
    for (let f = 0; f < FRAMES; f++) line.frame();
    times[i].push((performance.now() - start) / FRAMES);
  }
}
const env = environment();
console.log(
  `A placed crowd on a CrowdSchedule, ${COUNT} robots, ${CHUNK} at a time (median of ${ROUNDS} rounds of ${FRAMES} frames; ${env.cpu}, ${env.node})`,
);
for (const [i, line] of lines.entries()) {
  const perFrame = (line.updated() - updatedBefore[i]) / (ROUNDS * FRAMES);
  console.log(
    `  ${line.name.padEnd(42)} ${median(times[i]).toFixed(3)} ms/frame, ${perFrame.toFixed(0)} robots placed a frame`,
  );
}
const [all, allWorkers, lod, lodWorkers] = lines.map((_, i) => median(times[i]));
console.log(
  `  the schedule: ${(all / lod).toFixed(2)}× on one thread, ${(allWorkers / lodWorkers).toFixed(2)}× on 2 workers; ` +
    `2 workers: ${(all / allWorkers).toFixed(2)}× every robot, ${(lod / lodWorkers).toFixed(2)}× on the schedule`,
);
for (const line of lines) line.close();
