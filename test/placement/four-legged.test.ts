/**
 * Placement of a four-legged rig, the Fox: its hind feet are digitigrade (the foot joint, the hock,
 * stands 15 cm above the toe), its front paws have no toe joint, and its body pitches to the
 * slope. Each case here is one rule of FootPlacement that a biped does not exercise.
 */
import { describe, expect, it } from 'vitest';
import type { Clip } from '../../src/animation/clip.js';
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import { type ContactTrack, computeContacts } from '../../src/placement/contacts.js';
import { FootPlacement, type FootPlacementOptions, LEG_REPORT } from '../../src/placement/foot-placement.js';
import { type Ground, HIT, RAY } from '../../src/placement/ground.js';
import { PlaneGround } from '../../src/placement/plane-ground.js';
import {
  createModelBuffer,
  forwardKinematics,
  restModelMatrices,
} from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { findRig } from '../../src/rig/find-rig.js';
import { skeletonFromPoints } from '../helpers/skeleton-from-points.js';
import { type Character, fox } from './characters.js';
import { terrains } from './terrains.js';
import { path, walk } from './walk-harness.js';

/** tan 20°: the test's data. */
const TAN_20 = 0.36397023426620234;
/** Legs 0, 1 are the hind legs, 2, 3 the front (characters.ts). */
const HIND_LEFT = 0;
const FRONT_LEFT = 2;

interface Run {
  readonly character: Character;
  readonly clip: Clip;
  readonly track: ContactTrack;
  readonly placement: FootPlacement;
  readonly pose: Pose;
  readonly model: Float64Array;
  readonly world: number[];
  /** Samples and poses frame `f` (60 fps) into `pose`/`model` and returns a copy of the model. */
  readonly animate: (f: number) => Float64Array;
  readonly solve: (f: number) => void;
}

async function run(ground: Ground, options: Partial<FootPlacementOptions> = {}): Promise<Run> {
  const character = await fox();
  const clip = character.clips.get('Walk') as Clip;
  const track = computeContacts(clip, character.rig.legs, { loop: true });
  const placement = new FootPlacement(clip.skeleton, character.rig, { ground, ...options });
  placement.setContactTrack(track);
  const pose = new Pose(clip.skeleton);
  const model = createModelBuffer(clip.skeleton);
  const context = new SamplerContext(clip);
  const s = character.scale;
  const world = [s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1];
  const animate = (f: number) => {
    sampleClip(clip, context, f / 60, pose);
    forwardKinematics(pose, model);
    return model.slice();
  };
  const solve = (f: number) => placement.solve(pose, model, world, 1 / 60, f / 60);
  return { character, clip, track, placement, pose, model, world, animate, solve };
}

/** The angle (degrees) between the rotations of two column-major model matrices' upper 3×3. */
function angleBetween(a: Float64Array, b: Float64Array, o: number): number {
  const col = (m: Float64Array, c: number) => {
    const v = [m[o + 4 * c], m[o + 4 * c + 1], m[o + 4 * c + 2]];
    const l = Math.hypot(v[0], v[1], v[2]);
    return v.map((x) => x / l);
  };
  let trace = 0;
  for (let c = 0; c < 3; c++) {
    const u = col(a, c);
    const v = col(b, c);
    trace += u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
  }
  return (Math.acos(Math.min(1, Math.max(-1, (trace - 1) / 2))) * 180) / Math.PI;
}

/**
 * y = 0.3 m for z below `edge`, 0.15 m past it: one step down along +Z. Within `riser` of the edge
 * the ground answers the riser's normal, nearly horizontal, as a mesh's step would.
 */
