/**
 * The peers of bench/ik.bench.mjs, each on the rig and targets of ik-setup.mjs, with the same
 * adapter shape as ik-tendon.mjs: `{ library, name, run(count), probe(i) }`, or
 * `{ library, name, unavailable: reason }` when a peer cannot run here.
 *
 * Per solve every adapter resets the solved joints to rest with the cheapest exact reset its
 * library offers (three.js: quaternions and matrixWorld copied; Babylon: local rotations set;
 * closed-chain-ik: degree-of-freedom values set), solves, and reads the end position.
 */
import { createRequire, Module } from 'node:module';
import * as babylon from '@babylonjs/core/index.js';
import { DOF, Goal, Joint, Link, Solver } from 'closed-chain-ik/src/core/index.js';
import * as THREE from 'three';
import { CCDIKSolver } from 'three/examples/jsm/animation/CCDIKSolver.js';
import { timedLoop } from './harness.mjs';
import {
  alignedRestLocals,
  CHAIN,
  HEAD,
  identityRestLocals,
  LEG,
  REACH_TOLERANCE,
  TARGET_COUNT,
} from './ik-setup.mjs';

const { Bone, BufferGeometry, Group, Matrix4, Quaternion, Skeleton, SkinnedMesh, Vector3 } = THREE;

/** The timed loop (harness.mjs): `solveOne(k)` per target, `readX()` summed into a sink. */
const looped = (solveOne, readX) => timedLoop(solveOne, readX, TARGET_COUNT);

// ---------------------------------------------------------------------------------------------
// three.js rigs

/** Bones of `rig` with the given rest locals, under a SkinnedMesh (CCDIKSolver reads mesh.skeleton). */
function threeRig(rig, locals, extraBones = 0) {
  const bones = locals.map(({ position, quaternion }, j) => {
    const bone = new Bone();
    bone.name = rig.names[j];
    bone.position.fromArray(position);
    bone.quaternion.fromArray(quaternion);
    return bone;
  });
  const mesh = new SkinnedMesh(new BufferGeometry());
  rig.parents.forEach((parent, j) => {
    (parent < 0 ? mesh : bones[parent]).add(bones[j]);
  });
  for (let i = 0; i < extraBones; i++) {
    const extra = new Bone();
    mesh.add(extra);
    bones.push(extra);
  }
  mesh.updateMatrixWorld(true);
  mesh.bind(new Skeleton(bones));
  return { mesh, bones };
}

/** three's cheapest exact reset of `bones`: local position and quaternion, and matrixWorld. */
function threeResetter(bones) {
  const rest = bones.map((b) => ({
    position: b.position.clone(),
    quaternion: b.quaternion.clone(),
    matrixWorld: b.matrixWorld.clone(),
  }));
  return () => {
    for (let i = 0; i < bones.length; i++) {
      bones[i].position.copy(rest[i].position);
      bones[i].quaternion.copy(rest[i].quaternion);
      bones[i].matrixWorld.copy(rest[i].matrixWorld);
    }
  };
}

const translationOf = (matrix) => [matrix.elements[12], matrix.elements[13], matrix.elements[14]];

function legProbe(thighWorld, shinWorld, hip, knee, foot) {
  return { end: foot, thigh: thighWorld, shin: shinWorld, joints: [hip, knee, foot] };
}

// ---------------------------------------------------------------------------------------------
// three.js CCDIKSolver

/**
 * three's CCD on a SkinnedMesh; the target is an extra bone. For the leg the knee gets the
 * hinge `limitation` (as MMD rigs do: without it CCD bends the knee any way).
 */
