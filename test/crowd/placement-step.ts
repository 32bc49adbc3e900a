/**
 * A custom crowd step for the workers tests: each character's own `FootPlacement` on a 20° slope,
 * made on first use, solved on the crowd's arrays. The main thread and the workers build it from
 * the same code and data (test/crowd/placement-worker.ts).
 */

import type { Clip } from '../../src/animation/clip.js';
import type { CrowdStep } from '../../src/crowd/workers.js';
import { type ContactTrack, computeContacts } from '../../src/placement/contacts.js';
import { FootPlacement } from '../../src/placement/foot-placement.js';
import { PlaneGround } from '../../src/placement/plane-ground.js';
import type { Crowd } from '../../src/pose/crowd.js';
import type { Pose } from '../../src/pose/pose.js';
import { findRig } from '../../src/rig/find-rig.js';

/** What the step reads each frame: 16 numbers of world matrix per character, and `dt` in `clock[0]`. */
export interface PlacementData {
  readonly worlds: Float64Array;
  readonly clock: Float64Array;
}

export function placementStep(crowd: Crowd, data: PlacementData): CrowdStep {
  const rig = findRig(crowd.skeleton);
  const ground = new PlaneGround([0, 0, 0], [0, 0.9396926207859084, -0.3420201433256687]);
  const tracks = new Map<Clip, ContactTrack>();
  const robots: ({
    placement: FootPlacement;
    pose: Pose;
    model: Float64Array;
    world: Float64Array;
  } | null)[] = new Array(crowd.count).fill(null);
  return (first, count) => {
    for (let c = first; c < first + count; c++) {
      let robot = robots[c];
      if (robot === null) {
        const clip = crowd.clipOf(c);
        if (clip === null) continue;
        const track = tracks.get(clip) ?? computeContacts(clip, rig.legs);
        tracks.set(clip, track);
        const placement = new FootPlacement(crowd.skeleton, rig, { ground });
        placement.setContactTrack(track);
        robot = {
          placement,
          pose: crowd.poseOf(c),
          model: crowd.modelOf(c),
          world: data.worlds.subarray(16 * c, 16 * c + 16),
        };
        robots[c] = robot;
      }
      robot.placement.solve(robot.pose, robot.model, robot.world, data.clock[0], crowd.times[c]);
    }
    return 0;
  };
}
