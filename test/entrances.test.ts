/**
 * Every entrance of the public API (`tendon`'s index) against what a JavaScript caller can pass by
 * mistake: each argument of a working call, and each field of an options object, replaced in turn
 * by a hostile value. The call must either work (and leave nothing non-finite in the pose it wrote)
 * or throw a TendonError, with the pose and model buffer it was given unchanged. A bare TypeError or
 * RangeError, a NaN in the pose or a half-written pose is a failure, listed by entrance and argument.
 */
import { readFileSync } from 'node:fs';
import { beforeAll } from 'vitest';
import * as tendon from '../src/index.js';
import { assetsDir, readAsset } from './helpers/assets.js';
import { describeEntrances, type Entrance } from './helpers/entrances.js';

interface Fixture {
  skeleton: tendon.Skeleton;
  rig: tendon.Rig;
  clip: tendon.Clip;
  pose: tendon.Pose;
  model: Float64Array;
  ground: tendon.Ground;
  ladderClip: tendon.Clip;
  ladderRig: tendon.Rig;
  ladderPose: tendon.Pose;
  ladderModel: Float64Array;
  mesh: tendon.GltfSkinnedPrimitive;
  skin: tendon.Skin;
  palette: Float32Array;
  /** The walk's contacts, and outputs for its per-frame methods (the calls' own, watched). */
  track: tendon.ContactTrack;
  weights: Float64Array;
  planted: Uint8Array;
  out: Float64Array;
}

const world = () => new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
const poseState = (f: Fixture) => [f.pose.translations, f.pose.rotations, f.pose.scales, f.model];

