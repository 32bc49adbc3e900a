/**
 * Feet on uneven ground: the per-frame layer a game calls once per character, over the two-bone
 * solver.
 *
 * @packageDocumentation
 */
import { checkSkeletonArg, describeArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import { TwoBoneIk } from '../ik/two-bone.js';
import { invert } from '../kernel/mat4.js';
import {
  conjugate,
  fromTo,
  identity,
  multiply,
  normalize as normalizeQuat,
  rotateVec3,
} from '../kernel/quat.js';
import { decompose } from '../kernel/trs.js';
import { limitTurnStep } from '../kernel/turn-step-limit.js';
import { normalizeScaled } from '../kernel/vec3.js';
import { cosSinAt, cosSinOfAngle } from '../math/angle.js';
import { restModelMatrices, subtreeToModel } from '../pose/forward-kinematics.js';
import type { Pose } from '../pose/pose.js';
import { checkRig } from '../rig/check-rig.js';
import type { LegRig, Rig } from '../rig/limbs.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import { solverSlab as slab } from '../slab.js';
import { checkOptionKeys, optionKeys, refuseDt, refuseNotNumber } from './check-option.js';
import { ContactTrack, footPoint, legLength } from './contacts.js';
import { type Ground, HIT, RAY } from './ground.js';
import { OwnWrites } from './own-writes.js';
import { type PoseReads, pathUp, poseReads, poseReadsUsable, refusePose } from './pose-reads.js';
import {
  EASE,
  EASED_WEIGHT_LENGTH,
  easedWeightSet,
  easedWeightStep,
  easedWeightValue,
  SPRING,
  springOmega,
  springStep,
  springStep3,
} from './spring.js';
import { straightKneeHinge } from './straight-knee-hinge.js';

/**
 * The least `maxTurnSpeed`, radians a second: 1.2 (0.02 a frame at 60 Hz) let a swinging leg lag
 * until its solve, taken whole where its knee would bend the other way, jumped 16°, 0.6 54°,
 * 6e-5 75° (the robot's walk over bumps; 3, 0.05 a frame, and up hold).
 */
const MIN_TURN_SPEED = 3;

/** The default `maxTurnSpeed`, radians a second: just under 10° a frame at 60 Hz. */
const TURN_SPEED = 0.1745 * 60;

/**
 * The shortest frame the joint-step limit is scaled to, seconds: above 60 Hz each solve may change
 * a joint's added turn by a 60 Hz frame's worth. Held to `maxTurnSpeed · dt` there, the legs
 * lagged so far that the Fox's paw landing down a step snapped 19.5° in its first planted frame
 * at 144 Hz (11.2° at 60), and a stance knee held that tightly drew the robot's hips 10–18 cm down
 * at the end of a stance at 240–720 Hz where at 60 Hz they dropped 4 cm (the knee's bound,
 * kneeRates, pulls the hips down as fast as it must). Below 60 Hz, and for a character a crowd schedule solves every
 * Nth frame, the limit is `maxTurnSpeed · dt`: per frame it held a 30 Hz walk to half the speed,
 * its soles 0.4 cm off the steps.
 */
const FRAME_FLOOR = 1 / 60;

/**
 * Leg lengths by which a planted foot may stand off its solve, at weight 0, before the joint-step
 * limit yields to it (limitSteps); none at full weight.
 */
const SWITCH_LAG = 0.75;

/**
 * Seconds after the placement's own ease (unless that is 0) for which a planted foot's lag keeps
 * closing after switching on (limitSteps): at the default 10° a frame at 60 Hz, the joint-step limit
 * catches up 120°.
 */
const SWITCH_LAG_TAIL = 0.2;

/** Throws for a solve given no clip time while a contact track drives the contacts. */
function refuseNoTime(): never {
  throw new TendonError(
    'placement/invalid-input',
    'FootPlacement.solve: no time given, with a contact track set: pass the clip time its contacts are read at (the time the pose was sampled at)',
  );
}

/** True while a ground's `raycast` runs: a solve from inside it would overwrite the caller's scratch. */
let insideGround = false;

/** sin 60°, √3 / 2: the largest held heading turn's sine (turnHeading). */
const SIN_60 = Math.sqrt(0.75);

/**
 * Scratch of a solve, shared by every placement in this thread: written and read within one call,
 * never kept across calls. One copy, not one per character, so that a crowd's placements keep
 * their own state and nothing else in cache. A ground's `raycast` must not solve another placement
 * from inside the call (a solve refuses it).
 */
const scratch = {
  /** An angle for cosSinAt (stepLimitFor). */
  angle: new Float64Array(1),
  world: new Float64Array(16),
  worldInverse: new Float64Array(16),
  worldRotation: new Float64Array(4),
  worldRotationInverse: new Float64Array(4),
  ray: new Float64Array(RAY.length),
  hit: new Float64Array(HIT.length),
  /** A first hit, whose plane a second ray's hit is measured against (riseOverPlane). */
  planeHit: new Float64Array(HIT.length),
  vec: new Float64Array(12),
  quat: new Float64Array(16),
  trs: new Float64Array(10),
  parentInverse: new Float64Array(16),
  targetModel: new Float64Array(3),
  poleModel: new Float64Array(3),
  footRotation: new Float64Array(4),
  args: new Float64Array(4),
  pitchScratch: new Float64Array(24),
  frameNumbers: new Float64Array(4),
  /** A leg as its solve left it (limitSteps): the foot, the three limited rotations. */
  solved: new Float64Array(16),
  /** A leg's bend-plane normal and |u|²|w|² (bendNormal). */
  bend: new Float64Array(4),
  /** riseOverPlane's answer (a double returned from a call V8 does not inline is boxed). */
  rise: new Float64Array(1),
  /** How flat a planted foot stands this frame, for turnHeading (0 off its heel or toe, 1 level). */
  flat: new Float64Array(1),
  /** A heading turn weighted for footTurn. */
  turn: new Float64Array(4),
  /** This frame's lag of a planted foot allowed while placement switches, leg lengths (limitSteps). */
  switchLag: new Float64Array(1),
  /** The ground's travel until a foot lands (model space). */
  travel: new Float64Array(3),
  /** A leg's three rotations as the step limit left them, before it yields (limitSteps). */
  limitedRotations: new Float64Array(12),
  /** The placement's two eased weights before this solve eased them (put back if it refuses). */
  heldWeights: new Float64Array(2 * EASED_WEIGHT_LENGTH),
  /** The rays, hits and the landing's plane with which landingEdge looks for a step's nose. */
  edgeRay: new Float64Array(RAY.length),
  edgeHit: new Float64Array(HIT.length),
  edgePlane: new Float64Array(HIT.length),
  /**
   * reachShare's numbers: a horizontal move `dx, dz`, its squared length, and the share of it found
   * (doubles passed to or returned from a call V8 does not inline are boxed).
   */
  share: new Float64Array(4),
  /** landingEdge's probe: from (x, z) along (dx, dz), how far: [x, z, dx, dz, at] (riseAlong). */
  edgeProbe: new Float64Array(5),
};

/**
 * Set-up of a {@link FootPlacement}. Distances are fractions of each leg's length (hip to ankle in
 * the rest pose), so the same options serve a 3-unit robot and a 60-unit fox; times are seconds.
 */
export interface FootPlacementOptions {
  /** What the feet stand on (world space, +Y up). */
  readonly ground: Ground;
  /**
   * Per leg, the foot joint's height above the sole in model units: where the ankle sits when the
   * foot is planted on flat ground. Default: the foot joints' rest heights above model y = 0. A
   * contact track given to {@link FootPlacement.setContactTrack} replaces them with its planted
   * heights (these too): call {@link FootPlacement.setFootHeights} after it to keep others.
   */
  readonly footHeights?: readonly number[];
  /** Largest tilt of a foot to the ground's normal, radians. Default 0.6 (34°). */
  readonly maxTilt?: number;
  /** Largest drop of the pelvis. Default 0.5. */
  readonly maxDrop?: number;
  /** Largest rise of the pelvis. Default 0.1. */
  readonly maxRise?: number;
  /**
   * Rays start this far above the foot. Default 0.6 (a step up to 60% of the leg is seen). On a
   * four-legged rig each foot's rays also start as much higher as the body's pitch
   * (`maxBodyPitch`) can raise it: its distance ahead of or behind the pelvis times the pitch's sine.
   */
  readonly rayAbove?: number;
  /**
   * Rays search this far below the foot (plus `maxDrop`, and on a four-legged rig as far as the
   * body's pitch can lower the foot, as for `rayAbove`). Default 0.6; farther ground counts as a hole.
   */
  readonly rayBelow?: number;
  /** Smoothing of the pelvis offset. Default 0.1 s. */
  readonly pelvisSmoothTime?: number;
  /** Smoothing of a swinging foot's offset from the animation. Default 0.06 s. */
  readonly footSmoothTime?: number;
  /** Smoothing of the ground normal a foot aligns to. Default 0.08 s. */
  readonly normalSmoothTime?: number;
  /** Time over which a foot's weight eases in or out when the ground appears or vanishes. Default 0.2 s. */
  readonly groundEaseTime?: number;
  /** A locked foot stays within this distance of the animated foot; past it, the lock slides. Default 0.3. */
  readonly lockRadius?: number;
  /**
   * The pelvis keeps every weighted foot within this fraction of its leg's reach. Default 0.97: the
   * legs' softening starts there, so a planted foot is always reached exactly.
   */
  readonly reachMargin?: number;
  /**
   * Near full extension a knee's angle changes fastest for a given move of its foot; the legs ease
   * their reach out over this last fraction of it (the two-bone solver's softness), so a leg never
   * snaps straight. Default 0.03.
   */
  readonly softness?: number;
  /**
   * How fast the rotation placement adds to a leg's joint (hip, knee, foot) may change, radians a
   * second: between two solves by this times the solve's `dt`, or a 60 Hz frame's worth where
   * `dt` is shorter (above 60 Hz, and at `dt` 0), at most π. Where a target jumps (a foot crossing
   * a step's edge, a swinging leg reaching full extension) the change is spread over frames rather
   * than popping, over the same time at 60 Hz and below (and for a character a crowd schedule
   * solves every Nth frame); above 60 Hz each frame may take a 60 Hz frame's worth. A planted foot's joint is not held off its solved place by
   * more than `jointStepTolerance` (its turn may still be held back): past it, the limit yields as
   * far as brings the foot within half that (more while placement switches on or off: see
   * `setWeight`). No clearly bent knee is bent the other way from the animation's: there the leg
   * takes its solve whole. So that a planted leg's knee need not be held back, the pelvis rises and
   * sinks no faster than turns a planted knee by 0.9 of this beyond the animation's own turn, and
   * the pitch placement adds to a four-legged body changes by at most this. Default 10.47 (just
   * under 10° a frame at 60 Hz); `Infinity` turns all of them off; otherwise 3 at least (a tighter
   * limit held a swinging leg back so far that its solve, taken whole where the knee would bend the
   * other way, jumped 75° in a frame). docs/placement-details.md measures it on the walk table.
   * (Until 27 November, never released, `maxJointStep`, radians a solve: `maxTurnSpeed` is that
   * times 60 at 60 Hz.)
   */
  readonly maxTurnSpeed?: number;
  /**
   * How far the joint-step limit may hold a planted foot's joint from where its leg's solve put
   * it, a fraction of the leg's length in [0, 1]; past it, the limit yields until the foot is
   * within half of it. While placement switches on or off ({@link FootPlacement.setWeight}) it
   * grows by up to 0.75 legs. Default 0.01.
   */
  readonly jointStepTolerance?: number;
  /**
   * For a four-legged rig (legs both well ahead of and behind the pelvis along `forward`): the
   * largest pitch of the body to the slope between its front and hind feet, radians. The pelvis
   * turns about its side axis so that the front legs rise or sink with the ground under them,
   * and the hind legs with theirs, following with twice the pelvis' smoothing time. Default 0.5
   * (about 29°); 0 keeps the body level (on the Fox's walk down a 20° slope its front legs then
   * cannot reach: soles up to 7.9 cm off; see docs/placement-details.md). Ignored for other rigs.
   */
  readonly maxBodyPitch?: number;
  /**
   * For a foot with no toe joint (a paw, a Blender rig's foot bone): half the length of its pad
   * along `forward`, as a fraction of the leg's length. The foot stands on the highest ground its
   * pad covers, so a paw landing at a step's edge stands on the edge instead of dropping past it
   * and jumping back up as it settles. Two more rays per such foot and frame (four while it
   * swings and looks where it will land). A digitigrade foot (a paw standing on its toe) heads
   * for the highest ground its toe's pad will cover where it lands (two more rays while it looks),
   * and a planted one stands on it on the first frame of a fresh start (the first solve, switched
   * back on, a reset).
   * Default 0.05 for a four-legged rig, 0 (one ray) otherwise.
   */
  readonly footprint?: number;
  /**
   * The least softness (see `softness`) a leg keeps where the animation holds it straight, as a
   * fraction of its reach: the pelvis then lets a planted foot reach no farther than this short of
   * the leg's length. A leg landing straight is at the knee's singular point, where a foot 1 cm
   * nearer its hip turns the knee 25°; kept this little bent, the knee turns smoothly as the
   * ground comes nearer. Default 0.01 for a four-legged rig (the Fox's front legs stand straight
   * through their stance), 0 otherwise; at most `softness`.
   */
  readonly minSoftness?: number;
  /**
   * How far the hips may sink below the animation's to keep a planted foot where it was planted,
   * when the body moves on past the leg's reach (the end of a stance on a straight leg). Past it,
   * the lock slides with the animation. Default 0.04.
   */
  readonly lockDrop?: number;
  /**
   * How fast the pelvis offset may rise, in legs (the shortest) per second: stepping up, and
   * coming back up after any drop. A drop is never slowed (a leg's reach needs it at once), a
   * four-legged body's pitch is not counted, and a fresh start (the first solve, or after the
   * placement was switched off) goes straight to its goal. Hips that jump up as the feet reach
   * higher ground straighten the stance legs in a frame or two; rising over a few frames spreads
   * that (docs/placement-details.md). Default 0.2; `Infinity` lets the pelvis follow its spring alone, 0
   * never lets it rise.
   */
  readonly maxRiseSpeed?: number;
  /** Seconds before landing over which a swinging foot heads for the height where it lands. Default 0.3. */
  readonly anticipation?: number;
  /**
   * How far past a step's nose a foot lands at least, walking down or up, a fraction of the leg's
   * length. Walking down, a foot the clip lands just past a nose (or up to 2% of the leg before
   * one: where it lands is predicted to a centimetre or so) would pass over the upper level until
   * touchdown and drop the step's height in the frame it lands; walking up, one the clip lands just
   * short of a riser or just past its nose would stand on the nose's edge or meet the upper level
   * it was not heading for. It lands this far past the nose instead, moved on along its path over
   * the last `anticipation` seconds of its swing (the stride lengthens): walking down it passes the
   * nose in time to come down, walking up it heads for the upper level. The move is no more than `lockRadius` (the lock would
   * slide it back), nor farther than the leg reaches from the hips. The nose is looked for once a
   * swing (again only where the predicted landing moves by 1% of the leg): two rays, nine where it
   * finds one. Default 0.15; 0 turns it off.
   */
  readonly edgeClearance?: number;
  /**
   * The character's forward direction in model space, of any length. Default: the rig's
   * {@link Rig.forward} (which way its rest pose faces, as `findRig` read it), else +Z. Used for a leg
   * whose rest pose is straight (its knee bends toward forward; a four-legged body's front leg, its
   * elbow away from it), to tell a four-legged rig's front
   * legs from its hind ones, and along a paw's footprint. Three finite numbers, not all 0, with a
   * part along the ground (x or z) of at least 1e-3 of its length: else the constructor throws
   * `placement/invalid-option`.
   */
  readonly forward?: readonly [number, number, number];
}

/** The keys of {@link FootPlacementOptions} (any other is refused: a misspelling was ignored). */
export const FOOT_PLACEMENT_OPTIONS = optionKeys<FootPlacementOptions>({
  ground: true,
  footHeights: true,
  maxTilt: true,
  maxDrop: true,
  maxRise: true,
  rayAbove: true,
  rayBelow: true,
  pelvisSmoothTime: true,
  footSmoothTime: true,
  normalSmoothTime: true,
  groundEaseTime: true,
  lockRadius: true,
  reachMargin: true,
  softness: true,
  maxTurnSpeed: true,
  jointStepTolerance: true,
  maxBodyPitch: true,
  footprint: true,
  minSoftness: true,
  lockDrop: true,
  maxRiseSpeed: true,
  anticipation: true,
  edgeClearance: true,
  forward: true,
});

/**
 * How far below its hip a swinging foot is aimed at most, a fraction of the leg's length (eased
 * out as its contact eases in): a leg aimed above its hip folds and its knee flips.
 */
const SWING_BELOW_HIP = 0.3;

/** Per-leg numbers of the last solve, in world space (read them for debugging and measuring). */
export const LEG_REPORT = {
  /** Where the foot was aimed (after weights). */
  target: 0,
  /**
   * The ground hit under the foot; for a planted foot whose ground jumped by more than 3% of the
   * leg in a frame (a step's edge), the point under the foot on the plane it stood on.
   */
  groundPoint: 3,
  /** The ground normal there. */
  groundNormal: 6,
  /** The foot's weight (ground found, eased) times the placement's weight. */
  weight: 9,
  /** 1 when the ray found ground this frame. */
  grounded: 10,
  /** 1 while the foot is locked in place. */
  locked: 11,
  /** The distance the two-bone solve left between the leg's end and its target. */
  error: 12,
  /** Numbers per leg. */
  length: 13,
} as const;

/**
 * Plants a character's feet on the ground every frame: a ray down from each animated foot finds the
 * ground; each foot's target keeps the sole at its animated height above the ground (whatever the
 * slope) and locks while the clip says the foot is planted; the pelvis drops (or rises a little) so
 * every planted foot can reach; each leg bends by two-bone IK with its knee on its hinge; each foot
 * turns to the ground's normal within a tilt limit. Targets, the pelvis, normals and weights follow
 * their goals through trig-free springs and eases, so nothing pops and the result is bit-identical
 * on every engine.
 *
 * The order of one {@link FootPlacement.solve}: read the animated feet → query the ground → targets,
 * locks, weights, pelvis → smoothing → pelvis offset and its subtree's forward kinematics → each
 * leg (two-bone IK with the foot's rotation; an `'effector'` leg's foot bone placed at the leg's
 * end) → the model buffer is current. Allocates nothing.
 */
export class FootPlacement {
  /** The skeleton. */
  readonly skeleton: Skeleton;
  /** The legs placed, in order. */
  readonly legs: readonly LegRig[];
  /** The joint the pelvis offset moves, `-1` for none. */
  readonly pelvis: number;
  /** The joints as the last solve found and left them (a pose not animated since is told by it). */
  private readonly own: OwnWrites;
  /** The two-bone solver of each leg. */
  readonly solvers: readonly TwoBoneIk[];
  /**
   * Per leg, the contact weight in [0, 1] for the next solve (1 planted, easing around contacts):
   * it weighs the foot's lock, its alignment to the ground and its pull on the pelvis. Fill it from
   * a {@link ContactTrack} (`track.sample(time, ramp, placement.contactWeights, placement.planted)`)
   * or by hand. Default 1 (every foot grounded, none locked). Filled by hand, a weight that is not
   * a number in [0, 1] is refused by the next solve (`placement/invalid-input`).
   */
  readonly contactWeights: Float64Array;
  /**
   * Per leg, 1 while the foot is planted (it locks), else 0. Default 0. Set by hand, anything else
   * is refused by the next solve (`placement/invalid-input`).
   */
  readonly planted: Uint8Array;
  /** Per leg, {@link LEG_REPORT} numbers of the last solve. */
  readonly report: Float64Array;
  /** The contact weights, planted flags and report before this solve (put back if the ground fails). */
  private readonly heldContactWeights: Float64Array;
  private readonly heldPlanted: Uint8Array;
  private readonly heldReport: Float64Array;
  /** The pelvis offset of the last solve, world units along +Y. */
  pelvisOffset = 0;
  /** Whether the last solve held the weighted pelvis back from sinking (applyPelvis). */
  private pelvisLag = false;

  private readonly ground: Ground;
  /** The placement's numbers kept between solves (the `o…` offsets say where each part starts). */
  private readonly f: Float64Array;
  /** Its flags kept between solves (`o…` offsets too). */
  private readonly b: Uint8Array;
  /** Legs in the front / hind split of a four-legged rig ({@link frontLegs}): 0 when the body does not pitch. */
  private readonly frontCount: number;
  private readonly oFootHeights: number;
  /** Per leg: rest length (model units). */
  private readonly oLengths: number;
  /** Per leg: the rest length of its upper bone, root to middle (model units). */
  private readonly oUpperLengths: number;
  /**
   * Per leg, in legs: how far above the foot its rays start (`rayAbove`), and how long they are
   * (`rayAbove + rayBelow + maxDrop`, before the swing's lift), each with the reach of the body's
   * pitch (on a four-legged rig: how far the pitch can raise or lower the foot).
   */
  private readonly oRaySpans: number;
  /**
   * Per leg, at the last solve: the hip-to-target distance the pelvis left (world units), and 1
   * where it is known (the leg was weighted).
   */
  private readonly oLastReach: number;
  /**
   * Per leg, the clip's own hip-to-foot distance, squared, this frame, and its distance at the last
   * solve where the leg was weighted: from the hips as the clip has them, before a four-legged
   * body's pitch moves them (kneeRates reads the clip's knee turn from these).
   */
  private readonly oClipReach2: number;
  private readonly oLastClipReach: number;
  /** Per leg, the reach the pelvis was held to this solve (applyPelvis). */
  private readonly oReachNow: number;
  private readonly oReachKnown: number;
  /** Per leg, this solve's highest and lowest pelvis offsets for its knee's turn ({@link FootPlacement.kneeRates}). */
  private readonly oKneeBounds: number;
  private readonly oSettings: number;
  private readonly oOffsetSprings: number;
  private readonly oNormalSprings: number;
  /** Per leg, where the heel (foot joint) and the toe were planted: `heelX, heelZ, toeX, toeZ`, world. */
  private readonly oLocks: number;
  /** Per leg, how far the locked foot must move (x, z) to stay where it was planted. */
  private readonly oDrift: number;
  /** Per leg, the animation's lift of the foot joint and of the sole (the lower of heel and toe). */
  private readonly oLifts: number;
  /** Per leg, where (x, z) this frame's ray under the foot was cast. */
  private readonly oRayOrigins: number;
  private readonly oLocked: number;
  private readonly oWasPlanted: number;
  /** Per leg, 1 once the toe has borne the foot in this contact (its lock then stays). */
  private readonly oToeLanded: number;
  /**
   * Per flat-toed leg: the heading (world x, z, unit) its heel-to-toe line is placed at, held while
   * the foot stands flat, and the turn about +Y from the animation's heading to it (cos, sin),
   * eased toward none otherwise; then that turn as a quaternion (x, y, z, w).
   */
  private readonly oHeadings: number;
  private readonly oHeadingTurns: number;
  /**
   * Per leg, 1 for a foot whose toe lies ahead of its joint more than below it at rest (a human
   * foot; not a digitigrade paw, whose joint-to-toe span stands nearly upright).
   */
  private readonly oFlatToe: number;
  /** Per leg, how much of the lock's drift is held (1 while planted, easing to 0 after). */
  private readonly oLockWeights: number;
  private readonly oGroundWeights: number;
  private readonly oPelvisSpring: number;
  /** Numbers passed to the smoothing steps (see spring.ts). */
  /**
   * This frame's numbers, for the steps of a solve: dt, the world scale, the clip time, the
   * placement's weight. In an array, not as arguments: V8 boxes a double passed to a call it does
   * not inline, and a solve must not allocate.
   */
  private track: ContactTrack | null = null;
  /** Seconds the contact weight eases in before a contact and out after it. */
  private readonly oRamps: number;
  /** Per leg: the next landing in model space, then the ground height under it (with the foot's height). */
  private readonly oLandingModel: number;
  private readonly oLandingBase: number;
  private readonly oLandingFound: number;
  /** Per leg, seconds until the next landing. */
  private readonly oLandingIn: number;
  /**
   * Per leg with a toe, the toe's offset from the foot's joint in model space at the last
   * touchdown, and whether one is known: where a swinging digitigrade foot's toe will land.
   */
  private readonly oLandedToe: number;
  private readonly oLandedToeKnown: number;
  /**
   * Per leg, the horizontal offset `x, z` (world units) of its landing ray from where the foot's
   * joint lands: a digitigrade foot's toe's, 0 for any other foot.
   */
  private readonly oLandingBack: number;
  /** Per leg, how far the ground under the toe rises above the heel's ground plane (world units). */
  private readonly oToeRise: number;
  /**
   * Per leg, how far the ground under the toe stood above the plane of the ground under the heel
   * at the last solve (negative: below it; 0 where not measured): a toe held out past a step's
   * edge, the heel on the upper level, hangs, and neither holds the foot nor counts as its sole.
   */
  private readonly oToeStep: number;
  /**
   * Per leg, where between heel (0) and toe (1) the ground under the foot changes level (a step's
   * nose), to a 32nd of the foot (toeRiseAt); 1 where it does not, or changes smoothly.
   */
  private readonly oNoseAt: number;
  /**
   * Per leg, this frame's target (world x, y, z) blended with the animation's by the ground's weight
   * alone (not the placement's), and that weight: what the pelvis is worked out for.
   */
  private readonly oFullTargets: number;
  /** Per leg, last frame's target height before the weights blend it with the animation's. */
  private readonly oPlacedY: number;
  /** Per leg, this frame's softening of the two-bone solve (fraction of the reach). */
  private readonly oSoftness: number;
  /** Per leg, the sole's lift the contact corrects (held while the foot lifts off). */
  private readonly oFloorLift: number;
  /**
   * Per leg, the part of a foot's lift above its planted height that a contact begun well off
   * it still holds (computeTargets): brought down at a leg a second, not in a frame.
   */
  private readonly oResidualLift: number;
  /** Per leg, how near its landing a swinging foot is (0 far or planted, rising to 1 at landing). */
  private readonly oLandingNear: number;
  /** Per leg of a four-legged rig: 1 front, 0 hind; empty when the body does not pitch. */
  private readonly oFront: number;
  /** tan of the largest body pitch. */
  private readonly pitchTan: number;
  /** The body's pitch rise (front over hind, world units) and its rate, smoothed. */
  private readonly oPitchSpring: number;
  /** Per leg, how far this frame's body pitch moved its hip up (world units). */
  private readonly oHipShift: number;
  private pitched = false;
  /** This frame's body pitch in model space (a quaternion): the feet's model rotations carry it. */
  private readonly oPitchRotation: number;
  /** The front and hind ends' last drops (world units), for a frame where one end has no foot down. */
  private readonly oPitchEnds: number;
  /**
   * The rise of the front hips the pitch applied at the last solve (world units), after the
   * weight: its change per frame is held to the joint-step limit.
   */
  private readonly oPitchApplied: number;
  /** The character's forward direction in model space (the footprint's axis). */
  private readonly oForwardModel: number;
  /** A toeless foot's pad half-length, a fraction of the leg's length (0: one ray). */
  private readonly footprint: number;
  /**
   * For this solve's dt (stepLimitFor): cos and sin of half the largest change of a leg joint's
   * added rotation (cos −2: off), how far (a fraction of the leg) the limit may move a foot on the
   * ground, cos and sin of the most a planted knee may turn (straighten or bend) beyond the
   * animation's own turn (kneeRates), and that largest change (the body's pitch, pitchBody); then
   * `maxTurnSpeed` and the dt the numbers are for.
   */
  private readonly oStepLimit: number;
  /** Per leg, its root, middle and foot (or end) joints: the joints whose added rotation is limited. */
  private readonly limited: Int32Array;
  /** The joints a solve reads, checked before it writes anything (pose-reads.ts). */
  private readonly reads: PoseReads;
  /** Per leg, the bend-plane normal of the leg as the animation (and the pelvis) left it, and |u|²|w|². */
  private readonly oEntryBends: number;
  /** Their local rotations as the solve found them (the animation's). */
  private readonly oEntryRotations: number;
  /** The rotation placement added to each of them at the last solve (local: entry⁻¹ · placed). */
  private readonly oAddedRotations: number;
  /** Per leg, the size of the sole's lift at the last planted frame (world units). */
  private readonly oHeldLift: number;
  /** Per leg, the contact weight of the last solve. */
  private readonly oLastContact: number;
  private readonly oToeHeights: number;
  /** Per leg, 1 for a digitigrade foot ({@link FootPlacement.updateStand}). */
  private readonly oSteep: number;
  /** Per leg, the foot joint's height over the ground along the normal and straight up. */
  private readonly oStand: number;
  /** Per leg, the push of the slope under the foot (x, z) taken at touchdown, held while planted. */
  private readonly oHeldPush: number;
  /** Per leg, 1 where the foot hangs from the pelvis (the body's pitch turns it). */
  private readonly oUnderPelvis: number;
  /** Per leg, how far the ground where the foot will land stands above the clip's floor (world units). */
  private readonly oLandingCorrection: number;
  /** Per leg, the horizontal move (world x, z) the swinging foot's target and ray take this frame. */
  private readonly oLandShift: number;
  /** Per leg, the move its landing takes past a step's nose (landingEdge), world x, z. */
  private readonly oEdgeShift: number;
  /**
   * Per leg, the nose found before its landing (world x, z) and the foot's path there (x, z); or
   * where the landing was when none was found.
   */
  private readonly oEdge: number;
  /**
   * Per leg, 1 while its swing has found a nose (kept until it lands: the prediction wavers), 2
   * where it looked and found none (`edge` then holds where the landing was).
   */
  private readonly oEdgeFound: number;
  private readonly oAnimatedToe: number;
  private readonly oWeightState: number;
  /**
   * The placement's weight eased SWITCH_LAG_TAIL longer than asked: switching on, a planted foot
   * may lag its solve (limitSteps) until it too reaches 1, so the joint-step limit has a few frames
   * after the ease to catch up before it must yield.
   */
  private readonly oLagWeightState: number;
  private weightEase = 0.25;
  private initialized = false;
  /**
   * Whether the rotations placement added to the legs last frame were all (to rounding) none: at
   * weight 0 the solve passes the animation through only then, until then the joint-step limit
   * takes them back to the animation's.
   */
  private unwound = true;
  /**
   * Whether `addedRotations` holds what placement added to the legs on the last frame it solved or
   * passed through (none, then): the joint-step limit spreads the first frame after switching back
   * on from there. Not known at first, nor after `reset()` (a teleport).
   */
  private addedKnown = false;
  // Scratch, per frame.
  private readonly oAnimated: number;
  private readonly oHips: number;
  /** This frame's pelvis offset in model space (3). */
  private readonly oPelvisModelOffset: number;
  /** Per leg, 1 when its pole joint is outside the pelvis' subtree (the offset does not move it). */
  private readonly oPoleLeftBehind: number;

  /**
   * @param skeleton - the character's skeleton.
   * @param rig - its limbs (from `findRig`); every leg in `rig.legs` is placed.
   * @throws {@link TendonError} `placement/invalid-option` for options out of range; the two-bone
   *   solver's errors for a leg that is not a chain.
   */
  constructor(skeleton: Skeleton, rig: Rig, options: FootPlacementOptions) {
    const name = 'FootPlacement';
    checkSkeletonArg(skeleton, name);
    checkRig(rig, skeleton, name);
    if (options === null || typeof options !== 'object' || typeof options.ground?.raycast !== 'function') {
      throw new TendonError(
        'placement/invalid-option',
        `${name}: options.ground must be a Ground (an object with raycast)`,
      );
    }
    if ((options as { maxJointStep?: unknown }).maxJointStep !== undefined) {
      // Renamed with a change of unit: a per-solve number left in a caller's options must not be
      // taken silently as the old limit's off switch (0) or as radians a second.
      throw new TendonError(
        'placement/invalid-option',
        `${name}: maxJointStep (radians a solve) is now maxTurnSpeed, radians a second: maxJointStep × 60 at 60 Hz (Infinity turns the limit off)`,
      );
    }
    checkOptionKeys(options, FOOT_PLACEMENT_OPTIONS, name);
    if (rig === null || typeof rig !== 'object' || !Array.isArray(rig.legs) || rig.legs.length === 0) {
      throw new TendonError('placement/invalid-option', `${name}: the rig has no legs to place`);
    }
    this.skeleton = skeleton;
    this.legs = rig.legs.slice();
    this.pelvis = rig.pelvis;
    this.ground = options.ground;
    const n = this.legs.length;
    // Every number the placement keeps between solves, in one array (and its flags in another):
    // the offsets of its parts. A crowd of placements reads two arrays a character, not seventy
    // (docs/crowds.md, Memory).
    let f64s = 0;
    let u8s = 0;
    const f64 = (length: number): number => {
      f64s += length;
      return f64s - length;
    };
    const u8 = (length: number): number => {
      u8s += length;
      return u8s - length;
    };
    this.oLengths = f64(n);
    this.oUpperLengths = f64(n);
    this.oRaySpans = f64(2 * n);
    this.oLastReach = f64(n);
    this.oClipReach2 = f64(n);
    this.oLastClipReach = f64(n);
    this.oReachNow = f64(n);
    this.oKneeBounds = f64(2 * n);
    this.oFootHeights = f64(n);
    this.oSettings = f64(18);
    this.oStepLimit = f64(8);
    this.oForwardModel = f64(3);
    this.oEntryRotations = f64(12 * n);
    this.oAddedRotations = f64(12 * n);
    this.oOffsetSprings = f64(6 * n);
    this.oNormalSprings = f64(6 * n);
    this.oLocks = f64(4 * n);
    this.oDrift = f64(2 * n);
    this.oLifts = f64(2 * n);
    this.oRayOrigins = f64(2 * n);
    this.oHeadings = f64(4 * n);
    this.oHeadingTurns = f64(4 * n);
    this.oLockWeights = f64(EASED_WEIGHT_LENGTH * n);
    this.oGroundWeights = f64(EASED_WEIGHT_LENGTH * n);
    this.oAnimated = f64(3 * n);
    this.oLandingModel = f64(3 * n);
    this.oLandingBase = f64(n);
    this.oLandingIn = f64(n);
    this.oLastContact = f64(n);
    this.oHeldLift = f64(n);
    this.oHipShift = f64(n);
    this.oLandingNear = f64(n);
    this.oFloorLift = f64(n);
    this.oResidualLift = f64(n);
    this.oSoftness = f64(n);
    this.oToeRise = f64(n);
    this.oToeStep = f64(n);
    this.oNoseAt = f64(n);
    this.oPlacedY = f64(n);
    this.oFullTargets = f64(4 * n);
    this.oToeHeights = f64(n);
    this.oAnimatedToe = f64(3 * n);
    this.oStand = f64(2 * n);
    this.oHeldPush = f64(2 * n);
    this.oEntryBends = f64(4 * n);
    this.oLandingCorrection = f64(n);
    this.oLandShift = f64(2 * n);
    this.oEdgeShift = f64(2 * n);
    this.oEdge = f64(4 * n);
    this.oLandedToe = f64(3 * n);
    this.oLandingBack = f64(2 * n);
    this.oHips = f64(3 * n);
    this.oPelvisSpring = f64(2);
    this.oRamps = f64(2);
    this.oPitchSpring = f64(2);
    this.oPitchRotation = f64(4);
    this.oPitchEnds = f64(2);
    this.oPitchApplied = f64(1);
    this.oWeightState = f64(EASED_WEIGHT_LENGTH);
    this.oLagWeightState = f64(EASED_WEIGHT_LENGTH);
    this.oPelvisModelOffset = f64(3);
    this.oReachKnown = u8(n);
    this.oFront = u8(n);
    this.oLocked = u8(n);
    this.oWasPlanted = u8(n);
    this.oToeLanded = u8(n);
    this.oFlatToe = u8(n);
    this.oLandingFound = u8(n);
    this.oSteep = u8(n);
    this.oUnderPelvis = u8(n);
    this.oPoleLeftBehind = u8(n);
    this.oEdgeFound = u8(n);
    this.oLandedToeKnown = u8(n);
    this.f = slab.f64(f64s);
    this.b = slab.u8(u8s);
    this.f[this.oRamps] = 0.1;
    this.f[this.oRamps + 1] = 0.25;
    const rest = restModelMatrices(skeleton);
    const lengths = this.legs.map((leg) => legLength(rest, leg));
    this.f.set(lengths, this.oLengths);
    this.f.set(
      this.legs.map((leg) => {
        const r = 16 * leg.root + 12;
        const m = 16 * leg.middle + 12;
        const x = rest[m] - rest[r];
        const y = rest[m + 1] - rest[r + 1];
        const z = rest[m + 2] - rest[r + 2];
        return Math.sqrt(x * x + y * y + z * z);
      }),
      this.oUpperLengths,
    );
    const heights = options.footHeights ?? this.legs.map((leg) => rest[16 * leg.foot + 13]);
    if (heights.length !== n || !heights.every(Number.isFinite)) {
      throw new TendonError('placement/invalid-option', `${name}: footHeights must be ${n} finite numbers`);
    }
    this.f.set(heights, this.oFootHeights);
    // Finite, even where no bound is given: a ray reaching up Infinity cast NaN, and every solve
    // then blamed the ground.
    const option = (key: keyof FootPlacementOptions, fallback: number, max = Number.MAX_VALUE): number => {
      const value = options[key] ?? fallback;
      if (typeof value !== 'number' || !(value >= 0 && value <= max)) {
        throw new TendonError(
          'placement/invalid-option',
          `${name}: ${key} = ${String(value)} is not ${max === Number.MAX_VALUE ? 'a finite number ≥ 0' : `a number in [0, ${max}]`}`,
        );
      }
      return value;
    };
    const maxTilt = option('maxTilt', 0.6, Math.PI / 2);
    const [tiltCos, tiltSin] = cosSinOfAngle(maxTilt);
    this.f.set(
      [
        tiltCos,
        tiltSin,
        option('maxDrop', 0.5, 1),
        option('maxRise', 0.1, 1),
        option('rayAbove', 0.6),
        option('rayBelow', 0.6),
        springOmega(option('pelvisSmoothTime', 0.1)),
        springOmega(option('footSmoothTime', 0.06)),
        springOmega(option('normalSmoothTime', 0.08)),
        option('groundEaseTime', 0.2),
        option('lockRadius', 0.3),
        option('reachMargin', 0.97, 1),
        option('anticipation', 0.3),
        option('softness', 0.03, 0.5),
        option('lockDrop', 0.04, 1),
        // (Infinity: no limit, the pelvis rises as fast as its spring.)
        option('maxRiseSpeed', 0.2, Number.POSITIVE_INFINITY),
        // minSoftness, set below (its default depends on the rig's shape).
        0,
        option('edgeClearance', 0.15, 1),
      ],
      this.oSettings,
    );
    const [pitchCos, pitchSin] = cosSinOfAngle(option('maxBodyPitch', 0.5, 1.5));
    const speed = options.maxTurnSpeed ?? TURN_SPEED;
    if (typeof speed !== 'number' || !(speed >= MIN_TURN_SPEED)) {
      throw new TendonError(
        'placement/invalid-option',
        `${name}: maxTurnSpeed = ${String(speed)} is not a number ≥ ${MIN_TURN_SPEED} radians a second (Infinity turns the limit off): a leg held back further takes its solve whole in a frame`,
      );
    }
    // The limit's numbers for a solve's dt are set by stepLimitFor; the speed and the dt they
    // were set for (none yet) are kept beside them.
    this.f.set(
      [
        speed === Number.POSITIVE_INFINITY ? -2 : 1,
        0,
        option('jointStepTolerance', 0.01, 1),
        1,
        0,
        0,
        speed,
        Number.NaN,
      ],
      this.oStepLimit,
    );
    this.pitchTan = pitchSin / pitchCos;
    const forward = options.forward ?? rig.forward ?? [0, 0, 1];
    if (
      forward === null ||
      typeof forward !== 'object' ||
      forward.length !== 3 ||
      !Array.prototype.every.call(forward, Number.isFinite) ||
      (forward[0] === 0 && forward[1] === 0 && forward[2] === 0)
    ) {
      throw new TendonError(
        'placement/invalid-option',
        `${name}: forward must be 3 finite numbers, not all 0 (got ${String(forward)})`,
      );
    }
    // Made unit once, scaled by its largest component first (squares of 1e-200 or 1e200 under- or
    // overflow), and refused where it has no part along the ground: the side axis (up × forward)
    // and the front / hind split are read from it (a vertical forward made the Fox two-legged and a
    // straight leg's hinge 0).
    const unit = unitForward(forward);
    if (unit === null) {
      throw new TendonError(
        'placement/invalid-option',
        `${name}: forward must point along the ground (its x or z not 0 beside its y; got ${String(forward)})`,
      );
    }
    this.f.set(unit, this.oForwardModel);
    const front = frontLegs(rest, this.legs, lengths, unit);
    const back: [number, number, number] = [-unit[0], -unit[1], -unit[2]];
    this.solvers = this.legs.map((leg, i) => {
      const end =
        leg.shape === 'effector'
          ? { endLocal: leg.endLocal as readonly [number, number, number] }
          : { end: leg.end };
      // A leg straight at rest has no bend plane to take its knee's hinge from: the knee then
      // bends about the character's side axis, so that it goes forward (a human knee, an
      // animal's hind stifle), or on a four-legged body's front leg back (an elbow: bent forward,
      // a 3 m elephant modelled with column legs walked on its elbows the wrong way in every
      // frame). Give the rest pose a bend for a leg that bends otherwise.
      const hingeAxis = straightKneeHinge(rest, leg, front[i] === 1 ? back : unit);
      return new TwoBoneIk(skeleton, {
        root: leg.root,
        middle: leg.middle,
        ...end,
        hingeAxis,
        softness: this.f[this.oSettings + 13],
        // Reached within 1e-5 of the leg (10 µm on a 1 m leg), not the solver's default 1e-6: a
        // leg whose bones carry float32 scale noise (the robot's, 1e-5) misses a reachable
        // target by a few micrometres, and the solver would run a second pass for them (on 57%
        // of the robot's leg solves in the placement bench).
        tolerance: 1e-5 * this.f[this.oLengths + i],
      });
    });
    this.b.set(front, this.oFront);
    this.frontCount = front.length;
    this.legs.forEach((leg, i) => {
      // The body pitches about the pelvis: a paw d ahead of it (or behind) rises and sinks by up to
      // d·sin(maxBodyPitch). Rays that did not cover that missed the ground under the Fox's front
      // paws on a staircase (two risers below the hind paws' tread), read it as a hole and
      // blended the paws out, 60 cm off the ground.
      let reach = 0;
      if (this.frontCount > 0 && this.pelvis >= 0) {
        const p = 16 * this.pelvis + 12;
        const f = 16 * leg.foot + 12;
        const d =
          (rest[f] - rest[p]) * unit[0] +
          (rest[f + 1] - rest[p + 1]) * unit[1] +
          (rest[f + 2] - rest[p + 2]) * unit[2];
        reach = (Math.abs(d) * pitchSin) / lengths[i];
      }
      const s = this.f;
      const sO = this.oSettings;
      s[this.oRaySpans + 2 * i] = s[sO + 4] + reach;
      s[this.oRaySpans + 2 * i + 1] = s[sO + 4] + s[sO + 5] + s[sO + 2] + 2 * reach;
    });
    this.footprint = option('footprint', this.frontCount > 0 ? 0.05 : 0, 0.5);
    // The least softness of a leg the animation holds straight, at most `softness`: in the
    // settings, not a field (a double field read in the frame boxed: 54 B a frame on the Fox).
    const minSoftness = option('minSoftness', this.frontCount > 0 ? 0.01 : 0, 0.5);
    this.f[this.oSettings + 16] =
      minSoftness < this.f[this.oSettings + 13] ? minSoftness : this.f[this.oSettings + 13];
    this.limited = Int32Array.from(
      this.legs.flatMap((leg) => [
        leg.root,
        leg.middle,
        leg.shape === 'effector' || leg.end < 0 ? leg.foot : leg.end,
      ]),
    );
    // The pelvis moves (and pitches, on four legs); the legs turn; an effector leg's foot bone
    // moves and turns.
    const pelvis = this.pelvis >= 0 ? [this.pelvis] : [];
    const effectorFeet = this.legs
      .filter((leg) => leg.shape === 'effector' && leg.foot >= 0)
      .map((leg) => leg.foot);
    this.own = new OwnWrites(
      skeleton,
      [...pelvis, ...effectorFeet],
      [...new Set([...pelvis, ...this.limited, ...effectorFeet])],
    );
    // The toes' model matrices are rebuilt from their locals with their legs'. A body that
    // pitches rebuilds the pelvis's subtree: the path from it to each leg and pole is read too.
    const pitchPaths =
      this.frontCount > 0 && this.pelvis >= 0
        ? this.legs.flatMap((leg) => [
            ...pathUp(skeleton, this.pelvis, skeleton.parents[leg.root]),
            ...(leg.pole >= 0 ? pathUp(skeleton, this.pelvis, leg.pole) : []),
          ])
        : [];
    this.reads = poseReads(
      skeleton,
      [...this.limited, this.pelvis, ...this.legs.map((leg) => leg.toe), ...pitchPaths],
      this.legs.map((leg) => leg.pole),
    );
    this.contactWeights = slab.f64(n).fill(1);
    this.planted = slab.u8(n);
    this.report = slab.f64(LEG_REPORT.length * n);
    this.heldContactWeights = slab.f64(n);
    this.heldPlanted = slab.u8(n);
    this.heldReport = slab.f64(LEG_REPORT.length * n);
    for (let i = 0; i < n; i++) this.f[this.oHeadingTurns + 4 * i + 3] = 1;
    this.b.set(
      this.legs.map((leg) => {
        if (leg.toe < 0) return 0;
        const dx = rest[16 * leg.toe + 12] - rest[16 * leg.foot + 12];
        const dy = rest[16 * leg.toe + 13] - rest[16 * leg.foot + 13];
        const dz = rest[16 * leg.toe + 14] - rest[16 * leg.foot + 14];
        return dy * dy < dx * dx + dz * dz ? 1 : 0;
      }),
      this.oFlatToe,
    );
    this.f.fill(this.f[this.oSettings + 13], this.oSoftness, this.oSoftness + n);
    this.f.fill(1, this.oNoseAt, this.oNoseAt + n);
    this.f.set(
      this.legs.map((leg) => (leg.toe >= 0 ? rest[16 * leg.toe + 13] : Number.NaN)),
      this.oToeHeights,
    );
    this.b.set(
      this.legs.map((leg) => (this.pelvis >= 0 && skeleton.isAncestor(this.pelvis, leg.foot) ? 1 : 0)),
      this.oUnderPelvis,
    );
    this.updateStand();
    this.b.set(
      this.legs.map((leg) =>
        leg.pole >= 0 && !(this.pelvis >= 0 && skeleton.isAncestor(this.pelvis, leg.pole)) ? 1 : 0,
      ),
      this.oPoleLeftBehind,
    );
    easedWeightSet(this.f, this.oWeightState, 1);
    easedWeightSet(this.f, this.oLagWeightState, 1);
  }

  /** Sets each foot's planted height (model units), e.g. from a contact track's `footHeights`. */
  setFootHeights(heights: ArrayLike<number>): void {
    if (heights?.length !== this.legs.length || !Array.prototype.every.call(heights, Number.isFinite)) {
      throw new TendonError(
        'placement/invalid-option',
        `FootPlacement.setFootHeights: ${this.legs.length} finite numbers expected`,
      );
    }
    this.f.set(heights, this.oFootHeights);
    this.updateStand();
  }

  /**
   * Drives the contacts from a clip's contact track: each solve then samples it at the clip time it
   * is given (contact weights easing in over `rampIn` seconds before each contact and out over as
   * long after it; planted flags,
   * where each swinging foot will land), and the feet's planted heights are the track's. A lock
   * eases back to the animation over `rampOut` seconds after its contact ends. `null`
   * goes back to {@link FootPlacement.contactWeights} and {@link FootPlacement.planted} set by hand.
   *
   * @throws {@link TendonError} `argument/invalid` for a `track` that is neither a
   *   {@link ContactTrack} nor `null` (a plain object too, such as a track saved as JSON and parsed
   *   back), `placement/invalid-option` for a
   *   track of another number of legs or a ramp that is not a finite number ≥ 0. Nothing is changed
   *   then.
   */
  setContactTrack(track: ContactTrack | null, rampIn = 0.1, rampOut = 0.25): void {
    // Each solve calls the track's own methods: an object that only looks like one (a parsed JSON
    // copy) would pass the leg count and throw a bare TypeError from inside every later solve.
    if (track !== null && !(track instanceof ContactTrack)) {
      throw new TendonError(
        'argument/invalid',
        `FootPlacement.setContactTrack: the track is ${describeArg(track)}, not a ContactTrack or null`,
      );
    }
    if (track !== null && track.legCount !== this.legs.length) {
      throw new TendonError(
        'placement/invalid-option',
        `FootPlacement.setContactTrack: the track has ${track?.legCount} legs, the placement ${this.legs.length}`,
      );
    }
    if (!(rampIn >= 0 && Number.isFinite(rampIn) && rampOut >= 0 && Number.isFinite(rampOut))) {
      throw new TendonError(
        'placement/invalid-option',
        `FootPlacement.setContactTrack: ramps ${rampIn}, ${rampOut}`,
      );
    }
    this.track = track;
    // The toe's offset at touchdown is the old clip's.
    this.b.fill(0, this.oLandedToeKnown, this.oLandedToeKnown + this.legs.length);
    // A nose found before a landing is the old track's: the new one lands elsewhere. (The move
    // under way, landShift, follows the new landing's from the next solve.)
    this.b.fill(0, this.oEdgeFound, this.oEdgeFound + this.legs.length);
    this.f[this.oRamps] = rampIn;
    this.f[this.oRamps + 1] = rampOut;
    if (track !== null) {
      this.f.set(track.footHeights, this.oFootHeights);
      this.f.set(track.toeHeights, this.oToeHeights);
      this.updateStand();
    }
  }

  /** The placement's weight now (eased), in [0, 1]. */
  get weight(): number {
    return easedWeightValue(this.f, this.oWeightState);
  }

  /**
   * Eases the whole placement in (1) or out (0) over `easeTime` seconds: turning it off or on
   * mid-clip does not pop (on the robot's and the CMU walks over the test terrains, no joint turns
   * more than 10° in a frame at eases from 0.05 s to 0.5 s; docs/placement-details.md): the feet's targets, the
   * pelvis and a four-legged body's pitch are worked out at full weight (on four legs, against the
   * body as far as it is pitched) and blended with the animation's by it, so the pelvis's rise
   * limit (`maxRiseSpeed`) holds at full weight only, the blend follows the ease. A short ease is
   * a quick turn, no quicker than the joint-step limit lets the legs turn (about 10° a frame at 60 Hz):
   * switched on, the first frame is limited from the animation; switched off, a solve at weight 0
   * goes on until the rotations placement added to the legs, the pelvis offset and a four-legged
   * body's pitch are none, then writes nothing. While
   * placement switches on (and for 0.2 s after the ease) or off, a planted foot may lag its solve
   * by up to (1 − w) · 0.75 legs beyond `jointStepTolerance` (w the lesser of the weight and a twin
   * eased 0.2 s longer), so the limit spreads the switch rather than yielding to the foot; at a
   * steady weight, and easing to one between 0 and 1, the tolerance is the option's. `easeTime` 0
   * switches at once, both ways: a jump, as asked.
   */
  setWeight(goal: number, easeTime = 0.25): void {
    if (
      typeof goal !== 'number' ||
      typeof easeTime !== 'number' ||
      !(goal >= 0 && goal <= 1) ||
      !(easeTime >= 0 && Number.isFinite(easeTime))
    ) {
      throw new TendonError(
        'placement/invalid-option',
        `FootPlacement.setWeight: a weight of ${describeArg(goal)} over ${describeArg(easeTime)} s (a weight in [0, 1] over a finite time ≥ 0)`,
      );
    }
    this.weightEase = easeTime;
    scratch.args[EASE.goal] = goal;
    scratch.args[EASE.easeTime] = easeTime;
    scratch.args[EASE.dt] = 0;
    easedWeightStep(this.f, this.oWeightState, scratch.args);
  }

  /** Forgets the smoothing and the locks (after a teleport): the next solve starts at its goals. */
  reset(): void {
    this.forget();
    this.addedKnown = false;
  }

  /** The state a fresh start needs cleared (smoothing restarts at its goals on the next solve). */
  private forget(): void {
    this.initialized = false;
    this.unwound = true;
    const n = this.legs.length;
    this.b.fill(0, this.oLocked, this.oLocked + n);
    this.f.fill(0, this.oToeStep, this.oToeStep + n);
    this.pelvisOffset = 0;
    this.pelvisLag = false;
    this.f.fill(0, this.oPitchEnds, this.oPitchEnds + 2);
    this.f[this.oPitchApplied] = 0;
    // The knees' last reach (kneeRates) is of a pose that is gone.
    this.b.fill(0, this.oReachKnown, this.oReachKnown + n);
    // The floor's error a contact corrects (floorLift, heldLift) is the clip's, kept; so is the
    // lift a foot planted by hand still holds (residualLift): taken at once, a reset while it came
    // down dropped it 35 cm in a frame.
    this.f.fill(0, this.oLastContact, this.oLastContact + n);
    this.f.fill(0, this.oLandShift, this.oLandShift + 2 * n);
    this.b.fill(0, this.oEdgeFound, this.oEdgeFound + n);
  }

  /**
   * Places the feet for one frame. `model` must hold the model matrices of `pose` (forward
   * kinematics after sampling); `world` is the character's model-to-world matrix (column-major 4x4:
   * translation, a rotation about +Y, a uniform scale: the model's +Y stays the world's up, which
   * the contacts and the ground's rays are read along); `dt` the seconds since the
   * last solve (the time that passed: 0 holds every spring, ease and lock where it was, so an editor
   * scrubbing the timeline passes the time it moved, or calls {@link FootPlacement.reset} each
   * scrubbed frame); `time` the clip time the pose was sampled at, required when a contact track
   * drives the contacts ({@link FootPlacement.setContactTrack}; a seek to another time is a teleport:
   * {@link FootPlacement.reset}). Writes the pelvis translation, the legs' rotations and the effector
   * feet into `pose`, and updates `model`.
   *
   * @throws {@link TendonError} `placement/invalid-input` for a non-finite `world` or a bad `dt`, no
   *   `time` while a contact track is set,
   *   or, while no contact track drives the contacts, a {@link FootPlacement.contactWeights} entry
   *   that is not a number in [0, 1] or a {@link FootPlacement.planted} entry that is not 0 or 1
   *   (naming the leg; refused before anything is written),
   *   `placement/ground-failed` when the ground throws or answers non-finite numbers (nothing is
   *   written then: the pose, the model, the report, the contacts and the weight are as they
   *   were; a frame's own working numbers, read afresh by the next solve, are not put back),
   *   `pose/not-finite`, naming the joint, for a NaN, an infinity or a zero
   *   rotation in a joint the solve reads (the legs' joints, their parents, toes and poles, the
   *   pelvis and its parent), before anything is written, the placement's own state too.
   */
  solve(pose: Pose, model: Float64Array, world: ArrayLike<number>, dt: number, time?: number): void {
    // A small entry, so that it is inlined into the caller's frame loop: the two numbers then
    // reach the solve in an array, unboxed (a double passed to a large call is boxed: allocated).
    // With a contact track its contacts are read at `time`: left out, it read them at 0 every
    // frame (feet never locked, sliding 2 cm a frame) without a word.
    if (time === undefined && this.track !== null) refuseNoTime();
    if (typeof dt !== 'number') refuseNotNumber(dt, 'FootPlacement.solve', 'dt');
    if (time !== undefined && typeof time !== 'number') refuseNotNumber(time, 'FootPlacement.solve', 'time');
    this.clock[0] = dt;
    this.clock[1] = time ?? 0;
    this.solveClock(pose, model, world);
  }

  /**
   * This frame's `dt` and clip `time`, as {@link FootPlacement.solveClock} reads them. Setting them
   * here and calling that is what {@link FootPlacement.solve} does; a crowd's loop does it itself,
   * so that no number is boxed where V8 does not inline `solve` (docs/crowds.md, Memory).
   */
  readonly clock = slab.f64(2);

  /** {@link FootPlacement.solve}, with `dt` and `time` read from {@link FootPlacement.clock}. */
  solveClock(pose: Pose, model: Float64Array, world: ArrayLike<number>): void {
    const dt = this.clock[0];
    const time = this.clock[1];
    const name = 'FootPlacement.solve';
    if (insideGround) {
      throw new TendonError(
        'placement/invalid-input',
        `${name}: called from inside a ground's raycast (placements share their scratch)`,
      );
    }
    if (!(time - time === 0)) {
      throw new TendonError('placement/invalid-input', `${name}: time ${time} is not finite`);
    }
    if (pose?.skeleton !== this.skeleton) {
      throw new TendonError(
        'pose/skeleton-mismatch',
        `${name}: the pose is not of this placement's skeleton`,
      );
    }
    if (!(model instanceof Float64Array) || model.length !== 16 * this.skeleton.jointCount) {
      throw new TendonError(
        'pose/buffer-size',
        `${name}: model must be a Float64Array of 16 × ${this.skeleton.jointCount}`,
      );
    }
    // Checked by arithmetic (v − v is 0 for a finite number, NaN otherwise), with no builtin call:
    // a double passed to one that is not inlined is boxed, and a frame must not allocate.
    if (!(dt >= 0 && dt - dt === 0)) refuseDt(dt, name);
    this.stepLimitFor();
    if (world === null || typeof world !== 'object') {
      throw new TendonError('placement/invalid-input', `${name}: world must be 16 numbers`);
    }
    const W = scratch.world;
    for (let i = 0; i < 16; i++) {
      const v = world[i];
      if (typeof v !== 'number' || v - v !== 0) {
        throw new TendonError(
          'placement/invalid-input',
          `${name}: world[${i}] is ${String(v)}, not a finite number`,
        );
      }
      W[i] = v;
    }
    if (!invert(scratch.worldInverse, 0, W, 0)) {
      throw new TendonError('placement/invalid-input', `${name}: the world matrix is not invertible`);
    }
    // Contacts set by hand are the caller's numbers, read by every later stage (a NaN weight reaches
    // the legs' targets, a weight of 5 drops the hips five times as far as it should): refused
    // here, before the ease or anything else is written, so the next good frame is placed as if
    // this one had not come. A track's own samples are in range and replace these, so they are
    // not checked then. Comparisons only (NaN fails both), no builtin call: a frame must not
    // allocate.
    if (this.track === null) {
      const weights = this.contactWeights;
      const planted = this.planted;
      for (let i = 0; i < weights.length; i++) {
        const c = weights[i];
        if (!(c >= 0 && c <= 1)) {
          throw new TendonError(
            'placement/invalid-input',
            `${name}: contactWeights[${i}] (leg '${this.legs[i].label}') is ${c}, not a number in [0, 1]`,
          );
        }
        if (planted[i] > 1) {
          throw new TendonError(
            'placement/invalid-input',
            `${name}: planted[${i}] (leg '${this.legs[i].label}') is ${planted[i]}, not 0 or 1`,
          );
        }
      }
    }
    // The weights are eased first: fully off, the solve reads no pose (a bad one passes through, as
    // the animation's). Otherwise a pose it cannot use is refused with the ease put back.
    const held = scratch.heldWeights;
    for (let k = 0; k < EASED_WEIGHT_LENGTH; k++) {
      held[k] = this.f[this.oWeightState + k];
      held[EASED_WEIGHT_LENGTH + k] = this.f[this.oLagWeightState + k];
    }
    scratch.args[EASE.goal] = this.f[this.oWeightState + 1];
    scratch.args[EASE.easeTime] = this.weightEase;
    scratch.args[EASE.dt] = dt;
    easedWeightStep(this.f, this.oWeightState, scratch.args);
    const globalWeight = this.f[this.oWeightState + 3];
    const lag = this.f;
    const lo = this.oLagWeightState;
    const goal = this.f[this.oWeightState + 1];
    scratch.args[EASE.easeTime] = this.weightEase === 0 ? 0 : this.weightEase + SWITCH_LAG_TAIL;
    easedWeightStep(lag, lo, scratch.args);
    // How far (leg lengths) a planted foot may lag its solve beyond the joint-step tolerance while
    // placement switches on or off (limitSteps): (1 − w) · SWITCH_LAG, w the lesser of the weight
    // and its slower twin. Switching on, while the twin eases; switching off, while the weight
    // eases and the legs unwind at weight 0. Not at a steady weight, nor easing to one between 0
    // and 1 (it would end in a jump where that ease ends).
    const w = lag[lo + 3] < globalWeight ? lag[lo + 3] : globalWeight;
    const switching =
      goal === 1
        ? lag[lo + 2] < 1
        : goal === 0
          ? this.f[this.oWeightState + 2] < 1 || globalWeight === 0
          : false;
    scratch.switchLag[0] = switching ? (1 - w) * SWITCH_LAG : 0;
    if (
      globalWeight === 0 &&
      this.f[this.oWeightState + 2] === 1 &&
      (this.unwound || this.weightEase === 0)
    ) {
      // Fully off, and the legs back on the animation (the joint-step limit takes them there after
      // an ease): an exact pass-through; smoothing restarts at its goals when turned back on.
      this.forget();
      // The pose is the animation's: placement adds nothing to the legs now.
      const end = this.oAddedRotations + 4 * this.limited.length;
      for (let o = this.oAddedRotations; o < end; o += 4) identity(this.f, o);
      this.own.undo(pose, model);
      this.own.done(pose);
      return;
    }
    if (!poseReadsUsable(this.reads, pose, model)) {
      for (let k = 0; k < EASED_WEIGHT_LENGTH; k++) {
        this.f[this.oWeightState + k] = held[k];
        this.f[this.oLagWeightState + k] = held[EASED_WEIGHT_LENGTH + k];
      }
      refusePose(this.reads, pose, model, name);
    }
    const t = scratch.trs;
    decompose(t, 0, scratch.worldRotation, 0, t, 3, W, 0);
    conjugate(scratch.worldRotationInverse, 0, scratch.worldRotation, 0);
    const scale = Math.sqrt(W[4] * W[4] + W[5] * W[5] + W[6] * W[6]);
    // (Loops, not TypedArray.set: a builtin call costs more than these few numbers.)
    for (let i = 0; i < this.legs.length; i++) {
      this.heldContactWeights[i] = this.contactWeights[i];
      this.heldPlanted[i] = this.planted[i];
    }
    for (let k = 0; k < this.report.length; k++) this.heldReport[k] = this.report[k];
    if (this.track !== null) {
      const a = scratch.args;
      a[0] = time;
      a[1] = this.f[this.oRamps];
      a[2] = this.f[this.oRamps];
      this.track.sampleAt(a, 0, this.contactWeights, this.planted);
    }
    const f = scratch.frameNumbers;
    f[0] = dt;
    f[1] = scale;
    f[2] = time;
    f[3] = globalWeight;
    // A pose not animated since the last solve is given back what that solve found (the pelvis
    // would otherwise drop by its offset again each frame), before the feet and hips are read.
    this.own.undo(pose, model);
    try {
      this.queryGround(model);
      this.computeTargets();
    } catch (error) {
      // Nothing written: the pose, the ease and the contacts and report as they were.
      this.own.revert(pose, model);
      for (let k = 0; k < EASED_WEIGHT_LENGTH; k++) {
        this.f[this.oWeightState + k] = held[k];
        this.f[this.oLagWeightState + k] = held[EASED_WEIGHT_LENGTH + k];
      }
      for (let i = 0; i < this.legs.length; i++) {
        this.contactWeights[i] = this.heldContactWeights[i];
        this.planted[i] = this.heldPlanted[i];
      }
      for (let k = 0; k < this.report.length; k++) this.report[k] = this.heldReport[k];
      throw error;
    }
    this.pitchBody(pose, model);
    this.applyPelvis(pose, model);
    const limiting = this.f[this.oStepLimit] >= -1;
    if (limiting) {
      const r = pose.rotations;
      const limited = this.limited;
      for (let k = 0; k < limited.length; k++) {
        const o = 4 * limited[k];
        for (let c = 0; c < 4; c++) this.f[this.oEntryRotations + 4 * k + c] = r[o + c];
      }
      for (let i = 0; i < this.legs.length; i++)
        bendNormal(this.f, this.oEntryBends + 4 * i, model, this.legs[i]);
    }
    this.solveLegs(pose, model);
    if (limiting) this.limitSteps(pose, model);
    this.unwound =
      !limiting ||
      (noTurns(this.f, this.oAddedRotations, 4 * this.limited.length) &&
        this.pelvisOffset === 0 &&
        this.f[this.oPitchApplied] === 0);
    this.initialized = true;
    this.own.done(pose);
  }

  /** Reads the animated feet and hips and casts a ray under each foot. Writes nothing in the pose. */
  private queryGround(model: Float64Array): void {
    const scale = scratch.frameNumbers[1];
    const s = this.f;
    const sO = this.oSettings;
    const W = scratch.world;
    const ray = scratch.ray;
    const hit = scratch.hit;
    const report = this.report;
    for (let i = 0; i < this.legs.length; i++) {
      const leg = this.legs[i];
      footPoint(scratch.vec, 0, model, leg);
      transformPointInto(this.f, this.oAnimated + 3 * i, W, scratch.vec, 0);
      transformPointInto(this.f, this.oHips + 3 * i, W, model, 16 * leg.root + 12);
      {
        const ax = this.f[this.oAnimated + 3 * i] - this.f[this.oHips + 3 * i];
        const ay = this.f[this.oAnimated + 3 * i + 1] - this.f[this.oHips + 3 * i + 1];
        const az = this.f[this.oAnimated + 3 * i + 2] - this.f[this.oHips + 3 * i + 2];
        this.f[this.oClipReach2 + i] = ax * ax + ay * ay + az * az;
      }
      if (leg.toe >= 0) {
        transformPointInto(this.f, this.oAnimatedToe + 3 * i, W, model, 16 * leg.toe + 12);
        if (this.planted[i] === 1 && this.b[this.oWasPlanted + i] === 0) {
          // Touching down: the toe's offset from the joint, where the next landing's toe will be.
          for (let k = 0; k < 3; k++)
            this.f[this.oLandedToe + 3 * i + k] = model[16 * leg.toe + 12 + k] - scratch.vec[k];
          this.b[this.oLandedToeKnown + i] = 1;
        }
      }
      const L = this.f[this.oLengths + i] * scale;
      const r = LEG_REPORT.length * i;
      // The animation's lift of the foot above its planted height on the clip's flat ground, and
      // the sole's (the lower of heel and toe above its own planted height).
      const lift = this.f[this.oAnimated + 3 * i + 1] - W[13] - this.f[this.oFootHeights + i] * scale;
      let toeLift = lift;
      const toeHeight = this.f[this.oToeHeights + i];
      const hasToe = leg.toe >= 0 && !Number.isNaN(toeHeight);
      if (hasToe) toeLift = this.f[this.oAnimatedToe + 3 * i + 1] - W[13] - toeHeight * scale;
      this.f[this.oLifts + 2 * i] = lift;
      // A toe hanging past a step's edge (below) is not a sole: the heel is, and the sole line
      // from it (the animation's, the toe lower as the heel rises) stays over the step's nose:
      // the foot is lifted to clear the nose rather than cut into it (CMU 02_01 down the slid steps).
      const hanging = this.f[this.oToeStep + i] < -0.05 * L;
      if (hanging) {
        const nose = lift + (toeLift - lift) * this.f[this.oNoseAt + i];
        this.f[this.oLifts + 2 * i + 1] = nose < lift ? nose : lift;
      } else this.f[this.oLifts + 2 * i + 1] = toeLift < lift ? toeLift : lift;
      // A locked foot stays where it was planted: of heel and toe, the one nearer the ground
      // (blended across a band of 5% of the leg) holds still, so the animation's roll from heel to
      // toe plays out while the foot as a whole does not slide. Once the contact has ended, the
      // foot keeps the drift it had and eases back to the animation with the contact weight.
      let locked = this.b[this.oLocked + i] === 1 && this.initialized;
      // (Only while the contact holds: a lock easing out after its contact ended is a stride
      // behind the foot by nature, and only its drift is read.)
      if (locked && this.planted[i] === 1 && this.b[this.oWasPlanted + i] === 1) {
        // A lock a leg's length from where the animation has the foot is out of any reach (the
        // character moved without reset(): a teleport, a moving platform, a correction from the
        // network): let go, the foot then locks afresh where it is. Held, the leg turned 161° to
        // reach it and the feet stood 0.5-0.7 m off the ground for ten frames (a hostile test).
        const fx = this.f[this.oLocks + 4 * i] - this.f[this.oAnimated + 3 * i];
        const fz = this.f[this.oLocks + 4 * i + 1] - this.f[this.oAnimated + 3 * i + 2];
        if (fx * fx + fz * fz > L * L) {
          this.b[this.oLocked + i] = 0;
          this.f[this.oDrift + 2 * i] = 0;
          this.f[this.oDrift + 2 * i + 1] = 0;
          locked = false;
        }
      }
      let driftX = 0;
      let driftZ = 0;
      // Only a contact that goes on holds its lock here: one that starts this frame locks afresh
      // in computeTargets, where the foot is now, and until then keeps the drift it eases out.
      const holding = locked && this.planted[i] === 1 && this.b[this.oWasPlanted + i] === 1;
      let toeHeld = 0;
      let flat = 0;
      // Whether this frame's heading turn is done (standing, before the toe's hold reads it).
      let turned = false;
      if (locked && !holding) {
        driftX = this.f[this.oDrift + 2 * i];
        driftZ = this.f[this.oDrift + 2 * i + 1];
      } else if (holding) {
        driftX = this.f[this.oLocks + 4 * i] - this.f[this.oAnimated + 3 * i];
        driftZ = this.f[this.oLocks + 4 * i + 1] - this.f[this.oAnimated + 3 * i + 2];
        let k = 0;
        // A toe over ground more than 5% of the leg below the heel's (held out past a step's
        // edge, the heel on the upper level) hangs: it holds nothing, and the heel holds the
        // foot where it was planted. Were the toe to hold, the heel would follow the
        // animation's roll off the edge and the foot drop to the lower level mid-contact (the
        // demo's capture walking down a step: 14 cm in one frame).
        if (hasToe && !hanging) {
          k = 0.5 + (lift - toeLift) / (0.05 * L);
          k = k < 0 ? 0 : k > 1 ? 1 : k;
          flat = k < 0.5 ? 2 * k : 2 - 2 * k;
          flat = flat > 0.3 ? 1 : flat / 0.3;
          if (this.b[this.oFlatToe + i] === 1) {
            scratch.flat[0] = flat;
            this.turnHeading(i);
            turned = true;
          }
          let toeX = this.f[this.oAnimatedToe + 3 * i];
          let toeZ = this.f[this.oAnimatedToe + 3 * i + 2];
          if (k > 0 && this.b[this.oFlatToe + i] === 1) {
            // The toe holds: where it will be once the foot is turned to the ground about its
            // joint (by last frame's tilt), not where the animation has it. On a slope the turn
            // moves the toe as the foot rolls onto it, which slid the foot (2.2 cm on CMU 02_01's
            // slope). The ground is then read under the joint's place, not the heel's lock, so the
            // sole stands on the slope where the foot now is.
            const v = scratch.vec;
            this.turnedToe(i);
            toeX = this.f[this.oAnimated + 3 * i] + v[0];
            toeZ = this.f[this.oAnimated + 3 * i + 2] + v[2];
            toeHeld = k;
          }
          if (this.b[this.oFlatToe + i] === 1 && this.b[this.oToeLanded + i] === 0) {
            // Until the toe first bears the foot in this contact (the heel struck first), its
            // lock goes with it (the animation's toe, carried by the heel's hold; not turned to
            // the ground, which read on bumps moved it more than it helped), so that it holds
            // where it comes down rather than where it was in the air at the heel's strike.
            if (k === 0) {
              this.f[this.oLocks + 4 * i + 2] = toeX + driftX;
              this.f[this.oLocks + 4 * i + 3] = toeZ + driftZ;
            } else this.b[this.oToeLanded + i] = 1;
          }
          driftX += (this.f[this.oLocks + 4 * i + 2] - toeX - driftX) * k;
          driftZ += (this.f[this.oLocks + 4 * i + 3] - toeZ - driftZ) * k;
        }
        // The lock slides along with the animation rather than hold the foot past the lock radius,
        // or farther from the animated hip than the reach the pelvis keeps (or than the animation
        // itself has the foot): a planted foot the body has left behind lets go instead of
        // stretching the leg or pulling the pelvis down.
        const d = Math.sqrt(driftX * driftX + driftZ * driftZ);
        let keep = d > s[sO + 10] * L ? (s[sO + 10] * L) / d : 1;
        const dd = d * d;
        if (dd > 0) {
          const share = scratch.share;
          share[0] = driftX;
          share[1] = driftZ;
          share[2] = dd;
          this.reachShare(i);
          const t = share[3];
          if (t < keep) keep = t < 0 ? 0 : t;
        }
        if (keep < 1) {
          for (let k = 0; k < 4; k += 2) {
            this.f[this.oLocks + 4 * i + k] -= driftX * (1 - keep);
            this.f[this.oLocks + 4 * i + k + 1] -= driftZ * (1 - keep);
          }
          driftX *= keep;
          driftZ *= keep;
        }
        if (k > 0.5 && this.b[this.oFlatToe + i] === 1) {
          // On its toe, a flat foot's heel lock follows the heel, as far as the heel is up (wholly
          // at k = 1, not at all once level): a foot that turns on the ball of its foot and rolls
          // back onto its heel is planted where the heel comes down, not pulled back to where it
          // first struck (CMU 131_01's turn: 5.9 → 2.3 cm), nor to where it was when the foot
          // stopped standing wholly on its toe (the toe, still down, slid 1 cm as its hold faded).
          const f = 2 * k - 1;
          this.f[this.oLocks + 4 * i] +=
            (this.f[this.oAnimated + 3 * i] + driftX - this.f[this.oLocks + 4 * i]) * f;
          this.f[this.oLocks + 4 * i + 1] +=
            (this.f[this.oAnimated + 3 * i + 2] + driftZ - this.f[this.oLocks + 4 * i + 1]) * f;
        }
        if (hanging && hasToe) {
          // A hanging toe holds nothing: its lock goes with it, so its ray reads the ground
          // under the toe as it is (back over the upper level as the foot pushes off, the toe
          // becomes the sole again instead of turning into the step).
          this.f[this.oLocks + 4 * i + 2] = this.f[this.oAnimatedToe + 3 * i] + driftX;
          this.f[this.oLocks + 4 * i + 3] = this.f[this.oAnimatedToe + 3 * i + 2] + driftZ;
        }
      }
      if (this.b[this.oFlatToe + i] === 1 && !turned) {
        scratch.flat[0] = 0;
        this.turnHeading(i);
      }
      this.f[this.oDrift + 2 * i] = driftX;
      this.f[this.oDrift + 2 * i + 1] = driftZ;
      // The ray: under the heel's lock while planted (a fixed point, so the ground under a planted
      // foot cannot jump as its heel and toe trade places near a step's edge), else under the foot;
      // a flat foot held on its toe, under where its joint will be (below).
      const plantedLock = holding;
      const steep = this.b[this.oSteep + i] === 1;
      if (steep) {
        // A digitigrade foot (a paw whose joint stands high above its toe) stands on its toe: the
        // ground is read under the toe, its lock while planted.
        ray[RAY.origin] = plantedLock
          ? this.f[this.oLocks + 4 * i + 2]
          : this.f[this.oAnimatedToe + 3 * i] + driftX;
        ray[RAY.origin + 2] = plantedLock
          ? this.f[this.oLocks + 4 * i + 3]
          : this.f[this.oAnimatedToe + 3 * i + 2] + driftZ;
      } else {
        ray[RAY.origin] = plantedLock ? this.f[this.oLocks + 4 * i] : this.f[this.oAnimated + 3 * i] + driftX;
        ray[RAY.origin + 2] = plantedLock
          ? this.f[this.oLocks + 4 * i + 1]
          : this.f[this.oAnimated + 3 * i + 2] + driftZ;
      }
      if (!plantedLock) {
        // A swinging foot heading past a step's nose (landingEdge) reads the ground where it is.
        ray[RAY.origin] += this.f[this.oLandShift + 2 * i];
        ray[RAY.origin + 2] += this.f[this.oLandShift + 2 * i + 1];
      }
      ray[RAY.origin + 1] = this.f[this.oAnimated + 3 * i + 1] + this.f[this.oRaySpans + 2 * i] * L;
      if (toeHeld > 0) {
        // A flat foot held on its toe: under where its joint will be, as far as the toe holds.
        ray[RAY.origin] += (this.f[this.oAnimated + 3 * i] + driftX - ray[RAY.origin]) * toeHeld;
        ray[RAY.origin + 2] += (this.f[this.oAnimated + 3 * i + 2] + driftZ - ray[RAY.origin + 2]) * toeHeld;
      }
      this.f[this.oRayOrigins + 2 * i] = ray[RAY.origin];
      this.f[this.oRayOrigins + 2 * i + 1] = ray[RAY.origin + 2];
      ray[RAY.direction] = 0;
      ray[RAY.direction + 1] = -1;
      ray[RAY.direction + 2] = 0;
      // Measured from the foot's planted height, not from a swinging foot: a paw lifted high,
      // far ahead of the hips on a slope down, still finds the ground it will land on.
      ray[RAY.maxDistance] = this.f[this.oRaySpans + 2 * i + 1] * L + (lift > 0 ? lift : 0);
      const found = this.castFootprint(ray, hit, i);
      if (found && holding && report[r + LEG_REPORT.grounded] === 1) {
        // A planted foot stays on the ground it stood on: where the ground under it jumps by more
        // than 3% of the leg in one frame (its lock slid past a step's edge as the body left it
        // behind), it stands on the plane of last frame's ground until it lifts off, instead of
        // dropping to the lower level mid-contact (CMU 02_01 walking down steps: 15 cm, 38.7°).
        // The report's ground point is then on that plane. (The 3% is a frame's change at 60 Hz
        // or faster; no terrain of the tests changes that much under a still foot.)
        const p = r + LEG_REPORT.groundPoint;
        const n = r + LEG_REPORT.groundNormal;
        if (standable(report, n)) {
          planeHeightAt(scratch.rise, ray, report, p);
          const y = scratch.rise[0];
          // Either way: a foot planted at the foot of a riser whose lock slides into it would
          // otherwise pop up onto the step (CMU 131_01 on steps: 59.8°); it stays on its level,
          // within the lock's slide of the riser.
          const jump = hit[1] - y;
          if (jump < -0.03 * L || jump > 0.03 * L) {
            hit[0] = ray[RAY.origin];
            hit[1] = y;
            hit[2] = ray[RAY.origin + 2];
            for (let k = 0; k < 3; k++) hit[3 + k] = report[n + k];
          }
        }
      }
      if (found) {
        const nl = Math.sqrt(hit[3] * hit[3] + hit[4] * hit[4] + hit[5] * hit[5]);
        for (let k = 0; k < 3; k++) {
          report[r + LEG_REPORT.groundPoint + k] = hit[k];
          report[r + LEG_REPORT.groundNormal + k] = hit[3 + k] / nl;
        }
      }
      report[r + LEG_REPORT.grounded] = found ? 1 : 0;
      this.f[this.oToeRise + i] = 0;
      this.f[this.oToeStep + i] = 0;
      if (found && hasToe && !steep) this.toeRiseAt(i, plantedLock);
      if (this.f[this.oToeRise + i] > 0) {
        // A foot across a rise (a step up: heel over the lower level, toe over the upper) is
        // raised by it (computeTargets); of that, it takes out no more of its sole's lift than
        // keeps its toe on the upper level, its heel off the lower one and its sole (the line
        // from heel to toe, the animation's) over the step's nose: a toe the animation still
        // holds up at heel strike comes down onto the step as far as the nose allows.
        const f = this.f[this.oNoseAt + i];
        const heel = lift + this.f[this.oToeRise + i];
        const nose = lift + (toeLift - lift) * f;
        const least = toeLift < heel ? toeLift : heel;
        this.f[this.oLifts + 2 * i + 1] = nose < least ? nose : least;
      }
      this.b[this.oLandingFound + i] = 0;
      const track = this.track;
      // Where a lifted foot will land (also while its lock still eases out after the contact).
      // Landed (or landing): the nose found was this swing's. Its move stays in landShift until the
      // foot's lock takes it (computeTargets).
      if (this.planted[i] === 1) this.b[this.oEdgeFound + i] = 0;
      if (track === null || this.planted[i] === 1 || track.landings[i].length === 0) continue;
      track.nextContactAt(
        scratch.frameNumbers,
        2,
        i,
        this.f,
        this.oLandingModel + 3 * i,
        this.f,
        this.oLandingIn + i,
      );
      const until = this.f[this.oLandingIn + i];
      // Only within the last `anticipation` seconds before it lands is the landing read (the
      // swing's target and the hips ease toward it over that time): earlier rays would be wasted.
      if (!(until > 0 && until < s[sO + 12])) {
        this.b[this.oEdgeFound + i] = 0;
        continue;
      }
      // Where the foot will land, in the world: its model position then, carried by the travel an
      // in-place clip implies until then: its ground velocity moment by moment, integrated. The
      // clip's mean velocity times the wait put the Fox's hind paw up to 9 cm short of where it
      // landed, which crossed a step's edge 2 frames before touchdown.
      transformPointInto(ray, RAY.origin, W, this.f, this.oLandingModel + 3 * i);
      // (The ground's travel is horizontal in model space, g[1] = 0.)
      const g = scratch.travel;
      track.groundTravelAt(scratch.frameNumbers, 2, this.f, this.oLandingIn + i, g, 0);
      ray[RAY.origin] -= W[0] * g[0] + W[8] * g[2];
      ray[RAY.origin + 2] -= W[2] * g[0] + W[10] * g[2];
      ray[RAY.origin + 1] = this.f[this.oAnimated + 3 * i + 1] + this.f[this.oRaySpans + 2 * i] * L;
      const jx = ray[RAY.origin];
      const jz = ray[RAY.origin + 2];
      if (steep) {
        // Under the toe where it lands: the joint-to-toe offset of the last touchdown, carried
        // there (of now before the first: a swinging hind paw's toe turns from behind its joint
        // to ahead of it, 8 cm on the Fox, and a landing read under now's toe missed a step's
        // nose it landed 6 mm past).
        if (this.b[this.oLandedToeKnown + i] === 1) {
          const t = this.oLandedToe + 3 * i;
          ray[RAY.origin] += W[0] * this.f[t] + W[4] * this.f[t + 1] + W[8] * this.f[t + 2];
          ray[RAY.origin + 2] += W[2] * this.f[t] + W[6] * this.f[t + 1] + W[10] * this.f[t + 2];
        } else {
          ray[RAY.origin] += this.f[this.oAnimatedToe + 3 * i] - this.f[this.oAnimated + 3 * i];
          ray[RAY.origin + 2] += this.f[this.oAnimatedToe + 3 * i + 2] - this.f[this.oAnimated + 3 * i + 2];
        }
      }
      // Where the ray stands from where the joint lands (0 but for a digitigrade foot): the
      // joint, not only the toe, is to land clear of a step's nose (landingEdge).
      this.f[this.oLandingBack + 2 * i] = ray[RAY.origin] - jx;
      this.f[this.oLandingBack + 2 * i + 1] = ray[RAY.origin + 2] - jz;
      if (this.castFootprint(ray, hit, i, true) && this.landingEdge(i, ray, hit)) {
        const nl = Math.sqrt(hit[3] * hit[3] + hit[4] * hit[4] + hit[5] * hit[5]);
        this.f[this.oLandingBase + i] =
          hit[1] + ((hit[4] / nl) * this.f[this.oStand + 2 * i] + this.f[this.oStand + 2 * i + 1]) * scale;
        this.b[this.oLandingFound + i] = 1;
        // A foot that will land across a step's edge, its toe over the upper level, will stand on
        // its toe (toeRiseAt): it heads for that height too, instead of rising at touchdown.
        if (hasToe && !steep) this.landingToeRise(i, hit, ray);
        this.f[this.oLandingCorrection + i] =
          this.f[this.oLandingBase + i] - W[13] - this.f[this.oFootHeights + i] * scale;
      }
    }
  }

  /**
   * Into `scratch.share[3]`: the largest share t of the horizontal move `scratch.share[0], [1]`
   * (its squared length `[2]`, > 0) of leg `i`'s animated foot with |e + t·move| ≤ reach, e the
   * foot from the animated hip lowered by `lockDrop` (the pelvis step lowers the hips as far as a
   * planted foot needs), the reach the pelvis keeps or the clip's own, whichever is longer. Below
   * 0 where the foot is out of that reach already. A lock's drift, and a landing moved past a
   * step's nose, go no farther.
   */
  private reachShare(i: number): void {
    const s = this.f;
    const sO = this.oSettings;
    const share = scratch.share;
    const L = this.f[this.oLengths + i] * scratch.frameNumbers[1];
    const ex = this.f[this.oAnimated + 3 * i] - this.f[this.oHips + 3 * i];
    const ey = this.f[this.oAnimated + 3 * i + 1] - this.f[this.oHips + 3 * i + 1];
    const ez = this.f[this.oAnimated + 3 * i + 2] - this.f[this.oHips + 3 * i + 2];
    const reach = s[sO + 11] * L;
    // (|e|², the clip's own reach squared, computed by queryGround.)
    const e0 = this.f[this.oClipReach2 + i];
    const r2 = e0 > reach * reach ? e0 : reach * reach;
    const eyLow = ey + s[sO + 14] * L;
    const e2 = ex * ex + eyLow * eyLow + ez * ez;
    const dd = share[2];
    const ed = ex * share[0] + ez * share[1];
    const disc = ed * ed - dd * (e2 - r2);
    share[3] = disc > 0 ? (-ed + Math.sqrt(disc)) / dd : 0;
  }

  /**
   * Casts `ray` for leg `i` into `hit`. A toeless foot with a footprint (`footprint`) also casts at
   * each end of its pad, along the character's forward direction, and stands on the highest
   * ground the pad covers: `hit` keeps the centre's point and normal, raised by how far the higher
   * end's ground stands above the centre's plane (so a slope or a bump raises nothing, and a paw
   * landing just past a step's edge stands on the edge instead of dropping past it, then jumping
   * back up as the paw settles onto it). A digitigrade foot's toe does so where it will land
   * (`landing`): a hind paw whose toe crossed a step's nose walking down in the frame before it
   * landed dropped 14 cm in that frame (the Fox's knee turned 58.8° beyond the clip's), where
   * heading for the nose it lands on the edge or comes down past it sooner. And a planted one on
   * the first frame of a fresh start (the first solve, switched back on, a reset): it then has no
   * lock to stand on, and its toe, a little past a step's nose, read the lower level: the hips
   * sank 18 cm and a hind leg folded past its reach (27.3° beyond the clip's, switched on over
   * 0.1 s on the steps).
   */
  private castFootprint(ray: Float64Array, hit: Float64Array, i: number, landing = false): boolean {
    const leg = this.legs[i];
    const found = this.castChecked(ray, hit, leg);
    // (The leg's length is read here, not passed: a double passed to a call V8 does not inline is boxed.)
    const radius = this.footprint * this.f[this.oLengths + i] * scratch.frameNumbers[1];
    const fresh = !this.initialized && this.planted[i] === 1;
    if (!found || radius === 0 || (leg.toe >= 0 && !((landing || fresh) && this.b[this.oSteep + i] === 1)))
      return found;
    const W = scratch.world;
    const f = this.f;
    const fO = this.oForwardModel;
    let fx = W[0] * f[fO] + W[4] * f[fO + 1] + W[8] * f[fO + 2];
    let fz = W[2] * f[fO] + W[6] * f[fO + 1] + W[10] * f[fO + 2];
    const fl = Math.sqrt(fx * fx + fz * fz);
    if (!(fl > 0)) return true;
    fx *= radius / fl;
    fz *= radius / fl;
    const ox = ray[RAY.origin];
    const oz = ray[RAY.origin + 2];
    // The centre's hit (its plane is what the ends are measured against).
    const c = scratch.planeHit;
    c.set(hit);
    if (!standable(c, 3)) return true;
    let rise = 0;
    for (let sgn = -1; sgn <= 1; sgn += 2) {
      ray[RAY.origin] = ox + sgn * fx;
      ray[RAY.origin + 2] = oz + sgn * fz;
      if (!this.castChecked(ray, hit, leg)) continue;
      riseOverPlane(scratch.rise, hit, ray, c, 0);
      if (scratch.rise[0] > rise) rise = scratch.rise[0];
    }
    ray[RAY.origin] = ox;
    ray[RAY.origin + 2] = oz;
    hit.set(c);
    if (this.initialized && rise > 0) {
      // No higher than the foot already stands (its target last frame, before the weights) over
      // the centre's ground: a paw leaving a step's edge stays on it, but one coming down past
      // the edge, its target already at the lower level, does not jump back up onto the edge as
      // it lands (15 cm). Its pad's rear then overlaps the upper step's nose, by less than the
      // footprint (docs/placement-details.md).
      const stand =
        (c[4] * this.f[this.oStand + 2 * i] + this.f[this.oStand + 2 * i + 1]) * scratch.frameNumbers[1];
      const above = this.f[this.oPlacedY + i] - stand - c[1];
      if (rise > above) rise = above > 0 ? above : 0;
    }
    hit[1] += rise;
    return true;
  }

  /**
   * Where a swing lands just past a step's nose, or up to 2% of the leg before one (the track
   * predicts the landing to a centimetre or so), walking down or up, moves its landing on along
   * the foot's path to `edgeClearance` past the nose: `ray` (cast where the track has it land, `hit` its
   * answer) is then cast there, and the move is kept in `edgeShift` (the targets take it as the
   * landing nears: computeTargets). Landing where the clip has it, the foot would pass over the
   * upper level until touchdown, then drop the step's height in that frame (CMU 131_01's heel
   * 2 mm past a nose: its target fell 14.5 cm, a knee turned 30°); walking up, a foot landing
   * just short of a riser, or just past its nose, stands on the nose's edge, or meets the upper
   * level it was not heading for (the Fox's front paw, 1–2 cm short of a riser, stood on its nose
   * and dropped 15 cm when the clip slid it back: 35° at an elbow). The nose is looked for once a
   * swing (findNose) and kept with the path's direction until the foot lands, so that the landing
   * does not jump as the prediction wavers. The move is at most 5% of the leg more than the
   * clearance, and no more than `lockRadius` (the lock would slide it back). Returns whether the
   * ground was found where it lands.
   */
  private landingEdge(i: number, ray: Float64Array, hit: Float64Array): boolean {
    // (Read only where the landing is found this frame: written here, none or the move.)
    this.f[this.oEdgeShift + 2 * i] = 0;
    this.f[this.oEdgeShift + 2 * i + 1] = 0;
    const L = this.f[this.oLengths + i] * scratch.frameNumbers[1];
    let clear = this.f[this.oSettings + 17] * L;
    if (!(clear > 0)) return true;
    const e = this.oEdge + 4 * i;
    const px = ray[RAY.origin];
    const pz = ray[RAY.origin + 2];
    if (this.b[this.oEdgeFound + i] !== 1) {
      // Looked already, and found none: looked again only once the landing has moved by 1% of the
      // leg since (a look every frame cost 4.5% of a placed crowd's frame).
      if (this.b[this.oEdgeFound + i] === 2) {
        const mx = px - this.f[e];
        const mz = pz - this.f[e + 1];
        if (mx * mx + mz * mz < 1e-4 * L * L) return true;
      }
      // (Written once the rays are cast: a ground that throws leaves the look as it was.)
      if (!this.findNose(i, ray, hit)) {
        this.b[this.oEdgeFound + i] = 2;
        this.f[e] = px;
        this.f[e + 1] = pz;
        return true;
      }
      this.b[this.oEdgeFound + i] = 1;
    }
    const dx = this.f[e + 2];
    const dz = this.f[e + 3];
    // A digitigrade foot's ray is under its toe: the clearance counts from its joint (findNose).
    const back = this.f[this.oLandingBack + 2 * i] * dx + this.f[this.oLandingBack + 2 * i + 1] * dz;
    if (back > 0) clear += back;
    let move = (this.f[e] - px) * dx + (this.f[e + 1] - pz) * dz + clear;
    if (!(move > 0)) return true;
    if (move > clear + 0.05 * L) move = clear + 0.05 * L;
    const radius = this.f[this.oSettings + 10] * L;
    if (move > radius) move = radius;
    this.f[this.oEdgeShift + 2 * i] = move * dx;
    this.f[this.oEdgeShift + 2 * i + 1] = move * dz;
    ray[RAY.origin] = px + move * dx;
    ray[RAY.origin + 2] = pz + move * dz;
    return this.castFootprint(ray, hit, i, true);
  }

  /**
   * Looks for a step's nose on the path of leg `i`'s foot to its landing (`ray` cast there, `hit`
   * its answer): one ray up to `edgeClearance` behind the landing, over the ground the foot still
   * passes, then one 2% of the leg ahead of it; where the ground drops or rises by more than 8%
   * of the leg (more than a 20° slope falls over the span: a slope's foot is no nose), seven more
   * place the nose to 1/128 of the span. Walking down, the nose is the upper level's edge the
   * foot passes; walking up, the edge of the level it climbs onto. Found, writes it and the
   * path's direction to `edge`; returns whether it was found.
   */
  private findNose(i: number, ray: Float64Array, hit: Float64Array): boolean {
    if (!standable(hit, 3)) return false;
    const L = this.f[this.oLengths + i] * scratch.frameNumbers[1];
    const px = ray[RAY.origin];
    const pz = ray[RAY.origin + 2];
    // The foot's path: from where its ray is now to where it lands.
    let dx = px - this.f[this.oRayOrigins + 2 * i];
    let dz = pz - this.f[this.oRayOrigins + 2 * i + 1];
    const length = Math.sqrt(dx * dx + dz * dz);
    if (!(length > 0.05 * L)) return false;
    dx /= length;
    dz /= length;
    // A digitigrade foot's ray is under its toe: the clearance counts from its joint.
    const back = this.f[this.oLandingBack + 2 * i] * dx + this.f[this.oLandingBack + 2 * i + 1] * dz;
    const clear = this.f[this.oSettings + 17] * L + (back > 0 ? back : 0);
    scratch.edgePlane.set(hit);
    const drop = 0.08 * L;
    // (The probe's numbers and its answer go through arrays: doubles passed to or returned from a
    // call V8 does not inline are boxed, 42–54 B a frame.)
    const probe = scratch.edgeProbe;
    probe[0] = px;
    probe[1] = pz;
    probe[2] = dx;
    probe[3] = dz;
    // The span (along the path from the landing) from `behind` to `ahead`, and their rises over
    // the landing's plane: a nose lies between them where they differ by more than `drop`.
    // Walking down, the ground behind is higher, or else the ground ahead lower (as before the
    // walk up was looked for: a drop ahead is taken first); walking up, the ground behind is
    // lower, or else the ground ahead higher.
    let behind = -(length < clear ? length : clear);
    let ahead = 0;
    probe[4] = behind;
    this.riseAlong(i, ray);
    let behindRise = scratch.rise[0];
    let aheadRise = 0;
    if (!(behindRise > drop)) {
      const riseBehind = behindRise;
      const from = behind;
      behind = 0;
      behindRise = 0;
      ahead = 0.02 * L;
      probe[4] = ahead;
      this.riseAlong(i, ray);
      aheadRise = scratch.rise[0];
      // (A hole is no nose: there is no level to land on.)
      if (!(aheadRise < -drop && aheadRise > Number.NEGATIVE_INFINITY)) {
        if (riseBehind < -drop && riseBehind > Number.NEGATIVE_INFINITY) {
          // Up past a riser behind the landing.
          behind = from;
          behindRise = riseBehind;
          ahead = 0;
          aheadRise = 0;
        } else if (!(aheadRise > drop)) return false;
      }
    }
    const half = 0.5 * (behindRise + aheadRise);
    const down = behindRise > aheadRise;
    for (let k = 0; k < 7; k++) {
      const mid = 0.5 * (behind + ahead);
      probe[4] = mid;
      this.riseAlong(i, ray);
      if (scratch.rise[0] > half === down) behind = mid;
      else ahead = mid;
    }
    const at = 0.5 * (behind + ahead);
    const e = this.oEdge + 4 * i;
    this.f[e] = px + at * dx;
    this.f[e + 1] = pz + at * dz;
    this.f[e + 2] = dx;
    this.f[e + 3] = dz;
    return true;
  }

  /**
   * Into `scratch.rise[0]`: how far the ground at `scratch.edgeProbe` (`at` along (dx, dz) from
   * (x, z)) stands over the plane of `scratch.edgePlane`, −∞ where there is none (a hole reads as
   * low ground). `ray` gives the ray's height, direction and reach.
   */
  private riseAlong(i: number, ray: Float64Array): void {
    const p = scratch.edgeProbe;
    const probe = scratch.edgeRay;
    probe.set(ray);
    probe[RAY.origin] = p[0] + p[4] * p[2];
    probe[RAY.origin + 2] = p[1] + p[4] * p[3];
    if (this.castChecked(probe, scratch.edgeHit, this.legs[i])) {
      riseOverPlane(scratch.rise, scratch.edgeHit, probe, scratch.edgePlane, 0);
    } else scratch.rise[0] = Number.NEGATIVE_INFINITY;
  }

  /**
   * Per leg, whether the foot is digitigrade (a toe with a planted height, below its joint more
   * than ahead), and where its joint stands over the ground: `stand[2i]` along the normal, and
   * `stand[2i + 1]` straight up (model units). A foot's sole is on the ground along the normal; a
   * digitigrade foot's joint keeps the animation's height over its toe (it is not turned to the
   * ground), so only the toe's height goes along the normal.
   */
  private updateStand(): void {
    for (let i = 0; i < this.legs.length; i++) {
      const toe = this.f[this.oToeHeights + i];
      const steep = this.b[this.oFlatToe + i] === 0 && this.legs[i].toe >= 0 && !Number.isNaN(toe);
      this.b[this.oSteep + i] = steep ? 1 : 0;
      this.f[this.oStand + 2 * i] = steep ? toe : this.f[this.oFootHeights + i];
      this.f[this.oStand + 2 * i + 1] = steep ? this.f[this.oFootHeights + i] - toe : 0;
    }
  }

  /**
   * How far the ground under the toe stands above the plane of the ground under the heel (0 when
   * below it, or when no ground is found there): a foot landing across a step's edge, heel over
   * the lower level and toe over the upper, stands on its toe, not in the step. Reads the heel's
   * hit from the report, so call it after the heel's ray.
   */
  private toeRiseAt(i: number, plantedLock: boolean): void {
    const ray = scratch.ray;
    const hit = scratch.hit;
    const report = this.report;
    const r = LEG_REPORT.length * i;
    // (Drift and leg length are read here, not passed: doubles passed to a call V8 does not
    // inline are boxed, and so is a double returned from one; the rise is written to toeRise.)
    const L = this.f[this.oLengths + i] * scratch.frameNumbers[1];
    const tx = plantedLock
      ? this.f[this.oLocks + 4 * i + 2]
      : this.f[this.oAnimatedToe + 3 * i] + this.f[this.oDrift + 2 * i];
    const tz = plantedLock
      ? this.f[this.oLocks + 4 * i + 3]
      : this.f[this.oAnimatedToe + 3 * i + 2] + this.f[this.oDrift + 2 * i + 1];
    ray[RAY.origin] = tx;
    ray[RAY.origin + 1] = this.f[this.oAnimated + 3 * i + 1] + this.f[this.oRaySpans + 2 * i] * L;
    ray[RAY.origin + 2] = tz;
    if (!this.castChecked(ray, hit, this.legs[i])) return;
    if (!standable(report, r + LEG_REPORT.groundNormal)) return;
    // The plane through the heel's hit that the foot is turned to: the smoothed normal (last
    // frame's: one spring step behind the turn applied this frame; unweighted by contact, where the
    // turn is), within the tilt limit, not the normal at the heel's hit alone. Where the ground
    // creases under the heel (the bumps' first slope rising from flat ground), that normal turned
    // 12° in a frame while the foot's turn did not, and the toe's rise read off it put the sole
    // 1.8 cm into the slope.
    const plane = scratch.planeHit;
    for (let k = 0; k < 3; k++) plane[k] = report[r + LEG_REPORT.groundPoint + k];
    const ns = 6 * i;
    const springs = this.oNormalSprings + ns;
    const from = !this.initialized || !standable(this.f, springs) ? report : this.f;
    const fo = from === report ? r + LEG_REPORT.groundNormal : springs;
    for (let k = 0; k < 3; k++) plane[3 + k] = from[fo + k];
    limitTilt(plane, 3, this.f, this.oSettings);
    riseOverPlane(scratch.rise, hit, ray, plane, 0);
    const rise = scratch.rise[0];
    this.f[this.oToeRise + i] = rise > 0 ? rise : 0;
    this.f[this.oToeStep + i] = rise;
    this.f[this.oNoseAt + i] = 1;
    if (!(rise > 0 || rise < -0.05 * L)) return;
    // Where the ground changes level between heel and toe (a step's nose), to a 32nd of the foot:
    // halving the span five times, each time asking whether the ground there is past half the
    // change. The nose's place is taken at the end of that 32nd the sole must clear: nearer the
    // heel for a rise (the toe on the step), nearer the toe for a drop (the heel on it). Ground
    // that changes smoothly (a bump, a valley: past a quarter of the change at the heel's end of
    // that 32nd, or short of three quarters at the toe's) is no step, and gets no nose.
    const hx = this.f[this.oRayOrigins + 2 * i];
    const hz = this.f[this.oRayOrigins + 2 * i + 1];
    let lo = 0;
    let hi = 1;
    let atLo = 0;
    let atHi = rise;
    for (let k = 0; k < 5; k++) {
      const mid = (lo + hi) / 2;
      ray[RAY.origin] = hx + (tx - hx) * mid;
      ray[RAY.origin + 2] = hz + (tz - hz) * mid;
      let at = 0;
      if (this.castChecked(ray, hit, this.legs[i])) {
        riseOverPlane(scratch.rise, hit, ray, plane, 0);
        at = scratch.rise[0];
      }
      if (rise > 0 ? at > 0.5 * rise : at < 0.5 * rise) {
        hi = mid;
        atHi = at;
      } else {
        lo = mid;
        atLo = at;
      }
    }
    const sharp =
      rise > 0 ? atLo < 0.25 * rise && atHi > 0.75 * rise : atLo > 0.25 * rise && atHi < 0.75 * rise;
    if (sharp) this.f[this.oNoseAt + i] = rise > 0 ? lo : hi;
  }

  /**
   * {@link FootPlacement.toeRiseAt} at the landing: how far the ground under the toe, carried by
   * the foot's travel to where the landing ray (`ray`, its hit in `hit`) was cast, stands above the
   * plane of the ground the heel lands on, added to `landingBase[i]`. Overwrites `ray` and `hit`.
   */
  private landingToeRise(i: number, hit: Float64Array, ray: Float64Array): void {
    if (!standable(hit, 3)) return;
    const heel = scratch.planeHit;
    heel.set(hit);
    // The heel-to-toe offset of the foot now, carried to the landing (the track knows where the
    // heel lands, not the toe): near touchdown, where it counts, the two agree.
    ray[RAY.origin] = ray[RAY.origin] + this.f[this.oAnimatedToe + 3 * i] - this.f[this.oAnimated + 3 * i];
    ray[RAY.origin + 2] =
      ray[RAY.origin + 2] + this.f[this.oAnimatedToe + 3 * i + 2] - this.f[this.oAnimated + 3 * i + 2];
    if (!this.castChecked(ray, hit, this.legs[i])) return;
    riseOverPlane(scratch.rise, hit, ray, heel, 0);
    const rise = scratch.rise[0];
    if (rise > 0) this.f[this.oLandingBase + i] += rise;
  }

  /** One ray into the ground, its answer checked. */
  private castChecked(ray: Float64Array, hit: Float64Array, leg: LegRig): boolean {
    let found: boolean;
    insideGround = true;
    try {
      found = this.ground.raycast(ray, hit) === true;
    } catch (cause) {
      insideGround = false;
      throw new TendonError(
        'placement/ground-failed',
        `FootPlacement.solve: the ground threw for leg "${leg.label}"`,
        {
          cause,
        },
      );
    }
    insideGround = false;
    if (!found) return false;
    for (let k = 0; k < 6; k++) {
      if (!Number.isFinite(hit[k])) {
        throw new TendonError(
          'placement/ground-failed',
          `FootPlacement.solve: the ground answered ${hit[k]} for leg "${leg.label}"`,
        );
      }
    }
    if (!(hit[3] * hit[3] + hit[4] * hit[4] + hit[5] * hit[5] > 0)) {
      throw new TendonError(
        'placement/ground-failed',
        `FootPlacement.solve: a zero normal for leg "${leg.label}"`,
      );
    }
    // The point on the ray, within its length (to a thousandth of the ray, for a renderer's
    // float32 geometry): a point 1e300 off, taken, stood a foot's target there and held the hips
    // down for a second. (The hit's distance is not read: a ground may leave it out.)
    const dx = hit[0] - ray[RAY.origin];
    const dy = hit[1] - ray[RAY.origin + 1];
    const dz = hit[2] - ray[RAY.origin + 2];
    const along = dx * ray[RAY.direction] + dy * ray[RAY.direction + 1] + dz * ray[RAY.direction + 2];
    const length = ray[RAY.maxDistance];
    const tolerance = 1e-3 * length;
    const across = dx * dx + dy * dy + dz * dz - along * along;
    if (!(along >= -tolerance && along <= length + tolerance) || !(across <= tolerance * tolerance)) {
      throw new TendonError(
        'placement/ground-failed',
        `FootPlacement.solve: the ground answered a point off its ray for leg "${leg.label}" (${along} along a ray of ${length}, ${Math.sqrt(across > 0 ? across : 0)} off it)`,
      );
    }
    return true;
  }

  /** Targets, locks and weights from the ground hits, smoothed. */
  private computeTargets(): void {
    const dt = scratch.frameNumbers[0];
    const scale = scratch.frameNumbers[1];
    const globalWeight = scratch.frameNumbers[3];
    const a = scratch.args;
    const s = this.f;
    const sO = this.oSettings;
    const report = this.report;
    const v = scratch.vec;
    const fresh = !this.initialized;
    for (let i = 0; i < this.legs.length; i++) {
      const r = LEG_REPORT.length * i;
      const grounded = report[r + LEG_REPORT.grounded] === 1;
      const gw = EASED_WEIGHT_LENGTH * i;
      const c = this.contactWeights[i];
      if (fresh) easedWeightSet(this.f, this.oGroundWeights + gw, grounded ? 1 : 0);
      else {
        a[EASE.goal] = grounded ? 1 : 0;
        a[EASE.easeTime] = s[sO + 9];
        a[EASE.dt] = dt;
        easedWeightStep(this.f, this.oGroundWeights + gw, a);
      }
      const ax = this.f[this.oAnimated + 3 * i];
      const ay = this.f[this.oAnimated + 3 * i + 1];
      const az = this.f[this.oAnimated + 3 * i + 2];
      // The animation's lift of the foot above its planted height on the clip's flat ground. While
      // planted, the sole's own lift (the lower of heel and toe above its planted height: a clip
      // whose floor is not quite level, a foot that floats or sinks) is taken out, so the sole
      // lands on the ground while a heel raised on the toe stays raised.
      // That correction eases with the contact weight, so it is added after the smoothing.
      const lift = this.f[this.oLifts + 2 * i];
      const soleLift = this.f[this.oLifts + 2 * i + 1];
      // As the foot lifts off (its contact weight easing out) the correction stays what it was
      // at the end of the contact, so that the foot's rising lift is not pulled back down.
      // Coming down (before the contact), the correction is the floor's error, not the swing's
      // height: bounded by 3% of the leg or by the error this foot's last contact ended with (a
      // capture's floor is off by about as much from one step to the next), so that a foot still
      // well above the ground is not pulled onto it early.
      const liftingOff = c < this.f[this.oLastContact + i] && this.planted[i] === 0;
      if (this.planted[i] === 1) {
        // A foot planted by hand well off its planted height (mid-swing: a game stopping its
        // character) comes down at a leg a second, not in a frame: taken whole, the swinging
        // foot 37 cm up dropped onto the ground in one frame, its knee turning 88° (a hostile
        // test).
        // The part of the lift still held (residual) shrinks by that each frame, and follows the
        // clip's foot down where it comes down faster: the sole never passes the ground.
        const leg = this.f[this.oLengths + i] * scale;
        const band = 0.03 * leg;
        const most = 1 * leg * dt;
        let held = this.f[this.oResidualLift + i];
        if (this.b[this.oWasPlanted + i] === 0) {
          // (From the correction last frame took: its contact weight times its floor's lift. A
          // contact track's contacts are the clip's, its feet on its floor: taken whole, as a
          // Fox's paw landing 1.7 cm above it was held there at a contact frame.)
          held = soleLift - this.f[this.oLastContact + i] * this.f[this.oFloorLift + i];
          if (!(held > band || held < -band) || this.track !== null) held = 0;
        }
        let residual = 0;
        if (held > 0) {
          residual = (held < soleLift ? held : soleLift) - most;
          if (!(residual > 0)) residual = 0;
        } else if (held < 0) {
          residual = (held > soleLift ? held : soleLift) + most;
          if (!(residual < 0)) residual = 0;
        }
        const lift = soleLift - residual;
        this.f[this.oResidualLift + i] = residual;
        this.f[this.oFloorLift + i] = lift;
        this.f[this.oHeldLift + i] = lift < 0 ? -lift : lift;
      } else if (!liftingOff) {
        const small = 0.03 * this.f[this.oLengths + i] * scale;
        const band = this.f[this.oHeldLift + i] > small ? this.f[this.oHeldLift + i] : small;
        this.f[this.oFloorLift + i] = soleLift > band ? band : soleLift < -band ? -band : soleLift;
      }

      const correction = grounded ? -c * this.f[this.oFloorLift + i] : 0;
      const os = 6 * i;
      const locked = this.b[this.oLocked + i] === 1 && !fresh;
      if (grounded) {
        // Where the foot joint sits when planted here: the sole on the ground, whatever the slope.
        const nx = report[r + LEG_REPORT.groundNormal];
        const ny = report[r + LEG_REPORT.groundNormal + 1];
        const nz = report[r + LEG_REPORT.groundNormal + 2];
        const base =
          report[r + LEG_REPORT.groundPoint + 1] +
          (ny * this.f[this.oStand + 2 * i] + this.f[this.oStand + 2 * i + 1]) * scale +
          this.f[this.oToeRise + i];
        // A swinging foot heads for the height of the ground where it will land over the last
        // `anticipation` seconds before it lands (so it clears a step up in time, and does not
        // climb a long slope at once), and never drops below the ground it passes over.
        let land = base;
        this.f[this.oLandingNear + i] = 0;
        if (this.b[this.oLandingFound + i] === 1) {
          let k = 1 - this.f[this.oLandingIn + i] / s[sO + 12];
          k = k < 0 ? 0 : k * k * (3 - 2 * k);
          // While the last contact's lock still eases out, by as much as it has: taken whole only
          // once the lock let go, the landing's weight jumped from 0 to 0.7 in a frame on the
          // Fox's front paw (switched back on over the steps: the hips dropped 3 cm a frame and
          // the standing front knee turned 20.8°).
          if (locked) k *= 1 - this.f[this.oLockWeights + EASED_WEIGHT_LENGTH * i + 3];
          land = base + (this.f[this.oLandingBase + i] - base) * k;
          this.f[this.oLandingNear + i] = k;
          // Moved on past a step's nose (landingEdge) as the landing nears, as far as the leg
          // reaches from the hips now (lowered by lockDrop, as a lock is held: landed farther, its
          // lock would slide back in the contact's first frames, 2.7 cm on the robot).
          const ks = k < 0.5 ? 2 * k : 1;
          let sx = this.f[this.oEdgeShift + 2 * i] * ks;
          let sz = this.f[this.oEdgeShift + 2 * i + 1] * ks;
          const dd = sx * sx + sz * sz;
          if (dd > 0) {
            const share = scratch.share;
            share[0] = sx;
            share[1] = sz;
            share[2] = dd;
            this.reachShare(i);
            const t = share[3];
            if (t < 1) {
              sx *= t > 0 ? t : 0;
              sz *= t > 0 ? t : 0;
            }
          }
          // Growing no faster than 3 legs a second (0.05 a frame at 60 Hz; the ease's own is under
          // 0.03): a nose found late in the swing, once the landing's prediction moved, would
          // otherwise bring the whole move in one frame.
          const ox = this.f[this.oLandShift + 2 * i];
          const oz = this.f[this.oLandShift + 2 * i + 1];
          const gx = sx - ox;
          const gz = sz - oz;
          const g2 = gx * gx + gz * gz;
          const rate = 3 * this.f[this.oLengths + i] * scale * dt;
          if (sx * sx + sz * sz > ox * ox + oz * oz && g2 > rate * rate) {
            const k2 = rate / Math.sqrt(g2);
            sx = ox + gx * k2;
            sz = oz + gz * k2;
          }
          this.f[this.oLandShift + 2 * i] = sx;
          this.f[this.oLandShift + 2 * i + 1] = sz;
        } else if (this.planted[i] === 0) {
          this.f[this.oLandShift + 2 * i] = 0;
          this.f[this.oLandShift + 2 * i + 1] = 0;
        }
        const y = (land > base ? land : base) + lift;
        // Horizontal offsets from where the ray was cast (the slope's push of the sole, n·h).
        // (A digitigrade foot's toe is what stands on the ground: its push, not the joint's.)
        const hp = this.f[this.oStand + 2 * i] * scale;
        if (locked && this.planted[i] === 1 && this.b[this.oWasPlanted + i] === 1) {
          // Held from touchdown: a foot rolling onto its toe moves its ray, and on bumps the normal
          // there would push the planted foot along (CMU 02_01 on the bumps: 1.9 → 1.2 cm slide).
          v[0] = this.f[this.oHeldPush + 2 * i];
          v[2] = this.f[this.oHeldPush + 2 * i + 1];
        } else {
          v[0] = report[r + LEG_REPORT.groundPoint] + nx * hp - this.f[this.oRayOrigins + 2 * i];
          v[2] = report[r + LEG_REPORT.groundPoint + 2] + nz * hp - this.f[this.oRayOrigins + 2 * i + 1];
          this.f[this.oHeldPush + 2 * i] = v[0];
          this.f[this.oHeldPush + 2 * i + 1] = v[2];
        }
        v[1] = y - ay;
        v[3] = nx;
        v[4] = ny;
        v[5] = nz;
      } else {
        // No ground: keep the last offset and turn the foot back upright while its weight eases out.
        v[0] = this.f[this.oOffsetSprings + os];
        v[1] = this.f[this.oOffsetSprings + os + 1];
        v[2] = this.f[this.oOffsetSprings + os + 2];
        v[3] = 0;
        v[4] = 1;
        v[5] = 0;
      }
      if (fresh) {
        for (let k = 0; k < 3; k++) {
          this.f[this.oOffsetSprings + os + k] = v[k];
          this.f[this.oOffsetSprings + os + 3 + k] = 0;
          this.f[this.oNormalSprings + os + k] = v[3 + k];
          this.f[this.oNormalSprings + os + 3 + k] = 0;
        }
      } else {
        // A swinging foot's offset is smoothed; as the contact weight rises the spring stiffens
        // twentyfold, so a planted foot does not lag behind the ground under it (a slope's ramp).
        // Only a foot coming down or planted: a foot lifting off a step's edge, whose ray has
        // crossed to the lower level, comes down smoothly.
        const p = scratch.args;
        const stiff = liftingOff ? 0 : c;
        p[SPRING.omega] = s[sO + 7] / (1 - 0.95 * stiff);
        p[SPRING.dt] = dt;
        springStep3(this.f, this.oOffsetSprings + os, v, 0, p);
        p[SPRING.omega] = s[sO + 8];
        springStep3(this.f, this.oNormalSprings + os, v, 3, p);
      }
      // Lock at touchdown where the foot is now (locking moves nothing); release once the
      // contact has ended and its weight has eased out, or when the ground is lost.
      let tx = ax + this.f[this.oOffsetSprings + os];
      const ty = ay + this.f[this.oOffsetSprings + os + 1] + correction;
      let tz = az + this.f[this.oOffsetSprings + os + 2];
      // (Until a lock takes it: a foot that lands over a hole keeps it until it finds ground.)
      if (this.planted[i] === 0 || !grounded) {
        tx += this.f[this.oLandShift + 2 * i];
        tz += this.f[this.oLandShift + 2 * i + 1];
      }
      // A new contact (planted rising) locks afresh where the foot is now (the animated foot plus
      // what is left of an easing drift), so locking moves nothing. When the contact ends, the
      // drift eases out over the contact track's ramp-out (its own ease, not the contact weight,
      // which may already be rising for the next contact); then the lock is let go.
      const lw = EASED_WEIGHT_LENGTH * i;
      const held = locked ? this.f[this.oLockWeights + lw + 3] : 0;
      if (this.planted[i] === 1 && (!locked || this.b[this.oWasPlanted + i] === 0) && grounded) {
        // (With the move a landing past a step's nose took, which the contact keeps as its drift.)
        const dx = this.f[this.oDrift + 2 * i] * held + this.f[this.oLandShift + 2 * i];
        const dz = this.f[this.oDrift + 2 * i + 1] * held + this.f[this.oLandShift + 2 * i + 1];
        this.f[this.oLandShift + 2 * i] = 0;
        this.f[this.oLandShift + 2 * i + 1] = 0;
        this.b[this.oEdgeFound + i] = 0;
        this.b[this.oLocked + i] = 1;
        this.f[this.oLocks + 4 * i] = ax + dx;
        this.f[this.oLocks + 4 * i + 1] = az + dz;
        this.b[this.oToeLanded + i] = 0;
        this.f[this.oLocks + 4 * i + 2] =
          (this.legs[i].toe >= 0 ? this.f[this.oAnimatedToe + 3 * i] : ax) + dx;
        this.f[this.oLocks + 4 * i + 3] =
          (this.legs[i].toe >= 0 ? this.f[this.oAnimatedToe + 3 * i + 2] : az) + dz;
        if (this.b[this.oFlatToe + i] === 1) {
          // Where the foot's turn to the ground puts the toe, as the toe's hold reads it.
          this.turnedToe(i);
          this.f[this.oLocks + 4 * i + 2] = ax + scratch.vec[0] + dx;
          this.f[this.oLocks + 4 * i + 3] = az + scratch.vec[2] + dz;
        }
        this.f[this.oDrift + 2 * i] = dx;
        this.f[this.oDrift + 2 * i + 1] = dz;
        easedWeightSet(this.f, this.oLockWeights + lw, 1);
        tx += dx;
        tz += dz;
      } else if (locked && !grounded) {
        this.b[this.oLocked + i] = 0;
      } else if (locked) {
        a[EASE.goal] = this.planted[i];
        a[EASE.easeTime] = this.f[this.oRamps + 1];
        a[EASE.dt] = dt;
        easedWeightStep(this.f, this.oLockWeights + lw, a);
        const hold = this.f[this.oLockWeights + lw + 3];
        tx += this.f[this.oDrift + 2 * i] * hold;
        tz += this.f[this.oDrift + 2 * i + 1] * hold;
        if (hold === 0) this.b[this.oLocked + i] = 0;
      }
      this.b[this.oWasPlanted + i] = this.planted[i];
      this.f[this.oLastContact + i] = c;
      const w = this.f[this.oGroundWeights + gw + 3] * globalWeight;
      report[r + LEG_REPORT.target] = ax + (tx - ax) * w;
      report[r + LEG_REPORT.target + 1] = ay + (ty - ay) * w;
      this.f[this.oPlacedY + i] = ty;
      report[r + LEG_REPORT.target + 2] = az + (tz - az) * w;
      report[r + LEG_REPORT.weight] = w;
      // The same at the placement's full weight: the pelvis is worked out for it, then weighted.
      const wf = this.f[this.oGroundWeights + gw + 3];
      const ft = this.f;
      const ftO = this.oFullTargets;
      ft[ftO + 4 * i] = ax + (tx - ax) * wf;
      ft[ftO + 4 * i + 1] = ay + (ty - ay) * wf;
      ft[ftO + 4 * i + 2] = az + (tz - az) * wf;
      ft[ftO + 4 * i + 3] = wf;
      report[r + LEG_REPORT.locked] = this.b[this.oLocked + i];
    }
  }

  /**
   * Per leg, the highest and lowest pelvis offsets (world units) at which its knee turns by no more
   * than the joint-step limit beyond the animation's own turn since the last solve, into
   * `kneeBounds` (±∞ where none). Near full extension a knee straightens or bends fastest for a
   * given move of the hip: robot Walking's stance knee snapped 16–17° straight as the hips rose.
   * In angles of bend β (0 straight), d² = a² + b² + 2ab cos β, and by the sums of angles the
   * bounds β_last + (β_anim − β_anim,last) ∓ Δ are found with square roots only (trig-free).
   */
  private kneeRates(): void {
    const limit = this.f;
    const limitO = this.oStepLimit;
    const ft = this.f;
    const ftO = this.oFullTargets;
    const scale = scratch.frameNumbers[1];
    const bounds = this.f;
    const boundsO = this.oKneeBounds;
    for (let i = 0; i < this.legs.length; i++) {
      bounds[boundsO + 2 * i] = Number.POSITIVE_INFINITY;
      bounds[boundsO + 2 * i + 1] = Number.NEGATIVE_INFINITY;
      if (this.b[this.oReachKnown + i] === 0 || limit[limitO] < -1 || this.planted[i] === 0) continue;
      const f4 = 4 * i;
      const full = this.f[this.oLengths + i] * scale;
      const a = this.f[this.oUpperLengths + i] * scale;
      const b = full - a;
      const ab2 = 2 * a * b;
      const sq = a * a + b * b;
      // The clip's own knee turn, from its own hips: a body's pitch moves the hips, which the
      // clip's knee did not do (the Fox's front knee read a 28° bend in a frame where its elbow
      // turned 1.7°, switched back on over the bumps, and the pelvis was pushed down for it).
      const e1 = this.f[this.oClipReach2 + i];
      const d0 = this.f[this.oLastReach + i];
      const e0 = this.f[this.oLastClipReach + i];
      let cp = (d0 * d0 - sq) / ab2;
      cp = cp > 1 ? 1 : cp < -1 ? -1 : cp;
      const sp = Math.sqrt(1 - cp * cp);
      let cn = (e1 - sq) / ab2;
      cn = cn > 1 ? 1 : cn < -1 ? -1 : cn;
      const sn = Math.sqrt(1 - cn * cn);
      let co = (e0 * e0 - sq) / ab2;
      co = co > 1 ? 1 : co < -1 ? -1 : co;
      const so = Math.sqrt(1 - co * co);
      // δ = β_anim − β_anim,last; φ = β_last + δ; then φ − Δ and φ + Δ.
      const cd = cn * co + sn * so;
      const sd = sn * co - cn * so;
      const cf = cp * cd - sp * sd;
      const sf = sp * cd + cp * sd;
      const dx = ft[ftO + f4] - this.f[this.oHips + 3 * i];
      const dy = ft[ftO + f4 + 1] - this.f[this.oHips + 3 * i + 1];
      const dz = ft[ftO + f4 + 2] - this.f[this.oHips + 3 * i + 2];
      const across = dx * dx + dz * dz;
      // Straighter than φ − Δ: the hip no higher than where the target is that far.
      if (sf * limit[limitO + 3] - cf * limit[limitO + 4] > 0) {
        const d2 = sq + ab2 * (cf * limit[limitO + 3] + sf * limit[limitO + 4]);
        if (across < d2) bounds[boundsO + 2 * i] = dy + Math.sqrt(d2 - across);
      }
      // More bent than φ + Δ: the hip no lower.
      if (sf * limit[limitO + 3] + cf * limit[limitO + 4] > 0) {
        const d2 = sq + ab2 * (cf * limit[limitO + 3] - sf * limit[limitO + 4]);
        if (across < d2) bounds[boundsO + 2 * i + 1] = dy + Math.sqrt(d2 - across);
      }
    }
  }

  /** The pelvis drop (or limited rise) every planted foot needs, smoothed, then clamped to reach. */
  private applyPelvis(pose: Pose, model: Float64Array): void {
    const dt = scratch.frameNumbers[0];
    const scale = scratch.frameNumbers[1];
    const pelvis = this.pelvis;
    if (pelvis < 0) return;
    const s = this.f;
    const sO = this.oSettings;
    const ft = this.f;
    const ftO = this.oFullTargets;
    let minLength = Number.POSITIVE_INFINITY;
    let goal = 0;
    let first = true;
    for (let i = 0; i < this.legs.length; i++) {
      const f4 = 4 * i;
      // A foot about to land pulls the hips down ahead of its contact, as it heads for the height
      // where it lands (a foot coming down a slope would otherwise straighten its leg, then drop
      // the hips at once by the reach).
      const c = this.contactWeights[i];
      const near = this.f[this.oLandingNear + i];
      let drop =
        (ft[ftO + f4 + 1] - this.f[this.oAnimated + 3 * i + 1] - this.f[this.oHipShift + i]) *
        (near > c ? near : c);
      // Heading for a landing lower than the ground it passes over (a crest before a dip), its
      // target keeps above that ground until it is over the dip: the hips go by the landing's,
      // weighted as the target is (by the foot's weight) and by how near the landing is.
      if (near > 0 && this.b[this.oLandingFound + i] === 1) {
        const landing =
          (this.f[this.oLandingCorrection + i] * ft[ftO + f4 + 3] - this.f[this.oHipShift + i]) * near;
        if (landing < drop) drop = landing;
      }
      goal = first || drop < goal ? drop : goal;
      first = false;
      if (this.f[this.oLengths + i] < minLength) minLength = this.f[this.oLengths + i];
    }
    const L = minLength * scale;
    if (goal > s[sO + 3] * L) goal = s[sO + 3] * L;
    if (goal < -s[sO + 2] * L) goal = -s[sO + 2] * L;
    this.kneeRates();
    const before = this.f[this.oPelvisSpring];
    if (this.initialized) {
      const p = scratch.args;
      p[SPRING.omega] = s[sO + 6];
      p[SPRING.dt] = dt;
      p[2] = goal;
      springStep(this.f, this.oPelvisSpring, p, 2, p);
      const most = before + s[sO + 15] * L * dt;
      if (this.f[this.oPelvisSpring] > most) {
        this.f[this.oPelvisSpring] = most;
        if (this.f[this.oPelvisSpring + 1] > s[sO + 15] * L) this.f[this.oPelvisSpring + 1] = s[sO + 15] * L;
      }
      // Nor does it sink faster than a standing knee may bend (no lower than where it was).
      for (let i = 0; i < this.legs.length; i++) {
        const now = this.f[this.oPelvisSpring];
        const low = this.f[this.oKneeBounds + 2 * i + 1];
        if (low > now) {
          let held = now + (low - now) * this.contactWeights[i];
          if (held > before) held = before > now ? before : now;
          this.f[this.oPelvisSpring] = held;
          if (this.f[this.oPelvisSpring + 1] < 0) this.f[this.oPelvisSpring + 1] = 0;
        }
      }
    } else {
      this.f[this.oPelvisSpring] = goal;
      this.f[this.oPelvisSpring + 1] = 0;
    }
    const sprung = this.f[this.oPelvisSpring];
    let offset = sprung;
    // The lowest a standing knee's turn lets the hips sink: a foot still in the air that cannot
    // reach does not pull them lower (it stops short until it lands).
    let floor = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < this.legs.length; i++) {
      const low = this.f[this.oKneeBounds + 2 * i + 1];
      if (low > floor) floor = low;
    }
    if (floor > sprung) floor = sprung;
    // Reach: the highest the hip may sit for each weighted foot on the ground to stay within its
    // leg's reach.
    for (let i = 0; i < this.legs.length; i++) {
      const f4 = 4 * i;
      if (ft[ftO + f4 + 3] === 0) continue;
      // The margin, or the animation's own extension of the leg where it is straighter: a stance
      // leg the clip straightens is not held bent (the hips would sink for the whole stance, and
      // the knee would stand still while the clip's knee unlocks at push-off). The leg's
      // softening starts no nearer than that extension, so a planted foot is reached exactly.
      const ax = this.f[this.oAnimated + 3 * i] - this.f[this.oHips + 3 * i];
      const ay = this.f[this.oAnimated + 3 * i + 1] - this.f[this.oHips + 3 * i + 1];
      const az = this.f[this.oAnimated + 3 * i + 2] - this.f[this.oHips + 3 * i + 2];
      const animatedReach = Math.sqrt(ax * ax + ay * ay + az * az);
      // For the next solve's kneeRates (which has read this one's already).
      this.f[this.oLastClipReach + i] = Math.sqrt(this.f[this.oClipReach2 + i]);
      const full = this.f[this.oLengths + i] * scale;
      const margin = s[sO + 11] * full;
      // (Never past the leg's length: hips the body's pitch moved may stand farther from the
      // animated foot than the leg reaches.)
      // A leg is reached no farther than its least softness short of its length (minSoftness).
      const soft = s[sO + 16];
      const longest = full * (1 - soft);
      // (The margin no higher than that either: with reachMargin over 1 − minSoftness the reach
      // would jump down to it as the animation's extension passed the margin.)
      const least = margin < longest ? margin : longest;
      const reach = animatedReach > least ? (animatedReach < longest ? animatedReach : longest) : least;
      this.f[this.oReachNow + i] = reach;
      const gap = 1 - animatedReach / full;
      this.f[this.oSoftness + i] = gap < s[sO + 13] ? (gap > soft ? gap : soft) : s[sO + 13];
      const dx = ft[ftO + f4] - this.f[this.oHips + 3 * i];
      const dy = ft[ftO + f4 + 1] - this.f[this.oHips + 3 * i + 1];
      const dz = ft[ftO + f4 + 2] - this.f[this.oHips + 3 * i + 2];
      const across = dx * dx + dz * dz;
      const highest = across < reach * reach ? dy + Math.sqrt(reach * reach - across) : dy;
      // Held to it as far as the foot stands or is about to land: a swinging foot that cannot
      // reach its target stops short of it in the air, where it pulled the hips down at once
      // (5.7 cm in a frame on CMU 131_01's bumps, the stance knee turning 19.6°).
      const c = this.contactWeights[i];
      const near = this.f[this.oLandingNear + i];
      if (highest < sprung) {
        let held = sprung + (highest - sprung) * (near > c ? near : c);
        if (this.planted[i] === 0 && held < floor) {
          // Below what the standing knees' turn allows, only by the contact's own weight (it rises
          // over the contact track's ramp-in, 0.1 s by default): taken by the square of the
          // landing weight too, a front paw landing lower pulled the Fox's shoulders down 3 cm a
          // frame for four frames, its standing elbow turning 13.5° in one beyond the clip's
          // (switched on over 0.1 s on the slope, frame 169).
          held = floor + (held - floor) * c;
        }
        if (held < offset) offset = held;
      }
      const straight = this.f[this.oKneeBounds + 2 * i];
      if (straight < sprung) {
        const held = sprung + (straight - sprung) * c;
        if (held < offset) offset = held;
      }
    }
    if (offset < -s[sO + 2] * L) offset = -s[sO + 2] * L;
    if (offset < this.f[this.oPelvisSpring]) {
      // Held down by a leg's reach: the spring goes on from where the pelvis is, so that it rises
      // back smoothly once the leg lets go, rather than jump to where the spring had got to.
      this.f[this.oPelvisSpring] = offset;
      if (this.f[this.oPelvisSpring + 1] > 0) this.f[this.oPelvisSpring + 1] = 0;
    }
    for (let i = 0; i < this.legs.length; i++) {
      const f4 = 4 * i;
      if (ft[ftO + f4 + 3] === 0) {
        this.b[this.oReachKnown + i] = 0;
        continue;
      }
      const dx = ft[ftO + f4] - this.f[this.oHips + 3 * i];
      const dy = ft[ftO + f4 + 1] - this.f[this.oHips + 3 * i + 1] - offset;
      const dz = ft[ftO + f4 + 2] - this.f[this.oHips + 3 * i + 2];
      const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
      const full = this.f[this.oLengths + i] * scale;
      this.f[this.oLastReach + i] = d < full ? d : full;
      this.b[this.oReachKnown + i] = 1;
    }
    // The pelvis is worked out for the placement at its full weight (the feet's targets at their
    // ground weights alone), then weighted as the targets are: easing placement in or out blends
    // the hips with the feet (weighted targets and a pelvis sprung toward their drop lagged 2.4 cm
    // behind at weight 0 on CMU 131_01, its rise limited, and the pass-through then dropped that in
    // a frame: a knee turned 28°).
    offset *= scratch.frameNumbers[3];
    // Below full weight (easing in, mostly), the weighted pelvis moves by the weight's change times
    // the full-weight drop on top of the full-weight pelvis's own move (on CMU 131_01's bumps,
    // switched on at frame 300, a knee turned 11.9° in a frame): it sinks no lower than the
    // standing knees' bounds allow from where it was (kneeRates; each bound taken whole, not by
    // the foot's contact weight), nor higher than a planted foot's weighted target lets its leg
    // reach. Held, it follows at that rate until it reaches the weighted offset (or a foot's
    // reach pulls it there). Not for a body that pitches: its hips move by the pitch too, which
    // this does not bound, and holding the pelvis alone turned the Fox's front legs faster (28.3°
    // against 23.7° in a frame on its slope).
    const weighted = scratch.frameNumbers[3] < 1 || this.pelvisLag;
    this.pelvisLag = false;
    if (
      weighted &&
      this.frontCount === 0 &&
      this.initialized &&
      floor > Number.NEGATIVE_INFINITY &&
      floor < before
    ) {
      let lowest = this.pelvisOffset + (floor - before);
      if (offset < lowest) {
        // But no higher than each planted foot's weighted target lets its leg reach: the feet's
        // targets come down with the weight too (held above them, a sole stood up to 2 cm short).
        const report = this.report;
        for (let i = 0; i < this.legs.length; i++) {
          const r = i * LEG_REPORT.length;
          if (this.planted[i] === 0 || report[r + LEG_REPORT.weight] === 0) continue;
          const dx = report[r + LEG_REPORT.target] - this.f[this.oHips + 3 * i];
          const dy = report[r + LEG_REPORT.target + 1] - this.f[this.oHips + 3 * i + 1];
          const dz = report[r + LEG_REPORT.target + 2] - this.f[this.oHips + 3 * i + 2];
          const across = dx * dx + dz * dz;
          const reach = this.f[this.oReachNow + i];
          const highest = across < reach * reach ? dy + Math.sqrt(reach * reach - across) : dy;
          if (highest < lowest) lowest = highest;
        }
        if (offset < lowest) {
          offset = lowest;
          this.pelvisLag = true;
        }
      }
    }
    this.pelvisOffset = offset;
    const pitched = this.pitched;
    const Wi = scratch.worldInverse;
    const mo = this.f;
    const moO = this.oPelvisModelOffset;
    mo[moO] = Wi[4] * offset;
    mo[moO + 1] = Wi[5] * offset;
    mo[moO + 2] = Wi[6] * offset;
    if (offset === 0) {
      if (pitched) subtreeToModel(pose, model, pelvis);
      return;
    }
    // The world offset (0, offset, 0) in model space, then in the pelvis' parent's frame.
    const v = scratch.vec;
    v[0] = mo[moO];
    v[1] = mo[moO + 1];
    v[2] = mo[moO + 2];
    const parent = this.skeleton.parents[pelvis];
    if (parent >= 0) {
      if (!invert(scratch.parentInverse, 0, model, 16 * parent)) return;
      const P = scratch.parentInverse;
      const x = v[0];
      const y = v[1];
      const z = v[2];
      v[0] = P[0] * x + P[4] * y + P[8] * z;
      v[1] = P[1] * x + P[5] * y + P[9] * z;
      v[2] = P[2] * x + P[6] * y + P[10] * z;
    }
    pose.translations[3 * pelvis] += v[0];
    pose.translations[3 * pelvis + 1] += v[1];
    pose.translations[3 * pelvis + 2] += v[2];
    if (pitched) {
      subtreeToModel(pose, model, pelvis);
      return;
    }
    // A translation of the pelvis moves its whole subtree by the same model-space offset: three
    // additions per joint, not a forward kinematics pass over most of the skeleton.
    const end = this.skeleton.subtreeEnds[pelvis];
    const dx = mo[moO];
    const dy = mo[moO + 1];
    const dz = mo[moO + 2];
    for (let j = pelvis; j < end; j++) {
      const o = 16 * j + 12;
      model[o] += dx;
      model[o + 1] += dy;
      model[o + 2] += dz;
    }
  }

  /**
   * A four-legged body pitches to the slope between its front and hind feet: the pelvis turns about
   * its own position so that the front hips rise (or sink) by the difference of the front and hind
   * feet's corrections, smoothed and within the pitch limit. Moves the hips it reports in
   * `hips`/`hipShift`; the model buffer is updated with the pelvis offset after it.
   */
  private pitchBody(pose: Pose, model: Float64Array): void {
    this.pitched = false;
    this.f.fill(0, this.oHipShift, this.oHipShift + this.legs.length);
    const front = this.b;
    const frontO = this.oFront;
    const pelvis = this.pelvis;
    if (this.frontCount === 0 || pelvis < 0 || this.pitchTan === 0) return;
    const hips = this.f;
    const hipsO = this.oHips;
    const t = scratch.pitchScratch;
    // t[0..2]: front hips' mean, t[3..5]: hind hips' mean; t[6], t[7]: front and hind drops.
    t.fill(0, 0, 6);
    t[6] = Number.POSITIVE_INFINITY;
    t[7] = Number.POSITIVE_INFINITY;
    let nf = 0;
    let nh = 0;
    for (let i = 0; i < this.legs.length; i++) {
      const k = front[frontO + i] === 1 ? 0 : 3;
      if (k === 0) nf++;
      else nh++;
      t[k] += hips[hipsO + 3 * i];
      t[k + 1] += hips[hipsO + 3 * i + 1];
      t[k + 2] += hips[hipsO + 3 * i + 2];
      const c = this.contactWeights[i];
      const near = this.f[this.oLandingNear + i];
      const w = near > c ? near : c;
      // (At the placement's full weight, as the pelvis: the pitch is weighted after its spring.)
      const drop = this.f[this.oFullTargets + 4 * i + 1] - this.f[this.oAnimated + 3 * i + 1];
      const g = 6 + k / 3;
      if (w >= 0.5 && drop < t[g]) t[g] = drop;
    }
    for (let k = 0; k < 3; k++) {
      t[k] /= nf;
      t[3 + k] /= nh;
    }
    // a = hind → front, horizontal length D; the rise wanted, clamped to the pitch limit.
    const ax = t[0] - t[3];
    const ay = t[1] - t[4];
    const az = t[2] - t[5];
    const D = Math.sqrt(ax * ax + az * az);
    // A group with no foot on the ground keeps its last value.
    for (let g = 0; g < 2; g++) {
      if (t[6 + g] === Number.POSITIVE_INFINITY) t[6 + g] = this.f[this.oPitchEnds + g];
      else this.f[this.oPitchEnds + g] = t[6 + g];
    }
    let rise = t[6] - t[7];
    const most = D * this.pitchTan;
    rise = rise > most ? most : rise < -most ? -most : rise;
    if (this.initialized) {
      const p = scratch.args;
      p[SPRING.omega] = 0.5 * this.f[this.oSettings + 6];
      p[SPRING.dt] = scratch.frameNumbers[0];
      p[2] = rise;
      springStep(this.f, this.oPitchSpring, p, 2, p);
    } else {
      this.f[this.oPitchSpring] = rise;
      this.f[this.oPitchSpring + 1] = 0;
    }
    rise = this.f[this.oPitchSpring] * scratch.frameNumbers[3];
    // No faster than the joint-step limit: the pitch's turn, atan((ay + rise) / D) less the
    // clip's, changes by at most the rise's change over D. Switched on over 0.05 s on the slope,
    // the weight brought the Fox's pitch in within three frames: its pelvis turned 13.8° in one.
    const limit = this.f;
    const limitO = this.oStepLimit;
    // Limited from the first frame after switching back on too, as the legs are; a fresh start
    // jumps (limitStartsFresh). The rise's change, not the turn's, is kept: the hips' span D
    // changes little from one frame to the next.
    if (!this.limitStartsFresh() && limit[limitO] >= -1 && D > 0) {
      const most = D * limit[limitO + 5];
      const last = this.f[this.oPitchApplied];
      if (rise > last + most) rise = last + most;
      else if (rise < last - most) rise = last - most;
    }
    this.f[this.oPitchApplied] = rise;
    if (rise === 0 || !(D > 0)) return;
    // The world rotation from a to a + (0, rise, 0): t[8..10] = a, t[11..13] = a raised, t[14..17] = q.
    // (Unit vectors: fromTo's half-vector formula takes them so.)
    const la = Math.sqrt(ax * ax + ay * ay + az * az);
    const lb = Math.sqrt(ax * ax + (ay + rise) * (ay + rise) + az * az);
    t[8] = ax / la;
    t[9] = ay / la;
    t[10] = az / la;
    t[11] = ax / lb;
    t[12] = (ay + rise) / lb;
    t[13] = az / lb;
    fromTo(t, 14, t, 8, t, 11);
    // About the pelvis' own position (world): each hip moves to P + q (h − P).
    const W = scratch.world;
    const m = 16 * pelvis;
    const px = W[0] * model[m + 12] + W[4] * model[m + 13] + W[8] * model[m + 14] + W[12];
    const py = W[1] * model[m + 12] + W[5] * model[m + 13] + W[9] * model[m + 14] + W[13];
    const pz = W[2] * model[m + 12] + W[6] * model[m + 13] + W[10] * model[m + 14] + W[14];
    for (let i = 0; i < this.legs.length; i++) {
      t[18] = hips[hipsO + 3 * i] - px;
      t[19] = hips[hipsO + 3 * i + 1] - py;
      t[20] = hips[hipsO + 3 * i + 2] - pz;
      rotateVec3(t, 18, t, 14, t, 18);
      const y = py + t[19];
      this.f[this.oHipShift + i] = y - hips[hipsO + 3 * i + 1];
      hips[hipsO + 3 * i] = px + t[18];
      hips[hipsO + 3 * i + 1] = y;
      hips[hipsO + 3 * i + 2] = pz + t[20];
    }
    // Into model space (W⁻¹ · q · W, rotations only), then into the pelvis' local rotation:
    // r' = Rp⁻¹ · q · Rp · r, Rp the parent's model rotation.
    const q = scratch.quat;
    multiply(q, 0, scratch.worldRotationInverse, 0, t, 14);
    multiply(q, 0, q, 0, scratch.worldRotation, 0);
    for (let k = 0; k < 4; k++) this.f[this.oPitchRotation + k] = q[k];
    const parent = this.skeleton.parents[pelvis];
    if (parent >= 0) {
      const tr = scratch.trs;
      decompose(tr, 0, q, 4, tr, 3, model, 16 * parent);
      conjugate(q, 8, q, 4);
      multiply(q, 0, q, 8, q, 0);
      multiply(q, 0, q, 0, q, 4);
    }
    const r = pose.rotations;
    const o = 4 * pelvis;
    multiply(q, 12, q, 0, r, o);
    normalizeQuat(r, o, q, 12);
    this.pitched = true;
  }

  /**
   * The joint-step limit's numbers for this solve's `dt` (read from the clock: a double passed
   * would be boxed), from `maxTurnSpeed`: the largest change `maxTurnSpeed · dt`, or a 60 Hz
   * frame's worth for a shorter frame (FRAME_FLOOR), at most π (a longer frame, a hitch, limits
   * nothing); its half's cosine and sine, 0.9 of it for the knees. Kept until the dt changes.
   * Trig-free (cosSinAt): the same bits on every engine.
   */
  private stepLimitFor(): void {
    const limit = this.f;
    const o = this.oStepLimit;
    const dt = this.clock[0];
    if (limit[o] < -1 || limit[o + 7] === dt) return;
    const step = limit[o + 6] * (dt > FRAME_FLOOR ? dt : FRAME_FLOOR);
    const most = step < Math.PI ? step : Math.PI;
    const a = scratch.angle;
    a[0] = 0.5 * most;
    cosSinAt(a, 0, limit, o);
    a[0] = 0.9 * most;
    cosSinAt(a, 0, limit, o + 3);
    limit[o + 5] = most;
    limit[o + 7] = dt;
  }

  /**
   * Whether the joint-step limit (the legs' in limitSteps, the pitch's in pitchBody) starts afresh
   * this frame, unlimited: the first solve, after `reset()`, or switched on at once (an ease of 0),
   * as asked. Switched back on after an ease, the first frame is limited from the animation.
   * (limitSteps, which runs after pitchBody, marks the added rotations known.)
   */
  private limitStartsFresh(): boolean {
    return !this.addedKnown || (this.weightEase === 0 && !this.initialized);
  }

  /**
   * Bounds the change, since the last solve, of the rotation placement adds to each leg joint:
   * `added = entry⁻¹ · placed`; where it turned by more than the limit from last frame's, it turns
   * by the limit toward it (the turn's axis kept, its half-angle's cosine and sine the limit's:
   * trig-free). Legs changed here get their model matrices again.
   */
  private limitSteps(pose: Pose, model: Float64Array): void {
    const limit = this.f;
    const limitO = this.oStepLimit;
    const limited = this.limited;
    const added = this.f;
    const addedO = this.oAddedRotations;
    const entry = this.f;
    const entryO = this.oEntryRotations;
    const r = pose.rotations;
    const q = scratch.quat;
    const fresh = this.limitStartsFresh();
    this.addedKnown = true;
    for (let i = 0; i < this.legs.length; i++) {
      let changed = false;
      // The solved foot and the leg's solved rotations, to go back to (sv[0..2], sv[4..15]).
      const fo = 16 * this.legs[i].foot + 12;
      const sv = scratch.solved;
      sv[0] = model[fo];
      sv[1] = model[fo + 1];
      sv[2] = model[fo + 2];
      for (let k = 3 * i; k < 3 * i + 3; k++) {
        const o0 = 4 * limited[k];
        for (let c = 0; c < 4; c++) sv[4 + 4 * (k - 3 * i) + c] = r[o0 + c];
      }
      for (let k = 3 * i; k < 3 * i + 3; k++) {
        if (
          limitTurnStep(r, 4 * limited[k], entry, entryO + 4 * k, added, addedO + 4 * k, limit, limitO, fresh)
        ) {
          changed = true;
        }
      }
      if (changed) {
        const leg = this.legs[i];
        subtreeToModel(pose, model, leg.root);
        this.footFollows(pose, model, leg);
        // A planted foot that the limit would move off its solved place by more than the
        // tolerance has the limit yield, this frame, as far as the foot needs to come within the
        // tolerance less half the option's (half the option's at a steady weight): the limit
        // spreads a swinging leg's jump, it does not stand a planted foot in a step (CMU 02_01 on
        // steps: 15.9 cm, measured before the pelvis's rise was slowed). It took the solve whole
        // until 26 November: the Fox's elbow then turned 47.7° in a frame, switched off over the
        // steps at frame 68 (a test).
        // While placement switches, the tolerance grows by scratch.switchLag (solveClock): the
        // foot's weighted target is then no place to stand, and the limit spreads the switch.
        // Robot Walking switched off and on (scripts/switch-sweep.ts, every second frame):
        // 13.4° / 16.2° / 14.2° → 10.0° on bumps / slope / steps, at the left knee as the clip's
        // snapped straight 14° a frame.
        // A leg the limit would bend the other way from the animation's takes its solve whole: a
        // knee the solve has straightened, held back while the clip's bends the other way,
        // crossed over (the Fox landing on a bump).
        let restore = false;
        if (this.planted[i] === 1) {
          const dx = model[fo] - sv[0];
          const dy = model[fo + 1] - sv[1];
          const dz = model[fo + 2] - sv[2];
          const L = this.f[this.oLengths + i];
          const Lm = L * (limit[limitO + 2] + scratch.switchLag[0]);
          if (dx * dx + dy * dy + dz * dz > Lm * Lm) {
            // The limit yields: the leg's three rotations go from where it left them toward the
            // solve's (nlerp), by the smallest share (bisection, 8 halvings) that brings the foot
            // within `reach` of its solved place; the share 1 is the solve itself. Written here,
            // not as a method, for the knee guard's reason below.
            const reach = Lm - 0.5 * L * limit[limitO + 2];
            const held = scratch.limitedRotations;
            for (let k = 0; k < 3; k++) {
              const o = 4 * limited[3 * i + k];
              for (let c = 0; c < 4; c++) held[4 * k + c] = r[o + c];
            }
            let lo = 0;
            let hi = 1;
            for (let halving = 0; halving <= 8; halving++) {
              const share = halving === 8 ? hi : 0.5 * (lo + hi);
              // quat.nlerp, written out: called here it is not inlined, and the share it takes
              // is boxed (7.7 B a frame on the Fox's walk over steps).
              for (let k = 0; k < 3; k++) {
                const o = 4 * limited[3 * i + k];
                const h = 4 * k;
                const so = 4 + h;
                const dot =
                  held[h] * sv[so] +
                  held[h + 1] * sv[so + 1] +
                  held[h + 2] * sv[so + 2] +
                  held[h + 3] * sv[so + 3];
                const toward = dot < 0 ? -share : share;
                for (let c = 0; c < 4; c++) r[o + c] = held[h + c] * (1 - share) + sv[so + c] * toward;
                normalizeQuat(r, o, r, o);
              }
              subtreeToModel(pose, model, leg.root);
              this.footFollows(pose, model, leg);
              if (halving === 8) break;
              const ex = model[fo] - sv[0];
              const ey = model[fo + 1] - sv[1];
              const ez = model[fo + 2] - sv[2];
              if (ex * ex + ey * ey + ez * ez <= reach * reach) hi = share;
              else lo = share;
            }
            for (let k = 3 * i; k < 3 * i + 3; k++) {
              conjugate(q, 4, entry, entryO + 4 * k);
              multiply(added, addedO + 4 * k, q, 4, r, 4 * limited[k]);
            }
          }
        }
        // The knee guard, written here rather than as a method of its own: it runs on few
        // frames, so a method of its own stayed in V8's interpreter, which boxes every double
        // (12 bytes a frame on CMU 02_01 over bumps). Only where the animation's knee is clearly
        // bent (its sine over 0.1: a straight knee's side is rounding noise).
        const eb = this.f;
        const ebO = this.oEntryBends;
        const ex = eb[ebO + 4 * i];
        const ey = eb[ebO + 4 * i + 1];
        const ez = eb[ebO + 4 * i + 2];
        if (ex * ex + ey * ey + ez * ez > 0.01 * eb[ebO + 4 * i + 3]) {
          const n = scratch.bend;
          bendNormal(n, 0, model, leg);
          restore = ex * n[0] + ey * n[1] + ez * n[2] < 0;
        }
        if (restore) {
          for (let k = 3 * i; k < 3 * i + 3; k++) {
            const o = 4 * limited[k];
            for (let c = 0; c < 4; c++) r[o + c] = sv[4 + 4 * (k - 3 * i) + c];
            conjugate(q, 4, entry, entryO + 4 * k);
            multiply(added, addedO + 4 * k, q, 4, r, o);
          }
          subtreeToModel(pose, model, leg.root);
          this.footFollows(pose, model, leg);
        }
      }
    }
  }

  /**
   * The foot's tilt to the ground after its held heading's turn (world): tilt · turn, the turn
   * blended with the identity by the leg's weight in the report (the placement's weight times the
   * ground's), so that switching placement off or losing the ground turns the foot back smoothly.
   */
  private footTurn(out: Float64Array, o: number, i: number): void {
    this.footTilt(out, o, i);
    if (this.b[this.oFlatToe + i] === 0) return;
    const k = this.report[LEG_REPORT.length * i + LEG_REPORT.weight];
    if (k === 1) {
      multiply(out, o, out, o, this.f, this.oHeadingTurns + 4 * i);
      return;
    }
    const t = scratch.turn;
    // nlerp(I, turn, k), written out (the turn's w is positive: it is under 60°).
    t[0] = 0;
    t[1] = this.f[this.oHeadingTurns + 4 * i + 1] * k;
    t[2] = 0;
    t[3] = 1 - k + this.f[this.oHeadingTurns + 4 * i + 3] * k;
    normalizeQuat(t, 0, t, 0);
    multiply(out, o, out, o, t, 0);
  }

  /**
   * Into `scratch.vec[0..2]`: leg `i`'s animated toe relative to its foot joint, turned as the
   * foot will be ({@link FootPlacement.footTurn}): where the toe stands once the foot is turned to
   * the ground about its joint. Uses `scratch.quat[12..15]` and `scratch.vec[9..11]`.
   */
  private turnedToe(i: number): void {
    const q = scratch.quat;
    const v = scratch.vec;
    this.footTurn(q, 12, i);
    v[9] = this.f[this.oAnimatedToe + 3 * i] - this.f[this.oAnimated + 3 * i];
    v[10] = this.f[this.oAnimatedToe + 3 * i + 1] - this.f[this.oAnimated + 3 * i + 1];
    v[11] = this.f[this.oAnimatedToe + 3 * i + 2] - this.f[this.oAnimated + 3 * i + 2];
    rotateVec3(v, 0, q, 12, v, 9);
  }

  /**
   * A foot standing flat does not turn on the ground: the heading of its heel-to-toe line is held
   * (the capture's foot turning while it stands flat slid its toe about the held heel, 1.4–1.8 cm
   * on CMU 02_01's slope and CMU 131_01), as far as the foot stands flat (`scratch.flat`); off its
   * heel or toe, or in the air, the heading eases back to the animation's (over about 0.05 s).
   * Turns about world +Y only, as unit (x, z) directions: trig-free.
   */
  private turnHeading(i: number): void {
    let f = scratch.flat[0];
    const h = this.f;
    const hO = this.oHeadings;
    const ax0 = this.f[this.oAnimatedToe + 3 * i] - this.f[this.oAnimated + 3 * i];
    const ay0 = this.f[this.oAnimatedToe + 3 * i + 1] - this.f[this.oAnimated + 3 * i + 1];
    const az0 = this.f[this.oAnimatedToe + 3 * i + 2] - this.f[this.oAnimated + 3 * i + 2];
    const al = Math.sqrt(ax0 * ax0 + az0 * az0);
    if (!(al > 1e-9)) return;
    // A foot pitched steeply has no heading to hold (its heel-to-toe line nearly upright).
    if (al * al < 0.5 * (al * al + ay0 * ay0)) f = 0;
    const ax = ax0 / al;
    const az = az0 / al;
    // The turn ψ about +Y, as a unit complex number (cos ψ, sin ψ): standing flat, the one that
    // keeps last frame's heading p (from the animation's a: cos ψ = a·p, sin ψ = a_z p_x − a_x p_z);
    // otherwise last frame's, eased toward none; between, blended by flatness.
    let c = 1;
    let sn = 0;
    const o = 4 * i;
    if (this.initialized && !(h[hO + o] === 0 && h[hO + o + 1] === 0)) {
      const dt = scratch.frameNumbers[0];
      const ease = dt / (dt + 0.05);
      const hc = ax * h[hO + o] + az * h[hO + o + 1];
      const hs = az * h[hO + o] - ax * h[hO + o + 1];
      const dc = h[hO + o + 2] + (1 - h[hO + o + 2]) * ease;
      const ds = h[hO + o + 3] - h[hO + o + 3] * ease;
      c = dc + (hc - dc) * f;
      sn = ds + (hs - ds) * f;
      const l = Math.sqrt(c * c + sn * sn);
      if (l > 1e-9) {
        c /= l;
        sn /= l;
      } else {
        c = 1;
        sn = 0;
      }
      // Held no further than 60° (cos 0.5): past it the foot turns with the animation (a pivot
      // held longer would twist the ankle; dropped at once, the foot would spin in a frame).
      if (c < 0.5) {
        c = 0.5;
        sn = sn < 0 ? -SIN_60 : SIN_60;
      }
    }
    // p = R(ψ) a: x' = x cos ψ + z sin ψ, z' = −x sin ψ + z cos ψ.
    h[hO + o] = ax * c + az * sn;
    h[hO + o + 1] = -ax * sn + az * c;
    h[hO + o + 2] = c;
    h[hO + o + 3] = sn;
    // As a quaternion, by the half angle (cos ψ/2 = √((1 + cos ψ)/2)).
    const t = this.f;
    const tO = this.oHeadingTurns;
    const ch = Math.sqrt(0.5 * (1 + (c > 1 ? 1 : c)));
    if (!(ch > 1e-6)) return;
    t[tO + 4 * i] = 0;
    t[tO + 4 * i + 1] = sn / (2 * ch);
    t[tO + 4 * i + 2] = 0;
    t[tO + 4 * i + 3] = ch;
  }

  /**
   * Leg `i`'s foot tilt in world space into `out` at `o`: from up to the smoothed ground normal,
   * within the tilt limit, blended with the identity by the contact weight times the leg's weight
   * in the report (read here, not passed: a double passed to a call V8 does not inline is boxed).
   * Uses `scratch.vec[3..8]`.
   */
  private footTilt(out: Float64Array, o: number, i: number): void {
    const v = scratch.vec;
    const ns = 6 * i;
    v[3] = 0;
    v[4] = 1;
    v[5] = 0;
    v[6] = this.f[this.oNormalSprings + ns];
    v[7] = this.f[this.oNormalSprings + ns + 1];
    v[8] = this.f[this.oNormalSprings + ns + 2];
    limitTilt(v, 6, this.f, this.oSettings);
    fromTo(out, o, v, 3, v, 6);
    // Weighted by contact: the tilt blended with the identity (nlerp, written out: the kernel's
    // takes its weight as an argument, which would be boxed here).
    const k = this.contactWeights[i] * this.report[LEG_REPORT.length * i + LEG_REPORT.weight];
    const sign = out[o + 3] < 0 ? -k : k;
    out[o] *= sign;
    out[o + 1] *= sign;
    out[o + 2] *= sign;
    out[o + 3] = 1 - k + out[o + 3] * sign;
    normalizeQuat(out, o, out, o);
  }

  /** Two-bone IK per leg toward its target, with the foot turned to the smoothed ground normal. */
  private solveLegs(pose: Pose, model: Float64Array): void {
    const report = this.report;
    const v = scratch.vec;
    const q = scratch.quat;
    const Wi = scratch.worldInverse;
    for (let i = 0; i < this.legs.length; i++) {
      const leg = this.legs[i];
      const r = LEG_REPORT.length * i;
      const w = report[r + LEG_REPORT.weight];
      if (w === 0) {
        report[r + LEG_REPORT.error] = 0;
        continue;
      }
      // Target in model space.
      const tx = report[r + LEG_REPORT.target];
      let ty = report[r + LEG_REPORT.target + 1];
      const tz = report[r + LEG_REPORT.target + 2];
      if (this.planted[i] === 0) {
        // A swinging foot is aimed no higher than SWING_BELOW_HIP legs below its hip, by as much
        // as its contact has eased out: kept over a step behind it while the hips drop for the
        // standing leg (a staircase walked down, the stride spanning two treads), it was aimed
        // above the hip, and the knee flipped (the robot: 115 frames, 104° in a frame). But no
        // farther below the hip than the clip has it (a kick, a tuck: the clip's swing is not
        // flattened; and at a low weight, where the hips are nearly the clip's, the foot stays near
        // the animation's: pulled down 20 cm at weight 1e-6 until 27 November).
        const W = scratch.world;
        const ro = 16 * leg.root + 12;
        const hy = W[1] * model[ro] + W[5] * model[ro + 1] + W[9] * model[ro + 2] + W[13];
        const bound = SWING_BELOW_HIP * this.f[this.oLengths + i] * scratch.frameNumbers[1];
        const clip = this.f[this.oHips + 3 * i + 1] - this.f[this.oAnimated + 3 * i + 1];
        const most = hy - (clip < bound ? clip : bound);
        if (ty > most) {
          ty = most + (ty - most) * this.contactWeights[i];
          report[r + LEG_REPORT.target + 1] = ty;
        }
      }
      v[0] = Wi[0] * tx + Wi[4] * ty + Wi[8] * tz + Wi[12];
      v[1] = Wi[1] * tx + Wi[5] * ty + Wi[9] * tz + Wi[13];
      v[2] = Wi[2] * tx + Wi[6] * ty + Wi[10] * tz + Wi[14];
      // The foot's tilt: from up to the smoothed normal, within the limit, weighted by contact. A
      // digitigrade foot keeps the animation's: turning its upright joint-to-toe span to the
      // ground would swing the toe off it.
      if (this.b[this.oSteep + i] === 1) {
        q[0] = 0;
        q[1] = 0;
        q[2] = 0;
        q[3] = 1;
      } else this.footTurn(q, 0, i);
      // Into model space: W⁻¹ · tilt · W (rotations only), then onto the animated foot rotation.
      multiply(q, 0, scratch.worldRotationInverse, 0, q, 0);
      multiply(q, 0, q, 0, scratch.worldRotation, 0);
      const t = scratch.trs;
      decompose(t, 0, q, 8, t, 3, model, 16 * leg.foot);
      if (this.pitched && this.b[this.oUnderPelvis + i] === 1) {
        // The animated foot's rotation, not the pitched body's: the foot is turned to the ground
        // from the animation (a digitigrade foot keeps the animation's), not from the body's turn.
        conjugate(q, 4, this.f, this.oPitchRotation);
        multiply(q, 8, q, 4, q, 8);
      }
      multiply(q, 8, q, 0, q, 8);
      normalizeQuat(q, 8, q, 8);
      // The solvers take their inputs in arrays of their own (views made per frame would allocate).
      const target = scratch.targetModel;
      target[0] = v[0];
      target[1] = v[1];
      target[2] = v[2];
      let pole: Float64Array | null = null;
      if (leg.pole >= 0) {
        pole = scratch.poleModel;
        pole[0] = model[16 * leg.pole + 12];
        pole[1] = model[16 * leg.pole + 13];
        pole[2] = model[16 * leg.pole + 14];
        if (this.b[this.oPoleLeftBehind + i] === 1) {
          // A pole outside the pelvis' subtree (a Blender rig's pole bone hangs from the root)
          // stays where the animation has it while the hips drop: moved with them, it keeps its
          // place beside the knee, and the bend plane does not swing as the hip nears it.
          const mo = this.f;
          const moO = this.oPelvisModelOffset;
          pole[0] += mo[moO];
          pole[1] += mo[moO + 1];
          pole[2] += mo[moO + 2];
        }
      }
      const endRotation = scratch.footRotation;
      endRotation[0] = q[8];
      endRotation[1] = q[9];
      endRotation[2] = q[10];
      endRotation[3] = q[11];
      const solver = this.solvers[i];
      solver.softnessFrom(this.f, this.oSoftness + i);
      if (leg.shape === 'effector') {
        const status = solver.solve(pose, model, target, pole);
        status.errorInto(report, r + LEG_REPORT.error);
        this.placeEffectorFoot(pose, model, leg, endRotation);
      } else {
        const status = solver.solve(pose, model, target, pole, endRotation);
        status.errorInto(report, r + LEG_REPORT.error);
      }
    }
  }

  /**
   * An `'effector'` leg's foot is a bone of its own: put it at the leg's solved end with the turned
   * rotation, through its parent's model matrix, and update its subtree.
   */
  private placeEffectorFoot(pose: Pose, model: Float64Array, leg: LegRig, rotationModel: Float64Array): void {
    if (!this.tipInFootParent(model, leg)) return;
    const v = scratch.vec;
    const foot = leg.foot;
    const parent = this.skeleton.parents[foot];
    const q = scratch.quat;
    if (parent >= 0) {
      const t = scratch.trs;
      decompose(t, 0, q, 12, t, 3, model, 16 * parent);
      conjugate(q, 12, q, 12);
      multiply(q, 12, q, 12, rotationModel, 0);
    } else {
      q[12] = rotationModel[0];
      q[13] = rotationModel[1];
      q[14] = rotationModel[2];
      q[15] = rotationModel[3];
    }
    normalizeQuat(q, 12, q, 12);
    pose.translations[3 * foot] = v[0];
    pose.translations[3 * foot + 1] = v[1];
    pose.translations[3 * foot + 2] = v[2];
    for (let k = 0; k < 4; k++) pose.rotations[4 * foot + k] = q[12 + k];
    subtreeToModel(pose, model, foot);
  }

  /**
   * An `'effector'` leg's end (the point `endLocal` on its middle bone) in its foot bone's parent
   * frame, into `scratch.vec[0..2]`; false where that parent's matrix cannot be inverted.
   */
  private tipInFootParent(model: Float64Array, leg: LegRig): boolean {
    const p = leg.endLocal as readonly [number, number, number];
    const m = 16 * leg.middle;
    const v = scratch.vec;
    v[0] = model[m] * p[0] + model[m + 4] * p[1] + model[m + 8] * p[2] + model[m + 12];
    v[1] = model[m + 1] * p[0] + model[m + 5] * p[1] + model[m + 9] * p[2] + model[m + 13];
    v[2] = model[m + 2] * p[0] + model[m + 6] * p[1] + model[m + 10] * p[2] + model[m + 14];
    const parent = this.skeleton.parents[leg.foot];
    if (parent < 0) return true;
    if (!invert(scratch.parentInverse, 0, model, 16 * parent)) return false;
    const P = scratch.parentInverse;
    const x = v[0];
    const y = v[1];
    const z = v[2];
    v[0] = P[0] * x + P[4] * y + P[8] * z + P[12];
    v[1] = P[1] * x + P[5] * y + P[9] * z + P[13];
    v[2] = P[2] * x + P[6] * y + P[10] * z + P[14];
    return true;
  }

  /**
   * After a leg's rotations changed (limitSteps), its foot follows: an `'effector'` leg's foot bone,
   * which hangs elsewhere, is moved to the leg's new end (held back by the limit, the shin carried
   * the end up to 10.7 cm from a foot left where the solve put it); a foot outside the leg's
   * subtree is updated from its pose.
   */
  private footFollows(pose: Pose, model: Float64Array, leg: LegRig): void {
    if (leg.shape === 'effector') {
      if (this.tipInFootParent(model, leg)) {
        const v = scratch.vec;
        pose.translations[3 * leg.foot] = v[0];
        pose.translations[3 * leg.foot + 1] = v[1];
        pose.translations[3 * leg.foot + 2] = v[2];
      }
      subtreeToModel(pose, model, leg.foot);
    } else if (!this.skeleton.isAncestor(leg.root, leg.foot)) subtreeToModel(pose, model, leg.foot);
  }
}

