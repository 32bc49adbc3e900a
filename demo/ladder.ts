/**
 * The CMU ladder clip (01_03: it climbs a step ladder, hangs from a bar and swings) played by
 * `RungRetarget` on a ladder whose rungs are lower and closer together than the captured one's,
 * with a rung drawn under each hold where the retarget puts it. IK off eases the retarget out (its weight):
 * the capture's hands and feet then miss the drawn rungs.
 */
import { BoxGeometry, Group, Mesh, MeshStandardMaterial, type Vector3 } from 'three';
import {
  type Clip,
  createModelBuffer,
  forwardKinematics,
  Pose,
  type Rig,
  RungRetarget,
  type RungRetargetOptions,
  SamplerContext,
  sampleClip,
} from '../src/index.js';
import { FixedSteps } from './common.js';
import { type FootError, summary, type Tally, tally, tallyAdd } from './walker.js';

/**
 * The captured ladder, about 25 cm between rungs from 25 cm up (4.4 units), and the one it is
 * played on, 22.6 cm from 22.6 cm (the rungs of test/placement/rung-retarget.test.ts).
 */
const RUNGS: RungRetargetOptions = { capturedFirstRung: 4.4, capturedSpacing: 4.4, firstRung: 4, spacing: 4 };

/** Plays the clip on the new ladder at world x `x`, the rungs across the view. */
export class LadderClimber {
  readonly retarget: RungRetarget;
  readonly pose: Pose;
  readonly model: Float64Array;
  /** Model to world: the capture's scale, turned so the rungs run along z, the floor at y 0. */
  readonly world = new Float64Array(16);
  /** The ladder's rungs (and the bar), drawn. */
  readonly ladder = new Group();
  /** The clip's time, seconds. */
  time = 0;
  private on = true;
  private readonly steps = new FixedSteps();
  private readonly context: SamplerContext;
  private readonly before: Float64Array;
  private readonly hips: number;
  private withIk: Tally = tally();
  private withoutIk: Tally = tally();

  /**
   * @param scale - metres per model unit.
   * @param x - world x of the ladder.
   */
  constructor(
    private readonly clip: Clip,
    rig: Rig,
    private readonly scale: number,
    readonly x: number,
  ) {
    const skeleton = clip.skeleton;
    this.retarget = new RungRetarget(clip, rig, RUNGS);
    this.pose = new Pose(skeleton);
    this.model = createModelBuffer(skeleton);
    this.before = createModelBuffer(skeleton);
    this.hips = rig.pelvis;
    this.context = new SamplerContext(clip);
    this.placeLadder();
  }

  /**
   * Where the holds are (model space): the world matrix turns the direction from the right limbs'
   * holds to the left limbs' onto +z and stands the holds' middle at (x, ·, 0); a rung is drawn
   * under every hold off the floor, at the height the retarget moves it to (its rung's shift).
   */
  private placeLadder(): void {
    const { retarget, clip, pose, model, context } = this;
    // Per hold off the floor: the joint's x, y, z at the hold's middle, its shift, 1 for a hand.
    const holds: number[] = [];
    let floor = Number.POSITIVE_INFINITY;
    for (let t = 0; t < clip.duration; t += 1 / 30) {
      sampleClip(clip, context, t, pose, 'clamp');
      forwardKinematics(pose, model);
      for (const foot of [2, 3]) floor = Math.min(floor, model[16 * retarget.joints[foot] + 13]);
    }
    // Per side (left, right), the sum of the held x and z, and the count.
    const sides = [0, 0, 0, 0, 0, 0];
    const at = [0, 0];
    retarget.holds.forEach((h, limb) => {
      for (let k = 0; k < h.length; k += 3) {
        sampleClip(clip, context, 0.5 * (h[k] + h[k + 1]), pose, 'clamp');
        forwardKinematics(pose, model);
        const o = 16 * retarget.joints[limb] + 12;
        // A hold on the floor is no rung.
        if (h[k + 2] === 0 && model[o + 1] - floor < 2) continue;
        holds.push(model[o], model[o + 1], model[o + 2], h[k + 2], limb < 2 ? 1 : 0);
        const side = 3 * (limb % 2);
        sides[side] += model[o];
        sides[side + 1] += model[o + 2];
        sides[side + 2]++;
        at[0] += model[o];
        at[1] += model[o + 2];
      }
    });
    const n = Math.max(1, holds.length / 5);
    const across = [
      sides[0] / Math.max(1, sides[2]) - sides[3] / Math.max(1, sides[5]),
      sides[1] / Math.max(1, sides[2]) - sides[4] / Math.max(1, sides[5]),
    ];
    const length = Math.hypot(across[0], across[1]) || 1;
    const ux = across[0] / length;
    const uz = across[1] / length;
    // A turn about y taking the rungs' direction (ux, 0, uz) to +z (no angle: its rows are
    // (uz, 0, −ux), (0, 1, 0), (ux, 0, uz)), then the scale; the capture's floor (y 0) stays.
    const s = this.scale;
    const w = this.world;
    w.set([s * uz, 0, s * ux, 0, 0, s, 0, 0, -s * ux, 0, s * uz, 0, 0, 0, 0, 1]);
    w[12] = this.x - (w[0] * at[0] + w[8] * at[1]) / n;
    w[14] = -(w[2] * at[0] + w[10] * at[1]) / n;
    // A rung (or a bar) 3 cm thick under the holds, on two posts: under a wrist by 3 cm, under an
    // ankle by the ankle's height over the floor. Holds within 5 cm in height and 15 cm in depth of
    // a rung's mean share it, which spans them across (plus 10 cm at each end).
    const wood = new MeshStandardMaterial({ color: 0x9a7b55 });
    const rungs: { x: number; y: number; n: number; z0: number; z1: number }[] = [];
    for (let k = 0; k < holds.length; k += 5) {
      const [x, y, z, shift, hand] = holds.slice(k, k + 5);
      const wx = w[0] * x + w[8] * z + w[12];
      const wz = w[2] * x + w[10] * z + w[14];
      const wy = s * (y + shift) - (hand ? 0.03 : s * floor);
      let r = rungs.find((q) => Math.abs(q.y / q.n - wy) < 0.05 && Math.abs(q.x / q.n - wx) < 0.15);
      if (!r) {
        r = { x: 0, y: 0, n: 0, z0: wz, z1: wz };
        rungs.push(r);
      }
      r.x += wx;
      r.y += wy;
      r.n++;
      r.z0 = Math.min(r.z0, wz);
      r.z1 = Math.max(r.z1, wz);
    }
    for (const r of rungs) {
      const x = r.x / r.n;
      const y = r.y / r.n;
      const z0 = r.z0 - 0.1;
      const z1 = r.z1 + 0.1;
      const bar = new Mesh(new BoxGeometry(0.03, 0.03, z1 - z0), wood);
      bar.position.set(x, y, 0.5 * (z0 + z1));
      this.ladder.add(bar);
      for (const z of [z0, z1]) {
        const post = new Mesh(new BoxGeometry(0.02, y, 0.02), wood);
        post.position.set(x, 0.5 * y, z);
        this.ladder.add(post);
      }
    }
    // The capture's floor, 10 m square (it walks about the playground between holds).
    const ground = new Mesh(new BoxGeometry(10, 0.05, 10), new MeshStandardMaterial({ color: 0x56607a }));
    ground.position.set(this.x, -0.025, 0);
    this.ladder.add(ground);
  }

