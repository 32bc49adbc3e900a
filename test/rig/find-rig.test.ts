/**
 * Rig detection on every skeleton in ../shared/assets (the table says how each was found), the two
 * shapes of leg, synthetic Mixamo and VRM skeletons, and overrides with their errors.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isTendonError } from '../../src/errors.js';
import { importBvh } from '../../src/io/bvh.js';
import { importGltf } from '../../src/io/gltf.js';
import {
  createModelBuffer,
  forwardKinematics,
  restModelMatrices,
} from '../../src/pose/forward-kinematics.js';
import { jointModelPosition, printJointTree, translateJointInModel } from '../../src/pose/joint-helpers.js';
import { Pose } from '../../src/pose/pose.js';
import { describeRig, findRig } from '../../src/rig/find-rig.js';
import { baseName } from '../../src/rig/name-maps.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';
import { assetsDir, readAsset } from '../helpers/assets.js';
import { skeletonFromPoints } from '../helpers/skeleton-from-points.js';

async function skeletonOf(file: string): Promise<Skeleton> {
  if (file.endsWith('.bvh')) return importBvh(readFileSync(`${assetsDir}bvh/${file}`, 'utf8')).skeleton;
  return (await importGltf(readAsset('gltf', file))).skeletons[0].skeleton;
}

/** What each asset's rig is: convention (null: by shape), legs (label: root → middle → end|foot), arms. */
const EXPECTED: Record<
  string,
  { convention: string | null; legs: string[]; arms: number; head: string | null }
> = {
  'RobotExpressive.glb': {
    convention: 'robot',
    legs: [
      'left: UpperLeg.L → LowerLeg.L → Foot.L (effector)',
      'right: UpperLeg.R → LowerLeg.R → Foot.R (effector)',
    ],
    arms: 2,
    head: 'Head',
  },
  'Fox.glb': {
    convention: null,
    legs: [
      'hind-left: b_LeftLeg01_015 → b_LeftLeg02_016 → b_LeftFoot01_017 (chain)',
      'hind-right: b_RightLeg01_019 → b_RightLeg02_020 → b_RightFoot01_021 (chain)',
      'front-left: b_LeftUpperArm_09 → b_LeftForeArm_010 → b_LeftHand_011 (chain)',
      'front-right: b_RightUpperArm_06 → b_RightForeArm_07 → b_RightHand_08 (chain)',
    ],
    arms: 0,
    head: 'b_Head_05',
  },
  'RiggedFigure.glb': {
    convention: null,
    legs: [
      'left: leg_joint_L_1 → leg_joint_L_2 → leg_joint_L_3 (chain)',
      'right: leg_joint_R_1 → leg_joint_R_2 → leg_joint_R_3 (chain)',
    ],
    arms: 2,
    head: 'neck_joint_2',
  },
  'RiggedSimple.glb': { convention: null, legs: [], arms: 0, head: null },
  'SimpleSkin.gltf': { convention: null, legs: [], arms: 0, head: null },
  'cmu_01_03_climb_ladder_hang.bvh': {
    convention: 'cmu',
    legs: [
      'left: LeftUpLeg → LeftLeg → LeftFoot (chain)',
      'right: RightUpLeg → RightLeg → RightFoot (chain)',
    ],
    arms: 2,
    head: 'Head',
  },
  'cmu_02_01_walk.bvh': {
    convention: 'cmu',
    legs: [
      'left: LeftUpLeg → LeftLeg → LeftFoot (chain)',
      'right: RightUpLeg → RightLeg → RightFoot (chain)',
    ],
    arms: 2,
    head: 'Head',
  },
  'cmu_131_01_start_walk_stop.bvh': {
    convention: 'cmu-old',
    legs: [
      'left: LeftHip → LeftKnee → LeftAnkle (chain)',
      'right: RightHip → RightKnee → RightAnkle (chain)',
    ],
    arms: 2,
    head: 'Head',
  },
  'cmu_run_jog_daz_filtered.bvh': {
    convention: 'daz',
    legs: ['left: lThigh → lShin → lFoot (chain)', 'right: rThigh → rShin → rFoot (chain)'],
    arms: 2,
    head: 'head',
  },
  'pirouette.bvh': {
    convention: 'daz',
    legs: ['left: lThigh → lShin → lFoot (chain)', 'right: rThigh → rShin → rFoot (chain)'],
    arms: 2,
    head: 'head',
  },
};