/**
 * Whether every rotation in `q` (quaternions, 4 numbers each) turns by less than about 2e-6 rad:
 * |xyz|² ≤ 1e-12 w², whatever the quaternion's length (a pose read from float32 keys is unit to
 * 1e-7 only, and conj(a)·a is then no unit quaternion).
 */
function noTurns(q: Float64Array, from: number, length: number): boolean {
  for (let o = from; o < from + length; o += 4) {
    const w = q[o + 3];
    if (q[o] * q[o] + q[o + 1] * q[o + 1] + q[o + 2] * q[o + 2] > 1e-12 * w * w) return false;
  }
  return true;
}

/**
 * Which legs are front legs, for a rig whose legs stand both well ahead of and behind one another
 * along `forward` (hips more than half the shortest leg apart, at rest): 1 for the front half, 0
 * for the hind. Empty (the body does not pitch) for any other rig, such as a biped.
 */
function frontLegs(
  rest: Float64Array,
  legs: readonly LegRig[],
  lengths: readonly number[],
  forward: readonly number[],
): Uint8Array {
  if (legs.length < 4) return new Uint8Array(0);
  // (`forward` is unit: the spread is compared with a length.)
  const along = legs.map(
    (leg) =>
      rest[16 * leg.root + 12] * forward[0] +
      rest[16 * leg.root + 13] * forward[1] +
      rest[16 * leg.root + 14] * forward[2],
  );
  const lo = Math.min(...along);
  const hi = Math.max(...along);
  if (!(hi - lo > 0.5 * Math.min(...lengths))) return new Uint8Array(0);
  const mid = 0.5 * (lo + hi);
  return Uint8Array.from(along, (a) => (a > mid ? 1 : 0));
}

