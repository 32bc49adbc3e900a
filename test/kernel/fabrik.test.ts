/**
 * FABRIK's positional passes: each puts its anchor point where it belongs, keeps every segment's
 * length, and moves every other point onto the ray from its (already moved) neighbour toward where
 * it was.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ON_LINE } from '../../src/kernel/chain-line.js';
import {
  EXTRAPOLATE_MAX_RATIO,
  EXTRAPOLATE_MIN_RATIO,
  fabrikBackward,
  fabrikExtrapolate,
  fabrikForward,
  fabrikUnfold,
} from '../../src/kernel/fabrik.js';
import { dist } from '../helpers/chains.js';
import { RUNS } from './helpers.js';

const coord = fc.double({ min: -5, max: 5, noNaN: true });
const point = fc.tuple(coord, coord, coord);
const chain = fc.integer({ min: 2, max: 8 }).chain((count) =>
  fc.record({
    points: fc.array(point, { minLength: count, maxLength: count }),
    lengths: fc.array(fc.double({ min: 0.01, max: 3, noNaN: true }), {
      minLength: count - 1,
      maxLength: count - 1,
    }),
    anchor: point,
  }),
);

/** Distance from `p` to the ray from `from` through `toward` (0 when on it). */
function offRay(
  p: ArrayLike<number>,
  po: number,
  from: ArrayLike<number>,
  fo: number,
  toward: ArrayLike<number>,
  to: number,
): number {
  const d = [0, 1, 2].map((k) => toward[to + k] - from[fo + k]);
  const v = [0, 1, 2].map((k) => p[po + k] - from[fo + k]);
  const dl = Math.hypot(...d);
  if (dl === 0) return 0;
  if (v[0] * d[0] + v[1] * d[1] + v[2] * d[2] < 0) return Number.POSITIVE_INFINITY;
  // |v × d| / |d|: no cancellation, unlike √(|v|² − along²).
  return Math.hypot(v[1] * d[2] - v[2] * d[1], v[2] * d[0] - v[0] * d[2], v[0] * d[1] - v[1] * d[0]) / dl;
}

