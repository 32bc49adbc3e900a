/**
 * A {@link Ground} over three.js meshes, queried through three-mesh-bvh's bounding volume
 * hierarchy.
 *
 * @packageDocumentation
 */
import {
  type Box3,
  type BufferAttribute,
  type BufferGeometry,
  type InterleavedBufferAttribute,
  Matrix4,
  type Mesh,
  type Object3D,
  Ray,
  Vector3,
} from 'three';
import { BVH, MeshBVH, type ShapecastCallbacks } from 'three-mesh-bvh';
import { TendonError } from '../errors.js';
import { type Ground, HIT, RAY } from '../placement/ground.js';

/** Options of {@link ThreeRaycastGround}. */
export interface ThreeRaycastGroundOptions {
  /**
   * Include meshes whose `visible` is `false` (default `true`: an invisible collision mesh is a
   * common ground).
   */
  readonly includeInvisible?: boolean;
}

type PositionAttribute = BufferAttribute | InterleavedBufferAttribute;

/**
 * Placement's {@link Ground} over the triangles of three.js meshes: the nearest triangle the ray
 * crosses, from either side, within the ray's length. Each mesh's geometry gets a three-mesh-bvh
 * `MeshBVH` (its own `geometry.boundsTree` when it has one, as `computeBoundsTree()` from
 * three-mesh-bvh leaves it; otherwise one built here and kept here), so a query visits a few
 * boxes and triangles, not the whole mesh.
 *
 * Meshes are read where they are now: their `matrixWorld` (kept current by three's
 * `updateMatrixWorld`, which the renderer runs) is read on every query, so moving platforms work.
 * Geometry edited after construction needs its tree refitted (`tree.refit()`, see {@link trees}).
 *
 * Every triangle counts, whatever the material's `side`, draw range or groups: the ground is the
 * geometry. Skinned meshes found under the given objects are skipped (a character is not ground).
 * A query allocates nothing: it walks the trees with three-mesh-bvh's base `shapecast` and tests
 * triangles with reused vectors, where three's `Raycaster` and `MeshBVH.raycastFirst` create an
 * intersection object per hit.
 */
export class ThreeRaycastGround implements Ground {
  /** The meshes queried (found under the objects given to the constructor). */
  readonly meshes: readonly Mesh[];
  /** The bounding volume hierarchy of each mesh's geometry, by index in {@link meshes}. */
  readonly trees: readonly MeshBVH[];
  private readonly resolve: ((i: number) => number)[];
  private readonly inverse = new Matrix4();
  private readonly localRay = new Ray();
  private readonly tmp = new Vector3();
  private readonly a = new Vector3();
  private readonly b = new Vector3();
  private readonly c = new Vector3();
  private readonly tmpA = new Vector3();
  private readonly tmpB = new Vector3();
  private readonly tmpC = new Vector3();
  private readonly bestA = new Vector3();
  private readonly bestB = new Vector3();
  private readonly bestC = new Vector3();
  /** Nearest local ray parameter found in the current mesh (starts at the local far limit). */
  private localBest = 0;
  private localFound = false;
  private geometry: BufferGeometry | null = null;
  private position: PositionAttribute | null = null;
  private resolveCurrent: (i: number) => number = identityIndex;
  private readonly callbacks: ShapecastCallbacks;

  /**
   * @param objects - meshes, or objects to search for meshes (depth first, `Mesh` but not
   *   `SkinnedMesh`).
   * @param options - see {@link ThreeRaycastGroundOptions}.
   * @throws {@link TendonError} `three/invalid-ground` when a mesh's geometry has no `position`.
   */
  constructor(objects: readonly Object3D[], options: ThreeRaycastGroundOptions = {}) {
    const includeInvisible = options.includeInvisible !== false;
    const meshes: Mesh[] = [];
    for (const object of objects) {
      object.traverse((o) => {
        const m = o as Mesh & { isSkinnedMesh?: boolean };
        if (m.isMesh !== true || m.isSkinnedMesh === true) return;
        if (!includeInvisible && !m.visible) return;
        if (!meshes.includes(m)) meshes.push(m);
      });
    }
    const trees: MeshBVH[] = [];
    for (const mesh of meshes) {
      const geometry = mesh.geometry;
      if (geometry.getAttribute('position') === undefined) {
        throw new TendonError(
          'three/invalid-ground',
          `ThreeRaycastGround: mesh "${mesh.name || mesh.type}" has no position attribute`,
        );
      }
      const own = (geometry as { boundsTree?: unknown }).boundsTree;
      trees.push(own instanceof MeshBVH ? own : new MeshBVH(geometry));
    }
    this.meshes = Object.freeze(meshes);
    this.trees = Object.freeze(trees);
    this.resolve = trees.map((tree) => tree.resolveTriangleIndex);
    this.callbacks = {
      boundsTraverseOrder: (box: Box3) => this.boxDistance(box),
      intersectsBounds: (box: Box3, _isLeaf: boolean, score: number | undefined) =>
        (score === undefined ? this.boxDistance(box) : score) <= this.localBest,
      intersectsRange: (offset: number, count: number) => this.intersectRange(offset, count),
    };
  }

