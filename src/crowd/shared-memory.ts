/**
 * Whether this environment can share memory between threads, and buffers that can be shared.
 *
 * @packageDocumentation
 */
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
 * `fromBuffer` of `Crowd`, `TwoBoneBatch` and `AimBatch`, whose constructors call
 * {@link takeAdopted} first.
 */
export function constructOver<T>(buffer: ArrayBuffer | SharedArrayBuffer, make: () => T): T {
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
 * The memory an object of `bytes` bytes lives on: `view` (from {@link takeAdopted}) when there is
 * one, checked to be that size, else a new buffer ({@link allocateBuffer}).
 *
 * @throws {@link TendonError} `pose/buffer-size` for a view of another size (`what` names the
 *   object it should hold), `crowd/no-shared-memory` as {@link allocateBuffer}.
 */
export function adoptOrAllocate(
  view: ArrayBuffer | SharedArrayBuffer | null,
  bytes: number,
  shared: boolean,
  who: string,
  what: string,
): ArrayBuffer | SharedArrayBuffer {
  if (view === null) return allocateBuffer(bytes, shared, `new ${who}`);
  if (view.byteLength !== bytes) {
    throw new TendonError(
      'pose/buffer-size',
      `${who}.fromBuffer: the buffer holds ${view.byteLength} bytes, ${what} ${bytes}`,
    );
  }
  return view;
}

/** Carves typed arrays out of one buffer in order, each aligned to its element size. */
export class BufferCarver {
  /** Bytes used so far. */
  offset = 0;

  /** @param buffer - the buffer carved (null: only count the bytes). */
  constructor(readonly buffer: ArrayBuffer | SharedArrayBuffer | null) {}

  private at(size: number, length: number): number {
    this.offset = Math.ceil(this.offset / size) * size;
    const at = this.offset;
    this.offset += size * length;
    return at;
  }

  /** The next `length` doubles. */
  f64(length: number): Float64Array {
    const at = this.at(8, length);
    return this.buffer === null ? new Float64Array(0) : new Float64Array(this.buffer, at, length);
  }

  /** The next `length` 32-bit integers. */
  i32(length: number): Int32Array {
    const at = this.at(4, length);
    return this.buffer === null ? new Int32Array(0) : new Int32Array(this.buffer, at, length);
  }

  /** The next `length` bytes. */
  u8(length: number): Uint8Array {
    const at = this.at(1, length);
    return this.buffer === null ? new Uint8Array(0) : new Uint8Array(this.buffer, at, length);
  }
}
