/**
 * Small typed arrays carved one after another from shared blocks of memory.
 *
 * A solver object holds dozens of small arrays (springs, locks, settings). Made one by one, each
 * has its own backing store somewhere on the heap; a crowd of a thousand placed characters then
 * reads a few hundred scattered cache lines per character per frame, and its frame is bound by
 * memory, not arithmetic (docs/crowds.md, "Memory"). Carved from a slab, one object's arrays sit
 * side by side, in the order they are made.
 *
 * @packageDocumentation
 */

/**
 * Hands out typed arrays from blocks of `blockDoubles` numbers, a new block when one is full. A
 * block lives as long as any array carved from it, so blocks are kept small: a long-lived object
 * holds on to the blocks its own arrays lie in (one, or two where they cross a block's end), with
 * whatever other objects' freed arrays share them.
 *
 * @internal
 */
export class Slab {
  private block = new Float64Array(0);
  private used = 0;

  /** @param blockDoubles - numbers per block (8 bytes each). */
  constructor(private readonly blockDoubles = 2048) {}

  /** `n` numbers, zeroed, next to the previous ones (unless a new block was started). */
  f64(n: number): Float64Array {
    const start = this.take(n);
    return this.block.subarray(start, start + n);
  }

  /** A copy of `values` in the slab. */
  f64From(values: ArrayLike<number>): Float64Array {
    const a = this.f64(values.length);
    a.set(values);
    return a;
  }

  /** `n` bytes, zeroed, in the slab (rounded up to whole numbers, so the next array stays aligned). */
  u8(n: number): Uint8Array {
    const start = this.take((n + 7) >> 3);
    return new Uint8Array(this.block.buffer, this.block.byteOffset + 8 * start, n);
  }

  /** A copy of `values` (bytes) in the slab. */
  u8From(values: ArrayLike<number>): Uint8Array {
    const a = this.u8(values.length);
    a.set(values);
    return a;
  }

  /** Reserves `n` numbers in the current block (a new one when they do not fit); their start. */
  private take(n: number): number {
    if (this.used + n > this.block.length) {
      this.block = new Float64Array(n > this.blockDoubles ? n : this.blockDoubles);
      this.used = 0;
    }
    const start = this.used;
    this.used += n;
    return start;
  }
}

/**
 * The slab tendon's solver objects carve their arrays from (`FootPlacement`, `LookAt`, `TwoBoneIk`,
 * `AimIk`): a placement's arrays, then its legs' solvers', side by side in the order they are made.
 *
 * @internal
 */
export const solverSlab = new Slab();
