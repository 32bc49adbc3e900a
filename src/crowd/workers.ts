/**
 * A crowd frame split across workers over shared memory, with the single-threaded run's bits.
 *
 * The core here imports nothing environment-specific: workers are made by a
 * {@link CrowdWorkerFactory} (`nodeCrowdWorker` in `tendon/node`, {@link browserCrowdWorker} in a
 * page), and a worker's script hands its messages to {@link serveCrowdWorker}.
 *
 * @packageDocumentation
 */
import { Clip } from '../animation/clip.js';
import type { WrapMode } from '../animation/sampler.js';
import { checkArrayArg, checkObjectArg } from '../arguments.js';
import { TendonError, type TendonErrorCode } from '../errors.js';
import type { AimIkOptions } from '../ik/aim.js';
import { AimBatch } from '../ik/aim-batch.js';
import { TwoBoneBatch, type TwoBoneBatchLimb } from '../ik/two-bone-batch.js';
import { Crowd, type PaletteLayout } from '../pose/crowd.js';
import { checkPaletteArgs } from '../pose/crowd-checks.js';
import { CrowdSchedule } from '../pose/crowd-schedule.js';
import { Skeleton } from '../skeleton/skeleton.js';
import { Skin } from '../skin/skin.js';
import { sharedMemoryStatus } from './shared-memory.js';

/**
 * The steps of a crowd frame, as bits of the `steps` argument of {@link CrowdWorkers.run}: each
 * worker runs the chosen ones, in this order, on its characters.
 */
export const CROWD_STEP = {
  /** `Crowd.sample` (each character's clip at its time). */
  sample: 1,
  /** `Crowd.forwardKinematics`. */
  forwardKinematics: 2,
  /** `TwoBoneBatch.solve` toward the targets in the batch's arrays. */
  legs: 4,
  /** `AimBatch.solve` toward the targets in the aim batch's arrays. */
  aims: 16,
  /**
   * The caller's own step ({@link CrowdWorkersOptions.custom}; in a worker, the one its script's
   * {@link CrowdWorkerHooks} set up): a character's `FootPlacement`, say.
   */
  custom: 32,
  /** `Crowd.skinPalettes` of every palette set up. */
  palettes: 8,
  /**
   * All six; as the `steps` of {@link CrowdWorkers.run} (the default), every step the pool was
   * set up with (legs with a `batch`, aims with `aims`, the custom step with `custom`, palettes
   * with `palettes`).
   */
  all: 63,
} as const;

/**
 * A step of the caller's own on characters `first … first + count − 1` ({@link CROWD_STEP}`.custom`),
 * run after the aims and before the palettes; it returns a count the frame's result adds (0 for
 * none), and reports a failure by throwing.
 */
export type CrowdStep = (first: number, count: number) => number;

/**
 * What a worker script gives {@link serveCrowdWorker} to run a {@link CROWD_STEP}`.custom` step:
 * `setup` is called once, when the worker starts, with its view of the crowd and the `data`
 * given to {@link CrowdWorkersOptions.custom}, and returns the worker's step.
 */
export interface CrowdWorkerHooks {
  /** Builds the worker's step over its view of the crowd. */
  readonly setup: (context: { readonly crowd: Crowd; readonly data: unknown }) => CrowdStep;
}

/** {@link CrowdWorkersOptions.custom}. */
export interface CrowdCustomStep {
  /** The step on the calling thread (the fallback, and the range `callingThreadTakesPart` runs). */
  readonly step: CrowdStep;
  /**
   * Sent to each worker's {@link CrowdWorkerHooks.setup} once, at start (structured clone:
   * `SharedArrayBuffer`s and their views are shared, not copied).
   */
  readonly data?: unknown;
}

/** A worker as {@link CrowdWorkers} sees it: what Node's `Worker` and a page's `Worker` both offer. */
export interface CrowdWorkerHandle {
  /** Sends a message (structured clone; SharedArrayBuffers are shared, not copied). */
  postMessage(message: unknown): void;
  /** Calls `listener` with each message the worker posts. */
  onMessage(listener: (message: unknown) => void): void;
  /** Calls `listener` when the worker fails outside a frame (an uncaught error, an exit). */
  onError(listener: (error: unknown) => void): void;
  /** Stops the worker. */
  terminate(): void;
}

/** Makes worker `index` of a {@link CrowdWorkers}, running a script that calls {@link serveCrowdWorker}. */
export type CrowdWorkerFactory = (index: number) => CrowdWorkerHandle;

/** A set of skin palettes a frame writes: `Crowd.skinPalettes(skin, out, layout)`. */
export interface CrowdPalettes {
  /** The skin (of the crowd's skeleton). */
  readonly skin: Skin;
  /** Every character's palettes; on a `SharedArrayBuffer` for workers. */
  readonly out: Float32Array | Float64Array;
  /** Default `'mat4'`. */
  readonly layout?: PaletteLayout;
}

/** Most workers {@link CrowdWorkers.start} takes (a thread each). */
export const MAX_WORKERS = 256;

