/**
 * Chains with joint limits: how many targets the limits allow FabrikIk and CcdIk reach, and in how
 * many iterations. Seeded, so every run prints the same numbers (it measures convergence, not
 * time). The scenarios are those of test/ik/fabrik.test.ts, at more targets:
 *
 *   arm     shoulder cone (1.2 rad, twist ±0.5), elbow hinge [0, 2.5], wrist cone 0.6, bones of 1:
 *           targets where the end is in a random pose within the limits, the chain starting from
 *           another;
 *   arm@s   the same arm, the target pose's elbow and wrist bends scaled so that the end is at
 *           s of the reach (0.9 … 0.999);
 *   zigzag  three 1.2-rad cones started bent at random, the target straight ahead at 0.8 of the
 *           reach;
 *   robot   a real rig: RobotExpressive's right arm (../shared/assets), clavicle cone 0.3 rad
 *           (twist ±0.3), shoulder cone 1.2 (twist ±0.8), elbow hinge about its rest bend from
 *           straight to 2.5 rad, the wrist the end: targets and starts as for the arm.
 *
 * Run: node bench/limits.mjs   (after npm run build)
 */
import { readFileSync } from 'node:fs';
import {
  CcdIk,
  createModelBuffer,
  FabrikIk,
  forwardKinematics,
  importGltf,
  Pose,
  Skeleton,
} from '../dist/index.js';

