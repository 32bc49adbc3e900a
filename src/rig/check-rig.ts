/**
 * A rig handed to placement is checked for what placement indexes with it: every joint a real joint
 * of the skeleton (or -1 where a limb may lack one), every list an array. A rig written by hand, or
 * found on another skeleton, is refused here rather than read past the end of a buffer.
 */
import { checkArrayArg, checkObjectArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import type { ArmRig, LegRig, Rig } from './limbs.js';

function checkJoint(value: unknown, skeleton: Skeleton, who: string, what: string, optional: boolean): void {
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
      `${who}: ${what} is ${String(value)}, not a joint index in 0..${n - 1}${optional ? ' (or -1)' : ''}`,
    );
  }
}

/** Checks one leg of a rig against `skeleton`. */
export function checkLegRig(leg: LegRig, skeleton: Skeleton, who: string, what = 'the leg'): void {
  checkObjectArg(leg, who, what);
  checkJoint(leg.root, skeleton, who, `${what}'s root`, false);
  checkJoint(leg.middle, skeleton, who, `${what}'s middle`, false);
  checkJoint(leg.end, skeleton, who, `${what}'s end`, leg.shape === 'effector');
  checkJoint(leg.foot, skeleton, who, `${what}'s foot`, true);
  checkJoint(leg.toe, skeleton, who, `${what}'s toe`, true);
  checkJoint(leg.pole, skeleton, who, `${what}'s pole`, true);
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

function checkArmRig(arm: ArmRig, skeleton: Skeleton, who: string, what: string): void {
  checkObjectArg(arm, who, what);
  checkJoint(arm.clavicle, skeleton, who, `${what}'s clavicle`, true);
  checkJoint(arm.root, skeleton, who, `${what}'s root`, false);
  checkJoint(arm.middle, skeleton, who, `${what}'s middle`, false);
  checkJoint(arm.end, skeleton, who, `${what}'s end`, false);
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
  for (let i = 0; i < rig.legs.length; i++) {
    const leg = rig.legs[i];
    checkLegRig(leg, skeleton, who, `leg ${i}`);
  }
  for (let i = 0; i < rig.arms.length; i++) {
    const arm = rig.arms[i];
    checkArmRig(arm, skeleton, who, `arm ${i}`);
  }
  for (let i = 0; i < rig.spine.length; i++) {
    const j = rig.spine[i];
    checkJoint(j, skeleton, who, `spine joint ${i}`, false);
  }
  for (let i = 0; i < rig.neck.length; i++) {
    const j = rig.neck[i];
    checkJoint(j, skeleton, who, `neck joint ${i}`, false);
  }
  checkJoint(rig.pelvis, skeleton, who, 'the pelvis', true);
  checkJoint(rig.head, skeleton, who, 'the head', true);
}
