/**
 * What the demo pages share: the three.js stage, the uneven terrain the characters walk over, a
 * stick figure drawn from tendon's model matrices, a clip made in-place for a character
 * controller, and the message a page shows when something it was given cannot be used.
 */
import {
  AmbientLight,
  BoxGeometry,
  BufferAttribute,
  BufferGeometry,
  Color,
  DirectionalLight,
  Group,
  Mesh,
  MeshStandardMaterial,
  PerspectiveCamera,
  Scene,
  SphereGeometry,
  Vector3,
  WebGLRenderer,
} from 'three';
import {
  Clip,
  cosSinOfAngle,
  type Interpolation,
  isTendonError,
  ProfileGround,
  type RawTrack,
  type Skeleton,
  type TrackPath,
} from '../src/index.js';

export interface Stage {
  readonly renderer: WebGLRenderer;
  readonly scene: Scene;
  readonly camera: PerspectiveCamera;
}

/** A renderer filling the window (below the nav bar's overlay), a lit scene and a camera. */
export function createStage(): Stage {
  // preserveDrawingBuffer: the browser test reads the canvas' pixels after the frame is shown.
  const renderer = new WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(2, window.devicePixelRatio));
  renderer.setSize(window.innerWidth, window.innerHeight);
  document.body.appendChild(renderer.domElement);
  const scene = new Scene();
  scene.background = new Color(0x1d2330);
  scene.add(new AmbientLight(0xffffff, 0.6));
  const sun = new DirectionalLight(0xffffff, 1.6);
  sun.position.set(3, 8, 6);
  scene.add(sun);
  const camera = new PerspectiveCamera(45, window.innerWidth / window.innerHeight, 0.05, 500);
  addEventListener('resize', () => {
    camera.aspect = innerWidth / innerHeight;
    camera.updateProjectionMatrix();
    renderer.setSize(innerWidth, innerHeight);
  });
  return { renderer, scene, camera };
}

/** One stretch of the terrain, 16 m long, starting and ending at height 0. */
const STRETCH = 16;

/**
 * The side-scroller's kinds of ground along +X, repeated `stretches` times from x = 0: flat, a
 * slope up and down, three steps up and three down, sine bumps. The heights feed foot placement, so
 * the bumps come from tendon's own sine, not Math.sin: the same ground on every engine.
 */
export function terrainPoints(
  stretches: number,
  { slopeTan = 0.36397023426620234, step = 0.15, bump = 0.1 } = {},
): number[] {
  const p: number[] = [-30, 0];
  for (let r = 0; r < stretches; r++) {
    const o = r * STRETCH;
    // Flat for 3 m; a slope up over 3 m, a 1 m top, down over 3 m.
    p.push(o + 3, 0, o + 6, 3 * slopeTan, o + 7, 3 * slopeTan, o + 10, 0);
    // Steps: three up and three down, each tread 0.6 m.
    let y = 0;
    for (let k = 0; k < 6; k++) {
      const s = o + 10.6 + k * 0.6;
      const next = y + (k < 3 ? step : -step);
      p.push(s, y, s, next);
      y = next;
    }
    // Bumps over 1.6 m, then flat to the stretch's end.
    for (let k = 0; k <= 16; k++) {
      const x = o + 14.2 + 0.1 * k;
      p.push(x, bump * cosSinOfAngle(((x - o - 14.2) * 2 * Math.PI) / 1.6)[1]);
    }
  }
  p.push(stretches * STRETCH + 30, 0);
  return p;
}

/** The length of the terrain `terrainPoints(stretches)` lays out. */
export function terrainLength(stretches: number): number {
  return stretches * STRETCH;
}

