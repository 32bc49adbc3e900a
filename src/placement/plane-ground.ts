/**
 * An infinite plane: flat ground, or a slope of any angle.
 *
 * @packageDocumentation
 */
import { checkArrayArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import { normalizeScaled } from '../kernel/vec3.js';
import { checkRaycastArgs, type Ground, HIT, RAY } from './ground.js';

/**
 * The plane through `point` with normal `normal` (any length; normalized here). Flat ground is
 * `new PlaneGround([0, 0, 0], [0, 1, 0])`; a slope tilts the normal. Rays hit it from either side.
 */
export class PlaneGround implements Ground {
  /** A point of the plane and its unit normal, `[px, py, pz, nx, ny, nz]`. */
  readonly plane = new Float64Array(6);

  /** @throws {@link TendonError} `placement/invalid-ground` for non-finite numbers or a zero normal. */
  constructor(point: ArrayLike<number>, normal: ArrayLike<number>) {
    checkArrayArg(point, 'new PlaneGround', 'the point', 3);
    checkArrayArg(normal, 'new PlaneGround', 'the normal', 3);
    const n = Math.sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
    const unit = [normal[0] / n, normal[1] / n, normal[2] / n];
    // A normal whose squares under- or overflow (1e-200, 1e200: refused as zero or infinite,
    // though any length is taken) is made unit through its largest component.
    const finite = [0, 1, 2].every((k) => Number.isFinite(normal[k]));
    if (
      (!(n > 0 && Number.isFinite(n)) &&
        !(finite && normalizeScaled(unit, 0, [normal[0], normal[1], normal[2]], 0))) ||
      ![point[0], point[1], point[2]].every(Number.isFinite)
    ) {
      throw new TendonError(
        'placement/invalid-ground',
        'PlaneGround: point and normal must be finite, the normal non-zero',
      );
    }
    this.plane.set([point[0], point[1], point[2], unit[0], unit[1], unit[2]]);
  }

  /** See {@link Ground.raycast}. */
  raycast(ray: Float64Array, hit: Float64Array): boolean {
    checkRaycastArgs(ray, hit, 'PlaneGround');
    const p = this.plane;
    const ox = ray[RAY.origin];
    const oy = ray[RAY.origin + 1];
    const oz = ray[RAY.origin + 2];
    const dx = ray[RAY.direction];
    const dy = ray[RAY.direction + 1];
    const dz = ray[RAY.direction + 2];
    const nx = p[3];
    const ny = p[4];
    const nz = p[5];
    const denom = nx * dx + ny * dy + nz * dz;
    if (denom === 0) return false;
    const t = (nx * (p[0] - ox) + ny * (p[1] - oy) + nz * (p[2] - oz)) / denom;
    if (!(t >= 0 && t <= ray[RAY.maxDistance])) return false;
    const side = denom > 0 ? -1 : 1;
    hit[HIT.point] = ox + t * dx;
    hit[HIT.point + 1] = oy + t * dy;
    hit[HIT.point + 2] = oz + t * dz;
    hit[HIT.normal] = side * nx;
    hit[HIT.normal + 1] = side * ny;
    hit[HIT.normal + 2] = side * nz;
    hit[HIT.distance] = t;
    return true;
  }
}
