/**
 * A custom crowd step for the workers tests: a `CrowdPlacement` (each character's own
 * `FootPlacement`) on a 20° slope, solved on the crowd's arrays, the characters' worlds on the
 * memory the step is given. The main thread and the workers build it from the same code and data
 * (test/crowd/placement-worker.ts).
 */

import type { CrowdStep } from '../../src/crowd/workers.js';
import { CrowdPlacement } from '../../src/placement/crowd-placement.js';
import { PlaneGround } from '../../src/placement/plane-ground.js';
import type { Crowd } from '../../src/pose/crowd.js';
import { findRig } from '../../src/rig/find-rig.js';

/** What the step reads each frame: 16 numbers of world matrix per character, and `dt` in `clock[0]`. */
export interface PlacementData {
  readonly worlds: Float64Array;
  readonly clock: Float64Array;
}

export function placementStep(crowd: Crowd, data: PlacementData): CrowdStep {
  const ground = new PlaneGround([0, 0, 0], [0, 0.9396926207859084, -0.3420201433256687]);
  const placement = new CrowdPlacement(crowd, findRig(crowd.skeleton), { ground, worlds: data.worlds });
  return (first, count) => {
    placement.solve(data.clock[0], first, count);
    return 0;
  };
}
