/**
 * Chain rigs and limit checks shared by the IK tests (FABRIK, CCD, the damped least-squares steps,
 * the joint limits, aim): a chain of bones along +Y below a parent joint with one of the parent
 * cases' transforms, arbitraries for its lengths, rotations and limits, targets in the parent's
 * frame, one-expect() checks (per-element expects dominated a property case's cost), and the
 * trigonometric reference a limit is checked against (swing–twist by atan2).
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { isTendonError, type TendonErrorCode } from '../../src/errors.js';
import type { JointLimit } from '../../src/ik/joint-limits.js';
import * as mat4 from '../../src/kernel/mat4.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';
import { PARENT_CASES, type ParentCase } from '../ik/parents.js';

/** A chain of `bones` bones (`bones + 1` joints, all along +Y at rest) below a joint "parent". */
export interface ChainRig {
  readonly skeleton: Skeleton;
  readonly pose: Pose;
  readonly model: Float64Array;
  /** Chain joint indices, root to tip. */
  readonly chain: number[];
  /** The twist joint between chain joints 1 and 2, or −1. */
  readonly twist: number;
  readonly parentCase: ParentCase;
}

export function buildRig(
  bones: number,
  parentCase: ParentCase = PARENT_CASES[0],
  withTwist = false,
): ChainRig {
  const names = ['parent'];
  const parents = [-1];
  const t = [...parentCase.translation];
  const r = [...parentCase.rotation];
  const s = [...parentCase.scale];
  const chain: number[] = [];
  let twist = -1;
  for (let i = 0; i <= bones; i++) {
    if (withTwist && i === 2) {
      twist = names.length;
      names.push('twist');
      parents.push(names.length - 2);
      t.push(0, 0.5, 0);
      r.push(0, 0, 0, 1);
      s.push(1, 1, 1);
    }
    chain.push(names.length);
    parents.push(names.length - 1);
    names.push(`j${i}`);
    t.push(...(i === 0 ? [0.3, 0.5, -0.2] : withTwist && i === 2 ? [0, 0.5, 0] : [0, 1, 0]));
    r.push(0, 0, 0, 1);
    s.push(1, 1, 1);
  }
  // A child of the end, so that the end's subtree has something in it.
  names.push('leaf');
  parents.push(chain[chain.length - 1]);
  t.push(0, 0.25, 0);
  r.push(0, 0, 0, 1);
  s.push(1, 1, 1);
  const skeleton = Skeleton.create({
    names,
    parents,
    restTranslations: t,
    restRotations: r,
    restScales: s,
  });
  const pose = new Pose(skeleton);
  const model = createModelBuffer(skeleton);
  forwardKinematics(pose, model);
  return { skeleton, pose, model, chain, twist, parentCase };
}

export type Quat = [number, number, number, number];
export type Vec = [number, number, number];

/** Sets the chain's bone lengths and local rotations (normalized; zero becomes identity). */
export function setChain(rig: ChainRig, lengths: readonly number[], rotations: readonly Quat[]): void {
  const { pose, chain, twist } = rig;
  for (let i = 0; i < chain.length; i++) {
    const j = chain[i];
    if (i > 0) {
      const len = lengths[i - 1];
      if (twist >= 0 && i === 2) {
        pose.translations[3 * twist + 1] = len / 2;
        pose.translations[3 * j + 1] = len / 2;
      } else pose.translations[3 * j + 1] = len;
    }
    const [x, y, z, w] = rotations[i];
    const n = Math.hypot(x, y, z, w);
    if (n < 1e-6) pose.rotations.set([0, 0, 0, 1], 4 * j);
    else pose.rotations.set([x / n, y / n, z / n, w / n], 4 * j);
  }
  forwardKinematics(pose, rig.model);
}

/** Model-space point of a point given in the parent joint's frame. */
export function parentToModel(rig: ChainRig, p: Vec): Float64Array {
  const m = rig.model;
  const out = new Float64Array(3);
  for (let r = 0; r < 3; r++) out[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
  return out;
}

/** Chain joint positions in the parent joint's frame (where the chain is rigid). */
export function chainInParent(rig: ChainRig): Vec[] {
  const inv = new Float64Array(16);
  mat4.invert(inv, 0, rig.model, 0);
  return rig.chain.map((j) => {
    const o = 16 * j + 12;
    const m = rig.model;
    const out: Vec = [0, 0, 0];
    for (let r = 0; r < 3; r++)
      out[r] = inv[r] * m[o] + inv[4 + r] * m[o + 1] + inv[8 + r] * m[o + 2] + inv[12 + r];
    return out;
  });
}

export function dist(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number {
  return Math.hypot(a[ao] - b[bo], a[ao + 1] - b[bo + 1], a[ao + 2] - b[bo + 2]);
}

export function segmentLengths(points: Vec[]): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < points.length; i++) out.push(dist(points[i], 0, points[i + 1], 0));
  return out;
}

