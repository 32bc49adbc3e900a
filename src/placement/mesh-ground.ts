/**
 * A triangle mesh as ground, with a bounding volume hierarchy so a query tests a handful of
 * triangles rather than all of them.
 *
 * @packageDocumentation
 */
import { checkArrayArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import { largestAbs } from '../kernel/vec3.js';
import { checkRaycastArgs, type Ground, HIT, RAY } from './ground.js';

/** Triangles per leaf of the hierarchy. */
const LEAF_SIZE = 4;
/** Deepest hierarchy the traversal stack holds; median splits of 2^31 triangles stay within it. */
const MAX_DEPTH = 64;

/**
 * How far outside a triangle, in barycentric units (a share of its edges), a ray still hits it:
 * rounding on a shared edge, not a size.
 */
export const EDGE = 1e-10;

/**
 * Ground made of triangles (world space), such as a level's collision mesh. Rays hit either side;
 * the normal returned faces the ray's origin. Triangles of no area (a vertex repeated, three in a
 * line) are left out. Built once: a mesh that changes needs a new `MeshGround` (the hierarchy is
 * not refitted). Each query walks a bounding volume hierarchy with
 * a preallocated stack and allocates nothing.
 */
export class MeshGround implements Ground {
  /**
   * Vertex positions, `3·v` (a copy of those given). Read by every query but not to be changed:
   * the hierarchy's bounds would no longer hold the triangles moved (make a new `MeshGround`).
   */
  readonly positions: Float64Array;
  /** Triangle vertex indices, `3·t`, reordered so each leaf's triangles are contiguous. */
  readonly indices: Uint32Array;
  /** Per node: bounds `minX, minY, minZ, maxX, maxY, maxZ`. */
  private readonly bounds: Float64Array;
  /** Per node: `[first, count]` for a leaf (count > 0), `[rightChild, 0]` for an inner node (left = node + 1). */
  private readonly nodes: Int32Array;
  private readonly stack = new Int32Array(MAX_DEPTH * 2);

  /**
   * @param positions - vertex positions, `3·v` numbers.
   * @param indices - triangle vertex indices, `3·t` (omit for unindexed triangles: every 3 vertices).
   * @throws {@link TendonError} `placement/invalid-ground` for non-finite positions, indices out of
   *   range, vertices that are not whole triangles with no indices, or no triangle with an area.
   */
  constructor(positions: ArrayLike<number>, indices?: ArrayLike<number>) {
    checkArrayArg(positions, 'new MeshGround', 'the positions');
    if (indices !== undefined) checkArrayArg(indices, 'new MeshGround', 'the indices');
    if (positions.length % 3 !== 0) {
      throw new TendonError(
        'placement/invalid-ground',
        `MeshGround: ${positions.length} position numbers, not a multiple of 3`,
      );
    }
    this.positions = Float64Array.from(positions);
    const bad = this.positions.findIndex((x) => !Number.isFinite(x));
    if (bad >= 0)
      throw new TendonError(
        'placement/invalid-ground',
        `MeshGround: positions[${bad}] is ${this.positions[bad]}`,
      );
    const vertexCount = positions.length / 3;
    if (indices === undefined && vertexCount % 3 !== 0) {
      throw new TendonError(
        'placement/invalid-ground',
        `MeshGround: ${vertexCount} vertices and no indices do not make whole triangles (3 vertices each)`,
      );
    }
    const given =
      indices === undefined
        ? Uint32Array.from({ length: vertexCount }, (_, i) => i)
        : Uint32Array.from(indices);
    if (given.length % 3 !== 0 || given.length === 0) {
      throw new TendonError(
        'placement/invalid-ground',
        `MeshGround: ${given.length} indices do not make whole triangles (at least one)`,
      );
    }
    for (let i = 0; i < given.length; i++) {
      if (given[i] >= vertexCount || (indices !== undefined && given[i] !== indices[i])) {
        throw new TendonError(
          'placement/invalid-ground',
          `MeshGround: indices[${i}] = ${indices?.[i]} is not a vertex in 0..${vertexCount - 1}`,
        );
      }
    }
    // Triangles of no area (a vertex repeated, three in a line) are left out: a ray crossing one
    // obliquely could hit it with a zero normal (NaN) and hide the ground behind it.
    const idx = withArea(this.positions, given);
    if (idx.length === 0) {
      throw new TendonError('placement/invalid-ground', 'MeshGround: no triangle has an area');
    }
    const triCount = idx.length / 3;
    const order = Uint32Array.from({ length: triCount }, (_, i) => i);
    const centroids = new Float64Array(3 * triCount);
    const p = this.positions;
    for (let t = 0; t < triCount; t++) {
      for (let k = 0; k < 3; k++) {
        centroids[3 * t + k] =
          (p[3 * idx[3 * t] + k] + p[3 * idx[3 * t + 1] + k] + p[3 * idx[3 * t + 2] + k]) / 3;
      }
    }
    const bounds: number[] = [];
    const nodes: number[] = [];
    // Iterative, depth-first build (no recursion on the mesh's size): an entry `[node, start, end]`
    // fills `node` with the triangles `order[start…end)`; a negative node `−(parent + 1)` first makes
    // the right child of `parent`, once the left child's whole subtree has been laid out after it.
    const newNode = (): number => {
      nodes.push(0, 0);
      bounds.push(0, 0, 0, 0, 0, 0);
      return nodes.length / 2 - 1;
    };
    const work: number[] = [newNode(), 0, triCount];
    while (work.length > 0) {
      const end = work.pop() as number;
      const start = work.pop() as number;
      let node = work.pop() as number;
      if (node < 0) {
        const parent = -node - 1;
        node = newNode();
        nodes[2 * parent] = node;
      }
      const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
      const cb = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
      for (let i = start; i < end; i++) {
        const t = order[i];
        for (let v = 0; v < 3; v++) {
          const o = 3 * idx[3 * t + v];
          for (let k = 0; k < 3; k++) {
            if (p[o + k] < b[k]) b[k] = p[o + k];
            if (p[o + k] > b[3 + k]) b[3 + k] = p[o + k];
          }
        }
        for (let k = 0; k < 3; k++) {
          const c = centroids[3 * t + k];
          if (c < cb[k]) cb[k] = c;
          if (c > cb[3 + k]) cb[3 + k] = c;
        }
      }
      for (let k = 0; k < 6; k++) bounds[6 * node + k] = b[k];
      const count = end - start;
      if (count <= LEAF_SIZE) {
        nodes[2 * node] = start;
        nodes[2 * node + 1] = count;
        continue;
      }
      // Median split along the widest extent of the centroids.
      const ex = [cb[3] - cb[0], cb[4] - cb[1], cb[5] - cb[2]];
      const axis = ex[0] >= ex[1] && ex[0] >= ex[2] ? 0 : ex[1] >= ex[2] ? 1 : 2;
      const slice = Array.from(order.subarray(start, end)).sort(
        (a, c) => centroids[3 * a + axis] - centroids[3 * c + axis] || a - c,
      );
      order.set(slice, start);
      const mid = start + (count >> 1);
      nodes[2 * node + 1] = 0;
      work.push(-(node + 1), mid, end, newNode(), start, mid);
    }
    this.bounds = Float64Array.from(bounds);
    this.nodes = Int32Array.from(nodes);
    this.indices = new Uint32Array(idx.length);
    for (let i = 0; i < triCount; i++) this.indices.set(idx.subarray(3 * order[i], 3 * order[i] + 3), 3 * i);
  }

  /** See {@link Ground.raycast}. */
  raycast(ray: Float64Array, hit: Float64Array): boolean {
    checkRaycastArgs(ray, hit, 'MeshGround');
    const ox = ray[RAY.origin];
    const oy = ray[RAY.origin + 1];
    const oz = ray[RAY.origin + 2];
    const dx = ray[RAY.direction];
    const dy = ray[RAY.direction + 1];
    const dz = ray[RAY.direction + 2];
    const ix = 1 / dx;
    const iy = 1 / dy;
    const iz = 1 / dz;
    let best = ray[RAY.maxDistance];
    let found = -1;
    const bounds = this.bounds;
    const nodes = this.nodes;
    const stack = this.stack;
    const p = this.positions;
    const idx = this.indices;
    let top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const node = stack[--top];
      // Slab test against the node's box, for t in [0, best].
      const bo = 6 * node;
      let t0 = 0;
      let t1 = best;
      let ta = (bounds[bo] - ox) * ix;
      let tb = (bounds[bo + 3] - ox) * ix;
      if (ta > tb) {
        const swap = ta;
        ta = tb;
        tb = swap;
      }
      if (ta > t0) t0 = ta;
      if (tb < t1) t1 = tb;
      ta = (bounds[bo + 1] - oy) * iy;
      tb = (bounds[bo + 4] - oy) * iy;
      if (ta > tb) {
        const swap = ta;
        ta = tb;
        tb = swap;
      }
      if (ta > t0) t0 = ta;
      if (tb < t1) t1 = tb;
      ta = (bounds[bo + 2] - oz) * iz;
      tb = (bounds[bo + 5] - oz) * iz;
      if (ta > tb) {
        const swap = ta;
        ta = tb;
        tb = swap;
      }
      if (ta > t0) t0 = ta;
      if (tb < t1) t1 = tb;
      // NaN (a zero direction component with the origin on the slab's plane) counts as inside.
      if (t0 > t1) continue;
      const count = nodes[2 * node + 1];
      if (count === 0) {
        stack[top++] = nodes[2 * node];
        stack[top++] = node + 1;
        continue;
      }
      const first = nodes[2 * node];
      for (let tri = first; tri < first + count; tri++) {
        const a = 3 * idx[3 * tri];
        const b = 3 * idx[3 * tri + 1];
        const c = 3 * idx[3 * tri + 2];
        // Möller–Trumbore, both sides.
        const e1x = p[b] - p[a];
        const e1y = p[b + 1] - p[a + 1];
        const e1z = p[b + 2] - p[a + 2];
        const e2x = p[c] - p[a];
        const e2y = p[c + 1] - p[a + 1];
        const e2z = p[c + 2] - p[a + 2];
        const px = dy * e2z - dz * e2y;
        const py = dz * e2x - dx * e2z;
        const pz = dx * e2y - dy * e2x;
        const det = e1x * px + e1y * py + e1z * pz;
        if (det === 0) continue;
        const inv = 1 / det;
        const sx = ox - p[a];
        const sy = oy - p[a + 1];
        const sz = oz - p[a + 2];
        // Barycentric bounds widened by EDGE: on an edge two triangles share, rounding can put
        // the ray just outside both (a hole a foot would fall through: 1 ray in 23,409 in a
        // reviewer's sweep of vertices, edges and diagonals); the nearer hit is taken either way.
        const u = (sx * px + sy * py + sz * pz) * inv;
        if (u < -EDGE || u > 1 + EDGE) continue;
        const qx = sy * e1z - sz * e1y;
        const qy = sz * e1x - sx * e1z;
        const qz = sx * e1y - sy * e1x;
        const v = (dx * qx + dy * qy + dz * qz) * inv;
        if (v < -EDGE || u + v > 1 + EDGE) continue;
        const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
        if (t >= 0 && t <= best) {
          best = t;
          found = tri;
        }
      }
    }
    if (found < 0) return false;
    const a = 3 * idx[3 * found];
    const b = 3 * idx[3 * found + 1];
    const c = 3 * idx[3 * found + 2];
    const e1x = p[b] - p[a];
    const e1y = p[b + 1] - p[a + 1];
    const e1z = p[b + 2] - p[a + 2];
    const e2x = p[c] - p[a];
    const e2y = p[c + 1] - p[a + 1];
    const e2z = p[c + 2] - p[a + 2];
    let nx = e1y * e2z - e1z * e2y;
    let ny = e1z * e2x - e1x * e2z;
    let nz = e1x * e2y - e1y * e2x;
    let inv = 1 / Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (nx * dx + ny * dy + nz * dz > 0) inv = -inv;
    nx *= inv;
    ny *= inv;
    nz *= inv;
    hit[HIT.point] = ox + best * dx;
    hit[HIT.point + 1] = oy + best * dy;
    hit[HIT.point + 2] = oz + best * dz;
    hit[HIT.normal] = nx;
    hit[HIT.normal + 1] = ny;
    hit[HIT.normal + 2] = nz;
    hit[HIT.distance] = best;
    return true;
  }
}

