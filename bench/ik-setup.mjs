/**
 * What every library in bench/ik.bench.mjs shares: the rigs (as joint positions in model space,
 * +Y up, the character facing +Z), the seeded targets, and the accuracy measures.
 *
 * Each library then builds the rig in its own terms (tendon and three.js with identity rest
 * rotations, Babylon with bones along +Y, three-ik with bones along +Z): the joint positions are the
 * same to rounding, the bone frames are what each library needs.
 */
import { Matrix4, Quaternion, Vector3 } from 'three';

export const TARGET_COUNT = 10_000;
/** End error that counts as reached: 0.1 mm (the rigs are in metres). */
export const REACH_TOLERANCE = 1e-4;
/** A knee is on its hinge when its rotation from rest leaves the hinge axis by at most this. */
export const HINGE_TOLERANCE_RAD = 1e-6;
const OUT_OF_REACH_SHARE = 0.1;

/** mulberry32: a tiny seeded PRNG, so every library gets the same targets in every run. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------------------------
// rigs

const deg = Math.PI / 180;

/** Leg: pelvis (not solved), hip → knee → foot, thigh 0.45, shin 0.42, knee bent 20° forward. */
export const LEG = (() => {
  const pelvis = [0, 1, 0];
  const hip = [0.1, 1, 0];
  const knee = add(hip, scale([0, -Math.cos(10 * deg), Math.sin(10 * deg)], 0.45));
  const foot = add(knee, scale([0, -Math.cos(10 * deg), -Math.sin(10 * deg)], 0.42));
  return {
    names: ['pelvis', 'hip', 'knee', 'foot'],
    parents: [-1, 0, 1, 2],
    points: [pelvis, hip, knee, foot],
    chain: [1, 2, 3],
    // Bend-plane normal (thigh × shin): the knee's rest hinge, a positive turn about it bends forward.
    hinge: [1, 0, 0],
    // A point in front of the knee: every library that takes a pole gets this one.
    pole: add(hip, [0, -0.4, 1]),
    reach: 0.87,
  };
})();

/** 10 bones of 0.1, each turned 4° further forward than the one before: 11 joints, tip last. */
export const CHAIN = (() => {
  const points = [[0, 0, 0]];
  for (let i = 0; i < 10; i++) {
    const a = 4 * deg * (i + 1);
    points.push(add(points[i], scale([0, Math.cos(a), Math.sin(a)], 0.1)));
  }
  return {
    names: points.map((_, i) => `b${i}`),
    parents: points.map((_, i) => i - 1),
    points,
    chain: points.map((_, i) => i),
    hinge: [1, 0, 0],
    reach: 1,
  };
})();

/**
 * An arm with joint limits, bench/limits.mjs's at 0.3 of its size: a parent, then shoulder → elbow →
 * wrist → hand tip along +Y, bones of 0.3 m, the tip the end effector (reach 0.9 m). Limits, relative
 * to rest (identity rotations): shoulder cone 1.2 rad with twist ±0.5, elbow hinge about +X over
 * [0, 2.5] (at rest it is straight, on its limit), wrist cone 0.6 rad.
 */
export const ARM = (() => {
  const points = [
    [0, 0, 0],
    [0.09, 0.15, -0.06],
  ];
  for (let i = 0; i < 3; i++) points.push(add(points.at(-1), [0, 0.3, 0]));
  return {
    names: ['parent', 'shoulder', 'elbow', 'wrist', 'tip'],
    parents: [-1, 0, 1, 2, 3],
    points,
    chain: [1, 2, 3, 4],
    limits: [
      { kind: 'cone', angle: 1.2, twistMin: -0.5, twistMax: 0.5 },
      { kind: 'hinge', axis: [1, 0, 0], min: 0, max: 2.5 },
      { kind: 'cone', angle: 0.6 },
      null,
    ],
    reach: 0.9,
  };
})();

/** Neck → head → nose: the head looks along +Z (toward the nose). */
export const HEAD = {
  names: ['neck', 'head', 'nose'],
  parents: [-1, 0, 1],
  points: [
    [0, 1.5, 0],
    [0, 1.6, 0],
    [0, 1.6, 0.1],
  ],
  joint: 1,
};

/**
 * Local translations with identity rest rotations (the rig tendon, three.js CCD and the JS baseline
 * use): each joint sits at its offset from its parent.
 */
export function identityRestLocals(rig) {
  return rig.points.map((p, j) => {
    const parent = rig.parents[j];
    return {
      position: parent < 0 ? [...p] : sub(p, rig.points[parent]),
      quaternion: [0, 0, 0, 1],
    };
  });
}

/**
 * Local transforms of a rig whose bone frames have `boneAxis` ('y' or 'z') along the segment to the
 * next joint of the chain and `sideAxis` along the rig's hinge (Babylon wants bones along +Y and
 * bends about local Z; three-ik orients bones along +Z). Joints past the chain keep their parent's frame.
 */
