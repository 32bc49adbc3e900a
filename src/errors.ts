/**
 * The one error type tendon throws, with a machine-readable code.
 *
 * @packageDocumentation
 */

/**
 * What went wrong, as a stable string a caller can switch on. The prefix names the area:
 * `argument/…` for an argument of the wrong kind (null, a number for an object, a short array),
 * `skeleton/…` for skeleton definitions, `pose/…` and `skin/…` for buffers that do not fit their
 * skeleton, `clip/…` and `animation/…` for animation data, `ik/…` for solver set-ups and inputs,
 * `rig/…` for limb maps, `placement/…` for grounds, contacts and placement, `gltf/…` and `bvh/…` for file import,
 * `three/…` for the three.js adapter (`tendon/three`), `crowd/…` for a crowd split across workers.
 */
export type TendonErrorCode =
  | 'argument/invalid'
  | 'skeleton/empty'
  | 'skeleton/array-size'
  | 'skeleton/invalid-name'
  | 'skeleton/duplicate-name'
  | 'skeleton/parent-out-of-range'
  | 'skeleton/cycle'
  | 'skeleton/not-finite'
  | 'skeleton/unknown-joint'
  | 'pose/skeleton-mismatch'
  | 'pose/buffer-size'
  | 'pose/joint-out-of-range'
  | 'pose/not-finite'
  | 'skin/joint-out-of-range'
  | 'skin/array-size'
  | 'skin/not-finite'
  | 'clip/invalid-track'
  | 'clip/times-not-increasing'
  | 'clip/not-finite'
  | 'clip/array-size'
  | 'clip/skeleton-mismatch'
  | 'animation/invalid-time'
  | 'animation/context-mismatch'
  | 'animation/invalid-mask'
  | 'mixer/invalid-layer'
  | 'ik/invalid-joint'
  | 'ik/not-a-chain'
  | 'ik/invalid-target'
  | 'ik/invalid-option'
  | 'rig/unknown-joint'
  | 'rig/not-a-chain'
  | 'rig/unknown-convention'
  | 'placement/invalid-ground'
  | 'placement/invalid-contacts'
  | 'placement/invalid-option'
  | 'placement/invalid-input'
  | 'placement/ground-failed'
  | 'gltf/parse'
  | 'gltf/invalid'
  | 'gltf/no-skin'
  | 'bvh/parse'
  | 'bvh/frame-count'
  | 'bvh/missing-values'
  | 'bvh/not-finite'
  | 'three/no-skeleton'
  | 'three/invalid-root'
  | 'three/invalid-skeleton'
  | 'three/invalid-ground'
  | 'three/unsupported-mesh'
  | 'three/disposed'
  | 'crowd/no-shared-memory'
  | 'crowd/worker-failed'
  | 'crowd/busy'
  | 'crowd/clips-changed';

/**
 * Thrown for invalid input: a malformed file, a skeleton with a cycle, a buffer of the wrong size.
 * The message names the file, joint, track or field at fault; {@link TendonError.code} says which
 * kind of fault it is. Whatever threw it was left unchanged (no half-built object escapes).
 */
export class TendonError extends Error {
  /** Machine-readable kind of fault. */
  readonly code: TendonErrorCode;

  /**
   * @param code - what kind of fault.
   * @param message - what is wrong and where (file, joint, field).
   * @param options - the underlying error, when one caused this.
   */
  constructor(code: TendonErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TendonError';
    this.code = code;
  }
}

/** `true` when `value` is a {@link TendonError}, optionally of the given code. */
export function isTendonError(value: unknown, code?: TendonErrorCode): value is TendonError {
  return value instanceof TendonError && (code === undefined || value.code === code);
}
