/**
 * The probe of public entrances: a working call, then each argument (and each field of a plain
 * options object) replaced in turn by what JavaScript lets through by mistake. Each call must work
 * (leaving only finite numbers in what it writes) or throw a TendonError with what it was given
 * untouched. Used for tendon's index (test/entrances.test.ts) and tendon/three.
 */
import { describe, expect, it } from 'vitest';
import { isTendonError } from '../../src/errors.js';

// biome-ignore lint/suspicious/noExplicitAny: deliberately wrong arguments, as JavaScript passes them
export type Anything = any;

/** What JavaScript lets through where tendon expects something else. */
export const HOSTILE: [string, () => unknown][] = [
  ['undefined', () => undefined],
  ['null', () => null],
  ['NaN', () => Number.NaN],
  ['Infinity', () => Number.POSITIVE_INFINITY],
  ['-1', () => -1],
  ['1e9', () => 1e9],
  ['0.5', () => 0.5],
  ["'x'", () => 'x'],
  ['true', () => true],
  ['{}', () => ({})],
  ['[]', () => []],
  ['[NaN, NaN, NaN]', () => [Number.NaN, Number.NaN, Number.NaN]],
  ['Float64Array(0)', () => new Float64Array(0)],
  ['Float64Array(3) of NaN', () => new Float64Array(3).fill(Number.NaN)],
];

/**
 * One entrance: a working call (`args` builds fresh arguments, `run` calls with them). Arguments
 * that are plain objects have each of their fields replaced too. `state` lists what a call writes,
 * to check it is finite after a success and unchanged after a throw.
 */
export interface Entrance<Fixture> {
  readonly name: string;
  readonly args: (f: Fixture) => unknown[];
  readonly run: (f: Fixture, args: Anything[]) => unknown;
  readonly state?: (f: Fixture, args: Anything[]) => ArrayLike<number>[];
}

function snapshot(arrays: ArrayLike<number>[]): number[][] {
  return arrays.map((a) => Array.from(a));
}

/** Runs one call and says what went wrong, or null. */
function tryCall<F>(f: F, entrance: Entrance<F>, args: Anything[], label: string): string | null {
  const watched = entrance.state?.(f, args) ?? [];
  const before = snapshot(watched);
  try {
    entrance.run(f, args);
  } catch (error) {
    if (!isTendonError(error)) {
      return `${label}: ${(error as Error).name}: ${(error as Error).message}`.slice(0, 240);
    }
    const after = snapshot(watched);
    for (let k = 0; k < after.length; k++) {
      for (let i = 0; i < after[k].length; i++) {
        if (!Object.is(after[k][i], before[k][i]))
          return `${label}: threw ${error.code} but changed the pose`;
      }
    }
    return null;
  }
  for (const array of watched) {
    for (let i = 0; i < array.length; i++) {
      if (!Number.isFinite(array[i]))
        return `${label}: returned normally with a non-finite number in what it wrote`;
    }
  }
  return null;
}

/** The good call's problem, or null. */
export function probeGood<F>(f: F, entrance: Entrance<F>): string | null {
  return tryCall(f, entrance, entrance.args(f), 'good arguments');
}

/**
 * Every hostile value in every argument and every field of a plain-object argument; `fresh` puts
 * the fixture back before each call. Returns what went wrong, one line each.
 */
export function probeHostile<F>(f: F, entrance: Entrance<F>, fresh: (f: F) => void): string[] {
  const failures: string[] = [];
  const count = entrance.args(f).length;
  for (let a = 0; a < count; a++) {
    for (const [hostile, make] of HOSTILE) {
      fresh(f);
      const args = entrance.args(f);
      args[a] = make();
      const problem = tryCall(f, entrance, args, `argument ${a} = ${hostile}`);
      if (problem) failures.push(problem);
    }
    const options = entrance.args(f)[a];
    // Fields of plain objects (options, definitions, rigs) only: a class instance is one argument.
    if (
      options === null ||
      typeof options !== 'object' ||
      Object.getPrototypeOf(options) !== Object.prototype
    ) {
      continue;
    }
    for (const key of Object.keys(options)) {
      for (const [hostile, make] of HOSTILE) {
        fresh(f);
        const args = entrance.args(f);
        args[a] = { ...(args[a] as object), [key]: make() };
        const problem = tryCall(f, entrance, args, `argument ${a}.${key} = ${hostile}`);
        if (problem) failures.push(problem);
      }
    }
  }
  return failures;
}

/**
 * The two tests of every entrance: it works with its good arguments, and it is a TendonError (what
 * it was given untouched) or a sane result for every hostile one. `fixture` is read when the tests
 * run (after the file's beforeAll).
 */
export function describeEntrances<F>(
  title: string,
  entrances: readonly Entrance<F>[],
  fixture: () => F,
  fresh: (f: F) => void,
): void {
  describe(title, () => {
    it.each(entrances.map((e) => [e.name, e] as const))('%s: works with good arguments', (_, entrance) => {
      fresh(fixture());
      expect(probeGood(fixture(), entrance)).toBeNull();
    });

    it.each(entrances.map((e) => [e.name, e] as const))(
      '%s: a TendonError (what it was given untouched) or a sane result for every hostile argument',
      (_, entrance) => {
        expect(probeHostile(fixture(), entrance, fresh).join('\n')).toBe('');
      },
    );
  });
}
