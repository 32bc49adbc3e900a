/**
 * tendon: skeletal animation and inverse kinematics for TypeScript.
 *
 * The main entry point: skeletons, poses, forward kinematics, skinning, clips, sampling, blending,
 * and the glTF and BVH importers. The flat-array kernels are also available from `tendon/kernel`.
 *
 * @packageDocumentation
 */

export { makeAdditiveClip } from './animation/additive.js';
export { Clip, type Interpolation, type RawClip, type RawTrack, type TrackPath } from './animation/clip.js';
export { createJointMask, type JointMaskOptions } from './animation/joint-mask.js';
export { Mixer, MixerLayer, type MixerLayerOptions } from './animation/mixer.js';
export { SamplerContext, sampleClip, type WrapMode, wrapTime } from './animation/sampler.js';
export { isTendonError, TendonError, type TendonErrorCode } from './errors.js';
export { AimIk, type AimIkOptions } from './ik/aim.js';
export { CcdIk, type CcdIkOptions } from './ik/ccd.js';
export type { JointRef } from './ik/chain.js';
export type { ChainIkOptions } from './ik/chain-setup.js';
export { FabrikIk, type FabrikIkOptions } from './ik/fabrik.js';
export { IkStatus } from './ik/ik-status.js';
export type { JointLimit } from './ik/joint-limits.js';
export { TwoBoneIk, type TwoBoneIkOptions, type TwoBoneMode } from './ik/two-bone.js';
export { type BvhImport, type BvhImportOptions, importBvh } from './io/bvh.js';
export {
  type GltfImport,
  type GltfImportOptions,
  type GltfSkeleton,
  type GltfSkinnedPrimitive,
  importGltf,
} from './io/gltf.js';
export { cosSinOfAngle } from './math/angle.js';
export {
  createModelBuffer,
  forwardKinematics,
  forwardKinematicsSubtree,
  restModelMatrices,
} from './pose/forward-kinematics.js';
export { Pose } from './pose/pose.js';
export { Skeleton, type SkeletonDefinition } from './skeleton/skeleton.js';
export { Skin, type SkinDefinition, type SkinnedVertices, skinMesh } from './skin/skin.js';
