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
import { checkCharacterRange } from '../pose/crowd-checks.js';
import type { Pose } from '../pose/pose.js';
import type { Rig } from '../rig/limbs.js';
import { checkOptionKeys, refuseNotNumber } from './check-option.js';
import { ContactTrack, computeContacts } from './contacts.js';
import { FOOT_PLACEMENT_OPTIONS, FootPlacement, type FootPlacementOptions } from './foot-placement.js';

/** One character's placement and the views it works on. */
interface Robot {
  readonly placement: FootPlacement;
  readonly pose: Pose;
  readonly model: Float64Array;
  readonly world: Float64Array;
}

/** Set-up of a {@link CrowdPlacement}: every character's {@link FootPlacement} options, and more. */
export interface CrowdPlacementOptions extends FootPlacementOptions {
  /**
   * The contacts of a clip, asked once per clip a character is given (then kept). Default
   * `computeContacts(clip, rig.legs)` (a looping clip's contacts; give one-shot clips theirs with
   * `{ loop: false }`), `null` for a clip of no duration. Return `null` for a clip whose feet are
   * not to be driven by contacts: its characters are then placed with every foot's contact weight
   * 1 and none planted (each foot follows the ground, none is locked), at the foot heights of the
   * last track they had.
   */
  readonly contacts?: (clip: Clip) => ContactTrack | null;
  /**
   * Where the characters' model-to-world matrices live, 16 numbers each (such as a
   * `SharedArrayBuffer`'s view, for workers). Default: a new array, every character at the
   * identity.
   */
  readonly worlds?: Float64Array;
}

/** What the crowd passes on to each character's FootPlacement (maxJointStep for its message). */
const FOOT_OPTIONS_PASSED = [...FOOT_PLACEMENT_OPTIONS, 'maxJointStep'];

