/**
 * Which bones are a character's legs, arms, spine and head: by name where a known convention
 * fits, from the skeleton's shape where none does, or as given.
 *
 * @packageDocumentation
 */
import { checkKnownKeys, checkSkeletonArg, editDistance } from '../arguments.js';
import { TendonError } from '../errors.js';
import { invert } from '../kernel/mat4.js';
import { restModelMatrices } from '../pose/forward-kinematics.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import { checkRig } from './check-rig.js';
import type { ArmRig, LegRig, LimbSide, Rig } from './limbs.js';
import { baseName, mixamoPrefixed, NAME_MAPS, type NameMap, type SideNames } from './name-maps.js';

/** A joint by name or index. */
export type RigJointRef = string | number;

/** A leg given by hand (names or indices). */
export interface LegOverride {
  /** A label for messages. Default: its side. */
  readonly label?: string;
  /** Which side of the body. Default: from the joint's rest position. */
  readonly side?: LimbSide;
  /** The thigh (hip joint). */
  readonly root: RigJointRef;
  /** The shin (knee). */
  readonly middle: RigJointRef;
  /** The ankle; or give `foot` alone for a leg whose foot is a separate bone (an `'effector'` leg). */
  readonly end?: RigJointRef;
  /** The bone placement turns onto the ground. Default: the ankle. */
  readonly foot?: RigJointRef;
  /** The toe joint, if any. */
  readonly toe?: RigJointRef;
  /** A pole (knee target) bone, if any. */
  readonly pole?: RigJointRef;
}

/** An arm given by hand. */
export interface ArmOverride {
  /** A label for messages. Default: its side. */
  readonly label?: string;
  /** Which side of the body. Default: from the joint's rest position. */
  readonly side?: LimbSide;
  /** The clavicle above the upper arm, if any. */
  readonly clavicle?: RigJointRef;
  /** The upper arm (shoulder joint). */
  readonly root: RigJointRef;
  /** The forearm (elbow). */
  readonly middle: RigJointRef;
  /** The hand (wrist). */
  readonly end: RigJointRef;
}

/** Options of {@link findRig}. */
export interface FindRigOptions {
  /**
   * A built-in map to use (`'robot'`, `'cmu'`, `'cmu-old'`, `'daz'`, `'vrm'`; `'mixamo'`, which
   * {@link Rig.convention} reports for a prefixed skeleton, is `'cmu'`'s names), `'shape'` to skip
   * the maps and read the skeleton's shape, or omit it to try the maps, then the shape. A map whose
   * names the skeleton does not follow throws `rig/unknown-joint`.
   */
  readonly convention?: string;
  /** Limbs given by hand: they replace what was found. */
  readonly legs?: readonly LegOverride[];
  /** Arms given by hand: they replace what was found. */
  readonly arms?: readonly ArmOverride[];
  /** The pelvis, given by hand. */
  readonly pelvis?: RigJointRef;
  /** The head, given by hand. */
  readonly head?: RigJointRef;
}

/** The keys of {@link FindRigOptions}. */
const FIND_RIG_OPTIONS: readonly (keyof FindRigOptions)[] = ['convention', 'legs', 'arms', 'pelvis', 'head'];

/**
 * The limbs and trunk of `skeleton`.
 *
 * 1. **By name**: the built-in map (see `NAME_MAPS`) that names the most of the skeleton's limb
 *    joints, names compared without a namespace prefix (`mixamorig:`), if it names both legs.
 * 2. **By shape**, where no map fits: legs are the chains that hang from a common ancestor down to
 *    the lowest leaves of the rest pose (two, or four for an animal, hind legs first). Of each
 *    chain, the three joints spanning its two longest consecutive bones are the leg (thigh, shin,
 *    ankle; a fox's hind leg of four bones gives thigh, shin and hock, the last bone its toe). A
 *    low joint with no chain of its own, at the tip of a leaf chain that ends above it (a Blender IK
 *    rig's foot bone), makes that chain an `'effector'` leg. Arms hang from the spine above the
 *    legs' ancestor, one each side. Left is from names (`L`, `Left`, `l` prefixes and suffixes),
 *    else from the rest pose, on the facing's left (+X for a character facing +Z). Four legs are
 *    ordered hind first along the facing (or by their depth below the pelvis).
 * 3. **Overrides** replace what was found, limb by limb.
 *
 * The pelvis is the legs' lowest common ancestor (on the robot `Body`, not `Hips`). A skeleton with
 * no legs gets none (and no pelvis): nothing to place.
 *
 * @throws {@link TendonError} `rig/unknown-joint` for a name in an override (or a forced map) that is
 *   not in the skeleton, naming the closest names that are; `rig/not-a-chain` for an override whose
 *   joints do not hang one below the other; `rig/unknown-convention` for a map that does not exist.
 */