export function threeCcd(scenario, targets, iteration) {
  const rig = scenario === 'leg' ? LEG : CHAIN;
  const { mesh, bones } = threeRig(rig, identityRestLocals(rig), 1);
  const targetBone = bones.at(-1);
  const chain = rig.chain;
  const effector = chain.at(-1);
  const links = chain
    .slice(0, -1)
    .reverse()
    .map((index) => ({ index }));
  if (scenario === 'leg') links[0].limitation = new Vector3(...LEG.hinge);
  const solver = new CCDIKSolver(mesh, [{ target: bones.length - 1, effector, links, iteration }]);
  const reset = threeResetter(chain.map((j) => bones[j]));
  const p = targets.positions;
  const solveOne = (k) => {
    reset();
    targetBone.position.set(p[3 * k], p[3 * k + 1], p[3 * k + 2]);
    targetBone.updateMatrixWorld();
    solver.update();
  };
  const e = bones[effector].matrixWorld.elements;
  const [hip, knee] = chain.map((j) => bones[j].matrixWorld.clone());
  return {
    library: 'three.js',
    rest: { thigh: hip, shin: knee },
    name: `CCDIKSolver ${iteration} it.${scenario === 'leg' ? ', knee limitation' : ''}`,
    run: looped(solveOne, () => e[12]),
    probe(i) {
      solveOne(i);
      if (scenario !== 'leg') return { end: translationOf(bones[effector].matrixWorld) };
      const [h, k, f] = chain.map((j) => bones[j].matrixWorld);
      return legProbe(h.clone(), k.clone(), translationOf(h), translationOf(k), translationOf(f));
    },
  };
}

// ---------------------------------------------------------------------------------------------
// the textbook closed form, in plain three.js Vector3 / Quaternion objects

/**
 * The two-bone solver most code bases start from: law of cosines with Math.acos for the hip
 * angle, the thigh turned toward the pole about (target × pole) with applyAxisAngle, then each
 * bone's world rotation as Quaternion.setFromUnitVectors from its rest direction (which leaves
 * the twist to chance). Rest rotations are identity, so world rotations are the bones' frames.
 */
export function textbookLeg(targets) {
  const [hipP, kneeP, footP] = LEG.chain.map((j) => new Vector3(...LEG.points[j]));
  const l1 = hipP.distanceTo(kneeP);
  const l2 = kneeP.distanceTo(footP);
  const restThigh = kneeP.clone().sub(hipP).normalize();
  const restShin = footP.clone().sub(kneeP).normalize();
  const pole = new Vector3(...LEG.pole);
  const s = {
    target: new Vector3(),
    toTarget: new Vector3(),
    axis: new Vector3(),
    thighDir: new Vector3(),
    shinDir: new Vector3(),
    current: new Vector3(),
    knee: new Vector3(),
    foot: new Vector3(),
    qThigh: new Quaternion(),
    qShin: new Quaternion(),
    delta: new Quaternion(),
  };
  const p = targets.positions;
  const solveOne = (k) => {
    s.qThigh.identity(); // the reset: rest rotations
    s.qShin.identity();
    s.target.set(p[3 * k], p[3 * k + 1], p[3 * k + 2]);
    s.toTarget.subVectors(s.target, hipP);
    const d = Math.min(Math.max(s.toTarget.length(), Math.abs(l1 - l2) + 1e-9), l1 + l2);
    s.toTarget.normalize();
    const cosHip = Math.min(1, Math.max(-1, (l1 * l1 + d * d - l2 * l2) / (2 * l1 * d)));
    s.axis.subVectors(pole, hipP).cross(s.toTarget).negate().normalize();
    s.thighDir.copy(s.toTarget).applyAxisAngle(s.axis, Math.acos(cosHip));
    s.knee.copy(hipP).addScaledVector(s.thighDir, l1);
    s.shinDir.copy(hipP).addScaledVector(s.toTarget, d).sub(s.knee).normalize();
    s.qThigh.setFromUnitVectors(restThigh, s.thighDir);
    s.current.copy(restShin).applyQuaternion(s.qThigh);
    s.delta.setFromUnitVectors(s.current, s.shinDir);
    s.qShin.multiplyQuaternions(s.delta, s.qThigh);
    s.foot.copy(s.knee).addScaledVector(s.shinDir, l2);
  };
  return {
    library: 'plain JS',
    rest: { thigh: new Matrix4(), shin: new Matrix4() },
    name: 'textbook closed form (acos, three Vector3/Quaternion)',
    run: looped(solveOne, () => s.foot.x),
    probe(i) {
      solveOne(i);
      return legProbe(
        new Matrix4().makeRotationFromQuaternion(s.qThigh),
        new Matrix4().makeRotationFromQuaternion(s.qShin),
        hipP.toArray(),
        s.knee.toArray(),
        s.foot.toArray(),
      );
    },
  };
}

