/**
 * Two-bone IK over many limbs in one call: the legs of a crowd, whose characters share one set of
 * typed arrays.
 *
 * Each leg is solved by {@link twoBoneSolve}'s own two paths, on the shared buffers: the fused leg
 * ({@link twoBoneHingeLeg}), or where it declines the general path ({@link twoBoneSolveGeneral}),
 * as `twoBoneSolve` dispatches them, so a leg's answer is the per-call solver's to the bit (the
 * same arithmetic in the same order: nothing is re-derived).
 * What the batch pays once per call instead of once per leg is everything around the kernel: the
 * object, the argument checks, the status object. The per-leg numbers the per-call solver checks by
 * throwing are checked here by flagging that leg {@link TWO_BONE_STATUS}`.invalid` and skipping it.
 *
 * @packageDocumentation
 */

import { localUsable, modelUsable } from './pose-numbers.js';
import { TWO_BONE, TWO_BONE_MEMORY_LENGTH, TWO_BONE_RESULT, twoBoneSolveGeneral } from './two-bone.js';
import { twoBoneHingeLeg } from './two-bone-hinge-leg.js';

/** Layout of the `legs` array of {@link twoBoneSolveBatch}: four joint indices per leg. */
export const TWO_BONE_LEG = {
  /** The upper joint (hip, shoulder). */
  root: 0,
  /** The middle joint (knee, elbow), below the root. */
  middle: 1,
  /** The end joint (ankle, wrist), below the middle one; `-1` when the end is `endLocal`. */
  end: 2,
  /** One past the last joint whose model matrix is recomputed: the root's subtree end, or less. */
  subtreeEnd: 3,
  /** Numbers per leg. */
  length: 4,
} as const;

/** Bits of the per-leg `status` bytes of {@link twoBoneSolveBatch}. */
export const TWO_BONE_STATUS = {
  /** The end is within the leg's tolerance of its target. */
  reached: 1,
  /** The target was out of reach (too far or too close). */
  outOfReach: 2,
  /** Softening, the bend range or the weight changed the answer. */
  clamped: 4,
  /** The bend side came from the hinge or memory (straight limb, pole on the line, target at the root). */
  degenerate: 8,
  /**
   * A number of the leg was not finite (its target, pole, end rotation, weight or softness; the
   * local transforms of its joints; the model matrices the solve reads), a rotation of its joints
   * was zero, or its end rotation was not a rotation or had no end joint: nothing of the leg's pose
   * was written, its error is NaN. Exactly where `TwoBoneIk.solve` would throw. (Geometry too large
   * for doubles, every number finite, is reported `degenerate` with nothing written, as
   * `TwoBoneIk` reports it.)
   */
  invalid: 16,
} as const;

// Scratch for one leg (kernels never call back out, so one set serves every call).
const settingsLeg = new Float64Array(TWO_BONE.length);
const memoryLeg = new Float64Array(TWO_BONE_MEMORY_LENGTH);
const resultLeg = new Float64Array(TWO_BONE_RESULT.length);

const S = TWO_BONE;
const R = TWO_BONE_RESULT;
const ST = TWO_BONE_STATUS;

/**
 * Solves legs `first … first + count − 1`, each as `TwoBoneIk.solve` would solve it: the kernel
 * {@link twoBoneSolve}'s paths, and a second pass from the corrected pose when the first reports nothing
 * (no flag) yet misses the tolerance, as the solver object does for bones with non-uniform scale.
 *
 * The buffers hold any number of skeletons side by side (a crowd: character `c`'s joint `j` at
 * index `c·J + j`, `parents` offset to match, roots `−1`), with the model matrices up to date
 * (forward kinematics). Leg `i` reads its joints from `legs[4i …]` ({@link TWO_BONE_LEG}), its
 * settings from `settings[TWO_BONE.length · i …]` (the {@link TWO_BONE} layout: target, pole, options) and its
 * bend memory from `memory[4i …]` ({@link TWO_BONE_MEMORY_LENGTH}); it writes the local rotations
 * of its root and middle joints (and of its end when an end rotation is matched), the model
 * matrices of joints `root … subtreeEnd − 1`, its memory, `errors[i]` (the end's distance to the
 * target, model units) and `status[i]` ({@link TWO_BONE_STATUS} bits).
 *
 * Legs are solved in order, so a leg may read what an earlier one wrote (a pelvis moved before
 * the legs below it); two legs must not share joints. A leg with a non-finite input is flagged
 * `invalid` and left untouched; the others go on. Never throws, allocates nothing.
 *
 * @returns the number of legs flagged `invalid`.
 */