function summaryOf(skeleton: Skeleton, rig: ReturnType<typeof findRig>): string[] {
  const n = (j: number) => skeleton.names[j];
  return rig.legs.map(
    (l) => `${l.label}: ${n(l.root)} → ${n(l.middle)} → ${n(l.end >= 0 ? l.end : l.foot)} (${l.shape})`,
  );
}

describe('findRig on every skeleton in shared/assets', () => {
  it.each(Object.keys(EXPECTED))(
    '%s: found as expected, by name where a map fits, by shape otherwise',
    async (file) => {
      const skeleton = await skeletonOf(file);
      const expected = EXPECTED[file];
      const rig = findRig(skeleton);
      expect(rig.convention).toBe(expected.convention);
      expect(summaryOf(skeleton, rig)).toEqual(expected.legs);
      expect(rig.arms.length).toBe(expected.arms);
      expect(rig.head >= 0 ? skeleton.names[rig.head] : null).toBe(expected.head);
      for (const leg of rig.legs) expect(leg.source).toBe(expected.convention === null ? 'shape' : 'name');
      expect(describeRig(rig, skeleton)).toContain(expected.convention ?? 'found by shape');
    },
  );

  it.each(Object.keys(EXPECTED))(
    '%s: shape alone finds the same legs and head as the name map',
    async (file) => {
      const skeleton = await skeletonOf(file);
      const byName = findRig(skeleton);
      const byShape = findRig(skeleton, { convention: 'shape' });
      expect(summaryOf(skeleton, byShape)).toEqual(summaryOf(skeleton, byName));
      expect(byShape.head).toBe(byName.head);
      expect(byShape.pelvis).toBe(byName.pelvis);
      expect(byShape.arms.map((a) => [a.root, a.middle, a.end])).toEqual(
        byName.arms.map((a) => [a.root, a.middle, a.end]),
      );
    },
  );
});

describe('the two shapes of leg', () => {
  it("the robot's legs end at a point of the shin where its separate foot bone sits, with its pole", async () => {
    const skeleton = await skeletonOf('RobotExpressive.glb');
    const rig = findRig(skeleton);
    expect(skeleton.names[rig.pelvis]).toBe('Body');
    const rest = restModelMatrices(skeleton);
    for (const leg of rig.legs) {
      expect(leg.shape).toBe('effector');
      expect(skeleton.names[leg.pole]).toMatch(/^PoleTarget\./);
      const m = 16 * leg.middle;
      const p = leg.endLocal as readonly number[];
      const tip = [0, 1, 2].map(
        (r) => rest[m + r] * p[0] + rest[m + 4 + r] * p[1] + rest[m + 8 + r] * p[2] + rest[m + 12 + r],
      );
      const foot = rest.subarray(16 * leg.foot + 12, 16 * leg.foot + 15);
      expect(Math.hypot(tip[0] - foot[0], tip[1] - foot[1], tip[2] - foot[2])).toBeLessThan(1e-6);
    }
  });
});

