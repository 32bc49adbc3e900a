/**
 * File importers: glTF 2.0 and BVH. Also re-exported from the main entry point.
 *
 * @packageDocumentation
 */
export { type BvhImport, type BvhImportOptions, importBvh } from './bvh.js';
export {
  type GltfImport,
  type GltfImportOptions,
  type GltfSkeleton,
  type GltfSkinnedPrimitive,
  importGltf,
} from './gltf.js';
