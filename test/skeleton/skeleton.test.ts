import { describe, expect, it } from 'vitest';
import { TendonError } from '../../src/errors.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';

function expectCode(fn: () => unknown, code: string, messagePart: string | RegExp): void {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TendonError);
    expect((error as TendonError).code).toBe(code);
    expect((error as TendonError).message).toMatch(messagePart);
    return;
  }
  throw new Error(`expected a TendonError ${code}`);
}

describe('Skeleton.create', () => {
  it('keeps a parent-first definition as given, with defaults for the rest pose', () => {
    const s = Skeleton.create({ names: ['hip', 'knee', 'ankle'], parents: [-1, 0, 1] });
    expect(s.jointCount).toBe(3);
    expect([...s.parents]).toEqual([-1, 0, 1]);
    expect([...s.sourceIndices]).toEqual([0, 1, 2]);
    expect([...s.restTranslations]).toEqual(new Array(9).fill(0));
    expect([...s.restRotations]).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect([...s.restScales]).toEqual(new Array(9).fill(1));
    expect(s.indexOf('knee')).toBe(1);
    expect(s.indexOf('nope')).toBe(-1);
    expect(s.jointIndex('ankle')).toBe(2);
    expect(Object.isFrozen(s.names)).toBe(true);
  });

  it('reorders a child-before-parent definition depth-first and maps joints back to it', () => {
    // Definition order: c (child of b), a (root), b (child of a), d (child of a), e (root).
    const s = Skeleton.create({
      names: ['c', 'a', 'b', 'd', 'e'],
      parents: [2, -1, 1, 1, -1],
      restTranslations: [3, 0, 0, 1, 0, 0, 2, 0, 0, 4, 0, 0, 5, 0, 0],
    });
    expect(s.names).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect([...s.parents]).toEqual([-1, 0, 1, 0, -1]);
    expect([...s.sourceIndices]).toEqual([1, 2, 0, 3, 4]);
    // Rest values travel with their joints.
    expect(s.restTranslations[3 * s.jointIndex('c')]).toBe(3);
    expect(s.restTranslations[3 * s.jointIndex('e')]).toBe(5);
    for (let j = 0; j < s.jointCount; j++) expect(s.parents[j]).toBeLessThan(j);
  });

  it('computes subtree ranges that cover every descendant', () => {
    const s = Skeleton.create({ names: ['r', 'a', 'a1', 'a2', 'b', 'b1'], parents: [-1, 0, 1, 1, 0, 4] });
    expect([...s.subtreeEnds]).toEqual([6, 4, 3, 4, 6, 6]);
    for (let j = 0; j < s.jointCount; j++) {
      for (let k = 0; k < s.jointCount; k++) {
        if (s.isAncestor(j, k)) expect(k < s.subtreeEnds[j] && k >= j).toBe(true);
      }
    }
  });

  it('lists the joints between a joint and its descendant, top first', () => {
    const s = Skeleton.create({
      names: ['hip', 'twist1', 'twist2', 'knee', 'ankle', 'other'],
      parents: [-1, 0, 1, 2, 3, 0],
    });
    expect(s.jointsBetween(0, 3)).toEqual([1, 2]);
    expect(s.jointsBetween(3, 4)).toEqual([]);
    expect(s.jointsBetween(0, 4)).toEqual([1, 2, 3]);
    expect(s.jointsBetween(3, 3)).toEqual([]);
    // Not an ancestor: the path up to the root.
    expect(s.jointsBetween(5, 3)).toEqual([0, 1, 2]);
    for (const bad of [-1, 6, 1.5, 'knee', undefined]) {
      expect(() => s.jointsBetween(0, bad as never), String(bad)).toThrow(
        expect.objectContaining({ code: 'argument/invalid' }),
      );
      expect(() => s.jointsBetween(bad as never, 3), String(bad)).toThrow(
        expect.objectContaining({ code: 'argument/invalid' }),
      );
    }
  });

  it('normalizes rest rotations', () => {
    const s = Skeleton.create({ names: ['a'], parents: [-1], restRotations: [0, 0, 2, 0] });
    expect([...s.restRotations]).toEqual([0, 0, 1, 0]);
  });

  it('keeps rotations already unit bit for bit: a skeleton built from another’s arrays is the same', () => {
    // Seeded rotations of every size, normalized by a first build; a second build from its arrays
    // (what a worker does with the main thread's skeleton) must not move a bit.
    let seed = 7;
    const next = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647 - 0.5;
    };
    const n = 500;
    const first = Skeleton.create({
      names: Array.from({ length: n }, (_, i) => `j${i}`),
      parents: Array.from({ length: n }, (_, i) => i - 1),
      restRotations: Array.from({ length: 4 * n }, () => next() * 10 ** Math.round(4 * next())),
    });
    const again = Skeleton.create({
      names: first.names.slice(),
      parents: Array.from(first.parents),
      restTranslations: first.restTranslations,
      restRotations: first.restRotations,
      restScales: first.restScales,
    });
    for (let i = 0; i < 4 * n; i++)
      expect(Object.is(again.restRotations[i], first.restRotations[i])).toBe(true);
    for (let j = 0; j < n; j++) {
      const q = first.restRotations.subarray(4 * j, 4 * j + 4);
      expect(Math.abs(Math.hypot(q[0], q[1], q[2], q[3]) - 1)).toBeLessThan(1e-15);
    }
  });

  it('rejects invalid definitions with typed errors naming the joint', () => {
    expectCode(() => Skeleton.create({ names: [], parents: [] }), 'skeleton/empty', /at least one/);
    expectCode(
      () => Skeleton.create({ names: ['a', 'b'], parents: [-1] }),
      'skeleton/array-size',
      /2 names but 1/,
    );
    expectCode(
      () => Skeleton.create({ names: ['a'], parents: [-1], restTranslations: [0, 0] }),
      'skeleton/array-size',
      /restTranslations/,
    );
    expectCode(
      () => Skeleton.create({ names: ['a'], parents: [-1], restRotations: [0, 0, 0] }),
      'skeleton/array-size',
      /restRotations/,
    );
    expectCode(
      () => Skeleton.create({ names: ['a', ''], parents: [-1, 0] }),
      'skeleton/invalid-name',
      /joint 1/,
    );
    expectCode(
      () => Skeleton.create({ names: ['a', 'b', 'a'], parents: [-1, 0, 0] }),
      'skeleton/duplicate-name',
      /"a"/,
    );
    expectCode(
      () => Skeleton.create({ names: ['a', 'b'], parents: [-1, 5] }),
      'skeleton/parent-out-of-range',
      /"b"/,
    );
    expectCode(
      () => Skeleton.create({ names: ['a', 'b'], parents: [-1, 1] }),
      'skeleton/parent-out-of-range',
      /"b"/,
    );
    expectCode(
      () => Skeleton.create({ names: ['a', 'b'], parents: [-1, 0.5] }),
      'skeleton/parent-out-of-range',
      /"b"/,
    );
    expectCode(
      () => Skeleton.create({ names: ['root', 'x', 'y', 'z'], parents: [-1, 3, 1, 2] }),
      'skeleton/cycle',
      /"x".*"z"|"y".*"x"|"z".*"y"/,
    );
    expectCode(() => Skeleton.create({ names: ['a', 'b'], parents: [1, 0] }), 'skeleton/cycle', /cycle/);
    expectCode(
      () => Skeleton.create({ names: ['a', 'b'], parents: [-1, 0], restScales: [1, 1, 1, 1, Number.NaN, 1] }),
      'skeleton/not-finite',
      /"b".*scale/,
    );
    expectCode(
      () => Skeleton.create({ names: ['a'], parents: [-1], restRotations: [0, 0, 0, 0] }),
      'skeleton/not-finite',
      /underflows to 0/,
    );
    // Too large to square: it was stored as [0, 0, 0, 0] and every pose refused (a hostile test).
    expectCode(
      () => Skeleton.create({ names: ['a'], parents: [-1], restRotations: [1e200, 1e200, 0, 0] }),
      'skeleton/not-finite',
      /"a".*overflows/,
    );
    const s = Skeleton.create({ names: ['a'], parents: [-1] });
    expectCode(() => s.jointIndex('b'), 'skeleton/unknown-joint', /"b"/);
  });
});