/** Options of {@link CrowdWorkers.start}. */
export interface CrowdWorkersOptions {
  /**
   * Number of workers, 0 to {@link MAX_WORKERS}; characters are split into that many contiguous
   * ranges. No more are started than there are characters (less one where the calling thread
   * takes part), one at least: {@link CrowdWorkers.workerCount} says how many.
   */
  readonly workers: number;
  /** Makes the workers (required unless the run falls back to the calling thread). */
  readonly createWorker?: CrowdWorkerFactory;
  /** The legs solved by {@link CROWD_STEP}`.legs` (made with `shared: true`). */
  readonly batch?: TwoBoneBatch;
  /** The aims solved by {@link CROWD_STEP}`.aims` (made with `shared: true`). */
  readonly aims?: AimBatch;
  /**
   * Clips the characters may be given after the pool starts (`Crowd.setClip`, `setBlendClip`), of
   * the crowd's skeleton: the workers are sent them at start, with the clips the characters have
   * then. A frame follows each character's clips as they are; one a worker was not sent is
   * refused (`crowd/clips-changed`).
   */
  readonly clips?: readonly Clip[];
  /**
   * A step of the caller's own, {@link CROWD_STEP}`.custom`: `step` on the calling thread, and in
   * each worker the step its script's {@link CrowdWorkerHooks} build from `data` (the workers'
   * script is then the caller's: `nodeCrowdWorker({ url })`, `browserCrowdWorker(url)`).
   */
  readonly custom?: CrowdCustomStep;
  /** The palettes written by {@link CROWD_STEP}`.palettes`. */
  readonly palettes?: readonly CrowdPalettes[];
  /**
   * Where workers cannot run the frames: memory cannot be shared (no `SharedArrayBuffer`, a page
   * without cross-origin isolation), `workers: 0`, or arrays not made with `shared: true`.
   * `'throw'` (default) throws a `TendonError`: `crowd/no-shared-memory` for the first two,
   * `argument/invalid` for unshared arrays where memory can be shared (the caller's to fix);
   * `'calling-thread'` runs every frame on the calling thread instead, in each of these cases, with
   * the same bits, and says so ({@link CrowdWorkers.parallel}, {@link CrowdWorkers.reason}).
   */
  readonly fallback?: 'throw' | 'calling-thread';
  /**
   * How long {@link CrowdWorkers.runSync} waits for the workers, milliseconds: a finite number > 0.
   * Default 10 000.
   */
  readonly timeoutMs?: number;
  /**
   * The calling thread takes a range too (the first), running it while the workers run theirs:
   * `workers: 1` with this on two cores keeps both busy without a third thread. Default `false`.
   */
  readonly callingThreadTakesPart?: boolean;
  /**
   * Update rates: each frame runs only the characters {@link CrowdSchedule.plan} made due (plan
   * before each frame, never while one runs: a frame without a new plan runs the last plan's
   * characters again), each range's due characters in runs of neighbours due with the same wait
   * ({@link CrowdSchedule.seconds}: what a custom step reads as a character's `dt`), a chunk at a
   * time within a run; a range with none due does not call the custom step. The whole range's
   * times are checked first, due or not. Made with `shared: true` for workers; of the crowd's count.
   */
  readonly schedule?: CrowdSchedule;
  /**
   * Characters at a time through every step of a frame, in each range (an integer ≥ 1; default: the
   * whole range, one step after another over all of it). A small chunk keeps a character's arrays
   * in the caches from its sampling to its palettes: 16 ran a thousand placed robots' frame 1.04–1.29×
   * faster (docs/crowds.md, "Memory"). With `sample` among the steps, the whole range's times are
   * checked before the first chunk runs. The bits are the same: every step treats each character
   * alone (a custom step must too).
   */
  readonly chunk?: number;
}

// The control block: Int32 slots, then the first failure's text.
const GENERATION = 0;
const STEPS = 1;
const MODE = 2;
const PENDING = 3;
const FAILED = 4;
const INVALID = 5;
const TEXT_LENGTH = 6;
const SLOTS = 8;
const TEXT_BYTES = 2048;
const STOP = -1;
/** The steps that may read the characters' clips: a frame with one shares them first. */
const READS_CLIPS = CROWD_STEP.sample | CROWD_STEP.custom;

/** What a worker is sent once, at set-up. */
interface InitMessage {
  readonly type: 'tendon/crowd-init';
  readonly skeleton: {
    names: readonly string[];
    parents: Int32Array;
    restTranslations: Float64Array;
    restRotations: Float64Array;
    restScales: Float64Array;
  };
  readonly count: number;
  readonly crowd: ArrayBuffer | SharedArrayBuffer;
  readonly clips: readonly ClipMessage[];
  /** Per character, its clip's index (−1: none), its second clip's and its despawns: at set-up and each frame that reads clips. */
  readonly clipState: SharedArrayBuffer;
  readonly batch: { limbs: readonly TwoBoneBatchLimb[]; buffer: ArrayBuffer | SharedArrayBuffer } | null;
  readonly aims: { bones: readonly AimIkOptions[]; buffer: ArrayBuffer | SharedArrayBuffer } | null;
  /** Whether the frame has a custom step, and its data. */
  readonly custom: { data: unknown } | null;
  readonly palettes: readonly {
    skin: { name: string; joints: Int32Array; inverseBindMatrices: Float64Array };
    out: Float32Array | Float64Array;
    layout: PaletteLayout;
  }[];
  readonly control: SharedArrayBuffer;
  readonly first: number;
  readonly size: number;
  /** Characters at a time through the steps (0: the whole range). */
  readonly chunk: number;
  /** A schedule's due characters and waits (shared), or null. */
  readonly schedule: ScheduleView | null;
}

interface ClipMessage {
  name: string;
  duration: number;
  trackCount: number;
  targets: Int32Array;
  paths: Uint8Array;
  interpolations: Uint8Array;
  timeOffsets: Int32Array;
  keyCounts: Int32Array;
  valueOffsets: Int32Array;
  times: Float64Array;
  values: Float64Array;
}

/** What runs a frame's steps on a range of characters, on a worker or on the calling thread. */
interface Slice {
  readonly crowd: Crowd;
  readonly batch: TwoBoneBatch | null;
  readonly aims: AimBatch | null;
  readonly custom: CrowdStep | null;
  readonly palettes: readonly CrowdPalettes[];
  /** Characters at a time through the steps (0: the whole range at once). */
  readonly chunk: number;
  /** A schedule's due characters and their waits: only those run (null: every character). */
  readonly schedule: ScheduleView | null;
}

/** What runs read of a {@link CrowdSchedule}: which characters are due, and each one's wait. */
interface ScheduleView {
  readonly due: Uint8Array;
  readonly seconds: Float64Array;
}

/**
 * Runs `steps` on characters `first … first + count − 1`, {@link Slice.chunk} at a time; returns
 * the invalid legs and aims plus the custom step's count.
 */