export function twoBoneSolveBatch(
  model: Float64Array,
  parents: Int32Array,
  translations: Float64Array,
  rotations: Float64Array,
  scales: Float64Array,
  legs: Int32Array,
  settings: Float64Array,
  memory: Float64Array,
  errors: Float64Array,
  status: Uint8Array,
  first: number,
  count: number,
): number {
  const s = settingsLeg;
  let invalid = 0;
  for (let i = first; i < first + count; i++) {
    const so = i * S.length;
    for (let k = 0; k < S.length; k++) s[k] = settings[so + k];
    if (
      twoBoneSolveLeg(model, parents, translations, rotations, scales, legs, s, memory, errors, status, i)
    ) {
      invalid++;
    }
  }
  return invalid;
}

/**
 * Leg `i` of {@link twoBoneSolveBatch}, its settings in an array of their own (`settings[0 …]`,
 * the {@link TWO_BONE} layout), the rest as there: for a caller that keeps one settings array per
 * leg (and so copies nothing). Writes `errors[i]`, `status[i]`, `memory[4i …]`.
 *
 * @returns whether the leg was flagged `invalid`.
 */
export function twoBoneSolveLeg(
  model: Float64Array,
  parents: Int32Array,
  translations: Float64Array,
  rotations: Float64Array,
  scales: Float64Array,
  legs: Int32Array,
  settings: Float64Array,
  memory: Float64Array,
  errors: Float64Array,
  status: Uint8Array,
  i: number,
): boolean {
  const s = settings;
  const res = resultLeg;
  const mem = memoryLeg;
  const lo = i * TWO_BONE_LEG.length;
  const root = legs[lo];
  const mid = legs[lo + 1];
  const end = legs[lo + 2];
  const subtreeEnd = legs[lo + 3];
  // The fused kernel reads the target, the pole, the weight and the rotations of root and middle
  // before it writes, and declines a leg where one is not finite: the numbers it does not read are
  // checked first, every number only for a leg it declines (or whose first check fails).
  // A weight or a softness out of range, or not a number (the settings are the caller's to edit;
  // the solver object's setters refuse them), was solved without a word: a weight of −0.5 turned
  // the robot's leg away from its target (0.6 units off), a softness of 1 left it 0.43 short, and
  // 2 and −0.1 were taken as 1 and 0. (So the checks below need not read them.)
  const weight = s[S.weight];
  const softness = s[S.softness];
  if (!(weight >= 0 && weight <= 1 && softness >= 0 && softness < 1)) return flagInvalid(errors, status, i);
  const unseen = legUnseenFinite(translations, rotations, scales, root, mid, end);
  if (!unseen && !legInputsUsable(s, model, parents, translations, rotations, scales, root, mid, end)) {
    return flagInvalid(errors, status, i);
  }
  if (!twoBonePathUsable(parents, translations, rotations, scales, root, mid, end)) {
    return flagInvalid(errors, status, i);
  }
  // twoBoneSolve's two paths, called here: the fused leg, which reads no bend memory, and only
  // where it declines, the general path, given the leg's memory (copied back out as the solver
  // object keeps it, set even where the kernel then finds a zero rotation). A second pass where
  // TwoBoneIk.solve makes one: a reachable target missed, no flag (the limb's bones carry
  // non-uniform scale, which the closed form does not model).
  for (let pass = 0; pass < 2; pass++) {
    if (
      !twoBoneHingeLeg(model, parents, translations, rotations, scales, root, mid, end, subtreeEnd, s, res)
    ) {
      if (
        pass === 0 &&
        unseen &&
        !legInputsUsable(s, model, parents, translations, rotations, scales, root, mid, end)
      ) {
        return flagInvalid(errors, status, i);
      }
      const mo = i * TWO_BONE_MEMORY_LENGTH;
      for (let k = 0; k < TWO_BONE_MEMORY_LENGTH; k++) mem[k] = memory[mo + k];
      twoBoneSolveGeneral(
        model,
        parents,
        translations,
        rotations,
        scales,
        root,
        mid,
        end,
        subtreeEnd,
        s,
        mem,
        res,
      );
      for (let k = 0; k < TWO_BONE_MEMORY_LENGTH; k++) memory[mo + k] = mem[k];
    }
    if (
      res[R.reached] !== 0 ||
      res[R.outOfReach] !== 0 ||
      res[R.clamped] !== 0 ||
      res[R.degenerate] !== 0 ||
      res[R.invalid] !== 0
    ) {
      break;
    }
  }
  if (res[R.invalid] > 0 && !legPoseUsable(model, parents, translations, rotations, scales, root, mid, end)) {
    // Rare: the kernel met a NaN, an infinity or a zero rotation in the pose and wrote nothing.
    return flagInvalid(errors, status, i);
  }
  errors[i] = res[R.error];
  // As TwoBoneIk reports it: a kernel that wrote nothing on a finite pose (geometry too large
  // for doubles) reports the leg degenerate.
  status[i] =
    (res[R.reached] > 0 ? ST.reached : 0) |
    (res[R.outOfReach] > 0 ? ST.outOfReach : 0) |
    (res[R.clamped] > 0 ? ST.clamped : 0) |
    (res[R.degenerate] > 0 || res[R.invalid] > 0 ? ST.degenerate : 0);
  return false;
}

