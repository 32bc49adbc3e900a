// The crowd worker's TypeScript source run in a worker_threads Worker (Node 20 does not pass
// --import tsx on to workers): tsx's loader registered in the thread, then the script.
import { register } from 'tsx/esm/api';

register();
await import('../../src/crowd/node-worker.ts');
