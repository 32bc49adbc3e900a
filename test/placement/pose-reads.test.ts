/**
 * A placement step given a pose it cannot use (a NaN, an infinity, a rotation of length 0 where it
 * reads) refuses it before writing anything, and its next good frame is what it would have been.
 */
import { describe, expect, it } from 'vitest';
import type { Clip } from '../../src/animation/clip.js';
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import { isTendonError } from '../../src/errors.js';
import { BarHang } from '../../src/placement/bar-hang.js';
import { computeContacts } from '../../src/placement/contacts.js';
import { FootPlacement } from '../../src/placement/foot-placement.js';
import { LadderClimb } from '../../src/placement/ladder-climb.js';
import { LookAt } from '../../src/placement/look-at.js';
import { PlaneGround } from '../../src/placement/plane-ground.js';
import { poseReads } from '../../src/placement/pose-reads.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import type { Rig } from '../../src/rig/limbs.js';
import type { Skeleton } from '../../src/skeleton/skeleton.js';
import { fox, robot } from './characters.js';

const WORLD = [0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 1];

/** One step of a placement on `pose`/`model` for frame `f` (each step its own kind). */
type Step = (pose: Pose, model: Float64Array, f: number) => void;

interface Case {
  readonly name: string;
  /** Two steps alike, and the joint to spoil (one each step reads). */
  make(
    skeleton: Skeleton,
    rig: Awaited<ReturnType<typeof robot>>['rig'],
  ): { a: Step; b: Step; joint: number; modelOnly?: boolean };
}

/** A look toward a point that moves, eased out and back in: a refused frame must step neither. */
function looking(skeleton: Skeleton, options: ConstructorParameters<typeof LookAt>[2] = {}) {
  return () => {
    const look = new LookAt(skeleton, (lookRig as { rig: Rig }).rig, options);
    const target = new Float64Array(3);
    return (pose: Pose, model: Float64Array, f: number) => {
      if (f === 20) look.setWeight(0.2, 0.5);
      if (f === 45) look.setWeight(1, 0.3);
      target[0] = 1 - 0.03 * f;
      target[1] = 1.6;
      target[2] = 2;
      look.solve(pose, model, target, WORLD, 1 / 60);
    };
  };
}
const lookRig: { rig?: Rig } = {};

/** A climb of 6 rungs, 0.05 rungs a frame. */
function climbing(skeleton: Skeleton, rig: Rig) {
  return () => {
    const climb = new LadderClimb(skeleton, rig, {
      ladder: { bottom: [1, 0, 2], facing: [0, -1], rungCount: 6, spacing: 0.3 },
      scale: 0.5,
    });
    return (pose: Pose, model: Float64Array) => climb.update(pose, model, 0.05);
  };
}

const CASES: Case[] = [
  {
    name: 'LookAt',
    make(skeleton, rig) {
      lookRig.rig = rig;
      const look = looking(skeleton);
      return { a: look(), b: look(), joint: rig.neck[0] };
    },
  },
  {
    name: 'LookAt over a chain with a joint between (abdomen and head: the neck rebuilt between)',
    make(skeleton, rig) {
      lookRig.rig = rig;
      const J = (name: string) => skeleton.jointIndex(name);
      const look = looking(skeleton, { joints: [J('Abdomen'), J('Head')], shares: [0.5, 1] });
      return { a: look(), b: look(), joint: J('Neck') };
    },
  },
  {
    name: 'LadderClimb',
    make(skeleton, rig) {
      const climb = climbing(skeleton, rig);
      return { a: climb(), b: climb(), joint: rig.arms[0].middle };
    },
  },
  {
    name: 'LadderClimb, the parent of the separate foot bones',
    make(skeleton, rig) {
      const climb = climbing(skeleton, rig);
      // Read in model space only (the foot is moved in its frame): its model matrix is spoiled.
      return { a: climb(), b: climb(), joint: skeleton.parents[rig.legs[0].foot], modelOnly: true };
    },
  },
  {
    name: 'BarHang',
    make(skeleton, rig) {
      const hang = () => {
        const h = new BarHang(skeleton, rig, { from: [-2, 2.4, 0], to: [2, 2.4, 0], scale: 0.5 });
        h.pushBody(0, 0, 30);
        return (pose: Pose, model: Float64Array) => h.update(pose, model, 1 / 60, 0.004);
      };
      return { a: hang(), b: hang(), joint: rig.arms[1].end };
    },
  },
];