/**
 * Whether the joints a solve recomputes through but does not read itself are usable: any joints
 * between root and middle and between middle and end (twist bones), and the end: their local
 * transforms finite and their rotations of a length that normalizes. (Recomputed from a NaN
 * after the rotations were written, a twist bone's matrix made the middle's NaN: the leg was
 * written, then refused.) Walks the parents; allocates nothing.
 */
export function twoBonePathUsable(
  parents: Int32Array,
  translations: Float64Array,
  rotations: Float64Array,
  scales: Float64Array,
  root: number,
  mid: number,
  end: number,
): boolean {
  for (let j = parents[mid]; j !== root && j >= 0; j = parents[j]) {
    if (!localUsable(translations, rotations, scales, j)) return false;
  }
  if (end < 0) return true;
  if (!localUsable(translations, rotations, scales, end)) return false;
  for (let j = parents[end]; j !== mid && j >= 0; j = parents[j]) {
    if (!localUsable(translations, rotations, scales, j)) return false;
  }
  return true;
}

/** Leg `i` flagged `invalid`, its error NaN, nothing of its pose or memory written. */
function flagInvalid(errors: Float64Array, status: Uint8Array, i: number): true {
  errors[i] = Number.NaN;
  status[i] = ST.invalid;
  return true;
}

/**
 * Whether the leg passes the checks `TwoBoneIk.solve` makes before it solves (where it does not,
 * the solver object throws): the target, pole and end rotation in its settings `s` (the weight
 * and softness are checked first, twoBoneSolveLeg), and the local transforms of root, middle and end (which the kernel does not read itself,
 * but recomputes model matrices from), usable; at weight 0, the pose too (the kernel then reads
 * no more than the end's position). Sums, not a branch per number: a NaN or an infinity anywhere
 * makes a sum NaN or infinite (and an overflow of huge finite numbers sends the leg to the exact
 * check).
 */
