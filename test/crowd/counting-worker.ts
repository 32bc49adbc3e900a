/** A crowd worker script whose custom step counts its calls: each call answers 1. */
import { parentPort } from 'node:worker_threads';
import { serveCrowdWorker } from '../../src/crowd/workers.js';

const port = parentPort;
if (port === null) throw new Error('counting-worker.ts runs as a worker_threads Worker');
port.on(
  'message',
  serveCrowdWorker((message) => port.postMessage(message), { setup: () => () => 1 }),
);
