/**
 * The slab: arrays carved side by side, zeroed, never overlapping, a new block when one is full.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Slab } from '../src/slab.js';

describe('Slab', () => {
  it('carves zeroed arrays one after another from one block', () => {
    const slab = new Slab(64);
    const a = slab.f64(3);
    const b = slab.u8(5);
    const c = slab.f64From([1, 2, 3]);
    const d = slab.u8From([7, 8]);
    expect([...a]).toEqual([0, 0, 0]);
    expect([...b]).toEqual([0, 0, 0, 0, 0]);
    expect([...c]).toEqual([1, 2, 3]);
    expect([...d]).toEqual([7, 8]);
    for (const x of [b, c, d]) expect(x.buffer).toBe(a.buffer);
    // Side by side, in order; a byte array takes whole numbers so the next one stays aligned.
    expect(b.byteOffset).toBe(a.byteOffset + 24);
    expect(c.byteOffset).toBe(b.byteOffset + 8);
    expect(d.byteOffset).toBe(c.byteOffset + 24);
  });

  it('starts a new block when one is full, and gives a large array a block of its own', () => {
    const slab = new Slab(8);
    const a = slab.f64(6);
    const b = slab.f64(3);
    expect(b.buffer).not.toBe(a.buffer);
    const big = slab.f64(20);
    expect(big.length).toBe(20);
    expect(big.buffer).not.toBe(b.buffer);
    const after = slab.f64(1);
    expect(after.buffer).not.toBe(big.buffer);
  });

  it('never hands out overlapping arrays (seeded runs of random sizes)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 40 })), { maxLength: 60 }),
        (blockDoubles, requests) => {
          const slab = new Slab(blockDoubles);
          const arrays = requests.map(([bytes, n]) => (bytes ? slab.u8(n) : slab.f64(n)));
          arrays.forEach((a, i) => {
            a.fill(i + 1);
          });
          arrays.forEach((a, i) => {
            expect(a.every((v) => v === i + 1)).toBe(true);
          });
        },
      ),
      { seed: 20261125, numRuns: 300 },
    );
  });
});