  /** The hips' place in world space, for the camera. */
  focus(out: Vector3): Vector3 {
    const o = 16 * this.hips + 12;
    const m = this.model;
    const w = this.world;
    return out.set(
      w[0] * m[o] + w[4] * m[o + 1] + w[8] * m[o + 2] + w[12],
      w[1] * m[o] + w[5] * m[o + 1] + w[9] * m[o + 2] + w[13],
      w[2] * m[o] + w[6] * m[o + 1] + w[10] * m[o + 2] + w[14],
    );
  }

  /** The clip's length, seconds. */
  get duration(): number {
    return this.clip.duration;
  }

  /** Whether IK is on (the retarget's weight heading for 1). */
  get ik(): boolean {
    return this.on;
  }

  /** Eases the retarget in (on) or out over 0.5 s: the capture's own hands and feet when out. */
  setIk(on: boolean): void {
    this.on = on;
    this.retarget.setWeight(on ? 1 : 0, 0.5);
  }

  /**
   * Moves the clip on by `dt` seconds of real time, in steps of 1/60 s (at most 6 a frame), as
   * the walks do: what is measured does not depend on the frame rate.
   */
  advance(dt: number): void {
    for (let k = this.steps.take(dt); k > 0; k--) this.step(1 / 60);
  }

  /**
   * Moves the clip on by `dt` seconds (looping), retargets the frame, and measures each holding
   * limb's distance to its place on the new rung (its animated place moved by its rung's whole
   * shift): as shown (the retarget at its weight), and as captured.
   */
  step(dt: number): void {
    const { retarget, model, before } = this;
    this.time = (this.time + dt) % this.clip.duration;
    sampleClip(this.clip, this.context, this.time, this.pose, 'clamp');
    forwardKinematics(this.pose, model);
    before.set(model);
    retarget.apply(this.pose, model, this.time, dt);
    for (let i = 0; i < 4; i++) {
      if (retarget.holding[i] !== 1) continue;
      const shift = holdShift(retarget.holds[i], this.time);
      const o = 16 * retarget.joints[i] + 12;
      const shown = Math.hypot(
        model[o] - before[o],
        model[o + 1] - (before[o + 1] + shift),
        model[o + 2] - before[o + 2],
      );
      tallyAdd(this.withIk, this.scale * shown);
      tallyAdd(this.withoutIk, this.scale * Math.abs(shift));
    }
  }

  /** The holds' distances to their new rungs, with the retarget and without. */
  stats(): { footError: FootError; footErrorWithoutIk: FootError } {
    return { footError: summary(this.withIk), footErrorWithoutIk: summary(this.withoutIk) };
  }

  resetStats(): void {
    this.withIk = tally();
    this.withoutIk = tally();
  }
}

/** The shift of the hold (`[start, end, shift, …]`) that `time` falls in, 0 in none. */
function holdShift(holds: Float64Array, time: number): number {
  for (let k = 0; k < holds.length; k += 3) if (time >= holds[k] && time <= holds[k + 1]) return holds[k + 2];
  return 0;
}
