/**
 * The placed crowd's own step, shared by crowd.bench.mjs's main thread and its workers
 * (placement-worker.mjs): each robot's FootPlacement over the bumps of terrain.mjs, the robot
 * walking along z at its clip's ground speed and starting over at the far end, solved on the
 * crowd's own arrays (Crowd.poseOf, Crowd.modelOf). A robot's placement is made on first use.
 */
import * as tendon from '../dist/index.js';
import { bumps, WALK_Z } from './terrain.mjs';

const SCALE = 0.5;
const LANES = 16;

/** Every robot's world matrix at the start: lanes across x, spread along the walk in z. */
export function placedWorlds(worlds, count) {
  for (let c = 0; c < count; c++) {
    worlds.set(
      [SCALE, 0, 0, 0, 0, SCALE, 0, 0, 0, 0, SCALE, 0, -4 + (8 * (c % LANES)) / (LANES - 1), 0, 0, 1],
      16 * c,
    );
    worlds[16 * c + 14] = -WALK_Z + ((c * 2 * WALK_Z * 0.6180339887498949) % (2 * WALK_Z));
  }
}

/**
 * `{ step(first, count), robots }` for `crowd`, reading `data.worlds` (16 per robot, moved by the
 * step) and `data.clock[0]` (the frame's dt), or with `data.seconds` (a CrowdSchedule's) each
 * robot's own wait.
 */
export function placedCrowdStep(crowd, data) {
  const skeleton = crowd.skeleton;
  const rig = tendon.findRig(skeleton);
  const ground = bumps().heightfield;
  const tracks = new Map();
  const robots = new Array(crowd.count).fill(null);
  const seconds = data.seconds ?? null;
  // One robot, a call each: hot after a few frames even where a crowd of 100 calls step once a
  // frame. The loop in step itself, run once a frame and shared by every line of the crowd bench,
  // could be left interpreted for hundreds of frames after another line's types deoptimized it,
  // boxing its doubles (seen as 2.8–9.5 KB a frame on the 100-robot line in some runs). So step
  // handles no double: placeRobot reads the dt itself (the frame's, or the wait of the run that
  // starts at `first`: one for the run's robots).
  const placeRobot = (c, first) => {
    const dt = seconds === null ? data.clock[0] : seconds[first];
    let r = robots[c];
    if (r === null) {
      const clip = crowd.clipOf(c);
      if (clip === null) return;
      let track = tracks.get(clip);
      if (track === undefined) {
        track = tendon.computeContacts(clip, rig.legs);
        tracks.set(clip, track);
      }
      const placement = new tendon.FootPlacement(skeleton, rig, { ground });
      placement.setContactTrack(track);
      r = {
        placement,
        pose: crowd.poseOf(c),
        model: crowd.modelOf(c),
        world: data.worlds.subarray(16 * c, 16 * (c + 1)),
        speed: new Float64Array([-track.groundVelocity[2] * SCALE]),
      };
      robots[c] = r;
    }
    const w = r.world;
    w[14] += r.speed[0] * dt;
    if (w[14] > WALK_Z) {
      w[14] -= 2 * WALK_Z;
      r.placement.reset();
    }
    // The clock and solveClock, not solve(…, dt, time): a double passed to a call V8 does not
    // inline is boxed (32 B a robot a frame, seen in some runs of the crowd bench).
    const clock = r.placement.clock;
    clock[0] = dt;
    clock[1] = crowd.times[c];
    r.placement.solveClock(r.pose, r.model, w);
  };
  const step = (first, count) => {
    for (let c = first; c < first + count; c++) placeRobot(c, first);
    return 0;
  };
  return { step, robots };
}
