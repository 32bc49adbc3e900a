/**
 * Joint limits for the iterative solvers: what a caller writes, and its compilation into the flat
 * records the kernels enforce (`src/kernel/joint-limits.ts`).
 *
 * @packageDocumentation
 */
import { checkKnownKeys } from '../arguments.js';
import { TendonError } from '../errors.js';
import {
  LIMIT_AXIS,
  LIMIT_CONE,
  LIMIT_CONE_KIND,
  LIMIT_HINGE,
  LIMIT_KIND,
  LIMIT_REST,
  LIMIT_STRIDE,
  LIMIT_TWIST,
} from '../kernel/joint-limits.js';
import * as mat4 from '../kernel/mat4.js';
import { cosSinOfAngle } from '../math/angle.js';
import { restModelMatrices } from '../pose/forward-kinematics.js';
import type { Skeleton } from '../skeleton/skeleton.js';

/**
 * A limit on one joint's local rotation, relative to its rest local rotation `q₀` and in the joint's
 * own frame: the local rotation is `q = q₀ · d` and the limit constrains `d`. Angles are radians.
 *
 * - `hinge`: `d` is a rotation about `axis` (joint-local, need not be unit) only, by an angle in
 *   `[min, max]` (defaults `−π`, `π`; `−π ≤ min ≤ max ≤ π`). Positive angles turn counter-clockwise
 *   looking down the axis (right-hand rule).
 * - `cone`: `d` swings `axis` by at most `angle` (in `[0, π]`) from where it is at rest; the twist
 *   about it stays in `[twistMin, twistMax]` (defaults `−π`, `π`). The axis defaults to the direction
 *   from the joint to the next joint of the chain in the rest pose (for the chain's last joint, to
 *   its first child with an offset); give it when there is none.
 *
 * Angles are converted to half-angle cosines and sines once, when a solver is built (with
 * {@link cosSinOfAngle}); solving then needs no trigonometry.
 */
export type JointLimit =
  | {
      /** A hinge: the joint turns about one axis only. */
      readonly kind: 'hinge';
      /** The hinge axis, joint-local (need not be unit). */
      readonly axis: readonly [number, number, number];
      /** Least angle about the axis, radians. */
      readonly min?: number;
      /** Greatest angle about the axis, radians. */
      readonly max?: number;
    }
  | {
      /** A cone: the bone swings within `angle` of its axis, and twists within a range. */
      readonly kind: 'cone';
      /** The swinging axis, joint-local; default: toward the next joint at rest. */
      readonly axis?: readonly [number, number, number];
      /** Half-angle of the cone, radians. */
      readonly angle: number;
      /** Least twist about the bone, radians. */
      readonly twistMin?: number;
      /** Greatest twist about the bone, radians. */
      readonly twistMax?: number;
    };

/**
 * Compiles per-joint limits into kernel records ({@link LIMIT_STRIDE} numbers per chain joint, kind
 * 0 where there is no limit). `joints` are the chain's joint indices, root to tip. Returns the
 * records and whether any joint is limited. Runs at configuration only (allocates, may use trig).
 *
 * @throws {@link TendonError} `ik/invalid-option` for a malformed limit, naming the solver and joint.
 * @internal
 */
export function compileJointLimits(
  skeleton: Skeleton,
  joints: Int32Array,
  limits: readonly (JointLimit | null | undefined)[] | undefined,
  solver: string,
): { records: Float64Array; any: boolean } {
  const m = joints.length;
  const records = new Float64Array(LIMIT_STRIDE * m);
  if (limits === undefined) return { records, any: false };
  if (!Array.isArray(limits) || limits.length !== m) {
    throw new TendonError(
      'ik/invalid-option',
      `${solver}: limits must be an array with one entry (a limit or null) per chain joint (${m})`,
    );
  }
  let rest: Float64Array | null = null;
  let any = false;
  for (let i = 0; i < m; i++) {
    const limit = limits[i];
    if (limit === null || limit === undefined) continue;
    const joint = joints[i];
    const where = `${solver}: the limit of joint "${skeleton.names[joint]}"`;
    const lo = i * LIMIT_STRIDE;
    if (typeof limit !== 'object') throw new TendonError('ik/invalid-option', `${where} is not an object`);
    let axis: readonly number[] | undefined;
    let twistMin: number | undefined;
    let twistMax: number | undefined;
    // Each kind's own keys only: a hinge given a cone's `angle`, or a cone's `twistmin`, was
    // taken as no limit there, without a word.
    if (limit.kind === 'hinge' || limit.kind === 'cone') {
      const known =
        limit.kind === 'hinge'
          ? ['kind', 'axis', 'min', 'max']
          : ['kind', 'axis', 'angle', 'twistMin', 'twistMax'];
      checkKnownKeys(limit, known, where, 'ik/invalid-option');
    }
    if (limit.kind === 'hinge') {
      records[lo + LIMIT_KIND] = LIMIT_HINGE;
      axis = limit.axis;
      if (axis === undefined) throw new TendonError('ik/invalid-option', `${where}: a hinge needs an axis`);
      twistMin = limit.min;
      twistMax = limit.max;
    } else if (limit.kind === 'cone') {
      records[lo + LIMIT_KIND] = LIMIT_CONE_KIND;
      const angle = limit.angle;
      if (typeof angle !== 'number' || !(angle >= 0 && angle <= Math.PI)) {
        throw new TendonError('ik/invalid-option', `${where}: cone angle ${angle} is not in [0, π]`);
      }
      writeCone(records, lo, angle);
      axis = limit.axis;
      if (axis === undefined) {
        rest ??= restModelMatrices(skeleton);
        axis = defaultAxis(skeleton, rest, joints, i, where);
      }
      twistMin = limit.twistMin;
      twistMax = limit.twistMax;
    } else {
      throw new TendonError(
        'ik/invalid-option',
        `${where} has kind ${String((limit as { kind?: unknown }).kind)}; expected 'hinge' or 'cone'`,
      );
    }
    writeAxisAndRange(records, lo, axis, twistMin, twistMax, where);
    for (let c = 0; c < 4; c++) records[lo + LIMIT_REST + c] = skeleton.restRotations[4 * joint + c];
    any = true;
  }
  return { records, any };
}

