/**
 * The side-scroller: the robot walks and runs over uneven ground with its feet planted, jumps,
 * climbs a ladder onto a cliff, hangs from a bar and moves along it hand over hand, and looks at the
 * pointer. tendon samples the clips, places the feet, climbs, hangs and turns the head, then writes
 * the skinning palette straight into three.js (tendon/three's Mode 2). window.tendonDemo exposes
 * the numbers the browser test reads.
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
  BarHang,
  CLIMB_LIMB,
  type Clip,
  type ContactTrack,
  computeContacts,
  cosSinOfAngle,
  FootPlacement,
  findRig,
  forwardKinematics,
  HANG_HAND,
  importGltf,
  LadderClimb,
  LookAt,
  Mixer,
  Pose,
  ProfileGround,
  SamplerContext,
  sampleClip,
} from '../src/index.js';
import { bindThreeSkeleton } from '../src/three/index.js';

const SCALE = 0.5; // the robot is 3 units tall: 1.5 m
/** Offsets along x (metres) at which measureFeet samples the ground around a foot. */
const NEAR = [0, 0.002, -0.002, 0.005, -0.005, 0.01, -0.01];
const LADDER_X = 14; // the ladder's foot, against the cliff
const RUNGS = 10;
const SPACING = 0.3;
const TOP = SPACING + RUNGS * SPACING; // the cliff's height: the ladder's top
const GRAVITY = 9.81;
const JUMP_SPEED = 3.6; // m/s up: a 66 cm jump, 0.73 s in the air
/** The bar on the cliff: its ends' x, and how high the robot's feet hang above the ground. */
const BAR_X0 = 17;
const BAR_X1 = 21;
const BAR_CLEARANCE = 0.45;
const HANG_SPEED = 0.6; // m/s along the bar
/** The Jump clip's take-off, top and landing (s): the air part is stretched over the real flight. */
const CLIP_TAKEOFF = 0.17;
const CLIP_TOP = 0.35;
const CLIP_LAND = 0.5;

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

function barMesh(y: number): Group {
  const group = new Group();
  const steel = new MeshStandardMaterial({ color: 0xb8c0cc, metalness: 0.6, roughness: 0.4 });
  const bar = new Mesh(new CylinderGeometry(0.02, 0.02, BAR_X1 - BAR_X0 + 0.1, 12), steel);
  bar.rotation.z = Math.PI / 2;
  bar.position.set((BAR_X0 + BAR_X1) / 2, y, 0);
  group.add(bar);
  for (const x of [BAR_X0 - 0.05, BAR_X1 + 0.05]) {
    const post = new Mesh(new CylinderGeometry(0.03, 0.03, y - TOP + 0.05, 8), steel);
    post.position.set(x, (y + TOP) / 2, 0);
    group.add(post);
  }
  return group;
}

