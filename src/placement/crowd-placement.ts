/**
 * Feet on the ground for a whole crowd in one call: a `FootPlacement` per character on the crowd's
 * own arrays, with the contacts of each character's clip.
 *
 * @packageDocumentation
 */
import type { Clip } from '../animation/clip.js';
import { checkObjectArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import { Crowd } from '../pose/crowd.js';
import type { Pose } from '../pose/pose.js';
import type { Rig } from '../rig/limbs.js';
import { type ContactTrack, computeContacts } from './contacts.js';
import { FootPlacement, type FootPlacementOptions } from './foot-placement.js';

/** Set-up of a {@link CrowdPlacement}: every character's {@link FootPlacement} options, and more. */
export interface CrowdPlacementOptions extends FootPlacementOptions {
  /**
   * The contacts of a clip, asked once per clip a character is given (then kept). Default
   * `computeContacts(clip, rig.legs)`; return `null` for a clip whose feet are not to be driven by
   * contacts (they are then placed as {@link FootPlacement} places them without a track).
   */
  readonly contacts?: (clip: Clip) => ContactTrack | null;
  /**
   * Where the characters' model-to-world matrices live, 16 numbers each (such as a
   * `SharedArrayBuffer`'s view, for workers). Default: a new array, every character at the
   * identity.
   */
  readonly worlds?: Float64Array;
}

/**
 * Places the feet of every character of a {@link Crowd}: each has its own {@link FootPlacement}
 * (its locks and springs are its own), working on the crowd's arrays themselves
 * ({@link Crowd.poseOf}, {@link Crowd.modelOf}: nothing is copied), driven by the contacts of its
 * clip ({@link Crowd.clipOf}; looked up again when the clip changes) at its time
 * ({@link Crowd.times}). Each frame: set {@link worlds}, `crowd.sample()`,
 * `crowd.forwardKinematics()`, then {@link solve}; the pose and model matrices are the placed
 * ones for the palettes. A character gets the bits its own `FootPlacement` would give it on a
 * `Pose` of its own.
 *
 * The per-character objects are made once, here; {@link solve} allocates nothing (the frame's
 * `dt` reaches each placement through its `clock`, not as an argument V8 might box). A character
 * with a second clip ({@link Crowd.setBlendClip}) is placed with its first clip's contacts.
 */
export class CrowdPlacement {
  /** The crowd placed. */
  readonly crowd: Crowd;
  /** Each character's model-to-world matrix, 16 numbers (column-major), read by {@link solve}. */
  readonly worlds: Float64Array;
  /**
   * Each character's placement: for what is per character (`setWeight`, `reset` after a teleport,
   * its `report`).
   */
  readonly placements: readonly FootPlacement[];
  private readonly poses: readonly Pose[];
  private readonly models: readonly Float64Array[];
  private readonly worldViews: readonly Float64Array[];
  /** The clip whose contacts each character's placement has (`undefined`: none set yet). */
  private readonly trackClips: (Clip | null | undefined)[];
  private readonly tracks = new Map<Clip, ContactTrack | null>();
  private readonly contacts: (clip: Clip) => ContactTrack | null;

  /**
   * @param crowd - the crowd whose characters are placed.
   * @param rig - the skeleton's rig ({@link index!findRig}).
   * @param options - each placement's options (the ground among them), the contacts, the worlds.
   * @throws {@link TendonError} `argument/invalid` for a crowd that is not one,
   *   `pose/buffer-size` for `worlds` that are not 16 numbers a character, and what
   *   {@link FootPlacement}'s constructor throws for the rig and options.
   */
  constructor(crowd: Crowd, rig: Rig, options: CrowdPlacementOptions) {
    if (!(crowd instanceof Crowd)) {
      throw new TendonError('argument/invalid', `CrowdPlacement: the crowd is ${String(crowd)}, not a Crowd`);
    }
    checkObjectArg(options, 'CrowdPlacement', 'options');
    const n = crowd.count;
    const worlds = options.worlds ?? new Float64Array(16 * n);
    if (!(worlds instanceof Float64Array) || worlds.length !== 16 * n) {
      throw new TendonError(
        'pose/buffer-size',
        `CrowdPlacement: worlds must be a Float64Array of 16 × ${n} characters`,
      );
    }
    if (options.worlds === undefined) {
      for (let c = 0; c < n; c++)
        worlds[16 * c] = worlds[16 * c + 5] = worlds[16 * c + 10] = worlds[16 * c + 15] = 1;
    }
    const contacts = options.contacts;
    if (contacts !== undefined && typeof contacts !== 'function') {
      throw new TendonError('argument/invalid', 'CrowdPlacement: contacts must be a function of a clip');
    }
    this.crowd = crowd;
    this.worlds = worlds;
    this.contacts = contacts ?? ((clip) => computeContacts(clip, rig.legs));
    const placements: FootPlacement[] = [];
    const poses: Pose[] = [];
    const models: Float64Array[] = [];
    const views: Float64Array[] = [];
    for (let c = 0; c < n; c++) {
      placements.push(new FootPlacement(crowd.skeleton, rig, options));
      poses.push(crowd.poseOf(c));
      models.push(crowd.modelOf(c));
      views.push(worlds.subarray(16 * c, 16 * (c + 1)));
    }
    this.placements = Object.freeze(placements);
    this.poses = Object.freeze(poses);
    this.models = Object.freeze(models);
    this.worldViews = Object.freeze(views);
    this.trackClips = new Array<Clip | null | undefined>(n).fill(undefined);
  }

  /**
   * Places characters `first … first + count − 1` (default all) for a frame of `dt` seconds, each
   * at its {@link Crowd.times} in its clip and its {@link worlds} matrix. A character without a
   * clip is left alone. Call after the crowd's `sample` and `forwardKinematics`.
   *
   * @throws {@link TendonError} `argument/invalid` for a range outside the crowd, and what
   *   {@link FootPlacement.solve} throws (a bad `dt` or world matrix, a ground that fails): the
   *   characters before the one that threw are placed, it and those after are not.
   */
  solve(dt: number, first = 0, count: number = this.crowd.count - first): void {
    const n = this.crowd.count;
    if (!Number.isInteger(first) || !Number.isInteger(count) || first < 0 || count < 0 || first + count > n) {
      throw new TendonError(
        'argument/invalid',
        `CrowdPlacement.solve: characters ${first} … ${first + count - 1} are not in 0 … ${n - 1}`,
      );
    }
    const times = this.crowd.times;
    for (let c = first; c < first + count; c++) {
      const clip = this.crowd.clipOf(c);
      if (clip === null) continue;
      const placement = this.placements[c];
      if (clip !== this.trackClips[c]) this.followClip(c, clip);
      const clock = placement.clock;
      clock[0] = dt;
      clock[1] = times[c];
      placement.solveClock(this.poses[c], this.models[c], this.worldViews[c]);
    }
  }

  /** Gives character `c`'s placement the contacts of its (new) clip. */
  private followClip(c: number, clip: Clip): void {
    let track = this.tracks.get(clip);
    if (track === undefined) {
      track = this.contacts(clip);
      this.tracks.set(clip, track);
    }
    this.placements[c].setContactTrack(track);
    this.trackClips[c] = clip;
  }
}
