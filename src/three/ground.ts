/**
 * A {@link Ground} over three.js meshes, queried through three-mesh-bvh's bounding volume
 * hierarchy.
 *
 * @packageDocumentation
 */
import {
  type BufferAttribute,
  BufferGeometry,
  type InterleavedBufferAttribute,
  Matrix4,
  type Mesh,
  type Object3D,
} from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import { checkArrayArg, optionsArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import { checkRaycastArgs, type Ground, HIT, RAY } from '../placement/ground.js';
import { EDGE, triangleHasArea } from '../placement/mesh-ground.js';

/** Options of {@link ThreeRaycastGround}. */
export interface ThreeRaycastGroundOptions {
  /**
   * Include meshes whose `visible` is `false` (default `true`: an invisible collision mesh is a
   * common ground).
   */
  readonly includeInvisible?: boolean;
}

/** One root of a three-mesh-bvh tree, as typed views over its node buffer, made once. */
interface TreeRoot {
  readonly f32: Float32Array;
  readonly u16: Uint16Array;
  readonly u32: Uint32Array;
}

/** A mesh's tree as this ground walks it. */
interface MeshTree {
  readonly roots: readonly TreeRoot[];
  /** Tree order → triangle, for an `indirect` tree; `null` when the tree reordered the index. */
  readonly indirect: Uint32Array | Uint16Array | null;
}

/**
 * Node layout of three-mesh-bvh 0.9's serialized roots: 8 uint32 per node, bounds as 6 float32
 * (min xyz, max xyz); a leaf has 0xFFFF in uint16 15, its triangle count in uint16 14 and first
 * triangle in uint32 6; an inner node's left child follows it and uint32 6 holds its right child's
 * offset from it, in nodes. The constructor checks every tree against it.
 */
const UINT32_PER_NODE = 8;
const LEAF_FLAG = 0xffff;

/** Slots of the per-query scratch array (numbers live in typed arrays: no boxing, no garbage). */
const S = { ox: 0, oy: 1, oz: 2, dx: 3, dy: 4, dz: 5, ix: 6, iy: 7, iz: 8, best: 9, t: 10 } as const;

/** Throws for a mesh whose geometry, positions or index are not those its tree was built over. */
function refuseReplaced(mesh: Mesh): never {
  throw new TendonError(
    'three/invalid-ground',
    `ThreeRaycastGround: mesh "${mesh.name || mesh.type}" has another geometry, position attribute or index than the ground's tree was built over: make a new ThreeRaycastGround (a geometry edited in place needs only trees[i].refit())`,
  );
}

/**
 * Placement's {@link Ground} over the triangles of three.js meshes: the nearest triangle the ray
 * crosses, from either side, within the ray's length; the normal is the triangle's, in world
 * space, on the side the ray came from.
 *
 * Each mesh's geometry gets a three-mesh-bvh `MeshBVH` (its own `geometry.boundsTree` when it has
 * one, as `computeBoundsTree()` leaves it; otherwise one built here and kept here), so a query
 * visits a few boxes and triangles, not the whole mesh. The query walks the tree's node buffer
 * itself, nearest box first, with typed-array scratch: it allocates nothing, where three's
 * `Raycaster` (with or without three-mesh-bvh's `acceleratedRaycast`) creates intersection objects
 * and typed-array views on every cast. The tree layout read is three-mesh-bvh 0.9's; the
 * constructor verifies it and throws if a different version lays trees out otherwise.
 *
 * Meshes are read where they are now: each query reads their `matrixWorld` (kept current by three's
 * `updateMatrixWorld`, which the renderer runs), so moving platforms work; before the first render
 * (or in Node), call `scene.updateMatrixWorld()` first, or a mesh's matrix is the identity. Geometry
 * edited in place after construction needs its tree refitted (`tree.refit()`, see
 * {@link ThreeRaycastGround.trees}); a mesh given another geometry (or position attribute or index)
 * needs a new ground, and a query refuses it (`three/invalid-ground`). three-mesh-bvh orders the
 * index of a geometry it builds a tree for (it adds one to a geometry without).
 * Every triangle counts, whatever the material's `side`, draw range or groups: the ground is the
 * geometry. Skinned meshes found under the given objects are skipped (a character is not ground),
 * and so are instanced and batched meshes (give each instance as a `Mesh` to stand on it).
 */
export class ThreeRaycastGround implements Ground {
  /** The meshes queried (found under the objects given to the constructor). */
  readonly meshes: readonly Mesh[];
  /** The bounding volume hierarchy of each mesh's geometry, by index in {@link meshes}. */
  readonly trees: readonly MeshBVH[];
  private readonly walk: readonly MeshTree[];
  /**
   * Each mesh's geometry, position attribute and index as its tree was built over: a mesh given
   * another geometry (a level of detail, a streamed tile) was walked with the old tree over the new
   * arrays, answering misses where the new geometry stood.
   */
  private readonly built: readonly { geometry: unknown; position: unknown; index: unknown }[];
  private readonly inverse = new Matrix4();
  private readonly scratch = new Float64Array(11);
  /** The nearest triangle of the current mesh (local space), then of all meshes (world space). */
  private readonly triangle = new Float64Array(9);
  /**
   * The nearest triangle in world space, three points. (Not three.js vectors: stores of doubles
   * into their fields allocated 47 bytes a ray.)
   */
  private readonly world = new Float64Array(9);
  private readonly stackNodes: Int32Array;
  private readonly stackEntry: Float64Array;

  /**
   * @param objects - meshes, or objects to search for meshes (depth first; `Mesh`, but not
   *   `SkinnedMesh`, `InstancedMesh` or `BatchedMesh`, which are skipped).
   * @param options - see {@link ThreeRaycastGroundOptions}.
   * @throws {@link index!TendonError} `three/invalid-ground` when no mesh is found under the objects
   *   (a ground that could never answer), a mesh's geometry has no `position` of three floats per
   *   vertex or no triangle, or its tree is not laid out as three-mesh-bvh 0.9 lays it out.
   */
  constructor(objects: readonly Object3D[], options: ThreeRaycastGroundOptions = {}) {
    checkArrayArg(objects, 'new ThreeRaycastGround', 'the objects');
    options = optionsArg(options, 'new ThreeRaycastGround');
    objects.forEach((object, i) => {
      if ((object as { isObject3D?: boolean } | null)?.isObject3D !== true) {
        throw new TendonError('argument/invalid', `new ThreeRaycastGround: objects[${i}] is not an Object3D`);
      }
    });
    const includeInvisible = options.includeInvisible !== false;
    const meshes: Mesh[] = [];
    for (const object of objects) {
      object.traverse((o) => {
        const m = o as Mesh & { isSkinnedMesh?: boolean; isInstancedMesh?: boolean; isBatchedMesh?: boolean };
        if (m.isMesh !== true || m.isSkinnedMesh === true) return;
        // Their triangles are placed per instance, which one tree in one frame cannot answer.
        if (m.isInstancedMesh === true || m.isBatchedMesh === true) return;
        if (!includeInvisible && !m.visible) return;
        if (!meshes.includes(m)) meshes.push(m);
      });
    }
    if (meshes.length === 0) {
      throw new TendonError(
        'three/invalid-ground',
        `ThreeRaycastGround: no Mesh under the ${objects.length} object(s) given (skinned, instanced and batched meshes are skipped${includeInvisible ? '' : ', and invisible ones'}): a ground that could never answer`,
      );
    }
    const trees: MeshBVH[] = [];
    const walk: MeshTree[] = [];
    const built: { geometry: unknown; position: unknown; index: unknown }[] = [];
    let depth = 1;
    for (const mesh of meshes) {
      const name = mesh.name || mesh.type;
      const position = mesh.geometry.getAttribute('position') as
        | BufferAttribute
        | InterleavedBufferAttribute
        | undefined;
      if (position === undefined || position.itemSize !== 3 || position.normalized) {
        throw new TendonError(
          'three/invalid-ground',
          `ThreeRaycastGround: mesh "${name}" needs a position attribute of 3 floats per vertex`,
        );
      }
      const geometry = mesh.geometry;
      const own = (geometry as { boundsTree?: unknown }).boundsTree;
      const elements = geometry.index !== null ? geometry.index.count : position.count;
      if (elements < 3) {
        throw new TendonError(
          'three/invalid-ground',
          `ThreeRaycastGround: mesh "${name}" has no triangle (${elements} ${geometry.index !== null ? 'indices' : 'vertices'})`,
        );
      }
      // A tree holds the triangles drawn, by groups and draw range: a geometry that draws fewer
      // gets its tree over a stand-in of the same attributes with neither, `indirect` so that the
      // shared index keeps its order (the triangles past a draw range or outside the groups were
      // no ground, and an empty draw range threw as a tree of another version).
      const drawsAll =
        geometry.groups.length === 0 &&
        geometry.drawRange.start === 0 &&
        geometry.drawRange.count >= elements;
      let tree: MeshBVH;
      if (drawsAll) tree = own instanceof MeshBVH ? own : new MeshBVH(geometry);
      else {
        const whole = new BufferGeometry();
        whole.setAttribute('position', position);
        if (geometry.index !== null) whole.setIndex(geometry.index);
        tree = new MeshBVH(whole, { indirect: true });
      }
      const entry = readTree(tree, name);
      depth = Math.max(depth, entry.depth);
      trees.push(tree);
      walk.push(entry.tree);
      built.push({ geometry, position: geometry.getAttribute('position'), index: geometry.index });
    }
    this.built = Object.freeze(built);
    this.meshes = Object.freeze(meshes);
    this.trees = Object.freeze(trees);
    this.walk = Object.freeze(walk);
    this.stackNodes = new Int32Array(depth + 2);
    this.stackEntry = new Float64Array(depth + 2);
  }

  /** {@inheritDoc Ground.raycast} */
  raycast(ray: Float64Array, hit: Float64Array): boolean {
    checkRaycastArgs(ray, hit, 'ThreeRaycastGround');
    const s = this.scratch;
    const ox = ray[RAY.origin];
    const oy = ray[RAY.origin + 1];
    const oz = ray[RAY.origin + 2];
    const dx = ray[RAY.direction];
    const dy = ray[RAY.direction + 1];
    const dz = ray[RAY.direction + 2];
    let best = ray[RAY.maxDistance];
    let found = false;
    const tri = this.triangle;
    for (let m = 0; m < this.meshes.length; m++) {
      const mesh = this.meshes[m];
      const was = this.built[m];
      if (
        mesh.geometry !== was.geometry ||
        mesh.geometry.getAttribute('position') !== was.position ||
        mesh.geometry.index !== was.index
      ) {
        refuseReplaced(mesh);
      }
      const e = this.inverse.copy(mesh.matrixWorld).invert().elements;
      // Along this ray a local distance is k times the world distance (k = |M⁻¹ d|).
      const lx = e[0] * dx + e[4] * dy + e[8] * dz;
      const ly = e[1] * dx + e[5] * dy + e[9] * dz;
      const lz = e[2] * dx + e[6] * dy + e[10] * dz;
      const k = Math.sqrt(lx * lx + ly * ly + lz * lz);
      if (!(k > 0) || !Number.isFinite(k)) continue;
      s[S.ox] = e[0] * ox + e[4] * oy + e[8] * oz + e[12];
      s[S.oy] = e[1] * ox + e[5] * oy + e[9] * oz + e[13];
      s[S.oz] = e[2] * ox + e[6] * oy + e[10] * oz + e[14];
      s[S.dx] = lx / k;
      s[S.dy] = ly / k;
      s[S.dz] = lz / k;
      s[S.ix] = 1 / s[S.dx];
      s[S.iy] = 1 / s[S.dy];
      s[S.iz] = 1 / s[S.dz];
      s[S.best] = best * k;
      if (this.castMesh(m)) {
        best = s[S.best] / k;
        found = true;
        // Keep the triangle in world space: a later mesh may overwrite the local one.
        // (Vector3.applyMatrix4's arithmetic, its projective divide included.)
        const w = mesh.matrixWorld.elements;
        const out = this.world;
        for (let v = 0; v < 9; v += 3) {
          const x = tri[v];
          const y = tri[v + 1];
          const z = tri[v + 2];
          const d = 1 / (w[3] * x + w[7] * y + w[11] * z + w[15]);
          out[v] = (w[0] * x + w[4] * y + w[8] * z + w[12]) * d;
          out[v + 1] = (w[1] * x + w[5] * y + w[9] * z + w[13]) * d;
          out[v + 2] = (w[2] * x + w[6] * y + w[10] * z + w[14]) * d;
        }
      }
    }
    if (!found) return false;
    // The world triangle's normal (any affine matrix, mirrored or sheared, keeps it right).
    const t = this.world;
    const abx = t[3] - t[0];
    const aby = t[4] - t[1];
    const abz = t[5] - t[2];
    const acx = t[6] - t[0];
    const acy = t[7] - t[1];
    const acz = t[8] - t[2];
    const nx = aby * acz - abz * acy;
    const ny = abz * acx - abx * acz;
    const nz = abx * acy - aby * acx;
    const length = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (!(length > 0)) return false;
    // The face the ray arrives at: the normal points back toward the ray's origin.
    const sign = nx * dx + ny * dy + nz * dz > 0 ? -1 / length : 1 / length;
    hit[HIT.point] = ox + dx * best;
    hit[HIT.point + 1] = oy + dy * best;
    hit[HIT.point + 2] = oz + dz * best;
    hit[HIT.normal] = nx * sign;
    hit[HIT.normal + 1] = ny * sign;
    hit[HIT.normal + 2] = nz * sign;
    hit[HIT.distance] = best;
    return true;
  }

  /**
   * Walks mesh `m`'s tree with the local ray in the scratch array, nearest box first; on a hit
   * nearer than `scratch[best]`, lowers it and keeps the triangle. Returns whether it hit.
   */
  private castMesh(m: number): boolean {
    const s = this.scratch;
    const geometry = this.meshes[m].geometry;
    const attribute = geometry.getAttribute('position') as BufferAttribute | InterleavedBufferAttribute;
    let positions: ArrayLike<number>;
    let stride: number;
    let start: number;
    if ((attribute as InterleavedBufferAttribute).isInterleavedBufferAttribute === true) {
      const interleaved = attribute as InterleavedBufferAttribute;
      positions = interleaved.data.array;
      stride = interleaved.data.stride;
      start = interleaved.offset;
    } else {
      positions = (attribute as BufferAttribute).array;
      stride = 3;
      start = 0;
    }
    const index = geometry.index === null ? null : geometry.index.array;
    const { roots, indirect } = this.walk[m];
    const nodes = this.stackNodes;
    const entry = this.stackEntry;
    let hit = false;
    for (let r = 0; r < roots.length; r++) {
      const { f32, u16, u32 } = roots[r];
      let top = 0;
      boxEntry(f32, 0, s);
      if (s[S.t] <= s[S.best]) {
        nodes[0] = 0;
        entry[0] = s[S.t];
        top = 1;
      }
      while (top > 0) {
        top--;
        const node = nodes[top];
        if (entry[top] > s[S.best]) continue;
        if (u16[2 * node + 15] === LEAF_FLAG) {
          const first = u32[node + 6];
          const end = first + u16[2 * node + 14];
          for (let i = first; i < end; i++) {
            const t = indirect === null ? i : indirect[i];
            const ia = index === null ? 3 * t : index[3 * t];
            const ib = index === null ? 3 * t + 1 : index[3 * t + 1];
            const ic = index === null ? 3 * t + 2 : index[3 * t + 2];
            if (
              intersectTriangle(positions, start + ia * stride, start + ib * stride, start + ic * stride, s)
            ) {
              hit = true;
              const tri = this.triangle;
              for (let c = 0; c < 3; c++) {
                tri[c] = positions[start + ia * stride + c];
                tri[3 + c] = positions[start + ib * stride + c];
                tri[6 + c] = positions[start + ic * stride + c];
              }
            }
          }
          continue;
        }
        const left = node + UINT32_PER_NODE;
        const right = node + UINT32_PER_NODE * u32[node + 6];
        boxEntry(f32, left, s);
        const tLeft = s[S.t];
        boxEntry(f32, right, s);
        const tRight = s[S.t];
        // Push the farther child first so the nearer one is walked first.
        const nearFirst = tLeft <= tRight;
        const far = nearFirst ? right : left;
        const tFar = nearFirst ? tRight : tLeft;
        const near = nearFirst ? left : right;
        const tNear = nearFirst ? tLeft : tRight;
        if (tFar <= s[S.best]) {
          nodes[top] = far;
          entry[top] = tFar;
          top++;
        }
        if (tNear <= s[S.best]) {
          nodes[top] = near;
          entry[top] = tNear;
          top++;
        }
      }
    }
    return hit;
  }
}

/**
 * Where the local ray enters the box of node `node` (0 from inside), into `s[S.t]`; +∞ when it
 * misses the box or the box lies behind. Slab test; an axis the ray is parallel to only checks the
 * origin lies within that slab.
 */
function boxEntry(f32: Float32Array, node: number, s: Float64Array): void {
  let near = 0;
  let far = Number.POSITIVE_INFINITY;
  for (let axis = 0; axis < 3; axis++) {
    const o = s[S.ox + axis];
    const min = f32[node + axis];
    const max = f32[node + 3 + axis];
    if (s[S.dx + axis] === 0) {
      if (o < min || o > max) {
        s[S.t] = Number.POSITIVE_INFINITY;
        return;
      }
      continue;
    }
    const inv = s[S.ix + axis];
    let t0 = (min - o) * inv;
    let t1 = (max - o) * inv;
    if (t0 > t1) {
      const swap = t0;
      t0 = t1;
      t1 = swap;
    }
    if (t0 > near) near = t0;
    if (t1 < far) far = t1;
    if (near > far) {
      s[S.t] = Number.POSITIVE_INFINITY;
      return;
    }
  }
  s[S.t] = near;
}

/**
 * Möller–Trumbore, both faces, vertices at `positions[a…]`, `[b…]`, `[c…]`: on a hit at a distance
 * in `[0, s[best]]`, writes it to `s[best]` and returns `true`. As MeshGround's: the barycentric
 * bounds widened by 1e-10 (on an edge two triangles share, rounding put a ray just outside both: 677
 * of 18,000 oblique rays at a grid's edges fell through), and a triangle of no area never hit (a
 * ray crossing one obliquely stopped there, hiding the ground behind it).
 */
function intersectTriangle(
  positions: ArrayLike<number>,
  a: number,
  b: number,
  c: number,
  s: Float64Array,
): boolean {
  const ax = positions[a];
  const ay = positions[a + 1];
  const az = positions[a + 2];
  const e1x = positions[b] - ax;
  const e1y = positions[b + 1] - ay;
  const e1z = positions[b + 2] - az;
  const e2x = positions[c] - ax;
  const e2y = positions[c + 1] - ay;
  const e2z = positions[c + 2] - az;
  const dx = s[S.dx];
  const dy = s[S.dy];
  const dz = s[S.dz];
  const px = dy * e2z - dz * e2y;
  const py = dz * e2x - dx * e2z;
  const pz = dx * e2y - dy * e2x;
  const det = e1x * px + e1y * py + e1z * pz;
  if (det === 0 || !Number.isFinite(det)) return false;
  const inv = 1 / det;
  const sx = s[S.ox] - ax;
  const sy = s[S.oy] - ay;
  const sz = s[S.oz] - az;
  const u = (sx * px + sy * py + sz * pz) * inv;
  if (u < -EDGE || u > 1 + EDGE) return false;
  const qx = sy * e1z - sz * e1y;
  const qy = sz * e1x - sx * e1z;
  const qz = sx * e1y - sy * e1x;
  const v = (dx * qx + dy * qy + dz * qz) * inv;
  if (v < -EDGE || u + v > 1 + EDGE) return false;
  const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
  if (!(t >= 0) || t > s[S.best]) return false;
  // No area (the sine of the edges' angle under 1e-12): not a surface.
  if (!triangleHasArea(positions, a, b, c)) return false;
  s[S.best] = t;
  return true;
}

/**
 * Typed views over a tree's serialized roots, checked against the layout {@link ThreeRaycastGround}
 * reads: every child inside the buffer, every leaf's triangles inside the geometry and no triangle
 * in two leaves, some triangle in a leaf. Returns the depth for the traversal stack.
 */
function readTree(tree: MeshBVH, name: string): { tree: MeshTree; depth: number } {
  const serialized = MeshBVH.serialize(tree, { cloneBuffers: false });
  const indirect = serialized.indirectBuffer ?? null;
  const geometry = tree.geometry;
  const triangles =
    indirect !== null
      ? indirect.length
      : geometry.index !== null
        ? geometry.index.count / 3
        : geometry.getAttribute('position').count / 3;
  const seen = new Uint8Array(triangles);
  let covered = 0;
  let depth = 1;
  const bad = (why: string): never => {
    throw new TendonError(
      'three/invalid-ground',
      `ThreeRaycastGround: the three-mesh-bvh tree of mesh "${name}" is not laid out as version 0.9 lays it out (${why}); use three-mesh-bvh 0.9`,
    );
  };
  const roots: TreeRoot[] = [];
  for (const buffer of serialized.roots) {
    const root = {
      f32: new Float32Array(buffer),
      u16: new Uint16Array(buffer),
      u32: new Uint32Array(buffer),
    };
    const nodeCount = root.u32.length / UINT32_PER_NODE;
    if (!Number.isInteger(nodeCount) || nodeCount === 0) bad('a root buffer is not whole nodes');
    const stack: [number, number][] = [[0, 1]];
    while (stack.length > 0) {
      const [node, level] = stack.pop()!;
      depth = Math.max(depth, level);
      if (root.u16[2 * node + 15] === LEAF_FLAG) {
        const first = root.u32[node + 6];
        const count = root.u16[2 * node + 14];
        if (first + count > triangles) bad('a leaf lists triangles past the geometry');
        for (let i = first; i < first + count; i++) {
          if (seen[i] === 1) bad('a triangle is in two leaves');
          seen[i] = 1;
          covered++;
        }
        continue;
      }
      const right = node + UINT32_PER_NODE * root.u32[node + 6];
      if (right <= node + UINT32_PER_NODE || right >= root.u32.length) bad('a child lies outside the buffer');
      stack.push([node + UINT32_PER_NODE, level + 1], [right, level + 1]);
    }
    roots.push(root);
  }
  if (covered === 0 && triangles > 0) bad('no leaf holds a triangle');
  return { tree: { roots, indirect }, depth };
}
