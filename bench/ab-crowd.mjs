/**
 * A/B of two builds of tendon on a placed crowd: RobotExpressive robots walking over the bumps of
 * terrain.mjs, each with its own FootPlacement (placement-step.mjs), 16 at a time through sample,
 * forward kinematics and placement, both builds in one process, timed in alternating rounds (the
 * machine's drift hits both alike), medians reported.
 *
 *   node bench/ab-crowd.mjs <dir A> <dir B>        (N=1000 robots by default)
 *
 * Each directory is a checkout with `npm run build` done (its `dist/` and `bench/` are loaded), e.g.
 * a `git worktree` of the commit before a change, beside this one.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { median } from './harness.mjs';

const [, , aDir, bDir] = process.argv;
if (aDir === undefined || bDir === undefined) {
  console.error('usage: node bench/ab-crowd.mjs <dir A> <dir B>');
  process.exit(2);
}
const COUNT = Number(process.env.N ?? 1000);
const CHUNK = 16;
const DT = 1 / 60;
const ROUNDS = 9;
const ROUND_MS = 600;
const glb = readFileSync(new URL('../examples/assets/RobotExpressive.glb', import.meta.url));

/** One build's crowd: `frame()` runs a frame of all its robots. */
async function crowdOf(dir) {
  const url = (file) => pathToFileURL(path.resolve(dir, file)).href;
  const tendon = await import(url('dist/index.js'));
  const { placedCrowdStep, placedWorlds } = await import(url('bench/placement-step.mjs'));
  const imported = await tendon.importGltf(glb, { source: 'RobotExpressive.glb' });
  const { skeleton, clips } = imported.skeletons[0];
  const walk = clips.find((c) => c.name === 'Walking');
  const crowd = new tendon.Crowd(skeleton, COUNT);
  for (let c = 0; c < COUNT; c++) {
    crowd.setClip(c, walk);
    crowd.times[c] = (c * walk.duration * 0.6180339887498949) % walk.duration;
  }
  const data = { worlds: new Float64Array(16 * COUNT), clock: new Float64Array(1) };
  placedWorlds(data.worlds, COUNT);
  const { step } = placedCrowdStep(crowd, data);
  const frame = () => {
    data.clock[0] = DT;
    for (let c = 0; c < COUNT; c++) crowd.times[c] += DT;
    for (let first = 0; first < COUNT; first += CHUNK) {
      const n = Math.min(CHUNK, COUNT - first);
      crowd.sample('loop', first, n);
      crowd.forwardKinematics(first, n);
      step(first, n);
    }
  };
  for (let f = 0; f < 30; f++) frame();
  return frame;
}

const frames = [await crowdOf(aDir), await crowdOf(bDir)];
const times = [[], []];
for (let round = 0; round < ROUNDS; round++) {
  frames.forEach((frame, i) => {
    const start = performance.now();
    let n = 0;
    while (performance.now() - start < ROUND_MS) {
      frame();
      n++;
    }
    times[i].push((performance.now() - start) / n);
  });
}
const [a, b] = times.map(median);
console.log(`${COUNT} placed robots, ms per frame (median of ${ROUNDS} alternating rounds)`);
console.log(`  A ${a.toFixed(3)}  (${aDir}; rounds ${times[0].map((t) => t.toFixed(2)).join(' ')})`);
console.log(`  B ${b.toFixed(3)}  (${bDir}; rounds ${times[1].map((t) => t.toFixed(2)).join(' ')})`);
console.log(`  B / A ${(b / a).toFixed(3)}`);
