/**
 * The side-scroller: the robot walks and runs over uneven ground with its feet planted, climbs a
 * ladder onto a cliff, and looks at the pointer. tendon samples the clips, places the feet, climbs
 * and turns the head, then writes the skinning palette straight into three.js (tendon/three's
 * Mode 2). window.tendonDemo exposes the numbers the browser test reads.
 */
import {
  AmbientLight,
  BufferAttribute,
  BufferGeometry,
  Color,
  CylinderGeometry,
  DirectionalLight,
  Group,
  Mesh,
  MeshStandardMaterial,
  PerspectiveCamera,
  Plane,
  Raycaster,
  Scene,
  Vector2,
  Vector3,
  WebGLRenderer,
} from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import {
  CLIMB_LIMB,
  type Clip,
  type ContactTrack,
  computeContacts,
  cosSinOfAngle,
  FootPlacement,
  findRig,
  forwardKinematics,
  importGltf,
  LadderClimb,
  LookAt,
  Mixer,
  ProfileGround,
} from '../src/index.js';
import { bindThreeSkeleton } from '../src/three/index.js';

const SCALE = 0.5; // the robot is 3 units tall: 1.5 m
const LADDER_X = 14; // the ladder's foot, against the cliff
const RUNGS = 10;
const SPACING = 0.3;
const TOP = SPACING + RUNGS * SPACING; // the cliff's height: the ladder's top

/** The terrain along +X: flat, a 20° slope up and down, 15 cm steps, sine bumps, the cliff. */
function terrainPoints(): number[] {
  const tan20 = 0.36397023426620234;
  const p: number[] = [-60, 0, -2, 0, 1, 3 * tan20, 2, 3 * tan20, 5, 0];
  let y = 0;
  for (let k = 0; k < 6; k++) {
    // Three 15 cm steps up, then three down.
    const s = (k < 3 ? 6 : 6.6) + k * 0.6;
    const next = y + (k < 3 ? 0.15 : -0.15);
    p.push(s, y, s, next);
    y = next;
  }
  // Bumps, 10 cm high, 1.6 m long, from tendon's own sine (the same numbers on every engine).
  for (let k = 0; k <= 32; k++) {
    const x = 10.5 + 0.1 * k;
    p.push(x, 0.1 * cosSinOfAngle(((x - 10.5) * 2 * Math.PI) / 1.6)[1]);
  }
  p.push(14.3, 0, 14.3, TOP, 60, TOP);
  return p;
}

const points = terrainPoints();
const ground = new ProfileGround([1, 0], points);

function terrainMesh(): Mesh {
  const positions: number[] = [];
  for (let i = 0; i + 3 < points.length; i += 2) {
    const [x0, y0, x1, y1] = [points[i], points[i + 1], points[i + 2], points[i + 3]];
    // A strip from z = −3 to z = 1.5, and a skirt down to y = −2.
    positions.push(x0, y0, -3, x0, y0, 1.5, x1, y1, 1.5, x0, y0, -3, x1, y1, 1.5, x1, y1, -3);
    positions.push(x0, y0, 1.5, x0, -2, 1.5, x1, -2, 1.5, x0, y0, 1.5, x1, -2, 1.5, x1, y1, 1.5);
  }
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(new Float32Array(positions), 3));
  geometry.computeVertexNormals();
  return new Mesh(geometry, new MeshStandardMaterial({ color: 0x5d7a4a, flatShading: true, side: 2 }));
}

function ladderMesh(): Group {
  const group = new Group();
  const wood = new MeshStandardMaterial({ color: 0xa0703c });
  for (const z of [-0.225, 0.225]) {
    const rail = new Mesh(new CylinderGeometry(0.025, 0.025, TOP + 0.4, 8), wood);
    rail.position.set(LADDER_X, (TOP + 0.4) / 2, z);
    group.add(rail);
  }
  for (let r = 0; r < RUNGS; r++) {
    const rung = new Mesh(new CylinderGeometry(0.018, 0.018, 0.45, 8), wood);
    rung.rotation.x = Math.PI / 2;
    rung.position.set(LADDER_X, SPACING + r * SPACING, 0);
    group.add(rung);
  }
  return group;
}