function runSlice(slice: Slice, steps: number, mode: WrapMode, first: number, count: number): number {
  if (slice.schedule !== null) return runDue(slice, slice.schedule, steps, mode, first, count);
  const chunk = slice.chunk > 0 ? slice.chunk : count;
  // An empty range runs its steps once, as a whole range does (a custom step is still called;
  // with a schedule, runDue calls steps on due characters only).
  if (chunk >= count) return runSteps(slice, steps, mode, first, count);
  // The whole range's times checked first: a bad one in a later chunk must not leave the earlier
  // chunks run (their placements stepped) when the frame fails.
  if ((steps & CROWD_STEP.sample) !== 0) slice.crowd.checkSample(mode, first, count);
  let invalid = 0;
  for (let c = first; c < first + count; c += chunk) {
    invalid += runSteps(slice, steps, mode, c, Math.min(chunk, first + count - c));
  }
  return invalid;
}

/**
 * {@link runSlice} with a schedule: the due characters of `first … first + count − 1` only, in
 * runs of neighbours due with the same wait, {@link Slice.chunk} at a time within a run.
 */
function runDue(
  slice: Slice,
  { due, seconds }: ScheduleView,
  steps: number,
  mode: WrapMode,
  first: number,
  count: number,
): number {
  const chunk = slice.chunk > 0 ? slice.chunk : count;
  // The whole range's times checked first, as a chunked range's are.
  if ((steps & CROWD_STEP.sample) !== 0) slice.crowd.checkSample(mode, first, count);
  const end = first + count;
  let invalid = 0;
  for (let c = first; c < end; ) {
    if (due[c] === 0) {
      c++;
      continue;
    }
    let stop = c + 1;
    while (stop < end && stop - c < chunk && due[stop] === 1 && seconds[stop] === seconds[c]) stop++;
    invalid += runSteps(slice, steps, mode, c, stop - c);
    c = stop;
  }
  return invalid;
}

/** Runs `steps`, one after another, on characters `first … first + count − 1`. */
function runSteps(slice: Slice, steps: number, mode: WrapMode, first: number, count: number): number {
  const { crowd, batch, aims, custom, palettes } = slice;
  let invalid = 0;
  if ((steps & CROWD_STEP.sample) !== 0) crowd.sample(mode, first, count);
  if ((steps & CROWD_STEP.forwardKinematics) !== 0) crowd.forwardKinematics(first, count);
  if ((steps & CROWD_STEP.legs) !== 0 && batch !== null) invalid = batch.solve(crowd, first, count);
  if ((steps & CROWD_STEP.aims) !== 0 && aims !== null) invalid += aims.solve(crowd, first, count);
  if ((steps & CROWD_STEP.custom) !== 0 && custom !== null) {
    const counted = custom(first, count);
    // An integer ≥ 0, as the workers add it to the frame's result (an Int32 slot).
    if (!(Number.isInteger(counted) && counted >= 0 && counted <= 0x7fffffff)) {
      throw new TendonError(
        'argument/invalid',
        `CrowdWorkers: the custom step returned ${String(counted)}, not a count (an integer ≥ 0)`,
      );
    }
    invalid += counted;
  }
  if ((steps & CROWD_STEP.palettes) !== 0) {
    for (let p = 0; p < palettes.length; p++) {
      const { skin, out, layout } = palettes[p];
      crowd.skinPalettes(skin, out, layout ?? 'mat4', first, count);
    }
  }
  return invalid;
}

const isShared = (buffer: ArrayBufferLike): boolean =>
  typeof SharedArrayBuffer !== 'undefined' && buffer instanceof SharedArrayBuffer;

/** The first error of a frame, as `code\nmessage`, into the control block (first failure only). */
function recordFailure(control: Int32Array, text: Uint8Array, error: unknown): void {
  if (Atomics.add(control, FAILED, 1) !== 0) return;
  const code = error instanceof TendonError ? error.code : '';
  const message = error instanceof Error ? error.message : String(error);
  const bytes = new TextEncoder().encode(`${code}\n${message}`).subarray(0, TEXT_BYTES);
  text.set(bytes);
  Atomics.store(control, TEXT_LENGTH, bytes.length);
}

/**
 * A crowd frame split across workers: each worker owns a contiguous range of characters and runs
 * the frame's steps ({@link CROWD_STEP}: sample, forward kinematics, legs, aims, a step of the
 * caller's own, palettes) on it, over
 * the crowd's, the batch's and the palettes' `SharedArrayBuffer`s. Every number is the one the
 * single-threaded run gives, bit for bit: each character is computed by the same code from the
 * same inputs, only on another thread.
 *
 * The workers are woken with `Atomics.notify` and report with `Atomics` on a small shared control
 * block: no message per frame. Clips, the skeleton and skins are sent once, at
 * {@link CrowdWorkers.start} (a clip given later with `setClip` or `setBlendClip` does not reach
 * the workers: start again; the times and blend weights are shared and may change every frame). Between frames the caller may write times, targets and poles; during a frame it must not
 * touch the shared arrays.
 */
export class CrowdWorkers {
  /** The crowd whose frames are run. */
  readonly crowd: Crowd;
  /** `true` when frames run on workers; `false` for the calling-thread fallback. */
  readonly parallel: boolean;
  /** Why frames run on the calling thread (empty when {@link CrowdWorkers.parallel}). */
  readonly reason: string;
  /** Number of workers (0 for the fallback). */
  readonly workerCount: number;
  /** `true` when the calling thread runs the first range of each frame itself. */
  readonly callingThreadTakesPart: boolean;
  /**
   * The ranges' first characters, the calling thread's range first when it takes part, then each
   * worker's (one more entry than ranges: the last is the count).
   */
  readonly ranges: Int32Array;
  private readonly slice: Slice;
  private readonly handles: CrowdWorkerHandle[];
  private readonly control: Int32Array;
  private readonly text: Uint8Array;
  private readonly timeoutMs: number;
  private busy = false;
  /**
   * Each character's first and second clip as the last frame told the workers (they follow them
   * through {@link clipState}), and the index of every clip the workers were sent.
   */
  private readonly lastClips: (Clip | null)[] = [];
  private readonly lastBlendClips: (Clip | null)[] = [];
  private readonly clipIndex = new Map<Clip, number>();
  /** Per character, shared: its clip's index (−1: none), its second clip's, its despawns. */
  private clipState: Int32Array<ArrayBufferLike> = new Int32Array(0);
  private failure: unknown = null;
  private closed = false;
  private rejectRun: ((error: unknown) => void) | null = null;
  /** The {@link CROWD_STEP} bits this pool can run: sample and forward kinematics, and what it was given. */
  private readonly available: number;

