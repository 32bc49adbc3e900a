/**
 * The world as placement sees it: something that answers a ray with a point and a normal.
 *
 * @packageDocumentation
 */
import { TendonError } from '../errors.js';

/**
 * Layout of a ray in a `Float64Array(7)`: origin `x, y, z`, unit direction `x, y, z`, and the
 * largest distance along it worth answering. Numbers travel in typed arrays rather than as loose
 * arguments so that a query allocates nothing (V8 boxes doubles passed through calls it does not
 * inline).
 */
export const RAY = {
  /** Where the ray starts, `x, y, z`. */
  origin: 0,
  /** Its unit direction, `x, y, z`. */
  direction: 3,
  /** How far along it a hit may be. */
  maxDistance: 6,
  /** Numbers in a ray. */
  length: 7,
} as const;

/**
 * Layout of a hit in a `Float64Array(7)`: the point `x, y, z`, the unit surface normal `x, y, z`
 * (on the side the ray came from), and the distance from the ray's origin.
 */
export const HIT = {
  /** The point hit, `x, y, z`. */
  point: 0,
  /** The ground's unit normal there, facing the ray, `x, y, z`. */
  normal: 3,
  /** Distance along the ray. */
  distance: 6,
  /** Numbers in a hit. */
  length: 7,
} as const;

/**
 * Anything placement can stand on: a plane, a heightfield, a triangle mesh, a renderer's ray caster.
 * Coordinates are world space.
 *
 * Implementations must not allocate per query and must not keep the arrays they are given.
 */
export interface Ground {
  /**
   * Casts the ray `ray` (see {@link RAY}). On a hit within `ray[RAY.maxDistance]`, writes the
   * nearest hit into `hit` (see {@link HIT}) and returns `true`; otherwise returns `false` and
   * leaves `hit` as it was. A hole in the ground is a miss.
   */
  raycast(ray: Float64Array, hit: Float64Array): boolean;
}

/**
 * Checks a {@link Ground.raycast}'s arguments: a JavaScript caller's wrong buffer must be a
 * TendonError, not a TypeError or a write into nothing. Two type tests: nothing next to a query.
 *
 * @throws {@link TendonError} `argument/invalid`.
 */
export function checkRaycastArgs(ray: Float64Array, hit: Float64Array, who: string): void {
  if (
    !(
      ray instanceof Float64Array &&
      ray.length >= RAY.length &&
      hit instanceof Float64Array &&
      hit.length >= HIT.length
    )
  ) {
    throw new TendonError(
      'argument/invalid',
      `${who}.raycast: the ray and the hit must be Float64Arrays of ${RAY.length} numbers (RAY and HIT layouts)`,
    );
  }
}
