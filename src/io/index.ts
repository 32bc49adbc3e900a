/**
 * File importers: glTF 2.0 and BVH. Also re-exported from the main entry point.
 *
 * @packageDocumentation
 */
export { BVH_MAX_DEPTH, BVH_MAX_JOINTS, type BvhImport, type BvhImportOptions, importBvh } from './bvh.js';
export {
  GLTF_MAX_DEPTH,
  GLTF_MAX_JOINTS,
  type GltfImport,
  type GltfImportOptions,
  type GltfSkeleton,
  type GltfSkinnedPrimitive,
  importGltf,
} from './gltf.js';