  private constructor(
    crowd: Crowd,
    slice: Slice,
    workers: number,
    reason: string,
    timeoutMs: number,
    caller: boolean,
  ) {
    this.crowd = crowd;
    this.slice = slice;
    this.parallel = reason === '';
    this.reason = reason;
    this.workerCount = this.parallel ? workers : 0;
    this.callingThreadTakesPart = this.parallel && caller;
    const parts = this.workerCount + (this.callingThreadTakesPart ? 1 : 0);
    this.ranges = new Int32Array(parts + 1);
    for (let w = 0; w <= parts; w++) this.ranges[w] = Math.floor((w * crowd.count) / Math.max(1, parts));
    this.ranges[parts] = crowd.count;
    this.handles = [];
    const buffer = this.parallel
      ? new SharedArrayBuffer(4 * SLOTS + TEXT_BYTES)
      : new ArrayBuffer(4 * SLOTS + TEXT_BYTES);
    this.control = new Int32Array(buffer, 0, SLOTS);
    this.text = new Uint8Array(buffer, 4 * SLOTS, TEXT_BYTES);
    if (this.parallel) this.clipState = new Int32Array(new SharedArrayBuffer(12 * crowd.count));
    this.timeoutMs = timeoutMs;
    this.available =
      CROWD_STEP.sample |
      CROWD_STEP.forwardKinematics |
      (slice.batch === null ? 0 : CROWD_STEP.legs) |
      (slice.aims === null ? 0 : CROWD_STEP.aims) |
      (slice.custom === null ? 0 : CROWD_STEP.custom) |
      (slice.palettes.length === 0 ? 0 : CROWD_STEP.palettes);
  }

  /**
   * Starts `options.workers` workers on `crowd` (made with `shared: true`, as the batch and the
   * palettes' arrays must be) and resolves when each has built its view of the crowd.
   *
   * Everything a frame's steps need is checked here, not by the frames: each palette as
   * `Crowd.skinPalettes` checks it (its skin, its layout, `out` a Float32Array or Float64Array of
   * the crowd's palettes).
   *
   * @throws {@link TendonError} `crowd/no-shared-memory` where memory cannot be shared (unless
   *   `fallback: 'calling-thread'`), `argument/invalid` for options that are not an object, a worker
   *   count that is not an integer ≥ 0, a batch, aims or skin of another skeleton or size, a
   *   palette without a `Skin`, with an unknown layout or an `out` that is not a float array, a
   *   `timeoutMs` that is not a finite number > 0, unshared arrays (unless `fallback:
   *   'calling-thread'`), or no `createWorker`; `pose/buffer-size` for a palette's `out` of
   *   another size; `crowd/worker-failed` when a worker fails to start or `createWorker` throws
   *   (the others are stopped).
   */
  static async start(crowd: Crowd, options: CrowdWorkersOptions): Promise<CrowdWorkers> {
    if (!(crowd instanceof Crowd))
      throw new TendonError('argument/invalid', 'CrowdWorkers.start: not a Crowd');
    checkObjectArg(options, 'CrowdWorkers.start', 'options');
    const asked = options.workers;
    if (!Number.isInteger(asked) || asked < 0 || asked > MAX_WORKERS) {
      throw new TendonError(
        'argument/invalid',
        `CrowdWorkers.start: workers ${asked} is not an integer from 0 to ${MAX_WORKERS}`,
      );
    }
    // No more workers than characters: one with no range to run was a thread for nothing (16 for
    // 2 characters took 0.8 s and 250 MB to start; a billion ran the process out of memory).
    const workers = Math.min(
      asked,
      Math.max(1, crowd.count - (options.callingThreadTakesPart === true ? 1 : 0)),
    );
    const batch = options.batch ?? null;
    if (batch !== null && (batch.skeleton !== crowd.skeleton || batch.characters !== crowd.count)) {
      throw new TendonError(
        'argument/invalid',
        'CrowdWorkers.start: the batch is not of the crowd’s skeleton and count',
      );
    }
    const aims = options.aims ?? null;
    if (aims !== null && (aims.skeleton !== crowd.skeleton || aims.characters !== crowd.count)) {
      throw new TendonError(
        'argument/invalid',
        'CrowdWorkers.start: the aims are not of the crowd’s skeleton and count',
      );
    }
    const given = options.palettes ?? [];
    checkArrayArg(given, 'CrowdWorkers.start', 'palettes');
    const palettes: Required<CrowdPalettes>[] = [];
    for (let k = 0; k < given.length; k++) {
      const p = given[k];
      checkObjectArg(p, 'CrowdWorkers.start', `palettes[${k}]`);
      const layout = p.layout ?? 'mat4';
      // Crowd.skinPalettes' own checks, here: in a frame they would fail its last step, after the
      // others had written, every frame.
      checkPaletteArgs(
        crowd.skeleton,
        crowd.count,
        p.skin,
        p.out,
        layout,
        `CrowdWorkers.start: palettes[${k}]`,
        'argument/invalid',
      );
      palettes.push({ skin: p.skin, out: p.out, layout });
    }
    const custom = options.custom ?? null;
    if (custom !== null && typeof custom.step !== 'function') {
      throw new TendonError('argument/invalid', 'CrowdWorkers.start: custom.step is not a function');
    }
    const later = options.clips ?? [];
    checkArrayArg(later, 'CrowdWorkers.start', 'clips');
    for (const clip of later) {
      if (!(clip instanceof Clip) || clip.skeleton !== crowd.skeleton) {
        throw new TendonError(
          'argument/invalid',
          `CrowdWorkers.start: clips holds ${clip instanceof Clip ? 'a clip of another skeleton' : String(clip)}, not a Clip of the crowd's skeleton`,
        );
      }
    }
    const chunk = options.chunk ?? 0;
    if (options.chunk !== undefined && !(Number.isInteger(chunk) && chunk >= 1)) {
      throw new TendonError(
        'argument/invalid',
        `CrowdWorkers.start: chunk ${String(options.chunk)} is not an integer ≥ 1`,
      );
    }
    const schedule = options.schedule ?? null;
    if (schedule !== null && !(schedule instanceof CrowdSchedule && schedule.count === crowd.count)) {
      throw new TendonError(
        'argument/invalid',
        `CrowdWorkers.start: the schedule is not a CrowdSchedule of the crowd's ${crowd.count} characters`,
      );
    }
    const slice: Slice = {
      crowd,
      batch,
      aims,
      custom: custom === null ? null : custom.step,
      palettes,
      chunk,
      schedule: schedule === null ? null : { due: schedule.due, seconds: schedule.seconds },
    };
    const timeoutMs = options.timeoutMs ?? 10_000;
    // 0 or less timed every frame out (and the pool with it); NaN or a string waited forever.
    if (!(typeof timeoutMs === 'number' && timeoutMs > 0 && timeoutMs < Number.POSITIVE_INFINITY)) {
      throw new TendonError(
        'argument/invalid',
        `CrowdWorkers.start: timeoutMs ${typeof timeoutMs === 'string' ? `'${timeoutMs}'` : String(timeoutMs)} is not a finite number > 0`,
      );
    }
    const status = sharedMemoryStatus();
    const unshared = [
      isShared(crowd.buffer) ? '' : 'the crowd',
      batch === null || isShared(batch.buffer) ? '' : 'the batch',
      aims === null || isShared(aims.buffer) ? '' : 'the aims',
      palettes.every((p) => isShared(p.out.buffer)) ? '' : 'the palettes',
      schedule === null || isShared(schedule.due.buffer) ? '' : 'the schedule',
    ].filter((s) => s !== '');
    const reason =
      workers === 0
        ? 'workers: 0'
        : !status.available
          ? status.reason
          : unshared.length > 0
            ? `${unshared.join(', ')} not on a SharedArrayBuffer (make them with shared: true)`
            : '';
    if (reason !== '') {
      if (options.fallback === 'calling-thread')
        return new CrowdWorkers(crowd, slice, 0, reason, timeoutMs, false);
      throw new TendonError(
        status.available && workers > 0 ? 'argument/invalid' : 'crowd/no-shared-memory',
        `CrowdWorkers.start: ${reason}`,
      );
    }
    const create = options.createWorker;
    if (typeof create !== 'function') {
      throw new TendonError('argument/invalid', 'CrowdWorkers.start: createWorker is required for workers');
    }
    const pool = new CrowdWorkers(
      crowd,
      slice,
      workers,
      '',
      timeoutMs,
      options.callingThreadTakesPart === true,
    );
    await pool.launch(create, batch, aims, custom, palettes, later);
    return pool;
  }

