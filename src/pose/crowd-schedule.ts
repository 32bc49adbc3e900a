/**
 * Which characters of a crowd to update this frame: the near ones every frame, the far ones every
 * Nth, interleaved so that the cost per frame stays flat.
 *
 * @packageDocumentation
 */
import { TendonError } from '../errors.js';

const MAX_CHARACTERS = 2 ** 24;

/** Options of `new CrowdSchedule`. */
export interface CrowdScheduleOptions {
  /**
   * How many characters side by side share a phase (each of a character's `N` phases goes to
   * every Nth block of this many), so that the characters due in a frame come in runs this long
   * and each step of the frame takes a run in one call. Default 16.
   */
  readonly block?: number;
}

/**
 * Update rates for the characters of a crowd, as engines throttle crowds far from the camera:
 * character `c` is updated every `periods[c]` frames (1, the default, every frame; 0 never), and
 * the characters of one period take turns in blocks ({@link CrowdScheduleOptions.block}), so that
 * a crowd whose far half is updated every 4th frame costs about the same every frame (the near
 * half and an eighth), not the whole crowd one frame in four.
 *
 * Each frame, {@link CrowdSchedule.plan} with the frame's `dt` says which characters are due, as
 * runs of neighbours ({@link CrowdSchedule.runFirst}, {@link CrowdSchedule.runCount}) and the
 * seconds each run's characters have waited since their last update
 * ({@link CrowdSchedule.runSeconds}: the `dt` of their placement's springs). Give each run to the
 * crowd's steps as their range of characters (`sample`, `forwardKinematics`, a placement's or a
 * batch's `solve`, `skinPalettes`); the characters not due keep last update's pose and palettes.
 * Keep advancing every character's clip time every frame (`crowd.times`): a due character is
 * sampled where its clip is now. A character is due at the first plan (so that none waits in its
 * rest pose) and then by its period, from the frame its period says, whatever it was before: a
 * character made near (period 1) is updated at once. Nothing allocates per frame.
 *
 * @example
 * ```ts
 * const schedule = new CrowdSchedule(crowd.count);
 * for (let c = 100; c < crowd.count; c++) schedule.periods[c] = 4; // the far ones
 * // each frame:
 * const runs = schedule.plan(dt);
 * for (let r = 0; r < runs; r++) {
 *   const first = schedule.runFirst[r];
 *   const count = schedule.runCount[r];
 *   crowd.sample('loop', first, count);
 *   crowd.forwardKinematics(first, count);
 *   placement.solve(schedule.runSeconds[r], first, count);
 *   crowd.skinPalettes(skin, palettes, '3x4', first, count);
 * }
 * ```
 */
export class CrowdSchedule {
  /** The most characters a schedule takes (2²⁴; 26 bytes a character). */
  static readonly maxCharacters = 2 ** 24;
  /** Number of characters. */
  readonly count: number;
  /** Characters per block of a phase ({@link CrowdScheduleOptions.block}). */
  readonly block: number;
  /**
   * Per character, its update period in frames: 1 every frame (the default), N every Nth, 0
   * never. Change it any time (a character coming nearer, going out of sight).
   */
  readonly periods: Uint8Array;
  /** After {@link CrowdSchedule.plan}: the first character of each run due this frame. */
  readonly runFirst: Int32Array;
  /** After {@link CrowdSchedule.plan}: the number of characters of each run. */
  readonly runCount: Int32Array;
  /**
   * After {@link CrowdSchedule.plan}: per run, the seconds since its characters were last updated
   * (the sum of the `dt`s of the plans since; this frame's `dt` for a character updated every
   * frame).
   */
  readonly runSeconds: Float64Array;
  /** Per character, the seconds since its last update (0 right after a plan that made it due). */
  readonly waited: Float64Array;
  /** Frames planned so far. */
  frame = 0;
  /** 1 for a character updated at least once. */
  private readonly updated: Uint8Array;

  /**
   * @param count - the number of characters (a crowd's `count`).
   * @param options - the block size of a phase.
   * @throws {@link TendonError} `argument/invalid` for a count that is not a whole number up to
   *   {@link CrowdSchedule.maxCharacters}, or a block that is not one of at least 1.
   */
  constructor(count: number, options: CrowdScheduleOptions = {}) {
    if (!Number.isInteger(count) || count < 0 || count > MAX_CHARACTERS) {
      throw new TendonError(
        'argument/invalid',
        `CrowdSchedule: count ${count} is not an integer in 0 … ${MAX_CHARACTERS}`,
      );
    }
    if (options === null || typeof options !== 'object') {
      throw new TendonError('argument/invalid', `CrowdSchedule: options must be an object, not ${options}`);
    }
    const block = options.block ?? 16;
    if (!Number.isInteger(block) || block < 1) {
      throw new TendonError('argument/invalid', `CrowdSchedule: block ${block} is not an integer ≥ 1`);
    }
    this.count = count;
    this.block = block;
    this.periods = new Uint8Array(count).fill(1);
    this.runFirst = new Int32Array(count);
    this.runCount = new Int32Array(count);
    this.runSeconds = new Float64Array(count);
    this.waited = new Float64Array(count);
    this.updated = new Uint8Array(count);
  }

  /**
   * Whether character `c` is due in frame `frame` by its period alone: with period N, the
   * characters of block `b` (`⌊c / block⌋`) in the frames where `frame + b` is a multiple of N.
   */
  dueAt(c: number, frame: number): boolean {
    const period = this.periods[c];
    if (period === 0) return false;
    return (frame + Math.floor(c / this.block)) % period === 0;
  }

  /**
   * Plans a frame of `dt` seconds: adds `dt` to every character's wait, writes the runs of
   * characters due ({@link CrowdSchedule.runFirst}, {@link CrowdSchedule.runCount},
   * {@link CrowdSchedule.runSeconds}: neighbours due with the same wait make one run), sets their
   * waits to 0, and moves on to the next frame.
   *
   * @returns the number of runs.
   * @throws {@link TendonError} `argument/invalid` for a `dt` that is not a finite number ≥ 0
   *   (nothing changed).
   */
  plan(dt: number): number {
    if (!(dt >= 0 && dt < Number.POSITIVE_INFINITY)) {
      throw new TendonError('argument/invalid', `CrowdSchedule.plan: dt ${dt} is not a finite number ≥ 0`);
    }
    const frame = this.frame;
    const waited = this.waited;
    let runs = 0;
    let last = -2;
    for (let c = 0; c < this.count; c++) {
      const seconds = waited[c] + dt;
      if (this.updated[c] === 1 && !this.dueAt(c, frame)) {
        waited[c] = seconds;
        continue;
      }
      this.updated[c] = 1;
      waited[c] = 0;
      if (last === c - 1 && this.runSeconds[runs - 1] === seconds) {
        this.runCount[runs - 1]++;
      } else {
        this.runFirst[runs] = c;
        this.runCount[runs] = 1;
        this.runSeconds[runs] = seconds;
        runs++;
      }
      last = c;
    }
    this.frame = frame + 1;
    return runs;
  }
}
