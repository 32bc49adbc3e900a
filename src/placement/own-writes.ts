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
    const t = pose.translations;
    const r = pose.rotations;
    const found = this.found;
    const left = this.left;
    const marks = this.marks;
    const joints = this.joints;
    const check = this.known;
    this.compared = check;
    this.known = false;
    let any = false;
    // One pass: compared with what the last update left, then kept as found (a value put back
    // keeps what was found then).
    const moved = this.moved;
    for (let i = 0; i < moved; i++) {
      const a = 3 * joints[i];
      const k = 3 * i;
      const x = t[a];
      const y = t[a + 1];
      const z = t[a + 2];
      if (
        check &&
        x === left[k] &&
        y === left[k + 1] &&
        z === left[k + 2] &&
        !(x === found[k] && y === found[k + 1] && z === found[k + 2])
      ) {
        t[a] = found[k];
        t[a + 1] = found[k + 1];
        t[a + 2] = found[k + 2];
        marks[i] = 1;
        any = true;
      } else {
        found[k] = x;
        found[k + 1] = y;
        found[k + 2] = z;
        marks[i] = 0;
      }
    }
    for (let i = moved; i < joints.length; i++) {
      const b = 4 * joints[i];
      const k = 3 * moved + 4 * (i - moved);
      const x = r[b];
      const y = r[b + 1];
      const z = r[b + 2];
      const w = r[b + 3];
      if (
        check &&
        w === left[k + 3] &&
        x === left[k] &&
        y === left[k + 1] &&
        z === left[k + 2] &&
        !(w === found[k + 3] && x === found[k] && y === found[k + 1] && z === found[k + 2])
      ) {
        r[b] = found[k];
        r[b + 1] = found[k + 1];
        r[b + 2] = found[k + 2];
        r[b + 3] = found[k + 3];
        marks[i] = 1;
        any = true;
      } else {
        found[k] = x;
        found[k + 1] = y;
        found[k + 2] = z;
        found[k + 3] = w;
        marks[i] = 0;
      }
    }
    if (any) {
      if (this.given === null || this.given.length !== model.length)
        this.given = new Float64Array(model.length);
      this.given.set(model);
      this.subtrees(pose, model);
    }
  }

  /**
   * For an update that throws after {@link undo}: what it put back is given what it held again
   * (the pose and the model matrices as the update was given them), and the next update compares
   * as this one did. (What it found then stands for the joints it did not put back: they hold
   * it; for those it did, the last update's.)
   */
  revert(pose: Pose, model: Float64Array): void {
    const t = pose.translations;
    const r = pose.rotations;
    const moved = this.moved;
    let any = false;
    for (let i = 0; i < this.joints.length; i++) {
      if (this.marks[i] === 0) continue;
      const j = this.joints[i];
      if (i < moved) {
        for (let c = 0; c < 3; c++) t[3 * j + c] = this.left[3 * i + c];
      } else {
        const k = 3 * moved + 4 * (i - moved);
        for (let c = 0; c < 4; c++) r[4 * j + c] = this.left[k + c];
      }
      any = true;
    }
    if (any && this.given !== null) model.set(this.given);
    this.marks.fill(0);
    this.known = this.compared;
  }

  /** Records the pose as this update leaves it. Call it when the update is done. */
  done(pose: Pose): void {
    const t = pose.translations;
    const r = pose.rotations;
    const left = this.left;
    const joints = this.joints;
    const moved = this.moved;
    for (let i = 0; i < moved; i++) {
      const a = 3 * joints[i];
      const k = 3 * i;
      left[k] = t[a];
      left[k + 1] = t[a + 1];
      left[k + 2] = t[a + 2];
    }
    for (let i = moved; i < joints.length; i++) {
      const b = 4 * joints[i];
      const k = 3 * moved + 4 * (i - moved);
      left[k] = r[b];
      left[k + 1] = r[b + 1];
      left[k + 2] = r[b + 2];
      left[k + 3] = r[b + 3];
    }
    this.known = true;
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
