/**
 * ThreeRaycastGround against three's own Raycaster (an independent oracle for the nearest hit):
 * a flat plane, a displaced (bumpy) plane with random oblique rays, a plane with a hole.
 */
import {
  BufferAttribute,
  BufferGeometry,
  Group,
  InstancedMesh,
  InterleavedBuffer,
  InterleavedBufferAttribute,
  Matrix3,
  Mesh,
  MeshBasicMaterial,
  PlaneGeometry,
  Raycaster,
  SkinnedMesh,
  Vector3,
} from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import { describe, expect, it } from 'vitest';
import { HIT, RAY } from '../../src/placement/ground.js';
import { ThreeRaycastGround } from '../../src/three/index.js';
import { rng as random } from '../kernel/helpers.js';

function makeRay(origin: readonly number[], direction: readonly number[], max: number): Float64Array {
  const ray = new Float64Array(RAY.length);
  const l = Math.hypot(direction[0], direction[1], direction[2]);
  ray.set(origin, RAY.origin);
  ray.set([direction[0] / l, direction[1] / l, direction[2] / l], RAY.direction);
  ray[RAY.maxDistance] = max;
  return ray;
}

/** A ground plane: PlaneGeometry lies in XY; turned to XZ, facing +Y. */
function floor(geometry: BufferGeometry, y = 0): Mesh {
  const mesh = new Mesh(geometry, new MeshBasicMaterial());
  mesh.rotation.x = -Math.PI / 2;
  mesh.position.y = y;
  mesh.updateMatrixWorld(true);
  return mesh;
}

function bumpy(): PlaneGeometry {
  const geometry = new PlaneGeometry(10, 10, 40, 40);
  const position = geometry.getAttribute('position') as BufferAttribute;
  for (let i = 0; i < position.count; i++) {
    const x = position.getX(i);
    const y = position.getY(i);
    position.setZ(i, 0.3 * Math.sin(1.3 * x) * Math.cos(0.9 * y) + 0.05 * x);
  }
  geometry.computeVertexNormals();
  return geometry;
}

/** three's nearest hit on `meshes` (double-sided): point and world face normal toward the ray. */
function oracle(
  meshes: Mesh[],
  ray: Float64Array,
): { point: Vector3; normal: Vector3; distance: number } | null {
  const raycaster = new Raycaster(
    new Vector3(ray[0], ray[1], ray[2]),
    new Vector3(ray[3], ray[4], ray[5]),
    0,
    ray[RAY.maxDistance],
  );
  for (const m of meshes) (m.material as MeshBasicMaterial).side = 2; // DoubleSide
  const hits = raycaster.intersectObjects(meshes, false);
  if (hits.length === 0) return null;
  const hit = hits[0];
  const normal = hit
    .face!.normal.clone()
    .applyMatrix3(new Matrix3().getNormalMatrix(hit.object.matrixWorld))
    .normalize();
  if (normal.dot(raycaster.ray.direction) > 0) normal.negate();
  return { point: hit.point, normal, distance: hit.distance };
}

function expectHitLike(
  hit: Float64Array,
  expected: { point: Vector3; normal: Vector3; distance: number },
): void {
  const p = new Vector3(hit[HIT.point], hit[HIT.point + 1], hit[HIT.point + 2]);
  const n = new Vector3(hit[HIT.normal], hit[HIT.normal + 1], hit[HIT.normal + 2]);
  expect(p.distanceTo(expected.point)).toBeLessThanOrEqual(1e-6);
  expect(n.distanceTo(expected.normal)).toBeLessThanOrEqual(1e-6);
  expect(Math.abs(n.length() - 1)).toBeLessThanOrEqual(1e-12);
  expect(Math.abs(hit[HIT.distance] - expected.distance)).toBeLessThanOrEqual(1e-6);
}

