/**
 * `tendon/three`: tendon inside a three.js project. Bind a skinned mesh as GLTFLoader returns it,
 * then either correct three's own animation with tendon's solvers (Mode 1) or let tendon compute
 * the skinning palette (Mode 2); stand characters on three.js meshes; draw what IK does.
 *
 * Needs the peer dependencies `three` and `three-mesh-bvh`; the rest of tendon never imports them.
 *
 * @packageDocumentation
 */

export { type Ground, HIT, RAY } from '../placement/ground.js';
export { bindThreeSkeleton, type ThreeBindingOptions, ThreeSkeletonBinding } from './binding.js';
export { type IkDebugFrame, IkDebugHelper, type IkDebugHelperOptions } from './debug-helper.js';
export { ThreeRaycastGround, type ThreeRaycastGroundOptions } from './ground.js';
export { ThreeInstancedCrowd, type ThreeInstancedCrowdOptions } from './instanced-crowd.js';
