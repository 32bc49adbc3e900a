/**
 * Typed arrays carved in order from memory: from one buffer laid out in advance
 * ({@link BufferCarver}: a crowd's or a batch's arrays, shareable with workers), or from a series of
 * small blocks started as they fill ({@link Slab}: a solver object's arrays).
 *
 * A solver object holds dozens of small arrays (springs, locks, settings). Made one by one, each
 * has its own backing store somewhere on the heap; a crowd of a thousand placed characters then
 * reads a few hundred scattered cache lines per character per frame, and its frame is bound by
 * memory, not arithmetic (docs/crowds.md, "Memory"). Carved from a slab, one object's arrays sit
 * side by side, in the order they are made.
 *
 * @packageDocumentation
 */

/** Carves typed arrays out of one buffer in order, each aligned to its element size. */
export class BufferCarver {
  /** Bytes used so far. */
  offset = 0;

  /** @param buffer - the buffer carved (null: only count the bytes). */
  constructor(readonly buffer: ArrayBuffer | SharedArrayBuffer | null) {}

  /** Where the next element of `size` bytes starts. */
  private aligned(size: number): number {
    return Math.ceil(this.offset / size) * size;
  }

  private at(size: number, length: number): number {
    const at = this.aligned(size);
    this.offset = at + size * length;
    return at;
  }

  /** Whether `length` elements of `size` bytes still fit (always, when only counting). */
  fits(size: number, length: number): boolean {
    return this.buffer === null || this.aligned(size) + size * length <= this.buffer.byteLength;
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

/**
 * Hands out typed arrays from blocks of `blockDoubles` numbers, a {@link BufferCarver} each, a new
 * block when one is full. A block lives as long as any array carved from it, so blocks are kept
 * small: a long-lived object holds on to the blocks its own arrays lie in (one, or two where they
 * cross a block's end), with whatever other objects' freed arrays share them.
 *
 * @internal
 */
export class Slab {
  private block = new BufferCarver(new ArrayBuffer(0));

  /** @param blockDoubles - numbers per block (8 bytes each). */
  constructor(private readonly blockDoubles = 2048) {}

  /** `n` numbers, zeroed, next to the previous ones (unless a new block was started). */
  f64(n: number): Float64Array {
    return this.room(8, n).f64(n);
  }

  /** A copy of `values` in the slab. */
  f64From(values: ArrayLike<number>): Float64Array {
    const a = this.f64(values.length);
    a.set(values);
    return a;
  }

  /** `n` bytes, zeroed, in the slab (the next array is aligned after them). */
  u8(n: number): Uint8Array {
    return this.room(1, n).u8(n);
  }

  /** A copy of `values` (bytes) in the slab. */
  u8From(values: ArrayLike<number>): Uint8Array {
    const a = this.u8(values.length);
    a.set(values);
    return a;
  }

  /** The current block, or a new one when `length` elements of `size` bytes do not fit in it. */
  private room(size: number, length: number): BufferCarver {
    if (!this.block.fits(size, length)) {
      const bytes = size * length;
      this.block = new BufferCarver(new ArrayBuffer(Math.max(bytes, 8 * this.blockDoubles)));
    }
    return this.block;
  }
}

/**
 * The slab tendon's solver objects carve their arrays from (`FootPlacement`, `LookAt`, `TwoBoneIk`,
 * `AimIk`): a placement's arrays, then its legs' solvers', side by side in the order they are made.
 *
 * @internal
 */
export const solverSlab = new Slab();
