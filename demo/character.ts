/**
 * Your own character: a .glb, .gltf or .bvh dropped on the page (or picked) is imported, findRig
 * finds its limbs, and it walks the terrain with its feet planted (its walk clip if it has one,
 * else its first clip, standing where that clip does not travel). A glTF is drawn skinned through
 * tendon/three's Mode 2, a BVH as a stick figure. Whatever cannot be used (an import or rig error,
 * no skeleton, no clip, no legs) is said on the page with the error's code and message, and the
 * page keeps rendering. window.tendonDemo.loadFile(name, bytes) is the test's way in.
 */
import type { Group } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import {
  type Clip,
  createModelBuffer,
  findRig,
  forwardKinematics,
  importBvh,
  importGltf,
  legLength,
  Pose,
  type Rig,
  restModelMatrices,
  SamplerContext,
  type Skeleton,
  sampleClip,
} from '../src/index.js';
import { bindThreeSkeleton, type ThreeSkeletonBinding } from '../src/three/index.js';
import {
  createStage,
  describeError,
  headingMatrix,
  inPlace,
  publish,
  StickFigure,
  terrain,
  terrainPoints,
} from './common.js';
import { type FootError, Walker } from './walker.js';

/** What is on stage: a walker, or (no legs) a clip played in place, or (no clip) the rest pose. */
interface Loaded {
  name: string;
  skeleton: Skeleton;
  rig: Rig;
  clip: Clip | null;
  walker: Walker | null;
  /** Without a walker: the pose, its model matrices and where it stands. */
  pose: Pose;
  model: Float64Array;
  world: Float64Array;
  context: SamplerContext | null;
  time: number;
  /** Its height in metres, standing: the camera keeps it in view. */
  height: number;
  /** A glTF drawn skinned, or a stick figure. */
  gltfScene: Group | null;
  binding: ThreeSkeletonBinding | null;
  figure: StickFigure | null;
}

interface Stats {
  ready: boolean;
  /** Frames drawn so far. */
  frames: number;
  loading: boolean;
  file: string | null;
  joints: number;
  legs: number;
  convention: string | null;
  clip: string | null;
  walking: boolean;
  /** The first foot's world position (or the root's, without legs): the test sees it move. */
  probe: [number, number, number];
  /** What the page says about the file, empty when all is well. */
  message: string;
  /** The credit shown for it (a glTF's asset.copyright, CMU's statement for its captures). */
  credit: string;
  footError: FootError | null;
}

/**
 * Model units to metres, from the legs: a two-legged character's legs (hip to ankle) 0.8 m long,
 * a four-legged one's 0.4 m (a fox, a dog). Files come in any unit (a BVH in CMU's inch/0.45, the
 * Fox in centimetres, the robot 3 units tall), and the terrain is in metres. Without legs, the
 * skeleton's rest height is made 1.5 m.
 */
function sizeOf(skeleton: Skeleton, rig: Rig): number {
  const rest = restModelMatrices(skeleton);
  if (rig.legs.length > 0) {
    let longest = 0;
    for (const leg of rig.legs) longest = Math.max(longest, legLength(rest, leg));
    if (longest > 0) return (rig.legs.length >= 4 ? 0.4 : 0.8) / longest;
  }
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (let j = 0; j < skeleton.jointCount; j++) {
    low = Math.min(low, rest[16 * j + 13]);
    high = Math.max(high, rest[16 * j + 13]);
  }
  return high > low ? 1.5 / (high - low) : 1;
}

/** The statement CMU asks of users of its motion capture database. */
const CMU_CREDIT =
  'The data used in this project was obtained from mocap.cs.cmu.edu. The database was created with funding from NSF EIA-0196217.';

/** The files the demo ships (examples/assets): their licences are in the served LICENSES.md. */
const SHIPPED = new Set(['RobotExpressive.glb', 'Fox.glb', 'cmu_02_01_walk.bvh']);

/**
 * Shows `text` as the credit of what is on stage: its web addresses as links (named by their
 * host), a CC BY 4.0 licence it names linked to the licence, and for a file the demo ships, a link
 * to the licences of its files. Empty text clears it.
 */
function showCredit(element: HTMLElement, text: string, shipped: boolean): void {
  element.replaceChildren();
  if (text === '') return;
  const link = (href: string, label: string) => {
    const a = document.createElement('a');
    a.href = href;
    a.textContent = label;
    a.target = '_blank';
    a.rel = 'noopener';
    return a;
  };
  element.append('Credit: ');
  text.split(/(https?:\/\/\S+)/).forEach((part, k) => {
    if (k % 2 === 0) element.append(part);
    else element.append(link(part, new URL(part).hostname));
  });
  if (/CC[- ]BY[- ]4\.0/i.test(text)) {
    element.append(' · ', link('https://creativecommons.org/licenses/by/4.0/', 'CC BY 4.0'));
  }
  if (shipped) element.append(' · ', link('LICENSES.md', "the demo's files' licences"));
}