  /** Makes the workers, sends each its set-up and waits for every one to be ready. */
  private async launch(
    create: CrowdWorkerFactory,
    batch: TwoBoneBatch | null,
    aims: AimBatch | null,
    custom: CrowdCustomStep | null,
    palettes: readonly Required<CrowdPalettes>[],
    later: readonly Clip[],
  ): Promise<void> {
    const crowd = this.crowd;
    const sk = crowd.skeleton;
    const clips: Clip[] = [];
    const indexOf = (clip: Clip | null): number => {
      const k = clip === null ? -1 : clips.indexOf(clip);
      return clip !== null && k < 0 ? clips.push(clip) - 1 : k;
    };
    // Each character's clips (by index) and despawns, on the memory the workers read them from
    // at the start and at each frame that reads clips.
    const state = this.clipState;
    for (let c = 0; c < crowd.count; c++) {
      state[3 * c] = indexOf(crowd.clipOf(c));
      state[3 * c + 1] = indexOf(crowd.blendClipOf(c));
      state[3 * c + 2] = crowd.despawns(c);
      this.lastClips.push(crowd.clipOf(c));
      this.lastBlendClips.push(crowd.blendClipOf(c));
    }
    for (const clip of later) indexOf(clip);
    for (let k = 0; k < clips.length; k++) this.clipIndex.set(clips[k], k);
    const base = {
      type: 'tendon/crowd-init' as const,
      skeleton: {
        names: sk.names.slice(),
        parents: sk.parents,
        restTranslations: sk.restTranslations,
        restRotations: sk.restRotations,
        restScales: sk.restScales,
      },
      count: crowd.count,
      crowd: crowd.buffer,
      clips: clips.map((c) => ({
        name: c.name,
        duration: c.duration,
        trackCount: c.trackCount,
        targets: c.targets,
        paths: c.paths,
        interpolations: c.interpolations,
        timeOffsets: c.timeOffsets,
        keyCounts: c.keyCounts,
        valueOffsets: c.valueOffsets,
        times: c.times,
        values: c.values,
      })),
      clipState: state.buffer as SharedArrayBuffer,
      batch: batch === null ? null : { limbs: batch.limbOptions, buffer: batch.buffer },
      aims: aims === null ? null : { bones: aims.boneOptions, buffer: aims.buffer },
      custom: custom === null ? null : { data: custom.data },
      palettes: palettes.map((p) => ({
        skin: { name: p.skin.name, joints: p.skin.joints, inverseBindMatrices: p.skin.inverseBindMatrices },
        out: p.out,
        layout: p.layout,
      })),
      control: this.control.buffer as SharedArrayBuffer,
    };
    const ready: Promise<void>[] = [];
    try {
      for (let w = 0; w < this.workerCount; w++) {
        let handle: CrowdWorkerHandle;
        try {
          handle = create(w);
        } catch (cause) {
          throw new TendonError(
            'crowd/worker-failed',
            `CrowdWorkers: worker ${w} failed to start: createWorker threw: ${describe(cause)}`,
            { cause },
          );
        }
        if (
          handle === null ||
          typeof handle !== 'object' ||
          typeof handle.postMessage !== 'function' ||
          typeof handle.onMessage !== 'function' ||
          typeof handle.onError !== 'function' ||
          typeof handle.terminate !== 'function'
        ) {
          throw new TendonError(
            'crowd/worker-failed',
            `CrowdWorkers: worker ${w} failed to start: createWorker returned ${String(handle)}, not a CrowdWorkerHandle`,
          );
        }
        this.handles.push(handle);
        ready.push(
          new Promise<void>((resolve, reject) => {
            handle.onMessage((message) => {
              const m = message as { type?: string; code?: string; message?: string };
              if (m.type === 'tendon/crowd-ready') resolve();
              else if (m.type === 'tendon/crowd-init-failed') {
                reject(
                  new TendonError(
                    'crowd/worker-failed',
                    `CrowdWorkers: worker ${w} failed to start: ${m.message}`,
                  ),
                );
              }
            });
            handle.onError((error) => {
              if (this.closed) return;
              const failure = new TendonError(
                'crowd/worker-failed',
                `CrowdWorkers: worker ${w} failed: ${describe(error)}`,
                {
                  cause: error,
                },
              );
              this.failure ??= failure;
              reject(failure);
              this.rejectRun?.(failure);
            });
          }),
        );
        const r = this.callingThreadTakesPart ? w + 1 : w;
        const message: InitMessage = {
          ...base,
          first: this.ranges[r],
          size: this.ranges[r + 1] - this.ranges[r],
          chunk: this.slice.chunk,
          schedule: this.slice.schedule,
        };
        try {
          handle.postMessage(message);
        } catch (cause) {
          throw new TendonError(
            'argument/invalid',
            'CrowdWorkers.start: the set-up cannot be sent to a worker (is custom.data structured-cloneable?)',
            { cause },
          );
        }
      }
      await Promise.all(ready);
    } catch (error) {
      this.terminate();
      throw error;
    }
  }

