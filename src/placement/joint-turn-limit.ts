/**
 * A controller's limit on how fast the turn it adds to its joints may change while it is switched
 * in or out (or until it has caught up after that).
 *
 * @packageDocumentation
 */
import { limitTurnStep, turnLimitInto } from '../kernel/turn-step-limit.js';
import type { Pose } from '../pose/pose.js';
import { solverSlab as slab } from '../slab.js';

/**
 * Holds the turn a controller adds to each of its joints (the rotation it leaves, against the one
 * it found) within `maxTurnSpeed · dt` of last frame's, while its weight is below 1 and until each
 * joint has caught up after: a climb or a hang switched on or off faster than it can turn its
 * joints no longer pops (eased over 0.25 s at 60 Hz, they turned a joint 12° and 16° a frame;
 * over 0.1 s, 28° and 37°). At a steady weight of 1 it takes the controller's answer whole, so
 * that a gripping hand stays on its rung. Trig-free (the limit's cosine and sine by series);
 * allocates nothing after construction.
 */
export class JointTurnLimit {
  private readonly joints: Int32Array;
  /** Per joint, its rotation as the controller found it this update. */
  private readonly bases: Float64Array;
  /** Per joint, the turn added last update (base⁻¹ · rotation). */
  private readonly added: Float64Array;
  /** Per joint, 1 while it lags the controller's answer (held last update). */
  private readonly lagging: Uint8Array;
  /** The limit's cosine and sine of half the turn allowed this update. */
  private readonly limit = slab.f64(2);
  /** The turn speed (radians a second), then this update's `dt`. */
  private readonly speedDt = slab.f64(2);
  /** The next update records the turns without holding them (first, after a reset). */
  private fresh = true;

  /** For `joints` (local rotations), at most `maxTurnSpeed` radians a second (`Infinity`: none). */
  constructor(joints: readonly number[], maxTurnSpeed: number) {
    this.joints = Int32Array.from(joints);
    this.bases = slab.f64(4 * joints.length);
    this.added = slab.f64(4 * joints.length);
    for (let k = 3; k < this.added.length; k += 4) this.added[k] = 1;
    this.lagging = slab.u8(joints.length);
    this.speedDt[0] = maxTurnSpeed;
  }

  /** The next update takes the controller's answer at once (a reset, a weight set with no ease). */
  reset(): void {
    this.fresh = true;
  }

  /** Whether the turn added last update is none at every joint: switched off, nothing is left to ease. */
  isNone(): boolean {
    return addsNoTurn(this.added);
  }

  /** Records the joints' rotations as the controller finds them, before it turns them. */
  begin(pose: Pose): void {
    const r = pose.rotations;
    for (let i = 0; i < this.joints.length; i++) {
      const o = 4 * this.joints[i];
      for (let c = 0; c < 4; c++) this.bases[4 * i + c] = r[o + c];
    }
  }

  /**
   * After the controller turned the joints (or left them, switched off): each joint's added turn
   * held within the limit of last update's, where the weight is below 1 (`steady` false) or the
   * joint still lags; `dt` is read from `clock[o]`. Returns whether it turned any joint back (its
   * subtree's model matrices then need computing again).
   */
  apply(pose: Pose, clock: Float64Array, o: number, steady: boolean): boolean {
    const r = pose.rotations;
    const fresh = this.fresh;
    this.fresh = false;
    this.speedDt[1] = clock[o];
    turnLimitInto(this.limit, 0, this.speedDt, 0);
    let any = false;
    for (let i = 0; i < this.joints.length; i++) {
      const free = fresh || (steady && this.lagging[i] === 0);
      const held = limitTurnStep(
        r,
        4 * this.joints[i],
        this.bases,
        4 * i,
        this.added,
        4 * i,
        this.limit,
        0,
        free,
      );
      this.lagging[i] = held ? 1 : 0;
      any ||= held;
    }
    return any;
  }
}

/**
 * Whether every rotation in `added` (4 numbers each) is the identity: its axis part all 0, as
 * `limitTurnStep` records a turn that is none (base⁻¹ · base).
 */
export function addsNoTurn(added: Float64Array): boolean {
  for (let k = 0; k < added.length; k += 4) {
    if (added[k] !== 0 || added[k + 1] !== 0 || added[k + 2] !== 0) return false;
  }
  return true;
}
