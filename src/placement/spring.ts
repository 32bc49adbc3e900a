/**
 * Trig-free smoothing: a critically damped spring and eased weights.
 *
 * A critically damped spring follows its goal as fast as it can without overshooting. Its exact
 * step needs `exp(−ω·dt)`, which engines approximate differently in the last bit; the rational
 * approximation used here needs only `+ − × ÷`, so smoothing is bit-identical on every engine and
 * stays stable for any `dt` (the factor tends to 0 as `dt` grows, never past it).
 *
 * @packageDocumentation
 */

/** `exp(−x)` for `x ≥ 0`, approximated by `1 / (1 + x + 0.48x² + 0.235x³)` (within 0.019 of it; it falls from 1 toward 0 and never below). */
export function decayFactor(x: number): number {
  return 1 / (1 + x + 0.48 * x * x + 0.235 * x * x * x);
}

/**
 * The angular frequency that makes a critically damped spring settle in about `smoothTime`
 * seconds (the convention of game engines' `SmoothDamp`: ω = 2 / smoothTime). `smoothTime` 0 gives
 * `Infinity`: the spring then snaps to its goal.
 */
export function springOmega(smoothTime: number): number {
  return smoothTime > 0 ? 2 / smoothTime : Number.POSITIVE_INFINITY;
}

/**
 * One step of a scalar critically damped spring toward `goal`. `state[o]` is the value,
 * `state[o + 1]` its velocity; both are updated. `omega` of `Infinity` snaps to the goal.
 */
export function springStep(state: Float64Array, o: number, goal: number, omega: number, dt: number): void {
  if (omega === Number.POSITIVE_INFINITY) {
    state[o] = goal;
    state[o + 1] = 0;
    return;
  }
  const e = decayFactor(omega * dt);
  const d = state[o] - goal;
  const k = (state[o + 1] + omega * d) * dt;
  state[o + 1] = (state[o + 1] - omega * k) * e;
  state[o] = goal + (d + k) * e;
}

/**
 * One step of a 3-vector critically damped spring toward `goal[go…go+2]`. `state[o…o+2]` is the
 * value, `state[o+3…o+5]` its velocity.
 */
export function springStep3(
  state: Float64Array,
  o: number,
  goal: ArrayLike<number>,
  go: number,
  omega: number,
  dt: number,
): void {
  springStep1Of3(state, o, 0, goal[go], omega, dt);
  springStep1Of3(state, o, 1, goal[go + 1], omega, dt);
  springStep1Of3(state, o, 2, goal[go + 2], omega, dt);
}

function springStep1Of3(
  state: Float64Array,
  o: number,
  axis: number,
  goal: number,
  omega: number,
  dt: number,
): void {
  const p = o + axis;
  const v = o + 3 + axis;
  if (omega === Number.POSITIVE_INFINITY) {
    state[p] = goal;
    state[v] = 0;
    return;
  }
  const e = decayFactor(omega * dt);
  const d = state[p] - goal;
  const k = (state[v] + omega * d) * dt;
  state[v] = (state[v] - omega * k) * e;
  state[p] = goal + (d + k) * e;
}

/** Numbers an eased weight keeps (see {@link easedWeightStep}). */
export const EASED_WEIGHT_LENGTH = 3;

/**
 * A weight in [0, 1] that eases toward its goal over a fixed time and never jumps: from the value
 * it had when the goal last changed to the goal, along smoothstep of the time since, so it leaves
 * and reaches each value with zero slope and lands on the goal exactly after `easeTime` seconds. A
 * goal changed mid-ease starts a new ease from the current value: no jump. `state[o…o+2]` holds
 * the ease's start, its goal and its phase in [0, 1]; read the value with {@link easedWeightValue}.
 * A new state of zeros is a weight at 0; {@link easedWeightSet} puts it anywhere at once.
 */
export function easedWeightStep(
  state: Float64Array,
  o: number,
  goal: number,
  easeTime: number,
  dt: number,
): void {
  const g = goal < 0 ? 0 : goal > 1 ? 1 : goal;
  if (g !== state[o + 1]) {
    state[o] = easedWeightValue(state, o);
    state[o + 1] = g;
    state[o + 2] = 0;
  }
  const phase = easeTime > 0 ? state[o + 2] + dt / easeTime : 1;
  state[o + 2] = phase > 1 ? 1 : phase;
}

/** The current value of an eased weight stepped by {@link easedWeightStep}. */
export function easedWeightValue(state: Float64Array, o: number): number {
  const p = state[o + 2];
  return state[o] + (state[o + 1] - state[o]) * (p * p * (3 - 2 * p));
}

/** Sets an eased weight to `value` at once, with no ease under way. */
export function easedWeightSet(state: Float64Array, o: number, value: number): void {
  state[o] = value;
  state[o + 1] = value;
  state[o + 2] = 1;
}
