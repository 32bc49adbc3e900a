/**
 * Motion capture: CMU clips (a walk, a run) played on a stick figure walking over uneven ground,
 * its feet planted by FootPlacement on the legs findRig finds. The captures travel; the page makes
 * them in-place and moves the figure at the speed its feet move, as a game would. A third clip
 * climbs a ladder and hangs from a bar (CMU 01_03), played by RungRetarget on a ladder of other
 * rungs. A select picks the clip, I (or the checkbox) turns IK off and on, the panel shows the
 * feet's distance to the ground at contacts (on the ladder, the holds' distance to their rungs)
 * with and without IK; window.tendonDemo exposes the same numbers.
 */
import { Vector3 } from 'three';
import { findRig, importBvh, legLength, restModelMatrices } from '../src/index.js';
import {
  createStage,
  describeError,
  inPlace,
  publish,
  StickFigure,
  terrain,
  terrainPoints,
} from './common.js';
import { LadderClimber } from './ladder.js';
import { type FootError, Walker } from './walker.js';

/** The shipped clips and their units (examples/assets/LICENSES.md). */
const CLIPS = [
  // CMU's unit is 1/0.45 inch.
  { file: 'cmu_02_01_walk.bvh', label: 'walk (CMU 02_01)', scale: 0.0254 / 0.45 },
  // The Daz-friendly conversion is in centimetres.
  { file: 'cmu_run_jog_daz_filtered.bvh', label: 'run (CMU run/jog)', scale: 0.01 },
  { file: 'cmu_01_03_climb_ladder_hang.bvh', label: 'ladder (CMU 01_03, other rungs)', scale: 0.0254 / 0.45 },
] as const;

/** Where the ladder stands, its 10 m floor off the terrain (which starts at x = 0). */
const LADDER_X = -7;

interface Stats {
  ready: boolean;
  clip: string;
  ik: boolean;
  x: number;
  /** The ladder clip's time (0 on the walks). */
  time: number;
  frames: number;
  footError: FootError;
  footErrorWithoutIk: FootError;
}

