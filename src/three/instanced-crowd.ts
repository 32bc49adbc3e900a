/**
 * A crowd drawn by three.js with one draw call per mesh of the character, whatever the number of
 * characters: each mesh becomes an `InstancedMesh`, a rigid part placed per character from the
 * crowd's model matrices, a skinned part skinned per instance on the GPU from the crowd's 3×4
 * palettes in a float texture.
 *
 * @packageDocumentation
 */
import {
  type BufferGeometry,
  DataTexture,
  DynamicDrawUsage,
  FloatType,
  Group,
  InstancedMesh,
  type Material,
  Matrix4,
  type Mesh,
  NearestFilter,
  type Object3D,
  RGBAFormat,
  type SkinnedMesh,
  type WebGLProgramParametersWithUniforms,
  type WebGLRenderer,
} from 'three';
import { optionsArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import { multiplyAffine } from '../kernel/mat4.js';
import { PALETTE_3X4 } from '../kernel/skin-palette.js';
import type { Crowd } from '../pose/crowd.js';
import type { Skin } from '../skin/skin.js';
import { samePalette, ThreeSkeletonBinding } from './binding.js';

/** Options of {@link ThreeInstancedCrowd}. */
export interface ThreeInstancedCrowdOptions {
  /**
   * The most characters drawn, 1 to 16,384: the size of every instanced mesh and the height of the
   * palette textures (a row of texels per character, so at most the GPU's texture size: 16,384 on
   * most GPUs, WebGL 2 promises 2,048).
   */
  readonly capacity: number;
}

/**
 * The most characters a crowd takes: the palette textures have a row a character, and 16,384 is
 * the texture size of most GPUs (WebGL 2 promises only 2,048).
 */
const MAX_CAPACITY = 16384;

/** A rigid mesh of the character: the joint it hangs from and its offset from that joint. */
interface RigidPart {
  readonly mesh: InstancedMesh;
  /** Whether its geometry is its own (a copy without morph targets) rather than the source's. */
  readonly ownGeometry: boolean;
  /** The joint it hangs from, or −1 for a mesh hanging from the root itself. */
  readonly joint: number;
  /** Its model matrix at rest relative to its joint's (16, column-major). */
  readonly offset: Float64Array;
}

// The per-vertex skinning, from the palette texture: three's skinning chunks replaced. Each
// character's palette is one row of texels, three texels (the 3×4 rows) a joint.
const PARS = /* glsl */ `
uniform highp sampler2D tendonPalette;
attribute vec4 skinIndex;
attribute vec4 skinWeight;
mat4 tendonJoint(float joint) {
  int x = 3 * int(joint);
  vec4 r0 = texelFetch(tendonPalette, ivec2(x, gl_InstanceID), 0);
  vec4 r1 = texelFetch(tendonPalette, ivec2(x + 1, gl_InstanceID), 0);
  vec4 r2 = texelFetch(tendonPalette, ivec2(x + 2, gl_InstanceID), 0);
  return mat4(r0.x, r1.x, r2.x, 0.0, r0.y, r1.y, r2.y, 0.0, r0.z, r1.z, r2.z, 0.0, r0.w, r1.w, r2.w, 1.0);
}
mat4 tendonSkin() {
  return skinWeight.x * tendonJoint(skinIndex.x) + skinWeight.y * tendonJoint(skinIndex.y)
    + skinWeight.z * tendonJoint(skinIndex.z) + skinWeight.w * tendonJoint(skinIndex.w);
}
`;
const NORMAL = /* glsl */ `
mat3 tendonSkinTurn = mat3(tendonSkin());
objectNormal = tendonSkinTurn * objectNormal;
#ifdef USE_TANGENT
objectTangent = tendonSkinTurn * objectTangent;
#endif
`;
const POSITION = /* glsl */ `
transformed = (tendonSkin() * vec4(transformed, 1.0)).xyz;
`;

/**
 * A crowd of one character (a {@link ThreeSkeletonBinding} of it, such as `gltf.scene` bound with
 * `importGltf`'s skeleton) drawn with one `InstancedMesh` per mesh: add {@link group} to the scene.
 * Each frame, after the crowd is posed (sampled, forward kinematics, IK):
 * {@link writePalettes} writes every character's 3×4 skinning palettes into the textures the
 * skinned meshes read ({@link index!Crowd.skinPalettes}), and {@link update} places every instance:
 * character `c` stands at `worlds[16c …]` (model to world, column-major), a rigid mesh at its joint's
 * model matrix times its offset at rest, a skinned mesh skinned by the GPU from row `c` of the
 * palette texture. Three's own bone work is not used; the bound objects are only read, at
 * construction.
 *
 * Skinned meshes must be in three's attached bind mode (GLTFLoader's) with three's built-in mesh
 * materials; those are cloned and their skinning chunks replaced (`onBeforeCompile`, after the
 * material's own). A scene's `overrideMaterial` replaces the clones and draws the skinned meshes
 * unskinned; the skinned parts cast no shadow (no depth material reads the palettes); morph targets
 * are dropped; a skinned mesh's normals take the inverse transpose of its bind matrix where three
 * takes the matrix itself (the same for bind matrices without non-uniform scale). A mesh with
 * several materials draws once per material group. The palette textures upload whole, `capacity`
 * rows, whenever {@link writePalettes} runs: keep `capacity` near the largest crowd drawn. The
 * per-frame methods allocate nothing while the crowd fills the capacity; with fewer characters,
 * each mesh's upload range (three's `updateRanges`, which three empties after each upload) costs
 * a small array a frame.
 */
export class ThreeInstancedCrowd {
  /** Every instanced mesh: add it to the scene. */
  readonly group = new Group();
  /** The most characters drawn. */
  readonly capacity: number;
  /** The skins whose palettes the skinned meshes read: one palette texture each. */
  readonly skins: readonly Skin[];
  /**
   * Each skin's 3×4 palettes of {@link capacity} characters (the texture's data): character `c`'s
   * joint `k` at `12 · (c · joints + k)`. {@link writePalettes} fills them.
   */
  readonly palettes: readonly Float32Array[];
  /** The palette textures, one per skin. */
  readonly textures: readonly DataTexture[];
  /** The instanced meshes of the skinned parts and, for each, the skin it reads. */
  private readonly skinned: readonly { mesh: InstancedMesh; skin: number }[];
  private readonly rigid: readonly RigidPart[];
  private readonly binding: ThreeSkeletonBinding;
  /** Views of {@link palettes} sized for the crowd's count, remade when the count changes. */
  private views: Float32Array[] = [];
  private viewCount = -1;
  private readonly scratch = new Float64Array(32);
  /** Each mesh's one update range of its instance matrices, reused every frame. */
  private readonly ranges = new Map<InstancedMesh, { start: number; count: number }>();

  /**
   * @param binding - the character bound to tendon ({@link bindThreeSkeleton}); its root's
   *   subtree is read as it is now (at rest).
   * @param options - the capacity.
   * @throws {@link index!TendonError} `argument/invalid` for a binding that is not one or a
   *   capacity that is not an integer from 1 to 16,384,
   *   `three/invalid-root` for a binding without a root object, `three/unsupported-mesh` for a
   *   skinned mesh in detached bind mode, on a skeleton the binding does not hold, or with a
   *   material other than three's built-in mesh materials.
   */
  constructor(binding: ThreeSkeletonBinding, options: ThreeInstancedCrowdOptions) {
    if (!(binding instanceof ThreeSkeletonBinding)) {
      throw new TendonError(
        'argument/invalid',
        `ThreeInstancedCrowd: the binding is ${String(binding)}, not a ThreeSkeletonBinding (bindThreeSkeleton's)`,
      );
    }
    const { capacity } = optionsArg(options, 'ThreeInstancedCrowd');
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > MAX_CAPACITY) {
      throw new TendonError(
        'argument/invalid',
        `ThreeInstancedCrowd: capacity ${String(capacity)} is not an integer from 1 to ${MAX_CAPACITY} (a palette texture row per character)`,
      );
    }
    const root = binding.root;
    if (root === null) {
      throw new TendonError(
        'three/invalid-root',
        'ThreeInstancedCrowd: the binding has no root object (bound with root: null); bind the character under one',
      );
    }
    this.binding = binding;
    this.capacity = capacity;
    root.updateMatrixWorld(true);
    const rootInverse = root.matrixWorld.clone().invert();
    const modelOf = (o: Object3D) => new Matrix4().multiplyMatrices(rootInverse, o.matrixWorld);
    const jointOf = new Map<Object3D, number>();
    binding.objects.forEach((o, j) => {
      jointOf.set(o, j);
    });
    const skins: Skin[] = [];
    const palettes: Float32Array[] = [];
    const textures: DataTexture[] = [];
    const skinned: { mesh: InstancedMesh; skin: number }[] = [];
    const rigid: RigidPart[] = [];
    const meshes: Mesh[] = [];
    root.traverse((o) => {
      if ((o as Mesh).isMesh === true) meshes.push(o as Mesh);
    });
    for (const source of meshes) {
      if ((source as SkinnedMesh).isSkinnedMesh === true) {
        const mesh = source as SkinnedMesh;
        if (mesh.bindMode !== 'attached') {
          throw new TendonError(
            'three/unsupported-mesh',
            `ThreeInstancedCrowd: skinned mesh "${mesh.name}" is in ${mesh.bindMode} bind mode; only attached (GLTFLoader's) is drawn`,
          );
        }
        const k = binding.threeSkeletons.indexOf(mesh.skeleton);
        if (k < 0) {
          throw new TendonError(
            'three/unsupported-mesh',
            `ThreeInstancedCrowd: skinned mesh "${mesh.name}" uses a skeleton the binding does not hold`,
          );
        }
        const skin = binding.skins[k];
        let s = skins.findIndex((other) => samePalette(other, skin));
        if (s < 0) {
          s = skins.length;
          skins.push(skin);
          const data = new Float32Array(PALETTE_3X4 * skin.joints.length * capacity);
          const texture = new DataTexture(data, 3 * skin.joints.length, capacity, RGBAFormat, FloatType);
          texture.magFilter = NearestFilter;
          texture.minFilter = NearestFilter;
          texture.generateMipmaps = false;
          texture.needsUpdate = true;
          palettes.push(data);
          textures.push(texture);
        }
        // In attached mode three draws Σ wᵢ · boneWorldᵢ · boneInverseᵢ · bindMatrix · v: with the
        // character at `world`, world · Σ wᵢ · paletteᵢ · (bindMatrix · v). The bind matrix goes
        // into the vertices, the world into the instance matrix.
        const geometry = withoutMorphs(mesh.geometry.clone());
        geometry.applyMatrix4(mesh.bindMatrix);
        const instanced = new InstancedMesh(geometry, skinnedMaterials(mesh, textures[s]), capacity);
        copyLook(instanced, mesh);
        // No depth material reads the palettes: its shadow would be the bind pose's.
        instanced.castShadow = false;
        skinned.push({ mesh: instanced, skin: s });
      } else {
        let joint = -1;
        // The mesh itself may be a joint (an ancestor of bones): then its offset is the identity.
        for (let o: Object3D | null = source; o !== null && o !== root; o = o.parent) {
          const j = jointOf.get(o);
          if (j !== undefined) {
            joint = j;
            break;
          }
        }
        const offset = modelOf(source);
        if (joint >= 0) offset.premultiply(modelOf(binding.objects[joint]).invert());
        // The source's geometry is shared unless it has morph targets, which the instances drop.
        const ownGeometry = Object.keys(source.geometry.morphAttributes).length > 0;
        const geometry = ownGeometry ? withoutMorphs(source.geometry.clone()) : source.geometry;
        const instanced = new InstancedMesh(geometry, source.material, capacity);
        copyLook(instanced, source);
        rigid.push({ mesh: instanced, ownGeometry, joint, offset: Float64Array.from(offset.elements) });
      }
    }
    for (const part of [...rigid.map((r) => r.mesh), ...skinned.map((s) => s.mesh)]) {
      part.count = 0;
      part.instanceMatrix.setUsage(DynamicDrawUsage);
      this.ranges.set(part, { start: 0, count: 0 });
      // Instances move every frame: a bounding sphere computed once would cull them wrongly.
      part.frustumCulled = false;
      this.group.add(part);
    }
    this.skins = Object.freeze(skins);
    this.palettes = Object.freeze(palettes);
    this.textures = Object.freeze(textures);
    this.skinned = Object.freeze(skinned);
    this.rigid = Object.freeze(rigid);
  }

  /**
   * Writes the 3×4 palettes of the crowd's characters (its current model matrices) into
   * {@link palettes}, for the skinned meshes.
   *
   * @throws {@link index!TendonError} `argument/invalid` for a crowd larger than the capacity,
   *   `pose/skeleton-mismatch` for a crowd of another skeleton, `three/disposed` after
   *   {@link dispose}.
   */
  writePalettes(crowd: Crowd): void {
    this.checkCrowd(crowd, 'writePalettes');
    if (this.viewCount !== crowd.count) this.makeViews(crowd.count);
    for (let s = 0; s < this.skins.length; s++) {
      crowd.skinPalettes(this.skins[s], this.views[s], '3x4');
      this.textures[s].needsUpdate = true;
    }
  }

  /**
   * Places the instances of the crowd's `crowd.count` characters, character `c` at
   * `worlds[16c …]` (its model-to-world matrix); the rest are not drawn. Call after
   * {@link writePalettes} (the skinned meshes read the palettes it wrote).
   *
   * @throws {@link index!TendonError} as {@link writePalettes}, `pose/buffer-size` when
   *   `worlds` holds fewer than 16 numbers per character, and `pose/not-finite` for a NaN or an
   *   infinity in a character's world matrix (nothing written).
   */
  update(crowd: Crowd, worlds: Float64Array): void {
    this.checkCrowd(crowd, 'update');
    const n = crowd.count;
    if (!(worlds instanceof Float64Array) || worlds.length < 16 * n) {
      throw new TendonError(
        'pose/buffer-size',
        `ThreeInstancedCrowd.update: worlds holds ${worlds?.length} numbers, ${16 * n} needed (16 per character)`,
      );
    }
    // Before any instance is written: a NaN would go to the GPU as a NaN matrix (the instance
    // gone, or its triangles everywhere). `v - v` is 0 for every finite number only, and allocates
    // nothing, every frame.
    for (let i = 0; i < 16 * n; i++) {
      const v = worlds[i];
      if (v - v !== 0) {
        const c = Math.floor(i / 16);
        throw new TendonError(
          'pose/not-finite',
          `ThreeInstancedCrowd.update: character ${c}'s world matrix has ${v} at ${i - 16 * c} (worlds[${i}])`,
        );
      }
    }
    const J = this.binding.skeleton.jointCount;
    const model = crowd.model;
    const m = this.scratch;
    // Index loops: iterating the frozen arrays with for…of allocated its iterator's results.
    for (let k = 0; k < this.rigid.length; k++) {
      const part = this.rigid[k];
      const out = part.mesh.instanceMatrix.array as Float32Array;
      for (let c = 0; c < n; c++) {
        if (part.joint >= 0) {
          multiplyAffine(m, 0, worlds, 16 * c, model, 16 * (c * J + part.joint));
          multiplyAffine(m, 16, m, 0, part.offset, 0);
        } else {
          multiplyAffine(m, 16, worlds, 16 * c, part.offset, 0);
        }
        for (let i = 0; i < 16; i++) out[16 * c + i] = m[16 + i];
      }
      this.drawn(part.mesh, n);
    }
    for (let k = 0; k < this.skinned.length; k++) {
      const part = this.skinned[k];
      const out = part.mesh.instanceMatrix.array as Float32Array;
      for (let i = 0; i < 16 * n; i++) out[i] = worlds[i];
      this.drawn(part.mesh, n);
    }
  }

  /**
   * Frees what the crowd made: the skinned parts' geometries and materials, the rigid parts' copies
   * of geometries with morph targets, the textures (the rest is the source's, shared). A second call
   * does nothing; {@link writePalettes} and {@link update} then throw `three/disposed`.
   */
  dispose(): void {
    // Once: a second call has nothing left to free.
    if (this.disposed) return;
    this.disposed = true;
    for (const part of this.rigid) {
      if (part.ownGeometry) part.mesh.geometry.dispose();
      part.mesh.dispose();
    }
    for (const part of this.skinned) {
      part.mesh.geometry.dispose();
      for (const material of materialList(part.mesh.material)) material.dispose();
      part.mesh.dispose();
    }
    for (const texture of this.textures) texture.dispose();
  }

  /**
   * Views of the palettes sized for `count` characters (a method of its own: a closure over
   * `writePalettes`' argument would make V8 allocate its context on every call).
   */
  private makeViews(count: number): void {
    this.views = this.skins.map((skin, s) =>
      this.palettes[s].subarray(0, PALETTE_3X4 * skin.joints.length * count),
    );
    this.viewCount = count;
  }

  private drawn(mesh: InstancedMesh, n: number): void {
    mesh.count = n;
    // Nothing to upload (an empty range would upload the whole buffer).
    if (n === 0) return;
    const ranges = mesh.instanceMatrix.updateRanges;
    if (n < this.capacity) {
      // Only the drawn instances are uploaded. Three empties the list after each upload (which
      // frees its backing store), so the push allocates a few hundred bytes: the price of not
      // uploading `capacity` matrices. The range object itself is reused.
      const range = this.ranges.get(mesh) as { start: number; count: number };
      range.start = 0;
      range.count = 16 * n;
      if (ranges.length !== 0) ranges.length = 0;
      ranges.push(range);
    } else if (ranges.length !== 0) {
      ranges.length = 0;
    }
    mesh.instanceMatrix.needsUpdate = true;
  }

  /** Whether {@link dispose} ran. */
  private disposed = false;

  private checkCrowd(crowd: Crowd, method: string): void {
    if (this.disposed) {
      // Its geometries, materials and textures are freed: three would upload them again, unseen.
      throw new TendonError('three/disposed', `ThreeInstancedCrowd.${method}: the crowd was disposed`);
    }
    if (crowd?.skeleton !== this.binding.skeleton) {
      throw new TendonError(
        'pose/skeleton-mismatch',
        `ThreeInstancedCrowd.${method}: the crowd is not of the binding's skeleton`,
      );
    }
    if (crowd.count > this.capacity) {
      throw new TendonError(
        'argument/invalid',
        `ThreeInstancedCrowd.${method}: the crowd has ${crowd.count} characters, the capacity is ${this.capacity}`,
      );
    }
  }
}