export function findRig(skeleton: Skeleton, options: FindRigOptions = {}): Rig {
  checkSkeletonArg(skeleton, 'findRig');
  if (options === null || typeof options !== 'object') {
    throw new TendonError('rig/unknown-convention', 'findRig: options must be an object');
  }
  // (A misspelling, `convension`, was ignored without a word.)
  checkKnownKeys(options, FIND_RIG_OPTIONS, 'findRig', 'argument/invalid');
  // Mixamo's names are CMU's behind a prefix: the map that reports 'mixamo' is 'cmu'.
  const convention = options.convention === 'mixamo' ? 'cmu' : options.convention;
  if (convention !== undefined && convention !== 'shape' && !NAME_MAPS.some((m) => m.name === convention)) {
    throw new TendonError(
      'rig/unknown-convention',
      `findRig: no built-in map "${String(convention)}" (known: ${NAME_MAPS.map((m) => m.name).join(', ')}, mixamo, shape)`,
    );
  }
  const rest = restModelMatrices(skeleton);
  let rig: Rig | null = null;
  if (convention !== 'shape') {
    const maps = convention === undefined ? NAME_MAPS : NAME_MAPS.filter((m) => m.name === convention);
    const found = maps
      .map((map) => ({ map, rig: byName(skeleton, rest, map) }))
      .filter((f) => f.rig !== null)
      .sort((a, b) => score(b.rig as Rig) - score(a.rig as Rig));
    rig = found.length > 0 ? (found[0].rig as Rig) : null;
    if (rig === null && convention !== undefined) {
      throw new TendonError(
        'rig/unknown-joint',
        `findRig: the skeleton's names do not follow the "${convention}" map (${closestHint(skeleton, maps[0].left.upLeg[0])})`,
      );
    }
  }
  if (rig === null) rig = byShape(skeleton, rest);
  else if (convention === undefined && armsStandOnGround(rig, rest)) {
    // A four-legged body named as a biped (lThigh … lShldr, LeftUpLeg … LeftArm): its "arms" stand
    // on the ground. Read as two legs and two arms, its front legs were never placed (a front
    // paw 16 cm inside a slope).
    const shaped = byShape(skeleton, rest);
    if (shaped.legs.length === 4) rig = shaped;
  }
  const found = applyOverrides(skeleton, rest, rig, options);
  // The facing from the toes or knees; on four legs without toes, from the hind pair to the front
  // (as the shape read it).
  return {
    ...found,
    forward: facingOf(rest, found.legs) ?? found.forward ?? null,
    jointNames: skeleton.names,
  };
}

/**
 * Which way the rest pose faces (see {@link Rig.forward}): the toes' way from the ankles, or for
 * two legs without toes the knees' bend (off the hip–ankle line), along the ground; turned to the
 * nearest of ±X and ±Z within 30°; `null` where neither is a hundredth of the legs' length (a
 * four-legged body's front knees bend back, so knees tell only for two legs).
 */
function facingOf(rest: Float64Array, legs: readonly LegRig[]): [number, number, number] | null {
  let x = 0;
  let z = 0;
  let length = 0;
  const at = (j: number, k: number) => rest[16 * j + 12 + k];
  for (const leg of legs) {
    for (let k = 0; k < 3; k++) length += Math.abs(at(leg.root, k) - at(leg.foot, k)) / legs.length;
    if (leg.toe < 0) continue;
    x += at(leg.toe, 0) - at(leg.foot, 0);
    z += at(leg.toe, 2) - at(leg.foot, 2);
  }
  if (!(x * x + z * z > (0.01 * length) ** 2) && legs.length === 2) {
    x = 0;
    z = 0;
    for (const leg of legs) {
      const end = leg.end >= 0 ? leg.end : leg.foot;
      const u = [0, 1, 2].map((k) => at(end, k) - at(leg.root, k));
      const w = [0, 1, 2].map((k) => at(leg.middle, k) - at(leg.root, k));
      const uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
      if (!(uu > 0)) continue;
      const s = (w[0] * u[0] + w[1] * u[1] + w[2] * u[2]) / uu;
      x += w[0] - s * u[0];
      z += w[2] - s * u[2];
    }
  }
  return snapFacing(x, z, 0.01 * length);
}

/** The direction (x, 0, z) made unit, turned to ±X or ±Z within 30°; `null` no longer than `least`. */
function snapFacing(x: number, z: number, least: number): [number, number, number] | null {
  const d = Math.sqrt(x * x + z * z);
  if (!(d > least)) return null;
  x /= d;
  z /= d;
  // cos 30°: within 30° of an axis, that axis.
  const near = 0.8660254037844386;
  if (z >= near) return [0, 0, 1];
  if (z <= -near) return [0, 0, -1];
  if (x >= near) return [1, 0, 0];
  if (x <= -near) return [-1, 0, 0];
  return [x, 0, z];
}

