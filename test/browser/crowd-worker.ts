/** The Web Worker of crowd-workers-page.ts: serves a crowd's frames (serveCrowdWorker). */
import { serveCrowdWorker } from '../../src/index.js';

const scope = self as unknown as {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
};
const handle = serveCrowdWorker((message) => scope.postMessage(message));
scope.onmessage = (event) => handle(event.data);