/** A ground along +X and the mesh that shows it (a strip from z = −depth to z = +depth). */
export function terrain(points: readonly number[], depth = 1.5): { ground: ProfileGround; mesh: Mesh } {
  const positions: number[] = [];
  for (let i = 0; i + 3 < points.length; i += 2) {
    const [x0, y0, x1, y1] = [points[i], points[i + 1], points[i + 2], points[i + 3]];
    // The top strip, and a skirt down to y = −2 on the camera's side.
    positions.push(
      x0,
      y0,
      -depth,
      x0,
      y0,
      depth,
      x1,
      y1,
      depth,
      x0,
      y0,
      -depth,
      x1,
      y1,
      depth,
      x1,
      y1,
      -depth,
    );
    positions.push(x0, y0, depth, x0, -2, depth, x1, -2, depth, x0, y0, depth, x1, -2, depth, x1, y1, depth);
  }
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(new Float32Array(positions), 3));
  geometry.computeVertexNormals();
  const mesh = new Mesh(geometry, new MeshStandardMaterial({ color: 0x5d7a4a, flatShading: true, side: 2 }));
  return { ground: new ProfileGround([1, 0], points), mesh };
}

/**
 * A skeleton drawn as boxes between joints and balls at joints, placed each frame from tendon's
 * model matrices and a model-to-world matrix. Only the drawing uses three.js' math.
 */
export class StickFigure {
  readonly group = new Group();
  private readonly bones: Mesh[] = [];
  private readonly balls: Mesh[] = [];
  private readonly a = new Vector3();
  private readonly b = new Vector3();
  private readonly up = new Vector3(0, 1, 0);

  /**
   * @param thickness - the boxes' width, world units.
   * @param hidden - joints not drawn (a skeleton's helper nodes).
   */
  constructor(
    readonly skeleton: Skeleton,
    thickness: number,
    color = 0xe8c07a,
    readonly hidden: ReadonlySet<number> = new Set(),
  ) {
    const bone = new BoxGeometry(thickness, 1, thickness);
    bone.translate(0, 0.5, 0);
    const ball = new SphereGeometry(thickness * 0.9, 10, 8);
    const material = new MeshStandardMaterial({ color });
    const joints = new MeshStandardMaterial({ color: 0xdfe6f0 });
    for (let j = 0; j < skeleton.jointCount; j++) {
      const p = skeleton.parents[j];
      const box = new Mesh(bone, material);
      box.visible = p >= 0 && !hidden.has(j) && !hidden.has(p);
      this.bones.push(box);
      const sphere = new Mesh(ball, joints);
      sphere.visible = !hidden.has(j);
      this.balls.push(sphere);
      this.group.add(box, sphere);
    }
    this.group.matrixAutoUpdate = false;
  }

  /** Places every box and ball: `model` in the skeleton's model space, `world` to world space. */
  update(model: Float64Array, world: ArrayLike<number>): void {
    const parents = this.skeleton.parents;
    for (let j = 0; j < parents.length; j++) {
      worldPoint(model, j, world, this.a);
      this.balls[j].position.copy(this.a);
      const p = parents[j];
      if (p < 0) continue;
      worldPoint(model, p, world, this.b);
      const box = this.bones[j];
      box.position.copy(this.b);
      const length = this.a.distanceTo(this.b);
      box.scale.set(1, Math.max(length, 1e-6), 1);
      if (length > 1e-9) box.quaternion.setFromUnitVectors(this.up, this.a.sub(this.b).divideScalar(length));
    }
  }
}

/** Joint `j`'s position in world space. */
export function worldPoint(model: Float64Array, j: number, world: ArrayLike<number>, out: Vector3): Vector3 {
  const o = 16 * j + 12;
  const x = model[o];
  const y = model[o + 1];
  const z = model[o + 2];
  return out.set(
    world[0] * x + world[4] * y + world[8] * z + world[12],
    world[1] * x + world[5] * y + world[9] * z + world[13],
    world[2] * x + world[6] * y + world[10] * z + world[14],
  );
}