/** Largest scale factor of the parent case (how model units relate to chain units). */
export function scaleOf(pc: ParentCase): number {
  return Math.max(...pc.scale.map(Math.abs));
}

export function minScaleOf(pc: ParentCase): number {
  return Math.min(...pc.scale.map(Math.abs));
}

/** A target at `distance` from the chain's root along `dir`, in the parent's frame. */
export function targetAt(rig: ChainRig, dir: Vec, distance: number): Float64Array {
  let [x, y, z] = dir;
  const n = Math.hypot(x, y, z);
  if (n < 1e-9) [x, y, z] = [1, 0, 0];
  else [x, y, z] = [x / n, y / n, z / n];
  const root = rig.pose.translations.subarray(3 * rig.chain[0], 3 * rig.chain[0] + 3);
  return parentToModel(rig, [root[0] + x * distance, root[1] + y * distance, root[2] + z * distance]);
}

// The helpers below make one expect() call each: per-element expects dominated a case's cost.
export function expectAllFinite(values: ArrayLike<number>): void {
  let bad = -1;
  for (let i = 0; i < values.length && bad < 0; i++) if (!Number.isFinite(values[i])) bad = i;
  expect(bad).toBe(-1);
}

export function checkUnit(rig: ChainRig): void {
  let worst = 0;
  for (const j of rig.chain) {
    const q = rig.pose.rotations.subarray(4 * j, 4 * j + 4);
    worst = Math.max(worst, Math.abs(Math.hypot(q[0], q[1], q[2], q[3]) - 1));
  }
  expect(worst).toBeLessThanOrEqual(1e-12);
}

export const unit = fc.double({ min: -1, max: 1, noNaN: true });
export const quatArb = fc.tuple(unit, unit, unit, unit) as fc.Arbitrary<Quat>;
export const vecArb = fc.tuple(unit, unit, unit) as fc.Arbitrary<Vec>;

/** A chain's bone lengths in [minLength, maxLength], its joints' rotations, a direction and a fraction. */
export function chainArb(bones: number, minLength: number, maxLength: number) {
  return fc.record({
    lengths: fc.array(fc.double({ min: minLength, max: maxLength, noNaN: true }), {
      minLength: bones,
      maxLength: bones,
    }),
    rotations: fc.array(quatArb, { minLength: bones + 1, maxLength: bones + 1 }),
    dir: vecArb,
    fraction: fc.double({ min: 0, max: 1, noNaN: true }),
  });
}

/** Reach of a chain and the nearest distance it can fold to. */
export function reachOf(lengths: readonly number[]): { reach: number; inner: number } {
  const reach = lengths.reduce((a, b) => a + b, 0);
  const longest = Math.max(...lengths);
  return { reach, inner: Math.max(0, 2 * longest - reach) };
}

/** Runs `fn` and expects a TendonError with `code`. */
export function expectCode(fn: () => unknown, code: TendonErrorCode): void {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(isTendonError(caught, code), `expected ${code}, got ${String(caught)}`).toBe(true);
}

/** An arm's limits: shoulder cone (with a twist range), elbow hinge, wrist cone; the tip free. */
export const ARM_LIMITS: readonly (JointLimit | null)[] = [
  { kind: 'cone', angle: 1.2, twistMin: -0.5, twistMax: 0.5 },
  { kind: 'hinge', axis: [1, 0, 0], min: 0, max: 2.5 },
  { kind: 'cone', angle: 0.6 },
  null,
];

/** A seeded linear congruential generator of numbers in [0, 1) (bench/limits.mjs uses the same). */
export function lcg(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

/** An angle in [0, π]. */
export const angleArb = fc.double({ min: 0, max: Math.PI, noNaN: true });
/** No limit, a hinge about a random axis with a random range, or a cone with a twist range. */
export const limitArb: fc.Arbitrary<JointLimit | null> = fc.oneof(
  fc.constant(null),
  fc
    .record({ axis: vecArb, a: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }), b: angleArb })
    .filter(({ axis }) => Math.hypot(...axis) > 0.1)
    .map(({ axis, a, b }) => ({ kind: 'hinge' as const, axis, min: a, max: Math.min(Math.PI, a + b) })),
  fc
    .record({ angle: angleArb, a: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }), b: angleArb })
    .map(({ angle, a, b }) => ({
      kind: 'cone' as const,
      angle,
      twistMin: a,
      twistMax: Math.min(Math.PI, a + b),
    })),
);

// ---------------------------------------------------------------------------------------------
// Rotations and limits, by plain trigonometry: the reference the solvers are checked against (the
// solvers themselves use none).