/**
 * A limit's axis (normalized) and angle range (the half-angles' cos and sin: a hinge's range or a
 * cone's twist) into the record at `lo`; throws, naming `where`, for a bad axis or range.
 */
function writeAxisAndRange(
  records: Float64Array,
  lo: number,
  axis: readonly number[] | undefined,
  twistMin: number | undefined,
  twistMax: number | undefined,
  where: string,
): void {
  if (!Array.isArray(axis) || axis.length !== 3 || !axis.every((v) => Number.isFinite(v))) {
    throw new TendonError('ik/invalid-option', `${where}: the axis must be three finite numbers`);
  }
  const len = Math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  if (!(len > 1e-12)) throw new TendonError('ik/invalid-option', `${where}: the axis has zero length`);
  records[lo + LIMIT_AXIS] = axis[0] / len;
  records[lo + LIMIT_AXIS + 1] = axis[1] / len;
  records[lo + LIMIT_AXIS + 2] = axis[2] / len;
  const min = twistMin ?? -Math.PI;
  const max = twistMax ?? Math.PI;
  if (
    typeof min !== 'number' ||
    typeof max !== 'number' ||
    !(min >= -Math.PI && max <= Math.PI && min <= max)
  ) {
    throw new TendonError(
      'ik/invalid-option',
      `${where}: the angle range [${min}, ${max}] is not within [−π, π] with min ≤ max`,
    );
  }
  writeTwistRange(records, lo, min, max);
}

/**
 * Writes a checked angle range `[min, max]` (`−π ≤ min ≤ max ≤ π`: a hinge's range, a cone's
 * twist) as the record's {@link LIMIT_TWIST} numbers, the half-angles' cosines and sines, for
 * `clampRotation`. The ends of the full circle are written exactly (`(0, ∓1)`), so an
 * unlimited side never clamps by an ulp. Used by the chain solvers' limits and `AimIk`'s.
 * Configuration time only.
 *
 * @internal
 */
export function writeTwistRange(records: Float64Array, lo: number, min: number, max: number): void {
  const [cMin, sMin] = cosSinOfAngle(min / 2);
  const [cMax, sMax] = cosSinOfAngle(max / 2);
  records[lo + LIMIT_TWIST] = min === -Math.PI ? 0 : cMin;
  records[lo + LIMIT_TWIST + 1] = min === -Math.PI ? -1 : sMin;
  records[lo + LIMIT_TWIST + 2] = max === Math.PI ? 0 : cMax;
  records[lo + LIMIT_TWIST + 3] = max === Math.PI ? 1 : sMax;
}

/**
 * Writes a checked cone `angle` (the largest swing, in `[0, π]`) as the record's {@link LIMIT_CONE}
 * numbers, its half's cosine and sine; a cone of π exactly `(0, 1)`, which never clamps. Used by
 * the chain solvers' limits and `AimIk`'s. Configuration time only.
 *
 * @internal
 */
export function writeCone(records: Float64Array, lo: number, angle: number): void {
  const [c, s] = cosSinOfAngle(angle / 2);
  records[lo + LIMIT_CONE] = angle === Math.PI ? 0 : c;
  records[lo + LIMIT_CONE + 1] = angle === Math.PI ? 1 : s;
}

/**
 * The rest direction from chain joint `i` to the next chain joint (or, for the last, its first
 * child with an offset), in the joint's rotation frame (the child's local position times the
 * joint's own scale: the frame the limit's rotation acts in).
 */
function defaultAxis(
  skeleton: Skeleton,
  rest: Float64Array,
  joints: Int32Array,
  i: number,
  where: string,
): number[] {
  const joint = joints[i];
  const inv = new Float64Array(16);
  if (mat4.invert(inv, 0, rest, joint * 16)) {
    const candidates: number[] = [];
    if (i + 1 < joints.length) candidates.push(joints[i + 1]);
    else
      for (let c = joint + 1; c < skeleton.jointCount; c++)
        if (skeleton.parents[c] === joint) candidates.push(c);
    for (const child of candidates) {
      const px = rest[child * 16 + 12];
      const py = rest[child * 16 + 13];
      const pz = rest[child * 16 + 14];
      const s = skeleton.restScales;
      const x = (inv[0] * px + inv[4] * py + inv[8] * pz + inv[12]) * s[3 * joint];
      const y = (inv[1] * px + inv[5] * py + inv[9] * pz + inv[13]) * s[3 * joint + 1];
      const z = (inv[2] * px + inv[6] * py + inv[10] * pz + inv[14]) * s[3 * joint + 2];
      const len = Math.sqrt(x * x + y * y + z * z);
      if (len > 1e-12 * (1 + Math.abs(rest[child * 16 + 12]))) return [x, y, z];
    }
  }
  throw new TendonError(
    'ik/invalid-option',
    `${where}: a cone without an axis points toward the joint's child, but there is none at a distance; give the axis`,
  );
}
