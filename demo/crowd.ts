/**
 * The crowd: N RobotExpressive robots walking the terrain in lanes, each its own phase and speed.
 * One `Crowd` samples every robot's walk and runs forward kinematics over the whole crowd in one
 * pass; one `CrowdPlacement` plants every robot's feet on the crowd's arrays themselves (a
 * `FootPlacement` per robot inside, nothing copied). Drawing: tendon/three's
 * `ThreeInstancedCrowd`, one draw call per mesh of the robot whatever N (the rigid parts placed from
 * the crowd's model matrices, the skinned hands skinned on the GPU from the crowd's 3×4 palettes in
 * a float texture). A slider sets N; the panel shows tendon's milliseconds per frame (sample +
 * forward kinematics + placement + palettes) and the whole frame's; window.tendonDemo exposes the
 * numbers the browser test reads. With "far ones every 4th frame" checked, a `CrowdSchedule`
 * updates the robots far from the camera every 4th frame, in turns (each walks on in steps then).
 */
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import {
  type Clip,
  Crowd,
  CrowdPlacement,
  CrowdSchedule,
  computeContacts,
  findRig,
  importGltf,
  SPRING,
  springOmega,
  springStep,
} from '../src/index.js';
import { bindThreeSkeleton, ThreeInstancedCrowd } from '../src/three/index.js';
import {
  createStage,
  describeError,
  headingMatrix,
  publish,
  terrain,
  terrainLength,
  terrainPoints,
} from './common.js';
import { type FootError, FootMeter, summary, tally } from './walker.js';

const SCALE = 0.5; // the robot is 3 units tall: 1.5 m
const MAX = 200;
const LANES = 10;
const LANE_GAP = 1.05; // m between lanes (z): the robot's head is about 0.95 m wide
const STRETCHES = 2; // the terrain's length: 2 × 16 m; a robot leaving its end comes back at 0
const LENGTH = terrainLength(STRETCHES);
/** Frames over which the panel's milliseconds are averaged. */
const WINDOW = 30;
/** With the schedule on: robots farther than this from the camera (m) are updated every FAR_PERIOD frames. */
const FAR = 22;
const FAR_PERIOD = 4;

/** One robot: where it walks. */
interface Robot {
  /** The animation's model matrices, before placement: the meter's "without IK" (not tendon's time). */
  readonly animated: Float64Array;
  /** Its model-to-world matrix: a view of the crowd's worlds, which the drawing reads. */
  readonly world: Float64Array;
  /** The origin's height spring (value, velocity) and its goal. */
  readonly controller: Float64Array;
  readonly goal: Float64Array;
  readonly weights: Float64Array;
  readonly planted: Uint8Array;
  x: number;
  z: number;
  time: number;
  speed: number;
  walked: number;
  started: boolean;
}

/** What the page's `window.tendonDemo.stats()` returns (test/browser/crowd-page.test.ts reads it). */
export interface CrowdStats {
  ready: boolean;
  count: number;
  frames: number;
  /** tendon's part of a frame (sample, forward kinematics, placement, palettes), ms, mean since the count was set. */
  tendonMs: number;
  /**
   * tendon's milliseconds by step, same frames: `pose` sample + forward kinematics (the crowd; with the schedule's plan),
   * `placement` each robot's travel and origin spring (one ground query) and its FootPlacement on
   * the crowd's arrays, `palettes` the crowd's skin palettes.
   */
  steps: { pose: number; placement: number; palettes: number };
  /** The page's whole frame on the CPU (tendon, three's uploads and draw calls), ms, same frames. */
  frameMs: number;
  /** Draw calls of the last frame. */
  drawCalls: number;
  /** Whether the far robots are updated every 4th frame (a CrowdSchedule), and how many robots were updated a frame, mean, same frames. */
  schedule: boolean;
  updated: number;
  /** Robot 0's pelvis, world (m), and how far it has walked since the count was set (m). */
  probe: [number, number, number];
  walked: number;
  footError: FootError;
  footErrorWithoutIk: FootError;
}