/** The quaternion product `a · b` (b's turn first). */
export function qmul(a: ArrayLike<number>, b: ArrayLike<number>): Quat {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

/** The conjugate (the inverse of a unit quaternion). */
export function qconj(a: ArrayLike<number>): Quat {
  return [-a[0], -a[1], -a[2], a[3]];
}

/** The turn by `angle` (radians) about `axis` (any length), as a unit quaternion. */
export function turnAbout(axis: readonly number[], angle: number): Quat {
  const s = Math.sin(angle / 2) / Math.hypot(axis[0], axis[1], axis[2]);
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

/**
 * Swing–twist split of the rotation `d` about the unit axis `a`, `d = swing · twist`: the swing's
 * angle (in `[0, π]`), the twist's (in `[−π, π]`, by atan2) and `tn`, the length of `d`'s
 * projection onto the twist (the cosine of half the swing): the twist is ill-conditioned as `tn`
 * nears 0 (a half-turn swing, where it is taken as the identity).
 */
export function swingTwist(d: ArrayLike<number>, a: ArrayLike<number>): [number, number, number] {
  let [x, y, z, w] = [d[0], d[1], d[2], d[3]];
  if (w < 0) [x, y, z, w] = [-x, -y, -z, -w];
  const p = x * a[0] + y * a[1] + z * a[2];
  const tn = Math.hypot(p, w);
  const [ts, tc] = tn > 0 ? [p / tn, w / tn] : [0, 1];
  // swing = d · conj(twist)
  const [bx, by, bz, bw] = [-a[0] * ts, -a[1] * ts, -a[2] * ts, tc];
  const sx = w * bx + x * bw + y * bz - z * by;
  const sy = w * by - x * bz + y * bw + z * bx;
  const sz = w * bz + x * by - y * bx + z * bw;
  const sw = w * bw - x * bx - y * by - z * bz;
  return [2 * Math.atan2(Math.hypot(sx, sy, sz), Math.abs(sw)), 2 * Math.atan2(ts, tc), tn];
}

/** Whether `angle`, or a turn either side of it, lies in `[min − eps, max + eps]`: −π is the twist π. */
export function angleIn(angle: number, min: number, max: number, eps: number): boolean {
  return [angle, angle - 2 * Math.PI, angle + 2 * Math.PI].some((a) => a >= min - eps && a <= max + eps);
}

/** The rotation `d = q₀⁻¹ q` of joint `j` relative to its rest rotation, as its limit reads it. */
export function relative(rig: Pick<ChainRig, 'skeleton' | 'pose'>, j: number): Quat {
  const q = rig.pose.rotations;
  const r = rig.skeleton.restRotations;
  return qmul(qconj(r.subarray(4 * j, 4 * j + 4)), q.subarray(4 * j, 4 * j + 4));
}

/**
 * Checks a limit on a relative rotation `d` against the trigonometric reference, to 1e-9 rad:
 * a hinge's rotation turns about its axis only (nothing of its vector part, and no swing, off the
 * axis) by an angle in its range; a cone's swing is within its angle and its twist in its range. The
 * twist of a near half-turn swing is ill-conditioned: below `tn` 1e-3 its bound allows for a
 * rounding of `rounding` in `d`'s components, divided by `tn`. `axisIfDefault` is a cone's axis
 * when the limit gives none.
 */
export function expectWithinLimit(d: Quat, limit: JointLimit, axisIfDefault: Vec, rounding = 1e-14): void {
  const axis = limit.axis ?? axisIfDefault;
  const n = Math.hypot(...axis);
  const a: Vec = [axis[0] / n, axis[1] / n, axis[2] / n];
  const [swing, twist, tn] = swingTwist(d, a);
  const eps = 1e-9;
  const twistEps = tn < 1e-3 ? eps + rounding / Math.max(1e-300, tn) : eps;
  if (limit.kind === 'hinge') {
    const p = d[0] * a[0] + d[1] * a[1] + d[2] * a[2];
    const off = Math.hypot(d[0] - p * a[0], d[1] - p * a[1], d[2] - p * a[2]);
    expect(off <= eps && swing <= eps, `hinge: ${off} of the rotation off its axis, swing ${swing}`).toBe(
      true,
    );
    const [min, max] = [limit.min ?? -Math.PI, limit.max ?? Math.PI];
    expect(angleIn(twist, min, max, eps), `hinge angle ${twist} in [${min}, ${max}] ± ${eps}`).toBe(true);
  } else {
    expect(swing, 'cone swing').toBeLessThanOrEqual(limit.angle + eps);
    const [min, max] = [limit.twistMin ?? -Math.PI, limit.twistMax ?? Math.PI];
    expect(angleIn(twist, min, max, twistEps), `twist ${twist} in [${min}, ${max}] ± ${twistEps}`).toBe(true);
  }
}
