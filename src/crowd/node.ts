/**
 * `tendon/node`: {@link CrowdWorkers}' workers as Node `worker_threads`.
 *
 * @packageDocumentation
 */
import { type ResourceLimits, Worker } from 'node:worker_threads';
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
  /**
   * The worker's heap limits (Node's `Worker` `resourceLimits`). A process started with a large
   * young generation (`--max-semi-space-size`, `--min-semi-space-size`) gives every worker one as
   * large unless this says otherwise: with 256 MB semi-spaces a placed crowd's 2 workers split its
   * frame 1.05–1.38×, with `{ maxYoungGenerationSizeMb: 16 }` 1.38–1.73×, and 1.75–2.0× in a
   * process without those flags (`bench/crowd-memory.mjs`, docs/performance.md).
   */
  readonly resourceLimits?: ResourceLimits;
}

/**
 * A {@link CrowdWorkerFactory} making Node `worker_threads` that serve a crowd
 * (`serveCrowdWorker`): `CrowdWorkers.start(crowd, { workers: 2, createWorker: nodeCrowdWorker() })`.
 */
export function nodeCrowdWorker(options: NodeCrowdWorkerOptions = {}): CrowdWorkerFactory {
  const url = options.url ?? new URL('./node-worker.js', import.meta.url);
  return () => {
    const worker = new Worker(url, {
      ...(options.execArgv === undefined ? {} : { execArgv: options.execArgv }),
      ...(options.resourceLimits === undefined ? {} : { resourceLimits: options.resourceLimits }),
    });
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