describe('names of other conventions', () => {
  const biped = (names: string[]) =>
    Skeleton.create({
      names,
      parents: [-1, 0, 1, 2, 3, 0, 5, 6, 7, 0, 9, 10],
      restTranslations: [
        0, 1, 0, 0.1, -0.05, 0, 0, -0.42, 0.02, 0, -0.42, -0.02, 0, -0.06, 0.12, -0.1, -0.05, 0, 0, -0.42,
        0.02, 0, -0.42, -0.02, 0, -0.06, 0.12, 0, 0.3, 0, 0, 0.3, 0, 0, 0.1, 0,
      ],
    });

  it('Mixamo, prefix and all', () => {
    const names = [
      'Hips',
      'LeftUpLeg',
      'LeftLeg',
      'LeftFoot',
      'LeftToeBase',
      'RightUpLeg',
      'RightLeg',
      'RightFoot',
      'RightToeBase',
      'Spine',
      'Neck',
      'Head',
    ];
    const skeleton = biped(names.map((n) => `mixamorig:${n}`));
    const rig = findRig(skeleton);
    expect(rig.convention).toBe('mixamo');
    // The convention it reports is one it takes.
    expect(findRig(skeleton, { convention: 'mixamo' }).legs).toEqual(rig.legs);
    expect(rig.legs.map((l) => skeleton.names[l.end])).toEqual(['mixamorig:LeftFoot', 'mixamorig:RightFoot']);
    expect(skeleton.names[rig.head]).toBe('mixamorig:Head');
  });

  it('left and right from a lone L or R in a name, over the rest pose (a character facing −Z)', () => {
    // The first leg stands at +X (left for a character facing +Z) but its names say right.
    for (const [r, l] of [
      ['Thigh_R', 'Thigh_L'],
      ['UpperLeg.R', 'UpperLeg.L'],
      ['R_Thigh', 'L_Thigh'],
      ['thigh_r', 'thigh_l'],
    ]) {
      const names = [
        'root',
        r,
        `${r}1`,
        `${r}2`,
        `${r}3`,
        l,
        `${l}1`,
        `${l}2`,
        `${l}3`,
        'Spine',
        'Neck',
        'Head',
      ];
      const skeleton = biped(names);
      const rig = findRig(skeleton, { convention: 'shape' });
      const sides = Object.fromEntries(rig.legs.map((leg) => [skeleton.names[leg.root], leg.side]));
      expect(sides, r).toEqual({ [r]: 'right', [l]: 'left' });
    }
  });

  it('VRM humanoid bone names', () => {
    const names = [
      'hips',
      'leftUpperLeg',
      'leftLowerLeg',
      'leftFoot',
      'leftToes',
      'rightUpperLeg',
      'rightLowerLeg',
      'rightFoot',
      'rightToes',
      'spine',
      'neck',
      'head',
    ];
    const skeleton = biped(names);
    const rig = findRig(skeleton);
    expect(rig.convention).toBe('vrm');
    expect(rig.legs.map((l) => skeleton.names[l.toe])).toEqual(['leftToes', 'rightToes']);
  });
});

