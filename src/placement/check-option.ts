/**
 * The range check of a placement step's numeric options, refused by its constructor with the
 * option named; and the refusal of a frame's `dt`.
 *
 * @packageDocumentation
 */
import { checkKnownKeys, describeArg } from '../arguments.js';
import { TendonError } from '../errors.js';

/**
 * Throws `placement/invalid-option`, naming the option, unless `value` is a finite number above
 * `min` (`open`) or at least `min`, at most `max`, and a whole one when `whole`.
 */
export function checkOption(
  value: unknown,
  who: string,
  what: string,
  min: number,
  open: boolean,
  whole = false,
  max = Number.POSITIVE_INFINITY,
): void {
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    (open ? !(value > min) : !(value >= min)) ||
    value > max ||
    (whole && !Number.isInteger(value))
  ) {
    const kind = whole ? 'a whole number' : 'a finite number';
    const below = max === Number.POSITIVE_INFINITY ? '' : ` and ≤ ${max}`;
    throw new TendonError(
      'placement/invalid-option',
      `${who}: ${what} is ${describeArg(value)}, not ${kind} ${open ? '>' : '≥'} ${min}${below}`,
    );
  }
}

/**
 * Throws for a frame argument that is not a number (a string was coerced into the clock array,
 * '0.016' read as 0.016, without a word): `placement/invalid-input`, naming it.
 */
export function refuseNotNumber(value: unknown, who: string, what: string): never {
  throw new TendonError('placement/invalid-input', `${who}: ${what} is ${describeArg(value)}, not a number`);
}

/**
 * Throws `placement/invalid-input` for a frame's `dt` that is not a finite number ≥ 0, naming
 * `who`. The check stays at the caller, by arithmetic (`!(dt >= 0 && dt - dt === 0)`: no builtin
 * call, no double passed in a frame that goes on); only the refusal is out of line.
 */
export function refuseDt(dt: number, who: string): never {
  throw new TendonError('placement/invalid-input', `${who}: dt ${dt} is not a finite number ≥ 0`);
}

/**
 * A controller's `maxTurnSpeed` option: radians a second, a number > 0 (`Infinity`: no limit),
 * 3π (9° a frame at 60 Hz) when not given.
 *
 * @throws {@link TendonError} `placement/invalid-option` for anything else.
 */
export function turnSpeedOption(value: unknown, who: string): number {
  const speed = value ?? 3 * Math.PI;
  if (typeof speed !== 'number' || !(speed > 0)) {
    throw new TendonError(
      'placement/invalid-option',
      `${who}: maxTurnSpeed ${String(speed)} is not a number > 0 (Infinity: no limit)`,
    );
  }
  return speed;
}

/**
 * The keys of an options interface `T`, every one of them: given as a record of all its keys, so
 * that the compiler names one missing or one too many.
 */
export function optionKeys<T>(keys: Record<keyof T, true>): readonly string[] {
  return Object.keys(keys);
}

/**
 * Refuses an option `who` does not know (`placement/invalid-option`, naming it and the nearest
 * known one): a misspelling (`maxTurnspeed`, `coneangle`) was ignored without a word, its default
 * taken.
 */
export function checkOptionKeys(options: object, known: readonly string[], who: string): void {
  checkKnownKeys(options, known, who, 'placement/invalid-option');
}