  /**
   * Runs one frame's `steps` (bits of {@link CROWD_STEP}; default all) on every character, each
   * worker on its range, and resolves with the number of legs and aims the batches flagged
   * invalid plus the custom step's count. Write the crowd's times (and the batches' targets) before; read the results after it
   * resolves.
   *
   * `steps` is an integer mask of {@link CROWD_STEP} bits (0: none, a hand-off alone), each a step
   * the pool was set up for; {@link CROWD_STEP}`.all` is every step it was set up for.
   *
   * @throws {@link TendonError} (the promise rejects) the crowd's own error for a time or blend
   *   weight `Crowd.sample` refuses, checked on the calling thread before any worker runs (nothing
   *   run); `crowd/clips-changed` for a character given a clip the workers were not sent at start
   *   (see {@link CrowdWorkersOptions.clips}; nothing run); `crowd/worker-failed` when a step threw in a
   *   worker (its code and message are quoted; the other workers finished their ranges), a worker
   *   died or the pool was terminated during the frame, `crowd/busy` while a frame is running,
   *   `argument/invalid` for `steps` that are not such a mask (a string, NaN, 1.5, 64) or ask for a
   *   step the pool has nothing for (legs without a `batch`, palettes without `palettes`), or a
   *   mode not `'loop'` or `'clamp'` (nothing run). On the calling-thread fallback the step's own
   *   error is thrown.
   */
  async run(steps: number = CROWD_STEP.all, mode: WrapMode = 'loop'): Promise<number> {
    const chosen = this.stepsOf(steps, mode, 'run');
    if (!this.parallel) return runSlice(this.slice, chosen, mode, 0, this.crowd.count);
    this.begin(chosen, mode);
    try {
      const control = this.control;
      const died = new Promise<never>((_, reject) => {
        this.rejectRun = reject;
      });
      const waitAsync = (Atomics as unknown as { waitAsync?: WaitAsync }).waitAsync;
      for (
        let pending = Atomics.load(control, PENDING);
        pending !== 0;
        pending = Atomics.load(control, PENDING)
      ) {
        if (typeof waitAsync === 'function') {
          const result = waitAsync(control, PENDING, pending);
          if (result.async) await Promise.race([result.value, died]);
        } else {
          await Promise.race([new Promise((resolve) => setTimeout(resolve, 0)), died]);
        }
      }
      return this.finish();
    } finally {
      this.rejectRun = null;
      this.busy = false;
    }
  }

  /**
   * {@link CrowdWorkers.run}, blocking the calling thread until the workers are done (with
   * `Atomics.wait`: allowed in Node's main thread and in workers, not in a page's main thread).
   *
   * @throws {@link TendonError} `crowd/worker-failed` when a step threw in a worker or the workers
   *   did not answer within `timeoutMs`; `crowd/busy` while a frame is running; `argument/invalid`
   *   for `steps` or a mode as {@link CrowdWorkers.run} refuses them.
   */
  runSync(steps: number = CROWD_STEP.all, mode: WrapMode = 'loop'): number {
    const chosen = this.stepsOf(steps, mode, 'runSync');
    if (!this.parallel) return runSlice(this.slice, chosen, mode, 0, this.crowd.count);
    this.begin(chosen, mode);
    try {
      const control = this.control;
      // Each wait up to timeoutMs (no clock read per frame): the waits end when the last worker
      // reports, or early when the count changed before the wait began.
      for (
        let pending = Atomics.load(control, PENDING);
        pending !== 0;
        pending = Atomics.load(control, PENDING)
      ) {
        if (Atomics.wait(control, PENDING, pending, this.timeoutMs) === 'timed-out') {
          this.failure = new TendonError(
            'crowd/worker-failed',
            `CrowdWorkers.runSync: ${pending} worker(s) did not finish within ${this.timeoutMs} ms`,
          );
          throw this.failure;
        }
      }
      return this.finish();
    } finally {
      this.busy = false;
    }
  }