export function alignedRestLocals(rig, boneAxis, sideAxis) {
  const worlds = rig.points.map((p, j) => {
    const next = rig.points.findIndex((_, k) => rig.parents[k] === j);
    const from = next < 0 ? rig.points[rig.parents[j]] : p;
    const to = next < 0 ? p : rig.points[next];
    return frameMatrix(p, normalize(sub(to, from)), rig.hinge, boneAxis, sideAxis);
  });
  return worlds.map((world, j) => {
    const parent = rig.parents[j];
    const local = parent < 0 ? world.clone() : worlds[parent].clone().invert().multiply(world);
    const position = new Vector3();
    const quaternion = new Quaternion();
    local.decompose(position, quaternion, new Vector3());
    return { position: position.toArray(), quaternion: quaternion.toArray() };
  });
}

function frameMatrix(origin, along, hinge, boneAxis, sideAxis) {
  const axes = { x: null, y: null, z: null };
  axes[boneAxis] = new Vector3(...along);
  const side = new Vector3(...hinge);
  side.addScaledVector(axes[boneAxis], -side.dot(axes[boneAxis]));
  // A bone along the hinge (the pelvis → hip offset) has no hinge side: any perpendicular will do.
  if (side.lengthSq() < 1e-12) side.set(0, 1, 0).addScaledVector(axes[boneAxis], -axes[boneAxis].y);
  axes[sideAxis] = side.normalize();
  const third = ['x', 'y', 'z'].find((a) => a !== boneAxis && a !== sideAxis);
  // Right-handed: x = y × z, y = z × x, z = x × y.
  const next = { x: 'y', y: 'z', z: 'x' };
  const [u, v] = [next[third], next[next[third]]];
  axes[third] = new Vector3().crossVectors(axes[u], axes[v]);
  return new Matrix4().makeBasis(axes.x, axes.y, axes.z).setPosition(...origin);
}

// ---------------------------------------------------------------------------------------------
// targets

/**
 * `TARGET_COUNT` targets around `origin`: 90% reachable, uniform in volume between `minR` and
 * `maxR` over directions accepted by `keep`, 10% beyond the reach. Returns xyz triples and a
 * reachable flag per target.
 */
export function seededTargets(seed, origin, { minR, maxR, outMin, outMax, keep }) {
  const random = mulberry32(seed);
  const positions = new Float64Array(3 * TARGET_COUNT);
  const reachable = new Uint8Array(TARGET_COUNT);
  for (let i = 0; i < TARGET_COUNT; i++) {
    let dir;
    do {
      dir = randomDirection(random);
    } while (!keep(dir));
    const inside = random() >= OUT_OF_REACH_SHARE;
    const [lo, hi] = inside ? [minR, maxR] : [outMin, outMax];
    const r = Math.cbrt(lo ** 3 + random() * (hi ** 3 - lo ** 3));
    positions.set(add(origin, scale(dir, r)), 3 * i);
    reachable[i] = inside ? 1 : 0;
  }
  return { positions, reachable };
}

function randomDirection(random) {
  const z = 2 * random() - 1;
  const phi = 2 * Math.PI * random();
  const s = Math.sqrt(1 - z * z);
  return [s * Math.cos(phi), s * Math.sin(phi), z];
}

export const legTargets = () =>
  seededTargets(0x1e6, LEG.points[1], {
    minR: 0.3,
    maxR: 0.86,
    outMin: 0.9,
    outMax: 1.2,
    // Below the hip or a little above it, and not behind the body.
    keep: ([, y, z]) => y < 0.3 && z > -0.3,
  });

export const chainTargets = () =>
  seededTargets(0xc4a1, CHAIN.points[0], {
    minR: 0.2,
    maxR: 0.95,
    outMin: 1.05,
    outMax: 1.4,
    keep: ([, y]) => y > -0.2,
  });

/** Look targets: in front of the head (z > 0), 0.5 to 5 m away. All are "reachable". */
export const headTargets = () =>
  seededTargets(0xa11, HEAD.points[1], {
    minR: 0.5,
    maxR: 5,
    outMin: 0.5,
    outMax: 5,
    keep: ([, , z]) => z > 0,
  });

/**
 * Arm targets: where the tip is in `TARGET_COUNT` seeded poses within {@link ARM}'s limits (all
 * reachable). Each joint turns from rest by a twist about its bone (+Y) within the twist range (the
 * wrist's ±1) and a swing about an axis across it, up to 0.95 of the cone; the elbow by an angle of
 * its hinge's range.
 */