// ---------------------------------------------------------------------------------------------
// three.js Object3D.lookAt

export function threeLookAt(targets) {
  const { bones } = threeRig(HEAD, identityRestLocals(HEAD));
  const head = bones[HEAD.joint];
  const reset = threeResetter(bones.slice(HEAD.joint));
  const p = targets.positions;
  const solveOne = (k) => {
    reset();
    head.lookAt(p[3 * k], p[3 * k + 1], p[3 * k + 2]);
    head.updateMatrixWorld(); // the partial FK: the head's subtree
  };
  const e = head.matrixWorld.elements;
  return {
    library: 'three.js',
    name: 'Object3D.lookAt on the head bone',
    run: looped(solveOne, () => e[8]),
    probe(i) {
      solveOne(i);
      return { origin: [e[12], e[13], e[14]], axis: [e[8], e[9], e[10]] };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Babylon.js (NullEngine)

let babylonScene = null;
function babylonSceneOnce() {
  if (babylonScene === null) {
    // NullEngine prints a banner through Logger; keep stdout for the table.
    babylon.Logger.LogLevels = babylon.Logger.WarningLogLevel | babylon.Logger.ErrorLogLevel;
    babylonScene = new babylon.Scene(new babylon.NullEngine());
  }
  return babylonScene;
}

/** Babylon bones from rest locals (three's Matrix4.elements and Babylon's Matrix.m share a layout). */
function babylonRig(rig, locals) {
  const scene = babylonSceneOnce();
  const mesh = new babylon.TransformNode(`${rig.names[0]}-mesh`, scene);
  const skeleton = new babylon.Skeleton(`${rig.names[0]}-skeleton`, rig.names[0], scene);
  const bones = [];
  locals.forEach(({ position, quaternion }, j) => {
    const local = new Matrix4().compose(
      new Vector3(...position),
      new Quaternion(...quaternion),
      new Vector3(1, 1, 1),
    );
    const parent = rig.parents[j] < 0 ? null : bones[rig.parents[j]];
    bones.push(new babylon.Bone(rig.names[j], skeleton, parent, babylon.Matrix.FromArray(local.elements)));
  });
  skeleton.computeAbsoluteMatrices(true);
  return { mesh, skeleton, bones };
}

const babylonMatrix = (bone) => new Matrix4().fromArray(bone.getAbsoluteMatrix().m);

/**
 * BoneIKController wants bones along +Y bending about local Z (it overwrites the thigh's world
 * rotation with a frame whose Y points at the target and the knee's local rotation with a turn
 * about its bend axis), so its rig has those frames at the same joint positions. The pole is given
 * as a position (no pole mesh or bone); poleAngle π puts the knee on the pole's side.
 */
export function babylonLeg(targets) {
  const { mesh, skeleton, bones } = babylonRig(LEG, alignedRestLocals(LEG, 'y', 'z'));
  const [hip, knee, foot] = LEG.chain.map((j) => bones[j]);
  const controller = new babylon.BoneIKController(mesh, knee);
  controller.poleTargetPosition.copyFromFloats(...LEG.pole);
  controller.poleAngle = Math.PI;
  const restHip = hip.rotationQuaternion.clone();
  const restKnee = knee.rotationQuaternion.clone();
  const out = new babylon.Vector3();
  const rest = { thigh: babylonMatrix(hip), shin: babylonMatrix(knee) };
  const p = targets.positions;
  const solveOne = (k) => {
    hip.setRotationQuaternion(restHip, babylon.Space.LOCAL);
    knee.setRotationQuaternion(restKnee, babylon.Space.LOCAL);
    controller.targetPosition.copyFromFloats(p[3 * k], p[3 * k + 1], p[3 * k + 2]);
    controller.update();
    foot.getAbsolutePositionToRef(mesh, out);
  };
  return {
    library: 'Babylon.js',
    rest,
    name: `BoneIKController + pole (v${babylon.Engine.Version}, float32 matrices)`,
    run: looped(solveOne, () => out.x),
    probe(i) {
      solveOne(i);
      skeleton.computeAbsoluteMatrices(true);
      const [h, k, f] = [hip, knee, foot].map(babylonMatrix);
      return legProbe(h, k, translationOf(h), translationOf(k), translationOf(f));
    },
  };
}

/** BoneLookController turns the bone's +Z toward the target, keeping the mesh's +Y up. */
export function babylonLook(targets) {
  const { mesh, skeleton, bones } = babylonRig(HEAD, identityRestLocals(HEAD));
  const head = bones[HEAD.joint];
  const target = new babylon.Vector3();
  const controller = new babylon.BoneLookController(mesh, head, target);
  const rest = head.rotationQuaternion.clone();
  const out = new babylon.Vector3();
  const forward = new babylon.Vector3(0, 0, 1);
  const p = targets.positions;
  const solveOne = (k) => {
    head.setRotationQuaternion(rest, babylon.Space.LOCAL);
    target.copyFromFloats(p[3 * k], p[3 * k + 1], p[3 * k + 2]);
    controller.update();
    head.getDirectionToRef(forward, mesh, out);
  };
  return {
    library: 'Babylon.js',
    name: 'BoneLookController',
    run: looped(solveOne, () => out.x),
    probe(i) {
      solveOne(i);
      skeleton.computeAbsoluteMatrices(true);
      const e = babylonMatrix(head).elements;
      return { origin: [e[12], e[13], e[14]], axis: [e[8], e[9], e[10]] };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// three-ik

/**
 * three-ik 0.1.0 (2018) imports `Math` and `ConeBufferGeometry` from three and calls
 * `Matrix4.getInverse`; three r187 has none of them (MathUtils since r113, ConeGeometry since
 * r125, invert() since r123), so its ESM build fails to link and its CJS build throws on load.
 * Load the CJS build against a `three` that is the real one (the same instance as the rest of the
 * bench) plus those three names, through the require cache, for three-ik only.
 */
let threeIk = null;
function loadThreeIk() {
  if (threeIk !== null) return threeIk;
  const require = createRequire(import.meta.url);
  const threePath = require.resolve('three');
  class Matrix4WithGetInverse extends Matrix4 {
    getInverse(m) {
      return this.copy(m).invert();
    }
  }
  const shim = new Module(threePath);
  shim.filename = threePath;
  shim.loaded = true;
  shim.exports = {
    ...THREE,
    Math: THREE.MathUtils,
    ConeBufferGeometry: THREE.ConeGeometry,
    Matrix4: Matrix4WithGetInverse,
  };
  const previous = require.cache[threePath];
  require.cache[threePath] = shim;
  try {
    threeIk = require('three-ik');
  } finally {
    if (previous === undefined) delete require.cache[threePath];
    else require.cache[threePath] = previous;
  }
  return threeIk;
}

/**
 * three-ik's FABRIK. Its `IK.solve()` does one backward/forward pass per call (the iteration count
 * and tolerance of IKChain are never read), so the bench calls it until the end is within
 * tolerance or `cap` passes. It orients bones along +Z (setQuaternionFromDirection with +Y up)
 * and rewrites bone positions as well as rotations, so its rig has +Z bones and the reset copies
 * positions too.
 */
export function threeIkFabrik(scenario, targets, cap) {
  const { IK, IKChain, IKJoint } = loadThreeIk();
  const rig = scenario === 'leg' ? LEG : CHAIN;
  const { mesh, bones } = threeRig(rig, alignedRestLocals(rig, 'z', 'x'));
  const goal = new Group();
  const scene = new Group();
  scene.add(mesh, goal);
  scene.updateMatrixWorld(true);
  const ik = new IK();
  const chain = new IKChain();
  rig.chain.forEach((j, i) => {
    const last = i === rig.chain.length - 1;
    chain.add(new IKJoint(bones[j]), last ? { target: goal } : {});
  });
  ik.add(chain);
  const chainBones = rig.chain.map((j) => bones[j]);
  const reset = threeResetter(chainBones);
  const e = chainBones.at(-1).matrixWorld.elements;
  const iterations = new Int32Array(1);
  const rest = { thigh: chainBones[0].matrixWorld.clone(), shin: chainBones[1].matrixWorld.clone() };
  const p = targets.positions;
  const solveOne = (k) => {
    reset();
    const x = p[3 * k];
    const y = p[3 * k + 1];
    const z = p[3 * k + 2];
    goal.position.set(x, y, z);
    goal.updateMatrixWorld();
    let it = 0;
    while (it < cap) {
      ik.solve();
      it++;
      if (Math.hypot(e[12] - x, e[13] - y, e[14] - z) <= REACH_TOLERANCE) break;
    }
    iterations[0] = it;
  };
  return {
    library: 'three-ik',
    rest,
    name: `FABRIK (IK.solve() to 1e-4, ≤ ${cap} passes)`,
    run: looped(solveOne, () => e[12]),
    probe(i) {
      solveOne(i);
      if (scenario !== 'leg') return { end: [e[12], e[13], e[14]], iterations: iterations[0] };
      const [h, k, f] = chainBones.map((b) => b.matrixWorld);
      return legProbe(h.clone(), k.clone(), translationOf(h), translationOf(k), translationOf(f));
    },
  };
}

// ---------------------------------------------------------------------------------------------
// closed-chain-ik

/**
 * closed-chain-ik (damped least squares on a Jacobian, for robots and closed loops) on the leg:
 * a 3-DoF Euler joint at the hip, a 1-DoF hinge about X at the knee, a position-only Goal closed
 * on the foot link. Its package has "module" but no "main"/"exports", so Node cannot import the
 * bare name: the core is imported by path (the package root also pulls in three/urdf helpers).
 */
export function closedChainLeg(targets, { maxIterations }) {
  const [hipP, kneeP, footP] = LEG.chain.map((j) => LEG.points[j]);
  const base = new Link();
  base.setPosition(...hipP);
  const hipJoint = new Joint();
  hipJoint.setDoF(DOF.EX, DOF.EY, DOF.EZ);
  const thigh = new Link();
  const kneeJoint = new Joint();
  kneeJoint.setDoF(DOF.EX);
  kneeJoint.setPosition(kneeP[0] - hipP[0], kneeP[1] - hipP[1], kneeP[2] - hipP[2]);
  const shin = new Link();
  const ankleJoint = new Joint(); // fixed: no degree of freedom
  ankleJoint.setPosition(footP[0] - kneeP[0], footP[1] - kneeP[1], footP[2] - kneeP[2]);
  const foot = new Link();
  base.addChild(hipJoint);
  hipJoint.addChild(thigh);
  thigh.addChild(kneeJoint);
  kneeJoint.addChild(shin);
  shin.addChild(ankleJoint);
  ankleJoint.addChild(foot);
  const goal = new Goal();
  goal.setDoF(DOF.X, DOF.Y, DOF.Z);
  goal.makeClosure(foot);
  const solver = new Solver([base, goal]);
  solver.maxIterations = maxIterations;
  solver.translationConvergeThreshold = REACH_TOLERANCE;
  const out = new Float64Array(3);
  const frames = () =>
    [thigh, shin, foot].map((link) => {
      link.updateMatrixWorld();
      return new Matrix4().fromArray(link.matrixWorld);
    });
  const [restThigh, restShin] = frames();
  const p = targets.positions;
  const solveOne = (k) => {
    hipJoint.setDoFValues(0, 0, 0);
    kneeJoint.setDoFValues(0);
    goal.setPosition(p[3 * k], p[3 * k + 1], p[3 * k + 2]);
    solver.solve();
    foot.getWorldPosition(out);
  };
  return {
    library: 'closed-chain-ik',
    rest: { thigh: restThigh, shin: restShin },
    name: `Solver (DLS, ≤ ${maxIterations} it., converge 1e-4)`,
    run: looped(solveOne, () => out[0]),
    probe(i) {
      solveOne(i);
      const [t, s] = frames();
      return legProbe(t, s, translationOf(t), translationOf(s), [...out]);
    },
  };
}
