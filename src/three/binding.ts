/**
 * A three.js skeleton seen as a tendon {@link Skeleton}: the joint order mapped to three's bones,
 * and the two ways to animate with both libraries (tendon corrects three's pose; tendon computes the
 * skinning palette itself).
 *
 * @packageDocumentation
 */
import type { Object3D, SkinnedMesh, Skeleton as ThreeSkeleton } from 'three';
import { checkArrayArg, checkFloat64Arg, optionsArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import { invertAffine, multiplyAffine } from '../kernel/mat4.js';
import { skinPalette } from '../kernel/skin-palette.js';
import { createModelBuffer } from '../pose/forward-kinematics.js';
import { Pose } from '../pose/pose.js';
import { Skeleton } from '../skeleton/skeleton.js';
import { uniqueNames } from '../skeleton/unique-names.js';
import { Skin } from '../skin/skin.js';

/** Options of {@link bindThreeSkeleton}. */
export interface ThreeBindingOptions {
  /**
   * The object whose local frame is tendon's model space. Its own transform (where the character
   * stands in the world) is not a joint; every object strictly between it and the bones is.
   *
   * Default: for an `Object3D` source (such as `gltf.scene`), the source itself; for a
   * `SkinnedMesh` or a `THREE.Skeleton`, the highest ancestor of the bones that is not a
   * `THREE.Scene` (for a GLTFLoader result, `gltf.scene`, whether or not it was added to a scene).
   * Either way the model space is the glTF scene's space, as {@link index!importGltf} builds it: the same
   * joints, names, parents and rest transforms. `null` makes model space the world (every ancestor
   * of the bones becomes a joint).
   */
  readonly root?: Object3D | null;
  /**
   * A tendon skeleton to use instead of building one, such as `importGltf`'s for the same file, so
   * that its clips, skins and rig apply to the binding's pose as they are. Its joints are matched to
   * three's objects by name (see {@link bindThreeSkeleton} for the names), or for a node the file
   * leaves unnamed (importGltf's `node_<index>`, three's `''`) or names twice, by place (the
   * parent's first unclaimed child, in file order). They must be exactly the objects between the
   * root and the bones, with the same parents. Its rest pose is kept.
   */
  readonly skeleton?: Skeleton;
}

/**
 * What {@link ThreeSkeletonBinding.useTendonPalette} changed on a three.js object (a bone, a mesh,
 * a skeleton), as it was before the first binding changed it, and how many bindings hold it so:
 * the last to restore puts it back. (Each binding kept its own copy: two bindings over the same
 * bones, restored in the order they were used, left the bones frozen with the first's changes.)
 */
interface Held {
  count: number;
  readonly matrixAutoUpdate: boolean;
  readonly matrixWorldAutoUpdate: boolean;
  readonly frustumCulled: boolean;
  /** A skeleton's own `update` (an app's override), or `undefined` where it had none of its own. */
  readonly update: unknown;
  readonly ownUpdate: boolean;
}

/** The objects held by bindings in Mode 2, across bindings. */
const held = new WeakMap<object, Held>();

/** Holds `object` for one more binding, saving what it was when the first took it. */
function hold(object: object): boolean {
  const entry = held.get(object);
  if (entry !== undefined) {
    entry.count++;
    return false;
  }
  const o = object as {
    matrixAutoUpdate?: boolean;
    matrixWorldAutoUpdate?: boolean;
    frustumCulled?: boolean;
  };
  held.set(object, {
    count: 1,
    matrixAutoUpdate: o.matrixAutoUpdate === true,
    matrixWorldAutoUpdate: o.matrixWorldAutoUpdate === true,
    frustumCulled: o.frustumCulled === true,
    update: (object as { update?: unknown }).update,
    ownUpdate: Object.hasOwn(object, 'update'),
  });
  return true;
}

/** Lets go of `object` for one binding; what it was when the last lets go, or `null` till then. */
function release(object: object): Held | null {
  const entry = held.get(object);
  if (entry === undefined) return null;
  entry.count--;
  if (entry.count > 0) return null;
  held.delete(object);
  return entry;
}

/**
 * A tendon {@link Skeleton} over a three.js skeleton, with a pose and a model buffer for it.
 * Made by {@link bindThreeSkeleton}.
 *
 * **Mode 1, IK on top of three's animation.** Each frame, after `mixer.update(dt)`:
 * {@link ThreeSkeletonBinding.readFromThree} copies the bones' local transforms into
 * {@link ThreeSkeletonBinding.pose}; run `forwardKinematics(binding.pose, binding.model)` and any
 * solver or placement; {@link ThreeSkeletonBinding.writeToThree} writes the corrected local
 * transforms back to the bones, and three renders as usual; after rendering,
 * {@link ThreeSkeletonBinding.restoreThree} puts the animation's values back (three's mixer does not
 * rewrite a bone whose animated value has not changed).
 *
 * **Mode 2, tendon drives everything.** Call {@link ThreeSkeletonBinding.useTendonPalette} once;
 * each frame sample, solve and run forward kinematics with tendon, then
 * {@link ThreeSkeletonBinding.writeBoneMatrices} writes the skinning palette straight into every
 * bound `skeleton.boneMatrices`: three no longer computes bone world matrices or the palette.
 *
 * Every per-frame method allocates nothing.
 */
export class ThreeSkeletonBinding {
  /** The tendon skeleton: the bones plus the objects between them and {@link root}. */
  readonly skeleton: Skeleton;
  /** The three.js object of each joint, by joint index. */
  readonly objects: readonly Object3D[];
  /** The frame of model space (see {@link ThreeBindingOptions.root}); `null` for the world. */
  readonly root: Object3D | null;
  /** Every three.js skeleton bound (GLTFLoader makes one per mesh node, over the same bones). */
  readonly threeSkeletons: readonly ThreeSkeleton[];
  /** The skinned meshes found that use {@link threeSkeletons}. */
  readonly meshes: readonly SkinnedMesh[];
  /**
   * Index in `threeSkeletons[0].bones` of each joint, `−1` for a joint that is not one of its bones
   * (an ancestor such as glTF's armature node).
   */
  readonly boneOfJoint: Int32Array;
  /** The joint of each bone of `threeSkeletons[0]`: `jointOfBone[b]` is the joint of `bones[b]`. */
  readonly jointOfBone: Int32Array;
  /** A tendon {@link Skin} per entry of {@link threeSkeletons}: its bones as joints, its `boneInverses`. */
  readonly skins: readonly Skin[];
  /** The pose {@link readFromThree} fills and {@link writeToThree} reads. Starts at rest. */
  readonly pose: Pose;
  /** A model-space matrix buffer for {@link pose} (16 numbers per joint; fill it with forward kinematics). */
  readonly model: Float64Array;
  /**
   * The world matrix of {@link root} (column-major; identity when `root` is `null`): model space to
   * world space. Refreshed by {@link readFromThree}, {@link writeBoneMatrices} and {@link readRootWorld}.
   */
  readonly rootWorld = new Float64Array(16);
  /** The inverse of {@link rootWorld}: world space to model space (where solvers take targets). */
  readonly rootWorldInverse = new Float64Array(16);
  /** For each of {@link threeSkeletons}, an earlier one with the same palette to copy, or −1. */
  private readonly paletteSource: Int32Array;
  /** Every joint that is a bone of a bound skeleton: the world matrices Mode 2 writes. */
  private readonly boneJoints: Int32Array;
  /** Model matrices moved to world space, for the palette when {@link root} is not at the origin. */
  private readonly worldModel: Float64Array;
  private rootIsIdentity = true;
  /** Whether this binding holds its objects in Mode 2 ({@link useTendonPalette}). */
  private holding = false;
  /** What the last {@link readFromThree} read (the animation's), for {@link restoreThree}. */
  private readonly readTranslations: Float64Array;
  private readonly readRotations: Float64Array;
  private hasRead = false;
  /** 1 for a joint {@link writeToThree} wrote since the last {@link restoreThree}. */
  private readonly written: Uint8Array;

  /** @internal Use {@link bindThreeSkeleton}. */
  constructor(
    skeleton: Skeleton,
    objects: Object3D[],
    root: Object3D | null,
    threeSkeletons: ThreeSkeleton[],
    meshes: SkinnedMesh[],
    skins: Skin[],
  ) {
    this.skeleton = skeleton;
    this.objects = Object.freeze(objects.slice());
    this.root = root;
    this.threeSkeletons = Object.freeze(threeSkeletons.slice());
    this.meshes = Object.freeze(meshes.slice());
    this.skins = Object.freeze(skins.slice());
    const bones = threeSkeletons[0].bones;
    this.boneOfJoint = new Int32Array(skeleton.jointCount).fill(-1);
    this.jointOfBone = skins[0].joints.slice();
    for (let b = 0; b < bones.length; b++) this.boneOfJoint[this.jointOfBone[b]] = b;
    const isBone = new Uint8Array(skeleton.jointCount);
    for (const skin of skins) for (const j of skin.joints) isBone[j] = 1;
    const boneJoints: number[] = [];
    for (let j = 0; j < isBone.length; j++) if (isBone[j] === 1) boneJoints.push(j);
    this.boneJoints = Int32Array.from(boneJoints);
    this.paletteSource = new Int32Array(skins.length).fill(-1);
    for (let s = 1; s < skins.length; s++) {
      for (let e = 0; e < s; e++) {
        if (samePalette(skins[s], skins[e])) {
          this.paletteSource[s] = e;
          break;
        }
      }
    }
    this.readTranslations = new Float64Array(3 * skeleton.jointCount);
    this.readRotations = new Float64Array(4 * skeleton.jointCount);
    this.written = new Uint8Array(skeleton.jointCount);
    this.pose = new Pose(skeleton);
    this.model = createModelBuffer(skeleton);
    this.worldModel = createModelBuffer(skeleton);
    this.rootWorld[0] = this.rootWorld[5] = this.rootWorld[10] = this.rootWorld[15] = 1;
    this.rootWorldInverse.set(this.rootWorld);
  }

  /**
   * Refreshes {@link rootWorld} and {@link rootWorldInverse} from three: updates the world matrix
   * of {@link root} and its ancestors (not its descendants) and copies it. Allocates nothing.
   */
  readRootWorld(): void {
    const root = this.root;
    if (root === null) return;
    root.updateWorldMatrix(true, false);
    const e = root.matrixWorld.elements;
    const w = this.rootWorld;
    let identity = true;
    for (let i = 0; i < 16; i++) {
      w[i] = e[i];
      if (e[i] !== ((i & 3) === i >> 2 ? 1 : 0)) identity = false;
    }
    this.rootIsIdentity = identity;
    // A zero scale above the character has no inverse: the last one is kept (invertAffine writes
    // nothing then).
    invertAffine(this.rootWorldInverse, 0, w, 0);
  }

  /**
   * Mode 1: copies every joint's local position, quaternion and scale from its three.js object into
   * {@link pose} (after `mixer.update`, before forward kinematics), and refreshes {@link rootWorld}.
   * Returns `this`. Allocates nothing.
   */
  readFromThree(): this {
    const objects = this.objects;
    const t = this.pose.translations;
    const r = this.pose.rotations;
    const s = this.pose.scales;
    for (let j = 0; j < objects.length; j++) {
      const o = objects[j];
      const p = o.position;
      const q = o.quaternion;
      const k = o.scale;
      t[3 * j] = p.x;
      t[3 * j + 1] = p.y;
      t[3 * j + 2] = p.z;
      r[4 * j] = q.x;
      r[4 * j + 1] = q.y;
      r[4 * j + 2] = q.z;
      r[4 * j + 3] = q.w;
      s[3 * j] = k.x;
      s[3 * j + 1] = k.y;
      s[3 * j + 2] = k.z;
    }
    this.readTranslations.set(t);
    this.readRotations.set(r);
    this.hasRead = true;
    this.readRootWorld();
    return this;
  }

  /**
   * Mode 1: puts back into the bones the positions and quaternions the last {@link readFromThree}
   * read (the animation's), once the frame is rendered. Call it after `renderer.render`, or before
   * the next `mixer.update`. three's `AnimationMixer` writes a bone only when its animated value
   * changes: a bone the clip holds still (equal keys, a pause) or does not animate at all would
   * otherwise keep what {@link writeToThree} wrote, and the next {@link readFromThree} would read
   * last frame's IK as the animation (a solver at weight 0.5 then creeps to full weight, frame by
   * frame). Only the joints {@link writeToThree} wrote since are put back; nothing before the
   * first {@link readFromThree}. Allocates nothing.
   */
  restoreThree(): void {
    const written = this.written;
    if (!this.hasRead) {
      written.fill(0);
      return;
    }
    const objects = this.objects;
    for (let j = 0; j < objects.length; j++) {
      if (written[j] === 0) continue;
      writeJoint(objects[j], this.readTranslations, this.readRotations, j);
      written[j] = 0;
    }
  }

  /**
   * Mode 1: writes the local rotation and translation of `joints` (default: every joint) from
   * {@link pose} into their three.js objects' `quaternion` and `position`; three's next
   * `updateMatrixWorld` (the renderer's) shows them. Scales are left alone: no solver changes one.
   * Writing a joint tendon did not change writes back what {@link readFromThree} read, exactly.
   * Allocates nothing.
   *
   * @throws {@link index!TendonError} `pose/joint-out-of-range` when an entry of `joints` is not a joint
   *   index, `pose/not-finite` when a joint to write holds a NaN or an infinity (naming it; nothing
   *   is written then: three's bones took the NaN and drew nothing).
   */
  writeToThree(joints?: ArrayLike<number>): void {
    if (joints !== undefined) checkArrayArg(joints, 'ThreeSkeletonBinding.writeToThree', 'joints');
    const objects = this.objects;
    const t = this.pose.translations;
    const r = this.pose.rotations;
    if (joints === undefined) {
      for (let j = 0; j < objects.length; j++) checkWritten(t, r, j, this.skeleton);
      for (let j = 0; j < objects.length; j++) writeJoint(objects[j], t, r, j);
      this.written.fill(1);
      return;
    }
    const n = objects.length;
    for (let i = 0; i < joints.length; i++) {
      const j = joints[i];
      if (!Number.isInteger(j) || j < 0 || j >= n) {
        throw new TendonError(
          'pose/joint-out-of-range',
          `ThreeSkeletonBinding.writeToThree: joints[${i}] = ${j} is not in 0..${n - 1}`,
        );
      }
    }
    for (let i = 0; i < joints.length; i++) checkWritten(t, r, joints[i], this.skeleton);
    for (let i = 0; i < joints.length; i++) {
      writeJoint(objects[joints[i]], t, r, joints[i]);
      this.written[joints[i]] = 1;
    }
  }

  /**
   * Mode 2: writes the skinning palette for the model matrices `model` (default {@link model})
   * into `boneMatrices` of every bound three.js skeleton, flags their bone textures for upload, and
   * writes each bone's `matrixWorld` (`rootWorld · model[joint]`), so that what hangs from a bone
   * (the robot's rigid parts, a sword in a hand) follows when three updates the scene.
   *
   * Entry `b` is `rootWorld · model[jointOfBone[b]] · boneInverses[b]`: exactly what three's
   * `Skeleton.update()` writes from `bone.matrixWorld`, so the shader (`bindMatrixInverse ·
   * Σ wᵢ boneMatrixᵢ · bindMatrix · v`, whatever the mesh's `bindMode`) draws the mesh as if the
   * bones had been posed and updated by three. {@link rootWorld} is refreshed first (the root's
   * world matrix and its ancestors', not the bones'). Allocates nothing.
   *
   * @throws {@link index!TendonError} `pose/buffer-size` when `model` does not hold 16 numbers per joint,
   *   `pose/not-finite` when it or the root's world matrix holds a NaN or an infinity (naming which;
   *   nothing is written then).
   */
  writeBoneMatrices(model: Float64Array = this.model): void {
    checkFloat64Arg(model, 'ThreeSkeletonBinding.writeBoneMatrices', 'the model buffer');
    const n = this.skeleton.jointCount;
    if (model.length !== 16 * n) {
      throw new TendonError(
        'pose/buffer-size',
        `ThreeSkeletonBinding.writeBoneMatrices: the model buffer holds ${model.length} numbers; expected ${16 * n} (16 per joint)`,
      );
    }
    this.readRootWorld();
    // A NaN here would reach the GPU's palette and three's bones: refused before anything is written
    // (v · 0 is 0 for a finite v, NaN otherwise: a sum of them cannot overflow).
    // Four sums side by side (16 numbers a joint): one chain of additions cost 0.8 µs a frame.
    let a = 0;
    let b = 0;
    let c = 0;
    let d = 0;
    for (let i = 0; i < 16; i += 4) {
      a += this.rootWorld[i] * 0;
      b += this.rootWorld[i + 1] * 0;
      c += this.rootWorld[i + 2] * 0;
      d += this.rootWorld[i + 3] * 0;
    }
    for (let i = 0; i < model.length; i += 4) {
      a += model[i] * 0;
      b += model[i + 1] * 0;
      c += model[i + 2] * 0;
      d += model[i + 3] * 0;
    }
    if (!(a + b + c + d === 0)) refuseNotFinite(this.rootWorld, model, this.skeleton);
    let source = model;
    if (!this.rootIsIdentity) {
      source = this.worldModel;
      for (let j = 0; j < n; j++) multiplyAffine(source, 16 * j, this.rootWorld, 0, model, 16 * j);
    }
    const skeletons = this.threeSkeletons;
    for (let s = 0; s < skeletons.length; s++) {
      const three = skeletons[s];
      const skin = this.skins[s];
      // Read boneMatrices every time: three's computeBoneTexture replaces the array with a larger one.
      let out = three.boneMatrices;
      if (out === null) {
        three.init();
        out = three.boneMatrices!;
      }
      const from = this.paletteSource[s];
      if (from >= 0) {
        const copy = skeletons[from].boneMatrices!;
        for (let i = 0, l = 16 * skin.joints.length; i < l; i++) out[i] = copy[i];
      } else {
        skinPalette(out, source, skin.joints, skin.inverseBindMatrices);
      }
      if (three.boneTexture !== null) three.boneTexture.needsUpdate = true;
    }
    const objects = this.objects;
    const bones = this.boneJoints;
    for (let i = 0; i < bones.length; i++) {
      const j = bones[i];
      const e = objects[j].matrixWorld.elements;
      for (let c = 0; c < 16; c++) e[c] = source[16 * j + c];
    }
  }

  /**
   * Mode 2 set-up, once: hands the palette of every bound skeleton to
   * {@link writeBoneMatrices}. It
   * - makes each bound `THREE.Skeleton`'s `update()` a no-op (the renderer calls it every frame and
   *   it would overwrite the palette from the bones' world matrices);
   * - stops three computing the bones' local and world matrices (`matrixAutoUpdate` and
   *   `matrixWorldAutoUpdate` false): {@link writeBoneMatrices} writes their world matrices, and
   *   three still updates what hangs from them. Their `position`, `quaternion` and local `matrix`
   *   are left as they were (call {@link writeToThree} too if something reads them);
   * - turns off frustum culling of the bound meshes (three would cull them with the bounding
   *   sphere of the bind pose, wherever tendon moved them).
   *
   * Returns `this`. {@link restoreThreePalette} undoes it.
   */
  useTendonPalette(): this {
    if (this.holding) return this;
    this.holding = true;
    // Each object once (a bone listed twice, or in two of the binding's skeletons, is held once).
    for (const skeleton of new Set(this.threeSkeletons)) {
      hold(skeleton);
      skeleton.update = noUpdate;
    }
    for (const bone of new Set(this.boneObjects())) {
      hold(bone);
      bone.matrixAutoUpdate = false;
      bone.matrixWorldAutoUpdate = false;
    }
    for (const mesh of new Set(this.meshes)) {
      hold(mesh);
      mesh.frustumCulled = false;
    }
    return this;
  }

  private boneObjects(): Object3D[] {
    return Array.from(this.boneJoints, (j) => this.objects[j]);
  }

  /**
   * Undoes {@link useTendonPalette}: three computes the bones and the palette again (an `update`
   * the app set on a skeleton is its own again). Where other bindings still use tendon's palette
   * over the same objects, they stay as those need them until the last one restores. Returns `this`.
   */
  restoreThreePalette(): this {
    if (!this.holding) return this;
    this.holding = false;
    for (const skeleton of new Set(this.threeSkeletons)) {
      const was = release(skeleton);
      if (was === null) continue;
      if (was.ownUpdate) skeleton.update = was.update as ThreeSkeleton['update'];
      else delete (skeleton as { update?: unknown }).update;
    }
    for (const bone of new Set(this.boneObjects())) {
      const was = release(bone);
      if (was === null) continue;
      bone.matrixAutoUpdate = was.matrixAutoUpdate;
      bone.matrixWorldAutoUpdate = was.matrixWorldAutoUpdate;
    }
    for (const mesh of new Set(this.meshes)) {
      const was = release(mesh);
      if (was !== null) mesh.frustumCulled = was.frustumCulled;
    }
    return this;
  }
}

function noUpdate(): void {}

/** Refuses joint `j` of the pose where its translation or rotation holds a NaN or an infinity. */
function checkWritten(t: Float64Array, r: Float64Array, j: number, skeleton: Skeleton): void {
  // v · 0 is 0 for a finite v, NaN otherwise: a sum of them cannot overflow.
  const sum =
    t[3 * j] * 0 + t[3 * j + 1] * 0 + t[3 * j + 2] * 0 + r[4 * j] * 0 + r[4 * j + 1] * 0 + r[4 * j + 2] * 0;
  if (sum + r[4 * j + 3] * 0 === 0) return;
  throw new TendonError(
    'pose/not-finite',
    `ThreeSkeletonBinding.writeToThree: joint ${j} ("${skeleton.names[j]}") holds a number that is not finite: nothing written to three`,
  );
}

/** Throws for the first number of the root's world matrix or of `model` that is not finite. */
function refuseNotFinite(rootWorld: Float64Array, model: Float64Array, skeleton: Skeleton): never {
  const bad = rootWorld.findIndex((v) => !Number.isFinite(v));
  const at = model.findIndex((v) => !Number.isFinite(v));
  const what =
    bad >= 0
      ? `the root's world matrix (rootWorld[${bad}] = ${rootWorld[bad]}: a three.js ancestor of the root)`
      : `the model matrix of joint ${at >> 4} ("${skeleton.names[at >> 4]}")`;
  throw new TendonError(
    'pose/not-finite',
    `ThreeSkeletonBinding.writeBoneMatrices: ${what} holds a number that is not finite: nothing written to three`,
  );
}

function writeJoint(o: Object3D, t: Float64Array, r: Float64Array, j: number): void {
  o.position.set(t[3 * j], t[3 * j + 1], t[3 * j + 2]);
  o.quaternion.set(r[4 * j], r[4 * j + 1], r[4 * j + 2], r[4 * j + 3]);
}

/**
 * Whether two skins give the same palette: the same joints and inverse bind matrices.
 *
 * @internal
 */
export function samePalette(a: Skin, b: Skin): boolean {
  if (a.joints.length !== b.joints.length) return false;
  for (let i = 0; i < a.joints.length; i++) if (a.joints[i] !== b.joints[i]) return false;
  for (let i = 0; i < a.inverseBindMatrices.length; i++) {
    if (a.inverseBindMatrices[i] !== b.inverseBindMatrices[i]) return false;
  }
  return true;
}

function isSkinnedMesh(value: object): value is SkinnedMesh {
  return (value as { isSkinnedMesh?: unknown }).isSkinnedMesh === true;
}

function isThreeSkeleton(value: object): value is ThreeSkeleton {
  const v = value as { bones?: unknown; boneInverses?: unknown };
  return Array.isArray(v.bones) && Array.isArray(v.boneInverses);
}

function isScene(value: Object3D | null): boolean {
  return value !== null && (value as { isScene?: unknown }).isScene === true;
}

/**
 * Binds a three.js skeleton, as GLTFLoader returns it, to tendon: builds a tendon {@link Skeleton}
 * from the bones plus every object between them and the model-space root (see
 * {@link ThreeBindingOptions.root}), maps its joint order to three's bones, and makes a pose and a
 * model buffer for it.
 *
 * `source` is a `SkinnedMesh`, a `THREE.Skeleton`, or an object holding skinned meshes (such as
 * `gltf.scene`): then the first skinned mesh found (depth first) names the bones, and every skinned
 * mesh below `source` whose bones are all joints is bound too (GLTFLoader gives each mesh node its
 * own `THREE.Skeleton` over the same bones; Mode 2 writes all their palettes).
 *
 * Joint names are the glTF node names GLTFLoader keeps in `userData.name` (three's `name` drops
 * `.` and other characters), else `name`, else `joint_<index>`; a repeated name gets `_<index>`.
 * The rest pose is the objects' local transforms now: bind before an animation moves them.
 *
 * @throws {@link index!TendonError} `three/no-skeleton` (no skinned mesh in `source`),
 *   `three/invalid-skeleton` (a skeleton with no bones or a missing bone) or `three/invalid-root`
 *   (a bone not below `options.root`).
 */
export function bindThreeSkeleton(
  source: SkinnedMesh | ThreeSkeleton | Object3D,
  options: ThreeBindingOptions = {},
): ThreeSkeletonBinding {
  options = optionsArg(options, 'bindThreeSkeleton');
  if (
    source === null ||
    typeof source !== 'object' ||
    !(isSkinnedMesh(source) || isThreeSkeleton(source) || typeof (source as Object3D).traverse === 'function')
  ) {
    throw new TendonError(
      'argument/invalid',
      `bindThreeSkeleton: the source is ${String(source)}, not a SkinnedMesh, a Skeleton or an Object3D holding one`,
    );
  }
  let first: ThreeSkeleton;
  let meshes: SkinnedMesh[] = [];
  let container: Object3D | null = null;
  if (isSkinnedMesh(source)) {
    first = source.skeleton;
    meshes = [source];
  } else if (isThreeSkeleton(source)) {
    first = source;
  } else {
    container = source;
    source.traverse((o) => {
      if (isSkinnedMesh(o) && o.skeleton !== undefined) meshes.push(o);
    });
    if (meshes.length === 0) {
      throw new TendonError(
        'three/no-skeleton',
        `bindThreeSkeleton: "${source.name || source.type}" holds no SkinnedMesh to bind`,
      );
    }
    first = meshes[0].skeleton;
  }
  const bones = first.bones;
  if (bones.length === 0) {
    throw new TendonError('three/invalid-skeleton', 'bindThreeSkeleton: the skeleton has no bones');
  }
  for (let b = 0; b < bones.length; b++) {
    if (bones[b] === null || bones[b] === undefined) {
      throw new TendonError(
        'three/invalid-skeleton',
        `bindThreeSkeleton: bone ${b} of the skeleton is missing`,
      );
    }
  }
  const root = options.root !== undefined ? options.root : (container ?? defaultRoot(bones[0]));
  const needed = new Set<Object3D>();
  const tops: Object3D[] = [];
  for (const bone of bones) {
    for (let o: Object3D | null = bone; o !== root; o = o.parent) {
      if (o === null) {
        throw new TendonError(
          'three/invalid-root',
          `bindThreeSkeleton: bone "${bone.name}" is not below the root "${root?.name ?? ''}"; the root must be an ancestor of every bone`,
        );
      }
      if (needed.has(o)) break;
      needed.add(o);
      if (o.parent === root) tops.push(o);
    }
  }
  // Depth first from the root's children in three's order, which is the glTF file's order, so the
  // joints come out in importGltf's order.
  const order: Object3D[] = [];
  const visit = (o: Object3D): void => {
    order.push(o);
    for (const child of o.children) if (needed.has(child)) visit(child);
  };
  const topSet = new Set(tops);
  const rootChildren = root === null ? tops : root.children.filter((c) => topSet.has(c));
  for (const top of rootChildren) visit(top);
  const index = new Map<Object3D, number>();
  order.forEach((o, i) => {
    index.set(o, i);
  });
  const n = order.length;
  // A repeated name takes its joint's index (and never another joint's name).
  const names = uniqueNames(
    order.map((o, i) => originalName(o) || `joint_${i}`),
    (i) => i,
  );
  const parents = new Int32Array(n);
  const t = new Float64Array(3 * n);
  const r = new Float64Array(4 * n);
  const s = new Float64Array(3 * n);
  order.forEach((o, i) => {
    parents[i] = o.parent !== null && index.has(o.parent) ? index.get(o.parent)! : -1;
    t[3 * i] = o.position.x;
    t[3 * i + 1] = o.position.y;
    t[3 * i + 2] = o.position.z;
    r[4 * i] = o.quaternion.x;
    r[4 * i + 1] = o.quaternion.y;
    r[4 * i + 2] = o.quaternion.z;
    r[4 * i + 3] = o.quaternion.w;
    s[3 * i] = o.scale.x;
    s[3 * i + 1] = o.scale.y;
    s[3 * i + 2] = o.scale.z;
  });
  // Skeleton.create keeps a parent-first order as given, which a depth-first walk is.
  const skeleton =
    options.skeleton ??
    wrap(() => Skeleton.create({ names, parents, restTranslations: t, restRotations: r, restScales: s }));
  const objects = options.skeleton === undefined ? order : matchByName(options.skeleton, names, order, root);
  const jointOf = new Map<Object3D, number>();
  objects.forEach((o, j) => {
    jointOf.set(o, j);
  });
  const threeSkeletons: ThreeSkeleton[] = [];
  const boundMeshes: SkinnedMesh[] = [];
  const skins: Skin[] = [];
  const bindSkeleton = (three: ThreeSkeleton): boolean => {
    if (threeSkeletons.includes(three)) return true;
    const joints = new Int32Array(three.bones.length);
    for (let b = 0; b < three.bones.length; b++) {
      const j = jointOf.get(three.bones[b]);
      if (j === undefined) return false;
      joints[b] = j;
    }
    const ibm = new Float64Array(16 * three.bones.length);
    for (let b = 0; b < three.bones.length; b++) {
      const inverse = three.boneInverses[b];
      if (inverse !== undefined) ibm.set(inverse.elements, 16 * b);
      else ibm[16 * b] = ibm[16 * b + 5] = ibm[16 * b + 10] = ibm[16 * b + 15] = 1;
    }
    skins.push(wrap(() => new Skin(skeleton, { joints, inverseBindMatrices: ibm, name: 'three' })));
    threeSkeletons.push(three);
    return true;
  };
  if (!bindSkeleton(first)) {
    throw new TendonError(
      'three/invalid-root',
      'bindThreeSkeleton: the root is a bone or below one; it must be an ancestor of every bone',
    );
  }
  for (const mesh of meshes) if (bindSkeleton(mesh.skeleton)) boundMeshes.push(mesh);
  return new ThreeSkeletonBinding(skeleton, objects, root, threeSkeletons, boundMeshes, skins);
}

/**
 * The three.js object of each joint of `given`, by name, else by place; the hierarchies must agree.
 *
 * GLTFLoader leaves an unnamed glTF node's object unnamed (`''`), and keeps its node index only in
 * `parser.associations`, which `gltf.scene` does not reach; importGltf names it `node_<index>`. A
 * repeated name is suffixed differently too (importGltf: node index; here: joint index). So a joint
 * no name matches takes the first unclaimed child of its parent's object, in three's child order
 * (the file's, as importGltf walks it), that is unnamed when the joint is `node_<digits>`, or
 * carries the joint's name before a `_<digits>` suffix: the node at that place in the file.
 */
function matchByName(
  given: Skeleton,
  names: readonly string[],
  order: readonly Object3D[],
  root: Object3D | null,
): Object3D[] {
  const fail = (why: string): never => {
    throw new TendonError('three/invalid-skeleton', `bindThreeSkeleton: the given skeleton ${why}`);
  };
  if (given.jointCount !== order.length) {
    fail(
      `has ${given.jointCount} joints, but ${order.length} objects lie between the root and the bones (${names.join(', ')})`,
    );
  }
  // By name only where three's own name is given once: a name made unique (a repeated name with a
  // suffix) is matched by its place below, since the suffixes need not agree (importGltf's are
  // node indices, the binding's joint indices: "Arm_3" was bound to another "Arm").
  const count = new Map<string, number>();
  for (const o of order) count.set(originalName(o), (count.get(originalName(o)) ?? 0) + 1);
  const byName = new Map<string, Object3D>();
  for (const o of order) {
    const name = originalName(o);
    if (name !== '' && count.get(name) === 1) byName.set(name, o);
  }
  const found: (Object3D | undefined)[] = given.names.map((name) => byName.get(name));
  const claimed = new Set<Object3D>();
  for (const o of found) if (o !== undefined) claimed.add(o);
  const inOrder = new Set(order);
  const childrenOf = new Map<Object3D | null, Object3D[]>();
  for (const o of order) {
    const parent = o.parent !== null && inOrder.has(o.parent) ? o.parent : null;
    const list = childrenOf.get(parent);
    if (list === undefined) childrenOf.set(parent, [o]);
    else list.push(o);
  }
  // Skeletons are parent-first, so a joint's parent is placed before the joint.
  for (let j = 0; j < found.length; j++) {
    if (found[j] !== undefined) continue;
    const name = given.names[j];
    const p = given.parents[j];
    const parent = p < 0 ? null : found[p]!;
    const unnamed = /^node_\d+$/.test(name);
    const candidate = childrenOf.get(parent)?.find((o) => {
      if (claimed.has(o)) return false;
      const original = originalName(o);
      return original === '' ? unnamed : madeFrom(name, original);
    });
    if (candidate === undefined) fail(`has a joint "${name}" that three does not`);
    found[j] = candidate;
    claimed.add(candidate!);
  }
  const objects = found as Object3D[];
  for (let j = 0; j < objects.length; j++) {
    const p = given.parents[j];
    const expected = p < 0 ? root : objects[p];
    if (objects[j].parent !== expected) {
      fail(
        `makes "${given.names[j]}" a child of ${p < 0 ? 'the root' : `"${given.names[p]}"`}, but in three its parent is "${objects[j].parent?.name ?? ''}"`,
      );
    }
  }
  return objects;
}

/**
 * Whether `name` is `original` or a name made unique from it: suffixes of digits, one or more
 * (`uniqueNames` adds `_1`, `_2`… to a suffix a real name has: `A, A, A_1` become `A, A_1_1, A_1`).
 */
function madeFrom(name: string, original: string): boolean {
  if (name === original) return true;
  return name.startsWith(`${original}_`) && /^\d+(_\d+)*$/.test(name.slice(original.length + 1));
}

/** The glTF node name GLTFLoader keeps in `userData.name`, else three's `name` (`''` if none). */
function originalName(o: Object3D): string {
  const original = (o.userData as { name?: unknown } | undefined)?.name;
  return typeof original === 'string' && original.length > 0 ? original : o.name;
}

/** The highest ancestor of `bone` that is not a scene: GLTFLoader's `gltf.scene` group. */
function defaultRoot(bone: Object3D): Object3D | null {
  let o: Object3D | null = bone.parent;
  if (o === null || isScene(o)) return o;
  while (o.parent !== null && !isScene(o.parent)) o = o.parent;
  return o;
}

function wrap<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof TendonError) {
      throw new TendonError('three/invalid-skeleton', `bindThreeSkeleton: ${error.message}`, {
        cause: error,
      });
    }
    throw error;
  }
}