describe('ThreeRaycastGround', () => {
  it('hits a flat plane from above and below with the normal on the ray’s side, within the ray’s length', () => {
    const plane = floor(new PlaneGeometry(20, 20, 4, 4), 0.5);
    const ground = new ThreeRaycastGround([plane]);
    const hit = new Float64Array(HIT.length);
    expect(ground.raycast(makeRay([1, 5, 2], [0, -1, 0], 10), hit)).toBe(true);
    [1, 0.5, 2, 0, 1, 0, 4.5].forEach((v, i) => {
      expect(hit[i]).toBeCloseTo(v, 12);
    });
    expect(ground.raycast(makeRay([-3, -2, 4], [0, 1, 0], 10), hit)).toBe(true);
    expect(hit[HIT.point + 1]).toBeCloseTo(0.5, 12);
    expect(hit[HIT.normal + 1]).toBeCloseTo(-1, 12);
    expect(hit[HIT.distance]).toBeCloseTo(2.5, 12);
    // Too short, pointing away, beside the plane: misses that leave `hit` as it was.
    const before = Array.from(hit);
    expect(ground.raycast(makeRay([1, 5, 2], [0, -1, 0], 4.4), hit)).toBe(false);
    expect(ground.raycast(makeRay([1, 5, 2], [0, 1, 0], 100), hit)).toBe(false);
    expect(ground.raycast(makeRay([30, 5, 2], [0, -1, 0], 100), hit)).toBe(false);
    expect(Array.from(hit)).toEqual(before);
  });

  it('agrees with three’s Raycaster on a displaced plane, scaled and turned, for 500 random rays', () => {
    const mesh = floor(bumpy(), -1);
    mesh.scale.set(1.5, 0.8, 1.2);
    mesh.rotation.z = 0.4;
    mesh.updateMatrixWorld(true);
    const ground = new ThreeRaycastGround([mesh]);
    const hit = new Float64Array(HIT.length);
    const next = random(13);
    let hits = 0;
    for (let i = 0; i < 500; i++) {
      const origin = [(next() - 0.5) * 16, 2 + 3 * next(), (next() - 0.5) * 16];
      const direction = [(next() - 0.5) * 0.8, -1, (next() - 0.5) * 0.8];
      const ray = makeRay(origin, direction, 4 + 6 * next());
      const expected = oracle([mesh], ray);
      const got = ground.raycast(ray, hit);
      expect(got).toBe(expected !== null);
      if (expected !== null) {
        expectHitLike(hit, expected);
        hits++;
      }
    }
    expect(hits).toBeGreaterThan(200);
    expect(hits).toBeLessThan(500);
  });

  it('misses in a hole and hits around it; nearest of several meshes; meshes moved later', () => {
    const geometry = new PlaneGeometry(10, 10, 10, 10);
    const index = geometry.getIndex()!;
    const position = geometry.getAttribute('position');
    const kept: number[] = [];
    for (let t = 0; t < index.count; t += 3) {
      let cx = 0;
      let cy = 0;
      for (let k = 0; k < 3; k++) {
        cx += position.getX(index.getX(t + k)) / 3;
        cy += position.getY(index.getX(t + k)) / 3;
      }
      // A 2 × 2 hole around (2, 1) in the plane's XY (world x = 2, z = −1).
      if (!(Math.abs(cx - 2) < 1 && Math.abs(cy - 1) < 1))
        kept.push(index.getX(t), index.getX(t + 1), index.getX(t + 2));
    }
    geometry.setIndex(kept);
    const holed = floor(geometry, 0);
    const ground = new ThreeRaycastGround([holed]);
    const hit = new Float64Array(HIT.length);
    expect(ground.raycast(makeRay([2, 3, -1], [0, -1, 0], 10), hit)).toBe(false);
    expect(ground.raycast(makeRay([2.5, 3, -0.5], [0, -1, 0], 10), hit)).toBe(false);
    expect(ground.raycast(makeRay([3.5, 3, -1], [0, -1, 0], 10), hit)).toBe(true);
    expect(ground.raycast(makeRay([2, 3, 1], [0, -1, 0], 10), hit)).toBe(true);
    expect(hit[HIT.point + 1]).toBeCloseTo(0, 12);

    // Two floors in a group (found by traversal) with a skinned-looking mesh skipped: the upper wins.
    const group = new Group();
    const lower = floor(new PlaneGeometry(10, 10), -2);
    const upper = floor(new PlaneGeometry(4, 4).toNonIndexed(), 1);
    const character = floor(new PlaneGeometry(100, 100), 4);
    const skinned = new SkinnedMesh(character.geometry, character.material);
    skinned.rotation.x = -Math.PI / 2;
    skinned.position.y = 4;
    const instanced = new InstancedMesh(new PlaneGeometry(100, 100), new MeshBasicMaterial(), 1);
    instanced.rotation.x = -Math.PI / 2;
    instanced.position.y = 4.5;
    const hidden = floor(new PlaneGeometry(1, 1), 0.5);
    hidden.visible = false;
    group.add(lower, upper, skinned, instanced, hidden);
    group.updateMatrixWorld(true);
    expect(new ThreeRaycastGround([group]).meshes.length).toBe(3);
    const two = new ThreeRaycastGround([group], { includeInvisible: false });
    expect(two.meshes).toEqual([lower, upper]);
    expect(two.raycast(makeRay([0, 5, 0], [0, -1, 0], 10), hit)).toBe(true);
    expect(hit[HIT.point + 1]).toBeCloseTo(1, 12);
    expect(two.raycast(makeRay([3, 5, 0], [0, -1, 0], 10), hit)).toBe(true);
    expect(hit[HIT.point + 1]).toBeCloseTo(-2, 12);
    // Between the floors looking up: the upper floor's underside.
    expect(two.raycast(makeRay([0, 0, 0], [0, 1, 0], 10), hit)).toBe(true);
    expect(hit[HIT.normal + 1]).toBeCloseTo(-1, 12);
    upper.position.y = 3;
    group.updateMatrixWorld(true);
    expect(two.raycast(makeRay([0, 5, 0], [0, -1, 0], 10), hit)).toBe(true);
    expect(hit[HIT.point + 1]).toBeCloseTo(3, 12);
  });

  it('agrees with three’s Raycaster straight down, on indirect, grouped and interleaved trees', () => {
    const next = random(29);
    const grouped = bumpy();
    grouped.clearGroups();
    const half = (grouped.getIndex()!.count / 6) * 3;
    grouped.addGroup(0, half, 0);
    grouped.addGroup(half, grouped.getIndex()!.count - half, 1);
    const interleaved = bumpy();
    const source = interleaved.getAttribute('position');
    const data = new InterleavedBuffer(new Float32Array(source.count * 5), 5);
    const attribute = new InterleavedBufferAttribute(data, 3, 1);
    for (let i = 0; i < source.count; i++)
      attribute.setXYZ(i, source.getX(i), source.getY(i), source.getZ(i));
    interleaved.setAttribute('position', attribute);
    const indirect = bumpy();
    (indirect as BufferGeometry & { boundsTree?: MeshBVH }).boundsTree = new MeshBVH(indirect, {
      indirect: true,
    });
    const cases = [grouped, interleaved, indirect.toNonIndexed(), indirect];
    (cases[2] as BufferGeometry & { boundsTree?: MeshBVH }).boundsTree = new MeshBVH(cases[2], {
      indirect: true,
    });
    for (const geometry of cases) {
      const mesh = floor(geometry, 0.25);
      const ground = new ThreeRaycastGround([mesh]);
      // (One root each: a grouped geometry's tree is over a stand-in without its groups.)
      const roots = MeshBVH.serialize(ground.trees[0], { cloneBuffers: false }).roots.length;
      expect(roots).toBe(1);
      const hit = new Float64Array(HIT.length);
      for (let i = 0; i < 100; i++) {
        // Straight down (two direction components exactly 0) half the time, oblique otherwise.
        const direction = i % 2 === 0 ? [0, -1, 0] : [next() - 0.5, -1, next() - 0.5];
        const ray = makeRay([(next() - 0.5) * 12, 3, (next() - 0.5) * 12], direction, 10);
        const expected = oracle([mesh], ray);
        expect(ground.raycast(ray, hit)).toBe(expected !== null);
        if (expected !== null) expectHitLike(hit, expected);
      }
    }
  });

  it('stands on every triangle, whatever the draw range and groups, and leaves the geometry’s index as it was', () => {
    // Until 27 November the tree held the triangles drawn only: past a draw range or outside the
    // groups was no ground, and an empty draw range threw as a tree of another version (a hostile
    // test). A 10 m plane of two triangles, one under (-3, -3), the other under (3, 3).
    const edits: [string, (g: BufferGeometry) => void][] = [
      ['draw range of the first triangle', (g) => g.setDrawRange(0, 3)],
      ['a group of the first triangle', (g) => g.addGroup(0, 3, 0)],
      ['an empty draw range', (g) => g.setDrawRange(0, 0)],
    ];
    for (const [label, edit] of edits) {
      const geometry = new PlaneGeometry(10, 10);
      edit(geometry);
      const order = Array.from(geometry.getIndex()!.array);
      const ground = new ThreeRaycastGround([floor(geometry, 0)]);
      const hit = new Float64Array(HIT.length);
      for (const [x, z] of [
        [-3, -3],
        [3, 3],
      ]) {
        expect(ground.raycast(makeRay([x, 5, z], [0, -1, 0], 10), hit), `${label} at ${x}, ${z}`).toBe(true);
        expect(hit[HIT.point + 1]).toBeCloseTo(0, 12);
      }
      expect(Array.from(geometry.getIndex()!.array), label).toEqual(order);
    }
  });

  it('refuses a tree that is not laid out as three-mesh-bvh 0.9 lays it out', () => {
    const geometry = bumpy();
    const tree = new MeshBVH(geometry);
    const root = MeshBVH.serialize(tree, { cloneBuffers: false }).roots[0];
    new Uint32Array(root)[6] = 1; // the root's right child onto its left child
    (geometry as BufferGeometry & { boundsTree?: MeshBVH }).boundsTree = tree;
    expect(() => new ThreeRaycastGround([floor(geometry)])).toThrow(
      expect.objectContaining({ code: 'three/invalid-ground' }),
    );
  });

  it('uses a tree the geometry already has (computeBoundsTree), and rejects a geometry without positions', () => {
    const geometry = bumpy();
    const tree = new MeshBVH(geometry);
    (geometry as BufferGeometry & { boundsTree?: MeshBVH }).boundsTree = tree;
    const mesh = floor(geometry);
    const ground = new ThreeRaycastGround([mesh]);
    expect(ground.trees[0]).toBe(tree);
    const ray = makeRay([0.3, 4, 0.7], [0.1, -1, 0], 10);
    const hit = new Float64Array(HIT.length);
    expect(ground.raycast(ray, hit)).toBe(true);
    expectHitLike(hit, oracle([mesh], ray)!);
    const empty = new Mesh(new BufferGeometry());
    expect(() => new ThreeRaycastGround([empty])).toThrow(
      expect.objectContaining({ code: 'three/invalid-ground' }),
    );
    const noPositions = new BufferGeometry();
    noPositions.setAttribute('normal', new BufferAttribute(new Float32Array(9), 3));
    expect(() => new ThreeRaycastGround([new Mesh(noPositions)])).toThrow(
      expect.objectContaining({ code: 'three/invalid-ground' }),
    );
  });

  // Until 27 November a mesh given another geometry after the ground was made (a level of
  // detail, a streamed tile) was walked with the old tree over the new arrays: misses where the new
  // geometry stood, no word.
  it('refuses a query once a mesh has another geometry, positions or index than its tree was built over', () => {
    const mesh = floor(bumpy());
    const ground = new ThreeRaycastGround([mesh]);
    // (Off the grid's edges: on one, either triangle's normal is the hit's, and three's
    // Raycaster, the oracle, may take the other.)
    const ray = makeRay([0.31, 4, 0.73], [0, -1, 0], 10);
    const hit = new Float64Array(HIT.length);
    expect(ground.raycast(ray, hit)).toBe(true);
    const replaced = (change: (m: Mesh) => void) => {
      const m = floor(bumpy());
      const g = new ThreeRaycastGround([m]);
      change(m);
      expect(() => g.raycast(ray, hit)).toThrow(
        expect.objectContaining({
          code: 'three/invalid-ground',
          message: expect.stringContaining('make a new ThreeRaycastGround'),
        }),
      );
    };
    replaced((m) => {
      m.geometry = new PlaneGeometry(40, 40).rotateX(-Math.PI / 2).translate(0, 2, 0);
    });
    replaced((m) => m.geometry.setAttribute('position', m.geometry.getAttribute('position').clone()));
    replaced((m) => m.geometry.setIndex(null));
    // Edited in place and refitted, the same geometry is still the ground.
    const position = mesh.geometry.getAttribute('position');
    for (let i = 0; i < position.count; i++) position.setY(i, position.getY(i) + 1);
    ground.trees[0].refit();
    expect(ground.raycast(ray, hit)).toBe(true);
    expectHitLike(hit, oracle([mesh], ray)!);
  });

  // Accepted, they made a ground that never answered: every foot eased out over it.
  it('refuses objects with no mesh under them, and a mesh with no triangle, naming it', () => {
    const character = new SkinnedMesh(bumpy(), new MeshBasicMaterial());
    for (const objects of [[], [new Group()], [character]]) {
      expect(() => new ThreeRaycastGround(objects)).toThrow(
        expect.objectContaining({
          code: 'three/invalid-ground',
          message: expect.stringContaining('no Mesh under'),
        }),
      );
    }
    const two = new BufferGeometry();
    two.setAttribute('position', new BufferAttribute(new Float32Array(6), 3));
    const line = new Mesh(two);
    line.name = 'line';
    expect(() => new ThreeRaycastGround([line])).toThrow(
      expect.objectContaining({
        code: 'three/invalid-ground',
        message: expect.stringContaining('"line" has no triangle'),
      }),
    );
  });

  it('has no hole on the edges its triangles share, for oblique rays, and stands on no triangle without an area', () => {
    // Until 27 November an oblique ray through a shared edge missed both triangles (677 of 18,000
    // at a grid's edges; 73 of 6,084 straight down under a turned parent), and one crossing a
    // triangle with a vertex repeated stopped there, hiding the ground below (hostile tests).
    const n = 30;
    const v = n + 1;
    const positions = new Float32Array(3 * v * v);
    const indices: number[] = [];
    for (let j = 0; j < v; j++) {
      for (let i = 0; i < v; i++) {
        const x = -7.5 + (i * 15) / n;
        const z = -7.5 + (j * 15) / n;
        // Heights exact in float32 (1/256 steps).
        positions.set([x, Math.round(256 * 0.3 * Math.sin(x) * Math.cos(0.7 * z)) / 256, z], 3 * (j * v + i));
      }
    }
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        const a = j * v + i;
        indices.push(a, a + v, a + 1, a + 1, a + v, a + v + 1);
      }
    }
    // A triangle of no area over the middle (a vertex repeated).
    indices.push(0, v * v - 1, v * v - 1);
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(positions, 3));
    geometry.setIndex(indices);
    for (const turned of [false, true]) {
      const mesh = new Mesh(geometry, new MeshBasicMaterial());
      if (turned) mesh.rotation.set(0.05, 0.7, -0.03);
      mesh.updateMatrixWorld(true);
      const ground = new ThreeRaycastGround([mesh]);
      const raycaster = new Raycaster();
      const hit = new Float64Array(HIT.length);
      const next = random(7);
      let rays = 0;
      let missed = 0;
      // Rays through the middles of edges and through vertices, oblique, from 3 m above.
      for (let j = 1; j < n; j++) {
        for (let i = 1; i < n; i++) {
          const k = 3 * (j * v + i);
          const through = [
            [positions[k], positions[k + 1], positions[k + 2]],
            [0, 1, 2].map((c) => 0.5 * (positions[k + c] + positions[k + 3 + c])),
            [0, 1, 2].map((c) => 0.5 * (positions[k + c] + positions[k + 3 * v + 3 + c])),
          ];
          for (const local of through) {
            const p = new Vector3(local[0], local[1], local[2]).applyMatrix4(mesh.matrixWorld);
            const d = new Vector3(next() - 0.5, -3, next() - 0.5).normalize();
            const o = p.clone().addScaledVector(d, -3);
            rays++;
            raycaster.set(o, d);
            const nearest = raycaster.intersectObject(mesh)[0];
            if (!ground.raycast(makeRay([o.x, o.y, o.z], [d.x, d.y, d.z], 10), hit)) missed++;
            else expect(Math.abs(hit[HIT.distance] - nearest.distance)).toBeLessThan(1e-6);
          }
        }
      }
      expect(missed, `${missed} of ${rays} missed${turned ? ', turned' : ''}`).toBe(0);
      // Straight down through the repeated vertex's triangle: the grid under it, as three finds it.
      const o = new Vector3(0.1, 3, 0.1);
      raycaster.set(o, new Vector3(0.3, -1, 0.2).normalize());
      const expected = raycaster.intersectObject(mesh)[0];
      expect(ground.raycast(makeRay([o.x, o.y, o.z], [0.3, -1, 0.2], 10), hit)).toBe(true);
      expect(hit[HIT.distance]).toBeCloseTo(expected.distance, 9);
    }
  });
});
