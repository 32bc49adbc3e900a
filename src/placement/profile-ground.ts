/**
 * Ground whose height varies along one horizontal direction: slopes, steps and the terrain of a
 * side-scroller, as a polyline in the vertical plane extruded sideways.
 *
 * @packageDocumentation
 */
import { checkArrayArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import { normalizeScaled } from '../kernel/vec3.js';
import { checkRaycastArgs, type Ground, HIT, RAY } from './ground.js';

/**
 * A polyline of points `(s, y)`: `s` the distance along `along` (a horizontal unit direction, from
 * the world origin), `y` the height. `s` never decreases; two points with the same `s` make a
 * vertical riser (a step). Before the first point and after the last the ground continues flat.
 * Every ray is answered exactly, risers included (a foot's ray and a sideways ray alike).
 */
export class ProfileGround implements Ground {
  /** Distances along the profile, non-decreasing. */
  readonly s: Float64Array;
  /** Heights at those distances. */
  readonly y: Float64Array;
  /** The horizontal unit direction the profile runs along, `[x, z]`. */
  readonly along = new Float64Array(2);

  /**
   * @param along - horizontal direction of the profile (`[x, z]`, any length).
   * @param points - flat `[s0, y0, s1, y1, …]`, at least one point.
   * @throws {@link TendonError} `placement/invalid-ground` for decreasing `s` or non-finite numbers.
   */
  constructor(along: readonly [number, number], points: ArrayLike<number>) {
    checkArrayArg(along, 'new ProfileGround', 'along', 2);
    checkArrayArg(points, 'new ProfileGround', 'the points', 2);
    const l = Math.sqrt(along[0] * along[0] + along[1] * along[1]);
    // (Squares that under- or overflow, 1e-200 or 1e200: made unit through the larger component.)
    const scaled = [along[0], 0, along[1]];
    if (
      !(l > 0 && Number.isFinite(l)) &&
      !(Number.isFinite(along[0]) && Number.isFinite(along[1]) && normalizeScaled(scaled, 0, scaled, 0))
    ) {
      throw new TendonError(
        'placement/invalid-ground',
        'ProfileGround: along must be a finite, non-zero [x, z]',
      );
    }
    const n = points.length >> 1;
    if (n < 1 || points.length % 2 !== 0) {
      throw new TendonError(
        'placement/invalid-ground',
        'ProfileGround: points must be [s0, y0, s1, y1, …], at least one point',
      );
    }
    const plain = l > 0 && Number.isFinite(l);
    this.along[0] = plain ? along[0] / l : scaled[0];
    this.along[1] = plain ? along[1] / l : scaled[2];
    this.s = new Float64Array(n);
    this.y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const s = points[2 * i];
      const y = points[2 * i + 1];
      if (!Number.isFinite(s) || !Number.isFinite(y) || (i > 0 && s < this.s[i - 1])) {
        throw new TendonError(
          'placement/invalid-ground',
          `ProfileGround: point ${i} (${s}, ${y}) is not finite or comes before the point ahead of it`,
        );
      }
      this.s[i] = s;
      this.y[i] = y;
    }
  }

  /**
   * The height of the ground at distance `s` along the profile (the top of a riser at a riser).
   *
   * @throws {@link TendonError} `argument/invalid` for an `s` that is not a finite number (NaN
   *   passed through to a controller's height, a string was read as a number).
   */
  heightAt(s: number): number {
    if (typeof s !== 'number' || !(s - s === 0)) {
      throw new TendonError(
        'argument/invalid',
        `ProfileGround.heightAt: ${String(s)} is not a finite number`,
      );
    }
    const xs = this.s;
    const n = xs.length;
    if (s < xs[0]) return this.y[0];
    if (s > xs[n - 1]) return this.y[n - 1];
    let i = this.segmentAt(s);
    if (xs[i] === s) {
      // On a point, or on a riser: the highest of the points there.
      let top = this.y[i];
      while (i > 0 && xs[i - 1] === s) top = Math.max(top, this.y[--i]);
      return top;
    }
    const s0 = xs[i];
    const s1 = xs[i + 1];
    return this.y[i] + ((this.y[i + 1] - this.y[i]) * (s - s0)) / (s1 - s0);
  }

  /** The last `i` with `s[i] ≤ s < s[i+1]` (`s` strictly inside the profile's range). */
  private segmentAt(s: number): number {
    const xs = this.s;
    let lo = 0;
    let hi = xs.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (xs[mid] <= s) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  /** See {@link Ground.raycast}. */
  raycast(ray: Float64Array, hit: Float64Array): boolean {
    checkRaycastArgs(ray, hit, 'ProfileGround');
    const ax = this.along[0];
    const az = this.along[1];
    const ox = ray[RAY.origin];
    const oy = ray[RAY.origin + 1];
    const oz = ray[RAY.origin + 2];
    const dx = ray[RAY.direction];
    const dy = ray[RAY.direction + 1];
    const dz = ray[RAY.direction + 2];
    const maxT = ray[RAY.maxDistance];
    // The ray in the profile's plane: s(t) = s0 + t·ds, y(t) = oy + t·dy.
    const s0 = ox * ax + oz * az;
    const ds = dx * ax + dz * az;
    const xs = this.s;
    const ys = this.y;
    const n = xs.length;
    let bestT = Number.POSITIVE_INFINITY;
    let bestNs = 0;
    let bestNy = 1;
    // Segments: the flat run before the first point, each polyline segment, the flat run after.
    // A ray crosses only those whose s-range overlaps its own: find the first by bisection.
    const sEnd = s0 + ds * (maxT < 1e300 ? maxT : 1e300);
    const sLo = s0 < sEnd ? s0 : sEnd;
    const sHi = s0 < sEnd ? sEnd : s0;
    let first = -1;
    if (sLo > xs[0]) {
      first = sLo >= xs[n - 1] ? n - 1 : this.segmentAt(sLo);
      // Step back over points at exactly sLo, so a riser there and the segment ending there count.
      while (first > 0 && xs[first] >= sLo) first--;
    }
    for (let i = first; i < n; i++) {
      const segLo = i < 0 ? Number.NEGATIVE_INFINITY : xs[i];
      if (segLo > sHi) break;
      const segHi = i + 1 < n ? xs[i + 1] : Number.POSITIVE_INFINITY;
      const ya = i < 0 ? ys[0] : ys[i];
      const yb = i < 0 ? ys[0] : i + 1 < n ? ys[i + 1] : ys[n - 1];
      let t: number;
      let ns: number;
      let ny: number;
      if (segHi === segLo) {
        // A riser at s = segLo from ya to yb.
        if (ds === 0) continue;
        t = (segLo - s0) / ds;
        const yt = oy + t * dy;
        if (!(yt >= Math.min(ya, yb) && yt <= Math.max(ya, yb))) continue;
        ns = ds > 0 ? -1 : 1;
        ny = 0;
      } else if (segLo === Number.NEGATIVE_INFINITY || segHi === Number.POSITIVE_INFINITY) {
        // A flat run at height ya.
        if (dy === 0) continue;
        t = (ya - oy) / dy;
        const st = s0 + t * ds;
        if (!(st >= segLo && st <= segHi)) continue;
        ns = 0;
        ny = dy < 0 ? 1 : -1;
      } else {
        // y = ya + k (s − segLo): solve oy + t·dy = ya + k (s0 + t·ds − segLo).
        const k = (yb - ya) / (segHi - segLo);
        const denom = dy - k * ds;
        if (denom === 0) continue;
        t = (ya + k * (s0 - segLo) - oy) / denom;
        const st = s0 + t * ds;
        if (!(st >= segLo && st <= segHi)) continue;
        const inv = 1 / Math.sqrt(1 + k * k);
        ns = -k * inv;
        ny = inv;
        if (ns * ds + ny * dy > 0) {
          ns = -ns;
          ny = -ny;
        }
      }
      if (t >= 0 && t <= maxT && t < bestT) {
        bestT = t;
        bestNs = ns;
        bestNy = ny;
      }
    }
    if (bestT === Number.POSITIVE_INFINITY) return false;
    hit[HIT.point] = ox + bestT * dx;
    hit[HIT.point + 1] = oy + bestT * dy;
    hit[HIT.point + 2] = oz + bestT * dz;
    // `+ 0` turns a −0 (a negative factor times a zero component) into +0.
    hit[HIT.normal] = bestNs * ax + 0;
    hit[HIT.normal + 1] = bestNy;
    hit[HIT.normal + 2] = bestNs * az + 0;
    hit[HIT.distance] = bestT;
    return true;
  }
}
