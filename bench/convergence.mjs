/**
 * How fast FabrikIk converges where FABRIK's passes are slow: near full reach, from chains folded
 * along or lying nearly on the line to the target, and with cone limits near full reach. Seeded, so
 * every run prints the same numbers (it measures iterations, not time). The scenarios are those of
 * test/ik/fabrik.test.ts, at more targets:
 *
 *   reach     a 5-bone chain (bones of 0.5–1.5, random start rotations), targets in random
 *             directions at 0.99, 0.9999 and 0.99997 of its reach;
 *   folded    3- to 8-bone chains tilted 3e-3 or 1e-2 rad at the root, one joint turned by π, π − 0.01
 *             or not at all (folded back along the line, nearly so, or nearly straight), targets
 *             along the line at 0.99, 0.999, 0.9999 and 1 of the reach;
 *   cones     a 4-bone chain of 0.3- or 0.8-rad cones started within them, targets where a pose within
 *             them puts the end, 1e-3 of the reach short of full reach.
 *
 * Tolerance 1e-4 of the chain's units, the default cap of 64 iterations.
 * Run: node bench/convergence.mjs   (after npm run build)
 */
import { createModelBuffer, FabrikIk, forwardKinematics, Pose, Skeleton } from '../dist/index.js';

/** A seeded linear congruential generator of numbers in [0, 1) (the tests' lcg). */
function lcg(seed) {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

function turnAbout(axis, angle) {
  const s = Math.sin(angle / 2) / Math.hypot(axis[0], axis[1], axis[2]);
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

/**
 * A parent, a chain of `bones` bones along +Y and a leaf (test/helpers/chains.ts's buildRig), with
 * a setter of bone lengths and rotations and the root's position in the parent's (identity) frame.
 */
function rig(bones) {
  const names = ['parent'];
  const parents = [-1];
  const t = [0, 0, 0];
  for (let i = 0; i <= bones; i++) {
    parents.push(names.length - 1);
    names.push(`j${i}`);
    t.push(...(i === 0 ? [0.3, 0.5, -0.2] : [0, 1, 0]));
  }
  names.push('leaf');
  parents.push(names.length - 2);
  t.push(0, 0.25, 0);
  const skeleton = Skeleton.create({ names, parents, restTranslations: t });
  const pose = new Pose(skeleton);
  const model = createModelBuffer(skeleton);
  const chain = Array.from({ length: bones + 1 }, (_, i) => i + 1);
  const set = (lengths, rotations) => {
    for (let i = 1; i <= bones; i++) pose.translations[3 * chain[i] + 1] = lengths[i - 1];
    rotations.forEach((q, i) => {
      const n = Math.hypot(...q);
      pose.rotations.set(
        q.map((x) => x / n),
        4 * chain[i],
      );
    });
    forwardKinematics(pose, model);
  };
  const root = [0.3, 0.5, -0.2];
  const at = (dir, distance) => {
    const n = Math.hypot(...dir);
    return Float64Array.from(root.map((x, c) => x + (dir[c] / n) * distance));
  };
  return { skeleton, pose, model, chain, set, at };
}

const reachOf = (lengths) => lengths.reduce((a, b) => a + b, 0);
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** One table row: the cases' misses, mean, median and largest iteration counts. */
function row(label, statuses) {
  const iterations = statuses.map((s) => s.iterations);
  const missed = statuses.filter((s) => !s.reached).length;
  const mean = iterations.reduce((a, b) => a + b, 0) / iterations.length;
  console.log(
    `${label.padEnd(26)} | ${String(statuses.length).padStart(5)} | ${String(missed).padStart(6)} | ${mean.toFixed(1).padStart(5)} | ${String(median(iterations)).padStart(6)} | ${String(Math.max(...iterations)).padStart(3)}`,
  );
}

/** The status numbers of one solve (the status object is reused from solve to solve). */
const solveOnce = (ik, r, target) => {
  const status = ik.solve(r.pose, r.model, target);
  return { reached: status.reached, iterations: status.iterations };
};

console.log('FabrikIk near full reach: iterations to 1e-4 (seeded, default cap 64)');
console.log('scenario                   | cases | missed |  mean | median | max');
console.log('---------------------------|-------|--------|-------|--------|----');

// Near full reach, unlimited.
{
  const r = rig(5);
  const ik = new FabrikIk(r.skeleton, { joints: r.chain, tolerance: 1e-4 });
  for (const share of [0.99, 0.9999, 0.99997]) {
    const random = lcg(13);
    const statuses = [];
    for (let k = 0; k < 500; k++) {
      const lengths = [0, 1, 2, 3, 4].map(() => 0.5 + random());
      const rotations = r.chain.map(() => [random() - 0.5, random() - 0.5, random() - 0.5, random() - 0.5]);
      r.set(lengths, rotations);
      const dir = [random() - 0.5, random() - 0.5, random() - 0.5];
      statuses.push(solveOnce(ik, r, r.at(dir, reachOf(lengths) * share)));
    }
    row(`reach ${share}, 5 bones`, statuses);
  }
}

// Folded and nearly straight chains, targets along the line.
{
  const statuses = [];
  const random = lcg(11);
  for (let bones = 3; bones <= 8; bones++) {
    const r = rig(bones);
    const ik = new FabrikIk(r.skeleton, { joints: r.chain, tolerance: 1e-4 });
    for (const tilt of [3e-3, 1e-2]) {
      for (const fold of [Math.PI, Math.PI - 0.01, 0]) {
        for (let joint = 1; joint < bones; joint++) {
          for (const share of [0.99, 0.999, 0.9999, 1]) {
            const lengths = Array.from({ length: bones }, () => 0.5 + random());
            const rotations = r.chain.map(() => [0, 0, 0, 1]);
            rotations[0] = turnAbout([1, 0, 0.3], tilt);
            rotations[joint] = turnAbout([0.4, 0, 1], fold);
            r.set(lengths, rotations);
            statuses.push(solveOnce(ik, r, r.at([0, 1, 0], reachOf(lengths) * share)));
          }
        }
      }
    }
  }
  row('folded, 3–8 bones', statuses);
}

// Cone-limited chains 1e-3 short of full reach.
{
  const r = rig(4);
  for (const angle of [0.3, 0.8]) {
    const cone = { kind: 'cone', angle };
    const ik = new FabrikIk(r.skeleton, {
      joints: r.chain,
      tolerance: 1e-4,
      limits: [cone, cone, cone, cone, null],
    });
    const random = lcg(21);
    // A turn by `angle` about a random axis across +Y (the rest direction).
    const across = (a) => {
      const phi = 2 * Math.PI * random();
      return [Math.cos(phi) * Math.sin(a / 2), 0, Math.sin(phi) * Math.sin(a / 2), Math.cos(a / 2)];
    };
    const end = 16 * r.chain[4] + 12;
    const span = () => Math.hypot(r.model[end] - 0.3, r.model[end + 1] - 0.5, r.model[end + 2] + 0.2);
    const statuses = [];
    while (statuses.length < 200) {
      const lengths = [0, 1, 2, 3].map(() => 0.5 + random());
      const reach = reachOf(lengths);
      const bends = [0, 1, 2, 3].map(() => across(0.9 * angle * random()));
      // Every bend but the root's scaled by f, bisected until the end is 1e-3 of the reach short.
      const scaled = (f) => [
        bends[0],
        ...bends.slice(1).map(([x, y, z, w]) => {
          const half = f * Math.atan2(Math.hypot(x, y, z), w);
          const n = Math.hypot(x, y, z) || 1;
          return [
            (x / n) * Math.sin(half),
            (y / n) * Math.sin(half),
            (z / n) * Math.sin(half),
            Math.cos(half),
          ];
        }),
        [0, 0, 0, 1],
      ];
      r.set(lengths, scaled(1));
      if (span() > reach * (1 - 1e-3)) continue;
      let [lo, hi] = [0, 1];
      for (let i = 0; i < 60; i++) {
        const mid = (lo + hi) / 2;
        r.set(lengths, scaled(mid));
        if (span() > reach * (1 - 1e-3)) lo = mid;
        else hi = mid;
      }
      r.set(lengths, scaled(hi));
      const target = r.model.slice(end, end + 3);
      r.set(lengths, [...[0, 1, 2, 3].map(() => across(0.9 * angle * random())), [0, 0, 0, 1]]);
      statuses.push(solveOnce(ik, r, target));
    }
    row(`cones ${angle} rad, 1e-3 short`, statuses);
  }
}