class StepDown implements Ground {
  constructor(
    readonly edge: number,
    readonly riser = 0,
  ) {}
  raycast(ray: Float64Array, hit: Float64Array): boolean {
    const z = ray[RAY.origin + 2];
    const y = z < this.edge ? 0.3 : 0.15;
    const onRiser = Math.abs(z - this.edge) < this.riser;
    const below = ray[RAY.origin + 1] - y;
    if (below < 0 || below > ray[RAY.maxDistance]) return false;
    hit[HIT.point] = ray[RAY.origin];
    hit[HIT.point + 1] = y;
    hit[HIT.point + 2] = ray[RAY.origin + 2];
    hit[HIT.normal] = 0;
    hit[HIT.normal + 1] = onRiser ? 0.05 : 1;
    hit[HIT.normal + 2] = onRiser ? -1 : 0;
    return true;
  }
}

describe('FootPlacement on a four-legged rig (the Fox)', () => {
  it('stands a digitigrade hind foot on its toe, its hock-to-toe span as the animation has it', async () => {
    // A 20° plane rising toward the Fox's travel (+Z).
    const { character, track, placement, model, animate, solve } = await run(
      new PlaneGround([0, 0, 0], [0, 1, -TAN_20]),
    );
    const leg = character.rig.legs[HIND_LEFT];
    const s = character.scale;
    const cos20 = 1 / Math.sqrt(1 + TAN_20 * TAN_20);
    let checked = 0;
    for (let f = 0; f < 240; f++) {
      const animated = animate(f);
      solve(f);
      if (f < 60 || placement.planted[HIND_LEFT] !== 1 || placement.contactWeights[HIND_LEFT] < 1) continue;
      // The span from the hock to the toe is the animation's, in model space: not turned to the
      // slope (which would swing the toe 5 cm off the ground), nor with the body's pitch.
      for (let k = 12; k < 15; k++) {
        const placed = model[16 * leg.toe + k] - model[16 * leg.foot + k];
        const wanted = animated[16 * leg.toe + k] - animated[16 * leg.foot + k];
        expect(Math.abs(placed - wanted)).toBeLessThan(1e-9);
      }
      // The toe on the plane, at its planted height along the normal.
      const y = s * model[16 * leg.toe + 13];
      const z = s * model[16 * leg.toe + 14];
      const height = (y - TAN_20 * z) * cos20;
      expect(Math.abs(height - s * track.toeHeights[HIND_LEFT])).toBeLessThan(0.003);
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('turns a planted paw to the ground from the animation, not from the pitched body', async () => {
    const { character, placement, model, animate, solve } = await run(
      new PlaneGround([0, 0, 0], [0, 1, -TAN_20]),
    );
    const paw = character.rig.legs[FRONT_LEFT].foot;
    const legs = character.rig.legs;
    // The pitch of the line from the hind hips' middle to the front hips' (degrees, nose-up).
    const pitch = (m: Float64Array) => {
      const mid = (a: number, b: number, k: number) =>
        (m[16 * legs[a].root + k] + m[16 * legs[b].root + k]) / 2;
      const dy = mid(2, 3, 13) - mid(0, 1, 13);
      const dz = mid(2, 3, 14) - mid(0, 1, 14);
      return (Math.atan2(dy, Math.abs(dz)) * 180) / Math.PI;
    };
    let checked = 0;
    for (let f = 0; f < 240; f++) {
      const animated = animate(f);
      solve(f);
      if (f < 60 || placement.planted[FRONT_LEFT] !== 1 || placement.contactWeights[FRONT_LEFT] < 1) continue;
      // The body is pitched by 10° or more here; the paw's turn is the slope's alone.
      expect(pitch(model) - pitch(animated)).toBeGreaterThan(10);
      expect(Math.abs(angleBetween(model, animated, 16 * paw) - 20)).toBeLessThan(1);
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('stands a paw landing just past a step edge on the edge (footprint), and reads a slope the same', async () => {
    const probe = await run(new PlaneGround([0, 0, 0], [0, 1, 0]));
    // A frame whose front-left paw is planted; the edge 1 cm behind it, so the paw's centre is over
    // the lower level and the back of its pad (5% of the leg, 2 cm) over the upper.
    let f = 0;
    for (; f < 120; f++) {
      probe.animate(f);
      probe.solve(f);
      if (probe.placement.planted[FRONT_LEFT] === 1 && probe.placement.contactWeights[FRONT_LEFT] === 1)
        break;
    }
    const model = probe.animate(f);
    const s = probe.character.scale;
    const paw = probe.character.rig.legs[FRONT_LEFT].foot;
    const edge = s * model[16 * paw + 14] - 0.01;
    const groundUnderPaw = async (ground: Ground, options: Partial<FootPlacementOptions>) => {
      const r = await run(ground, options);
      r.animate(f);
      r.solve(f);
      return r.placement.report[LEG_REPORT.length * FRONT_LEFT + LEG_REPORT.groundPoint + 1];
    };
    expect(await groundUnderPaw(new StepDown(edge), {})).toBe(0.3);
    expect(await groundUnderPaw(new StepDown(edge), { footprint: 0 })).toBe(0.15);
    // On a plane the pad's ends stand on the centre's plane: nothing is raised.
    const slope = new PlaneGround([0, 0, 0], [0, 1, -TAN_20]);
    const withPad = await groundUnderPaw(slope, {});
    const without = await groundUnderPaw(slope, { footprint: 0 });
    expect(withPad).toBeCloseTo(without, 12);
    // Nor where the centre's ground is too steep to stand on (a mesh's riser under the paw: the
    // ends' heights over its plane would be divided by its normal's tiny up component).
    const riser = new StepDown(edge + 0.01, 0.005);
    expect(await groundUnderPaw(riser, {})).toBe(await groundUnderPaw(riser, { footprint: 0 }));
  });

  it('finds the ground below a paw lifted high: the ray is measured from the planted height', async () => {
    const probe = await run(new PlaneGround([0, 0, 0], [0, 1, 0]));
    const s = probe.character.scale;
    const leg = probe.character.rig.legs[FRONT_LEFT];
    // A frame where the paw swings more than 10% of the leg above its planted height.
    let f = 0;
    let length = 0;
    let planted = 0;
    for (; f < 120; f++) {
      const m = probe.animate(f);
      const bone = (a: number, b: number) =>
        Math.hypot(
          m[16 * b + 12] - m[16 * a + 12],
          m[16 * b + 13] - m[16 * a + 13],
          m[16 * b + 14] - m[16 * a + 14],
        );
      length = s * (bone(leg.root, leg.middle) + bone(leg.middle, leg.foot));
      planted = s * probe.track.footHeights[FRONT_LEFT];
      if (s * m[16 * leg.foot + 13] - planted > 0.1 * length) break;
    }
    expect(f).toBeLessThan(120);
    // With the defaults (rayAbove 0.6, rayBelow 0.6, maxDrop 0.5 of the leg) and a level body
    // (maxBodyPitch 0) the ray reaches 1.1 legs below the planted height, wherever the paw is.
    const grounded = async (depth: number, options: Partial<FootPlacementOptions> = {}) => {
      const r = await run(new PlaneGround([0, planted - depth * length, 0], [0, 1, 0]), options);
      r.animate(f);
      r.solve(f);
      return r.placement.report[LEG_REPORT.length * FRONT_LEFT + LEG_REPORT.grounded];
    };
    const level = { maxBodyPitch: 0 };
    expect(await grounded(1.05, level)).toBe(1);
    expect(await grounded(1.15, level)).toBe(0);
    // A body that pitches (0.5 rad by default) lowers a paw d ahead of the pelvis by up to
    // d·sin(0.5): the ray reaches that much farther (and starts that much higher).
    const rest = restModelMatrices(probe.character.skeleton);
    const d = (rest[16 * leg.foot + 14] - rest[16 * probe.character.rig.pelvis + 14]) * s;
    const pitchReach = (Math.abs(d) * Math.sin(0.5)) / length;
    expect(pitchReach).toBeGreaterThan(0.2);
    expect(await grounded(1.05 + pitchReach)).toBe(1);
    expect(await grounded(1.15 + pitchReach)).toBe(0);
    expect(await grounded(1.15)).toBe(1);
  });

  it('places the same for a forward of any length (1e-200 to 1e200): it is made unit once', async () => {
    // Squares of 1e-200 or 1e200 under- or overflow: measured plainly, such a forward made the Fox
    // two-legged (its paws 17 cm off on steps).
    const world = async (forward: [number, number, number]) => {
      const r = await run(terrains([0, 1], 0.3).steps, { forward });
      const out: number[] = [];
      for (let f = 0; f < 90; f++) {
        r.animate(f);
        r.solve(f);
        out.push(...r.model);
      }
      return out;
    };
    const unit = await world([0, 0, 1]);
    for (const forward of [
      [0, 0, 1e-200],
      [0, 0, 1e200],
      [0, 0, 0.01],
    ] as [number, number, number][]) {
      const other = await world(forward);
      let most = 0;
      for (let k = 0; k < unit.length; k++) most = Math.max(most, Math.abs(other[k] - unit[k]));
      expect(most).toBe(0);
    }
  });

  it('finds a step up the body can pitch to: the ray starts above it', async () => {
    const probe = await run(new PlaneGround([0, 0, 0], [0, 1, 0]));
    const s = probe.character.scale;
    const leg = probe.character.rig.legs[FRONT_LEFT];
    const m = probe.animate(0);
    const rest = restModelMatrices(probe.character.skeleton);
    const length =
      s *
      (Math.hypot(...[0, 1, 2].map((k) => m[16 * leg.middle + 12 + k] - m[16 * leg.root + 12 + k])) +
        Math.hypot(...[0, 1, 2].map((k) => m[16 * leg.foot + 12 + k] - m[16 * leg.middle + 12 + k])));
    const pitchReach =
      (Math.abs(rest[16 * leg.foot + 14] - rest[16 * probe.character.rig.pelvis + 14]) * s * Math.sin(0.5)) /
      length;
    const paw = s * m[16 * leg.foot + 13];
    const grounded = async (above: number, options: Partial<FootPlacementOptions> = {}) => {
      const r = await run(new PlaneGround([0, paw + above * length, 0], [0, 1, 0]), options);
      r.animate(0);
      r.solve(0);
      return r.placement.report[LEG_REPORT.length * FRONT_LEFT + LEG_REPORT.grounded];
    };
    // Ground 0.7 legs above the paw is above the level body's rays (0.6), within the pitching one's.
    expect(await grounded(0.55 + pitchReach)).toBe(1);
    expect(await grounded(0.7, { maxBodyPitch: 0 })).toBe(0);
    expect(await grounded(0.7)).toBe(1);
    // `forward` of any length: a short one found no front and hind legs (the spread was compared
    // with a length), and the body did not pitch.
    expect(await grounded(0.7, { forward: [0, 0, 0.01] })).toBe(1);
  });

  it('keeps a leg the clip holds straight a little bent (minSoftness), so a front paw lands without a snap', async () => {
    // The Fox's front legs stand straight through their stance. Landing on a bump lower than the
    // clip's ground, a straight leg that had hung out of reach was reached, then 1 cm nearer, and
    // its elbow turned 25° in a frame (frame 131): the knee's singular point.
    const character = await fox();
    const clip = character.clips.get('Walk') as Clip;
    const track = computeContacts(clip, character.rig.legs, { loop: true });
    const { along, start } = path(clip, character.rig.pelvis, character.scale, track.groundVelocity);
    const beyond = (options: Partial<FootPlacementOptions>) =>
      walk({
        clip,
        rig: character.rig,
        track,
        ground: terrains(along, start).bumps,
        scale: character.scale,
        seconds: 6,
        options,
      }).maxStepBeyondClipDeg;
    expect(beyond({})).toBeLessThanOrEqual(10);
    expect(beyond({ minSoftness: 0 })).toBeGreaterThan(15);
  });

  it('stands a planted hind paw on a step’s nose when switched back on, and heads a landing one for it (footprint)', async () => {
    // Over the steps laid 0.5 m on, switched off at frame 48 and back on over 0.1 s at 88: the
    // left hind paw is planted with its toe a centimetre past a nose. Without a lock to stand on,
    // its ray read the lower level, the hips sank 18 cm and a hind leg folded past its reach 20
    // frames on (27.3° beyond the clip's). Over the steps laid 0.74 m on, a hind paw's toe crossed a
    // nose walking down in the frame before it landed and dropped 14 cm (58.8°).
    const character = await fox();
    const clip = character.clips.get('Walk') as Clip;
    const track = computeContacts(clip, character.rig.legs, { loop: true });
    const [gx, , gz] = track.groundVelocity;
    const l = Math.hypot(gx, gz);
    const steps = (start: number) => terrains([-gx / l, -gz / l], start).steps;
    const switched = walk({
      clip,
      rig: character.rig,
      track,
      ground: steps(0.5),
      scale: character.scale,
      seconds: 6,
      toggle: [48, 88],
      toggleEase: 0.1,
    });
    expect(switched.maxStepBeyondClipDeg).toBeLessThan(10.6);
    const landing = walk({
      clip,
      rig: character.rig,
      track,
      ground: steps(0.74),
      scale: character.scale,
      seconds: 6,
    });
    expect(landing.maxStepBeyondClipDeg).toBeLessThan(30);
  });
});

describe('a four-legged body whose legs are straight at rest', () => {
  // Column legs (an elephant modelled standing straight): no bend plane at rest. Until 27 November
  // every straight leg bent its middle joint forward, a front elbow too: walked on the wrong way
  // in every frame.
  it('bends the hind knees forward and the front elbows back', () => {
    const at: number[][] = [
      [0, 1.6, 0],
      [0, 1.7, 1.2],
    ];
    const parents = [-1, 0];
    const names = ['hips', 'chest'];
    for (const [name, parent, z] of [
      ['hind', 0, 0],
      ['front', 1, 1.2],
    ] as const) {
      for (const [side, x] of [
        ['L', 0.3],
        ['R', -0.3],
      ] as const) {
        const top = names.length;
        names.push(
          `${name}Thigh.${side}`,
          `${name}Shin.${side}`,
          `${name}Foot.${side}`,
          `${name}Toe.${side}`,
        );
        parents.push(parent, top, top + 1, top + 2);
        at.push([x, 1.5, z], [x, 0.8, z], [x, 0.1, z], [x, 0.02, z + 0.15]);
      }
    }
    const skeleton = skeletonFromPoints(names.map((name, j) => ({ name, parent: parents[j], at: at[j] })));
    const rig = findRig(skeleton);
    expect(rig.legs.map((l) => l.label)).toEqual(['hind-left', 'hind-right', 'front-left', 'front-right']);
    const placement = new FootPlacement(skeleton, rig, { ground: new PlaneGround([0, 0, 0], [0, 1, 0]) });
    const pose = new Pose(skeleton);
    const model = createModelBuffer(skeleton);
    for (let f = 0; f < 30; f++) {
      placement.contactWeights.fill(1);
      placement.planted.fill(1);
      pose.resetToRest();
      // Crouched 20 cm, as an animation would: every leg must bend.
      pose.translations[1] -= 0.2;
      forwardKinematics(pose, model);
      placement.solve(pose, model, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 1 / 60);
    }
    // How far each leg's middle joint stands ahead (+Z) of the line from its top to its end.
    const ahead = rig.legs.map((l) => {
      const z = (j: number) => model[16 * j + 14];
      return z(l.middle) - (z(l.root) + z(l.end)) / 2;
    });
    expect(ahead[0]).toBeGreaterThan(0.05);
    expect(ahead[1]).toBeGreaterThan(0.05);
    expect(ahead[2]).toBeLessThan(-0.05);
    expect(ahead[3]).toBeLessThan(-0.05);
  });
});