describe('fabrikForward and fabrikBackward', () => {
  for (const [name, pass] of [
    ['forward', 'f'],
    ['backward', 'b'],
  ] as const) {
    it(`${name}: anchor placed, lengths kept, points on the rays toward their old places`, () => {
      fc.assert(
        fc.property(chain, ({ points, lengths, anchor }) => {
          const count = points.length;
          const before = Float64Array.from(points.flat());
          // Coincident points leave a segment no direction at all (it collapses, documented):
          // every segment here has one to keep.
          for (let i = 0; i + 1 < count; i++) fc.pre(dist(before, 3 * i, before, 3 * i + 3) > 1e-3);
          const p = before.slice();
          const L = Float64Array.from(lengths);
          const a = Float64Array.from(anchor);
          if (pass === 'f') fabrikForward(p, L, count, a, 0);
          else fabrikBackward(p, L, count, a, 0);
          const first = pass === 'f' ? 0 : count - 1;
          expect(Array.from(p.subarray(3 * first, 3 * first + 3))).toEqual(anchor);
          let worstLength = 0;
          let worstRay = 0;
          for (let i = 0; i + 1 < count; i++) {
            // Relative to the coordinates' magnitude too: a short segment far from the origin has
            // only their absolute precision.
            const scale = lengths[i] + Math.hypot(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
            worstLength = Math.max(worstLength, Math.abs(dist(p, 3 * i, p, 3 * i + 3) - lengths[i]) / scale);
          }
          for (let step = 1; step < count; step++) {
            const i = pass === 'f' ? step : count - 1 - step;
            const from = pass === 'f' ? i - 1 : i + 1;
            // Only where the old place is not (nearly) on the moved neighbour: there the segment
            // keeps its old direction instead.
            if (dist(before, 3 * i, p, 3 * from) < 1e-9) continue;
            worstRay = Math.max(worstRay, offRay(p, 3 * i, p, 3 * from, before, 3 * i));
          }
          expect(worstLength).toBeLessThanOrEqual(1e-14);
          expect(worstRay).toBeLessThanOrEqual(1e-12);
        }),
        RUNS,
      );
    });
  }
});

describe('fabrikExtrapolate', () => {
  const vec = fc.array(coord, { minLength: 12, maxLength: 12 });
  /** Points x_k = limit + ratio^k · c, fed for k = −1, 0 (recorded) and then 1. */
  function feed(limit: number[], c: number[], ratio: number, extrapolate: boolean) {
    const at = (k: number) => Float64Array.from(limit, (l, i) => l + ratio ** k * c[i]);
    const previous = at(-1);
    const change = new Float64Array(12);
    const positions = at(0);
    fabrikExtrapolate(positions, previous, change, 4, false);
    positions.set(at(1));
    const moved = fabrikExtrapolate(positions, previous, change, 4, extrapolate);
    return { positions, previous, change, moved, at };
  }

  it('jumps a geometric sequence of moves to its limit, and records the last move', () => {
    fc.assert(
      fc.property(
        vec,
        vec,
        // Inside the window by more than the ratio's rounding.
        fc.double({ min: EXTRAPOLATE_MIN_RATIO + 1e-9, max: EXTRAPOLATE_MAX_RATIO - 1e-9, noNaN: true }),
        (limit, c, ratio) => {
          fc.pre(Math.hypot(...c) > 1e-3);
          const { positions, previous, change, moved, at } = feed(limit, c, ratio, true);
          expect(moved).toBe(true);
          const x1 = at(1);
          const x0 = at(0);
          expect(Array.from(previous)).toEqual(Array.from(x1));
          for (let i = 0; i < 12; i++) {
            expect(change[i]).toBe(x1[i] - x0[i]);
            // The jump is ρ/(1 − ρ) times the last move (up to 1e5 near the window's top): the
            // moves' rounding times that, and ρ's, whose relative error grows as 1/(1 − ρ), times
            // the jump again.
            const ahead = ratio / (1 - ratio);
            const size = 1 + Math.abs(limit[i]) + Math.max(...c.map(Math.abs));
            const bound = (1e-12 * (1 + ahead) + 1e-15 * (1 + ahead) ** 2) * size;
            expect(Math.abs(positions[i] - limit[i])).toBeLessThan(bound);
          }
        },
      ),
      RUNS,
    );
  });

  it('leaves the points alone outside the ratio window, with no previous move, or when not asked', () => {
    const limit = Array.from({ length: 12 }, (_, i) => i / 7);
    const c = Array.from({ length: 12 }, (_, i) => 1 - i / 5);
    for (const [ratio, extrapolate] of [
      [0.1, true],
      [0.999999, true],
      [-0.5, true],
      [0.5, false],
    ] as const) {
      const { positions, moved, at } = feed(limit, c, ratio, extrapolate);
      expect(moved, `ratio ${ratio}`).toBe(false);
      expect(Array.from(positions)).toEqual(Array.from(at(1)));
    }
    // The first call has no previous move (change is zero): nothing to extrapolate from.
    const positions = Float64Array.from(limit);
    const previous = new Float64Array(12);
    expect(fabrikExtrapolate(positions, previous, new Float64Array(12), 4, true)).toBe(false);
    expect(Array.from(positions)).toEqual(limit);
  });
});

describe('fabrikUnfold', () => {
  // A straight chain along +Y from the origin, the target on its line.
  const straight = () => Float64Array.from([0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0]);
  const target = Float64Array.from([0, 2.5, 0]);
  const offset = Float64Array.from([0.1]);

  it('moves the inner points toward the remembered side, made perpendicular to the line', () => {
    const positions = straight();
    // A side with a component along the line: only its part across counts.
    const side = Float64Array.from([-3, 5, 4]);
    expect(fabrikUnfold(positions, 4, target, 0, offset, 0, new Float64Array(3), ON_LINE, side, 0)).toBe(
      true,
    );
    for (const i of [1, 2]) {
      expect(positions[3 * i]).toBeCloseTo(-0.06, 15);
      expect(positions[3 * i + 1]).toBe(i);
      expect(positions[3 * i + 2]).toBeCloseTo(0.08, 15);
    }
    // The ends stay.
    expect(Array.from(positions.subarray(0, 3))).toEqual([0, 0, 0]);
    expect(Array.from(positions.subarray(9))).toEqual([0, 3, 0]);
  });

  it('without a side (zero, or along the line) uses the fixed perpendicular; off the line does nothing', () => {
    for (const side of [new Float64Array(3), Float64Array.from([0, 7, 0])]) {
      const positions = straight();
      expect(fabrikUnfold(positions, 4, target, 0, offset, 0, new Float64Array(3), ON_LINE, side, 0)).toBe(
        true,
      );
      // chainOnLine's perpendicular for a line along +Y: +Z.
      expect(Array.from(positions.subarray(3, 6))).toEqual([0, 1, 0.1]);
    }
    const bent = Float64Array.from([0, 0, 0, 0.5, 0.8, 0, 0, 2, 0, 0, 3, 0]);
    const before = Array.from(bent);
    expect(
      fabrikUnfold(bent, 4, target, 0, offset, 0, new Float64Array(3), ON_LINE, new Float64Array(3), 0),
    ).toBe(false);
    expect(Array.from(bent)).toEqual(before);
  });
});