describe.each(CASES)('$name given a pose it cannot use', (c) => {
  it('throws pose/not-finite naming the joint, writes nothing, and goes on as if it had not come', async () => {
    const character = await robot();
    const { skeleton, rig } = character;
    const idle = character.clips.get('Idle') as Clip;
    const context = new SamplerContext(idle);
    const { a, b, joint, modelOnly } = c.make(skeleton, rig);
    const poses = [new Pose(skeleton), new Pose(skeleton)];
    const models = [createModelBuffer(skeleton), createModelBuffer(skeleton)];
    const spoil: ((pose: Pose, model: Float64Array) => void)[] = [
      (pose) => {
        pose.rotations[4 * joint + 1] = Number.NaN;
      },
      (pose) => {
        pose.rotations.fill(0, 4 * joint, 4 * joint + 4);
      },
      (_pose, model) => {
        model[16 * joint + 12] = Number.POSITIVE_INFINITY;
      },
    ];
    if (modelOnly) spoil.splice(0, 2);
    let refused = 0;
    for (let f = 0; f < 60; f++) {
      for (let k = 0; k < 2; k++) {
        sampleClip(idle, context, f / 60, poses[k]);
        forwardKinematics(poses[k], models[k]);
      }
      if (f % 15 === 7) {
        const [pose, model] = [poses[1], models[1]];
        const good = [pose.translations.slice(), pose.rotations.slice(), model.slice()];
        spoil[refused % spoil.length](pose, model);
        const spoiled = [pose.translations.slice(), pose.rotations.slice(), model.slice()];
        let error: unknown = null;
        try {
          b(pose, model, f);
        } catch (e) {
          error = e;
        }
        expect(isTendonError(error, 'pose/not-finite')).toBe(true);
        expect((error as Error).message).toContain(`"${skeleton.names[joint]}"`);
        expect([...pose.translations]).toEqual([...spoiled[0]]);
        expect([...pose.rotations]).toEqual([...spoiled[1]]);
        expect([...model]).toEqual([...spoiled[2]]);
        pose.translations.set(good[0]);
        pose.rotations.set(good[1]);
        model.set(good[2]);
        refused++;
      }
      a(poses[0], models[0], f);
      b(poses[1], models[1], f);
      expect([...models[1]]).toEqual([...models[0]]);
      expect([...poses[1].rotations]).toEqual([...poses[0].rotations]);
    }
    expect(refused).toBe(4);
  });
});

describe('poseReads', () => {
  it('reads the owned joints, their parents and the others, once each, none below 0', async () => {
    const { skeleton, rig } = await robot();
    const leg = rig.legs[0];
    const reads = poseReads(skeleton, [leg.root, leg.middle, -1], [leg.pole, -1, leg.root]);
    expect([...reads.owned]).toEqual([leg.root, leg.middle].sort((x, y) => x - y));
    expect([...reads.read]).toEqual(
      [...new Set([leg.root, leg.middle, skeleton.parents[leg.root], leg.pole])].sort((x, y) => x - y),
    );
  });
});

describe('FootPlacement given a pose it cannot use', () => {
  it('on four legs, refuses a NaN on the path its pitch rebuilds (pelvis to a leg), mid-ease too', async () => {
    const character = await fox();
    const clip = character.clips.get('Walk') as Clip;
    const skeleton = clip.skeleton;
    const track = computeContacts(clip, character.rig.legs, { loop: true });
    const s = character.scale;
    const world = [s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1];
    const make = () => {
      // 20° up along −z: the body pitches.
      const p = new FootPlacement(skeleton, character.rig, {
        ground: new PlaneGround([0, 0, 0], [0, 1, -0.364]),
      });
      p.setContactTrack(track);
      return p;
    };
    const placements = [make(), make()];
    const poses = [new Pose(skeleton), new Pose(skeleton)];
    const models = [createModelBuffer(skeleton), createModelBuffer(skeleton)];
    const context = new SamplerContext(clip);
    const spine = skeleton.jointIndex('b_Spine01_02');
    let refused = 0;
    for (let f = 0; f < 80; f++) {
      const time = f / 60;
      for (let k = 0; k < 2; k++) {
        sampleClip(clip, context, time, poses[k]);
        forwardKinematics(poses[k], models[k]);
        if (f === 30) placements[k].setWeight(0.4, 0.5);
      }
      if (f === 20 || f === 40) {
        const good = poses[1].rotations.slice();
        poses[1].rotations[4 * spine + 1] = Number.NaN;
        const before = models[1].slice();
        expect(() => placements[1].solve(poses[1], models[1], world, 1 / 60, time)).toThrow(
          expect.objectContaining({
            code: 'pose/not-finite',
            message: expect.stringContaining('"b_Spine01_02"'),
          }),
        );
        expect([...models[1]]).toEqual([...before]);
        poses[1].rotations.set(good);
        refused++;
      }
      for (let k = 0; k < 2; k++) placements[k].solve(poses[k], models[k], world, 1 / 60, time);
      expect([...models[1]]).toEqual([...models[0]]);
      expect(placements[1].weight).toBe(placements[0].weight);
    }
    expect(refused).toBe(2);
  });

  it('switched off (back on the animation), reads no pose: a bad one passes through, as before', async () => {
    const { skeleton, rig, clips } = await robot();
    const idle = clips.get('Idle') as Clip;
    const placement = new FootPlacement(skeleton, rig, { ground: new PlaneGround([0, 0, 0], [0, 1, 0]) });
    const look = new LookAt(skeleton, rig);
    placement.setWeight(0, 0);
    look.setWeight(0, 0);
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    sampleClip(idle, new SamplerContext(idle), 0.2, pose);
    forwardKinematics(pose, model);
    pose.rotations[4 * rig.legs[0].middle] = Number.NaN;
    pose.rotations[4 * rig.neck[0]] = Number.NaN;
    const rotations = pose.rotations.slice();
    const before = model.slice();
    placement.solve(pose, model, WORLD, 1 / 60, 0.2);
    look.solve(pose, model, [1, 1.6, 2], WORLD, 1 / 60);
    expect([...pose.rotations]).toEqual([...rotations]);
    expect([...model]).toEqual([...before]);
  });
});