interface Stats {
  /** True once a few frames have been drawn. */
  ready: boolean;
  state: 'walk' | 'climb';
  x: number;
  y: number;
  ik: boolean;
  ikMs: number;
  /** Mean and max sole–ground distance of planted feet (m), over the frames since the last reset. */
  footError: { mean: number; max: number; samples: number };
  /** The same on the animation without IK. */
  footErrorWithoutIk: { mean: number; max: number; samples: number };
  /** Largest distance of a gripping hand or foot from its rung (m). */
  gripError: { max: number; samples: number };
  climbProgress: number;
}

async function main(): Promise<void> {
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
  scene.add(terrainMesh(), ladderMesh());
  const camera = new PerspectiveCamera(45, window.innerWidth / window.innerHeight, 0.1, 200);

  const bytes = new Uint8Array(await (await fetch('RobotExpressive.glb')).arrayBuffer());
  const gltf = await new GLTFLoader().parseAsync(bytes.buffer.slice(0) as ArrayBuffer, '');
  scene.add(gltf.scene);
  const imported = await importGltf(bytes, { source: 'RobotExpressive.glb' });
  const { skeleton, clips } = imported.skeletons[0];
  const robot = bindThreeSkeleton(gltf.scene, { skeleton }).useTendonPalette();
  const clip = (name: string) => clips.find((c) => c.name === name) as Clip;
  const rig = findRig(skeleton);
  const tracks = new Map<Clip, ContactTrack>(
    ['Walking', 'Running'].map((n) => [clip(n), computeContacts(clip(n), rig.legs)]),
  );
  const mixer = new Mixer(skeleton);
  const idle = mixer.addLayer({ clip: clip('Idle'), weight: 1 });
  const walk = mixer.addLayer({ clip: clip('Walking'), weight: 0 });
  const run = mixer.addLayer({ clip: clip('Running'), weight: 0 });
  const placement = new FootPlacement(skeleton, rig, { ground });
  const look = new LookAt(skeleton, rig);
  // On the ladder only the neck and head turn: a turning torso would take the hands off the rungs.
  const lookClimbing = new LookAt(skeleton, rig, {
    joints: [...rig.neck, rig.head],
    shares: [...rig.neck.map(() => 0.4), 1],
  });
  const climb = new LadderClimb(skeleton, rig, {
    ladder: { bottom: [LADDER_X, 0, 0], facing: [-1, 0], rungCount: RUNGS, spacing: SPACING },
    scale: SCALE,
  });
  const pose = robot.pose;
  const model = robot.model;
  const world = new Float64Array(16);
  const velocity = new Float64Array(3);
  const target = new Float64Array([2, 1.4, 2]);
  const keys = new Set<string>();
  let state: Stats['state'] = 'walk';
  let x = -4;
  let y = 0;
  let facing = 1; // +1 right, −1 left
  let speed = 0;
  let ikOn = true;
  let ikMs = 0;
  const error = { sum: 0, max: 0, samples: 0 };
  const errorWithout = { sum: 0, max: 0, samples: 0 };
  const grip = { max: 0, samples: 0 };

  addEventListener('keydown', (e) => {
    keys.add(e.code);
    if (e.code === 'KeyI') {
      ikOn = !ikOn;
      placement.setWeight(ikOn ? 1 : 0, 0.3);
      look.setWeight(ikOn ? 1 : 0, 0.3);
      lookClimbing.setWeight(ikOn ? 1 : 0, 0.3);
    }
  });
  addEventListener('keyup', (e) => keys.delete(e.code));
  const pointer = new Vector2();
  const raycaster = new Raycaster();
  const plane = new Plane(new Vector3(0, 0, 1), -0.8);
  const hitPoint = new Vector3();
  let pointerSeen = false;
  addEventListener('pointermove', (e) => {
    pointerSeen = true;
    pointer.set((e.clientX / innerWidth) * 2 - 1, -(e.clientY / innerHeight) * 2 + 1);
    raycaster.setFromCamera(pointer, camera);
    if (raycaster.ray.intersectPlane(plane, hitPoint)) target.set([hitPoint.x, hitPoint.y, hitPoint.z]);
  });
  addEventListener('resize', () => {
    camera.aspect = innerWidth / innerHeight;
    camera.updateProjectionMatrix();
    renderer.setSize(innerWidth, innerHeight);
  });

  const placeRoot = () => {
    // Model +Z (the robot's forward) onto ±X, uniform scale, origin on the ground.
    world.fill(0);
    world[0] = 0;
    world[2] = -facing * SCALE;
    world[5] = SCALE;
    world[8] = facing * SCALE;
    world[10] = 0;
    world[12] = x;
    world[13] = y;
    world[14] = 0;
    world[15] = 1;
  };

  const panel = document.getElementById('panel') as HTMLElement;
  let last = performance.now();
  let frames = 0;
  const frame = (now: number) => {
    frames++;
    // rAF timestamps can precede the performance.now() taken before the first frame.
    const dt = Math.max(0, Math.min(0.05, (now - last) / 1000));
    last = now;
    const left = keys.has('KeyA') || keys.has('ArrowLeft');
    const right = keys.has('KeyD') || keys.has('ArrowRight');
    const up = keys.has('KeyW') || keys.has('ArrowUp');
    const down = keys.has('KeyS') || keys.has('ArrowDown');
    const running = keys.has('ShiftLeft') || keys.has('ShiftRight');
    if (state === 'walk') {
      // The ladder: at its foot pressing up, or at the cliff's edge above it pressing down.
      if (up && Math.abs(x - (LADDER_X - 0.25)) < 0.6 && y < 0.5) {
        state = 'climb';
        climb.progress = climb.start;
      } else if (down && Math.abs(x - (LADDER_X + 0.5)) < 0.6 && y > TOP - 0.5) {
        state = 'climb';
        climb.progress = climb.end;
      }
    }
    // Until the pointer moves, the robot looks where it goes.
    if (!pointerSeen) target.set([x + facing * 3, y + 1.2, 0.5]);
    let t0 = 0;
    if (state === 'walk') {
      const want = right ? 1 : left ? -1 : 0;
      if (want !== 0) facing = want;
      const goal = want === 0 ? 0 : running ? 2 : 1;
      speed += (goal - speed) * Math.min(1, dt * 6);
      idle.weight = Math.max(0, 1 - speed);
      walk.weight = Math.max(0, 1 - Math.abs(speed - 1));
      run.weight = Math.max(0, speed - 1);
      mixer.advance(dt);
      mixer.evaluate(pose);
      forwardKinematics(pose, model);
      // Travel at the dominant clip's ground speed, so planted feet stay still.
      const layer = run.weight > walk.weight ? run : walk;
      const track = tracks.get(layer.clip) as ContactTrack;
      track.groundVelocityAt(layer.time, velocity, 0);
      const travel = -velocity[2] * SCALE * Math.min(1, speed);
      x += facing * travel * dt;
      if (x > LADDER_X - 0.25 && y < 0.5) x = LADDER_X - 0.25; // the cliff
      const groundY = ground.heightAt(x);
      y += (groundY - y) * Math.min(1, dt * 10);
      placeRoot();
      t0 = performance.now();
      placement.setContactTrack(speed > 0.05 ? track : null);
      if (speed <= 0.05) {
        placement.contactWeights.fill(1);
        placement.planted.fill(1);
      }
      measureFeet(errorWithout);
      placement.solve(pose, model, world, dt, layer.time);
      look.solve(pose, model, target, world, dt);
      ikMs += (performance.now() - t0 - ikMs) * 0.1;
      measureFeet(error);
    } else {
      idle.weight = 1;
      walk.weight = 0;
      run.weight = 0;
      mixer.advance(dt);
      mixer.evaluate(pose);
      forwardKinematics(pose, model);
      t0 = performance.now();
      climb.update(pose, model, (up ? 1 : down ? -1 : 0) * 1.5 * dt);
      world.set(climb.world);
      lookClimbing.solve(pose, model, target, world, dt);
      ikMs += (performance.now() - t0 - ikMs) * 0.1;
      x = world[12];
      y = world[13];
      for (let i = 0; i < 4; i++) {
        const r = CLIMB_LIMB.length * i;
        if (climb.report[r + CLIMB_LIMB.gripping] !== 1) continue;
        const joint = i % 2 === 0 ? climb.limbs[i].end : rig.legs[i === 1 ? 0 : 1].foot;
        const p = worldPoint(joint);
        grip.max = Math.max(
          grip.max,
          Math.hypot(p[0] - climb.report[r], p[1] - climb.report[r + 1], p[2] - climb.report[r + 2]),
        );
        grip.samples++;
      }
      if (climb.progress <= climb.start && down) state = 'walk';
      if (climb.progress >= climb.end && up) {
        state = 'walk';
        x = LADDER_X + 0.6;
        y = TOP;
      }
    }
    // Render: the robot's root where the world matrix says, tendon's palette into three.
    gltf.scene.matrixAutoUpdate = false;
    gltf.scene.matrix.fromArray(world);
    gltf.scene.matrixWorldNeedsUpdate = true;
    scene.updateMatrixWorld();
    robot.readRootWorld();
    robot.writeBoneMatrices();
    camera.position.set(x, y + 1.6, 7.5);
    camera.lookAt(x, y + 0.9, 0);
    renderer.render(scene, camera);
    panel.textContent = `${state}  IK ${ikOn ? 'on' : 'off'} (I)  IK ${ikMs.toFixed(3)} ms/frame  foot–ground ${(100 * (error.samples ? error.sum / error.samples : 0)).toFixed(2)} cm mean, ${(100 * error.max).toFixed(2)} max`;
    requestAnimationFrame(frame);
  };

  function worldPoint(joint: number): number[] {
    const o = 16 * joint + 12;
    return [0, 1, 2].map(
      (k) => world[k] * model[o] + world[4 + k] * model[o + 1] + world[8 + k] * model[o + 2] + world[12 + k],
    );
  }

  /** Sole–ground distance of each planted foot: the foot joint above the ground by its planted height. */
  function measureFeet(into: { sum: number; max: number; samples: number }): void {
    for (let i = 0; i < rig.legs.length; i++) {
      if (placement.planted[i] !== 1 || speed <= 0.05) continue;
      const p = worldPoint(rig.legs[i].foot);
      const g = ground.heightAt(p[0]);
      const h = placementFootHeight(i);
      const e = Math.abs(p[1] - g - h);
      into.sum += e;
      into.max = Math.max(into.max, e);
      into.samples++;
    }
  }
  function placementFootHeight(i: number): number {
    const layer = run.weight > walk.weight ? run : walk;
    return (tracks.get(layer.clip) as ContactTrack).footHeights[i] * SCALE;
  }

  const w = window as unknown as { tendonDemo: unknown };
  w.tendonDemo = {
    stats: (): Stats => ({
      ready: frames > 3,
      state,
      x,
      y,
      ik: ikOn,
      ikMs,
      footError: {
        mean: error.samples ? error.sum / error.samples : 0,
        max: error.max,
        samples: error.samples,
      },
      footErrorWithoutIk: {
        mean: errorWithout.samples ? errorWithout.sum / errorWithout.samples : 0,
        max: errorWithout.max,
        samples: errorWithout.samples,
      },
      gripError: { max: grip.max, samples: grip.samples },
      climbProgress: climb.progress,
    }),
    resetStats: () => {
      error.sum = error.max = error.samples = 0;
      errorWithout.sum = errorWithout.max = errorWithout.samples = 0;
      grip.max = grip.samples = 0;
    },
    teleport: (to: number) => {
      x = to;
      y = ground.heightAt(to);
      placement.reset();
    },
  };
  requestAnimationFrame(frame);
}

main().catch((error: unknown) => {
  const panel = document.getElementById('panel');
  if (panel)
    panel.textContent = `The demo could not start: ${error instanceof Error ? error.message : String(error)}`;
  console.error(error);
});