/** Whether the rig has two arms whose hands are as low as its feet (within a tenth of its height). */
function armsStandOnGround(rig: Rig, rest: Float64Array): boolean {
  if (rig.arms.length !== 2 || rig.legs.length !== 2) return false;
  const y = (j: number) => rest[16 * j + 13];
  const feet = Math.max(...rig.legs.map((l) => y(l.foot)));
  const hips = Math.min(...rig.legs.map((l) => y(l.root)));
  // The hands below the hips' height by more than nine tenths of the way down to the feet.
  return rig.arms.every((a) => y(a.end) < feet + 0.1 * (hips - feet));
}

/** A readable account of what {@link findRig} found, and how: one line per limb. */
export function describeRig(rig: Rig, skeleton: Skeleton): string {
  checkSkeletonArg(skeleton, 'describeRig');
  checkRig(rig, skeleton, 'describeRig');
  const n = (j: number) => (j >= 0 ? skeleton.names[j] : '-');
  const lines = [`convention: ${rig.convention ?? 'none (found by shape)'}`, `pelvis: ${n(rig.pelvis)}`];
  for (const leg of rig.legs) {
    const end =
      leg.shape === 'effector'
        ? `end: a point of ${n(leg.middle)}, foot bone ${n(leg.foot)}`
        : `${n(leg.end)}`;
    lines.push(
      `leg ${leg.label} (${leg.side}, ${leg.shape}, by ${leg.source}): ${n(leg.root)} → ${n(leg.middle)} → ${end}` +
        (leg.toe >= 0 ? `, toe ${n(leg.toe)}` : '') +
        (leg.pole >= 0 ? `, pole ${n(leg.pole)}` : ''),
    );
  }
  for (const arm of rig.arms) {
    lines.push(
      `arm ${arm.label} (${arm.side}, by ${arm.source}): ${arm.clavicle >= 0 ? `${n(arm.clavicle)} → ` : ''}${n(arm.root)} → ${n(arm.middle)} → ${n(arm.end)}`,
    );
  }
  lines.push(
    `spine: ${rig.spine.map(n).join(' → ') || '-'}`,
    `neck: ${rig.neck.map(n).join(' → ') || '-'}`,
    `head: ${n(rig.head)}`,
    `facing: ${rig.forward ? rig.forward.join(', ') : 'not read from the rest pose (placement takes +Z)'}`,
  );
  return lines.join('\n');
}

function score(rig: Rig): number {
  return rig.legs.length * 10 + rig.arms.length * 5 + rig.spine.length + (rig.head >= 0 ? 1 : 0);
}

// ---------------------------------------------------------------------------------------------
// By name

function byName(skeleton: Skeleton, rest: Float64Array, map: NameMap): Rig | null {
  const index = new Map<string, number>();
  let prefixed = false;
  skeleton.names.forEach((name, j) => {
    const base = baseName(name);
    if (base !== name && mixamoPrefixed(name)) prefixed = true;
    if (!index.has(base)) index.set(base, j);
  });
  const find = (names: readonly string[]) => {
    for (const name of names) {
      const j = index.get(name);
      if (j !== undefined) return j;
    }
    return -1;
  };
  const legs: LegRig[] = [];
  const arms: ArmRig[] = [];
  for (const [label, names] of [
    ['left', map.left],
    ['right', map.right],
  ] as [LimbSide, SideNames][]) {
    const root = find(names.upLeg);
    const middle = find(names.leg);
    const foot = find(names.foot);
    if (root < 0 || middle < 0 || foot < 0) return null;
    legs.push(
      makeLeg(skeleton, rest, label, label, 'name', root, middle, foot, find(names.toe), find(names.pole)),
    );
    const arm = find(names.arm);
    const foreArm = find(names.foreArm);
    const hand = find(names.hand);
    if (
      arm >= 0 &&
      foreArm >= 0 &&
      hand >= 0 &&
      skeleton.isAncestor(arm, foreArm) &&
      skeleton.isAncestor(foreArm, hand)
    ) {
      arms.push({
        label,
        side: label,
        source: 'name',
        clavicle: find(names.clavicle),
        root: arm,
        middle: foreArm,
        end: hand,
      });
    }
  }
  if (legs.some((leg) => leg === null)) return null;
  const named = (list: readonly string[]) => list.map((name) => index.get(name) ?? -1).filter((j) => j >= 0);
  const pelvis = commonAncestor(
    skeleton.parents,
    legs.map((leg) => leg.root),
  );
  return {
    legs,
    arms,
    pelvis,
    spine: named(map.spine),
    neck: named(map.neck),
    head: find(map.head),
    convention: prefixed && map.name === 'cmu' ? 'mixamo' : map.name,
  };
}

