/**
 * Run-time checks of what a public function or constructor is given. TypeScript's types vanish at
 * run time and JavaScript callers have none: a null, a number where an object goes or an array too
 * short must be a {@link TendonError} naming the function and the argument, not a TypeError from
 * deep inside, and must be found before anything is written.
 */
import { Clip } from './animation/clip.js';
import { TendonError, type TendonErrorCode } from './errors.js';
import { Pose } from './pose/pose.js';
import { Skeleton } from './skeleton/skeleton.js';

/** What `value` is, for an error message: `null`, `an array of 3`, `a Float32Array`, `the string "x"`. */
export function describeArg(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  if (typeof value === 'object') return `a ${value.constructor?.name ?? 'object'}`;
  if (typeof value === 'string') return `the string "${value.slice(0, 40)}"`;
  return String(value);
}

function refuse(who: string, what: string, expected: string, value: unknown): never {
  throw new TendonError('argument/invalid', `${who}: ${what} is ${describeArg(value)}, not ${expected}`);
}

/** `value` must be a {@link Skeleton}. */
export function checkSkeletonArg(
  value: unknown,
  who: string,
  what = 'the skeleton',
): asserts value is Skeleton {
  if (!(value instanceof Skeleton)) refuse(who, what, 'a Skeleton', value);
}

/** `value` must be a {@link Pose} (of `skeleton`, when given). */
export function checkPoseArg(
  value: unknown,
  who: string,
  skeleton?: Skeleton,
  what = 'the pose',
): asserts value is Pose {
  if (!(value instanceof Pose)) refuse(who, what, 'a Pose', value);
  if (skeleton !== undefined && value.skeleton !== skeleton) {
    throw new TendonError('pose/skeleton-mismatch', `${who}: ${what} belongs to another skeleton`);
  }
}

/** `value` must be a {@link Clip}. */
export function checkClipArg(value: unknown, who: string, what = 'the clip'): asserts value is Clip {
  if (!(value instanceof Clip)) refuse(who, what, 'a Clip', value);
}

/** `value` must be an object (not null, not an array): a definition, a rig, a layer's options. */
export function checkObjectArg(value: unknown, who: string, what: string): asserts value is object {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    refuse(who, what, 'an object', value);
}

/** Options: `undefined` is none (`{}`); anything else must be an object. */
export function optionsArg<T extends object>(value: T | undefined, who: string): T | Record<string, never> {
  if (value === undefined) return {};
  checkObjectArg(value, who, 'options');
  return value;
}

/** `value` must be an array or typed array of at least `minLength` items. */
export function checkArrayArg(
  value: unknown,
  who: string,
  what: string,
  minLength = 0,
): asserts value is ArrayLike<unknown> {
  if (!(Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView)))) {
    refuse(who, what, minLength > 0 ? `an array of ${minLength} or more` : 'an array', value);
  }
  if ((value as ArrayLike<unknown>).length < minLength) {
    refuse(who, what, `an array of ${minLength} or more`, value);
  }
}

/** `value` must be a Float64Array of at least `minLength` numbers (an output or a model buffer). */
export function checkFloat64Arg(
  value: unknown,
  who: string,
  what: string,
  minLength = 0,
): asserts value is Float64Array {
  if (!(value instanceof Float64Array) || value.length < minLength) {
    refuse(who, what, `a Float64Array of ${minLength} or more`, value);
  }
}

/**
 * `value` must be a Float32Array or a Float64Array: numbers written for a GPU upload (a palette),
 * where a plain array or an integer typed array would take them truncated or boxed.
 */
export function checkFloatArrayArg(
  value: unknown,
  who: string,
  what: string,
): asserts value is Float32Array | Float64Array {
  if (!(value instanceof Float32Array || value instanceof Float64Array)) {
    refuse(who, what, 'a Float32Array or a Float64Array', value);
  }
}

/** `value` must be an instance of `type` (a `Skin`, a `TwoBoneBatch`), named by the class. */
export function checkInstanceArg<T>(
  value: unknown,
  type: abstract new (...args: never[]) => T,
  who: string,
  what: string,
): asserts value is T {
  if (!(value instanceof type)) refuse(who, what, `a ${type.name}`, value);
}

/** `value` must be a string. */
export function checkStringArg(value: unknown, who: string, what: string): asserts value is string {
  if (typeof value !== 'string') refuse(who, what, 'a string', value);
}

/** `value` must be a finite number (within `[min, max]` when given). */
export function checkNumberArg(
  value: unknown,
  who: string,
  what: string,
  min = -Infinity,
  max = Infinity,
): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    const range = min === -Infinity && max === Infinity ? 'a finite number' : `a number in [${min}, ${max}]`;
    refuse(who, what, range, value);
  }
}

/** `pose` must be a Pose of `skeleton` and `model` its model buffer (16 numbers per joint). */
export function checkPoseAndModelArgs(pose: unknown, model: unknown, skeleton: Skeleton, who: string): void {
  checkPoseArg(pose, who, skeleton);
  if (!(model instanceof Float64Array) || model.length !== 16 * skeleton.jointCount) {
    throw new TendonError(
      'pose/buffer-size',
      `${who}: the model buffer is ${describeArg(model)}, not a Float64Array of ${16 * skeleton.jointCount} (16 per joint)`,
    );
  }
}

/** Edit distance between two names (the first 64 characters of each): for "did you mean". */
export function editDistance(a: string, b: string): number {
  // Names are short; bounded anyway so a long hostile name cannot cost much.
  const x = a.slice(0, 64);
  const y = b.slice(0, 64);
  let row = Array.from({ length: y.length + 1 }, (_, i) => i);
  for (let i = 1; i <= x.length; i++) {
    const next = [i];
    for (let j = 1; j <= y.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[y.length];
}

/**
 * Throws `code` unless every own key of `options` is one of `known`, naming the first that is not
 * and the known one nearest it (a misspelled `wieght` was taken as no weight at all, without a
 * word). Set-up only.
 */
export function checkKnownKeys(
  options: object,
  known: readonly string[],
  who: string,
  code: TendonErrorCode,
): void {
  for (const key of Object.keys(options)) {
    // (An option set to undefined is no option: the default, as `??` reads it.)
    if (known.includes(key) || (options as Record<string, unknown>)[key] === undefined) continue;
    let nearest = known[0];
    for (const k of known) {
      if (
        editDistance(k.toLowerCase(), key.toLowerCase()) <
        editDistance(nearest.toLowerCase(), key.toLowerCase())
      ) {
        nearest = k;
      }
    }
    throw new TendonError(
      code,
      `${who}: unknown option "${key.slice(0, 40)}" (did you mean "${nearest}"? the options are ${known.join(', ')})`,
    );
  }
}
