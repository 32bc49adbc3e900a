/**
 * tendon's side of bench/ik.bench.mjs: one adapter per solver and scenario.
 *
 * An adapter is `{ library, name, run(count), probe(i) }`: `run` does `count` solves cycling
 * through the targets, each one a reset of the solved joints (rotations and model matrices
 * copied from rest), the solve, and a read of the end position; `probe` does one solve for target
 * `i` and returns what the accuracy measures need.
 */
import { Matrix4 } from 'three';
import * as tendon from '../dist/index.js';
import { timedLoop } from './harness.mjs';
import { ARM, CHAIN, HEAD, identityRestLocals, LEG, TARGET_COUNT } from './ik-setup.mjs';

/** A skeleton of an ik-setup.mjs rig with identity rest rotations. */
export function identitySkeleton(rig) {
  const locals = identityRestLocals(rig);
  return tendon.Skeleton.create({
    names: rig.names,
    parents: rig.parents,
    restTranslations: locals.flatMap((l) => l.position),
    restRotations: locals.flatMap((l) => l.quaternion),
  });
}

function build(rig) {
  const skeleton = identitySkeleton(rig);
  const pose = new tendon.Pose(skeleton);
  const model = tendon.createModelBuffer(skeleton);
  tendon.forwardKinematics(pose, model);
  return { skeleton, pose, model, restRotations: pose.rotations.slice(), restModel: model.slice() };
}

/**
 * The reset every tendon scenario does before a solve: the chain's rotations and the model
 * matrices of joints `from … to − 1` copied from rest (the cheapest exact reset; three.js gets
 * the same, quaternions and matrixWorld copied).
 */
function resetter({ pose, model, restRotations, restModel }, from, to) {
  const rotations = pose.rotations;
  return () => {
    for (let k = 4 * from; k < 4 * to; k++) rotations[k] = restRotations[k];
    for (let k = 16 * from; k < 16 * to; k++) model[k] = restModel[k];
  };
}

/** The timed loop (harness.mjs) reading the end joint's x from the model matrices. */
const looped = (solveOne, model, end) => {
  const ex = 16 * end + 12;
  return timedLoop(solveOne, () => model[ex], TARGET_COUNT);
};

const position = (model, j) => [model[16 * j + 12], model[16 * j + 13], model[16 * j + 14]];

// ---------------------------------------------------------------------------------------------

export function tendonLeg(targets, { pole, mode }) {
  const name = `TwoBoneIk ${mode}${pole ? ' + pole' : ''}`;
  const rig = build(LEG);
  const [hip, knee, foot] = LEG.chain;
  const ik = new tendon.TwoBoneIk(rig.skeleton, { root: hip, middle: knee, end: foot, mode });
  const reset = resetter(rig, hip, foot + 1);
  const target = new Float64Array(3);
  const poleModel = pole ? new Float64Array(LEG.pole) : null;
  const { pose, model } = rig;
  const p = targets.positions;
  const solveOne = (k) => {
    reset();
    target[0] = p[3 * k];
    target[1] = p[3 * k + 1];
    target[2] = p[3 * k + 2];
    ik.solve(pose, model, target, poleModel);
  };
  return {
    library: 'tendon',
    name,
    run: looped(solveOne, model, foot),
    rest: {
      thigh: new Matrix4().fromArray(rig.restModel, 16 * hip),
      shin: new Matrix4().fromArray(rig.restModel, 16 * knee),
    },
    probe(i) {
      solveOne(i);
      return {
        end: position(model, foot),
        thigh: new Matrix4().fromArray(model, 16 * hip),
        shin: new Matrix4().fromArray(model, 16 * knee),
        joints: [position(model, hip), position(model, knee), position(model, foot)],
      };
    },
  };
}

