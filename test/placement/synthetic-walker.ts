/**
 * A small synthetic biped and a walk cycle made of keyframes, with no file and no trigonometry:
 * used where a test needs a character that builds anywhere (the cross-engine run bundles it).
 * Pelvis → left/right hip → knee → ankle → toe, and spine → neck → head; +Y up, facing +Z, metres.
 */
import { Clip } from '../../src/animation/clip.js';
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import { ContactTrack, computeContacts } from '../../src/placement/contacts.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import type { Rig } from '../../src/rig/limbs.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';

export function syntheticWalker(options: { kick?: boolean } = {}): {
  skeleton: Skeleton;
  clip: Clip;
  rig: Rig;
} {
  const names = [
    'pelvis',
    'hip.L',
    'knee.L',
    'ankle.L',
    'toe.L',
    'hip.R',
    'knee.R',
    'ankle.R',
    'toe.R',
    'spine',
    'neck',
    'head',
    'shoulder.L',
    'elbow.L',
    'wrist.L',
    'shoulder.R',
    'elbow.R',
    'wrist.R',
  ];
  const parents = [-1, 0, 1, 2, 3, 0, 5, 6, 7, 0, 9, 10, 9, 12, 13, 9, 15, 16];
  // Knees bent forward a little at rest (a hinge from the rest pose), ankles 8 cm above the sole.
  const restTranslations = [
    0, 0.95, 0, 0.1, -0.05, 0, 0, -0.42, 0.03, 0, -0.4, -0.03, 0, -0.08, 0.14, -0.1, -0.05, 0, 0, -0.42, 0.03,
    0, -0.4, -0.03, 0, -0.08, 0.14, 0, 0.25, 0, 0, 0.3, 0, 0, 0.12, 0, 0.18, 0.2, 0, 0, -0.28, -0.02, 0,
    -0.26, 0.02, -0.18, 0.2, 0, 0, -0.28, -0.02, 0, -0.26, 0.02,
  ];
  const skeleton = Skeleton.create({ names, parents, restTranslations });
  // A one-second cycle: the hips swing (rotation about X by ±0.3 rad as quaternions), the knees
  // bend in the swing, the pelvis bobs. Quaternion values written as numbers (half-angle sines).
  const s = [0, 0.149438, 0, -0.149438, 0]; // sin(θ/2) for θ = 0, 0.3, 0, −0.3, 0
  const c = [1, 0.988771, 1, 0.988771, 1];
  const t = [0, 0.25, 0.5, 0.75, 1];
  // `kick`: the left hip turned 90° forward at 0.5 s, mid-swing (its foot swung up near the hip's
  // height), a key of the clip.
  const hip = (phase: number, kick = false) =>
    t.flatMap((_, k) =>
      kick && k === 2 ? [-Math.SQRT1_2, 0, 0, Math.SQRT1_2] : [s[(k + phase) % 4], 0, 0, c[(k + phase) % 4]],
    );
  const knee = (phase: number) =>
    t.flatMap((_, k) => {
      const bent = (k + phase) % 4 === 1;
      return bent ? [0.38941834, 0, 0, 0.92106099] : [0.05, 0, 0, 0.99874922];
    });
  const clip = Clip.create(skeleton, {
    name: 'walk',
    tracks: [
      { joint: 'hip.L', path: 'rotation', times: t, values: hip(0, options.kick === true) },
      { joint: 'hip.R', path: 'rotation', times: t, values: hip(2) },
      { joint: 'knee.L', path: 'rotation', times: t, values: knee(0) },
      { joint: 'knee.R', path: 'rotation', times: t, values: knee(2) },
      {
        joint: 'pelvis',
        path: 'translation',
        times: t,
        values: [0, 0.95, 0, 0, 0.93, 0, 0, 0.95, 0, 0, 0.93, 0, 0, 0.95, 0],
      },
    ],
  });
  const leg = (side: 'left' | 'right', s: 'L' | 'R') => ({
    label: side,
    side,
    shape: 'chain' as const,
    source: 'override' as const,
    root: skeleton.indexOf(`hip.${s}`),
    middle: skeleton.indexOf(`knee.${s}`),
    end: skeleton.indexOf(`ankle.${s}`),
    endLocal: null,
    foot: skeleton.indexOf(`ankle.${s}`),
    toe: skeleton.indexOf(`toe.${s}`),
    pole: -1,
  });
  const arm = (side: 'left' | 'right', s: 'L' | 'R') => ({
    label: side,
    side,
    source: 'override' as const,
    clavicle: -1,
    root: skeleton.indexOf(`shoulder.${s}`),
    middle: skeleton.indexOf(`elbow.${s}`),
    end: skeleton.indexOf(`wrist.${s}`),
  });
  const rig: Rig = {
    legs: [leg('left', 'L'), leg('right', 'R')],
    arms: [arm('left', 'L'), arm('right', 'R')],
    pelvis: 0,
    spine: [skeleton.indexOf('spine')],
    neck: [skeleton.indexOf('neck')],
    head: skeleton.indexOf('head'),
    convention: null,
  };
  return { skeleton, clip, rig };
}

/**
 * The walker's contacts, written out: its feet swing about fixed hips (no ground velocity a clip
 * reader could find), so `computeContacts` reads no contact from it. A foot stands while its hip
 * turns from −0.3 to 0.3 rad, the foot moving back at the speed the ground moves under it: the
 * left from 0.75 s to 1.25 s, the right from 0.25 s to 0.75 s. Heights from `computeContacts`, the
 * landings and the ground's speed from the clip itself.
 */
export function syntheticWalkerContacts(walker: ReturnType<typeof syntheticWalker>): ContactTrack {
  const { skeleton, clip, rig } = walker;
  const read = computeContacts(clip, rig.legs);
  const pose = new Pose(skeleton);
  const model = createModelBuffer(skeleton);
  const context = new SamplerContext(clip);
  const ankleAt = (time: number, leg: number): number[] => {
    sampleClip(clip, context, time, pose);
    forwardKinematics(pose, model);
    const o = 16 * rig.legs[leg].foot + 12;
    return [model[o], model[o + 1], model[o + 2]];
  };
  const starts = [0.75, 0.25];
  // The planted foot's travel over its stance, per second: the ground's velocity.
  const first = ankleAt(0.25, 1);
  const last = ankleAt(0.75, 1);
  return new ContactTrack({
    duration: clip.duration,
    intervals: [
      [0.75, 1.25],
      [0.25, 0.75],
    ],
    footHeights: Array.from(read.footHeights),
    toeHeights: Array.from(read.toeHeights),
    landings: starts.map((time, leg) => ankleAt(time, leg)),
    groundVelocity: [0, 0, (last[2] - first[2]) / 0.5],
  });
}