describe("other tools' skeletons", () => {
  /**
   * A 1.7 m biped facing `facing` (+1: +Z, −1: −Z): hips, spine, neck, head, and per side thigh →
   * shin → foot → toe, named by `name(part, side)`; `twist` adds a twist bone hanging off each thigh
   * and shin (Unreal's and Character Creator's layout) or one inside the thigh (thigh → twist →
   * shin). Identity rest rotations.
   */
  function biped(
    name: (part: string, side: 'l' | 'r' | '') => string,
    { facing = 1, twist = 'none' as 'none' | 'leaves' | 'chain' } = {},
  ): Skeleton {
    const joints: { name: string; parent: number; at: number[] }[] = [];
    const add = (n: string, parent: number, at: number[]) => {
      joints.push({ name: n, parent, at: [at[0], at[1], at[2] * facing] });
      return joints.length - 1;
    };
    const hips = add(name('hips', ''), -1, [0, 1, 0]);
    const spine = add(name('spine', ''), hips, [0, 1.2, 0]);
    const neck = add(name('neck', ''), spine, [0, 1.5, 0]);
    add(name('head', ''), neck, [0, 1.6, 0.02]);
    for (const side of ['l', 'r'] as const) {
      const x = side === 'l' ? 0.09 : -0.09;
      const thigh = add(name('thigh', side), hips, [x, 0.93, 0]);
      let above = thigh;
      if (twist === 'chain') above = add(name('thighTwist', side), thigh, [x, 0.72, 0.01]);
      if (twist === 'leaves') add(name('thighTwist', side), thigh, [x, 0.75, 0.01]);
      const shin = add(name('shin', side), above, [x, 0.5, 0.03]);
      if (twist === 'leaves') add(name('shinTwist', side), shin, [x, 0.3, 0.02]);
      const foot = add(name('foot', side), shin, [x, 0.08, 0]);
      add(name('toe', side), foot, [x, 0.02, 0.14]);
    }
    return skeletonFromPoints(joints);
  }
  const UE: Record<string, string> = {
    hips: 'pelvis',
    spine: 'spine_01',
    neck: 'neck_01',
    head: 'head',
    thigh: 'thigh',
    thighTwist: 'thigh_twist_01',
    shin: 'calf',
    shinTwist: 'calf_twist_01',
    foot: 'foot',
    toe: 'ball',
  };
  const ue = (part: string, side: string) => (side === '' ? UE[part] : `${UE[part]}_${side}`);
  const legsOf = (skeleton: Skeleton, rig: ReturnType<typeof findRig>) =>
    rig.legs.map((l) => [l.root, l.middle, l.end, l.toe].map((j) => skeleton.names[j]).join(' → '));

  // Until 27 November a chain stopped at the first joint with more than one child: a twist bone
  // beside the shin ended it at the thigh, and no legs (and no pelvis, arms or head) were found.
  it('finds the legs of an Unreal-like skeleton by shape past the twist bones hanging off them', () => {
    const skeleton = biped(ue, { twist: 'leaves' });
    const rig = findRig(skeleton);
    expect(rig.convention).toBeNull();
    expect(legsOf(skeleton, rig)).toEqual([
      'thigh_l → calf_l → foot_l → ball_l',
      'thigh_r → calf_r → foot_r → ball_r',
    ]);
    expect(skeleton.names[rig.pelvis]).toBe('pelvis');
    expect(skeleton.names[rig.head]).toBe('head');
  });

  // And a twist bone inside the thigh was read as the thigh's end: the hip left out.
  it('passes over a twist bone inside a leg found by shape', () => {
    const skeleton = biped(ue, { twist: 'chain' });
    expect(legsOf(skeleton, findRig(skeleton))).toEqual([
      'thigh_l → calf_l → foot_l → ball_l',
      'thigh_r → calf_r → foot_r → ball_r',
    ]);
  });

  // Loaders that cannot keep the colon write Mixamo's prefix without it (three.js: mixamorigHips).
  it.each(['mixamorig:', 'mixamorig1:', 'mixamorig_', 'mixamorig'])(
    'reads Mixamo names behind %s by name',
    (prefix) => {
      const MIXAMO: Record<string, string> = {
        hips: 'Hips',
        spine: 'Spine',
        neck: 'Neck',
        head: 'Head',
        thigh: 'UpLeg',
        shin: 'Leg',
        foot: 'Foot',
        toe: 'ToeBase',
      };
      const skeleton = biped((part, side) =>
        side === ''
          ? `${prefix}${MIXAMO[part]}`
          : `${prefix}${side === 'l' ? 'Left' : 'Right'}${MIXAMO[part]}`,
      );
      const rig = findRig(skeleton);
      expect(rig.convention).toBe('mixamo');
      expect(rig.legs.map((l) => l.source)).toEqual(['name', 'name']);
      expect(skeleton.names[rig.legs[0].root]).toBe(`${prefix}LeftUpLeg`);
    },
  );

  // The twist filter read "roll" inside a character's own prefix (Troll_thigh_l) and dropped every
  // joint of its legs; the namespace check compared raw names, refusing the same skeleton under
  // mixamorig1:.
  it('keeps joints whose names only contain twist or roll in a word, and strips only real prefixes', () => {
    for (const prefix of ['Troll_', 'Scroll_', 'Twister_']) {
      const skeleton = biped((part, side) => `${prefix}${ue(part, side)}`, { twist: 'leaves' });
      expect(legsOf(skeleton, findRig(skeleton)), prefix).toEqual([
        `${prefix}thigh_l → ${prefix}calf_l → ${prefix}foot_l → ${prefix}ball_l`,
        `${prefix}thigh_r → ${prefix}calf_r → ${prefix}foot_r → ${prefix}ball_r`,
      ]);
    }
    expect(baseName('Normalized_leftUpperLeg')).toBe('leftUpperLeg');
    expect(baseName('Normalized_')).toBe('Normalized_');
    expect(baseName('Armature:mixamorigHips')).toBe('Hips');
    expect(baseName('mixamorig')).toBe('mixamorig');
    const VRM: Record<string, string> = {
      hips: 'hips',
      spine: 'spine',
      neck: 'neck',
      head: 'head',
      thigh: 'UpperLeg',
      shin: 'LowerLeg',
      foot: 'Foot',
      toe: 'Toes',
    };
    const vrm = (prefix: string) =>
      biped((part, side) =>
        side === '' ? `${prefix}${VRM[part]}` : `${prefix}${side === 'l' ? 'left' : 'right'}${VRM[part]}`,
      );
    // three-vrm's normalized bones: VRM by name, not reported as Mixamo.
    expect(findRig(vrm('Normalized_')).convention).toBe('vrm');
    const mixamo = (prefix: string) =>
      biped((part, side) => `${prefix}${ue(part, side)}`.replace(/_[lr]$/, (m) => m.toUpperCase()));
    // A rig found under one namespace is the rig of the same skeleton under another.
    expect(() => describeRig(findRig(mixamo('mixamorig:')), mixamo('mixamorig1:'))).not.toThrow();
  });

  // VRM 0.x models face −Z. Placement took +Z: straight rest legs bent their knees backwards and
  // the look turned the head away (85.6° off its target, every cone clamped).
  it('reads which way the rest pose faces from the toes (or knees), for placement and the look', async () => {
    expect(findRig(biped(ue)).forward).toEqual([0, 0, 1]);
    expect(findRig(biped(ue, { facing: -1 })).forward).toEqual([0, 0, -1]);
    expect(describeRig(findRig(biped(ue, { facing: -1 })), biped(ue, { facing: -1 }))).toContain(
      'facing: 0, 0, -1',
    );
    for (const file of Object.keys(EXPECTED)) {
      const skeleton = await skeletonOf(file);
      const rig = findRig(skeleton);
      // Every asset faces +Z (the Fox's front knees bend back: its toes say).
      if (rig.legs.length > 0) expect(rig.forward, file).toEqual([0, 0, 1]);
    }
  });

  // A rig is joint indices: found on one skeleton and used on another (another model, or the same
  // one under an extra node, every index shifted), it named other bones without a word.
  it('refuses a rig found on another skeleton, naming the joint in both', () => {
    const skeleton = biped(ue);
    const rig = findRig(skeleton);
    const shifted = biped((part, side) => (part === 'hips' ? 'root' : ue(part, side)));
    expect(() => describeRig(rig, shifted)).toThrow(
      expect.objectContaining({
        code: 'argument/invalid',
        message: expect.stringContaining('"root" here but "pelvis" in the skeleton the rig was found on'),
      }),
    );
    // The same names (the model imported again) are the same rig.
    expect(() => describeRig(rig, biped(ue))).not.toThrow();
  });
});