  /**
   * The steps a frame runs: `steps` checked (an integer mask of known bits, each a step the pool
   * was given: runSteps would skip a step with nothing set up, a caller's mistake unseen), with
   * `CROWD_STEP.all` as every step set up. Comparisons and bit operations only: it runs every frame.
   */
  private stepsOf(steps: number, mode: WrapMode, who: string): number {
    // A string, NaN, 1.5, a negative or an unknown bit each fails `(steps & all) === steps`.
    if (typeof steps !== 'number' || (steps & CROWD_STEP.all) !== steps) {
      throw new TendonError(
        'argument/invalid',
        `CrowdWorkers.${who}: steps ${typeof steps === 'string' ? `'${steps}'` : String(steps)} is not a mask of CROWD_STEP bits (an integer in 0 … ${CROWD_STEP.all})`,
      );
    }
    if (mode !== 'loop' && mode !== 'clamp') {
      throw new TendonError(
        'argument/invalid',
        `CrowdWorkers.${who}: mode "${String(mode)}" is not 'loop' or 'clamp'`,
      );
    }
    if (steps === CROWD_STEP.all) return this.available;
    const missing = steps & ~this.available;
    if (missing !== 0) {
      const needs: [number, string][] = [
        [CROWD_STEP.legs, 'legs (no batch)'],
        [CROWD_STEP.aims, 'aims (no aims)'],
        [CROWD_STEP.custom, 'custom (no custom step)'],
        [CROWD_STEP.palettes, 'palettes (no palettes)'],
      ];
      const names = needs.filter(([bit]) => (missing & bit) !== 0).map(([, name]) => name);
      throw new TendonError(
        'argument/invalid',
        `CrowdWorkers.${who}: steps ask for ${names.join(', ')}, which the pool was not started with`,
      );
    }
    return steps;
  }

  /**
   * Writes each character's clips (by index) and despawns where the workers read them at the
   * frame's start. Throws `crowd/clips-changed`, having written what it had checked, for a clip the
   * workers were not sent.
   */
  private shareClips(): void {
    const crowd = this.crowd;
    const state = this.clipState;
    for (let c = 0; c < crowd.count; c++) {
      const clip = crowd.clipOf(c);
      if (clip !== this.lastClips[c]) {
        state[3 * c] = this.indexOfSent(clip, c);
        this.lastClips[c] = clip;
      }
      const blend = crowd.blendClipOf(c);
      if (blend !== this.lastBlendClips[c]) {
        state[3 * c + 1] = this.indexOfSent(blend, c);
        this.lastBlendClips[c] = blend;
      }
      state[3 * c + 2] = crowd.despawns(c);
    }
  }

  private indexOfSent(clip: Clip | null, c: number): number {
    if (clip === null) return -1;
    const k = this.clipIndex.get(clip);
    if (k === undefined) {
      throw new TendonError(
        'crowd/clips-changed',
        `CrowdWorkers: character ${c} was given clip "${clip.name}" after the pool started, which the workers were not sent: list it in the options' clips`,
      );
    }
    return k;
  }

  /** Checks the pool can run, then wakes the workers on a frame. */
  private begin(steps: number, mode: WrapMode): void {
    if (this.failure !== null) throw this.failure;
    if (this.closed)
      throw new TendonError('crowd/worker-failed', 'CrowdWorkers: the workers were terminated');
    if (this.busy) throw new TendonError('crowd/busy', 'CrowdWorkers: a frame is already running');
    // The crowd's times and blend weights checked here, for every character, before any worker
    // runs: checked in the workers, a bad time refused one worker's range while the others had
    // stepped theirs (the calling-thread fallback refuses the frame whole, as Crowd.sample does).
    if ((steps & CROWD_STEP.sample) !== 0) this.crowd.checkSample(mode, 0, this.crowd.count);
    // The characters' clips as they are now, for the workers to follow (they were sent every
    // clip at start): only a clip they were not sent is refused. Until 27 November they sampled
    // the clips of the start, silently unlike one thread (a hostile test).
    if ((steps & READS_CLIPS) !== 0) this.shareClips();
    this.busy = true;
    const control = this.control;
    control[STEPS] = steps;
    control[MODE] = mode === 'loop' ? 0 : 1;
    control[FAILED] = 0;
    control[INVALID] = 0;
    control[TEXT_LENGTH] = 0;
    Atomics.store(control, PENDING, this.workerCount);
    Atomics.add(control, GENERATION, 1);
    Atomics.notify(control, GENERATION);
    if (this.callingThreadTakesPart) {
      try {
        const invalid = runSlice(this.slice, steps, mode, 0, this.ranges[1]);
        if (invalid > 0) Atomics.add(control, INVALID, invalid);
      } catch (error) {
        recordFailure(control, this.text, error);
      }
    }
  }

  /** The frame's result: the invalid legs and aims plus the custom step's count, or the first worker's error. */
  private finish(): number {
    const control = this.control;
    if (Atomics.load(control, FAILED) > 0) {
      const length = Atomics.load(control, TEXT_LENGTH);
      // A copy: TextDecoder does not read shared memory in browsers.
      const [code, ...rest] = new TextDecoder().decode(this.text.slice(0, length)).split('\n');
      const message = rest.join('\n');
      throw new TendonError(
        'crowd/worker-failed',
        `CrowdWorkers: ${control[FAILED]} worker(s) failed; the first: ${code === '' ? '' : `${code}: `}${message}`,
        { cause: code === '' ? new Error(message) : new TendonError(code as TendonErrorCode, message) },
      );
    }
    return control[INVALID];
  }

  /**
   * Stops the workers. A frame running is abandoned: its {@link CrowdWorkers.run} rejects with
   * `crowd/worker-failed` (what it wrote so far stays). Safe to call twice.
   */
  terminate(): void {
    if (this.closed) return;
    this.closed = true;
    // The workers' exits are not reported once closed (onError), so the run waiting for them
    // would never settle: it is told here.
    this.rejectRun?.(
      new TendonError('crowd/worker-failed', 'CrowdWorkers: the workers were terminated during the frame'),
    );
    if (this.parallel) {
      Atomics.store(this.control, STEPS, STOP);
      Atomics.add(this.control, GENERATION, 1);
      Atomics.notify(this.control, GENERATION);
    }
    for (const handle of this.handles) handle.terminate();
  }
}