/**
 * The triangles of `idx` that have an area ({@link triangleHasArea}), in order.
 */
function withArea(p: Float64Array, idx: Uint32Array): Uint32Array {
  const kept = new Uint32Array(idx.length);
  let n = 0;
  for (let t = 0; t < idx.length; t += 3) {
    if (triangleHasArea(p, 3 * idx[t], 3 * idx[t + 1], 3 * idx[t + 2])) {
      kept[n++] = idx[t];
      kept[n++] = idx[t + 1];
      kept[n++] = idx[t + 2];
    }
  }
  return kept.slice(0, n);
}

/**
 * Whether the triangle with vertices at `p[a…]`, `p[b…]`, `p[c…]` has an area: the cross product of
 * two edges longer than 1e-12 of the product of their lengths (the sine of their angle). A ray
 * crossing one without (a vertex repeated, three in a line) could hit it with a zero normal.
 * Allocates nothing.
 */
export function triangleHasArea(p: ArrayLike<number>, a: number, b: number, c: number): boolean {
  // Each edge scaled by its largest component first: the fourth powers below under- or
  // overflowed for edges under 1e-81 or over 1e77 (refused as no area).
  const m1 = largestAbs(p[b] - p[a], p[b + 1] - p[a + 1], p[b + 2] - p[a + 2]);
  const m2 = largestAbs(p[c] - p[a], p[c + 1] - p[a + 1], p[c + 2] - p[a + 2]);
  if (!(m1 > 0 && m2 > 0)) return false;
  const e1x = (p[b] - p[a]) / m1;
  const e1y = (p[b + 1] - p[a + 1]) / m1;
  const e1z = (p[b + 2] - p[a + 2]) / m1;
  const e2x = (p[c] - p[a]) / m2;
  const e2y = (p[c + 1] - p[a + 1]) / m2;
  const e2z = (p[c + 2] - p[a + 2]) / m2;
  const nx = e1y * e2z - e1z * e2y;
  const ny = e1z * e2x - e1x * e2z;
  const nz = e1x * e2y - e1y * e2x;
  const area = nx * nx + ny * ny + nz * nz;
  const edges = (e1x * e1x + e1y * e1y + e1z * e1z) * (e2x * e2x + e2y * e2y + e2z * e2z);
  return area > 1e-24 * edges;
}