export const armTargets = () => {
  const random = mulberry32(0x11a);
  const positions = new Float64Array(3 * TARGET_COUNT);
  const y = new Vector3(0, 1, 0);
  const turn = (axis, angle) => new Quaternion().setFromAxisAngle(axis.normalize(), angle);
  const within = (limit) => {
    if (limit.kind === 'hinge') return turn(new Vector3(...limit.axis), limit.max * random());
    const [lo, hi] = [limit.twistMin ?? -1, limit.twistMax ?? 1];
    const twist = turn(y.clone(), lo + (hi - lo) * random());
    const across = new Vector3(2 * random() - 1, 0, 2 * random() - 1);
    return turn(across, 0.95 * limit.angle * random()).multiply(twist);
  };
  for (let i = 0; i < TARGET_COUNT; i++) {
    // Forward kinematics along the chain: rest rotations are identity, so each bone's model
    // rotation is the product of the turns above it.
    const rotation = new Quaternion();
    const at = new Vector3(...ARM.points[ARM.chain[0]]);
    for (let k = 0; k + 1 < ARM.chain.length; k++) {
      rotation.multiply(within(ARM.limits[k]));
      const bone = new Vector3(...sub(ARM.points[ARM.chain[k + 1]], ARM.points[ARM.chain[k]]));
      at.add(bone.applyQuaternion(rotation));
    }
    positions.set(at.toArray(), 3 * i);
  }
  return { positions, reachable: new Uint8Array(TARGET_COUNT).fill(1) };
};

// ---------------------------------------------------------------------------------------------
// accuracy

/**
 * End-effector accuracy over a probe of every target: mean and max error over reachable targets,
 * the share of them within REACH_TOLERANCE, and the share of unreachable ones laid straight
 * toward the target (end within REACH_TOLERANCE of the closest point the chain reaches).
 */
export function endAccuracy(targets, ends, root, reach) {
  let sum = 0;
  let max = 0;
  let inside = 0;
  let reached = 0;
  let straight = 0;
  for (let i = 0; i < TARGET_COUNT; i++) {
    const t = targets.positions.subarray(3 * i, 3 * i + 3);
    const e = ends.subarray(3 * i, 3 * i + 3);
    if (targets.reachable[i]) {
      const d = dist(e, t);
      sum += d;
      max = Math.max(max, d);
      inside++;
      if (d <= REACH_TOLERANCE) reached++;
    } else {
      const best = add(root, scale(normalize(sub(t, root)), reach));
      if (dist(e, best) <= REACH_TOLERANCE) straight++;
    }
  }
  const outside = TARGET_COUNT - inside;
  return {
    meanError: sum / inside,
    maxError: max,
    reachedShare: reached / inside,
    straightShare: outside > 0 ? straight / outside : null,
  };
}

/**
 * The knee's rest frames, for {@link kneeOnHinge}: the thigh and shin rotations at rest (model
 * space, from any library's bone matrices) and the hinge in the shin's frame.
 */
export function kneeRest(thighWorld, shinWorld) {
  const qThigh = new Quaternion().setFromRotationMatrix(thighWorld);
  const qShin = new Quaternion().setFromRotationMatrix(shinWorld);
  const relative = qThigh.clone().invert().multiply(qShin);
  const hinge = new Vector3(...LEG.hinge).applyQuaternion(qShin.clone().invert());
  return { relative, hinge };
}

/**
 * Whether the knee turned only about its rest hinge (the rotation of the shin relative to the
 * thigh, compared with rest, leaves the hinge axis by ≤ HINGE_TOLERANCE_RAD) and bends forward
 * (thigh × shin along the hinge, as at rest; a straight leg counts as forward). Works from bone
 * matrices and joint positions, so every library is judged by the frames it skins with.
 */
export function kneeOnHinge(rest, thighWorld, shinWorld, hip, knee, foot) {
  const qThigh = new Quaternion().setFromRotationMatrix(thighWorld);
  const qShin = new Quaternion().setFromRotationMatrix(shinWorld);
  const relative = qThigh.clone().invert().multiply(qShin);
  const d = rest.relative.clone().invert().multiply(relative);
  if (d.w < 0) d.set(-d.x, -d.y, -d.z, -d.w);
  const v = new Vector3(d.x, d.y, d.z);
  const perpendicular = v.clone().addScaledVector(rest.hinge, -v.dot(rest.hinge)).length();
  const onHinge = 2 * Math.asin(Math.min(1, perpendicular)) <= HINGE_TOLERANCE_RAD;
  const hingeModel = rest.hinge.clone().applyQuaternion(qShin);
  const bend = new Vector3()
    .crossVectors(new Vector3(...sub(knee, hip)), new Vector3(...sub(foot, knee)))
    .dot(hingeModel);
  return onHinge && bend >= -1e-9;
}

/** Angle between a model-space axis of the head and the direction from the head to the target. */
export function aimError(origin, axis, target) {
  const want = normalize(sub(target, origin));
  const have = normalize(axis);
  const c = Math.min(1, Math.max(-1, want[0] * have[0] + want[1] * have[1] + want[2] * have[2]));
  // atan2 of |cross| and dot: acos loses everything below ~1e-8 rad.
  const cross = [
    want[1] * have[2] - want[2] * have[1],
    want[2] * have[0] - want[0] * have[2],
    want[0] * have[1] - want[1] * have[0],
  ];
  return Math.atan2(Math.hypot(...cross), c);
}

// small vector helpers for set-up and measurement (never in a timed loop)
export function add(a, b) {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
}
export function sub(a, b) {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
export function scale(a, s) {
  return [a[0] * s, a[1] * s, a[2] * s];
}
export function normalize(a) {
  const l = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / l, a[1] / l, a[2] / l];
}
export function dist(a, b) {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}