  /** {@inheritDoc Ground.raycast} */
  raycast(ray: Float64Array, hit: Float64Array): boolean {
    const ox = ray[RAY.origin];
    const oy = ray[RAY.origin + 1];
    const oz = ray[RAY.origin + 2];
    const dx = ray[RAY.direction];
    const dy = ray[RAY.direction + 1];
    const dz = ray[RAY.direction + 2];
    let best = ray[RAY.maxDistance];
    let bestMesh = -1;
    const local = this.localRay;
    for (let m = 0; m < this.meshes.length; m++) {
      const mesh = this.meshes[m];
      const e = this.inverse.copy(mesh.matrixWorld).invert().elements;
      // The local direction's length k converts distances: local t = k · world t along this ray.
      const lx = e[0] * dx + e[4] * dy + e[8] * dz;
      const ly = e[1] * dx + e[5] * dy + e[9] * dz;
      const lz = e[2] * dx + e[6] * dy + e[10] * dz;
      const k = Math.sqrt(lx * lx + ly * ly + lz * lz);
      if (!(k > 0) || !Number.isFinite(k)) continue;
      local.origin.set(
        e[0] * ox + e[4] * oy + e[8] * oz + e[12],
        e[1] * ox + e[5] * oy + e[9] * oz + e[13],
        e[2] * ox + e[6] * oy + e[10] * oz + e[14],
      );
      local.direction.set(lx / k, ly / k, lz / k);
      this.localBest = best * k;
      this.localFound = false;
      this.geometry = mesh.geometry;
      this.position = mesh.geometry.getAttribute('position');
      this.resolveCurrent = this.resolve[m];
      // The base class's shapecast takes the callbacks as they are; MeshBVH's own wraps them in a
      // new object on every call.
      BVH.prototype.shapecast.call(this.trees[m], this.callbacks);
      if (this.localFound) {
        best = this.localBest / k;
        bestMesh = m;
        const w = mesh.matrixWorld;
        this.bestA.copy(this.a).applyMatrix4(w);
        this.bestB.copy(this.b).applyMatrix4(w);
        this.bestC.copy(this.c).applyMatrix4(w);
      }
    }
    this.geometry = null;
    this.position = null;
    if (bestMesh < 0) return false;
    const a = this.bestA;
    const ab = this.bestB.sub(a);
    const ac = this.bestC.sub(a);
    const n = ab.cross(ac);
    const length = n.length();
    if (!(length > 0)) return false;
    // The face the ray arrives at: the normal points back toward the ray's origin.
    const sign = n.x * dx + n.y * dy + n.z * dz > 0 ? -1 / length : 1 / length;
    hit[HIT.point] = ox + dx * best;
    hit[HIT.point + 1] = oy + dy * best;
    hit[HIT.point + 2] = oz + dz * best;
    hit[HIT.normal] = n.x * sign;
    hit[HIT.normal + 1] = n.y * sign;
    hit[HIT.normal + 2] = n.z * sign;
    hit[HIT.distance] = best;
    return true;
  }

  /** Distance along the local ray to `box` (0 from inside), or +∞ when the ray misses it. */
  private boxDistance(box: Box3): number {
    const p = this.localRay.intersectBox(box, this.tmp);
    return p === null ? Number.POSITIVE_INFINITY : this.localRay.origin.distanceTo(p);
  }

  /** Tests the triangles `offset … offset + count − 1` of the tree; keeps the nearest. */
  private intersectRange(offset: number, count: number): boolean {
    const geometry = this.geometry!;
    const position = this.position!;
    const index = geometry.index;
    const ray = this.localRay;
    const a = this.tmpA;
    const b = this.tmpB;
    const c = this.tmpC;
    for (let i = offset, end = offset + count; i < end; i++) {
      const triangle = this.resolveCurrent(i);
      let ia = 3 * triangle;
      let ib = ia + 1;
      let ic = ia + 2;
      if (index !== null) {
        ia = index.getX(ia);
        ib = index.getX(ib);
        ic = index.getX(ic);
      }
      a.fromBufferAttribute(position, ia);
      b.fromBufferAttribute(position, ib);
      c.fromBufferAttribute(position, ic);
      const p = ray.intersectTriangle(a, b, c, false, this.tmp);
      if (p === null) continue;
      const t = ray.origin.distanceTo(p);
      if (t <= this.localBest) {
        this.localBest = t;
        this.localFound = true;
        this.a.copy(a);
        this.b.copy(b);
        this.c.copy(c);
      }
    }
    // Never stop early: a nearer triangle may lie in a box visited later.
    return false;
  }
}

function identityIndex(i: number): number {
  return i;
}
