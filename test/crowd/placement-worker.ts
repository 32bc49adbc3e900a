/** A crowd worker script of the caller's own: tendon's, plus the custom step of placement-step.ts. */
import { parentPort } from 'node:worker_threads';
import { serveCrowdWorker } from '../../src/crowd/workers.js';
import { type PlacementData, placementStep } from './placement-step.js';

const port = parentPort;
if (port === null) throw new Error('placement-worker.ts runs as a worker_threads Worker');
port.on(
  'message',
  serveCrowdWorker((message) => port.postMessage(message), {
    setup: ({ crowd, data }) => placementStep(crowd, data as PlacementData),
  }),
);
