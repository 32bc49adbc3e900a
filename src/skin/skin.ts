/**
 * A skin: the joints a mesh is bound to and their inverse bind matrices.
 *
 * @packageDocumentation
 */
import { checkArrayArg, checkObjectArg, checkSkeletonArg, checkStringArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import { skinPalette } from '../kernel/skin-palette.js';
import { type JointIndexArray, skinVertices } from '../kernel/skinning.js';
import type { Skeleton } from '../skeleton/skeleton.js';

/** The plain data a {@link Skin} is built from. */
export interface SkinDefinition {
  /** Skeleton joint index of each skin joint (the palette's order, which vertices refer to). */
  readonly joints: ArrayLike<number>;
  /** `16·k` inverse bind matrices, column-major; identities when omitted (as glTF says). */
  readonly inverseBindMatrices?: ArrayLike<number>;
  /** A name for messages. */
  readonly name?: string;
}

/**
 * Binds a mesh to a skeleton: palette entry `k` is `M[joints[k]] · inverseBind[k]` (docs/methods.md §1).
 */
export class Skin {
  /** The skeleton the joints belong to. */
  readonly skeleton: Skeleton;
  /** A name for messages (the glTF skin's name, when it has one). */
  readonly name: string;
  /** Skeleton joint index of each skin joint. */
  readonly joints: Int32Array;
  /** `16·k` inverse bind matrices. */
  readonly inverseBindMatrices: Float64Array;

  /**
   * @throws {@link TendonError} `skin/joint-out-of-range`, `skin/array-size` or `skin/not-finite`.
   */
  constructor(skeleton: Skeleton, definition: SkinDefinition) {
    checkSkeletonArg(skeleton, 'new Skin');
    checkObjectArg(definition, 'new Skin', 'the definition');
    const name = definition.name ?? 'skin';
    checkStringArg(name, 'new Skin', 'the name');
    checkArrayArg(definition.joints, `Skin "${name}"`, 'joints');
    if (definition.inverseBindMatrices !== undefined) {
      checkArrayArg(definition.inverseBindMatrices, `Skin "${name}"`, 'inverseBindMatrices');
    }
    const k = definition.joints.length;
    const joints = new Int32Array(k);
    for (let i = 0; i < k; i++) {
      const j = definition.joints[i];
      if (!Number.isInteger(j) || j < 0 || j >= skeleton.jointCount) {
        throw new TendonError(
          'skin/joint-out-of-range',
          `Skin "${name}": joint ${i} refers to skeleton joint ${j}, not in 0..${skeleton.jointCount - 1}`,
        );
      }
      joints[i] = j;
    }
    const ibm = new Float64Array(16 * k);
    if (definition.inverseBindMatrices === undefined) {
      for (let i = 0; i < k; i++) ibm[16 * i] = ibm[16 * i + 5] = ibm[16 * i + 10] = ibm[16 * i + 15] = 1;
    } else {
      if (definition.inverseBindMatrices.length !== 16 * k) {
        throw new TendonError(
          'skin/array-size',
          `Skin "${name}": ${definition.inverseBindMatrices.length} inverse bind numbers for ${k} joints; expected ${16 * k}`,
        );
      }
      for (let i = 0; i < 16 * k; i++) {
        const v = definition.inverseBindMatrices[i];
        if (!Number.isFinite(v)) {
          throw new TendonError(
            'skin/not-finite',
            `Skin "${name}": inverse bind matrix of joint "${skeleton.names[joints[i >> 4]]}" is not finite`,
          );
        }
        ibm[i] = v;
      }
    }
    this.skeleton = skeleton;
    this.name = name;
    this.joints = joints;
    this.inverseBindMatrices = ibm;
  }

  /** Number of skin joints (palette entries). */
  get jointCount(): number {
    return this.joints.length;
  }

  /** A palette buffer for this skin: `Float32Array(16·k)`, ready for a GPU upload. */
  createPalette(): Float32Array {
    return new Float32Array(16 * this.joints.length);
  }

  /**
   * Writes the skinning matrices for the model-space matrices `model` (from forward kinematics)
   * into `paletteOut`, column-major, 16 per joint: the layout of three.js's `boneMatrices` and of a
   * WebGL `mat4` array. Allocates nothing.
   *
   * @throws {@link TendonError} `skin/array-size` when a buffer has the wrong length.
   */
  computePalette(model: Float64Array, paletteOut: Float32Array | Float64Array): void {
    if (model?.length !== 16 * this.skeleton.jointCount || paletteOut?.length !== 16 * this.joints.length) {
      checkArrayArg(model, `Skin "${this.name}": computePalette`, 'the model buffer');
      checkArrayArg(paletteOut, `Skin "${this.name}": computePalette`, 'the palette');
      throw new TendonError(
        'skin/array-size',
        `Skin "${this.name}": computePalette needs a model buffer of ${16 * this.skeleton.jointCount} and a palette of ${16 * this.joints.length} numbers; got ${model.length} and ${paletteOut.length}`,
      );
    }
    skinPalette(paletteOut, model, this.joints, this.inverseBindMatrices);
  }
}

/** Vertex data of a skinned mesh, as {@link skinMesh} reads it. */
export interface SkinnedVertices {
  /** `3·v` bind-pose positions. */
  readonly positions: Float32Array | Float64Array;
  /** `3·v` bind-pose normals, when the mesh has them. */
  readonly normals?: Float32Array | Float64Array;
  /** `influences·v` palette indices. */
  readonly joints: JointIndexArray;
  /** `influences·v` finite weights ≥ 0 (renormalized per vertex while skinning). */
  readonly weights: Float32Array | Float64Array;
  /** Joint/weight pairs per vertex: 4 per glTF `JOINTS_n` set. */
  readonly influences: number;
}

/**
 * CPU linear-blend skinning of a whole mesh with a palette from {@link Skin.computePalette}:
 * positions into `positionsOut`, and normals into `normalsOut` when both the mesh and the call have
 * them. Weights that do not sum to 1 are renormalized per vertex.
 *
 * @throws {@link TendonError} `skin/array-size` when the arrays do not agree in length,
 *   `skin/not-finite` when a weight is not a finite number ≥ 0 (NaN, infinite or negative), or
 *   `skin/joint-out-of-range` when a vertex refers to a joint outside the palette. Nothing is
 *   written when it throws.
 */
export function skinMesh(
  mesh: SkinnedVertices,
  palette: Float32Array | Float64Array,
  positionsOut: Float32Array | Float64Array,
  normalsOut?: Float32Array | Float64Array,
): void {
  checkObjectArg(mesh, 'skinMesh', 'the mesh');
  checkArrayArg(mesh.positions, 'skinMesh', 'the mesh positions');
  checkArrayArg(mesh.joints, 'skinMesh', 'the mesh joints');
  checkArrayArg(mesh.weights, 'skinMesh', 'the mesh weights');
  if (mesh.normals !== undefined) checkArrayArg(mesh.normals, 'skinMesh', 'the mesh normals');
  checkArrayArg(palette, 'skinMesh', 'the palette');
  checkArrayArg(positionsOut, 'skinMesh', 'positionsOut');
  if (normalsOut !== undefined) checkArrayArg(normalsOut, 'skinMesh', 'normalsOut');
  const v = mesh.positions.length / 3;
  if (
    !Number.isInteger(v) ||
    positionsOut.length !== mesh.positions.length ||
    mesh.joints.length !== v * mesh.influences ||
    mesh.weights.length !== v * mesh.influences ||
    (normalsOut !== undefined && mesh.normals !== undefined && normalsOut.length !== mesh.normals.length) ||
    // The normals one per position (fewer were read past their end: NaN), the palette whole
    // matrices (20 numbers were 1.25 joints: NaN).
    (mesh.normals !== undefined && mesh.normals.length !== mesh.positions.length) ||
    palette.length % 16 !== 0
  ) {
    throw new TendonError(
      'skin/array-size',
      `skinMesh: ${mesh.positions.length} position numbers, ${mesh.normals?.length ?? 'no'} normal numbers, ${mesh.joints.length} joints and ${mesh.weights.length} weights do not describe ${v} vertices of ${mesh.influences} influences, or a palette of ${palette.length} numbers is not whole 4x4 matrices`,
    );
  }
  const paletteJoints = palette.length / 16;
  for (let i = 0; i < mesh.joints.length; i++) {
    // A NaN or infinite weight makes the whole vertex NaN through the renormalization, and a
    // negative one can cancel the others' sum to 0: neither is a blend, so refuse them here.
    const w = mesh.weights[i];
    if (!(w >= 0 && w < Number.POSITIVE_INFINITY)) {
      throw new TendonError(
        'skin/not-finite',
        `skinMesh: vertex ${Math.floor(i / mesh.influences)} has weight ${w} (influence ${i % mesh.influences}), not a finite number ≥ 0`,
      );
    }
    // A joint in the palette: a negative one (an Int32Array's -1) read before it, NaN.
    const j = mesh.joints[i];
    if (!(j >= 0 && j < paletteJoints && j === Math.floor(j)) && w !== 0) {
      throw new TendonError(
        'skin/joint-out-of-range',
        `skinMesh: vertex ${Math.floor(i / mesh.influences)} uses palette joint ${mesh.joints[i]} of ${paletteJoints}`,
      );
    }
  }
  skinVertices(positionsOut, mesh.positions, mesh.joints, mesh.weights, mesh.influences, palette, false);
  if (normalsOut !== undefined && mesh.normals !== undefined) {
    skinVertices(normalsOut, mesh.normals, mesh.joints, mesh.weights, mesh.influences, palette, true);
  }
}
