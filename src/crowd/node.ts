/**
 * `tendon/node`: {@link CrowdWorkers}' workers as Node `worker_threads`.
 *
 * @packageDocumentation
 */
import { Worker } from 'node:worker_threads';
import type { CrowdWorkerFactory } from './workers.js';

export {
  CROWD_STEP,
  type CrowdCustomStep,
  type CrowdPalettes,
  type CrowdStep,
  type CrowdWorkerFactory,
  type CrowdWorkerHandle,
  type CrowdWorkerHooks,
  CrowdWorkers,
  type CrowdWorkersOptions,
} from './workers.js';

/** Options of {@link nodeCrowdWorker}. */
export interface NodeCrowdWorkerOptions {
  /** The worker's script: default tendon's own (`node-worker.js` beside this module). */
  readonly url?: string | URL;
  /** Node options of the worker (e.g. `['--import', 'tsx']` to run TypeScript sources). */
  readonly execArgv?: string[];
}

/**
 * A {@link CrowdWorkerFactory} making Node `worker_threads` that serve a crowd
 * (`serveCrowdWorker`): `CrowdWorkers.start(crowd, { workers: 2, createWorker: nodeCrowdWorker() })`.
 */
export function nodeCrowdWorker(options: NodeCrowdWorkerOptions = {}): CrowdWorkerFactory {
  const url = options.url ?? new URL('./node-worker.js', import.meta.url);
  return () => {
    const worker = new Worker(url, options.execArgv === undefined ? {} : { execArgv: options.execArgv });
    let stopped = false;
    return {
      postMessage: (message) => worker.postMessage(message),
      onMessage: (listener) => {
        worker.on('message', listener);
      },
      onError: (listener) => {
        worker.on('error', listener);
        worker.on('exit', (code) => {
          if (!stopped) listener(new Error(`the worker exited (code ${code})`));
        });
      },
      terminate: () => {
        stopped = true;
        void worker.terminate();
      },
    };
  };
}