function withoutMorphs(geometry: BufferGeometry): BufferGeometry {
  geometry.morphAttributes = {};
  geometry.morphTargetsRelative = false;
  return geometry;
}

function materialList(material: Material | Material[]): Material[] {
  return Array.isArray(material) ? material : [material];
}

/** The built-in materials whose vertex shaders include three's skinning chunks, which the patch replaces. */
const SKINNABLE = new Set([
  'MeshBasicMaterial',
  'MeshLambertMaterial',
  'MeshPhongMaterial',
  'MeshStandardMaterial',
  'MeshPhysicalMaterial',
  'MeshToonMaterial',
  'MeshMatcapMaterial',
  'MeshNormalMaterial',
  'MeshDepthMaterial',
  'MeshDistanceMaterial',
]);

/** The instance's name, visibility, shadows, render order and layers: the source's. */
function copyLook(instanced: InstancedMesh, source: Mesh): void {
  instanced.name = source.name;
  instanced.visible = source.visible;
  instanced.castShadow = source.castShadow;
  instanced.receiveShadow = source.receiveShadow;
  instanced.renderOrder = source.renderOrder;
  instanced.layers.mask = source.layers.mask;
}

/**
 * Clones of a skinned mesh's materials that skin each instance from `palette`: three's skinning
 * chunks replaced, after the material's own `onBeforeCompile` (its cache key kept, extended).
 */
function skinnedMaterials(mesh: SkinnedMesh, palette: DataTexture): Material | Material[] {
  const patched = materialList(mesh.material).map((source) => {
    if (!SKINNABLE.has(source.type)) {
      throw new TendonError(
        'three/unsupported-mesh',
        `ThreeInstancedCrowd: skinned mesh "${mesh.name}" has a ${source.type}; only three's built-in mesh materials (${[...SKINNABLE].join(', ')}) can be patched to skin instances`,
      );
    }
    const clone = source.clone();
    const own = source.onBeforeCompile;
    clone.onBeforeCompile = (shader: WebGLProgramParametersWithUniforms, renderer: WebGLRenderer) => {
      own.call(clone, shader, renderer);
      shader.uniforms.tendonPalette = { value: palette };
      shader.vertexShader = shader.vertexShader
        .replace('#include <skinning_pars_vertex>', PARS)
        .replace('#include <skinnormal_vertex>', NORMAL)
        .replace('#include <skinning_vertex>', POSITION);
    };
    clone.customProgramCacheKey = () => `${source.customProgramCacheKey()}|tendon-instanced-skinning`;
    return clone;
  });
  return Array.isArray(mesh.material) ? patched : patched[0];
}