const ENTRANCES: Entrance<Fixture>[] = [
  {
    name: 'Skeleton.create',
    args: () => [{ names: ['a', 'b'], parents: [-1, 0], restTranslations: [0, 0, 0, 0, 1, 0] }],
    run: (_, [d]) => tendon.Skeleton.create(d),
  },
  { name: 'skeleton.jointIndex', args: () => ['Hips'], run: (f, [n]) => f.skeleton.jointIndex(n) },
  { name: 'skeleton.isAncestor', args: () => [0, 1], run: (f, [a, b]) => f.skeleton.isAncestor(a, b) },
  { name: 'new Pose', args: (f) => [f.skeleton], run: (_, [s]) => new tendon.Pose(s) },
  {
    name: 'pose.copyFrom',
    args: (f) => [new tendon.Pose(f.skeleton)],
    run: (f, [p]) => f.pose.copyFrom(p),
    state: poseState,
  },
  { name: 'createModelBuffer', args: (f) => [f.skeleton], run: (_, [s]) => tendon.createModelBuffer(s) },
  { name: 'restModelMatrices', args: (f) => [f.skeleton], run: (_, [s]) => tendon.restModelMatrices(s) },
  {
    name: 'forwardKinematics',
    args: (f) => [f.pose, f.model],
    run: (_, [p, m]) => tendon.forwardKinematics(p, m),
    state: poseState,
  },
  {
    name: 'forwardKinematicsSubtree',
    args: (f) => [f.pose, f.model, 1],
    run: (_, [p, m, j]) => tendon.forwardKinematicsSubtree(p, m, j),
    state: poseState,
  },
  { name: 'printJointTree', args: (f) => [f.skeleton], run: (_, [s]) => tendon.printJointTree(s) },
  {
    name: 'jointModelPosition',
    args: (f) => [f.model, 1, new Float64Array(3), 0],
    run: (_, [m, j, out, o]) => tendon.jointModelPosition(m, j, out, o),
  },
  {
    name: 'translateJointInModel',
    args: (f) => [f.pose, f.model, 1, [0, 0.1, 0]],
    run: (_, [p, m, j, d]) => tendon.translateJointInModel(p, m, j, d),
    state: poseState,
  },
  {
    name: 'Clip.create',
    args: (f) => [
      f.skeleton,
      {
        name: 'c',
        tracks: [{ joint: 0, path: 'translation', times: [0, 1], values: [0, 0, 0, 0, 1, 0] }],
      },
    ],
    run: (_, [s, raw]) => tendon.Clip.create(s, raw),
  },
  { name: 'new SamplerContext', args: (f) => [f.clip], run: (_, [c]) => new tendon.SamplerContext(c) },
  {
    name: 'sampleClip',
    args: (f) => [f.clip, new tendon.SamplerContext(f.clip), 0.3, f.pose, 'loop'],
    run: (_, [c, ctx, t, p, mode]) => tendon.sampleClip(c, ctx, t, p, mode),
    state: poseState,
  },
  {
    name: 'sampleClipClock',
    args: (f) => [f.clip, new tendon.SamplerContext(f.clip), f.pose, 'loop'],
    run: (_, [c, ctx, p, mode]) => tendon.sampleClipClock(c, ctx, p, mode),
    state: poseState,
  },
  { name: 'wrapTime', args: () => [1.5, 1, 'loop'], run: (_, [t, d, m]) => tendon.wrapTime(t, d, m) },
  {
    name: 'makeAdditiveClip',
    args: (f) => [f.clip, new tendon.Pose(f.skeleton), 'add'],
    run: (_, [c, p, n]) => tendon.makeAdditiveClip(c, p, n),
  },
  {
    name: 'createJointMask',
    args: (f) => [f.skeleton, ['Hips'], { weight: 1 }],
    run: (_, [s, j, o]) => tendon.createJointMask(s, j, o),
  },
  { name: 'new Mixer', args: (f) => [f.skeleton], run: (_, [s]) => new tendon.Mixer(s) },
  {
    name: 'mixer.addLayer',
    args: (f) => [{ clip: f.clip, weight: 1, mode: 'loop', time: 0 }],
    run: (f, [o]) => new tendon.Mixer(f.skeleton).addLayer(o),
  },
  {
    name: 'mixer.advance',
    args: () => [1 / 60],
    run: (f, [dt]) => {
      const mixer = new tendon.Mixer(f.skeleton);
      mixer.addLayer({ clip: f.clip });
      mixer.advance(dt);
    },
  },
  {
    name: 'mixer.evaluate',
    args: (f) => [f.pose],
    run: (f, [p]) => {
      const mixer = new tendon.Mixer(f.skeleton);
      mixer.addLayer({ clip: f.clip });
      mixer.evaluate(p);
    },
    state: poseState,
  },
  {
    name: 'layer mask and mode fields',
    args: (f) => [f.pose, tendon.createJointMask(f.skeleton, ['Hips'], { weight: 0.5 }), 'clamp'],
    run: (f, [p, mask, mode]) => {
      const mixer = new tendon.Mixer(f.skeleton);
      mixer.addLayer({ clip: f.clip });
      const layer = mixer.addLayer({ clip: f.clip, time: 0.3 });
      layer.mask = mask;
      layer.mode = mode;
      mixer.evaluate(p);
    },
    state: poseState,
  },
  {
    name: 'layer setters',
    args: () => [0.5, 0.5, 1],
    run: (f, [t, w, s]) => {
      const layer = new tendon.Mixer(f.skeleton).addLayer({ clip: f.clip });
      layer.time = t;
      layer.weight = w;
      layer.speed = s;
    },
  },
  {
    name: 'new Skin',
    args: (f) => [
      f.skeleton,
      {
        joints: [0, 1],
        inverseBindMatrices: new Float32Array(32).fill(0).map((_, i) => (i % 5 === 0 ? 1 : 0)),
      },
    ],
    run: (_, [s, d]) => new tendon.Skin(s, d),
  },
  {
    name: 'skin.computePalette',
    args: (f) => [f.model, f.skin.createPalette()],
    run: (f, [m, out]) => f.skin.computePalette(m, out),
  },
  {
    name: 'skinMesh',
    args: (f) => [f.mesh, f.palette, new Float32Array(f.mesh.positions.length)],
    run: (_, [mesh, palette, out]) => tendon.skinMesh(mesh, palette, out),
  },
  {
    name: 'new TwoBoneIk',
    args: () => [{ root: 'UpperLeg.L', middle: 'LowerLeg.L', end: 'Foot.L', pole: [0, 0, 1] }],
    run: (f, [o]) => new tendon.TwoBoneIk(f.skeleton, o),
  },
  {
    name: 'twoBone.solve',
    args: (f) => [f.pose, f.model, [0.1, 0.3, 0.1]],
    run: (f, [p, m, t]) =>
      new tendon.TwoBoneIk(f.skeleton, { root: 'UpperLeg.L', middle: 'LowerLeg.L', end: 'Foot.L' }).solve(
        p,
        m,
        t,
      ),
    state: poseState,
  },
  {
    name: 'new AimIk',
    args: () => [{ joint: 'Head', coneAngle: 0.7 }],
    run: (f, [o]) => new tendon.AimIk(f.skeleton, o),
  },
  {
    name: 'aim.solve',
    args: (f) => [f.pose, f.model, [0, 2, 3]],
    run: (f, [p, m, t]) => new tendon.AimIk(f.skeleton, { joint: 'Head' }).solve(p, m, t),
    state: poseState,
  },
  {
    name: 'new FabrikIk',
    args: () => [{ joints: ['UpperArm.L', 'LowerArm.L', 'Hand.L'], maxIterations: 10 }],
    run: (f, [o]) => new tendon.FabrikIk(f.skeleton, o),
  },
  {
    name: 'fabrik.solve',
    args: (f) => [f.pose, f.model, [0.5, 1.5, 0.5]],
    run: (f, [p, m, t]) =>
      new tendon.FabrikIk(f.skeleton, { joints: ['UpperArm.L', 'LowerArm.L', 'Hand.L'] }).solve(p, m, t),
    state: poseState,
  },
  {
    name: 'new CcdIk',
    args: () => [{ joints: ['UpperArm.L', 'LowerArm.L', 'Hand.L'], maxIterations: 10 }],
    run: (f, [o]) => new tendon.CcdIk(f.skeleton, o),
  },
  { name: 'cosSinOfAngle', args: () => [0.5], run: (_, [a]) => tendon.cosSinOfAngle(a) },
  { name: 'findRig', args: (f) => [f.skeleton, {}], run: (_, [s, o]) => tendon.findRig(s, o) },
  { name: 'describeRig', args: (f) => [f.rig, f.skeleton], run: (_, [r, s]) => tendon.describeRig(r, s) },
  { name: 'baseName', args: () => ['mixamorig:Hips'], run: (_, [n]) => tendon.baseName(n) },
  {
    name: 'computeContacts',
    args: (f) => [f.clip, f.rig.legs, { sampleRate: 60 }],
    run: (_, [c, legs, o]) => tendon.computeContacts(c, legs, o),
  },
  {
    name: 'new ContactTrack',
    args: () => [{ duration: 1, intervals: [[0.1, 0.4]], footHeights: [0.05] }],
    run: (_, [d]) => new tendon.ContactTrack(d),
  },
  {
    name: 'contactTrack.sample',
    args: (f) => [0.3, 0.1, f.weights, f.planted, 0.2],
    run: (f, [t, rampIn, w, p, rampOut]) => f.track.sample(t, rampIn, w, p, rampOut),
    state: (f) => [f.weights, f.planted],
  },
  {
    name: 'contactTrack.groundVelocityAt',
    args: (f) => [0.3, f.out, 0],
    run: (f, [t, out, o]) => f.track.groundVelocityAt(t, out, o),
    state: (f) => [f.out],
  },
  {
    name: 'contactTrack.groundTravel',
    args: (f) => [0.3, 0.5, f.out, 0],
    run: (f, [t, seconds, out, o]) => f.track.groundTravel(t, seconds, out, o),
    state: (f) => [f.out],
  },
  {
    name: 'contactTrack.nextContact',
    args: (f) => [0.2, 1, f.out, 0],
    run: (f, [t, leg, out, o]) => f.track.nextContact(t, leg, out, o),
    state: (f) => [f.out],
  },
  {
    name: 'footPlacement.setContactTrack',
    args: (f) => [f.track, 0.1, 0.25],
    run: (f, [track, rampIn, rampOut]) => {
      const placement = new tendon.FootPlacement(f.skeleton, f.rig, { ground: f.ground });
      placement.setContactTrack(track, rampIn, rampOut);
      placement.solve(f.pose, f.model, world(), 1 / 60, 0.2);
    },
    state: poseState,
  },
  {
    name: 'legLength',
    args: (f) => [tendon.restModelMatrices(f.skeleton), f.rig.legs[0]],
    run: (_, [rest, leg]) => tendon.legLength(rest, leg),
  },
  {
    name: 'new PlaneGround',
    args: () => [
      [0, 0, 0],
      [0, 1, 0],
    ],
    run: (_, [p, n]) => new tendon.PlaneGround(p, n),
  },
  {
    name: 'new ProfileGround',
    args: () => [
      [1, 0],
      [0, 0, 1, 0.2, 2, 0.2],
    ],
    run: (_, [a, p]) => new tendon.ProfileGround(a, p),
  },
  {
    name: 'new HeightfieldGround',
    args: () => [{ originX: 0, originZ: 0, cellSize: 1, columns: 2, rows: 2, heights: [0, 0, 0, 0] }],
    run: (_, [o]) => new tendon.HeightfieldGround(o),
  },
  {
    name: 'new MeshGround',
    args: () => [
      [0, 0, 0, 1, 0, 0, 0, 0, 1],
      [0, 2, 1],
    ],
    run: (_, [p, i]) => new tendon.MeshGround(p, i),
  },
  {
    name: 'ground.raycast',
    args: () => [new Float64Array([0, 1, 0, 0, -1, 0, 5]), new Float64Array(8)],
    run: (f, [ray, hit]) => f.ground.raycast(ray, hit),
  },
  {
    name: 'new FootPlacement',
    args: (f) => [f.skeleton, f.rig, { ground: f.ground, tiltLimit: 0.5 }],
    run: (_, [s, r, o]) => new tendon.FootPlacement(s, r, o),
  },
  {
    name: 'footPlacement.solve',
    args: (f) => [f.pose, f.model, world(), 1 / 60, 0],
    run: (f, [p, m, w, dt, t]) => {
      const placement = new tendon.FootPlacement(f.skeleton, f.rig, { ground: f.ground });
      placement.setContactTrack(tendon.computeContacts(f.clip, f.rig.legs));
      placement.solve(p, m, w, dt, t);
    },
    state: poseState,
  },
  {
    name: 'footPlacement setters',
    args: () => [0.5, 0.2, [0, 0]],
    run: (f, [w, ease, heights]) => {
      const placement = new tendon.FootPlacement(f.skeleton, f.rig, { ground: f.ground });
      placement.setWeight(w, ease);
      placement.setFootHeights(heights);
      placement.setContactTrack(null, ease, ease);
    },
  },
  {
    name: 'new CrowdPlacement',
    args: (f) => [new tendon.Crowd(f.skeleton, 2), f.rig, { ground: f.ground }],
    run: (_, [c, r, o]) => new tendon.CrowdPlacement(c, r, o),
  },
  {
    name: 'crowdPlacement.solve',
    args: () => [1 / 60, 0, 2],
    run: (f, [dt, first, count]) => {
      const crowd = new tendon.Crowd(f.skeleton, 2);
      crowd.setClip(0, f.clip);
      crowd.setClip(1, f.clip);
      crowd.sample();
      crowd.forwardKinematics();
      new tendon.CrowdPlacement(crowd, f.rig, { ground: f.ground }).solve(dt, first, count);
      return crowd.model[20];
    },
  },
  {
    name: 'new CrowdSchedule',
    args: () => [10, { block: 4 }],
    run: (_, [n, o]) => new tendon.CrowdSchedule(n, o),
  },
  {
    name: 'crowdSchedule.plan',
    args: () => [1 / 60],
    run: (_, [dt]) => {
      const schedule = new tendon.CrowdSchedule(10, { block: 4 });
      schedule.periods.fill(3);
      schedule.plan(dt);
      return schedule.plan(dt) + schedule.runSeconds[0];
    },
  },
  {
    name: 'crowdSchedule.restart',
    args: () => [3],
    run: (_, [c]) => {
      const schedule = new tendon.CrowdSchedule(10);
      schedule.plan(1 / 60);
      schedule.restart(c);
      return schedule.plan(1 / 60);
    },
  },
  {
    name: 'new LookAt',
    args: (f) => [f.skeleton, f.rig, { coneAngle: 0.7 }],
    run: (_, [s, r, o]) => new tendon.LookAt(s, r, o),
  },
  {
    name: 'lookAt.solve',
    args: (f) => [f.pose, f.model, [0, 2, 3], world(), 1 / 60],
    run: (f, [p, m, t, w, dt]) => new tendon.LookAt(f.skeleton, f.rig).solve(p, m, t, w, dt),
    state: poseState,
  },
  {
    name: 'lookAt.setWeight',
    args: () => [0.5, 0.3],
    run: (f, [w, e]) => new tendon.LookAt(f.skeleton, f.rig).setWeight(w, e),
  },
  {
    name: 'new LadderClimb',
    args: (f) => [
      f.skeleton,
      f.rig,
      { ladder: { bottom: [0, 0, 0], facing: [0, -1], rungCount: 6, spacing: 0.3 }, standOff: 0.3 },
    ],
    run: (_, [s, r, o]) => new tendon.LadderClimb(s, r, o),
  },
  {
    name: 'ladderClimb.update',
    args: (f) => [f.pose, f.model, 0.05],
    run: (f, [p, m, d]) =>
      new tendon.LadderClimb(f.skeleton, f.rig, {
        ladder: { bottom: [0, 0, 0], facing: [0, -1], rungCount: 6, spacing: 0.3 },
      }).update(p, m, d),
    state: poseState,
  },
  {
    // Each option, hostile, then an update: refused by the constructor, or climbed with finite
    // numbers (never a throw from the update after it moved the climb or the pose).
    name: 'new LadderClimb, then an update',
    args: () => [
      {
        ladder: { bottom: [0, 0, 0], facing: [0, -1], rungCount: 6, spacing: 0.3 },
        scale: 0.5,
        standOff: 0.3,
        arc: 0.08,
        handRungsAbove: 3,
      },
    ],
    run: (f, [o]) => new tendon.LadderClimb(f.skeleton, f.rig, o).update(f.pose, f.model, 1),
    state: poseState,
  },
  {
    name: 'ladderClimb.updateClock',
    args: (f) => [f.pose, f.model, 0.05],
    run: (f, [p, m, d]) => {
      const climb = new tendon.LadderClimb(f.skeleton, f.rig, {
        ladder: { bottom: [0, 0, 0], facing: [0, -1], rungCount: 6, spacing: 0.3 },
      });
      climb.clock[0] = d;
      climb.updateClock(p, m);
    },
    state: poseState,
  },
  {
    name: 'ladderClimb.progress',
    args: () => [2.5],
    run: (f, [progress]) => {
      const climb = new tendon.LadderClimb(f.skeleton, f.rig, {
        ladder: { bottom: [0, 0, 0], facing: [0, -1], rungCount: 6, spacing: 0.3 },
      });
      climb.progress = progress;
      climb.update(f.pose, f.model, 0.05);
    },
    state: poseState,
  },
  {
    name: 'new BarHang',
    args: (f) => [f.skeleton, f.rig, { from: [-1, 2.2, 0], to: [1, 2.2, 0] }],
    run: (_, [s, r, o]) => new tendon.BarHang(s, r, o),
  },
  {
    name: 'barHang.update',
    // Every option too: an option the constructor takes must not reach the pose as a NaN.
    args: (f) => [
      f.pose,
      f.model,
      1 / 60,
      0.01,
      {
        from: [-1, 2.2, 0],
        to: [1, 2.2, 0],
        scale: 1,
        armExtension: 0.9,
        gripWidth: 0.3,
        handStep: 0.3,
        gravity: 9.81,
        damping: 0.15,
      },
    ],
    run: (f, [p, m, dt, move, o]) => new tendon.BarHang(f.skeleton, f.rig, o).update(p, m, dt, move),
    state: poseState,
  },
  {
    name: 'barHang.updateClock',
    args: (f) => [f.pose, f.model],
    run: (f, [p, m]) => {
      const hang = new tendon.BarHang(f.skeleton, f.rig, { from: [-1, 2.2, 0], to: [1, 2.2, 0] });
      hang.clock[0] = 1 / 60;
      hang.clock[1] = 0.01;
      hang.updateClock(p, m);
    },
    state: poseState,
  },
  {
    name: 'barHang.pushBody',
    args: () => [0, 0, 1],
    run: (f, [x, y, z]) =>
      new tendon.BarHang(f.skeleton, f.rig, { from: [-1, 2.2, 0], to: [1, 2.2, 0] }).pushBody(x, y, z),
  },
  {
    name: 'new RungRetarget',
    args: (f) => [
      f.ladderClip,
      f.ladderRig,
      {
        capturedFirstRung: 4.4,
        capturedSpacing: 4.4,
        firstRung: 4,
        spacing: 4,
        stillSpeed: 0.3,
        minDuration: 0.15,
        sampleRate: 60,
      },
    ],
    run: (_, [c, r, o]) => new tendon.RungRetarget(c, r, o),
  },
  {
    name: 'rungRetarget.apply',
    args: (f) => [f.ladderPose, f.ladderModel, 1.5],
    run: (f, [p, m, t]) =>
      new tendon.RungRetarget(f.ladderClip, f.ladderRig, {
        capturedFirstRung: 4.4,
        capturedSpacing: 4.4,
        firstRung: 4,
        spacing: 4,
      }).apply(p, m, t),
    state: (f) => [f.ladderPose.translations, f.ladderPose.rotations, f.ladderModel],
  },
  {
    name: 'rungRetarget.applyClock',
    args: (f) => [f.ladderPose, f.ladderModel, 1.5],
    run: (f, [p, m, t]) => {
      const retarget = new tendon.RungRetarget(f.ladderClip, f.ladderRig, {
        capturedFirstRung: 4.4,
        capturedSpacing: 4.4,
        firstRung: 4,
        spacing: 4,
      });
      retarget.clock[0] = t;
      retarget.applyClock(p, m);
    },
    state: (f) => [f.ladderPose.translations, f.ladderPose.rotations, f.ladderModel],
  },
  {
    name: 'importBvh',
    args: () => [
      'HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 3 Xposition Yposition Zposition\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0\n',
      { scale: 1 },
    ],
    run: (_, [text, o]) => tendon.importBvh(text, o),
  },
];