export function tendonAim(targets, { up }) {
  const name = up ? 'AimIk + up' : 'AimIk';
  const rig = build(HEAD);
  const head = HEAD.joint;
  const ik = new tendon.AimIk(rig.skeleton, {
    joint: head,
    forward: [0, 0, 1],
    ...(up ? { up: [0, 1, 0] } : {}),
  });
  const reset = resetter(rig, head, HEAD.names.length);
  const target = new Float64Array(3);
  const upModel = up ? new Float64Array([0, 1, 0]) : null;
  const { pose, model } = rig;
  const p = targets.positions;
  const solveOne = (k) => {
    reset();
    target[0] = p[3 * k];
    target[1] = p[3 * k + 1];
    target[2] = p[3 * k + 2];
    ik.solve(pose, model, target, upModel);
  };
  return {
    library: 'tendon',
    name,
    // The head's forward (+Z) axis is what is read: its x is model[16·head + 8].
    run: looped(solveOne, model, head),
    probe(i) {
      solveOne(i);
      const o = 16 * head;
      return { origin: position(model, head), axis: [model[o + 8], model[o + 9], model[o + 10]] };
    },
  };
}

/**
 * A chain solver on the 10-bone chain, or (`limited`) on the arm with joint limits. Both rigs share
 * this solveOne: their solves take microseconds, so the call site's polymorphism (harness.mjs) is
 * lost in them.
 */
export function tendonChain(targets, { solver, maxIterations = 64, limited = false }) {
  const shape = limited ? ARM : CHAIN;
  const name = `${solver} (tolerance 1e-4, ≤ ${maxIterations} it.)`;
  const Solver = { FabrikIk: tendon.FabrikIk, CcdIk: tendon.CcdIk }[solver];
  const rig = build(shape);
  const end = shape.chain.at(-1);
  const ik = new Solver(rig.skeleton, {
    joints: shape.chain,
    tolerance: 1e-4,
    maxIterations,
    ...(limited ? { limits: ARM.limits } : {}),
  });
  const reset = resetter(rig, 0, shape.names.length);
  const target = new Float64Array(3);
  const { pose, model } = rig;
  const p = targets.positions;
  const solveOne = (k) => {
    reset();
    target[0] = p[3 * k];
    target[1] = p[3 * k + 1];
    target[2] = p[3 * k + 2];
    ik.solve(pose, model, target);
  };
  return {
    library: 'tendon',
    name,
    run: looped(solveOne, model, end),
    probe(i) {
      solveOne(i);
      return { end: position(model, end), iterations: ik.status.iterations };
    },
  };
}

/**
 * The floor under every solve of a scenario: the bench's reset, the target read, and the partial
 * forward kinematics (`forwardKinematicsSubtree`) any solver's answer needs, with no solve. Not a
 * solver: the report prints it beside the target, whose time per solve must cover it.
 */
export function tendonFloor(targets, id) {
  const {
    rig: shape,
    joint,
    end,
    from,
    to,
  } = {
    leg: { rig: LEG, joint: LEG.chain[0], end: LEG.chain[2], from: LEG.chain[0], to: LEG.chain[2] + 1 },
    aim: { rig: HEAD, joint: HEAD.joint, end: HEAD.joint, from: HEAD.joint, to: HEAD.names.length },
    chain: { rig: CHAIN, joint: 0, end: CHAIN.chain.at(-1), from: 0, to: CHAIN.names.length },
    limits: { rig: ARM, joint: ARM.chain[0], end: ARM.chain.at(-1), from: 0, to: ARM.names.length },
  }[id];
  const rig = build(shape);
  const reset = resetter(rig, from, to);
  const target = new Float64Array(3);
  const { pose, model } = rig;
  const p = targets.positions;
  // Written out as every adapter's is: one shared solveOne would share V8's type feedback across
  // adapters (see harness.mjs's timedLoop) and time their polymorphism.
  const solveOne = (k) => {
    reset();
    target[0] = p[3 * k];
    target[1] = p[3 * k + 1];
    target[2] = p[3 * k + 2];
    tendon.forwardKinematicsSubtree(pose, model, joint);
  };
  return {
    library: 'tendon',
    name: 'floor: reset + partial FK, no solve',
    floor: true,
    run: looped(solveOne, model, end),
  };
}