/** A seeded linear congruential generator of numbers in [0, 1) (the tests' lcg). */
function lcg(seed) {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

/** The quaternion product `a · b` (b's turn first). */
const multiply = (a, b) => [
  a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
  a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
  a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
];

function turnAbout(axis, angle) {
  const s = Math.sin(angle / 2) / Math.hypot(axis[0], axis[1], axis[2]);
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

/** Sets the chain's rotations (normalized) and runs forward kinematics. */
function setter(pose, model, chain) {
  return (rotations) => {
    rotations.forEach((q, i) => {
      const n = Math.hypot(...q);
      pose.rotations.set(
        q.map((x) => x / n),
        4 * chain[i],
      );
    });
    forwardKinematics(pose, model);
  };
}

/** A parent, a 3-bone chain of bones of 1 along +Y, and a leaf: test/helpers/chains.ts's buildRig(3). */
function rig() {
  const skeleton = Skeleton.create({
    names: ['parent', 'j0', 'j1', 'j2', 'j3', 'leaf'],
    parents: [-1, 0, 1, 2, 3, 4],
    restTranslations: [0, 0, 0, 0.3, 0.5, -0.2, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0.25, 0],
  });
  const pose = new Pose(skeleton);
  const model = createModelBuffer(skeleton);
  const chain = [1, 2, 3, 4];
  const set = setter(pose, model, chain);
  const end = 16 * chain[3] + 12;
  const span = () =>
    Math.hypot(model[end] - model[28], model[end + 1] - model[29], model[end + 2] - model[30]);
  return { skeleton, pose, model, chain, set, end, span };
}

const ARM = [
  { kind: 'cone', angle: 1.2, twistMin: -0.5, twistMax: 0.5 },
  { kind: 'hinge', axis: [1, 0, 0], min: 0, max: 2.5 },
  { kind: 'cone', angle: 0.6 },
  null,
];

function solvers(r, limits, maxIterations, tolerance) {
  const options = { joints: r.chain, limits, maxIterations, ...(tolerance ? { tolerance } : {}) };
  return [
    ['FabrikIk', new FabrikIk(r.skeleton, options)],
    ['CcdIk', new CcdIk(r.skeleton, options)],
  ];
}

/** Runs `cases` (each `() => [target, start] | null`) through every solver; prints misses and mean iterations. */
function report(label, r, limits, cap, makeCases, count, tolerance) {
  for (const [name, ik] of solvers(r, limits, cap, tolerance)) {
    const next = makeCases();
    let missed = 0;
    let iterations = 0;
    for (let k = 0; k < count; k++) {
      const [target, start] = next();
      r.set(start);
      const status = ik.solve(r.pose, r.model, target);
      if (!status.reached) missed++;
      iterations += status.iterations;
    }
    const share = ((100 * missed) / count).toFixed(1).padStart(5);
    console.log(
      `${label.padEnd(12)} | ${name.padEnd(8)} | ${String(cap).padStart(3)} | ${share}% | ${(iterations / count).toFixed(1).padStart(6)}`,
    );
  }
}

const r = rig();
console.log('chains with joint limits: targets missed and mean iterations (seeded, tolerance 1e-4)');
console.log('scenario     | solver   | cap | missed | mean it.');
console.log('-------------|----------|-----|--------|---------');

// The random arm, as in the test "reaches targets the limits allow".
const randomArm = () => {
  const random = lcg(5);
  const direction = () => {
    for (;;) {
      const v = [2 * random() - 1, 2 * random() - 1, 2 * random() - 1];
      const n = Math.hypot(...v);
      if (n > 0.1 && n < 1) return v.map((x) => x / n);
    }
  };
  const within = (limit) => {
    if (limit === null) return turnAbout(direction(), 1.2 * random());
    if (limit.kind === 'hinge') return turnAbout(limit.axis, limit.max * random());
    const tw = turnAbout([0, 1, 0], limit.twistMin + random() * (limit.twistMax - limit.twistMin));
    const u = direction();
    return multiply(turnAbout([u[2], 0, -u[0]], 0.95 * limit.angle * random()), tw);
  };
  const limits = [
    { ...ARM[0], twistMin: -0.5, twistMax: 0.5 },
    ARM[1],
    { ...ARM[2], twistMin: -1, twistMax: 1 },
    null,
  ];
  return () => {
    r.set(limits.map(within));
    const target = r.model.slice(r.end, r.end + 3);
    return [target, limits.map(within)];
  };
};
for (const cap of [64, 200]) report('arm', r, ARM, cap, randomArm, 1000, 1e-4);

// The arm at a share of its reach, as in the tests "an arm at … of its reach".
const armAt = (share) => () => {
  const random = lcg(7);
  const armPose = () => {
    const shoulder = turnAbout([random() - 0.5, 0, random() - 0.5], 1.1 * random());
    const elbow = 2.4 * random();
    const wristAxis = [random() - 0.5, 0, random() - 0.5];
    const wrist = 0.55 * random();
    return (f) => [shoulder, turnAbout([1, 0, 0], f * elbow), turnAbout(wristAxis, f * wrist), [0, 0, 0, 1]];
  };
  return () => {
    for (;;) {
      const bent = armPose();
      const start = armPose()(1);
      r.set(bent(1));
      if (r.span() > 3 * share) continue;
      let [lo, hi] = [0, 1];
      for (let i = 0; i < 60; i++) {
        const mid = (lo + hi) / 2;
        r.set(bent(mid));
        if (r.span() > 3 * share) lo = mid;
        else hi = mid;
      }
      r.set(bent(hi));
      return [r.model.slice(r.end, r.end + 3), start];
    }
  };
};
for (const share of [0.9, 0.95, 0.99, 0.999]) report(`arm@${share}`, r, ARM, 64, armAt(share), 200);

// The zigzag.
const cone = { kind: 'cone', angle: 1.2 };
const zigzag = () => {
  const random = lcg(3);
  const target = Float64Array.from([0.3, 0.5 + 2.4, -0.2]);
  return () => [
    target,
    [0, 1, 2]
      .map(() => turnAbout([random() - 0.5, 0, random() - 0.5], 1.14 * random()))
      .concat([[0, 0, 0, 1]]),
  ];
};
report('zigzag', r, [cone, cone, cone, null], 64, zigzag, 200);

// A real rig: RobotExpressive's right arm, whose rest pose is bent and whose bones lie along their
// joints' +Y with rotated rest frames. Limits relative to rest, the elbow's hinge about the rest bend.
const robot = await (async () => {
  const bytes = readFileSync(new URL('../../shared/assets/gltf/RobotExpressive.glb', import.meta.url));
  const { skeleton } = (await importGltf(new Uint8Array(bytes))).skeletons[0];
  const pose = new Pose(skeleton);
  const model = createModelBuffer(skeleton);
  forwardKinematics(pose, model);
  const chain = ['Shoulder.R', 'UpperArm.R', 'LowerArm.R', 'Palm2.R'].map((n) => skeleton.jointIndex(n));
  const at = (j) => [0, 1, 2].map((c) => model[16 * j + 12 + c]);
  const [, shoulder, elbow, wrist] = chain.map(at);
  const u = shoulder.map((x, c) => elbow[c] - x);
  const w = elbow.map((x, c) => wrist[c] - x);
  const n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
  // The bend normal in the elbow's own frame (its model matrix's columns, normalized).
  const axis = [0, 1, 2].map((c) => {
    const col = [0, 1, 2].map((r) => model[16 * chain[2] + 4 * c + r]);
    return (col[0] * n[0] + col[1] * n[1] + col[2] * n[2]) / Math.hypot(...col) / Math.hypot(...n);
  });
  const bend = Math.acos((u[0] * w[0] + u[1] * w[1] + u[2] * w[2]) / Math.hypot(...u) / Math.hypot(...w));
  const limits = [
    { kind: 'cone', angle: 0.3, twistMin: -0.3, twistMax: 0.3 },
    { kind: 'cone', angle: 1.2, twistMin: -0.8, twistMax: 0.8 },
    { kind: 'hinge', axis, min: -bend, max: 2.5 - bend },
    null,
  ];
  const rest = chain.map((j) => Array.from(skeleton.restRotations.subarray(4 * j, 4 * j + 4)));
  // Cone axes as the solver defaults them: toward the next chain joint, in the joint's own frame.
  const coneAxis = (i) => {
    const t = Array.from(skeleton.restTranslations.subarray(3 * chain[i + 1], 3 * chain[i + 1] + 3));
    const l = Math.hypot(...t);
    return t.map((x) => x / l);
  };
  const end = 16 * chain[3] + 12;
  return {
    skeleton,
    pose,
    model,
    chain,
    limits,
    end,
    set: setter(pose, model, chain),
    /** A pose within the limits, each joint's turn from rest drawn as the arm's are. */
    within(random) {
      return limits.map((limit, i) => {
        if (limit === null) return rest[i];
        if (limit.kind === 'hinge')
          return multiply(rest[i], turnAbout(limit.axis, limit.min + (limit.max - limit.min) * random()));
        const a = coneAxis(i);
        const tw = turnAbout(a, limit.twistMin + random() * (limit.twistMax - limit.twistMin));
        // A swing about a random axis across the cone's.
        const v = [random() - 0.5, random() - 0.5, random() - 0.5];
        const k = v[0] * a[0] + v[1] * a[1] + v[2] * a[2];
        const across = v.map((x, c) => x - k * a[c]);
        return multiply(rest[i], multiply(turnAbout(across, 0.95 * limit.angle * random()), tw));
      });
    },
  };
})();
const robotCases = () => {
  const random = lcg(31);
  return () => {
    robot.set(robot.within(random));
    return [robot.model.slice(robot.end, robot.end + 3), robot.within(random)];
  };
};
report('robot arm', robot, robot.limits, 64, robotCases, 500, 1e-4);
