/**
 * The options and validated set-up shared by the chain solvers (FABRIK, CCD): configuration time
 * only, never run per solve.
 *
 * @packageDocumentation
 */
import { TendonError } from '../errors.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import { checkChain, checkOptions, type JointRef, resolveJoint } from './chain.js';
import { compileJointLimits, type JointLimit } from './joint-limits.js';

/** Options of a chain solver (`FabrikIk`, `CcdIk`). */
export interface ChainIkOptions {
  /**
   * The chain, root to tip, by index or name: each joint a strict descendant of the one before
   * (twist bones and other joints may sit between; the solver never rotates them). The last joint is
   * the end effector, placed on the target; its own rotation is left as it is. At least two joints.
   */
  readonly joints: readonly JointRef[];
  /** Distance from the end effector to the target that counts as reached, model units. Default `1e-4`. */
  readonly tolerance?: number;
  /** Cap on iterations (FABRIK: backward/forward passes, default 64; CCD: sweeps, default 64), an integer ≥ 0. */
  readonly maxIterations?: number;
  /** One limit (or `null`) per entry of `joints`, relative to each joint's rest rotation. Default none. */
  readonly limits?: readonly (JointLimit | null)[];
}

/**
 * A chain's validated set-up, shared by `FabrikIk` and `CcdIk`.
 *
 * @internal
 */
export interface ChainSetup {
  /** Chain joint indices, root to tip. */
  readonly joints: Int32Array;
  /** Segment `i`'s in-between joints are `between[betweenStart[i] … betweenStart[i + 1] − 1]`, top-down. */
  readonly betweenStart: Int32Array;
  /** Joints between consecutive chain joints, parent before child. */
  readonly between: Int32Array;
  /** The joints from the root to the end, chain joints and those between them, parent first. */
  readonly path: Int32Array;
  /** Where chain joint `i` is in {@link ChainSetup.path}. */
  readonly pathStart: Int32Array;
  /** Compiled limit records, one per chain joint. */
  readonly limits: Float64Array;
  /** Whether any joint has a limit. */
  readonly limited: boolean;
  readonly tolerance: number;
  readonly maxIterations: number;
}

/**
 * Validates a solver's options and resolves its chain (configuration time only).
 *
 * @throws {@link TendonError} `ik/invalid-option`, `ik/invalid-joint` or `ik/not-a-chain`.
 * @internal
 */
export function setupChain(
  skeleton: Skeleton,
  options: ChainIkOptions,
  solver: string,
  defaultIterations: number,
): ChainSetup {
  checkOptions(options, solver, ['joints', 'tolerance', 'maxIterations', 'limits']);
  const refs = options.joints;
  if (!Array.isArray(refs)) {
    throw new TendonError(
      'ik/invalid-option',
      `${solver}: joints must be an array of joint names or indices`,
    );
  }
  if (refs.length < 2) {
    throw new TendonError(
      'ik/not-a-chain',
      `${solver}: a chain needs at least two joints (a root and an end effector), got ${refs.length}`,
    );
  }
  const list = refs.map((ref, i) =>
    resolveJoint(skeleton, ref, solver, i === 0 ? 'root' : i === refs.length - 1 ? 'end' : `chain[${i}]`),
  );
  checkChain(skeleton, list, solver);
  const tolerance = options.tolerance ?? 1e-4;
  if (typeof tolerance !== 'number' || !(tolerance >= 0) || !Number.isFinite(tolerance)) {
    throw new TendonError(
      'ik/invalid-option',
      `${solver}: tolerance ${tolerance} is not a finite number ≥ 0`,
    );
  }
  const maxIterations = options.maxIterations ?? defaultIterations;
  if (!Number.isInteger(maxIterations) || maxIterations < 0) {
    throw new TendonError(
      'ik/invalid-option',
      `${solver}: maxIterations ${maxIterations} is not an integer ≥ 0`,
    );
  }
  const joints = Int32Array.from(list);
  const betweenStart = new Int32Array(joints.length);
  const between: number[] = [];
  for (let i = 0; i + 1 < joints.length; i++) {
    betweenStart[i] = between.length;
    between.push(...skeleton.jointsBetween(joints[i], joints[i + 1]));
  }
  betweenStart[joints.length - 1] = between.length;
  const path: number[] = [];
  const pathStart = new Int32Array(joints.length);
  for (let i = 0; i < joints.length; i++) {
    pathStart[i] = path.length;
    path.push(joints[i]);
    if (i + 1 < joints.length)
      for (let b = betweenStart[i]; b < betweenStart[i + 1]; b++) path.push(between[b]);
  }
  const { records, any } = compileJointLimits(skeleton, joints, options.limits, solver);
  return {
    joints,
    betweenStart,
    between: Int32Array.from(between),
    path: Int32Array.from(path),
    pathStart,
    limits: records,
    limited: any,
    tolerance,
    maxIterations,
  };
}