/** The keys of {@link CrowdPlacementOptions} (any other is refused: a misspelling was ignored). */
const CROWD_PLACEMENT_OPTIONS = [...FOOT_OPTIONS_PASSED, 'contacts', 'worlds'];

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
 * Each character's objects are made the first time it is placed (or asked for:
 * {@link CrowdPlacement.placementOf}), so a worker placing a range makes only its range's and
 * character 0's (which the constructor makes to check the options); after
 * that {@link solve} allocates nothing, except when a character has a clip whose contacts are not
 * known yet (they are computed then, once per clip: a frame's hitch).
 * A character with a second clip ({@link Crowd.setBlendClip}) is placed with the contacts of the
 * clip that weighs more, at that clip's time: its first clip's at {@link Crowd.times}, its
 * second's at {@link Crowd.blendTimes} once its {@link Crowd.blendWeights} passes 0.55, until it
 * falls below 0.45. A character whose clip is set to `null` is left alone; when it
 * gets one again its placement starts over ({@link FootPlacement.reset}).
 */
export class CrowdPlacement {
  /** The crowd placed. */
  readonly crowd: Crowd;
  /** Each character's model-to-world matrix, 16 numbers (column-major), read by {@link solve}. */
  readonly worlds: Float64Array;
  /** Each character's placement and views, made when it is first needed (placementOf, solve). */
  private readonly robots: (Robot | null)[];
  private readonly rig: Rig;
  /** The options each character's FootPlacement is made with (the crowd's own taken out). */
  private readonly options: FootPlacementOptions;
  /** The clip whose contacts each character's placement has (`undefined`: none set yet). */
  private readonly trackClips: (Clip | null | undefined)[];
  /** Per character, 1 where its second clip leads its feet (its weight past 0.55, until below 0.45). */
  private readonly leading: Uint8Array;
  /** Per character, {@link Crowd.despawns} when its clip was last followed. */
  private readonly despawnsSeen: Uint32Array;
  private readonly tracks = new Map<Clip, ContactTrack | null>();
  private readonly contacts: (clip: Clip) => ContactTrack | null;
  /**
   * The frame's `dt` as {@link CrowdPlacement.solveClock} reads it: {@link CrowdPlacement.solve}
   * writes it there (a small entry V8 inlines, so that the number is not boxed on its way).
   */
  readonly clock = new Float64Array(1);

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
    checkOptionKeys(options, CROWD_PLACEMENT_OPTIONS, 'CrowdPlacement');
    const n = crowd.count;
    const given = options.worlds;
    if (given !== undefined && (!(given instanceof Float64Array) || given.length !== 16 * n)) {
      throw new TendonError(
        'pose/buffer-size',
        `CrowdPlacement: worlds must be a Float64Array of 16 × ${n} characters`,
      );
    }
    const worlds = given ?? new Float64Array(16 * n);
    if (given === undefined) {
      for (let c = 0; c < n; c++) {
        worlds[16 * c] = worlds[16 * c + 5] = worlds[16 * c + 10] = worlds[16 * c + 15] = 1;
      }
    }
    const contacts = options.contacts;
    if (contacts !== undefined && typeof contacts !== 'function') {
      throw new TendonError('argument/invalid', 'CrowdPlacement: contacts must be a function of a clip');
    }
    this.crowd = crowd;
    this.worlds = worlds;
    this.contacts = contacts ?? ((clip) => (clip.duration > 0 ? computeContacts(clip, rig.legs) : null));
    this.rig = rig;
    // FootPlacement's own options read one by one (a spread copies only own properties: options
    // inheriting their ground, or a getter, lost it), the renamed maxJointStep passed on for
    // FootPlacement's message on it.
    const footOptions: Record<string, unknown> = {};
    for (const key of FOOT_OPTIONS_PASSED) {
      const value = (options as unknown as Record<string, unknown>)[key];
      if (value !== undefined) footOptions[key] = value;
    }
    this.options = footOptions as unknown as FootPlacementOptions;
    this.robots = new Array<Robot | null>(n).fill(null);
    // The options checked now, as FootPlacement's constructor checks them (the first character's
    // placement; the others are made when first placed, so a worker makes only its range's and
    // this one).
    if (n > 0) this.robotOf(0);
    else new FootPlacement(crowd.skeleton, rig, this.options);
    this.trackClips = new Array<Clip | null | undefined>(n).fill(undefined);
    this.despawnsSeen = new Uint32Array(n);
    this.leading = new Uint8Array(n);
  }

  /**
   * Places characters `first … first + count − 1` (default all) for a frame of `dt` seconds, each
   * at its {@link Crowd.times} in its clip (a blended one led by its second clip: at its
   * {@link Crowd.blendTimes} in that) and its {@link worlds} matrix. A character without a
   * clip is left alone. Call after the crowd's `sample` and `forwardKinematics`.
   *
   * @throws {@link TendonError} `argument/invalid` for a range outside the crowd,
   *   `placement/invalid-input` for a world matrix or a time (the one it is placed at) of a character
   *   of the range (with a clip) with a number that is not finite,
   *   what the `contacts` option throws or a track it returns that does not fit the rig
   *   (`placement/invalid-option`): all before any character is placed; and what
   *   {@link FootPlacement.solve} throws (a bad `dt`, a ground that fails, a world matrix that
   *   cannot be inverted): the characters before the one that threw are placed, it and those after
   *   are not.
   */
  solve(dt: number, first = 0, count: number = this.crowd.count - first): void {
    if (typeof dt !== 'number') refuseNotNumber(dt, 'CrowdPlacement.solve', 'dt');
    this.clock[0] = dt;
    this.solveClock(first, count);
  }

  /** {@link CrowdPlacement.solve}, with `dt` read from {@link CrowdPlacement.clock}. */
  solveClock(first = 0, count: number = this.crowd.count - first): void {
    checkCharacterRange(first, count, this.crowd.count, 'CrowdPlacement.solve');
    const crowd = this.crowd;
    const worlds = this.worlds;
    // What can fail for a character of the range fails here, before any is placed: its world
    // matrix, its clip's contacts.
    for (let c = first; c < first + count; c++) {
      // The clip that weighs more leads the feet, at its own time: a walk fading into a run took
      // the walk's contacts to the end, the run's feet locked at the walk's contact times (legs
      // turning 56–101° in a frame; a hostile test).
      // (With some hysteresis, 0.45 to 0.55: a weight wobbling about 0.5 swapped the contacts
      // every frame, 43° steps.)
      const base = crowd.clipOf(c);
      const blend = crowd.blendClipOf(c);
      const w = crowd.blendWeights[c];
      const second = base !== null && blend !== null && (this.leading[c] === 1 ? w >= 0.45 : w > 0.55);
      const clip = second ? blend : base;
      this.leading[c] = second ? 1 : 0;
      // (A character taken out and given a clip again since, even the same clip, starts over.)
      if (clip !== this.trackClips[c] || crowd.despawns(c) !== this.despawnsSeen[c]) this.followClip(c, clip);
      if (clip === null) continue;
      for (let i = 16 * c; i < 16 * c + 16; i++) {
        const v = worlds[i];
        if (!(v - v === 0)) {
          throw new TendonError(
            'placement/invalid-input',
            `CrowdPlacement.solve: world[${i - 16 * c}] of character ${c} is ${v}, not a finite number`,
          );
        }
      }
      // Its time too (set by hand after the crowd's sample refused it): a NaN stopped the solve
      // at that character, those before placed and those after not.
      const time = second ? crowd.blendTimes[c] : crowd.times[c];
      if (!(time - time === 0)) {
        throw new TendonError(
          'placement/invalid-input',
          `CrowdPlacement.solve: the time of character ${c} is ${time}, not a finite number`,
        );
      }
    }
    const dt = this.clock[0];
    const times = crowd.times;
    const blendTimes = crowd.blendTimes;
    let c = first;
    try {
      for (; c < first + count; c++) {
        if (this.trackClips[c] === null) continue;
        const robot = this.robotOf(c);
        const clock = robot.placement.clock;
        clock[0] = dt;
        clock[1] = this.leading[c] === 1 ? blendTimes[c] : times[c];
        robot.placement.solveClock(robot.pose, robot.model, robot.world);
      }
    } catch (error) {
      // Said for the character it was: "the world matrix is not invertible" named no one.
      if (!(error instanceof TendonError)) throw error;
      throw new TendonError(error.code, `CrowdPlacement.solve, character ${c}: ${error.message}`, {
        cause: error,
      });
    }
  }

  /**
   * Character `c`'s own placement, for what is per character: `setWeight`, `reset` after a
   * teleport, its `report` and `pelvisOffset`. Made on first use (the first call or the first
   * solve that reaches the character): a worker makes only its own range's.
   *
   * @throws {@link TendonError} `argument/invalid` for a character out of range.
   */
  placementOf(c: number): FootPlacement {
    checkCharacterRange(c, 1, this.crowd.count, 'CrowdPlacement.placementOf');
    return this.robotOf(c).placement;
  }

  /** Character `c`'s placement and views, made the first time they are asked for. */
  private robotOf(c: number): Robot {
    let robot = this.robots[c];
    if (robot === null) {
      robot = {
        placement: new FootPlacement(this.crowd.skeleton, this.rig, this.options),
        pose: this.crowd.poseOf(c),
        model: this.crowd.modelOf(c),
        world: this.worlds.subarray(16 * c, 16 * (c + 1)),
      };
      this.robots[c] = robot;
    }
    return robot;
  }

  /**
   * Gives character `c`'s placement the contacts of its new clip (`null`: none, the character is
   * left alone). A character that comes back from no clip starts over: its locks and springs are
   * of a pose long gone.
   */
  private followClip(c: number, clip: Clip | null): void {
    const placement = this.robotOf(c).placement;
    const despawns = this.crowd.despawns(c);
    const respawned = despawns !== this.despawnsSeen[c];
    if (clip === null) {
      this.despawnsSeen[c] = despawns;
      this.trackClips[c] = null;
      return;
    }
    let track = this.tracks.get(clip);
    if (track === undefined) {
      track = this.contacts(clip);
      if (track !== null && !(track instanceof ContactTrack)) {
        throw new TendonError(
          'placement/invalid-option',
          `CrowdPlacement: contacts gave ${String(track)} for clip "${clip.name}", not a ContactTrack or null`,
        );
      }
    }
    // Kept once setContactTrack has checked it against the rig (it throws for a track of other legs).
    placement.setContactTrack(track);
    this.tracks.set(clip, track);
    if (track === null) {
      // No contacts: every foot follows the ground, none is locked.
      placement.contactWeights.fill(1);
      placement.planted.fill(0);
    }
    if (this.trackClips[c] === null || respawned) placement.reset();
    // Seen once its clip's contacts are taken (a contacts option that throws leaves it to the next
    // solve, which then still starts the character over).
    this.despawnsSeen[c] = despawns;
    this.trackClips[c] = clip;
  }
}