/** Its walk if it has one (by name), else its first clip. */
function pickClip(clips: readonly Clip[]): Clip | null {
  return clips.find((c) => /walk/i.test(c.name)) ?? clips[0] ?? null;
}

async function main(): Promise<void> {
  const { renderer, scene, camera } = createStage();
  const { ground, mesh } = terrain(terrainPoints(40));
  scene.add(mesh);
  const message = document.getElementById('message') as HTMLElement;
  const panel = document.getElementById('panel') as HTMLElement;
  const picker = document.getElementById('file') as HTMLInputElement;
  const credit = document.getElementById('credit') as HTMLElement;
  let loaded: Loaded | null = null;
  let loading = false;

  const unload = () => {
    if (!loaded) return;
    if (loaded.gltfScene) scene.remove(loaded.gltfScene);
    if (loaded.figure) scene.remove(loaded.figure.group);
    loaded = null;
  };

  /** Imports the file and puts it on stage; anything wrong is said on the page. */
  let latest = 0;
  const loadFile = async (name: string, bytes: Uint8Array): Promise<Stats> => {
    // A file dropped while another is still loading wins: the earlier one is dropped when it is ready.
    const ticket = ++latest;
    const stale = () => ticket !== latest;
    unload();
    loading = true;
    message.textContent = `loading ${name}…`;
    showCredit(credit, '', false);
    const notes: string[] = [];
    try {
      const extension = name.toLowerCase().split('.').pop() ?? '';
      let skeleton: Skeleton;
      let clips: readonly Clip[];
      let gltfScene: Group | null = null;
      if (extension === 'bvh') {
        const { skeleton: s, clip } = importBvh(new TextDecoder().decode(bytes), { source: name });
        skeleton = s;
        clips = [clip];
        if (name.startsWith('cmu_')) showCredit(credit, CMU_CREDIT, SHIPPED.has(name));
      } else if (extension === 'glb' || extension === 'gltf') {
        const imported = await importGltf(bytes, { source: name });
        if (stale()) return stats();
        const first = imported.skeletons[0];
        if (!first) throw new Error(`${name} has no skeleton: nothing to animate`);
        skeleton = first.skeleton;
        clips = first.clips;
        const gltf = await new GLTFLoader().parseAsync(bytes.slice().buffer, '');
        if (stale()) return stats();
        gltfScene = gltf.scene;
        // The file's own credit (the Fox's CC-BY 4.0 attribution is there, with its links).
        const copyright = gltf.asset?.copyright;
        if (typeof copyright === 'string' && copyright !== '') {
          showCredit(credit, copyright, SHIPPED.has(name));
        }
      } else {
        throw new Error(`${name}: tendon reads .glb, .gltf and .bvh files, not .${extension}`);
      }
      const rig = findRig(skeleton);
      const clip = pickClip(clips);
      const scale = sizeOf(skeleton, rig);
      if (!clip) notes.push(`${name} has no animation clip: it stands in its rest pose.`);
      if (rig.legs.length === 0) {
        notes.push(`findRig found no legs in ${name}: it plays without its feet placed.`);
      }
      const pose = new Pose(skeleton);
      const model = createModelBuffer(skeleton);
      let binding: ThreeSkeletonBinding | null = null;
      let figure: StickFigure | null = null;
      if (gltfScene) {
        try {
          binding = bindThreeSkeleton(gltfScene, { skeleton }).useTendonPalette();
          gltfScene.matrixAutoUpdate = false;
          scene.add(gltfScene);
        } catch (error) {
          // Drawn as a stick figure instead: the file is usable, three.js' view of it is not.
          notes.push(
            `three.js could not bind its skeleton (${describeError(error)}): drawn as a stick figure.`,
          );
          gltfScene = null;
        }
      }
      if (!binding) {
        figure = new StickFigure(skeleton, 0.04, 0xe8c07a);
        scene.add(figure.group);
      }
      let walker: Walker | null = null;
      if (clip && rig.legs.length > 0) {
        walker = new Walker({
          // More than half a leg of travel over the clip is root motion: taken out, the walker moves.
          clip: inPlace(clip, 0.5 * legLength(restModelMatrices(skeleton), rig.legs[0])),
          rig,
          scale,
          ground,
          loop: extension !== 'bvh',
          pose: binding ? binding.pose : pose,
          model: binding ? binding.model : model,
          startX: 1,
        });
      }
      const world = headingMatrix(new Float64Array(16), [0, 1], scale, 1, 0, 0);
      const rest = restModelMatrices(skeleton);
      let top = 0;
      for (let j = 0; j < skeleton.jointCount; j++) top = Math.max(top, rest[16 * j + 13]);
      loaded = {
        name,
        skeleton,
        rig,
        clip,
        walker,
        pose: binding ? binding.pose : pose,
        model: binding ? binding.model : model,
        world,
        context: clip && !walker ? new SamplerContext(clip) : null,
        time: 0,
        height: Math.max(0.3, top * scale),
        gltfScene,
        binding,
        figure,
      };
      message.textContent = notes.join('\n');
    } catch (error) {
      if (stale()) return stats();
      unload();
      showCredit(credit, '', false);
      message.textContent = `Cannot use ${name}: ${describeError(error)}`;
    }
    loading = false;
    return stats();
  };

  picker.addEventListener('change', async () => {
    const file = picker.files?.[0];
    if (file) await loadFile(file.name, new Uint8Array(await file.arrayBuffer()));
  });
  addEventListener('dragover', (e) => e.preventDefault());
  addEventListener('drop', async (e) => {
    e.preventDefault();
    const file = e.dataTransfer?.files[0];
    if (file) await loadFile(file.name, new Uint8Array(await file.arrayBuffer()));
  });
  // The characters the demo ships (examples/assets, LICENSES.md there), one click away.
  for (const [id, file] of [
    ['robot', 'RobotExpressive.glb'],
    ['fox', 'Fox.glb'],
    ['walk', 'cmu_02_01_walk.bvh'],
  ] as const) {
    (document.getElementById(id) as HTMLButtonElement).addEventListener('click', async () => {
      const bytes = new Uint8Array(await (await fetch(file)).arrayBuffer());
      await loadFile(file, bytes);
    });
  }

  const probe = (): [number, number, number] => {
    if (!loaded) return [0, 0, 0];
    const { rig, walker, model, world } = loaded;
    const w = walker ? walker.world : world;
    const o = 16 * (rig.legs.length > 0 ? rig.legs[0].foot : 0) + 12;
    return [0, 1, 2].map(
      (k) => w[k] * model[o] + w[4 + k] * model[o + 1] + w[8 + k] * model[o + 2] + w[12 + k],
    ) as [number, number, number];
  };

  let frames = 0;
  const stats = (): Stats => ({
    ready: frames > 3,
    frames,
    loading,
    file: loaded?.name ?? null,
    joints: loaded?.skeleton.jointCount ?? 0,
    legs: loaded?.rig.legs.length ?? 0,
    convention: loaded?.rig.convention ?? null,
    clip: loaded?.clip?.name ?? null,
    walking: loaded?.walker != null,
    probe: probe(),
    message: message.textContent ?? '',
    credit: credit.textContent ?? '',
    footError: loaded?.walker ? loaded.walker.stats().footError : null,
  });

  let last = performance.now();
  const frame = (now: number) => {
    frames++;
    // rAF timestamps can precede the performance.now() taken before the first frame.
    const dt = Math.max(0, Math.min(0.05, (now - last) / 1000));
    last = now;
    let x = 1;
    let y = 0;
    let height = 1.5;
    const current = loaded;
    if (current) {
      height = current.height;
      try {
        if (current.walker) {
          current.walker.advance(dt);
          x = current.walker.x;
          y = current.walker.world[13];
        } else {
          if (current.clip && current.context) {
            current.time += dt;
            sampleClip(current.clip, current.context, current.time, current.pose);
          }
          forwardKinematics(current.pose, current.model);
        }
        const world = current.walker ? current.walker.world : current.world;
        if (current.binding && current.gltfScene) {
          current.gltfScene.matrix.fromArray(world);
          current.gltfScene.matrixWorldNeedsUpdate = true;
          scene.updateMatrixWorld();
          current.binding.readRootWorld();
          current.binding.writeBoneMatrices();
        }
        current.figure?.update(current.model, world);
        if (current.walker) {
          const e = current.walker.stats();
          panel.textContent = `${current.name}: ${current.clip?.name || 'clip'} · ${current.rig.legs.length} legs · IK ${current.walker.ik ? 'on' : 'off'} (I)\nfeet–ground at contacts: ${(100 * e.footError.mean).toFixed(2)} cm mean, ${(100 * e.footError.max).toFixed(2)} max`;
        } else {
          panel.textContent = `${current.name}: ${current.clip?.name || 'no clip'} · ${current.rig.legs.length} legs`;
        }
      } catch (error) {
        // A frame that throws (a NaN in the file's keys, a ground error): said, and taken off stage.
        message.textContent = `${current.name} stopped: ${describeError(error)}`;
        unload();
      }
    } else if (!loading) {
      panel.textContent = 'no character loaded';
    }
    camera.position.set(x + 0.5 * height, y + 0.8 * height, 1.5 + 3.2 * height);
    camera.lookAt(x + 0.25 * height, y + 0.45 * height, 0);
    renderer.render(scene, camera);
    requestAnimationFrame(frame);
  };
  addEventListener('keydown', (e) => {
    const walker = loaded?.walker;
    if (e.code === 'KeyI' && walker) walker.setIk(!walker.ik);
  });

  publish({ stats, loadFile });
  requestAnimationFrame(frame);
}

main().catch((error: unknown) => {
  const message = document.getElementById('message');
  if (message) message.textContent = `The page could not start: ${describeError(error)}`;
  console.error(error);
});
