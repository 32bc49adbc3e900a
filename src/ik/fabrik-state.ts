/**
 * The state of one {@link FabrikIk} solve, by name.
 *
 * @packageDocumentation
 */

/**
 * What a FabrikIk solve carries from one step of its strategy to the next (the passes, the jumps,
 * the stall tracking and the rescue of a stalled limited chain). Reset at the start of every
 * solve; the solver owns one, so a solve allocates nothing. Its numbers live in a typed array
 * (docs/architecture.md, "Numbers in typed arrays"); flags and counts are plain fields.
 *
 * @internal
 */
export class FabrikSolveState {
  private readonly numbers = new Float64Array(9);
  /**
   * The sideways move of a chain kicked off the root–target line, in the array fabrikUnfold reads
   * it from (at 0).
   */
  readonly kick = new Float64Array(1);

  /** Iterations used so far: backward–forward passes, jumps' extra passes, hand-overs' steps and sweeps. */
  iterations = 0;
  /** Iterations since the last extrapolation (or the start): two moves give a ratio. */
  plain = 0;
  /** Limited iterations in a row that have not bettered {@link FabrikSolveState.bestSq} enough. */
  still = 0;
  /** The passes place points and the rotations are read off them once, at the end. */
  positional = false;
  /** Every scale along the chain is uniform (up to signs). */
  uniform = true;
  /** Every scale along the chain is within NEARLY_UNIFORM of uniform. */
  nearly = true;
  /** The last pass shrank the error by less than SLOW_GAIN. */
  slow = false;
  /** The chain may be kicked off the line once the passes slow down (not within NEAR_FULL_REACH). */
  nearLineKicks = false;
  /** A limit acted on the pose the solve loaded (and on the hand-overs kept since). */
  clamped = false;
  /** A limit acted in the pass (or kept jump) that placed the current points. */
  passClamped = false;
  /** A hand-over failed: the passes go on alone (until the restart from the limits' middle). */
  handedOver = false;
  /** A hand-over's pose, within the tolerance, is the answer. */
  finished = false;
  /** A stall may try the damped least-squares steps (not again after they failed, until progress). */
  refine = false;
  /** The rescue has gone back to the closest kept hand-over since it was kept. */
  restarted = false;
  /** The passes have restarted from the limits' middle (once per solve). */
  fromMiddle = false;
  /** The flag of the pose kept when the passes restarted from the limits' middle. */
  stuckClamped = false;

  /** The chain's length, in the root's parent's frame. */
  get reach(): number {
    return this.numbers[0];
  }
  set reach(length: number) {
    this.numbers[0] = length;
  }

  /** The distance from the root to the (pulled-in) target, in the root's parent's frame. */
  get dist(): number {
    return this.numbers[1];
  }
  set dist(length: number) {
    this.numbers[1] = length;
  }

  /** The squared model-space error where the last iteration (and its jump, when kept) left the chain. */
  get lastErrorSq(): number {
    return this.numbers[2];
  }
  set lastErrorSq(errorSq: number) {
    this.numbers[2] = errorSq;
  }

  /** The squared model-space error the last tolerance check measured. */
  get errorSq(): number {
    return this.numbers[3];
  }
  set errorSq(errorSq: number) {
    this.numbers[3] = errorSq;
  }

  /** The squared error of the closest hand-over kept so far (∞: none). */
  get sweptErrorSq(): number {
    return this.numbers[4];
  }
  set sweptErrorSq(errorSq: number) {
    this.numbers[4] = errorSq;
  }

  /** The squared error of the pose kept when the passes restarted from the limits' middle (∞: none). */
  get stuckErrorSq(): number {
    return this.numbers[5];
  }
  set stuckErrorSq(errorSq: number) {
    this.numbers[5] = errorSq;
  }

  /** With limits: the best squared error of the passes, the yardstick of a stall. */
  get bestSq(): number {
    return this.numbers[6];
  }
  set bestSq(errorSq: number) {
    this.numbers[6] = errorSq;
  }

  /** The squared error of the closest pose a hand-over has left the chain in (kept or not). */
  get handedBestSq(): number {
    return this.numbers[7];
  }
  set handedBestSq(errorSq: number) {
    this.numbers[7] = errorSq;
  }
}
