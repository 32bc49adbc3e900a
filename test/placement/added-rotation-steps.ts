/**
 * The measure the placement tests hold IK to frame by frame: the rotation IK adds to each joint
 * (animated⁻¹ · placed, local) and its change from one frame to the next, degrees (walk-harness.ts
 * measures the same for the walks, beside what it measures more).
 */
export class AddedRotationSteps {
  /** The largest change so far. */
  max = 0;
  /** The largest change in the last frame added (0 in the first). */
  last = 0;
  /** The joint of that change (-1 in the first frame). */
  lastJoint = -1;
  private readonly previous: Float64Array;
  private first = true;
  constructor(count: number) {
    this.previous = new Float64Array(4 * count);
  }
  /** Adds a frame: the animated and the placed local rotations, 4 numbers a joint. */
  add(animated: Float64Array, placed: Float64Array): void {
    this.last = 0;
    this.lastJoint = -1;
    for (let o = 0; o < animated.length; o += 4) {
      const [ax, ay, az, aw] = [-animated[o], -animated[o + 1], -animated[o + 2], animated[o + 3]];
      const p = placed;
      const x = aw * p[o] + ax * p[o + 3] + ay * p[o + 2] - az * p[o + 1];
      const y = aw * p[o + 1] - ax * p[o + 2] + ay * p[o + 3] + az * p[o];
      const z = aw * p[o + 2] + ax * p[o + 1] - ay * p[o] + az * p[o + 3];
      const w = aw * p[o + 3] - ax * p[o] - ay * p[o + 1] - az * p[o + 2];
      const q = this.previous;
      if (!this.first) {
        const d = Math.min(1, Math.abs(x * q[o] + y * q[o + 1] + z * q[o + 2] + w * q[o + 3]));
        const step = (2 * Math.acos(d) * 180) / Math.PI;
        if (step > this.last) {
          this.last = step;
          this.lastJoint = o >> 2;
        }
      }
      q[o] = x;
      q[o + 1] = y;
      q[o + 2] = z;
      q[o + 3] = w;
    }
    this.max = Math.max(this.max, this.last);
    this.first = false;
  }
}
