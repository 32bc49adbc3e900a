/**
 * The script of {@link nodeCrowdWorker}'s workers: serves a crowd's frames (`serveCrowdWorker`).
 *
 * @packageDocumentation
 */
import { parentPort } from 'node:worker_threads';
import { serveCrowdWorker } from './workers.js';

const port = parentPort;
if (port === null) throw new Error('tendon: node-worker.js runs as a worker_threads Worker');
port.on(
  'message',
  serveCrowdWorker((message) => port.postMessage(message)),
);