async function main(): Promise<void> {
  const { renderer, scene, camera } = createStage();
  const points = terrainPoints(STRETCHES);
  const { ground, mesh } = terrain(points, (LANES * LANE_GAP) / 2 + 0.6);
  scene.add(mesh);
  // From the front-left side, above: the lanes recede from the camera.
  camera.position.set(25, 8.5, 18);
  camera.lookAt(14, 0.2, -1.5);
  const panel = document.getElementById('panel') as HTMLElement;
  const slider = document.getElementById('count') as HTMLInputElement;
  const output = document.getElementById('count-value') as HTMLOutputElement;
  const farBox = document.getElementById('far') as HTMLInputElement;

  const bytes = new Uint8Array(await (await fetch('RobotExpressive.glb')).arrayBuffer());
  const gltf = await new GLTFLoader().parseAsync(bytes.buffer.slice(0) as ArrayBuffer, '');
  const imported = await importGltf(bytes, { source: 'RobotExpressive.glb' });
  const { skeleton, clips } = imported.skeletons[0];
  const walk = clips.find((c) => c.name === 'Walking') as Clip;
  const rig = findRig(skeleton);
  const track = computeContacts(walk, rig.legs);
  const J = skeleton.jointCount;
  // The feet move back as the body goes forward: travel is against the ground's velocity.
  const gx = -track.groundVelocity[0];
  const gz = -track.groundVelocity[2];
  const g = Math.sqrt(gx * gx + gz * gz);
  const heading: [number, number] = g > 0 ? [gx / g, gz / g] : [0, 1];

  // The robot loaded by three, bound to tendon's skeleton, drawn as instances: one draw per mesh.
  const drawn = new ThreeInstancedCrowd(bindThreeSkeleton(gltf.scene, { skeleton }), { capacity: MAX });
  scene.add(drawn.group);
  const worlds = new Float64Array(16 * MAX);

  const robots: Robot[] = [];
  /** The robot at the pool's index `robots.length`: where it walks, its world matrix's place. */
  const makeRobot = (): Robot => {
    const c = robots.length;
    return {
      animated: new Float64Array(16 * J),
      world: worlds.subarray(16 * c, 16 * (c + 1)),
      controller: new Float64Array(2),
      goal: new Float64Array(1),
      weights: new Float64Array(rig.legs.length),
      planted: new Uint8Array(rig.legs.length),
      x: 0,
      z: 0,
      time: 0,
      speed: 1,
      walked: 0,
      started: false,
    };
  };

  const spring = new Float64Array(SPRING.length);
  spring[SPRING.omega] = springOmega(0.15);
  const travel = new Float64Array(3);
  const meter = new FootMeter(ground, rig, track, SCALE);

  let crowd = new Crowd(skeleton, 0);
  let placement = new CrowdPlacement(crowd, rig, { ground, worlds: worlds.subarray(0, 0) });
  // Every robot every frame unless the box is checked; then the far ones every FAR_PERIOD frames.
  let schedule = new CrowdSchedule(0, { block: 1 });
  /** Each robot's model matrices: views of the crowd's (made once per N). */
  let models: Float64Array[] = [];
  let count = 0;
  const withIk = tally();
  const withoutIk = tally();
  let frames = 0;
  let measuredFrames = 0;
  let tendonSum = 0;
  let frameSum = 0;
  let poseSum = 0;
  let placementSum = 0;
  let paletteSum = 0;
  let updatedSum = 0;
  const recentTendon = new Float64Array(WINDOW);
  const recentFrame = new Float64Array(WINDOW);

  const resetStats = () => {
    for (const e of [withIk, withoutIk]) e.sum = e.max = e.samples = e.near = 0;
    measuredFrames = 0;
    tendonSum = frameSum = poseSum = placementSum = paletteSum = updatedSum = 0;
  };

  /** N robots: a new crowd, each robot placed in its lane at its phase and speed. */
  const setCount = (n: number) => {
    n = Math.max(1, Math.min(MAX, Math.round(n)));
    while (robots.length < n) robots.push(makeRobot());
    crowd = new Crowd(skeleton, n);
    // Every robot walks: each placement gets the walk's contacts, computed once above.
    placement = new CrowdPlacement(crowd, rig, {
      ground,
      worlds: worlds.subarray(0, 16 * n),
      contacts: () => track,
    });
    schedule = new CrowdSchedule(n, { block: 1 });
    models = [];
    const perLane = Math.ceil(n / LANES);
    const spacing = LENGTH / perLane;
    for (let c = 0; c < n; c++) {
      crowd.setClip(c, walk);
      models.push(crowd.modelOf(c));
      const robot = robots[c];
      const lane = c % LANES;
      const slot = Math.floor(c / LANES);
      // Lanes from the back (−z) to the front; in a lane one speed, so nobody walks into the next.
      robot.z = (lane - (LANES - 1) / 2) * LANE_GAP;
      robot.speed = 0.8 + (0.4 * lane) / (LANES - 1);
      robot.x = ((slot + 0.5 * (lane % 2)) * spacing) % LENGTH;
      // The golden ratio spreads the phases.
      robot.time = walk.duration * ((c * 0.6180339887498949) % 1);
      robot.walked = 0;
      robot.started = false;
    }
    count = n;
    slider.value = String(n);
    output.value = String(n);
    resetStats();
  };
  slider.addEventListener('input', () => setCount(Number(slider.value)));
  setCount(Number(slider.value));
  farBox.addEventListener('change', resetStats);

  const mean = (a: Float64Array, n: number) => {
    let s = 0;
    const k = Math.min(n, a.length);
    for (let i = 0; i < k; i++) s += a[i];
    return k > 0 ? s / k : 0;
  };
  const cm = (e: FootError) =>
    `${(100 * e.mean).toFixed(2)} cm mean, ${(100 * e.max).toFixed(2)} max, ${(100 * e.within1cm).toFixed(1)}% ≤ 1 cm`;
  const pelvis = 16 * rig.pelvis + 12;

  let last = performance.now();
  let running = true;
  const frame = (now: number) => {
    if (!running) return;
    frames++;
    // rAF timestamps can precede the performance.now() taken before the first frame. One step a
    // frame (at most 1/30 s): the work per frame stays one crowd update whatever the frame rate.
    const dt = Math.max(0, Math.min(1 / 30, (now - last) / 1000));
    last = now;
    const start = performance.now();
    const n = count;
    for (let c = 0; c < n; c++) {
      const robot = robots[c];
      robot.time += dt * robot.speed;
      if (robot.time >= walk.duration) robot.time -= walk.duration;
      crowd.times[c] = robot.time;
    }
    // Which robots to update: all, or (the box checked) the far ones every FAR_PERIOD frames.
    const scheduling = performance.now();
    for (let c = 0; c < n; c++) {
      const robot = robots[c];
      const far = Math.hypot(robot.x - camera.position.x, robot.z - camera.position.z) > FAR;
      schedule.periods[c] = farBox.checked && far ? FAR_PERIOD : 1;
    }
    const runs = schedule.plan(dt);
    // The schedule's own time, with the poses'.
    let poseMs = performance.now() - scheduling;
    let placementMs = 0;
    let updated = 0;
    for (let r = 0; r < runs; r++) {
      const first = schedule.runFirst[r];
      const end = first + schedule.runCount[r];
      // A robot walks on by the time since its last update: a far one in steps, its pose with it.
      const seconds = schedule.runSeconds[r];
      updated += end - first;
      const t0 = performance.now();
      crowd.sample('loop', first, end - first);
      crowd.forwardKinematics(first, end - first);
      const posed = performance.now();
      // For the meter (the animation's feet), not tendon's time.
      for (let c = first; c < end; c++) robots[c].animated.set(models[c]);
      const copied = performance.now();
      for (let c = first; c < end; c++) {
        const robot = robots[c];
        const { world } = robot;
        const model = models[c];
        // Travel as far as the clip's ground went over the clip time since its last update (a far
        // robot's four frames, say); a robot past the end starts over.
        track.groundTravel(robot.time - seconds * robot.speed, seconds * robot.speed, travel, 0);
        const step = -(travel[0] * heading[0] + travel[2] * heading[1]) * SCALE;
        robot.x += step;
        robot.walked += step;
        if (robot.x >= LENGTH) {
          robot.x -= LENGTH;
          robot.started = false;
          placement.placementOf(c).reset();
        }
        // The origin follows the ground under the pelvis through a spring.
        headingMatrix(world, heading, SCALE, robot.x, robot.controller[0], robot.z);
        const px =
          world[0] * model[pelvis] + world[4] * model[pelvis + 1] + world[8] * model[pelvis + 2] + world[12];
        const under = meter.groundUnder(px, robot.z);
        robot.goal[0] = Number.isNaN(under) ? robot.controller[0] : under;
        if (!robot.started) {
          robot.controller[0] = robot.goal[0];
          robot.controller[1] = 0;
          robot.started = true;
        }
        spring[SPRING.dt] = seconds;
        springStep(robot.controller, 0, robot.goal, 0, spring);
        headingMatrix(world, heading, SCALE, robot.x, robot.controller[0], robot.z);
      }
      placement.solve(seconds, first, end - first);
      const placed = performance.now();
      poseMs += posed - t0;
      placementMs += placed - copied;
    }
    // Measured outside tendon's time: the robots updated this frame (the others show last update's
    // pose, from before the contacts of now).
    for (let c = 0; c < n; c++) {
      if (schedule.due[c] === 0) continue;
      const robot = robots[c];
      track.sample(robot.time, 0.1, robot.weights, robot.planted);
      // As demo/walker.ts measures: with IK, and the animation alone.
      meter.measure(models[c], robot.world, robot.planted, withIk);
      meter.measure(robot.animated, robot.world, robot.planted, withoutIk);
    }
    const resumed = performance.now();
    drawn.writePalettes(crowd);
    const skinned = performance.now();
    const tendonMs = poseMs + placementMs + (skinned - resumed);
    poseSum += poseMs;
    placementSum += placementMs;
    paletteSum += skinned - resumed;
    updatedSum += updated;

    // three: every instance placed (the rigid parts from the model matrices, the hands from the palettes).
    drawn.update(crowd, worlds);
    renderer.render(scene, camera);
    const frameMs = performance.now() - start;
    recentTendon[frames % WINDOW] = tendonMs;
    recentFrame[frames % WINDOW] = frameMs;
    measuredFrames++;
    tendonSum += tendonMs;
    frameSum += frameMs;
    const calls = renderer.info.render.calls;
    panel.textContent =
      `${n} robots, ${calls} draw calls${farBox.checked ? `, ${(updatedSum / Math.max(1, measuredFrames)).toFixed(0)} updated a frame` : ''}\n` +
      `tendon: ${mean(recentTendon, frames).toFixed(2)} ms/frame (${((1000 * mean(recentTendon, frames)) / n).toFixed(1)} µs a robot)\n` +
      `frame:  ${mean(recentFrame, frames).toFixed(2)} ms (tendon + three's uploads and draws)\n` +
      `feet–ground at contacts: ${cm(summary(withIk))}\n` +
      `without IK:              ${cm(summary(withoutIk))}`;
    requestAnimationFrame(frame);
  };

  publish({
    stats: (): CrowdStats => {
      const r = robots[0];
      const m = models[0];
      const w = r.world;
      return {
        ready: frames > 3,
        count,
        frames,
        tendonMs: measuredFrames > 0 ? tendonSum / measuredFrames : 0,
        frameMs: measuredFrames > 0 ? frameSum / measuredFrames : 0,
        steps: {
          pose: measuredFrames > 0 ? poseSum / measuredFrames : 0,
          placement: measuredFrames > 0 ? placementSum / measuredFrames : 0,
          palettes: measuredFrames > 0 ? paletteSum / measuredFrames : 0,
        },
        drawCalls: renderer.info.render.calls,
        schedule: farBox.checked,
        updated: measuredFrames > 0 ? updatedSum / measuredFrames : 0,
        probe: [
          w[0] * m[pelvis] + w[4] * m[pelvis + 1] + w[8] * m[pelvis + 2] + w[12],
          w[1] * m[pelvis] + w[5] * m[pelvis + 1] + w[9] * m[pelvis + 2] + w[13],
          w[2] * m[pelvis] + w[6] * m[pelvis + 1] + w[10] * m[pelvis + 2] + w[14],
        ],
        walked: r.walked,
        footError: summary(withIk),
        footErrorWithoutIk: summary(withoutIk),
      };
    },
    resetStats,
    setCount,
  });
  addEventListener('pagehide', () => {
    running = false;
  });
  requestAnimationFrame(frame);
}

main().catch((error: unknown) => {
  const panel = document.getElementById('panel');
  if (panel) panel.textContent = `The page could not start: ${describeError(error)}`;
  console.error(error);
});
