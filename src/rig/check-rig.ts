/**
 * A rig handed to placement is checked for what placement indexes with it: every joint a real joint
 * of the skeleton (or -1 where a limb may lack one), every list an array. A rig written by hand, or
 * found on another skeleton, is refused here rather than read past the end of a buffer.
 */
import { checkArrayArg, checkObjectArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import type { ArmRig, LegRig, Rig } from './limbs.js';
import { baseName } from './name-maps.js';

function checkJoint(
  value: unknown,
  skeleton: Skeleton,
  who: string,
  what: string,
  optional: boolean,
  names: readonly string[] | undefined,
): void {
  const n = skeleton.jointCount;
  if (
    !(
      Number.isInteger(value) &&
      ((value as number) >= 0 || (optional && value === -1)) &&
      (value as number) < n
    )
  ) {
    throw new TendonError(
      'argument/invalid',
      `${who}: ${what} is ${String(value)}, not a joint index in 0..${n - 1}${optional ? ' (or -1)' : ''}${names !== undefined ? ' (a rig found on another skeleton)' : ''}`,
    );
  }
  const j = value as number;
  // Compared without a namespace prefix: the same skeleton exported as mixamorig: and mixamorig1:,
  // or loaded by three.js (mixamorigHips), is the same rig.
  if (names !== undefined && j >= 0 && !sameJoint(names[j], skeleton.names[j])) {
    throw new TendonError(
      'argument/invalid',
      `${who}: ${what} is joint ${j}, "${skeleton.names[j]}" here but "${String(names[j])}" in the skeleton the rig was found on: a rig of another skeleton (find one on this skeleton with findRig)`,
    );
  }
}

/** Whether two joint names are one joint's: equal, or equal without a namespace prefix. */
function sameJoint(a: unknown, b: string): boolean {
  return a === b || (typeof a === 'string' && baseName(a) === baseName(b));
}

/** The names a rig or leg was found with, if it carries them as an array. */
function namesOf(found: { readonly jointNames?: readonly string[] }): readonly string[] | undefined {
  return Array.isArray(found.jointNames) ? found.jointNames : undefined;
}

/** Checks one leg of a rig against `skeleton`. */
export function checkLegRig(leg: LegRig, skeleton: Skeleton, who: string, what = 'the leg'): void {
  checkObjectArg(leg, who, what);
  const names = namesOf(leg);
  checkJoint(leg.root, skeleton, who, `${what}'s root`, false, names);
  checkJoint(leg.middle, skeleton, who, `${what}'s middle`, false, names);
  checkJoint(leg.end, skeleton, who, `${what}'s end`, leg.shape === 'effector', names);
  checkJoint(leg.foot, skeleton, who, `${what}'s foot`, true, names);
  checkJoint(leg.toe, skeleton, who, `${what}'s toe`, true, names);
  checkJoint(leg.pole, skeleton, who, `${what}'s pole`, true, names);
  if (leg.shape === 'effector') {
    const p = leg.endLocal;
    if (!(Array.isArray(p) && p.length === 3 && p.every((x) => Number.isFinite(x)))) {
      throw new TendonError(
        'argument/invalid',
        `${who}: ${what} is an effector leg without an endLocal of 3 finite numbers`,
      );
    }
  }
}

function checkArmRig(
  arm: ArmRig,
  skeleton: Skeleton,
  who: string,
  what: string,
  names: readonly string[] | undefined,
): void {
  checkObjectArg(arm, who, what);
  checkJoint(arm.clavicle, skeleton, who, `${what}'s clavicle`, true, names);
  checkJoint(arm.root, skeleton, who, `${what}'s root`, false, names);
  checkJoint(arm.middle, skeleton, who, `${what}'s middle`, false, names);
  checkJoint(arm.end, skeleton, who, `${what}'s end`, false, names);
}

/**
 * Checks a {@link Rig} (from {@link findRig} or written by hand) against `skeleton`.
 *
 * @throws {@link TendonError} `argument/invalid` naming the limb and the joint at fault.
 */
export function checkRig(rig: Rig, skeleton: Skeleton, who: string): void {
  checkObjectArg(rig, who, 'the rig');
  checkArrayArg(rig.legs, who, "the rig's legs");
  checkArrayArg(rig.arms, who, "the rig's arms");
  checkArrayArg(rig.spine, who, "the rig's spine");
  checkArrayArg(rig.neck, who, "the rig's neck");
  const names = namesOf(rig);
  for (let i = 0; i < rig.legs.length; i++) {
    const leg = rig.legs[i];
    checkLegRig(leg, skeleton, who, `leg ${i}`);
  }
  for (let i = 0; i < rig.arms.length; i++) {
    const arm = rig.arms[i];
    checkArmRig(arm, skeleton, who, `arm ${i}`, names);
  }
  for (let i = 0; i < rig.spine.length; i++) {
    const j = rig.spine[i];
    checkJoint(j, skeleton, who, `spine joint ${i}`, false, names);
  }
  for (let i = 0; i < rig.neck.length; i++) {
    const j = rig.neck[i];
    checkJoint(j, skeleton, who, `neck joint ${i}`, false, names);
  }
  checkJoint(rig.pelvis, skeleton, who, 'the pelvis', true, names);
  checkJoint(rig.head, skeleton, who, 'the head', true, names);
  const f = rig.forward;
  if (
    f !== undefined &&
    f !== null &&
    !(
      Array.isArray(f) &&
      f.length === 3 &&
      f.every((x) => Number.isFinite(x)) &&
      f[0] * f[0] + f[2] * f[2] > 0
    )
  ) {
    throw new TendonError(
      'argument/invalid',
      `${who}: the rig's forward is ${String(f)}, not 3 finite numbers along the ground (or null)`,
    );
  }
}