/**
 * A leg from its thigh, shin and foot joints: a `'chain'` leg when the foot hangs below the shin;
 * an `'effector'` leg (the end a point of the shin, where the foot bone sits at rest) otherwise.
 */
function makeLeg(
  skeleton: Skeleton,
  rest: Float64Array,
  label: string,
  side: LimbSide,
  source: 'name' | 'shape' | 'override',
  root: number,
  middle: number,
  foot: number,
  toe: number,
  pole: number,
): LegRig {
  if (!skeleton.isAncestor(root, middle)) {
    throw new TendonError(
      'rig/not-a-chain',
      `findRig: leg ${label}: "${skeleton.names[middle]}" is not below "${skeleton.names[root]}"`,
    );
  }
  if (skeleton.isAncestor(middle, foot)) {
    return {
      label,
      side,
      shape: 'chain',
      source,
      root,
      middle,
      end: foot,
      endLocal: null,
      foot,
      toe,
      pole,
      jointNames: skeleton.names,
    };
  }
  return {
    label,
    side,
    shape: 'effector',
    source,
    root,
    middle,
    end: -1,
    endLocal: pointIn(rest, middle, foot),
    foot,
    toe,
    pole,
    jointNames: skeleton.names,
  };
}

/** `joint`'s rest model position in `frame`'s local frame. */
function pointIn(rest: Float64Array, frame: number, joint: number): [number, number, number] {
  const inv = new Float64Array(16);
  invert(inv, 0, rest, 16 * frame);
  const o = 16 * joint + 12;
  const out: [number, number, number] = [0, 0, 0];
  for (let r = 0; r < 3; r++)
    out[r] = inv[r] * rest[o] + inv[4 + r] * rest[o + 1] + inv[8 + r] * rest[o + 2] + inv[12 + r];
  return out;
}

// ---------------------------------------------------------------------------------------------
// By shape

/**
 * A part of the face hanging from the head as its only child (an animal's nose or jaw): not the
 * head. Taken for it, the look aimed the nose's joint and left the head 20° off its target.
 */
const FACE_PART =
  /(?:Nose|Jaw|Snout|Muzzle|Mouth|Tongue|Beak|Chin|Lip|Teeth|Eye)s?(?![a-z])|(?:^|[^A-Za-z])(?:nose|jaw|snout|muzzle|mouth|tongue|beak|chin|lip|teeth|eye)s?(?![a-z])/;

/**
 * Names of twist and roll helper bones, which a limb's chain passes over: the word on its own or as
 * a camel-case part (`thigh_twist_01_l`, `LeftUpLegTwist`, `UpperArm_Roll`), not inside another
 * word (`Troll_thigh_l`, `Scroll`, `Twister`: a character's own prefix filtered every joint).
 */
const TWIST = /(?:Twist|Roll)(?![a-z])|(?:^|[^A-Za-z])(?:twist|roll)(?![a-z])/;