/**
 * `forward` made unit (scaled by its largest component first, so that no square under- or
 * overflows), or `null` where its part along the ground (x, z) is under 1e-3 of it.
 */
function unitForward(forward: readonly number[]): [number, number, number] | null {
  const u: [number, number, number] = [forward[0], forward[1], forward[2]];
  if (!normalizeScaled(u, 0, u, 0)) return null;
  return u[0] * u[0] + u[2] * u[2] < 1e-6 ? null : u;
}

function transformPointInto(
  out: Float64Array,
  o: number,
  m: Float64Array,
  p: Float64Array,
  po: number,
): void {
  const x = p[po];
  const y = p[po + 1];
  const z = p[po + 2];
  out[o] = m[0] * x + m[4] * y + m[8] * z + m[12];
  out[o + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
  out[o + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
}

/**
 * The normal of leg `leg`'s bend plane (u × w: u hip → knee, w knee → end) in `model`, into `out`
 * at `o`, and |u|²|w|² after it (its square over that is the knee's sine squared).
 */
function bendNormal(out: Float64Array, o: number, model: Float64Array, leg: LegRig): void {
  const a = 16 * leg.root + 12;
  const b = 16 * leg.middle + 12;
  const e = 16 * (leg.end >= 0 ? leg.end : leg.foot) + 12;
  const ux = model[b] - model[a];
  const uy = model[b + 1] - model[a + 1];
  const uz = model[b + 2] - model[a + 2];
  const wx = model[e] - model[b];
  const wy = model[e + 1] - model[b + 1];
  const wz = model[e + 2] - model[b + 2];
  out[o] = uy * wz - uz * wy;
  out[o + 1] = uz * wx - ux * wz;
  out[o + 2] = ux * wy - uy * wx;
  out[o + 3] = (ux * ux + uy * uy + uz * uz) * (wx * wx + wy * wy + wz * wz);
}

/**
 * Writes to `out[0]` the height of a hit's plane (`plane[o..o+2]` its point, `plane[o+3..o+5]` its
 * normal, the normal's up component not 0) at the x, z the ray was cast from: n · (p − c) = 0
 * solved for y. (Into an array: a double returned from a call V8 does not inline is boxed.)
 */
function planeHeightAt(out: Float64Array, ray: Float64Array, plane: Float64Array, o: number): void {
  const x = ray[RAY.origin];
  const z = ray[RAY.origin + 2];
  out[0] = plane[o + 1] - (plane[o + 3] * (x - plane[o]) + plane[o + 5] * (z - plane[o + 2])) / plane[o + 4];
}

/**
 * Writes to `out[0]` how far `hit`'s ground stands above the plane of another hit at the x, z the
 * ray was cast from ({@link planeHeightAt}).
 */
function riseOverPlane(
  out: Float64Array,
  hit: Float64Array,
  ray: Float64Array,
  plane: Float64Array,
  o: number,
): void {
  planeHeightAt(out, ray, plane, o);
  out[0] = hit[1] - out[0];
}

/**
 * Normalizes the direction `n[o..o+2]` (none: up) and, past the tilt limit (`s[0]`, `s[1]`: the
 * limit's cosine and sine), turns it back to the direction the limit away from up toward it: the
 * normal a foot is turned to.
 */
function limitTilt(n: Float64Array, o: number, s: Float64Array, so: number): void {
  let nx = n[o];
  let ny = n[o + 1];
  let nz = n[o + 2];
  const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (nl > 0) {
    nx /= nl;
    ny /= nl;
    nz /= nl;
  } else {
    ny = 1;
  }
  if (ny < s[so]) {
    const hl = Math.sqrt(nx * nx + nz * nz);
    const k = hl > 0 ? s[so + 1] / hl : 0;
    nx *= k;
    nz *= k;
    ny = s[so];
  }
  n[o] = nx;
  n[o + 1] = ny;
  n[o + 2] = nz;
}

/**
 * Whether ground of normal `n[o..o+2]` (any length) is ground a heel stands on, not a wall: steeper than
 * about 78° (`n_y` under a fifth of `|n|`), the plane through the heel's hit says nothing about
 * the height under the toe (and dividing by `n_y` would blow up).
 */
function standable(n: Float64Array, o: number): boolean {
  const nx = n[o];
  const ny = n[o + 1];
  const nz = n[o + 2];
  return ny > 0 && 25 * ny * ny > nx * nx + ny * ny + nz * nz;
}