let fixture: Fixture;

beforeAll(async () => {
  const imported = await tendon.importGltf(readAsset('gltf', 'RobotExpressive.glb'), {
    source: 'RobotExpressive.glb',
  });
  const { skeleton, clips } = imported.skeletons[0];
  const clip = clips.find((c: tendon.Clip) => c.name === 'Walking') as tendon.Clip;
  const pose = new tendon.Pose(skeleton);
  tendon.sampleClip(clip, new tendon.SamplerContext(clip), 0.2, pose);
  const model = tendon.createModelBuffer(skeleton);
  tendon.forwardKinematics(pose, model);
  const ladder = tendon.importBvh(readFileSync(`${assetsDir}bvh/cmu_01_03_climb_ladder_hang.bvh`, 'utf8'));
  const mesh = imported.primitives[0];
  fixture = {
    skeleton,
    rig: tendon.findRig(skeleton),
    clip,
    pose,
    model,
    ground: new tendon.PlaneGround([0, 0, 0], [0, 1, 0]),
    ladderClip: ladder.clip,
    ladderRig: tendon.findRig(ladder.skeleton),
    ladderPose: new tendon.Pose(ladder.skeleton),
    ladderModel: tendon.createModelBuffer(ladder.skeleton),
    mesh,
    skin: mesh.skin,
    palette: mesh.skin.createPalette(),
    track: tendon.computeContacts(clip, tendon.findRig(skeleton).legs),
    weights: new Float64Array(2),
    planted: new Uint8Array(2),
    out: new Float64Array(3),
  };
});

const fresh = (f: Fixture) => {
  // Each call starts from the same animated poses.
  tendon.sampleClip(f.clip, new tendon.SamplerContext(f.clip), 0.2, f.pose);
  tendon.forwardKinematics(f.pose, f.model);
  tendon.sampleClip(f.ladderClip, new tendon.SamplerContext(f.ladderClip), 1.5, f.ladderPose);
  tendon.forwardKinematics(f.ladderPose, f.ladderModel);
};

describeEntrances('every public entrance', ENTRANCES, () => fixture, fresh);
