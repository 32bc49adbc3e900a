/**
 * Lines that show what IK is doing: the skeleton, the solved chains, targets, poles, contacts,
 * ground hits and rungs.
 *
 * @packageDocumentation
 */
import { BufferAttribute, BufferGeometry, LineBasicMaterial, LineSegments } from 'three';
import { checkArrayArg, checkFloat64Arg, checkSkeletonArg, optionsArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import { HIT } from '../placement/ground.js';
import { restModelMatrices } from '../pose/forward-kinematics.js';
import type { Skeleton } from '../skeleton/skeleton.js';

/** Set-up of an {@link IkDebugHelper}. */
export interface IkDebugHelperOptions {
  /**
   * Joint chains to highlight, each a list of joint indices drawn joint to joint (an IK limb:
   * `[hip, knee, ankle]`). Default none.
   */
  readonly chains?: readonly ArrayLike<number>[];
  /** Draw every joint-to-parent bone of the skeleton in grey. Default `true`. */
  readonly bones?: boolean;
  /** The most markers of each kind drawn per frame; further ones are not drawn. Default 32. */
  readonly maxMarkers?: number;
  /**
   * Half-size of a marker cross, in world units. Default 3 % of the diagonal of the rest
   * skeleton's box in model space (right when the world matrix does not scale).
   */
  readonly size?: number;
}

/**
 * What to mark in one frame, besides the skeleton. Targets and poles are in model space (as the
 * solvers take them); contacts, hits and rungs are in world space (as the ground gives them).
 */
export interface IkDebugFrame {
  /** IK targets, `3·k` model-space coordinates: red crosses. */
  readonly targets?: ArrayLike<number>;
  /** Pole (knee, elbow) targets, `3·k` model-space coordinates: magenta crosses. */
  readonly poles?: ArrayLike<number>;
  /** Planted contacts, `3·k` world-space coordinates: green crosses. */
  readonly contacts?: ArrayLike<number>;
  /**
   * Ground hits, `7·k` numbers in the {@link HIT} layout (point, normal, distance), world space:
   * cyan crosses with the normal drawn from the point.
   */
  readonly hits?: ArrayLike<number>;
  /** Rungs, `6·k` world-space numbers, each the two ends of a rung: yellow lines. */
  readonly rungs?: ArrayLike<number>;
}

const COLORS = {
  bone: [0.6, 0.6, 0.6],
  chain: [1, 0.5, 0],
  target: [1, 0.15, 0.15],
  pole: [1, 0, 1],
  contact: [0.2, 1, 0.2],
  hit: [0, 0.85, 1],
  rung: [1, 0.9, 0.2],
} as const;

/** Vertices per marker: a three-axis cross; a hit adds its normal. */
const CROSS = 6;
const HIT_VERTICES = CROSS + 2;

const FRAME_KEYS = ['targets', 'poles', 'contacts', 'hits', 'rungs'] as const;

/**
 * A `THREE.LineSegments` that draws a character's IK state, every buffer allocated once: call
 * {@link IkDebugHelper.update} each frame (no allocation) and add the helper to the scene at its
 * root (its vertices are in world space; it sets `matrixAutoUpdate` off and stays at identity).
 * Drawn on top of the scene (no depth test) and never frustum-culled.
 */
export class IkDebugHelper extends LineSegments<BufferGeometry, LineBasicMaterial> {
  /** The skeleton whose model matrices {@link update} reads. */
  readonly skeleton: Skeleton;
  /** Half-size of a marker, world units. */
  size: number;
  private readonly maxMarkers: number;
  private readonly bonePairs: Int32Array;
  private readonly chainPairs: Int32Array;
  private readonly positions: Float32Array;
  private readonly colors: Float32Array;
  private readonly world = new Float64Array(16);
  /** Scratch: a point in world space. */
  private readonly point = new Float64Array(3);
  /** Scratch: the two ends of a hit's normal line. */
  private readonly line = new Float64Array(6);
  private vertexCount = 0;

  /**
   * @throws {@link index!TendonError} `ik/invalid-joint` when a chain lists a joint the skeleton lacks,
   *   `ik/invalid-option` for a bad `maxMarkers` or `size`.
   */
  constructor(skeleton: Skeleton, options: IkDebugHelperOptions = {}) {
    checkSkeletonArg(skeleton, 'new IkDebugHelper');
    options = optionsArg(options, 'new IkDebugHelper');
    const maxMarkers = options.maxMarkers ?? 32;
    // A debug drawing of more than 10,000 markers of each kind is a mistake, not a picture.
    if (!Number.isInteger(maxMarkers) || maxMarkers < 0 || maxMarkers > 10_000) {
      throw new TendonError(
        'ik/invalid-option',
        `IkDebugHelper: maxMarkers ${maxMarkers} is not a whole number in 0..10000`,
      );
    }
    if (options.chains !== undefined) {
      checkArrayArg(options.chains, 'new IkDebugHelper', 'options.chains');
      options.chains.forEach((chain, i) => {
        checkArrayArg(chain, 'new IkDebugHelper', `options.chains[${i}]`);
      });
    }
    if (options.size !== undefined && !(options.size > 0 && Number.isFinite(options.size))) {
      throw new TendonError('ik/invalid-option', `IkDebugHelper: size ${options.size} is not > 0`);
    }
    const bones: number[] = [];
    if (options.bones !== false) {
      for (let j = 0; j < skeleton.jointCount; j++) {
        if (skeleton.parents[j] >= 0) bones.push(skeleton.parents[j], j);
      }
    }
    const chains: number[] = [];
    for (const chain of options.chains ?? []) {
      for (let i = 0; i < chain.length; i++) {
        const j = chain[i];
        if (!Number.isInteger(j) || j < 0 || j >= skeleton.jointCount) {
          throw new TendonError(
            'ik/invalid-joint',
            `IkDebugHelper: chain joint ${j} is not in 0..${skeleton.jointCount - 1}`,
          );
        }
        if (i > 0) chains.push(chain[i - 1], j);
      }
    }
    const vertices = bones.length + chains.length + maxMarkers * (3 * CROSS + HIT_VERTICES + 2);
    const positions = new Float32Array(3 * vertices);
    const colors = new Float32Array(3 * vertices);
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(positions, 3));
    geometry.setAttribute('color', new BufferAttribute(colors, 3));
    geometry.setDrawRange(0, 0);
    super(geometry, new LineBasicMaterial({ vertexColors: true, depthTest: false, transparent: true }));
    this.skeleton = skeleton;
    this.maxMarkers = maxMarkers;
    this.bonePairs = Int32Array.from(bones);
    this.chainPairs = Int32Array.from(chains);
    this.positions = positions;
    this.colors = colors;
    this.size = options.size ?? defaultSize(skeleton);
    this.frustumCulled = false;
    this.renderOrder = 999;
    this.matrixAutoUpdate = false;
    this.name = 'IkDebugHelper';
  }

  /**
   * Redraws from the model matrices `model` (16 per joint, from forward kinematics), the world
   * matrix of model space `world` (16 numbers, column-major, such as a binding's `rootWorld` or a
   * `Matrix4`'s `elements`; `null` for identity) and the markers of `frame`. Allocates nothing.
   *
   * @throws {@link index!TendonError} `pose/buffer-size` when `model` does not hold 16 numbers per joint.
   */
  update(model: Float64Array, world: ArrayLike<number> | null = null, frame: IkDebugFrame = {}): void {
    checkFloat64Arg(model, 'IkDebugHelper.update', 'the model buffer');
    if (world !== null) checkArrayArg(world, 'IkDebugHelper.update', 'the world matrix', 16);
    frame = optionsArg(frame, 'IkDebugHelper.update');
    // Indexed: this runs every frame, and a for-of iterator is not always optimized away.
    for (let k = 0; k < FRAME_KEYS.length; k++) {
      const key = FRAME_KEYS[k];
      const value = frame[key];
      // The message is built only on the way out: a template string per frame would allocate.
      if (value !== undefined && !(Array.isArray(value) || ArrayBuffer.isView(value))) {
        checkArrayArg(value, 'IkDebugHelper.update', `frame.${key}`);
      }
    }
    if (model.length !== 16 * this.skeleton.jointCount) {
      throw new TendonError(
        'pose/buffer-size',
        `IkDebugHelper.update: the model buffer holds ${model.length} numbers; expected ${16 * this.skeleton.jointCount}`,
      );
    }
    const w = this.world;
    if (world === null) {
      w.fill(0);
      w[0] = w[5] = w[10] = w[15] = 1;
    } else {
      for (let i = 0; i < 16; i++) w[i] = world[i];
    }
    this.vertexCount = 0;
    this.jointLines(model, this.bonePairs, COLORS.bone);
    this.jointLines(model, this.chainPairs, COLORS.chain);
    // Numbers reach the private drawers as an array and an index, never as arguments: V8 boxes a
    // double passed to a call it does not inline, and this runs every frame.
    this.crosses(frame.targets, true, COLORS.target);
    this.crosses(frame.poles, true, COLORS.pole);
    this.crosses(frame.contacts, false, COLORS.contact);
    const max = this.maxMarkers;
    const hits = frame.hits;
    if (hits !== undefined) {
      const k = Math.min(Math.floor(hits.length / HIT.length), max);
      const line = this.line;
      for (let i = 0; i < k; i++) {
        const o = i * HIT.length;
        this.cross(hits, o + HIT.point, false, COLORS.hit);
        const l = 4 * this.size;
        for (let c = 0; c < 3; c++) {
          line[c] = hits[o + HIT.point + c];
          line[3 + c] = line[c] + l * hits[o + HIT.normal + c];
        }
        this.vertex(line, 0, COLORS.hit);
        this.vertex(line, 3, COLORS.hit);
      }
    }
    const rungs = frame.rungs;
    if (rungs !== undefined) {
      const k = Math.min(Math.floor(rungs.length / 6), max);
      for (let i = 0; i < k; i++) {
        this.vertex(rungs, 6 * i, COLORS.rung);
        this.vertex(rungs, 6 * i + 3, COLORS.rung);
      }
    }
    const geometry = this.geometry;
    geometry.setDrawRange(0, this.vertexCount);
    (geometry.attributes.position as BufferAttribute).needsUpdate = true;
    (geometry.attributes.color as BufferAttribute).needsUpdate = true;
  }

  /** Frees the geometry and material (they are this helper's own), then does what three's does. */
  override dispose(): void {
    this.geometry.dispose();
    this.material.dispose();
    super.dispose();
  }

  private jointLines(model: Float64Array, pairs: Int32Array, color: readonly number[]): void {
    const p = this.point;
    const w = this.world;
    for (let i = 0; i < pairs.length; i++) {
      const o = 16 * pairs[i];
      const x = model[o + 12];
      const y = model[o + 13];
      const z = model[o + 14];
      p[0] = w[0] * x + w[4] * y + w[8] * z + w[12];
      p[1] = w[1] * x + w[5] * y + w[9] * z + w[13];
      p[2] = w[2] * x + w[6] * y + w[10] * z + w[14];
      this.vertex(p, 0, color);
    }
  }

  /** A cross at each point of `points` (3 numbers each), up to `maxMarkers`. */
  private crosses(
    points: ArrayLike<number> | undefined,
    modelSpace: boolean,
    color: readonly number[],
  ): void {
    if (points === undefined) return;
    const k = Math.min(Math.floor(points.length / 3), this.maxMarkers);
    for (let i = 0; i < k; i++) this.cross(points, 3 * i, modelSpace, color);
  }

  /** A three-axis cross about `points[o…o+2]` (moved to world space first when in model space). */
  private cross(points: ArrayLike<number>, o: number, modelSpace: boolean, color: readonly number[]): void {
    const p = this.point;
    const x = points[o];
    const y = points[o + 1];
    const z = points[o + 2];
    if (modelSpace) {
      const w = this.world;
      p[0] = w[0] * x + w[4] * y + w[8] * z + w[12];
      p[1] = w[1] * x + w[5] * y + w[9] * z + w[13];
      p[2] = w[2] * x + w[6] * y + w[10] * z + w[14];
    } else {
      p[0] = x;
      p[1] = y;
      p[2] = z;
    }
    const s = this.size;
    for (let axis = 0; axis < 3; axis++) {
      for (let side = -1; side <= 1; side += 2) {
        const i = 3 * this.vertexCount++;
        for (let c = 0; c < 3; c++) {
          this.positions[i + c] = c === axis ? p[c] + side * s : p[c];
          this.colors[i + c] = color[c];
        }
      }
    }
  }

  /** One vertex at `source[o…o+2]`. */
  private vertex(source: ArrayLike<number>, o: number, color: readonly number[]): void {
    const i = 3 * this.vertexCount++;
    this.positions[i] = source[o];
    this.positions[i + 1] = source[o + 1];
    this.positions[i + 2] = source[o + 2];
    this.colors[i] = color[0];
    this.colors[i + 1] = color[1];
    this.colors[i + 2] = color[2];
  }
}

function defaultSize(skeleton: Skeleton): number {
  const model = restModelMatrices(skeleton);
  let minX = Number.POSITIVE_INFINITY;
  let minY = minX;
  let minZ = minX;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = maxX;
  let maxZ = maxX;
  for (let j = 0; j < skeleton.jointCount; j++) {
    const x = model[16 * j + 12];
    const y = model[16 * j + 13];
    const z = model[16 * j + 14];
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    minZ = Math.min(minZ, z);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
    maxZ = Math.max(maxZ, z);
  }
  const dx = maxX - minX;
  const dy = maxY - minY;
  const dz = maxZ - minZ;
  const diagonal = Math.sqrt(dx * dx + dy * dy + dz * dz);
  return diagonal > 0 ? 0.03 * diagonal : 0.05;
}
