/** crowd.bench.mjs's workers for the placed crowd: tendon's worker, plus placement-step.mjs's step. */
import { parentPort } from 'node:worker_threads';
import { serveCrowdWorker } from '../dist/index.js';
import { placedCrowdStep } from './placement-step.mjs';

parentPort.on(
  'message',
  serveCrowdWorker((message) => parentPort.postMessage(message), {
    setup: ({ crowd, data }) => placedCrowdStep(crowd, data).step,
  }),
);
