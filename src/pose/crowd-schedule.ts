/**
 * Which characters of a crowd to update this frame: the near ones every frame, the far ones every
 * Nth, interleaved so that the cost per frame stays flat.
 *
 * @packageDocumentation
 */
import { allocateBuffer } from '../crowd/shared-memory.js';
import { TendonError } from '../errors.js';
import { BufferCarver } from '../slab.js';

/** Options of `new CrowdSchedule`. */
export interface CrowdScheduleOptions {
  /**
   * How many characters of one period share a turn: the characters that take period N (in crowd
   * order, when many take it in one plan) go in blocks of this many to the N turns, block after
   * block, so that neighbours come due together, in runs that each step of the frame takes in one
   * call. Default 16.
   */
  readonly block?: number;
  /**
   * Put {@link CrowdSchedule.due} and {@link CrowdSchedule.seconds} on a `SharedArrayBuffer`, so
   * that `CrowdWorkers` (its `schedule` option) runs each worker's due characters only. Default
   * `false`.
   */
  readonly shared?: boolean;
}

/** The first frame from `frame` on that is `slot` modulo `period`: a slot's next turn. */
function turnFrom(frame: number, slot: number, period: number): number {
  return frame + ((((slot - frame) % period) + period) % period);
}

/**
 * Update rates for the characters of a crowd, as engines throttle crowds far from the camera:
 * character `c` is updated every `periods[c]` frames (1, the default, every frame; 0 never after
 * its first update). A character taking a period gets a slot among that period's N frames, dealt
 * in blocks ({@link CrowdScheduleOptions.block}) to the least held slot, and keeps it while its
 * period stays, unless its slot holds more than a block beyond the least held one (characters
 * left the period): it then moves over at its turn. So a crowd whose far 900 of 1,000 are updated
 * every 4th frame updates about 325 every frame (give or take a block), not all 1,000 one frame in
 * four, wherever the far ones stand in the crowd and whenever they became far; and each character
 * is updated every N frames, once sooner where it moves over.
 *
 * Each frame, {@link CrowdSchedule.plan} with the frame's `dt` says which characters are due, as
 * runs of neighbours ({@link CrowdSchedule.runFirst}, {@link CrowdSchedule.runCount}) and the
 * seconds each run's characters have waited since their last update
 * ({@link CrowdSchedule.runSeconds}: the `dt` of their placement's springs); {@link CrowdSchedule.due}
 * marks them character by character. Give each run to the crowd's steps as their range of
 * characters (`sample`, `forwardKinematics`, a placement's or a batch's `solve`, `skinPalettes`);
 * the characters not due keep last update's pose and palettes. Keep advancing every character's
 * clip time every frame (`crowd.times`): a due character is sampled where its clip is now.
 *
 * A character is due at the first plan (so that none waits in its rest pose), and after
 * {@link CrowdSchedule.restart} (one given a clip, or back in sight after a long time at period 0,
 * whose wait would otherwise be its placement's `dt`), then at its turns. One given a new period
 * is due at its new turn, no later than that period after its last update (at once for period 1,
 * or after a long time at period 0), however often its period changes. Nothing allocates per
 * frame, except a small `Int32Array` (a count per slot) the first time each period is used.
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
  /** The most characters a schedule takes (2²⁴; 54 bytes a character). */
  static readonly maxCharacters = 2 ** 24;
  /** Number of characters. */
  readonly count: number;
  /** Characters per block of a phase ({@link CrowdScheduleOptions.block}). */
  readonly block: number;
  /**
   * Per character, its update period in frames: 1 every frame (the default), N every Nth (up to
   * 255: the array is bytes, and a larger number wraps), 0 never. Change it any time (a character
   * coming nearer, going out of sight).
   */
  readonly periods: Uint8Array;
  /** After {@link CrowdSchedule.plan}: 1 for each character due this frame, else 0. */
  readonly due: Uint8Array;
  /**
   * Per character, the seconds it had waited when it was last due (its run's
   * {@link CrowdSchedule.runSeconds}): the `dt` a step of one's own reads for a character
   * (`CrowdWorkers` runs its custom step on runs of characters due with the same wait).
   */
  readonly seconds: Float64Array;
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
  /** 1 for a character updated at least once (since its restart). */
  private readonly updated: Uint8Array;
  /** Per character, the period its turn was dealt for (256 before the first plan). */
  private readonly turnPeriods: Uint16Array;
  /** Per character, the frame of its next turn. */
  private readonly turns: Float64Array;
  /** Per character, the frame it was last updated. */
  private readonly lastUpdates: Float64Array;
  /** Per character, its slot in its period: its turns are the frames equal to it modulo the period. */
  private readonly slots: Uint8Array;
  /** Per period, how many characters hold each slot (made when the period is first taken). */
  private readonly populations: (Int32Array | null)[] = new Array<Int32Array | null>(256).fill(null);
  /** Per period, the slot being dealt to and how many it was dealt in the current block. */
  private readonly dealing = new Int32Array(256).fill(-1);
  private readonly dealtInBlock = new Int32Array(256);
  private frames = 0;

  /**
   * @param count - the number of characters (a crowd's `count`).
   * @param options - the block size of a turn, and whether to share `due` and `seconds`.
   * @throws {@link TendonError} `argument/invalid` for a count that is not a whole number up to
   *   {@link CrowdSchedule.maxCharacters}, or a block that is not one of at least 1;
   *   `crowd/no-shared-memory` for `shared: true` where memory cannot be shared.
   */
  constructor(count: number, options: CrowdScheduleOptions = {}) {
    if (!Number.isInteger(count) || count < 0 || count > CrowdSchedule.maxCharacters) {
      throw new TendonError(
        'argument/invalid',
        `CrowdSchedule: count ${count} is not an integer in 0 … ${CrowdSchedule.maxCharacters}`,
      );
    }
    if (options === null || typeof options !== 'object') {
      throw new TendonError('argument/invalid', `CrowdSchedule: options must be an object, not ${options}`);
    }
    const block = options.block ?? 16;
    if (typeof block !== 'number' || !Number.isInteger(block) || block < 1) {
      throw new TendonError(
        'argument/invalid',
        `CrowdSchedule: block ${typeof block === 'string' ? `'${block}'` : String(block)} is not an integer ≥ 1`,
      );
    }
    this.count = count;
    this.block = block;
    this.periods = new Uint8Array(count).fill(1);
    // due and seconds: on a SharedArrayBuffer for workers (shared: true).
    const carve = (buffer: ArrayBuffer | SharedArrayBuffer | null) => {
      const carver = new BufferCarver(buffer);
      return { seconds: carver.f64(count), due: carver.u8(count), bytes: carver.offset };
    };
    const shared = allocateBuffer(carve(null).bytes, options.shared === true, 'CrowdSchedule');
    const arrays = carve(shared);
    this.seconds = arrays.seconds;
    this.due = arrays.due;
    this.runFirst = new Int32Array(count);
    this.runCount = new Int32Array(count);
    this.runSeconds = new Float64Array(count);
    this.waited = new Float64Array(count);
    this.updated = new Uint8Array(count);
    this.turnPeriods = new Uint16Array(count).fill(256);
    this.turns = new Float64Array(count);
    this.lastUpdates = new Float64Array(count);
    this.slots = new Uint8Array(count);
  }

  /** Frames planned so far. */
  get frame(): number {
    return this.frames;
  }

  /**
   * Makes character `c` due at the next plan, with that frame's `dt` as its wait, as at the first
   * plan: for a character given a clip (its rest pose is not to wait its turn), or back in sight
   * after a long time never updated (its whole wait would be its placement's `dt`: reset its
   * placement too, `CrowdPlacement.placementOf(c).reset()`).
   *
   * @throws {@link TendonError} `argument/invalid` for a `c` that is not a character.
   */
  restart(c: number): void {
    if (!(Number.isInteger(c) && c >= 0 && c < this.count)) {
      throw new TendonError(
        'argument/invalid',
        `CrowdSchedule.restart: ${c} is not in 0 … ${this.count - 1}`,
      );
    }
    this.updated[c] = 0;
    this.waited[c] = 0;
  }

  /**
   * A slot of `period` for a character taking it: the slot being dealt to until it has had a
   * block of characters, then the least held of the period's slots (the first after it, of
   * equals), so that slots fill evenly, blocks of neighbours share one, and slots given back by
   * characters that left the period are dealt again first.
   */
  private deal(period: number): number {
    let held = this.populations[period];
    if (held === null) {
      held = new Int32Array(period);
      this.populations[period] = held;
    }
    let slot = this.dealing[period];
    if (slot < 0 || this.dealtInBlock[period] >= this.block) {
      let best = -1;
      for (let i = 1; i <= period; i++) {
        const candidate = (slot + i + period) % period;
        if (best < 0 || held[candidate] < held[best]) best = candidate;
      }
      slot = best;
      this.dealing[period] = slot;
      this.dealtInBlock[period] = 0;
    }
    this.dealtInBlock[period]++;
    held[slot]++;
    return slot;
  }

  /**
   * Character `c`'s slot of `period` after its turn: its own, or the least held one where its own
   * holds more than a block beyond that (characters that left the period gave back theirs: the
   * others move over at their turns, so the slots even out within a period and the character's
   * next turn comes sooner once).
   */
  private rebalance(c: number, period: number): number {
    const held = this.populations[period] as Int32Array;
    const slot = this.slots[c];
    let least = slot;
    for (let i = 0; i < period; i++) if (held[i] < held[least]) least = i;
    if (held[slot] - held[least] <= this.block) return slot;
    held[slot]--;
    held[least]++;
    this.slots[c] = least;
    return least;
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
    // typeof first: a string, null or [0.1] passes the comparisons (coerced), then `+` would
    // concatenate into the waits.
    if (typeof dt !== 'number' || !(dt >= 0 && dt < Number.POSITIVE_INFINITY)) {
      throw new TendonError(
        'argument/invalid',
        `CrowdSchedule.plan: dt ${typeof dt === 'string' ? `'${dt}'` : String(dt)} is not a finite number ≥ 0`,
      );
    }
    const frame = this.frames;
    const waited = this.waited;
    const turns = this.turns;
    let runs = 0;
    let last = -2;
    for (let c = 0; c < this.count; c++) {
      const seconds = waited[c] + dt;
      const period = this.periods[c];
      const was = this.turnPeriods[c];
      if (period !== was) {
        // A new period: a slot of that period's N (its turns are the frames equal to the slot
        // modulo N), and a turn no later than a period after its last update, so that a character
        // whose period keeps changing is not put off.
        this.turnPeriods[c] = period;
        if (was > 0 && was < 256) (this.populations[was] as Int32Array)[this.slots[c]]--;
        if (period > 0) {
          const slot = this.deal(period);
          this.slots[c] = slot;
          const next = turnFrom(frame, slot, period);
          // (Before its first update it is due anyway, and keeps its slot.)
          const latest = this.updated[c] === 1 ? this.lastUpdates[c] + period : Number.POSITIVE_INFINITY;
          const turn = next < latest ? next : latest;
          turns[c] = turn > frame ? turn : frame;
        }
      }
      const turn = period > 0 && frame >= turns[c];
      if (this.updated[c] === 1 && !turn) {
        waited[c] = seconds;
        this.due[c] = 0;
        continue;
      }
      // Due at its turn (the next one at its slot: a period on, or sooner after a turn the cap
      // brought forward), or at once (the first plan, a restart: its turn kept).
      if (turn) {
        const slot = this.rebalance(c, period);
        turns[c] = turnFrom(frame + 1, slot, period);
      }
      this.lastUpdates[c] = frame;
      this.updated[c] = 1;
      this.due[c] = 1;
      this.seconds[c] = seconds;
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
    this.frames = frame + 1;
    return runs;
  }
}
