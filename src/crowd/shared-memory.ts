/**
 * Whether this environment can share memory between threads, and buffers that can be shared.
 *
 * @packageDocumentation
 */
import { describeArg } from '../arguments.js';
import { TendonError } from '../errors.js';

/** Whether memory can be shared with workers here ({@link sharedMemoryStatus}), and if not, why. */
export interface SharedMemoryStatus {
  /** `true` when `SharedArrayBuffer` exists and (in a page) the page is cross-origin isolated. */
  readonly available: boolean;
  /** Why not (empty when available). */
  readonly reason: string;
}

/**
 * Whether a crowd's buffers can live on a `SharedArrayBuffer` seen by workers: not where
 * `SharedArrayBuffer` is undefined, nor in a page that is not cross-origin isolated
 * (`crossOriginIsolated === false`: served without `Cross-Origin-Opener-Policy: same-origin` and
 * `Cross-Origin-Embedder-Policy: require-corp`). Node always has it.
 */
export function sharedMemoryStatus(): SharedMemoryStatus {
  // First the page's isolation: without it browsers take SharedArrayBuffer away altogether.
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
  if (isolated === false) {
    return {
      available: false,
      reason:
        'the page is not cross-origin isolated, so it has no SharedArrayBuffer (serve it with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp)',
    };
  }
  if (typeof SharedArrayBuffer === 'undefined') {
    return { available: false, reason: 'SharedArrayBuffer is not defined in this environment' };
  }
  return { available: true, reason: '' };
}

/** A buffer of `bytes` bytes, shared when asked (throws `crowd/no-shared-memory` when it cannot be). */
export function allocateBuffer(bytes: number, shared: boolean, who: string): ArrayBuffer | SharedArrayBuffer {
  if (!shared) return new ArrayBuffer(bytes);
  const status = sharedMemoryStatus();
  if (!status.available) throw new TendonError('crowd/no-shared-memory', `${who}: ${status.reason}`);
  return new SharedArrayBuffer(bytes);
}

/** The memory a constructor run by {@link constructOver} views (set only while it runs). */
let adopted: ArrayBuffer | SharedArrayBuffer | null = null;

/**
 * Runs `make` (a constructor call) so that it views `buffer` instead of allocating: the
 * `fromBuffer` of `Crowd`, `TwoBoneBatch` and `AimBatch` (`who`), whose constructors call
 * {@link takeAdopted} first.
 *
 * @throws {@link TendonError} `pose/buffer-size` for a `buffer` that is not an `ArrayBuffer` or a
 *   `SharedArrayBuffer` (a null would leave nothing adopted: a fresh, unshared object).
 */
export function constructOver<T>(buffer: ArrayBuffer | SharedArrayBuffer, who: string, make: () => T): T {
  const shared = typeof SharedArrayBuffer !== 'undefined' && buffer instanceof SharedArrayBuffer;
  if (!(shared || buffer instanceof ArrayBuffer)) {
    throw new TendonError(
      'pose/buffer-size',
      `${who}.fromBuffer: the buffer is ${describeArg(buffer)}, not an ArrayBuffer or a SharedArrayBuffer`,
    );
  }
  adopted = buffer;
  try {
    return make();
  } finally {
    adopted = null;
  }
}

/** The memory the running {@link constructOver} hands its constructor (cleared as it is read), or null. */
export function takeAdopted(): ArrayBuffer | SharedArrayBuffer | null {
  const buffer = adopted;
  adopted = null;
  return buffer;
}

/**
 * An object's memory and its arrays: `carve(null)` counts the bytes its arrays take, then they are
 * carved on `view` (from {@link takeAdopted}) when there is one, checked to be that size, else on
 * a new buffer ({@link allocateBuffer}). The `fromBuffer` of `Crowd`, `TwoBoneBatch` and
 * `AimBatch` and their constructors share it.
 *
 * @throws {@link TendonError} `pose/buffer-size` for a view of another size (`what` names the
 *   object it should hold), `crowd/no-shared-memory` as {@link allocateBuffer}.
 */
export function adoptOrCarve<A>(
  view: ArrayBuffer | SharedArrayBuffer | null,
  shared: boolean,
  who: string,
  what: string,
  carve: (buffer: ArrayBuffer | SharedArrayBuffer | null) => { readonly arrays: A; readonly bytes: number },
): { readonly buffer: ArrayBuffer | SharedArrayBuffer; readonly arrays: A } {
  const bytes = carve(null).bytes;
  if (view !== null && view.byteLength !== bytes) {
    throw new TendonError(
      'pose/buffer-size',
      `${who}.fromBuffer: the buffer holds ${view.byteLength} bytes, ${what} ${bytes}`,
    );
  }
  const buffer = view ?? allocateBuffer(bytes, shared, `new ${who}`);
  return { buffer, arrays: carve(buffer).arrays };
}