describe('four-legged skeletons of other tools', () => {
  /**
   * A dog facing +Z: hips → thigh → shin → foot → toe per hind side; hips → spine → chest →
   * upper arm → forearm → hand → fingers per front side; chest → neck → head (→ `headChild`);
   * and a tail from the hips, down to the ground or raised above the head. Names from `name`.
   */
  function dog(
    name: (part: string, side: 'L' | 'R' | '') => string,
    {
      tail = 'none' as 'none' | 'ground' | 'raised' | 'long',
      headChild = '',
      facing = 'z' as 'z' | '-z' | 'x',
      torso = false,
      toes = true,
      tailX = 0,
    } = {},
  ): Skeleton {
    const joints: { name: string; parent: number; at: number[] }[] = [];
    const add = (n: string, parent: number, at: number[]) => {
      // Turned about Y to face −Z (x and z negated: the left side at −X) or +X (the left at −Z).
      const [x, y, z] = at;
      joints.push({ name: n, parent, at: facing === 'z' ? at : facing === '-z' ? [-x, y, -z] : [z, y, -x] });
      return joints.length - 1;
    };
    // A mid-back root that both the hips and the chest hang from, or the hips as the root.
    const root = torso ? add(name('torso', ''), -1, [0, 0.62, 0.25]) : -1;
    const hips = add(name('hips', ''), root, [0, 0.6, 0]);
    const spine = torso ? root : add(name('spine', ''), hips, [0, 0.62, 0.25]);
    const chest = add(name('chest', ''), spine, [0, 0.62, 0.5]);
    const neck = add(name('neck', ''), chest, [0, 0.75, 0.6]);
    const head = add(name('head', ''), neck, [0, 0.85, 0.7]);
    if (headChild !== '') add(headChild, head, [0, 0.8, 0.85]);
    for (const side of ['L', 'R'] as const) {
      const x = side === 'L' ? 0.12 : -0.12;
      const thigh = add(name('thigh', side), hips, [x, 0.55, 0]);
      const shin = add(name('shin', side), thigh, [x, 0.32, 0.06]);
      const foot = add(name('foot', side), shin, [x, 0.12, -0.04]);
      if (toes) add(name('toe', side), foot, [x, 0.02, 0.04]);
      const arm = add(name('arm', side), chest, [x, 0.52, 0.5]);
      const fore = add(name('forearm', side), arm, [x, 0.32, 0.45]);
      const hand = add(name('hand', side), fore, [x, toes ? 0.1 : 0.02, 0.48]);
      if (toes) add(name('fingers', side), hand, [x, 0.02, 0.55]);
    }
    if (tail !== 'none') {
      let t = hips;
      const ys =
        tail === 'ground'
          ? [0.45, 0.25, 0.02]
          : tail === 'raised'
            ? [0.75, 0.95, 1.1]
            : Array.from({ length: 20 }, () => 0.6);
      ys.forEach((y, i) => {
        t = add(`tail.${String(i + 1).padStart(3, '0')}`, t, [tailX, y, -0.15 - 0.1 * i]);
      });
    }
    return skeletonFromPoints(joints);
  }
  const blender = (part: string, side: string) => (side === '' ? part : `${part}.${side}`);
  /** Names as an unnamed export gives them (`Bone.000`, …), one per part and side, in the order asked. */
  const unnamedParts = () => {
    const names = new Map<string, string>();
    return (part: string, side: string) => {
      const key = `${part}${side}`;
      if (!names.has(key)) names.set(key, `Bone.${String(names.size).padStart(3, '0')}`);
      return names.get(key) as string;
    };
  };

  const legsOf = (skeleton: Skeleton, rig: ReturnType<typeof findRig>) =>
    rig.legs.map((l) => `${l.label}: ${skeleton.names[l.root]} → ${skeleton.names[l.middle]}`);
  const FOUR = ['hind-left: thigh.L → shin.L', 'hind-right: thigh.R → shin.R'];
  FOUR.push('front-left: arm.L → forearm.L', 'front-right: arm.R → forearm.R');

  // Until 27 November: a tail on the ground was a fifth leg (the hind and front labels lost); a tail
  // raised above the head was the spine (the look turned it); a nose below the head was the head.
  it.each(['none', 'ground', 'raised'] as const)(
    'finds four legs, the spine and the head with a tail: %s',
    (tail) => {
      const skeleton = dog(blender, { tail, headChild: 'nose' });
      const rig = findRig(skeleton);
      expect(legsOf(skeleton, rig)).toEqual(FOUR);
      expect(rig.spine.map((j) => skeleton.names[j])).toEqual(['spine', 'chest']);
      expect(skeleton.names[rig.head]).toBe('head');
    },
  );

  // By depth, a body whose hips and chest hang from a mid-back root had its legs paired left and
  // right; an unnamed body facing −Z had +X for its left.
  it('orders hind before front along the facing, and reads unnamed sides on the facing’s left', () => {
    const torso = dog(blender, { torso: true });
    expect(legsOf(torso, findRig(torso))).toEqual(FOUR);
    const unnamed = unnamedParts();
    const turned = dog(unnamed, { facing: '-z' });
    const rig = findRig(turned);
    expect(rig.forward).toEqual([0, 0, -1]);
    const byName = (label: string) => rig.legs.find((l) => l.label === label)?.root;
    expect(byName('hind-left')).toBe(turned.indexOf(unnamed('thigh', 'L')));
    expect(byName('front-right')).toBe(turned.indexOf(unnamed('arm', 'R')));
  });

  // From a review of the first version: the tail filter ran before the facing was read (a body
  // facing +X lost its hind legs), ordering by facing took +Z where the rest pose did not say (its
  // legs paired by side), the spine out of the pelvis went by the most joints (a long tail became
  // the spine), a tail off the middle by 1e-6 was a fifth leg, a face-part word inside a name
  // dropped the head.
  it.each([
    ['facing +X, unnamed', { facing: 'x' as const }],
    ['facing +X, no toes', { facing: 'x' as const, toes: false }],
    ['facing −Z, no toes', { facing: '-z' as const, toes: false }],
    ['a long tail', { tail: 'long' as const }],
    ['a tail on the ground 1e-6 off the middle', { tail: 'ground' as const, tailX: 1e-6 }],
  ])('finds four legs hind first, the spine and the head: %s', (_, options) => {
    const unnamed = unnamedParts();
    const skeleton = dog(unnamed, options);
    const rig = findRig(skeleton);
    const root = (label: string) => rig.legs.find((l) => l.label === label)?.root;
    expect(rig.legs.length).toBe(4);
    expect(root('hind-left')).toBe(skeleton.indexOf(unnamed('thigh', 'L')));
    expect(root('hind-right')).toBe(skeleton.indexOf(unnamed('thigh', 'R')));
    expect(root('front-left')).toBe(skeleton.indexOf(unnamed('arm', 'L')));
    expect(root('front-right')).toBe(skeleton.indexOf(unnamed('arm', 'R')));
    expect(skeleton.names[rig.head]).toBe(unnamed('head', ''));
  });

  it('keeps a head whose name holds a face part inside a word (Machinist_head)', () => {
    const skeleton = dog((part, side) => `Machinist_${blender(part, side)}`);
    expect(skeleton.names[findRig(skeleton).head]).toBe('Machinist_head');
  });

  // Named as a biped (DAZ's lThigh … lShldr), its front legs were read as arms and never placed.
  it('reads a four-legged body named as a biped by its shape: its arms stand on the ground', () => {
    const DAZ: Record<string, string> = {
      hips: 'hip',
      spine: 'abdomen',
      chest: 'chest',
      neck: 'neck',
      head: 'head',
      thigh: 'Thigh',
      shin: 'Shin',
      foot: 'Foot',
      toe: 'Toe',
      arm: 'Shldr',
      forearm: 'ForeArm',
      hand: 'Hand',
      fingers: 'Mid1',
    };
    const skeleton = dog((part, side) => (side === '' ? DAZ[part] : `${side.toLowerCase()}${DAZ[part]}`));
    const rig = findRig(skeleton);
    expect(rig.legs.length).toBe(4);
    expect(rig.arms.length).toBe(0);
    expect(legsOf(skeleton, rig).slice(2)).toEqual([
      'front-left: lShldr → lForeArm',
      'front-right: rShldr → rForeArm',
    ]);
    // Forced, the map is kept (two legs, two arms).
    expect(findRig(skeleton, { convention: 'daz' }).legs.length).toBe(2);
  });
});

