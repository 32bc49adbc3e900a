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
 * Layout of a spring step's parameters in a `Float64Array`: the angular frequency (from
 * {@link springOmega}) and the step's seconds. Numbers travel in typed arrays rather than as loose
 * arguments: V8 boxes a double passed to a call it does not inline, which would allocate per frame.
 */
export const SPRING = {
  /** The spring's angular frequency (from {@link springOmega}). */
  omega: 0,
  /** The step, seconds. */
  dt: 1,
  /** Numbers in the parameters. */
  length: 2,
} as const;

/**
 * One step of a scalar critically damped spring toward `goal[go]`. `state[o]` is the value,
 * `state[o + 1]` its velocity; both are updated. An `omega` of `Infinity` snaps to the goal.
 */
export function springStep(
  state: Float64Array,
  o: number,
  goal: Float64Array,
  go: number,
  params: Float64Array,
): void {
  stepAxis(state, o, o + 1, goal, go, params);
}

/**
 * One step of a 3-vector critically damped spring toward `goal[go…go+2]`. `state[o…o+2]` is the
 * value, `state[o+3…o+5]` its velocity.
 */
export function springStep3(
  state: Float64Array,
  o: number,
  goal: Float64Array,
  go: number,
  params: Float64Array,
): void {
  stepAxis(state, o, o + 3, goal, go, params);
  stepAxis(state, o + 1, o + 4, goal, go + 1, params);
  stepAxis(state, o + 2, o + 5, goal, go + 2, params);
}

// Every number from an array: a double passed to a call V8 does not inline is boxed (allocates),
// and inlining is not promised inside a large caller.
function stepAxis(
  state: Float64Array,
  p: number,
  v: number,
  goals: Float64Array,
  g: number,
  params: Float64Array,
): void {
  const goal = goals[g];
  const omega = params[SPRING.omega];
  const dt = params[SPRING.dt];
  if (omega === Number.POSITIVE_INFINITY) {
    state[p] = goal;
    state[v] = 0;
    return;
  }
  // decayFactor, written out: a call returning a double it does not inline would allocate.
  const x = omega * dt;
  const e = 1 / (1 + x + 0.48 * x * x + 0.235 * x * x * x);
  const d = state[p] - goal;
  const k = (state[v] + omega * d) * dt;
  const velocity = (state[v] - omega * k) * e;
  const value = goal + (d + k) * e;
  // A step so stiff or so long that its numbers leave the doubles (ω·dt past 1e100: e is 0 and
  // ω·k infinite) has long settled: at the goal, at rest. (Its NaN stayed in the state.)
  if (!(velocity - velocity === 0 && value - value === 0)) {
    state[p] = goal;
    state[v] = 0;
    return;
  }
  state[v] = velocity;
  state[p] = value;
}

/** Numbers an eased weight keeps (see {@link easedWeightStep}); its value is at offset 3. */
export const EASED_WEIGHT_LENGTH = 4;

/**
 * Layout of an eased weight step's parameters in a `Float64Array`: the goal in [0, 1] (clamped),
 * the ease time and the step's seconds.
 */
export const EASE = {
  /** The weight eased toward, in `[0, 1]`. */
  goal: 0,
  /** Seconds to go from 0 to 1. */
  easeTime: 1,
  /** The step, seconds. */
  dt: 2,
  /** Numbers in the parameters. */
  length: 3,
} as const;

/**
 * A weight in [0, 1] that eases toward its goal over a fixed time and never jumps: from the value
 * it had when the goal last changed to the goal, along smoothstep of the time since, so it leaves
 * and reaches each value with zero slope and lands on the goal exactly after the ease time. A goal
 * changed mid-ease starts a new ease from the current value: no jump. `state[o…o+3]` holds the
 * ease's start, its goal, its phase in [0, 1] and the current value (read it at `state[o + 3]`, or
 * with {@link easedWeightValue}). A new state of zeros is a weight at 0; {@link easedWeightSet} puts
 * it anywhere at once.
 */
export function easedWeightStep(state: Float64Array, o: number, params: Float64Array): void {
  const raw = params[EASE.goal];
  const g = raw < 0 ? 0 : raw > 1 ? 1 : raw;
  if (g !== state[o + 1]) {
    state[o] = state[o + 3];
    state[o + 1] = g;
    state[o + 2] = 0;
  }
  const easeTime = params[EASE.easeTime];
  let phase = easeTime > 0 ? state[o + 2] + params[EASE.dt] / easeTime : 1;
  if (phase > 1) phase = 1;
  state[o + 2] = phase;
  state[o + 3] = state[o] + (state[o + 1] - state[o]) * (phase * phase * (3 - 2 * phase));
}

/** The current value of an eased weight. */
export function easedWeightValue(state: Float64Array, o: number): number {
  return state[o + 3];
}

/** Sets an eased weight to `value` at once, with no ease under way. */
export function easedWeightSet(state: Float64Array, o: number, value: number): void {
  state[o] = value;
  state[o + 1] = value;
  state[o + 2] = 1;
  state[o + 3] = value;
}
