/**
 * tendon: skeletal animation and inverse kinematics for TypeScript.
 *
 * The main entry point: skeletons, poses, forward kinematics, skinning, clips, sampling, blending,
 * IK solvers, character placement (feet on the ground, a head that looks), and the glTF and BVH
 * importers. The flat-array kernels are exported from `tendon/kernel` only, the three.js adapter
 * from `tendon/three`.
 *
 * @packageDocumentation
 */

export { makeAdditiveClip } from './animation/additive.js';
export { Clip, type Interpolation, type RawClip, type RawTrack, type TrackPath } from './animation/clip.js';
export { createJointMask, type JointMaskOptions } from './animation/joint-mask.js';
export { Mixer, MixerLayer, type MixerLayerOptions } from './animation/mixer.js';
export {
  SamplerContext,
  sampleClip,
  sampleClipClock,
  type WrapMode,
  wrapTime,
  wrapTimeAt,
} from './animation/sampler.js';
export { type SharedMemoryStatus, sharedMemoryStatus } from './crowd/shared-memory.js';
export {
  browserCrowdWorker,
  CROWD_STEP,
  type CrowdCustomStep,
  type CrowdPalettes,
  type CrowdStep,
  type CrowdWorkerFactory,
  type CrowdWorkerHandle,
  type CrowdWorkerHooks,
  CrowdWorkers,
  type CrowdWorkersOptions,
  MAX_WORKERS,
  serveCrowdWorker,
} from './crowd/workers.js';
export { isTendonError, TendonError, type TendonErrorCode } from './errors.js';
export { AimIk, type AimIkOptions } from './ik/aim.js';
export { AimBatch, type AimBatchOptions } from './ik/aim-batch.js';
export { CcdIk, type CcdIkOptions } from './ik/ccd.js';
export type { JointRef } from './ik/chain.js';
export type { ChainIkOptions } from './ik/chain-setup.js';
export { FabrikIk, type FabrikIkOptions } from './ik/fabrik.js';
export { IkStatus } from './ik/ik-status.js';
export type { JointLimit } from './ik/joint-limits.js';
export { TwoBoneIk, type TwoBoneIkOptions, type TwoBoneMode } from './ik/two-bone.js';
export {
  type CrowdPoseBuffers,
  TwoBoneBatch,
  type TwoBoneBatchLimb,
  type TwoBoneBatchOptions,
} from './ik/two-bone-batch.js';
export { BVH_MAX_DEPTH, BVH_MAX_JOINTS, type BvhImport, type BvhImportOptions, importBvh } from './io/bvh.js';
export {
  GLTF_MAX_DEPTH,
  GLTF_MAX_JOINTS,
  type GltfImport,
  type GltfImportOptions,
  type GltfSkeleton,
  type GltfSkinnedPrimitive,
  importGltf,
} from './io/gltf.js';
export { TWO_BONE_STATUS } from './kernel/two-bone-batch.js';
export { cosSinOfAngle } from './math/angle.js';
export { BarHang, type BarHangOptions, HANG_HAND } from './placement/bar-hang.js';
export {
  type ContactOptions,
  ContactTrack,
  type ContactTrackDefinition,
  computeContacts,
  legLength,
} from './placement/contacts.js';
export { CrowdPlacement, type CrowdPlacementOptions } from './placement/crowd-placement.js';
export { FootPlacement, type FootPlacementOptions, LEG_REPORT } from './placement/foot-placement.js';
export { type Ground, HIT, RAY } from './placement/ground.js';
export { HeightfieldGround, type HeightfieldOptions } from './placement/heightfield-ground.js';
export { CLIMB_LIMB, type Ladder, LadderClimb, type LadderClimbOptions } from './placement/ladder-climb.js';
export { LookAt, type LookAtOptions } from './placement/look-at.js';
export { MeshGround } from './placement/mesh-ground.js';
export { PlaneGround } from './placement/plane-ground.js';
export { ProfileGround } from './placement/profile-ground.js';
export { RUNG_LIMBS, RungRetarget, type RungRetargetOptions } from './placement/rung-retarget.js';
export {
  decayFactor,
  EASE,
  EASED_WEIGHT_LENGTH,
  easedWeightSet,
  easedWeightStep,
  easedWeightValue,
  SPRING,
  springOmega,
  springStep,
  springStep3,
} from './placement/spring.js';
export { Crowd, type CrowdOptions, type PaletteLayout } from './pose/crowd.js';
export { CrowdSchedule, type CrowdScheduleOptions } from './pose/crowd-schedule.js';
export {
  createModelBuffer,
  forwardKinematics,
  forwardKinematicsSubtree,
  restModelMatrices,
} from './pose/forward-kinematics.js';
export { jointModelPosition, printJointTree, translateJointInModel } from './pose/joint-helpers.js';
export { Pose, type PoseArrays } from './pose/pose.js';
export {
  type ArmOverride,
  describeRig,
  type FindRigOptions,
  findRig,
  type LegOverride,
  type RigJointRef,
} from './rig/find-rig.js';
export type { ArmRig, LegRig, LegShape, LimbSide, LimbSource, Rig } from './rig/limbs.js';
export { baseName, NAME_MAPS, type NameMap, type SideNames } from './rig/name-maps.js';
export { Skeleton, type SkeletonDefinition } from './skeleton/skeleton.js';
export { Skin, type SkinDefinition, type SkinnedVertices, skinMesh } from './skin/skin.js';
