/**
 * What an IK solve reports.
 *
 * @packageDocumentation
 */

/**
 * The outcome of one solve, reused from solve to solve (a solver owns one and returns it, so a
 * solve allocates nothing). Geometry never throws: an unreachable or degenerate target gives a sane
 * pose and says so here.
 */
export class IkStatus {
  // Numbers live in an array: see docs/architecture.md, "Numbers in typed arrays".
  private readonly numbers = new Float64Array(2);
  /** The end effector is within the solver's tolerance of the target. */
  reached = false;
  /**
   * The target is farther than the chain reaches, or closer than it can fold: the chain points at
   * it (with limits, as near as they let it).
   */
  outOfReach = false;
  /** A joint limit, softening or the weight kept the answer from the unconstrained one. */
  clamped = false;
  /** The limb was straight (or the pole on the root–target line) and the bend side came from the hinge. */
  degenerate = false;

  /** Iterations used (1 for closed-form solvers). */
  get iterations(): number {
    return this.numbers[0];
  }
  /** Sets the iteration count (solvers write it). */
  set iterations(count: number) {
    this.numbers[0] = count;
  }

  /** Distance from the end effector to the target after the solve, in model-space units. */
  get error(): number {
    return this.numbers[1];
  }
  /** Sets the distance left (solvers write it). */
  set error(distance: number) {
    this.numbers[1] = distance;
  }

  /**
   * Sets {@link IkStatus.error} to `source[index]`: a double read here, not passed in, is never
   * boxed, even where V8 does not inline the call (a solve must not allocate).
   *
   * @internal
   */
  errorFrom(source: Float64Array, index: number): void {
    this.numbers[1] = source[index];
  }

  /**
   * Writes {@link IkStatus.error} into `target[index]`: read this way, the double is never boxed on
   * its way out of a call V8 does not inline.
   *
   * @internal
   */
  errorInto(target: Float64Array, index: number): void {
    target[index] = this.numbers[1];
  }

  /** Clears every flag and number (solvers call it first). */
  reset(): void {
    this.reached = false;
    this.outOfReach = false;
    this.clamped = false;
    this.degenerate = false;
    this.numbers[0] = 0;
    this.numbers[1] = 0;
  }
}