function ladderMesh(): Group {
  const group = new Group();
  const wood = new MeshStandardMaterial({ color: 0xa0703c });
  // The rails rise 4 spacings over the last rung, as LadderClimb's hands climb them (railHeight).
  const rails = RUNGS * SPACING + 4 * SPACING;
  for (const z of [-0.225, 0.225]) {
    const rail = new Mesh(new CylinderGeometry(0.025, 0.025, rails, 8), wood);
    rail.position.set(LADDER_X, rails / 2, z);
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
  state: 'walk' | 'climb' | 'air' | 'hang';
  /** Feet off the ground: jumping, falling or hanging. */
  airborne: boolean;
  jumps: number;
  landings: number;
  /** Highest rise of the robot's root above its take-off height (m), since the last reset. */
  jumpHeight: number;
  /** Highest the lower foot got above the ground under it while in the air (m). */
  footLift: number;
  /** Largest frame-to-frame change of the rotation the IK adds to a limb's joint (degrees per 1/60 s). */
  ikStepDeg: number;
  /** Largest distance the pelvis moved in a frame (m per 1/60 s): 6 cm at the jump's speed. */
  pelvisStep: number;
  /** Where the largest pelvis step was. */
  pelvisStepAt: string;
  /** Where the largest IK step was: the joint, the state and the Jump clip's time. */
  ikStepAt: string;
  /** The bar: its ends' x and its height (m). */
  bar: { x0: number; x1: number; y: number };
  /** Largest distance of a gripping hand from the bar's axis while hanging (m), and the samples. */
  handBar: { max: number; samples: number };
  /** How far the robot has moved along the bar since it grabbed it (m). */
  hangMoved: number;
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
  const pointer = new Vector2();
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
  // The jump's time is set from the flight, not advanced by the mixer.
  const jump = mixer.addLayer({ clip: clip('Jump'), weight: 0, speed: 0, mode: 'clamp' });
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
  // From the right end to the left: BarHang faces across the bar to its left, here the camera.
  const hangAt = (y: number) =>
    new BarHang(skeleton, rig, { from: [BAR_X1, y, 0], to: [BAR_X0, y, 0], scale: SCALE });
  // How far the bar is above the origin of a robot hanging from it at rest, to put the bar where
  // the hanging feet clear the cliff by BAR_CLEARANCE.
  const trial = hangAt(0);
  const trialPose = new Pose(skeleton);
  const trialModel = new Float64Array(model.length);
  forwardKinematics(trialPose, trialModel);
  trial.update(trialPose, trialModel, 0);
  const barAboveOrigin = -trial.world[13];
  // The Jump clip's feet at its start, standing: its rise is measured from there.
  sampleClip(clip('Jump'), new SamplerContext(clip('Jump')), 0, trialPose);
  forwardKinematics(trialPose, trialModel);
  const restFootY = Math.min(trialModel[16 * rig.legs[0].foot + 13], trialModel[16 * rig.legs[1].foot + 13]);
  const barY = TOP + BAR_CLEARANCE + barAboveOrigin;
  scene.add(barMesh(barY));
  let hang = trial;
  /** After letting go of the bar, the arms come down from it over 0.2 s: 1 at the drop, then 0. */
  let letGo = 0;
  const lastHang = new Float64Array(pose.rotations.length);
  const lastHangWorld = new Float64Array(16);
  let hangStart = 0;
  const handBar = { max: 0, samples: 0 };
  /** The IK's added rotations of the last frame, for the step measure. */
  const animatedRotations = new Float64Array(pose.rotations.length);
  const roots = Array.from(skeleton.parents.keys()).filter((j) => skeleton.parents[j] < 0);
  const limbJoints = [...rig.legs, ...rig.arms].flatMap((l) => [l.root, l.middle, l.end]);
  const addedPrevious = new Float64Array(pose.rotations.length);
  let addedValid = false;
  let ikStepDeg = 0;
  let ikStepAt = '';
  const lastPelvis = new Float64Array(3);
  let pelvisValid = false;
  let pelvisStep = 0;
  let pelvisStepAt = '';
  const world = new Float64Array(16);
  const velocity = new Float64Array(3);
  const target = new Float64Array([2, 1.4, 2]);
  const keys = new Set<string>();
  let state: Stats['state'] = 'walk';
  let x = -4;
  let y = 0;
  let z = 0;
  let facing = 1; // +1 right, −1 left
  // The direction the robot faces, (x, z): ±X walking, +Z (the camera) on the bar.
  const heading = new Float64Array([1, 0]);
  let speed = 0;
  let groundSpeed = 0; // m/s along x, signed
  let vx = 0;
  let vy = 0;
  let airClock = 0;
  let airTime = 1;
  let airClipFrom = CLIP_TAKEOFF;
  let takeoffY = 0;
  let toBar = false;
  let jumps = 0;
  let landings = 0;
  let jumpHeight = 0;
  let footLift = 0;
  let jumpPressed = false;
  let dropPressed = false;
  /** The crouch before a take-off: −1 when none, else how far into the Jump clip it is (s). */
  let crouch = -1;
  let crouchToBar = false;
  let jumpGoal = 0;
  let ikOn = true;
  let ikMs = 0;
  const error = { sum: 0, max: 0, samples: 0 };
  const errorWithout = { sum: 0, max: 0, samples: 0 };
  const grip = { max: 0, samples: 0 };

  addEventListener('keydown', (e) => {
    keys.add(e.code);
    if (e.code === 'Space') {
      // The page would scroll.
      e.preventDefault();
      if (!e.repeat) jumpPressed = true;
    }
    // A tap shorter than a frame still lets go of the bar.
    if (e.code === 'KeyS' || e.code === 'ArrowDown') dropPressed = true;
    if (e.code === 'KeyI') {
      ikOn = !ikOn;
      placement.setWeight(ikOn ? 1 : 0, 0.3);
      look.setWeight(ikOn ? 1 : 0, 0.3);
      lookClimbing.setWeight(ikOn ? 1 : 0, 0.3);
    }
  });
  addEventListener('keyup', (e) => keys.delete(e.code));
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

  const placeRoot = (originY: number) => {
    // Model +Z (the robot's forward) onto the heading, uniform scale, origin at (x, originY, z).
    const hx = heading[0];
    const hz = heading[1];
    world.fill(0);
    world[0] = hz * SCALE;
    world[2] = -hx * SCALE;
    world[5] = SCALE;
    world[8] = hx * SCALE;
    world[10] = hz * SCALE;
    world[12] = x;
    world[13] = originY;
    world[14] = z;
    world[15] = 1;
  };

  /** Eases the heading toward (gx, gz); a turn about (walking left or right) is immediate, as before. */
  const turnTo = (gx: number, gz: number, dt: number) => {
    if (heading[0] * gx + heading[1] * gz < 0) {
      heading[0] = gx;
      heading[1] = gz;
      return;
    }
    const k = Math.min(1, dt * 10);
    const hx = heading[0] + (gx - heading[0]) * k;
    const hz = heading[1] + (gz - heading[1]) * k;
    const l = Math.sqrt(hx * hx + hz * hz);
    heading[0] = hx / l;
    heading[1] = hz / l;
  };

  const underBar = () => x > BAR_X0 + 0.4 && x < BAR_X1 - 0.4 && y > TOP - 0.1;

  /** Leaves the ground (or the bar) with vertical speed `up`; the Jump clip plays from `clipFrom`. */
  const takeOff = (up: number, clipFrom: number, bar: boolean) => {
    state = 'air';
    vy = up;
    vx = bar ? 0 : groundSpeed;
    airClock = 0;
    airClipFrom = clipFrom;
    // The flight's length over level ground, to stretch the clip's air part over it.
    const drop = Math.max(0, y - ground.heightAt(x));
    airTime = (up + Math.sqrt(up * up + 2 * GRAVITY * drop)) / GRAVITY;
    if (!(airTime > 0.2)) airTime = 0.2;
    takeoffY = y;
    toBar = bar;
    jumpGoal = 1;
    if (up > 0) jumps++;
    placement.setWeight(0, 0.15);
  };

  /**
   * Starts a jump: the Jump clip's crouch plays on the ground while the feet's placement eases out,
   * so nothing is left to let go of at the take-off.
   */
  const startJump = (bar: boolean) => {
    crouch = 0;
    crouchToBar = bar;
    jump.time = 0;
    jumpGoal = 1;
    placement.setWeight(0, CLIP_TAKEOFF);
  };

  const grabBar = () => {
    state = 'hang';
    hang = hangAt(barY);
    hang.position = BAR_X1 - x;
    hangStart = hang.position;
    // The arms reach for the bar over 0.5 s instead of snapping onto it (smoothstep: at most 1.5×
    // the mean rate; 0.5 s keeps a joint within 10° a frame).
    hang.setWeight(0, 0);
    hang.setWeight(1, 0.5);
    jumpGoal = 0;
    // A small kick, so that the body catching the bar swings (the jump itself is straight up): a
    // change of velocity, the same swing at any frame rate.
    hang.kickBody(0, 0, 0.42);
  };

  const land = () => {
    state = 'walk';
    y = ground.heightAt(x);
    vy = 0;
    landings++;
    // The clip's landing plays on from here, then fades out.
    jump.time = CLIP_LAND;
    placement.setWeight(ikOn ? 1 : 0, 0.25);
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
        // Hands and feet onto the rungs over 0.5 s, not at once.
        climb.setWeight(0, 0);
        climb.setWeight(1, 0.5);
      } else if (down && Math.abs(x - (LADDER_X + 0.5)) < 0.6 && y > TOP - 0.5) {
        state = 'climb';
        climb.progress = climb.end;
        climb.setWeight(0, 0);
        climb.setWeight(1, 0.5);
      } else if (crouch >= 0) {
        crouch += dt;
        if (crouch >= CLIP_TAKEOFF) {
          crouch = -1;
          // Up to the bar: a little faster than the hands need to reach it (a long frame's Euler
          // step falls short of the exact apex).
          const speedUp = crouchToBar
            ? Math.sqrt(2 * GRAVITY * (barY - barAboveOrigin - y + 0.06))
            : JUMP_SPEED;
          takeOff(speedUp, CLIP_TAKEOFF, crouchToBar);
        }
      } else if ((up || jumpPressed) && underBar()) {
        startJump(true);
      } else if (jumpPressed) {
        startJump(false);
      } else if (y - ground.heightAt(x) > 0.4) {
        // Walked off the cliff: fall.
        takeOff(0, CLIP_TOP, false);
      }
    } else if (state === 'hang' && (down || dropPressed)) {
      state = 'air';
      x = world[12];
      y = world[13];
      z = world[14];
      letGo = 1;
      lastHang.set(pose.rotations);
      lastHangWorld.set(world);
      // The arms' IK ends here; what eases them down is the blend, not the IK.
      addedValid = false;
      takeOff(0, CLIP_TOP, false);
    }
    jumpPressed = false;
    dropPressed = false;
    // Until the pointer moves, the robot looks where it goes.
    if (!pointerSeen) target.set([x + facing * 3, y + 1.2, 0.5]);
    let t0 = 0;
    const want = right ? 1 : left ? -1 : 0;
    // The jump's weight eases in over 0.1 s and out over 0.2 s, linearly.
    const jw = jump.weight + Math.max(-dt / 0.2, Math.min(dt / 0.1, jumpGoal - jump.weight));
    if (state === 'walk' || state === 'air') {
      if (want !== 0) facing = want;
      if (state === 'air' && toBar && vy > 0) turnTo(0, 1, dt);
      else turnTo(facing, 0, dt);
      const goal = want === 0 ? 0 : running ? 2 : 1;
      speed += (goal - speed) * Math.min(1, dt * 6);
      jump.weight = jw;
      idle.weight = Math.max(0, 1 - speed) * (1 - jw);
      walk.weight = Math.max(0, 1 - Math.abs(speed - 1)) * (1 - jw);
      run.weight = Math.max(0, speed - 1) * (1 - jw);
      if (jw + idle.weight + walk.weight + run.weight === 0) idle.weight = 1;
      if (state === 'air') {
        airClock += dt;
        const u = Math.min(1, airClock / airTime);
        jump.time = airClipFrom + (CLIP_LAND - airClipFrom) * u;
      } else if (crouch >= 0) {
        jump.time = crouch;
      } else if (jump.time < clip('Jump').duration) {
        jump.time = Math.min(clip('Jump').duration, jump.time + dt);
        if (jump.time >= clip('Jump').duration) jumpGoal = 0;
      }
      mixer.advance(dt);
      mixer.evaluate(pose);
      if (letGo > 0) {
        letGo = Math.max(0, letGo - dt / 0.2);
        blendRotations(pose.rotations, lastHang, 1 - letGo);
      }
      forwardKinematics(pose, model);
      // Travel at the dominant clip's ground speed, so planted feet stay still.
      const layer = run.weight > walk.weight ? run : walk;
      const track = tracks.get(layer.clip) as ContactTrack;
      let originY = y;
      if (state === 'walk') {
        track.groundVelocityAt(layer.time, velocity, 0);
        const travel = -velocity[2] * SCALE * Math.min(1, speed);
        groundSpeed = facing * travel;
        x += groundSpeed * dt;
        if (x > LADDER_X - 0.25 && y < 0.5) x = LADDER_X - 0.25; // the cliff
        const groundY = ground.heightAt(x);
        y += (groundY - y) * Math.min(1, dt * 10);
        z -= z * Math.min(1, dt * 4);
        originY = y;
      } else {
        // Ballistic: semi-implicit Euler under constant gravity.
        vy -= GRAVITY * dt;
        y += vy * dt;
        const wall = LADDER_X - 0.25;
        const wasLeft = x <= wall;
        x += vx * dt;
        z -= z * Math.min(1, dt * 4);
        if (wasLeft && x > wall && y < TOP - 0.1) x = wall; // the cliff
        jumpHeight = Math.max(jumpHeight, y - takeoffY);
        // The clip jumps too: its lower foot's rise is taken out, so the feet follow the flight.
        originY = y - footRise() * SCALE;
      }
      placeRoot(originY);
      if (letGo > 0) tiltFrom(lastHangWorld, letGo);
      if (state === 'air') {
        footLift = Math.max(footLift, Math.min(footAboveGround(0), footAboveGround(1)));
        if (toBar && underBar() && (y >= barY - barAboveOrigin || vy <= 0)) grabBar();
        else if (vy < 0 && y <= ground.heightAt(x)) land();
      }
      t0 = performance.now();
      animatedRotations.set(pose.rotations);
      const landing = state === 'walk' && jump.weight > 0;
      placement.setContactTrack(state === 'walk' && speed > 0.05 && !landing ? track : null);
      if (landing) {
        // The Jump clip's feet stand still while the body moves: grounded but not locked while the
        // clip leads, handing over to the walk's contacts as it fades.
        const cw = placement.contactWeights;
        if (speed > 0.05) track.sample(layer.time, 0.1, cw, placement.planted);
        else {
          cw.fill(1);
          placement.planted.fill(1);
        }
        for (let i = 0; i < cw.length; i++) cw[i] = jump.weight + (1 - jump.weight) * cw[i];
        if (jump.weight >= 0.5) placement.planted.fill(0);
      } else if (state === 'air') {
        // In the air no foot is planted: the placement lets go of the ground as its weight eases out.
        placement.contactWeights.fill(0);
        placement.planted.fill(0);
      } else if (speed <= 0.05) {
        placement.contactWeights.fill(1);
        placement.planted.fill(1);
      }
      if (state === 'walk') measureFeet(errorWithout);
      placement.solve(pose, model, world, dt, layer.time);
      look.solve(pose, model, target, world, dt);
      ikMs += (performance.now() - t0 - ikMs) * 0.1;
      measureIkStep(dt);
      if (state === 'walk') measureFeet(error);
    } else if (state === 'hang') {
      turnTo(0, 1, dt);
      jump.weight = jw;
      idle.weight = 1 - jw;
      walk.weight = 0;
      run.weight = 0;
      mixer.advance(dt);
      mixer.evaluate(pose);
      forwardKinematics(pose, model);
      // While the Jump clip fades, its rise is taken out of the pose itself: BarHang hangs the
      // shoulders from the bar by where they are at rest.
      const rise = footRise();
      if (rise > 0) {
        for (const r of roots) pose.translations[3 * r + 1] -= rise;
        forwardKinematics(pose, model);
      }
      t0 = performance.now();
      animatedRotations.set(pose.rotations);
      hang.update(pose, model, dt, (left ? 1 : right ? -1 : 0) * HANG_SPEED * dt);
      world.set(hang.world);
      lookClimbing.solve(pose, model, target, world, dt);
      ikMs += (performance.now() - t0 - ikMs) * 0.1;
      measureIkStep(dt);
      x = world[12];
      y = world[13];
      if (hang.weight === 1) {
        for (let h = 0; h < 2; h++) {
          if (hang.report[h * HANG_HAND.length + HANG_HAND.gripping] !== 1) continue;
          const p = worldPoint(hang.arms[h].end);
          handBar.max = Math.max(handBar.max, Math.hypot(p[1] - barY, p[2]));
          handBar.samples++;
        }
      }
    } else {
      idle.weight = 1;
      walk.weight = 0;
      run.weight = 0;
      jump.weight = 0;
      mixer.advance(dt);
      mixer.evaluate(pose);
      forwardKinematics(pose, model);
      t0 = performance.now();
      // 1.2 rungs a second: a move takes a quarter of the cycle, and at 1.5 the reaching elbow
      // turned 11.7° a frame (a hostile test), past the 10° the rest of the demo keeps to.
      climb.update(pose, model, (up ? 1 : down ? -1 : 0) * 1.2 * dt, dt);
      world.set(climb.world);
      lookClimbing.solve(pose, model, target, world, dt);
      ikMs += (performance.now() - t0 - ikMs) * 0.1;
      x = world[12];
      y = world[13];
      addedValid = false;
      for (let i = 0; i < 4; i++) {
        const r = CLIMB_LIMB.length * i;
        if (climb.report[r + CLIMB_LIMB.gripping] !== 1 || climb.weight !== 1) continue;
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
    // A pop shows as the pelvis moving much farther in a frame than the body's speed takes it.
    const pelvis = worldPoint(rig.pelvis);
    if (pelvisValid && dt > 0) {
      const moved = Math.hypot(
        pelvis[0] - lastPelvis[0],
        pelvis[1] - lastPelvis[1],
        pelvis[2] - lastPelvis[2],
      );
      if (moved / Math.max(1, 60 * dt) > pelvisStep) {
        pelvisStep = moved / Math.max(1, 60 * dt);
        pelvisStepAt = `${state}, ${jump.time.toFixed(2)} s of Jump, vy ${vy.toFixed(2)}, dt ${dt.toFixed(3)}`;
      }
    }
    lastPelvis.set(pelvis);
    pelvisValid = true;
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
    panel.textContent = `${state}${state === 'hang' ? ` (hands–bar ${(100 * handBar.max).toFixed(2)} cm max)` : ''}  IK ${ikOn ? 'on' : 'off'} (I)  IK ${ikMs.toFixed(3)} ms/frame  foot–ground ${(100 * (error.samples ? error.sum / error.samples : 0)).toFixed(2)} cm mean, ${(100 * error.max).toFixed(2)} max`;
    requestAnimationFrame(frame);
  };

  /** How far the pose's lower foot is above where the Jump clip stands (model units), if above. */
  function footRise(): number {
    const footY = Math.min(model[16 * rig.legs[0].foot + 13], model[16 * rig.legs[1].foot + 13]);
    return Math.max(0, footY - restFootY);
  }

  /** The height of foot `i` above the ground under it (m), by the foot joint. */
  function footAboveGround(i: number): number {
    const p = worldPoint(rig.legs[i].foot);
    return p[1] - ground.heightAt(p[0]);
  }

  /**
   * Blends the rotation of `world` toward that of `from` by `w` (the swing's tilt at the drop, which
   * would otherwise snap upright): the axes mixed, then made orthonormal again, up first.
   */
  function tiltFrom(from: Float64Array, w: number): void {
    const m = world;
    for (let i = 0; i < 11; i++) if ((i & 3) !== 3) m[i] += (from[i] - m[i]) * w;
    const norm = (o: number) => {
      const l = Math.sqrt(m[o] * m[o] + m[o + 1] * m[o + 1] + m[o + 2] * m[o + 2]);
      for (let k = 0; k < 3; k++) m[o + k] *= SCALE / l;
    };
    norm(4);
    // Forward without its part along up.
    const d = (m[8] * m[4] + m[9] * m[5] + m[10] * m[6]) / (SCALE * SCALE);
    for (let k = 0; k < 3; k++) m[8 + k] -= d * m[4 + k];
    norm(8);
    // Side = up × forward, as placeRoot and BarHang build it.
    m[0] = (m[5] * m[10] - m[6] * m[9]) / SCALE;
    m[1] = (m[6] * m[8] - m[4] * m[10]) / SCALE;
    m[2] = (m[4] * m[9] - m[5] * m[8]) / SCALE;
  }

  /** nlerps each rotation of `into` from `from` (weight 0) to itself (weight 1). */
  function blendRotations(into: Float64Array, from: Float64Array, w: number): void {
    for (let o = 0; o < into.length; o += 4) {
      const sign =
        from[o] * into[o] +
          from[o + 1] * into[o + 1] +
          from[o + 2] * into[o + 2] +
          from[o + 3] * into[o + 3] <
        0
          ? -1
          : 1;
      let l = 0;
      for (let c = 0; c < 4; c++) {
        into[o + c] = (1 - w) * from[o + c] * sign + w * into[o + c];
        l += into[o + c] * into[o + c];
      }
      l = Math.sqrt(l);
      for (let c = 0; c < 4; c++) into[o + c] /= l;
    }
  }

  /**
   * The largest frame-to-frame change of the rotation the IK adds to a limb's joint, in degrees.
   * The neck and head are left out: holding the gaze, LookAt's share follows the clip's own speed.
   */
  function measureIkStep(dt: number): void {
    const a = animatedRotations;
    const p = pose.rotations;
    const q = addedPrevious;
    for (const joint of limbJoints) {
      const o = 4 * joint;
      const [ax, ay, az, aw] = [-a[o], -a[o + 1], -a[o + 2], a[o + 3]];
      const qx = aw * p[o] + ax * p[o + 3] + ay * p[o + 2] - az * p[o + 1];
      const qy = aw * p[o + 1] - ax * p[o + 2] + ay * p[o + 3] + az * p[o];
      const qz = aw * p[o + 2] + ax * p[o + 1] - ay * p[o] + az * p[o + 3];
      const qw = aw * p[o + 3] - ax * p[o] - ay * p[o + 1] - az * p[o + 2];
      if (addedValid) {
        const d = Math.min(1, Math.abs(qx * q[o] + qy * q[o + 1] + qz * q[o + 2] + qw * q[o + 3]));
        // Per 1/60 s: a slow frame's larger step is not a pop.
        const deg = (2 * Math.acos(d) * 180) / Math.PI / Math.max(1, 60 * dt);
        if (deg > ikStepDeg) {
          ikStepDeg = deg;
          ikStepAt = `${skeleton.names[o / 4]} (${state}, ${jump.time.toFixed(2)} s of Jump)`;
        }
      }
      q[o] = qx;
      q[o + 1] = qy;
      q[o + 2] = qz;
      q[o + 3] = qw;
    }
    addedValid = true;
  }

  function worldPoint(joint: number): number[] {
    const o = 16 * joint + 12;
    return [0, 1, 2].map(
      (k) => world[k] * model[o] + world[4 + k] * model[o + 1] + world[8 + k] * model[o + 2] + world[12 + k],
    );
  }

  /**
   * Sole–ground distance of each planted foot: the foot joint above the ground by its planted
   * height, the ground sampled within 1 cm along x as the placement tests measure (a foot on a
   * step's nose, its joint just past the edge, read the lower step straight below it: 15 cm).
   */
  function measureFeet(into: { sum: number; max: number; samples: number }): void {
    for (let i = 0; i < rig.legs.length; i++) {
      if (placement.planted[i] !== 1 || speed <= 0.05) continue;
      const p = worldPoint(rig.legs[i].foot);
      const h = placementFootHeight(i);
      let e = Number.POSITIVE_INFINITY;
      for (const dx of NEAR) {
        const v = p[1] - ground.heightAt(p[0] + dx) - h;
        e = Math.min(e, Math.sqrt(v * v + dx * dx));
      }
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
      airborne: state === 'air' || state === 'hang',
      jumps,
      landings,
      jumpHeight,
      footLift,
      ikStepDeg,
      ikStepAt,
      pelvisStep,
      pelvisStepAt,
      bar: { x0: BAR_X0, x1: BAR_X1, y: barY },
      handBar: { max: handBar.max, samples: handBar.samples },
      hangMoved: state === 'hang' ? Math.abs(hang.position - hangStart) : 0,
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
      handBar.max = handBar.samples = 0;
      jumps = landings = 0;
      jumpHeight = footLift = ikStepDeg = pelvisStep = 0;
    },
    teleport: (to: number) => {
      x = to;
      y = ground.heightAt(to);
      z = 0;
      letGo = 0;
      pelvisValid = false;
      state = 'walk';
      vy = 0;
      jumpGoal = 0;
      jump.weight = 0;
      crouch = -1;
      addedValid = false;
      placement.setWeight(ikOn ? 1 : 0, 0);
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