async function main(): Promise<void> {
  const { renderer, scene, camera } = createStage();
  const points = terrainPoints(40);
  const { ground, mesh } = terrain(points);
  scene.add(mesh);
  const panel = document.getElementById('panel') as HTMLElement;
  const select = document.getElementById('clip') as HTMLSelectElement;
  const ikBox = document.getElementById('ik') as HTMLInputElement;

  /** A clip's walker (or climber) and figure, made from its file. */
  interface Loaded {
    file: string;
    walker: Walker | LadderClimber;
    figure: StickFigure;
  }
  const load = async (file: string, scale: number): Promise<Loaded> => {
    const text = await (await fetch(file)).text();
    const { skeleton, clip } = importBvh(text, { source: file });
    const rig = findRig(skeleton);
    const rest = restModelMatrices(skeleton);
    let walker: Walker | LadderClimber;
    if (file.includes('ladder')) {
      walker = new LadderClimber(clip, rig, scale, LADDER_X);
      walker.ladder.visible = false;
      scene.add(walker.ladder);
    } else {
      // Take out the capture's travel (more than half a leg over the clip is travel, not sway).
      walker = new Walker({
        clip: inPlace(clip, 0.5 * legLength(rest, rig.legs[0])),
        rig,
        scale,
        ground,
        loop: false,
        startX: 1,
      });
    }
    const figure = new StickFigure(skeleton, 0.045, 0xe8c07a);
    figure.group.visible = false;
    scene.add(figure.group);
    return { file, walker, figure };
  };
  for (const { file, label } of CLIPS) {
    const option = document.createElement('option');
    option.value = file;
    option.textContent = label;
    select.appendChild(option);
  }
  // The walks at once; the ladder (3.4 MB of capture, its holds read at set-up) when first chosen.
  const loaded = new Map<string, Promise<Loaded>>();
  const loadOnce = (file: string): Promise<Loaded> => {
    let entry = loaded.get(file);
    if (!entry) {
      const clip = CLIPS.find((c) => c.file === file);
      if (!clip) throw new Error(`no clip ${file}`);
      entry = load(file, clip.scale);
      loaded.set(file, entry);
    }
    return entry;
  };
  const walks = await Promise.all(
    CLIPS.filter((c) => !c.file.includes('ladder')).map((c) => loadOnce(c.file)),
  );
  let current = walks[0];
  // Where the walks have got to: a walk chosen after the ladder goes on from there.
  let walkedTo = 1;
  const show = (next: Loaded) => {
    current.figure.group.visible = false;
    if (current.walker instanceof Walker) walkedTo = current.walker.x;
    if (current.walker instanceof LadderClimber) current.walker.ladder.visible = false;
    if (next.walker instanceof Walker) next.walker.teleport(walkedTo);
    else next.walker.ladder.visible = true;
    next.walker.setIk(ikBox.checked);
    current = next;
    current.figure.group.visible = true;
    select.value = next.file;
  };
  const choose = async (file: string): Promise<void> => {
    select.value = file;
    const next = await loadOnce(file);
    // (A clip chosen while this one loaded wins.)
    if (select.value === file) show(next);
  };
  show(walks[0]);
  select.addEventListener('change', () => {
    choose(select.value).catch((error: unknown) => {
      panel.textContent = describeError(error);
    });
  });
  const setIk = (on: boolean) => {
    ikBox.checked = on;
    current.walker.setIk(on);
  };
  ikBox.addEventListener('change', () => setIk(ikBox.checked));
  addEventListener('keydown', (e) => {
    if (e.code === 'KeyI') setIk(!ikBox.checked);
  });

  const cm = (e: FootError) =>
    `${(100 * e.mean).toFixed(2)} cm mean, ${(100 * e.max).toFixed(2)} max, ${(100 * e.within1cm).toFixed(1)}% within 1 cm`;
  const focus = new Vector3();
  let frames = 0;
  let last = performance.now();
  const frame = (now: number) => {
    frames++;
    // rAF timestamps can precede the performance.now() taken before the first frame.
    const dt = Math.max(0, Math.min(0.05, (now - last) / 1000));
    last = now;
    const { walker, figure } = current;
    try {
      walker.advance(dt);
    } catch (error) {
      panel.textContent = describeError(error);
      return;
    }
    // The figure is drawn from the model matrices in world space: its group stays at the origin.
    figure.update(walker.model, walker.world);
    const s = walker.stats();
    if (walker instanceof LadderClimber) {
      // A three-quarter view of the figure, the rungs running along z.
      const hips = walker.focus(focus);
      camera.position.set(hips.x + 2.2, 1.7, hips.z + 3.6);
      camera.lookAt(hips.x, 1.2, hips.z);
      panel.textContent = `IK ${walker.ik ? 'on' : 'off'} (I), ${walker.time.toFixed(1)} of ${walker.duration.toFixed(1)} s\nholds–new rungs:  ${cm(s.footError)}\nthe capture's own: ${cm(s.footErrorWithoutIk)}`;
    } else {
      const y = walker.world[13];
      camera.position.set(walker.x + 0.6, y + 1.3, 4.6);
      camera.lookAt(walker.x + 0.3, y + 0.7, 0);
      panel.textContent = `IK ${walker.ik ? 'on' : 'off'} (I)\nfeet–ground at contacts: ${cm(s.footError)}\nwithout IK:              ${cm(s.footErrorWithoutIk)}`;
    }
    renderer.render(scene, camera);
    requestAnimationFrame(frame);
  };

  publish({
    stats: (): Stats => ({
      ready: frames > 3,
      clip: current.file,
      ik: current.walker.ik,
      x: current.walker.x,
      time: current.walker instanceof LadderClimber ? current.walker.time : 0,
      frames,
      ...current.walker.stats(),
    }),
    resetStats: () => current.walker.resetStats(),
    setClip: choose,
    setIk,
  });
  requestAnimationFrame(frame);
}

main().catch((error: unknown) => {
  const panel = document.getElementById('panel');
  if (panel) panel.textContent = `The page could not start: ${describeError(error)}`;
  console.error(error);
});