describe('overrides', () => {
  it('replace what was found, and name the closest joints when a name is wrong', async () => {
    const skeleton = await skeletonOf('cmu_02_01_walk.bvh');
    const rig = findRig(skeleton, {
      legs: [{ root: 'LeftUpLeg', middle: 'LeftLeg', end: 'LeftFoot', label: 'only' }],
    });
    expect(rig.legs).toHaveLength(1);
    expect(rig.legs[0].source).toBe('override');
    try {
      findRig(skeleton, { legs: [{ root: 'LeftUpLegg', middle: 'LeftLeg', end: 'LeftFoot' }] });
      expect.unreachable();
    } catch (error) {
      expect(isTendonError(error, 'rig/unknown-joint')).toBe(true);
      expect((error as Error).message).toContain('"LeftUpLeg"');
    }
    expect(() =>
      findRig(skeleton, { legs: [{ root: 'LeftLeg', middle: 'LeftUpLeg', end: 'LeftFoot' }] }),
    ).toThrow(expect.objectContaining({ code: 'rig/not-a-chain' }));
    expect(() => findRig(skeleton, { convention: 'nope' })).toThrow(
      expect.objectContaining({ code: 'rig/unknown-convention' }),
    );
  });
});

describe('joint helpers', () => {
  it('print the tree, read a model position, and move a joint by a model offset through a rotated, scaled parent', async () => {
    const skeleton = await skeletonOf('RobotExpressive.glb');
    expect(printJointTree(skeleton).split('\n')[4]).toBe('      4 Body');
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    forwardKinematics(pose, model);
    const body = skeleton.jointIndex('Body');
    const before = jointModelPosition(model, body, new Float64Array(3));
    // Body's ancestors are scaled by 100 and rotated: the offset is in model space regardless.
    translateJointInModel(pose, model, body, [0.1, -0.2, 0.3]);
    forwardKinematics(pose, model);
    const after = jointModelPosition(model, body, new Float64Array(3));
    expect(after[0] - before[0]).toBeCloseTo(0.1, 12);
    expect(after[1] - before[1]).toBeCloseTo(-0.2, 12);
    expect(after[2] - before[2]).toBeCloseTo(0.3, 12);
    expect(() => translateJointInModel(pose, model, body, [Number.NaN, 0, 0])).toThrow(
      expect.objectContaining({ code: 'pose/not-finite' }),
    );
  });
});
