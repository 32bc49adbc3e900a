/**
 * What a controller wrote into a pose last frame, to tell a pose that was not animated since.
 *
 * @packageDocumentation
 */
import { localToModel } from '../kernel/local-to-model.js';
import type { Pose } from '../pose/pose.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import { solverSlab as slab } from '../slab.js';

/**
 * The local translations and rotations a controller writes, as it found them and as it left them
 * in its last update. A controller adds to the pose it is given, which should be this frame's
 * animation; where a joint still holds, to the bit, what the controller left it (a clip with no
 * channel for the joint, sampled over a pose that was not reset; a frame given again), the
 * controller's own turn would become the next frame's animation and each update would add to the
 * last (the robot's torso, which none of its clips animates, stood turned 46° by a look that turns
 * it 11.5°, and stayed so once the look was switched off; its arms stayed over its head after a
 * hang). {@link OwnWrites.undo} puts such a translation or rotation back where the controller found
 * it. Translations and rotations are told apart: a clip animates them as channels of their own
 * (the robot's Idle moves its hips and does not turn them).
 *
 * Allocates nothing per update, but for a copy of the model matrices the first time it puts a joint
 * back (kept for {@link OwnWrites.revert}).
 */
export class OwnWrites {
  /** The joints whose translation is written, then those whose rotation is. */
  private readonly joints: Int32Array;
  /** How many of {@link joints} are translated. */
  private readonly moved: number;
  private readonly parents: Int32Array;
  private readonly ends: Int32Array;
  /** The translations (3 numbers each), then the rotations (4 each), as the last update found them. */
  private readonly found: Float64Array;
  /** The same, as the last update left them. */
  private readonly left: Float64Array;
  /** Per entry of {@link joints}, 1 where {@link undo} put it back (until {@link done} or {@link revert}). */
  private readonly marks: Uint8Array;
  /**
   * The model matrices as the update was given them, kept where {@link undo} put a joint back (for
   * {@link revert}); made the first time (a pose not animated since is a caller's slip, not a
   * frame's work).
   */
  private given: Float64Array | null = null;
  /** Whether {@link found} and {@link left} are the last update's. */
  private known = false;
  /** Whether the last {@link undo} compared (for {@link revert}, which puts that back). */
  private compared = false;

  /**
   * For the joints whose translation (`moved`) and rotation (`turned`) a controller writes (joints
   * it may leave alone may be listed too).
   */
  constructor(skeleton: Skeleton, moved: readonly number[], turned: readonly number[]) {
    this.joints = Int32Array.from([...moved, ...turned]);
    this.moved = moved.length;
    this.parents = skeleton.parents;
    this.ends = skeleton.subtreeEnds;
    const numbers = 3 * moved.length + 4 * turned.length;
    this.found = slab.f64(numbers);
    this.left = slab.f64(numbers);
    this.marks = slab.u8(this.joints.length);
  }

  /**
   * Puts back each translation and rotation that holds, to the bit, what the last update left it,
   * and that update changed, to what that update found, and computes the model matrices of their
   * subtrees again. Records the pose as this update finds it. Call it once the update can no
   * longer throw for its inputs, before it reads the pose.
   */
  undo(pose: Pose, model: Float64Array): void {
    // (Skipped for a pose every sample starts from rest, a crowd's character: see Pose.)
    if (pose.startsFromRest) return;
    const check = this.known;
    this.compared = check;
    this.known = false;
    // Translations (3 numbers, from found[0]), then rotations (4, after them).
    const moved = this.moved;
    const t = this.undoChannel(pose.translations, 3, 0, moved, 0, check);
    const r = this.undoChannel(pose.rotations, 4, moved, this.joints.length, 3 * moved, check);
    if (t || r) {
      if (this.given === null || this.given.length !== model.length)
        this.given = new Float64Array(model.length);
      this.given.set(model);
      this.subtrees(pose, model);
    }
  }

  /**
   * {@link undo} for one channel: joints `from … to − 1` of {@link joints}, `width` numbers each in
   * `values`, from `at` in {@link found} and {@link left}. One pass: compared with what the last
   * update left (with `check`), then kept as found (a value put back keeps what was found then).
   * Returns whether it put any back.
   */
  private undoChannel(
    values: Float64Array,
    width: number,
    from: number,
    to: number,
    at: number,
    check: boolean,
  ): boolean {
    const found = this.found;
    const left = this.left;
    let any = false;
    for (let i = from; i < to; i++) {
      const v = width * this.joints[i];
      const k = at + width * (i - from);
      let back = check;
      let changed = false;
      for (let c = 0; c < width && back; c++) {
        back = values[v + c] === left[k + c];
        changed ||= values[v + c] !== found[k + c];
      }
      if (back && changed) {
        for (let c = 0; c < width; c++) values[v + c] = found[k + c];
        this.marks[i] = 1;
        any = true;
      } else {
        for (let c = 0; c < width; c++) found[k + c] = values[v + c];
        this.marks[i] = 0;
      }
    }
    return any;
  }

  /**
   * For an update that throws after {@link undo}: what it put back is given what it held again
   * (the pose and the model matrices as the update was given them), and the next update compares
   * as this one did. (What it found then stands for the joints it did not put back: they hold
   * it; for those it did, the last update's.)
   */
  revert(pose: Pose, model: Float64Array): void {
    const moved = this.moved;
    const t = this.copyChannel(pose.translations, 3, 0, moved, 0, true);
    const r = this.copyChannel(pose.rotations, 4, moved, this.joints.length, 3 * moved, true);
    if ((t || r) && this.given !== null) model.set(this.given);
    this.marks.fill(0);
    this.known = this.compared;
  }

  /** Records the pose as this update leaves it. Call it when the update is done. */
  done(pose: Pose): void {
    if (pose.startsFromRest) return;
    const moved = this.moved;
    this.copyChannel(pose.translations, 3, 0, moved, 0, false);
    this.copyChannel(pose.rotations, 4, moved, this.joints.length, 3 * moved, false);
    this.known = true;
  }

  /**
   * Between one channel's values and {@link left} (as {@link undoChannel} lays them out): into
   * `values` for the marked joints (`back`), else into `left` for every joint. Returns whether it
   * wrote any value back.
   */
  private copyChannel(
    values: Float64Array,
    width: number,
    from: number,
    to: number,
    at: number,
    back: boolean,
  ): boolean {
    const left = this.left;
    let any = false;
    for (let i = from; i < to; i++) {
      const v = width * this.joints[i];
      const k = at + width * (i - from);
      if (!back) {
        for (let c = 0; c < width; c++) left[k + c] = values[v + c];
      } else if (this.marks[i] === 1) {
        for (let c = 0; c < width; c++) values[v + c] = left[k + c];
        any = true;
      }
    }
    return any;
  }

  /** The model matrices of each put-back joint's subtree, one inside another's done once. */
  private subtrees(pose: Pose, model: Float64Array): void {
    let from = -1;
    let end = -1;
    for (let i = 0; i < this.joints.length; i++) {
      if (this.marks[i] === 0) continue;
      const j = this.joints[i];
      if (j >= from && j < end) continue;
      from = j;
      end = this.ends[j];
      localToModel(model, this.parents, pose.translations, pose.rotations, pose.scales, from, end);
    }
  }
}
