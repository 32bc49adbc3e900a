/**
 * The real characters placement is tested on, loaded once per test file: the bundled robot (Blender
 * IK legs: the foot a separate bone), CMU motion capture (thigh → shin → foot → toe) and the Fox
 * (four legs). Their rigs are written out here by hand, so these tests do not depend on rig
 * detection (which has tests of its own).
 */
import { readFileSync } from 'node:fs';
import type { Clip } from '../../src/animation/clip.js';
import { importBvh } from '../../src/io/bvh.js';
import { importGltf } from '../../src/io/gltf.js';
import { invert } from '../../src/kernel/mat4.js';
import { restModelMatrices } from '../../src/pose/forward-kinematics.js';
import type { ArmRig, LegRig, Rig } from '../../src/rig/limbs.js';
import type { Skeleton } from '../../src/skeleton/skeleton.js';
import { readAsset } from '../helpers/assets.js';

export interface Character {
  readonly skeleton: Skeleton;
  readonly rig: Rig;
  readonly clips: ReadonlyMap<string, Clip>;
  /** Model units to metres. */
  readonly scale: number;
}

/** CMU's BVH unit: (1/0.45) inch. */
export const CMU_SCALE = 0.0254 / 0.45;

/** The point of `joint`'s rest model position in `middle`'s local frame. */
export function restPointIn(skeleton: Skeleton, middle: number, joint: number): [number, number, number] {
  const rest = restModelMatrices(skeleton);
  const inv = new Float64Array(16);
  invert(inv, 0, rest, 16 * middle);
  const p = rest.subarray(16 * joint + 12, 16 * joint + 15);
  return [0, 1, 2].map((r) => inv[r] * p[0] + inv[4 + r] * p[1] + inv[8 + r] * p[2] + inv[12 + r]) as [
    number,
    number,
    number,
  ];
}

export async function robot(): Promise<Character> {
  const imported = await importGltf(readAsset('gltf', 'RobotExpressive.glb'), {
    source: 'RobotExpressive.glb',
  });
  const { skeleton, clips } = imported.skeletons[0];
  const J = (name: string) => skeleton.jointIndex(name);
  const leg = (side: 'left' | 'right', s: 'L' | 'R'): LegRig => ({
    label: side,
    side,
    shape: 'effector',
    source: 'override',
    root: J(`UpperLeg.${s}`),
    middle: J(`LowerLeg.${s}`),
    end: -1,
    endLocal: restPointIn(skeleton, J(`LowerLeg.${s}`), J(`Foot.${s}`)),
    foot: J(`Foot.${s}`),
    toe: -1,
    pole: J(`PoleTarget.${s}`),
  });
  const arm = (side: 'left' | 'right', s: 'L' | 'R'): ArmRig => ({
    label: side,
    side,
    source: 'override',
    clavicle: J(`Shoulder.${s}`),
    root: J(`UpperArm.${s}`),
    middle: J(`LowerArm.${s}`),
    end: J(`Palm2.${s}`),
  });
  const rig: Rig = {
    legs: [leg('left', 'L'), leg('right', 'R')],
    arms: [arm('left', 'L'), arm('right', 'R')],
    pelvis: J('Body'),
    spine: [J('Hips'), J('Abdomen'), J('Torso')],
    neck: [J('Neck')],
    head: J('Head'),
    convention: 'robot',
  };
  // The robot is 3 units tall: half a metre a unit makes it 1.5 m.
  return { skeleton, rig, clips: new Map(clips.map((c) => [c.name, c])), scale: 0.5 };
}

export function cmu(file: string): Character {
  const { skeleton, clip } = importBvh(
    readFileSync(new URL(`../../../shared/assets/bvh/${file}`, import.meta.url), 'utf8'),
    {
      source: file,
    },
  );
  const J = (name: string) => skeleton.indexOf(name);
  // CMU files come in two namings: LeftUpLeg/LeftLeg/LeftFoot/LeftToeBase and LeftHip/LeftKnee/LeftAnkle/LeftToe.
  const named = J('LeftUpLeg') >= 0;
  const leg = (side: 'left' | 'right', p: 'Left' | 'Right'): LegRig => ({
    label: side,
    side,
    shape: 'chain',
    source: 'override',
    root: J(named ? `${p}UpLeg` : `${p}Hip`),
    middle: J(named ? `${p}Leg` : `${p}Knee`),
    end: J(named ? `${p}Foot` : `${p}Ankle`),
    endLocal: null,
    foot: J(named ? `${p}Foot` : `${p}Ankle`),
    toe: J(named ? `${p}ToeBase` : `${p}Toe`),
    pole: -1,
  });
  const arm = (side: 'left' | 'right', p: 'Left' | 'Right'): ArmRig => ({
    label: side,
    side,
    source: 'override',
    clavicle: J(named ? `${p}Shoulder` : `${p}Collar`),
    root: J(named ? `${p}Arm` : `${p}Shoulder`),
    middle: J(named ? `${p}ForeArm` : `${p}Elbow`),
    end: J(named ? `${p}Hand` : `${p}Wrist`),
  });
  const rig: Rig = {
    legs: [leg('left', 'Left'), leg('right', 'Right')],
    arms: [arm('left', 'Left'), arm('right', 'Right')],
    pelvis: J('Hips'),
    spine: [J('LowerBack'), J('Spine'), J('Spine1'), J('lowerback'), J('Chest'), J('Chest2')].filter(
      (j) => j >= 0,
    ),
    neck: [J('lowerneck'), J('Neck'), J('Neck1')].filter((j) => j >= 0),
    head: J('Head'),
    convention: 'cmu',
  };
  return { skeleton, rig, clips: new Map([[clip.name, clip]]), scale: CMU_SCALE };
}

export async function fox(): Promise<Character> {
  const imported = await importGltf(readAsset('gltf', 'Fox.glb'), { source: 'Fox.glb' });
  const { skeleton, clips } = imported.skeletons[0];
  const J = (name: string) => skeleton.jointIndex(name);
  const leg = (
    label: string,
    side: 'left' | 'right',
    root: string,
    middle: string,
    end: string,
    toe: string,
  ): LegRig => ({
    label,
    side,
    shape: 'chain',
    source: 'override',
    root: J(root),
    middle: J(middle),
    end: J(end),
    endLocal: null,
    foot: J(end),
    toe: toe === '' ? -1 : J(toe),
    pole: -1,
  });
  const rig: Rig = {
    legs: [
      leg('hind-left', 'left', 'b_LeftLeg01_015', 'b_LeftLeg02_016', 'b_LeftFoot01_017', 'b_LeftFoot02_018'),
      leg(
        'hind-right',
        'right',
        'b_RightLeg01_019',
        'b_RightLeg02_020',
        'b_RightFoot01_021',
        'b_RightFoot02_022',
      ),
      leg('front-left', 'left', 'b_LeftUpperArm_09', 'b_LeftForeArm_010', 'b_LeftHand_011', ''),
      leg('front-right', 'right', 'b_RightUpperArm_06', 'b_RightForeArm_07', 'b_RightHand_08', ''),
    ],
    arms: [],
    pelvis: J('b_Hip_01'),
    spine: [J('b_Spine01_02'), J('b_Spine02_03')],
    neck: [J('b_Neck_04')],
    head: J('b_Head_05'),
    convention: null,
  };
  // The fox is modelled in centimetres: 60 units tall.
  return { skeleton, rig, clips: new Map(clips.map((c) => [c.name, c])), scale: 0.01 };
}
