/**
 * Built-in joint-name maps of the skeleton conventions tendon knows.
 *
 * @packageDocumentation
 */
import { checkStringArg } from '../arguments.js';

/** One side's limb joints in a naming convention; a list gives alternatives, first found wins. */
export interface SideNames {
  /** The thigh (hip joint). */
  readonly upLeg: readonly string[];
  /** The shin (knee). */
  readonly leg: readonly string[];
  /** The foot (ankle). */
  readonly foot: readonly string[];
  /** The toe. */
  readonly toe: readonly string[];
  /** A pole (knee target) bone, where the convention has one. */
  readonly pole: readonly string[];
  /** The clavicle (shoulder). */
  readonly clavicle: readonly string[];
  /** The upper arm. */
  readonly arm: readonly string[];
  /** The forearm (elbow). */
  readonly foreArm: readonly string[];
  /** The hand (wrist). */
  readonly hand: readonly string[];
}

/** A naming convention: both sides, and the trunk bottom to top. */
export interface NameMap {
  /** Its name, as {@link Rig.convention} reports it. */
  readonly name: string;
  /** The left side's limbs. */
  readonly left: SideNames;
  /** The right side's limbs. */
  readonly right: SideNames;
  /** The pelvis (the legs' common parent), if the convention names one. */
  readonly pelvis: readonly string[];
  /** Spine joints, bottom first: those present are used. */
  readonly spine: readonly string[];
  /** Neck joints, bottom first. */
  readonly neck: readonly string[];
  /** The head. */
  readonly head: readonly string[];
}

function side(prefix: string, names: Partial<Record<keyof SideNames, readonly string[]>>): SideNames {
  const p = (list: readonly string[] | undefined) => (list ?? []).map((n) => n.replace('{}', prefix));
  return {
    upLeg: p(names.upLeg),
    leg: p(names.leg),
    foot: p(names.foot),
    toe: p(names.toe),
    pole: p(names.pole),
    clavicle: p(names.clavicle),
    arm: p(names.arm),
    foreArm: p(names.foreArm),
    hand: p(names.hand),
  };
}

/** `{}` in a name stands for the side (`Left`, `L`, `l`, ...). */
const ROBOT = {
  upLeg: ['UpperLeg.{}'],
  leg: ['LowerLeg.{}'],
  foot: ['Foot.{}'],
  pole: ['PoleTarget.{}'],
  clavicle: ['Shoulder.{}'],
  arm: ['UpperArm.{}'],
  foreArm: ['LowerArm.{}'],
  hand: ['Palm2.{}', 'Hand.{}'],
};
/** CMU's 2008 conversion and Mixamo (after its `mixamorig:` prefix) share these. */
const CMU = {
  upLeg: ['{}UpLeg'],
  leg: ['{}Leg'],
  foot: ['{}Foot'],
  toe: ['{}ToeBase', '{}Toe_End'],
  clavicle: ['{}Shoulder'],
  arm: ['{}Arm'],
  foreArm: ['{}ForeArm'],
  hand: ['{}Hand'],
};
const CMU_OLD = {
  upLeg: ['{}Hip'],
  leg: ['{}Knee'],
  foot: ['{}Ankle'],
  toe: ['{}Toe'],
  clavicle: ['{}Collar'],
  arm: ['{}Shoulder'],
  foreArm: ['{}Elbow'],
  hand: ['{}Wrist'],
};
const DAZ = {
  upLeg: ['{}Thigh'],
  leg: ['{}Shin'],
  foot: ['{}Foot'],
  toe: ['{}Toe'],
  clavicle: ['{}Collar'],
  arm: ['{}Shldr'],
  foreArm: ['{}ForeArm'],
  hand: ['{}Hand'],
};
const VRM = {
  upLeg: ['{}UpperLeg'],
  leg: ['{}LowerLeg'],
  foot: ['{}Foot'],
  toe: ['{}Toes'],
  clavicle: ['{}Shoulder'],
  arm: ['{}UpperArm'],
  foreArm: ['{}LowerArm'],
  hand: ['{}Hand'],
};

/**
 * The built-in maps: the bundled robot (a Blender IK rig), CMU motion capture in both of its BVH
 * namings, DAZ, Mixamo (names compared without their `mixamorig:` prefix, so CMU's map serves it)
 * and the VRM humanoid's bone names.
 */
export const NAME_MAPS: readonly NameMap[] = [
  {
    name: 'robot',
    left: side('L', ROBOT),
    right: side('R', ROBOT),
    pelvis: ['Body'],
    spine: ['Hips', 'Abdomen', 'Torso'],
    neck: ['Neck'],
    head: ['Head'],
  },
  {
    name: 'cmu',
    left: side('Left', CMU),
    right: side('Right', CMU),
    pelvis: ['Hips'],
    spine: ['LowerBack', 'Spine', 'Spine1', 'Spine2'],
    neck: ['Neck', 'Neck1'],
    head: ['Head'],
  },
  {
    name: 'cmu-old',
    left: side('Left', CMU_OLD),
    right: side('Right', CMU_OLD),
    pelvis: ['Hips'],
    spine: ['lowerback', 'Chest', 'Chest2'],
    neck: ['lowerneck', 'Neck'],
    head: ['Head'],
  },
  {
    name: 'daz',
    left: side('l', DAZ),
    right: side('r', DAZ),
    pelvis: ['hip'],
    spine: ['abdomen', 'chest'],
    neck: ['neck'],
    head: ['head'],
  },
  {
    name: 'vrm',
    left: side('left', VRM),
    right: side('right', VRM),
    pelvis: ['hips'],
    spine: ['spine', 'chest', 'upperChest'],
    neck: ['neck'],
    head: ['head'],
  },
];

/**
 * A joint name without a namespace prefix: `mixamorig:Hips`, `mixamorig1:Hips` → `Hips`; also the
 * prefixes the colon becomes once a loader sanitizes names (three.js's GLTFLoader drops it:
 * `mixamorigHips`; others write `mixamorig_Hips`), and three-vrm's `Normalized_` (which it puts
 * before a node's own name: `Normalized_leftUpperLeg` → `leftUpperLeg`). A name that is only a
 * prefix is kept whole.
 */
export function baseName(name: string): string {
  checkStringArg(name, 'baseName', 'the name');
  const colon = name.lastIndexOf(':');
  const base = colon >= 0 && colon < name.length - 1 ? name.slice(colon + 1) : name;
  const prefix = SANITIZED_PREFIX.exec(base);
  return prefix !== null && prefix[0].length < base.length ? base.slice(prefix[0].length) : base;
}

/** Whether `name` carries a Mixamo namespace prefix, with its colon or without. */
export function mixamoPrefixed(name: string): boolean {
  return /(^|:)mixamorig\d*[:_]?(?=[A-Z])|^mixamorig\d*:/.test(name);
}

/** A Mixamo prefix without its colon (before a capital), or three-vrm's normalized bones' prefix. */
const SANITIZED_PREFIX = /^(?:mixamorig\d*_?(?=[A-Z])|Normalized_)/;
