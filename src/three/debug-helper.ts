/**
 * Lines that show what IK is doing: the skeleton, the solved chains, targets, poles, contacts,
 * ground hits and rungs.
 *
 * @packageDocumentation
 */
import { BufferAttribute, BufferGeometry, LineBasicMaterial, LineSegments } from 'three';
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
  private vertexCount = 0;

  /**
   * @throws {@link TendonError} `ik/invalid-joint` when a chain lists a joint the skeleton lacks,
   *   `ik/invalid-option` for a bad `maxMarkers` or `size`.
   */
  constructor(skeleton: Skeleton, options: IkDebugHelperOptions = {}) {
    const maxMarkers = options.maxMarkers ?? 32;
    if (!Number.isInteger(maxMarkers) || maxMarkers < 0) {
      throw new TendonError(
        'ik/invalid-option',
        `IkDebugHelper: maxMarkers ${maxMarkers} is not a whole number ≥ 0`,
      );
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
   * @throws {@link TendonError} `pose/buffer-size` when `model` does not hold 16 numbers per joint.
   */
  update(model: Float64Array, world: ArrayLike<number> | null = null, frame: IkDebugFrame = {}): void {
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
    const s = this.size;
    const max = this.maxMarkers;
    if (frame.targets !== undefined) this.crosses(frame.targets, 3, true, COLORS.target, s, max);
    if (frame.poles !== undefined) this.crosses(frame.poles, 3, true, COLORS.pole, s, max);
    if (frame.contacts !== undefined) this.crosses(frame.contacts, 3, false, COLORS.contact, s, max);
    if (frame.hits !== undefined) {
      const hits = frame.hits;
      const k = Math.min(Math.floor(hits.length / HIT.length), max);
      for (let i = 0; i < k; i++) {
        const o = i * HIT.length;
        const x = hits[o + HIT.point];
        const y = hits[o + HIT.point + 1];
        const z = hits[o + HIT.point + 2];
        this.cross(x, y, z, COLORS.hit, s);
        const l = 4 * s;
        this.vertex(x, y, z, COLORS.hit);
        this.vertex(
          x + l * hits[o + HIT.normal],
          y + l * hits[o + HIT.normal + 1],
          z + l * hits[o + HIT.normal + 2],
          COLORS.hit,
        );
      }
    }
    if (frame.rungs !== undefined) {
      const rungs = frame.rungs;
      const k = Math.min(Math.floor(rungs.length / 6), max);
      for (let i = 0; i < k; i++) {
        this.vertex(rungs[6 * i], rungs[6 * i + 1], rungs[6 * i + 2], COLORS.rung);
        this.vertex(rungs[6 * i + 3], rungs[6 * i + 4], rungs[6 * i + 5], COLORS.rung);
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
    for (let i = 0; i < pairs.length; i++) {
      const o = 16 * pairs[i];
      this.modelVertex(model[o + 12], model[o + 13], model[o + 14], color);
    }
  }

  private crosses(
    points: ArrayLike<number>,
    stride: number,
    modelSpace: boolean,
    color: readonly number[],
    s: number,
    max: number,
  ): void {
    const k = Math.min(Math.floor(points.length / stride), max);
    const w = this.world;
    for (let i = 0; i < k; i++) {
      let x = points[stride * i];
      let y = points[stride * i + 1];
      let z = points[stride * i + 2];
      if (modelSpace) {
        const px = x;
        const py = y;
        x = w[0] * px + w[4] * py + w[8] * z + w[12];
        y = w[1] * px + w[5] * py + w[9] * z + w[13];
        z = w[2] * px + w[6] * py + w[10] * z + w[14];
      }
      this.cross(x, y, z, color, s);
    }
  }

  private cross(x: number, y: number, z: number, color: readonly number[], s: number): void {
    this.vertex(x - s, y, z, color);
    this.vertex(x + s, y, z, color);
    this.vertex(x, y - s, z, color);
    this.vertex(x, y + s, z, color);
    this.vertex(x, y, z - s, color);
    this.vertex(x, y, z + s, color);
  }

  private modelVertex(x: number, y: number, z: number, color: readonly number[]): void {
    const w = this.world;
    this.vertex(
      w[0] * x + w[4] * y + w[8] * z + w[12],
      w[1] * x + w[5] * y + w[9] * z + w[13],
      w[2] * x + w[6] * y + w[10] * z + w[14],
      color,
    );
  }

  private vertex(x: number, y: number, z: number, color: readonly number[]): void {
    const i = 3 * this.vertexCount++;
    this.positions[i] = x;
    this.positions[i + 1] = y;
    this.positions[i + 2] = z;
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