function byShape(skeleton: Skeleton, rest: Float64Array): Rig {
  const n = skeleton.jointCount;
  const parents = skeleton.parents;
  const y = (j: number) => rest[16 * j + 13];
  const pos = (j: number) => [rest[16 * j + 12], rest[16 * j + 13], rest[16 * j + 14]];
  const dist = (a: number, b: number) => {
    const p = pos(a);
    const q = pos(b);
    return Math.sqrt((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 + (p[2] - q[2]) ** 2);
  };
  const children: number[][] = Array.from({ length: n }, () => []);
  for (let j = 0; j < n; j++) if (parents[j] >= 0) children[parents[j]].push(j);
  let minY = Number.POSITIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (let j = 0; j < n; j++) {
    minY = Math.min(minY, y(j));
    maxY = Math.max(maxY, y(j));
  }
  const height = maxY - minY;
  const empty: Rig = { legs: [], arms: [], pelvis: -1, spine: [], neck: [], head: -1, convention: null };
  if (!(height > 0)) return empty;
  const low = (j: number) => y(j) <= minY + 0.15 * height;
  // A side branch a limb's chain passes: three joints at most, none of them low (a twist or roll
  // helper hanging off a thigh or a shin, as Unreal's and Character Creator's skeletons have),
  // not another leg nor toes.
  const helper = (j: number) => {
    if (skeleton.subtreeEnds[j] - j > 3) return false;
    for (let k = j; k < skeleton.subtreeEnds[j]; k++) if (low(k)) return false;
    return true;
  };
  // The chain above a low leaf, up to (not including) the first joint that branches into more than
  // the chain and helpers. (Stopped at any branch, a thigh with a twist bone beside the shin ended
  // the chain there: no legs were found, or the shin taken for the thigh.)
  const chainAbove = (leaf: number) => {
    const chain = [leaf];
    let from = leaf;
    let j = parents[leaf];
    while (j >= 0 && children[j].every((c) => c === from || helper(c))) {
      chain.unshift(j);
      from = j;
      j = parents[j];
    }
    return { chain, branch: j };
  };
  const chains = [] as { chain: number[]; branch: number }[];
  const loners: number[] = [];
  for (let j = 0; j < n; j++) {
    if (children[j].length > 0 || !low(j)) continue;
    const c = chainAbove(j);
    // Drop joints at (nearly) the same place as the one above them (a hip joint sitting on the
    // pelvis), and twist and roll helpers in the chain (a thigh split in two by a twist bone read
    // as thigh and shin, the hip left out).
    const last = c.chain.length - 1;
    const chain = c.chain.filter(
      (k, i) =>
        i === 0 ||
        (dist(k, c.chain[i - 1]) > 1e-3 * height && (i === last || !TWIST.test(skeleton.names[k]))),
    );
    let length = 0;
    for (let i = 1; i < chain.length; i++) length += dist(chain[i - 1], chain[i]);
    // A leg spans a good part of the body's height; a hanging hand's fingers do not.
    if (chain.length >= 3 && length > 0.25 * height) chains.push({ chain, branch: c.branch });
    else if (chain.length < 3) loners.push(j);
  }
  const legs: LegRig[] = [];
  for (const { chain } of chains) {
    // The two longest consecutive bones: thigh and shin; the joint after them is the ankle.
    let best = 0;
    let at = 0;
    for (let i = 0; i + 2 < chain.length; i++) {
      const d = dist(chain[i], chain[i + 1]) + dist(chain[i + 1], chain[i + 2]);
      if (d > best) {
        best = d;
        at = i;
      }
    }
    const toe = at + 3 < chain.length ? chain[at + 3] : -1;
    legs.push(
      makeLeg(
        skeleton,
        rest,
        '',
        sideOf(skeleton, rest, chain[at]),
        'shape',
        chain[at],
        chain[at + 1],
        chain[at + 2],
        toe,
        -1,
      ),
    );
  }
  // Blender IK legs: a leaf chain ending above the ground, with a lone low bone at its tip.
  for (const foot of loners) {
    let best = -1;
    let bestOff = Number.POSITIVE_INFINITY;
    for (let leaf = 0; leaf < n; leaf++) {
      if (children[leaf].length > 0 || low(leaf) || parents[leaf] < 0 || legs.some((l) => l.middle === leaf))
        continue;
      const above = parents[leaf];
      // The foot must lie on the leaf's bone axis (its +Y, as Blender exports bones), below it,
      // about as far as the bone above is long; measured in model space (the armature may be
      // scaled, as the robot's is by 100).
      const m = 16 * leaf;
      const axisLength = Math.sqrt(rest[m + 4] ** 2 + rest[m + 5] ** 2 + rest[m + 6] ** 2);
      const fp = pos(foot);
      const lp = pos(leaf);
      const d = [fp[0] - lp[0], fp[1] - lp[1], fp[2] - lp[2]];
      const along = (d[0] * rest[m + 4] + d[1] * rest[m + 5] + d[2] * rest[m + 6]) / axisLength;
      const off = Math.sqrt(Math.max(0, d[0] ** 2 + d[1] ** 2 + d[2] ** 2 - along * along));
      const upper = dist(above, leaf);
      if (!(along > 0.3 * upper && along < 3 * upper && off < 0.05 * along && y(foot) < y(leaf))) continue;
      if (off < bestOff) {
        bestOff = off;
        best = leaf;
      }
    }
    if (best >= 0) {
      const pole = poleBeside(skeleton, foot, children);
      legs.push(
        makeLeg(
          skeleton,
          rest,
          '',
          sideOf(skeleton, rest, best),
          'shape',
          parents[best],
          best,
          foot,
          -1,
          pole,
        ),
      );
    }
  }
  if (legs.length === 0) return empty;
  // Sides from the rest pose are on the facing's left (up × forward): +X for a character facing
  // +Z, −X facing −Z (an unnamed −Z rig had its right thigh labelled left); within 2% of the
  // height of the middle, on no side.
  // Joints between `j` and its ancestor `top`.
  const depthBelow = (j: number, top: number) => {
    let d = 0;
    for (let k = j; k >= 0 && k !== top; k = parents[k]) d++;
    return d;
  };
  // Four legs without toes: from the hind pair (nearer the pelvis) to the front pair.
  const readFacing = () => {
    const f = facingOf(rest, legs);
    if (f !== null || legs.length !== 4) return f;
    const top = commonAncestor(
      parents,
      legs.map((leg) => leg.root),
    );
    if (top < 0) return null;
    const below = (j: number) => depthBelow(j, top);
    const sorted = legs.slice().sort((a, b) => below(a.root) - below(b.root));
    if (!(below(sorted[1].root) < below(sorted[2].root))) return null;
    const at = (leg: LegRig, k: number) => rest[16 * leg.root + k];
    const x = at(sorted[2], 12) + at(sorted[3], 12) - at(sorted[0], 12) - at(sorted[1], 12);
    const z = at(sorted[2], 14) + at(sorted[3], 14) - at(sorted[0], 14) - at(sorted[1], 14);
    return snapFacing(x, z, 0.1 * height);
  };
  let found = readFacing();
  let facing = found ?? [0, 0, 1];
  const sideLegs = () => {
    for (let i = 0; i < legs.length; i++)
      legs[i] = { ...legs[i], side: sideOf(skeleton, rest, legs[i].root, facing, 0.02 * height) };
  };
  sideLegs();
  // A tail reaching the ground hangs like a leg, on no side: named a tail, or beside four legs in
  // pairs, it is no leg (it was a fifth, bent by IK, and the hind and front labels were lost). A
  // middle leg otherwise (a tripod's) stays.
  const sided = legs.filter((leg) => leg.side !== 'center');
  const tail = (leg: LegRig) =>
    leg.side === 'center' &&
    (sided.length === 4 || /tail/i.test(skeleton.names[leg.root]) || /tail/i.test(skeleton.names[leg.foot]));
  if (sided.length >= 2 && legs.some(tail)) {
    legs.splice(0, legs.length, ...legs.filter((leg) => !tail(leg)));
    found = readFacing();
    facing = found ?? [0, 0, 1];
    sideLegs();
  }
  const pelvis = commonAncestor(
    parents,
    legs.map((leg) => leg.root),
  );
  // Legs under separate roots: no pelvis to carry them, nor a spine to find from it.
  if (pelvis < 0) return { ...empty, legs };
  // Four legs: the hind pair stands behind along the facing; where the rest pose does not say,
  // it hangs nearer the pelvis (fewer joints between). (By depth alone, a body whose hips and chest
  // both hang from a mid-back root had its legs paired left and right.)
  const depth = (j: number) => depthBelow(j, pelvis);
  const ahead = (j: number) => rest[16 * j + 12] * facing[0] + rest[16 * j + 14] * facing[2];
  let spread = 0;
  if (legs.length === 4) {
    const along = legs.map((leg) => ahead(leg.root)).sort((a, b) => a - b);
    spread = along[2] - along[1];
  }
  const byFacing = found !== null && spread > 0.1 * height;
  const ordered = legs
    .slice()
    .sort(
      (a, b) =>
        (byFacing ? ahead(a.root) - ahead(b.root) : depth(a.root) - depth(b.root)) ||
        (a.side === 'left' ? 0 : 1) - (b.side === 'left' ? 0 : 1),
    );
  if (byFacing) {
    // Each pair left first.
    for (const p of [0, 2]) {
      if (ordered[p].side !== 'left' && ordered[p + 1].side === 'left') {
        [ordered[p], ordered[p + 1]] = [ordered[p + 1], ordered[p]];
      }
    }
  }
  const four = ordered.length === 4;
  const labelled = ordered.map((leg, i) => ({
    ...leg,
    label: four ? `${i < 2 ? 'hind' : 'front'}-${leg.side}` : leg.side,
  }));
  // The legs' own joints (from the thigh down), and the joints above a thigh that only lead to it.
  const limbJoints = new Set<number>();
  for (const leg of labelled) {
    for (let j = leg.root; j < skeleton.subtreeEnds[leg.root]; j++) limbJoints.add(j);
    for (let j = parents[leg.root]; j >= 0 && j !== pelvis && children[j].length === 1; j = parents[j])
      limbJoints.add(j);
  }
  // The spine: from the pelvis, always into the child whose joints reach highest (the head is the
  // top of a standing biped and of a fox alike), to the end; the arms branch from it, one each side.
  const subtree = (j: number) => skeleton.subtreeEnds[j] - j;
  const unbranched = (j: number) => {
    for (let k = j; ; k = children[k][0]) {
      if (children[k].length > 1) return false;
      if (children[k].length === 0) return true;
    }
  };
  const top = new Float64Array(n).fill(Number.NEGATIVE_INFINITY);
  for (let j = n - 1; j >= 0; j--) {
    top[j] = Math.max(top[j], y(j));
    if (parents[j] >= 0) top[parents[j]] = Math.max(top[parents[j]], top[j]);
  }
  const path: number[] = [pelvis];
  for (let j = pelvis; ; ) {
    // The child reaching highest (the head, not an arm with its fingers); out of the pelvis, not an
    // unbranched chain beside a branching one: a tail raised above the head was taken for the
    // spine, the look turning the tail. (By the most joints instead, a skirt or a long tail was.)
    let candidates = children[j].filter((c) => !limbJoints.has(c));
    if (j === pelvis) {
      const branching = candidates.filter((c) => !unbranched(c));
      if (branching.length > 0) candidates = branching;
    }
    const next = candidates.sort((a, b) => top[b] - top[a])[0];
    if (next === undefined) break;
    path.push(next);
    j = next;
  }
  const arms: ArmRig[] = [];
  if (!four) {
    for (let i = path.length - 1; i > 0 && arms.length < 2; i--) {
      for (const c of children[path[i]]) {
        if (path.includes(c) || limbJoints.has(c) || subtree(c) < 3) continue;
        const chain = [c];
        for (let j = c; children[j].length > 0; ) {
          j = children[j].sort((a, b) => subtree(b) - subtree(a))[0];
          chain.push(j);
        }
        // Upper arm and forearm: the last two consecutive bones both at least 40% of the longest
        // (a clavicle before them may be long too; the hand and fingers after them are short).
        let longest = 0;
        for (let k = 0; k + 1 < chain.length; k++) longest = Math.max(longest, dist(chain[k], chain[k + 1]));
        let at = -1;
        for (let k = 0; k + 2 < chain.length; k++) {
          if (
            dist(chain[k], chain[k + 1]) >= 0.4 * longest &&
            dist(chain[k + 1], chain[k + 2]) >= 0.4 * longest
          )
            at = k;
        }
        if (at < 0 || dist(chain[at], chain[at + 1]) + dist(chain[at + 1], chain[at + 2]) < 0.2 * height)
          continue;
        const side = sideOf(skeleton, rest, chain[at], facing);
        if (arms.some((a) => a.side === side)) continue;
        arms.push({
          label: side,
          side,
          source: 'shape',
          clavicle: at > 0 ? chain[at - 1] : -1,
          root: chain[at],
          middle: chain[at + 1],
          end: chain[at + 2],
        });
      }
    }
  }
  // The head: the spine path's last joint, unless that is an end site (a BVH End Site, a head top)
  // or one of several leaves (the eyes): then the joint above it.
  let end = path.length - 1;
  // A face part (a nose, a jaw) that is the head's only child: the head is above it, whatever the
  // head's parent holds besides.
  let face = false;
  while (end > 1 && children[path[end]].length === 0) {
    const name = skeleton.names[path[end]];
    const endSite = /end$|top$|end_?site/i.test(name);
    const part = children[path[end - 1]].length === 1 && FACE_PART.test(baseName(name));
    if (!(endSite || part || dist(path[end], path[end - 1]) < 0.02 * height)) break;
    face = face || (part && !endSite);
    end--;
  }
  if (!face && end > 1 && children[path[end - 1]].length > 1) end--;
  const head = end > 0 ? path[end] : -1;
  const armBranch =
    arms.length > 0 ? path.indexOf(parents[arms[0].clavicle >= 0 ? arms[0].clavicle : arms[0].root]) : -1;
  const spineEnd = armBranch > 0 ? armBranch + 1 : Math.max(1, end - 1);
  return {
    legs: labelled,
    arms: arms.sort((a, b) => (a.side === 'left' ? 0 : 1) - (b.side === 'left' ? 0 : 1)),
    pelvis,
    spine: path.slice(1, spineEnd),
    neck: path.slice(spineEnd, end),
    head,
    convention: null,
    forward: found,
  };
}

/**
 * Left or right: from the joint's name (`left`, `Left`, a lone `l` or `L` such as `thigh_l`,
 * `UpperLeg.L`, `L_Thigh`, or an `l` before a capital such as `lThigh`), else from its rest position
 * along the side axis of `facing` (up × facing: +X for +Z), `'center'` within `middle` of it.
 */
function sideOf(
  skeleton: Skeleton,
  rest: Float64Array,
  joint: number,
  facing: readonly number[] = [0, 0, 1],
  middle = 0,
): LimbSide {
  const name = baseName(skeleton.names[joint]);
  if (/(^|[^a-z])(left|l)([^a-z]|$)|^left|^l[A-Z]|Left|(^|[^A-Za-z])L([^A-Za-z]|$)/.test(name)) return 'left';
  if (/(^|[^a-z])(right|r)([^a-z]|$)|^right|^r[A-Z]|Right|(^|[^A-Za-z])R([^A-Za-z]|$)/.test(name))
    return 'right';
  // Along the side axis up × facing: (facing z, 0, −facing x).
  const x = rest[16 * joint + 12] * facing[2] - rest[16 * joint + 14] * facing[0];
  return x > middle ? 'left' : x < -middle ? 'right' : 'center';
}

/** A sibling of the foot bone named as a pole (a Blender IK rig's knee target), or -1. */
function poleBeside(skeleton: Skeleton, foot: number, children: number[][]): number {
  const parent = skeleton.parents[foot];
  if (parent < 0) return -1;
  const side = /\.L$|_L$|Left|^l/.test(skeleton.names[foot])
    ? 'L'
    : /\.R$|_R$|Right|^r/.test(skeleton.names[foot])
      ? 'R'
      : '';
  for (const c of children[parent]) {
    const name = skeleton.names[c];
    if (c !== foot && /pole/i.test(name) && (side === '' || name.includes(side))) return c;
  }
  return -1;
}

function commonAncestor(parents: Int32Array, joints: readonly number[]): number {
  if (joints.length === 0) return -1;
  let a = joints[0];
  for (let i = 1; i < joints.length && a >= 0; i++) {
    let b = joints[i];
    while (a >= 0 && b >= 0 && a !== b) {
      if (a > b) a = parents[a];
      else b = parents[b];
    }
    a = a === b ? a : -1;
  }
  return a;
}

// ---------------------------------------------------------------------------------------------
// Overrides

function applyOverrides(skeleton: Skeleton, rest: Float64Array, rig: Rig, options: FindRigOptions): Rig {
  const resolve = (ref: RigJointRef | undefined, what: string): number => {
    if (ref === undefined) return -1;
    if (typeof ref === 'number') {
      if (Number.isInteger(ref) && ref >= 0 && ref < skeleton.jointCount) return ref;
      throw new TendonError(
        'rig/unknown-joint',
        `findRig: ${what}: joint ${ref} is not an index in 0..${skeleton.jointCount - 1}`,
      );
    }
    const j = skeleton.indexOf(ref);
    if (j < 0)
      throw new TendonError(
        'rig/unknown-joint',
        `findRig: ${what}: no joint "${ref}" (${closestHint(skeleton, ref)})`,
      );
    return j;
  };
  let legs = rig.legs;
  if (options.legs !== undefined) {
    legs = options.legs.map((o, i) => {
      const label = o.label ?? `leg ${i}`;
      const root = resolve(o.root, `${label} root`);
      const middle = resolve(o.middle, `${label} middle`);
      const end = resolve(o.end, `${label} end`);
      const foot = o.foot !== undefined ? resolve(o.foot, `${label} foot`) : end;
      if (foot < 0)
        throw new TendonError('rig/not-a-chain', `findRig: ${label}: give end (the ankle) or foot`);
      if (end >= 0 && !skeleton.isAncestor(middle, end)) {
        throw new TendonError(
          'rig/not-a-chain',
          `findRig: ${label}: "${skeleton.names[end]}" is not below "${skeleton.names[middle]}"`,
        );
      }
      const side = o.side ?? sideOf(skeleton, rest, root);
      return makeLeg(
        skeleton,
        rest,
        o.label ?? side,
        side,
        'override',
        root,
        middle,
        foot,
        resolve(o.toe, `${label} toe`),
        resolve(o.pole, `${label} pole`),
      );
    });
  }
  let arms = rig.arms;
  if (options.arms !== undefined) {
    arms = options.arms.map((o, i) => {
      const label = o.label ?? `arm ${i}`;
      const root = resolve(o.root, `${label} root`);
      const middle = resolve(o.middle, `${label} middle`);
      const end = resolve(o.end, `${label} end`);
      if (!skeleton.isAncestor(root, middle) || !skeleton.isAncestor(middle, end)) {
        throw new TendonError(
          'rig/not-a-chain',
          `findRig: ${label}: ${skeleton.names[root]} → ${skeleton.names[middle]} → ${skeleton.names[end]} is not a chain`,
        );
      }
      const side = o.side ?? sideOf(skeleton, rest, root);
      return {
        label: o.label ?? side,
        side,
        source: 'override' as const,
        clavicle: resolve(o.clavicle, `${label} clavicle`),
        root,
        middle,
        end,
      };
    });
  }
  const pelvis =
    options.pelvis !== undefined
      ? resolve(options.pelvis, 'pelvis')
      : options.legs !== undefined
        ? commonAncestor(
            skeleton.parents,
            legs.map((l) => l.root),
          )
        : rig.pelvis;
  const head = options.head !== undefined ? resolve(options.head, 'head') : rig.head;
  return { ...rig, legs, arms, pelvis, head };
}

/** "closest: a, b, c": the three names nearest `name` by edit distance. */
function closestHint(skeleton: Skeleton, name: string): string {
  const scored = skeleton.names.map((n) => ({
    n,
    d: editDistance(n.toLowerCase(), String(name).toLowerCase()),
  }));
  scored.sort((a, b) => a.d - b.d);
  return `closest: ${scored
    .slice(0, 3)
    .map((s) => `"${s.n}"`)
    .join(', ')}`;
}
