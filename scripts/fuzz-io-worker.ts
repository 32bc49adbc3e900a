/**
 * The fuzzer's worker (scripts/fuzz-io.ts): imports one input per message and answers what
 * happened, with the memory the import held while its result was alive (the isolate's heap and
 * the array buffers it owns, above what it held before).
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { isTendonError } from '../src/errors.js';
import { importBvh } from '../src/io/bvh.js';
import { importGltf } from '../src/io/gltf.js';

interface Request {
  readonly format: 'glb' | 'gltf' | 'bvh';
  readonly bytes: Uint8Array;
  readonly source: string;
}

const port = parentPort;
if (port === null) throw new Error('fuzz-io-worker runs in a worker thread');

const held = () => {
  const h = getHeapStatistics();
  return h.used_heap_size + h.external_memory;
};

port.on('message', async ({ format, bytes, source }: Request) => {
  const before = held();
  try {
    // Kept alive until its size is measured: what the import holds is what the caller would.
    const result =
      format === 'bvh'
        ? importBvh(new TextDecoder().decode(bytes), { source })
        : await importGltf(bytes, { source });
    const bytesHeld = held() - before;
    const joints =
      'skeletons' in result
        ? result.skeletons.reduce((n, s) => n + s.skeleton.jointCount, 0)
        : result.skeleton.jointCount;
    port.postMessage({ outcome: 'success', message: `${joints} joints`, bytesHeld });
  } catch (error) {
    const bytesHeld = held() - before;
    if (isTendonError(error)) {
      port.postMessage({ outcome: 'typed error', message: `${error.code}: ${error.message}`, bytesHeld });
    } else {
      const e = error as Error;
      port.postMessage({ outcome: 'other exception', message: `${e?.name}: ${e?.message}`, bytesHeld });
    }
  }
});
port.postMessage({ outcome: 'ready', message: '', bytesHeld: 0 });