const PATHS: readonly TrackPath[] = ['translation', 'rotation', 'scale'];
const INTERPOLATIONS: readonly Interpolation[] = ['STEP', 'LINEAR', 'CUBICSPLINE'];

/**
 * `clip` with the straight-line travel of its root joint taken out: the line from the root's first
 * to its last key, in the horizontal plane. Motion capture travels; a character controller wants an
 * in-place clip whose feet move back at the ground's speed (computeContacts then measures that
 * speed and the walker travels at it). The hips keep their sway, and the loop does not jump back.
 * The root also starts over the origin.
 * A clip whose root travels less than `minTravel` (model units) is returned as it is.
 */
export function inPlace(clip: Clip, minTravel: number): Clip {
  const root = 0;
  let moved = false;
  const tracks: RawTrack[] = [];
  for (let i = 0; i < clip.trackCount; i++) {
    const keys = clip.keyCounts[i];
    const t0 = clip.timeOffsets[i];
    const v0 = clip.valueOffsets[i];
    const path = PATHS[clip.paths[i]];
    const stride = path === 'rotation' ? 4 : 3;
    const cubic = clip.interpolations[i] === 2;
    const times = clip.times.slice(t0, t0 + keys);
    const values = clip.values.slice(v0, v0 + stride * keys * (cubic ? 3 : 1));
    if (clip.targets[i] === root && path === 'translation' && !cubic && keys > 1) {
      const last = 3 * (keys - 1);
      const dx = values[last] - values[0];
      const dz = values[last + 2] - values[2];
      const span = times[keys - 1] - times[0];
      if (Math.sqrt(dx * dx + dz * dz) >= minTravel && span > 0) {
        moved = true;
        // Centred too: the root starts above the model's origin, where the controller puts it.
        const x0 = values[0];
        const z0 = values[2];
        for (let k = 0; k < keys; k++) {
          const f = (times[k] - times[0]) / span;
          values[3 * k] -= x0 + dx * f;
          values[3 * k + 2] -= z0 + dz * f;
        }
      }
    }
    tracks.push({
      joint: clip.targets[i],
      path,
      interpolation: INTERPOLATIONS[clip.interpolations[i]],
      times,
      values,
    });
  }
  return moved ? Clip.create(clip.skeleton, { name: clip.name, tracks, duration: clip.duration }) : clip;
}

/**
 * A model-to-world matrix (column-major): uniform `scale`, the model's `heading` (a horizontal unit
 * `[x, z]`) turned onto world +X, then moved to (x, y, z). Built from the heading's components
 * themselves, so no angle (and no Math.cos) is involved.
 */
export function headingMatrix(
  out: Float64Array,
  heading: readonly [number, number],
  scale: number,
  x: number,
  y: number,
  z: number,
): Float64Array {
  const [c, s] = heading;
  out.fill(0);
  out[0] = c * scale;
  out[2] = -s * scale;
  out[5] = scale;
  out[8] = s * scale;
  out[10] = c * scale;
  out[12] = x;
  out[13] = y;
  out[14] = z;
  out[15] = 1;
  return out;
}

/** `code: message` for a TendonError, the message for any other error. */
export function describeError(error: unknown): string {
  if (isTendonError(error)) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** Publishes the page's test hooks on `window.tendonDemo`. */
export function publish(api: object): void {
  (window as unknown as { tendonDemo: object }).tendonDemo = api;
}

/**
 * Real time cut into fixed steps of 1/60 s, at most 6 a frame (a slow frame slows the motion
 * rather than making a step coarse), as a game's fixed update: what a page measures does not
 * depend on its frame rate.
 */
export class FixedSteps {
  private pending = 0;

  /** How many steps of 1/60 s `dt` more seconds of real time make now. */
  take(dt: number): number {
    this.pending = Math.min(this.pending + dt, 6 / 60);
    let steps = 0;
    while (this.pending >= 1 / 60) {
      this.pending -= 1 / 60;
      steps++;
    }
    return steps;
  }
}