type WaitAsync = (
  array: Int32Array,
  index: number,
  value: number,
) => { async: false; value: string } | { async: true; value: Promise<string> };

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * A worker's side of the clips a frame follows: each character's clips as the main thread wrote
 * them in `state` (3 numbers each: the clip's index, −1 for none; the second clip's; the
 * despawns), given to the worker's crowd now and, by the function returned, where they changed
 * since. A character taken out and given a clip again since is taken out here too, so that its
 * placement starts over as on one thread.
 */
function followClips(crowd: Crowd, clips: readonly Clip[], state: Int32Array): () => void {
  const known = new Int32Array(3 * crowd.count);
  for (let c = 0; c < crowd.count; c++) {
    known[3 * c] = -1;
    known[3 * c + 1] = -1;
    known[3 * c + 2] = state[3 * c + 2];
  }
  const follow = (): void => {
    for (let c = 0; c < crowd.count; c++) {
      const o = 3 * c;
      if (state[o + 2] !== known[o + 2]) {
        known[o + 2] = state[o + 2];
        crowd.setClip(c, null);
        known[o] = -1;
      }
      if (state[o] !== known[o]) {
        known[o] = state[o];
        crowd.setClip(c, known[o] < 0 ? null : clips[known[o]]);
      }
      if (state[o + 1] !== known[o + 1]) {
        known[o + 1] = state[o + 1];
        crowd.setBlendClip(c, known[o + 1] < 0 ? null : clips[known[o + 1]]);
      }
    }
  };
  follow();
  return follow;
}

/**
 * The worker's side of {@link CrowdWorkers}: give it a function that posts a message to the main
 * thread, and hand every message the worker receives to the function it returns. On the set-up
 * message it views the crowd (`Crowd.fromBuffer`), the batch and the palettes, rebuilds the
 * skeleton, clips (`Clip.fromTable`, same bits) and skins, answers, and then serves frames until
 * the pool is terminated (blocked in `Atomics.wait` between frames: a worker's event loop does not
 * run after set-up).
 *
 * A Node worker's script (`tendon/node` ships one): `parentPort.on('message',
 * serveCrowdWorker((m) => parentPort.postMessage(m)))`; a page's module worker:
 * `const handle = serveCrowdWorker((m) => self.postMessage(m)); self.onmessage = (e) => handle(e.data);`.
 * A script of the caller's own passes `hooks` to run a {@link CROWD_STEP}`.custom` step (each
 * character's `FootPlacement` on the worker's view of the crowd, say).
 */
export function serveCrowdWorker(
  post: (message: unknown) => void,
  hooks?: CrowdWorkerHooks,
): (message: unknown) => void {
  return (message) => {
    const m = message as InitMessage;
    if (m === null || typeof m !== 'object' || m.type !== 'tendon/crowd-init') return;
    let slice: Slice;
    let control: Int32Array;
    let text: Uint8Array;
    let follow: () => void;
    try {
      const skeleton = Skeleton.create(m.skeleton);
      const crowd = Crowd.fromBuffer(skeleton, m.count, m.crowd);
      const clips = m.clips.map((c) => Clip.fromTable(skeleton, c.name, c.duration, c));
      follow = followClips(crowd, clips, new Int32Array(m.clipState));
      const batch =
        m.batch === null ? null : TwoBoneBatch.fromBuffer(skeleton, m.batch.limbs, m.count, m.batch.buffer);
      const aims =
        m.aims === null ? null : AimBatch.fromBuffer(skeleton, m.aims.bones, m.count, m.aims.buffer);
      const palettes = m.palettes.map((p) => ({
        skin: new Skin(skeleton, p.skin),
        out: p.out,
        layout: p.layout,
      }));
      let custom: CrowdStep | null = null;
      if (m.custom !== null) {
        if (hooks === undefined || typeof hooks.setup !== 'function') {
          throw new TendonError(
            'argument/invalid',
            'the frame has a custom step, but this worker script gave serveCrowdWorker no hooks to set it up',
          );
        }
        custom = hooks.setup({ crowd, data: m.custom.data });
        if (typeof custom !== 'function') {
          throw new TendonError('argument/invalid', 'the worker hooks’ setup did not return a step function');
        }
      }
      slice = {
        crowd,
        batch,
        aims,
        custom,
        palettes,
        chunk: m.chunk,
        schedule: m.schedule,
      };
      control = new Int32Array(m.control, 0, SLOTS);
      text = new Uint8Array(m.control, 4 * SLOTS, TEXT_BYTES);
    } catch (error) {
      post({ type: 'tendon/crowd-init-failed', message: describe(error) });
      return;
    }
    // Read before answering: the first frame can only start after the answer.
    let seen = Atomics.load(control, GENERATION);
    post({ type: 'tendon/crowd-ready' });
    for (;;) {
      // Only a new generation is a frame: a wait can also end without one (a wake-up meant for
      // nobody, or an interrupted wait), and running the same frame twice would count this
      // worker down twice and end the frame before another worker has run its range.
      while (Atomics.load(control, GENERATION) === seen) Atomics.wait(control, GENERATION, seen);
      seen = Atomics.load(control, GENERATION);
      const steps = Atomics.load(control, STEPS);
      if (steps === STOP) return;
      try {
        if ((steps & READS_CLIPS) !== 0) follow();
        const invalid = runSlice(slice, steps, control[MODE] === 0 ? 'loop' : 'clamp', m.first, m.size);
        if (invalid > 0) Atomics.add(control, INVALID, invalid);
      } catch (error) {
        recordFailure(control, text, error);
      }
      if (Atomics.sub(control, PENDING, 1) === 1) Atomics.notify(control, PENDING);
    }
  };
}

/**
 * A {@link CrowdWorkerFactory} for a page: module Web Workers running `url`, a script that calls
 * {@link serveCrowdWorker} (see there). The page must be cross-origin isolated for shared memory.
 */
export function browserCrowdWorker(url: string | URL): CrowdWorkerFactory {
  return () => {
    const worker = new Worker(url, { type: 'module' });
    return {
      postMessage: (message) => worker.postMessage(message),
      onMessage: (listener) => worker.addEventListener('message', (event) => listener(event.data)),
      onError: (listener) =>
        worker.addEventListener('error', (event) => listener(event.error ?? event.message)),
      terminate: () => worker.terminate(),
    };
  };
}