function legInputsUsable(
  s: Float64Array,
  model: Float64Array,
  parents: Int32Array,
  translations: Float64Array,
  rotations: Float64Array,
  scales: Float64Array,
  root: number,
  mid: number,
  end: number,
): boolean {
  let sum = s[S.target] + s[S.target + 1] + s[S.target + 2];
  if (s[S.hasPole] > 0) sum += s[S.pole] + s[S.pole + 1] + s[S.pole + 2];
  if (s[S.hasEndRotation] > 0) {
    if (end < 0) return false;
    const x = s[S.endRotation];
    const y = s[S.endRotation + 1];
    const z = s[S.endRotation + 2];
    const w = s[S.endRotation + 3];
    // TwoBoneIk refuses a quaternion of length ~0 (and a NaN fails the comparison).
    if (!(x * x + y * y + z * z + w * w > 1e-12)) return false;
    sum += x + y + z + w;
  }
  let q = 4 * root;
  sum += rotations[q] + rotations[q + 1] + (rotations[q + 2] + rotations[q + 3]);
  q = 4 * mid;
  sum += rotations[q] + rotations[q + 1] + (rotations[q + 2] + rotations[q + 3]);
  if (
    !(sum - sum === 0 && legUnseenFinite(translations, rotations, scales, root, mid, end)) &&
    !legInputsExact(s, model, parents, translations, rotations, scales, root, mid, end)
  ) {
    return false;
  }
  return !(
    s[S.weight] === 0 && !legPoseUsable(model, parents, translations, rotations, scales, root, mid, end)
  );
}

/**
 * The part of {@link legInputsUsable} that the fused kernel does not find for itself (the softness,
 * which it does not check either, is checked first): the local translations and scales of root,
 * middle and end and the end's rotation (read by the forward kinematics after the rotations are
 * written). Whether their sum is finite: `false` for a NaN or an infinity, or for finite numbers
 * whose sum overflowed (which {@link legInputsExact} then tells apart).
 */
function legUnseenFinite(
  translations: Float64Array,
  rotations: Float64Array,
  scales: Float64Array,
  root: number,
  mid: number,
  end: number,
): boolean {
  // Written out (a double returned from a call V8 does not inline is boxed), in sums side by
  // side rather than one chain of additions (each waiting on the last).
  let o = 3 * root;
  let t = translations[o] + translations[o + 1] + translations[o + 2];
  let c = scales[o] + scales[o + 1] + scales[o + 2];
  o = 3 * mid;
  t += translations[o] + translations[o + 1] + translations[o + 2];
  c += scales[o] + scales[o + 1] + scales[o + 2];
  let sum = 0;
  if (end >= 0) {
    o = 3 * end;
    const q = 4 * end;
    t += translations[o] + translations[o + 1] + translations[o + 2];
    c += scales[o] + scales[o + 1] + scales[o + 2];
    sum += rotations[q] + rotations[q + 1] + (rotations[q + 2] + rotations[q + 3]);
  }
  sum += t + c;
  return sum - sum === 0;
}

/**
 * Rare: a NaN or an infinity among the numbers {@link legInputsUsable} sums, or finite numbers so
 * large that their sum overflowed (which the solver object lets through): number by number.
 */
function legInputsExact(
  s: Float64Array,
  model: Float64Array,
  parents: Int32Array,
  translations: Float64Array,
  rotations: Float64Array,
  scales: Float64Array,
  root: number,
  mid: number,
  end: number,
): boolean {
  for (let k = S.target; k < S.target + 3; k++) if (!Number.isFinite(s[k])) return false;
  if (s[S.hasPole] > 0) for (let k = S.pole; k < S.pole + 3; k++) if (!Number.isFinite(s[k])) return false;
  if (s[S.hasEndRotation] > 0) {
    for (let k = S.endRotation; k < S.endRotation + 4; k++) if (!Number.isFinite(s[k])) return false;
  }
  return legPoseUsable(model, parents, translations, rotations, scales, root, mid, end);
}

/**
 * Rare path, number by number, as `TwoBoneIk` decides whether to throw `pose/not-finite`: the local
 * transforms of root, middle and end finite and their rotations of a length that normalizes, and
 * the top three rows of the model matrices of the root's parent, root, middle and end finite.
 */
function legPoseUsable(
  model: Float64Array,
  parents: Int32Array,
  translations: Float64Array,
  rotations: Float64Array,
  scales: Float64Array,
  root: number,
  mid: number,
  end: number,
): boolean {
  for (let k = 0; k < 4; k++) {
    const j = k === 0 ? parents[root] : k === 1 ? root : k === 2 ? mid : end;
    if (j < 0) continue;
    if (!modelUsable(model, j)) return false;
    if (k > 0 && !localUsable(translations, rotations, scales, j)) return false;
  }
  return true;
}
