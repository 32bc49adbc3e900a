/**
 * A controller's goal weight, eased in and out: what `LookAt`, `LadderClimb`, `BarHang` and `RungRetarget` keep
 * for their `setWeight` and `weight`.
 *
 * @packageDocumentation
 */
import { describeArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import { solverSlab as slab } from '../slab.js';
import { EASE, EASED_WEIGHT_LENGTH, easedWeightSet, easedWeightStep } from './spring.js';

/**
 * A weight in [0, 1] eased toward its goal along smoothstep over an ease time
 * ({@link easedWeightStep}), starting at 1, with the check of the `setWeight` that sets its goal.
 *
 * @internal
 */
export class GoalWeight {
  /** The eased weight's numbers ({@link easedWeightStep}); its value at index 3. */
  readonly state = slab.f64(EASED_WEIGHT_LENGTH);
  /** The ease's parameters ({@link EASE}); its time kept from the last {@link GoalWeight.set}. */
  private readonly args = slab.f64From([1, 0.5, 0]);

  constructor() {
    easedWeightSet(this.state, 0, 1);
  }

  /** The weight now. */
  get value(): number {
    return this.state[3];
  }

  /**
   * Eases toward `goal` over `easeTime` seconds from where the weight is.
   *
   * @throws {@link TendonError} `placement/invalid-option`, naming `who`, for a goal that is not a
   *   number in [0, 1] or an ease time that is not a finite number ≥ 0 (the weight is left as it was).
   */
  set(goal: number, easeTime: number, who: string): void {
    // Called now and then, this runs interpreted, where arithmetic makes heap numbers: checked by
    // comparisons and a builtin only.
    if (
      typeof goal !== 'number' ||
      typeof easeTime !== 'number' ||
      !(goal >= 0 && goal <= 1 && easeTime >= 0 && Number.isFinite(easeTime))
    ) {
      throw new TendonError(
        'placement/invalid-option',
        `${who}: a weight of ${describeArg(goal)} over ${describeArg(easeTime)} s (a weight in [0, 1] over a finite time ≥ 0)`,
      );
    }
    const a = this.args;
    a[EASE.goal] = goal;
    a[EASE.easeTime] = easeTime;
    a[EASE.dt] = 0;
    easedWeightStep(this.state, 0, a);
  }

  /** Steps the ease by `clock[index]` seconds (read here: a double passed in would be boxed). */
  stepBy(clock: Float64Array, index: number): void {
    const a = this.args;
    a[EASE.goal] = this.state[1];
    a[EASE.dt] = clock[index];
    easedWeightStep(this.state, 0, a);
  }
}
