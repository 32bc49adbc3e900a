/**
 * A regular grid of heights: terrain as games store it.
 *
 * @packageDocumentation
 */
import { checkArrayArg, checkKnownKeys, checkObjectArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import { normalizeScaled } from '../kernel/vec3.js';
import { optionKeys } from './check-option.js';
import { checkRaycastArgs, type Ground, HIT, RAY } from './ground.js';

// The gradient on the rare path of a normal (cells so small its square overflows).
const gradient = new Float64Array(3);

/** Where a {@link HeightfieldGround} lies and how fine it is. */
export interface HeightfieldOptions {
  /** World x of the first column. Default 0. */
  readonly originX?: number;
  /** World z of the first row. Default 0. */
  readonly originZ?: number;
  /** Distance between neighbouring samples, along x and z. */
  readonly cellSize: number;
  /** Samples along x. */
  readonly columns: number;
  /** Samples along z. */
  readonly rows: number;
  /** `columns × rows` heights, row by row: the height at column `i`, row `j` is `heights[j · columns + i]`. */
  readonly heights: ArrayLike<number>;
}

/** The keys of {@link HeightfieldOptions} (any other is refused: a misspelling was ignored). */
const HEIGHTFIELD_OPTIONS = optionKeys<HeightfieldOptions>({
  originX: true,
  originZ: true,
  cellSize: true,
  columns: true,
  rows: true,
  heights: true,
});

/**
 * Heights on a grid, bilinear between samples; normals from the gradient of that bilinear surface.
 * Outside the grid there is no ground (a ray there misses). A vertical ray is answered in constant
 * time; any other ray walks the cells it crosses and meets each cell's bilinear patch exactly.
 */
export class HeightfieldGround implements Ground {
  /** The heights, row by row. */
  readonly heights: Float64Array;
  /** Samples along x. */
  readonly columns: number;
  /** Samples along z. */
  readonly rows: number;
  /** `[originX, originZ, cellSize]`. */
  readonly frame = new Float64Array(3);
  /** A query's ray in cell units (origin, direction) and the parameter range of the cell it tests. */
  private readonly cell = new Float64Array(8);

  /** @throws {@link TendonError} `placement/invalid-ground` for a grid of the wrong size or non-finite numbers. */
  constructor(options: HeightfieldOptions) {
    checkObjectArg(options, 'new HeightfieldGround', 'options');
    checkKnownKeys(options, HEIGHTFIELD_OPTIONS, 'new HeightfieldGround', 'placement/invalid-ground');
    checkArrayArg(options.heights, 'new HeightfieldGround', 'heights');
    const { columns, rows, cellSize } = options;
    const originX = options.originX ?? 0;
    const originZ = options.originZ ?? 0;
    if (!(Number.isInteger(columns) && columns >= 2 && Number.isInteger(rows) && rows >= 2)) {
      throw new TendonError(
        'placement/invalid-ground',
        `HeightfieldGround: ${columns} × ${rows} samples; at least 2 × 2`,
      );
    }
    if (
      !(cellSize > 0 && Number.isFinite(cellSize) && Number.isFinite(originX) && Number.isFinite(originZ))
    ) {
      throw new TendonError(
        'placement/invalid-ground',
        'HeightfieldGround: cellSize must be > 0 and the origin finite',
      );
    }
    if (options.heights?.length !== columns * rows) {
      throw new TendonError(
        'placement/invalid-ground',
        `HeightfieldGround: ${options.heights?.length} heights for ${columns} × ${rows} samples`,
      );
    }
    this.heights = Float64Array.from(options.heights);
    const bad = this.heights.findIndex((h) => !Number.isFinite(h));
    if (bad >= 0) {
      throw new TendonError(
        'placement/invalid-ground',
        `HeightfieldGround: heights[${bad}] is ${this.heights[bad]}`,
      );
    }
    this.columns = columns;
    this.rows = rows;
    this.frame[0] = originX;
    this.frame[1] = originZ;
    this.frame[2] = cellSize;
  }

  /**
   * The bilinear height at world `(x, z)`, or NaN outside the grid.
   *
   * @throws {@link TendonError} `argument/invalid` for an `x` or `z` that is not a finite number
   *   (its NaN would read as outside the grid).
   */
  heightAt(x: number, z: number): number {
    if (typeof x !== 'number' || typeof z !== 'number' || !(x - x + (z - z) === 0)) {
      throw new TendonError(
        'argument/invalid',
        `HeightfieldGround.heightAt: (${String(x)}, ${String(z)}) is not two finite numbers`,
      );
    }
    const u = (x - this.frame[0]) / this.frame[2];
    const v = (z - this.frame[1]) / this.frame[2];
    if (!(u >= 0 && v >= 0 && u <= this.columns - 1 && v <= this.rows - 1)) return Number.NaN;
    const i = u >= this.columns - 1 ? this.columns - 2 : Math.floor(u);
    const j = v >= this.rows - 1 ? this.rows - 2 : Math.floor(v);
    const fu = u - i;
    const fv = v - j;
    const h = this.heights;
    const o = j * this.columns + i;
    const a = h[o];
    const b = h[o + 1] - a;
    const c = h[o + this.columns] - a;
    const d = h[o + this.columns + 1] - h[o + 1] - h[o + this.columns] + a;
    return a + b * fu + c * fv + d * fu * fv;
  }

  /** See {@link Ground.raycast}. */
  raycast(ray: Float64Array, hit: Float64Array): boolean {
    checkRaycastArgs(ray, hit, 'HeightfieldGround');
    const x0 = this.frame[0];
    const z0 = this.frame[1];
    const cs = this.frame[2];
    // In cell units: u along x, v along z, heights unscaled.
    const ou = (ray[RAY.origin] - x0) / cs;
    const oy = ray[RAY.origin + 1];
    const ov = (ray[RAY.origin + 2] - z0) / cs;
    const du = ray[RAY.direction] / cs;
    const dy = ray[RAY.direction + 1];
    const dv = ray[RAY.direction + 2] / cs;
    const maxT = ray[RAY.maxDistance];
    const cols = this.columns;
    const rows = this.rows;
    // Clip the ray's parameter range to the grid's [0, cols−1] × [0, rows−1].
    let tMin = 0;
    let tMax = maxT;
    if (du === 0) {
      if (!(ou >= 0 && ou <= cols - 1)) return false;
    } else {
      const ta = -ou / du;
      const tb = (cols - 1 - ou) / du;
      tMin = Math.max(tMin, Math.min(ta, tb));
      tMax = Math.min(tMax, Math.max(ta, tb));
    }
    if (dv === 0) {
      if (!(ov >= 0 && ov <= rows - 1)) return false;
    } else {
      const ta = -ov / dv;
      const tb = (rows - 1 - ov) / dv;
      tMin = Math.max(tMin, Math.min(ta, tb));
      tMax = Math.min(tMax, Math.max(ta, tb));
    }
    if (!(tMin <= tMax)) return false;
    // Walk the cells from tMin to tMax (2-D DDA), stepping whole cells so that rounding at a cell
    // boundary can never hold the walk in place; a vertical ray stays in one cell.
    let i = Math.floor(ou + tMin * du);
    let j = Math.floor(ov + tMin * dv);
    if (du < 0 && ou + tMin * du === i) i--;
    if (dv < 0 && ov + tMin * dv === j) j--;
    i = i < 0 ? 0 : i > cols - 2 ? cols - 2 : i;
    j = j < 0 ? 0 : j > rows - 2 ? rows - 2 : j;
    const stepI = du > 0 ? 1 : du < 0 ? -1 : 0;
    const stepJ = dv > 0 ? 1 : dv < 0 ? -1 : 0;
    let t = tMin;
    while (true) {
      const tNextU = stepI === 0 ? Number.POSITIVE_INFINITY : (i + (stepI > 0 ? 1 : 0) - ou) / du;
      const tNextV = stepJ === 0 ? Number.POSITIVE_INFINITY : (j + (stepJ > 0 ? 1 : 0) - ov) / dv;
      const tExit = Math.min(tNextU, tNextV, tMax);
      const c = this.cell;
      c[0] = ou;
      c[1] = oy;
      c[2] = ov;
      c[3] = du;
      c[4] = dy;
      c[5] = dv;
      c[6] = t;
      c[7] = tExit;
      if (this.hitCell(i, j, ray, hit)) return true;
      if (tExit >= tMax) return false;
      if (tNextU <= tNextV) i += stepI;
      if (tNextV <= tNextU) j += stepJ;
      if (i < 0 || j < 0 || i > cols - 2 || j > rows - 2) return false;
      t = tExit;
    }
  }

  /**
   * The ray against the bilinear patch of cell (i, j), for t in [t0, t1]; the ray in cell units and
   * the range are read from {@link HeightfieldGround.cell} (numbers passed as arguments to a call
   * that is not inlined would be boxed: allocated).
   */
  private hitCell(i: number, j: number, ray: Float64Array, hit: Float64Array): boolean {
    const cell = this.cell;
    const ou = cell[0];
    const oy = cell[1];
    const ov = cell[2];
    const du = cell[3];
    const dy = cell[4];
    const dv = cell[5];
    const t0 = cell[6];
    const t1 = cell[7];
    const h = this.heights;
    const o = j * this.columns + i;
    const a = h[o];
    const b = h[o + 1] - a;
    const c = h[o + this.columns] - a;
    const d = h[o + this.columns + 1] - h[o + 1] - h[o + this.columns] + a;
    // f(t) = y(t) − height(u(t), v(t)) = A t² + B t + C, with local u' = u − i, v' = v − j.
    const pu = ou - i;
    const pv = ov - j;
    const A = -d * du * dv;
    const B = dy - b * du - c * dv - d * (pu * dv + pv * du);
    const C = oy - a - b * pu - c * pv - d * pu * pv;
    let t = Number.NaN;
    if (A === 0) {
      if (B !== 0) t = -C / B;
    } else {
      const disc = B * B - 4 * A * C;
      if (disc >= 0) {
        const sq = Math.sqrt(disc);
        // The stable pair of roots; take the smaller one in range.
        const q = B >= 0 ? -0.5 * (B + sq) : -0.5 * (B - sq);
        const r1 = q / A;
        const r2 = q !== 0 ? C / q : r1;
        const lo = r1 < r2 ? r1 : r2;
        const hi = r1 < r2 ? r2 : r1;
        t = lo >= t0 && lo <= t1 ? lo : hi;
      }
    }
    // A root a rounding error outside the cell still belongs to it.
    const slack = 1e-12 * (1 + Math.abs(t1));
    if (!(t >= t0 - slack && t <= t1 + slack)) return false;
    if (t < 0) t = 0;
    const fu = pu + t * du;
    const fv = pv + t * dv;
    const cs = this.frame[2];
    // Gradient of the bilinear height per world unit; the normal is (−∂h/∂x, 1, −∂h/∂z).
    let nx = -(b + d * fv) / cs;
    let ny = 1;
    let nz = -(c + d * fu) / cs;
    const inv = 1 / Math.sqrt(nx * nx + 1 + nz * nz);
    nx *= inv;
    ny *= inv;
    nz *= inv;
    if (!(nx * nx + ny * ny + nz * nz > 0.5)) {
      // Cells so small (1e-160) that the gradient's square overflows: (−Δh, cell, −Δh') scaled
      // by its largest part first (the normal was 0, or NaN at 5e-324).
      const g = gradient;
      g[0] = -(b + d * fv);
      g[1] = cs;
      g[2] = -(c + d * fu);
      if (normalizeScaled(g, 0, g, 0)) {
        nx = g[0];
        ny = g[1];
        nz = g[2];
      }
    }
    if (nx * ray[RAY.direction] + ny * dy + nz * ray[RAY.direction + 2] > 0) {
      nx = -nx;
      ny = -ny;
      nz = -nz;
    }
    hit[HIT.point] = ray[RAY.origin] + t * ray[RAY.direction];
    hit[HIT.point + 1] = oy + t * dy;
    hit[HIT.point + 2] = ray[RAY.origin + 2] + t * ray[RAY.direction + 2];
    hit[HIT.normal] = nx;
    hit[HIT.normal + 1] = ny;
    hit[HIT.normal + 2] = nz;
    hit[HIT.distance] = t;
    return true;
  }
}
