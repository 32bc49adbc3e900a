/**
 * BVH (Biovision hierarchy) motion-capture import: a skeleton and one clip from a `.bvh` text.
 *
 * The result follows three.js's `BVHLoader` exactly (same joint order, rotation composition and
 * position convention), so a clip imported here and one imported there pose a figure identically;
 * unlike that loader, malformed input is an error naming the line, never a console message followed
 * by a half-parsed result.
 *
 * @packageDocumentation
 */

import { Clip, type RawTrack } from '../animation/clip.js';
import { checkNumberArg, checkStringArg, optionsArg } from '../arguments.js';
import { TendonError, type TendonErrorCode } from '../errors.js';
import { dot, identity, multiply } from '../kernel/quat.js';
import { cosSinInto } from '../math/angle.js';
import { Skeleton } from '../skeleton/skeleton.js';

/** How {@link importBvh} reads a file. */
export interface BvhImportOptions {
  /**
   * Multiplies every OFFSET and position channel: BVH has no unit, and CMU data is in ~5.6 cm units
   * (so e.g. `0.056` for metres, or `0.01` for the usual "centimetres to metres"). A positive
   * finite number; default 1.
   */
  readonly scale?: number;
  /** Name used in error messages (a file name). Default `'bvh'`. */
  readonly source?: string;
  /** Clip name. Default: {@link BvhImportOptions.source}. */
  readonly name?: string;
  /**
   * Most joints (ROOT, JOINT and End Site) a file may declare: a file over it is refused before its
   * motion is read. Default 10,000 (motion capture rigs have ~30 to ~200).
   */
  readonly maxJoints?: number;
  /** Deepest nesting of joints a file may declare. Default 1,000 (a human spine to a fingertip is ~20). */
  readonly maxDepth?: number;
}

/** Default {@link BvhImportOptions.maxJoints}. */
export const BVH_MAX_JOINTS = 10_000;
/** Default {@link BvhImportOptions.maxDepth}. */
export const BVH_MAX_DEPTH = 1_000;

/** What {@link importBvh} returns: the figure, its motion, and the motion's timing. */
export interface BvhImport {
  /**
   * One joint per ROOT, JOINT and End Site, in file order (depth-first, so parents come first and
   * every joint keeps its file position). End Sites are leaves named `<parent>_End` (with a number
   * appended when that name is taken): they carry no motion but mark the tip of a limb, which IK
   * needs. Rest translation = OFFSET × scale, rest rotation identity, rest scale 1.
   */
  readonly skeleton: Skeleton;
  /**
   * One `LINEAR` rotation track per joint with rotation channels and one `LINEAR` translation track
   * per joint with position channels, a key per frame at `frame × frameTime`; duration
   * `(frameCount − 1) × frameTime`. Joints without position channels keep their OFFSET.
   */
  readonly clip: Clip;
  /** Number of frames (keys per track), at least 1. */
  readonly frameCount: number;
  /** Seconds between frames, as the file's `Frame Time:` says. */
  readonly frameTime: number;
}

/** Channel codes: position axes first, so `code >= ROTATION_X` tells rotations apart. */
const POSITION_X = 0;
const ROTATION_X = 3;
const CHANNEL_NAMES = ['Xposition', 'Yposition', 'Zposition', 'Xrotation', 'Yrotation', 'Zrotation'];
const CHANNEL_CODES = new Map(CHANNEL_NAMES.map((name, code) => [name.toUpperCase(), code]));

/** One ROOT, JOINT or End Site as read, before the skeleton is built. */
interface JointRecord {
  /** `''` for an End Site until names are assigned (its name depends on every other joint's). */
  name: string;
  readonly kind: 'ROOT' | 'JOINT' | 'End Site';
  readonly parent: number;
  /** Line of the ROOT/JOINT/End keyword. */
  readonly line: number;
  offset: number[] | undefined;
  /** Channel codes in file order; `undefined` until CHANNELS is read (End Sites never have any). */
  channels: number[] | undefined;
}

/**
 * Reads a BVH file into a {@link Skeleton} and a {@link Clip}.
 *
 * Accepts what motion-capture tools write: LF, CRLF or CR line endings (mixed within one file), any
 * whitespace between tokens, keywords and channel names in any letter case, several ROOTs (a
 * forest), any number and order of channels per joint, a `{` on the ROOT/JOINT line or the next.
 * Each joint's rotation is `q(c1) · q(c2) · q(c3)` for its rotation channels in listed order, each
 * factor a rotation about the joint's local axis (the convention of three.js and of the BVH
 * writers); position channels are added to the OFFSET, as three.js does. Consecutive rotation keys
 * are made sign-continuous so that every key-to-key interpolation already takes the short way.
 *
 * @param text - the whole file.
 * @param options - unit scale and names; see {@link BvhImportOptions}.
 * @throws {@link TendonError} naming the source and line:
 *   `bvh/parse` for a malformed hierarchy or header (missing HIERARCHY or MOTION, unknown keyword,
 *   unbalanced braces, bad channel name, CHANNELS count not matching its names, OFFSET without
 *   three numbers, missing or invalid `Frame Time:`, duplicate joint names, invalid options);
 *   `bvh/frame-count` when `Frames:` is missing, not a non-negative integer, zero, or not the number
 *   of frame lines that follow; `bvh/missing-values` when a frame line has fewer or more values
 *   than the hierarchy has channels; `bvh/not-finite` for a frame value that is not a finite
 *   decimal number.
 */
export function importBvh(text: string, options: BvhImportOptions = {}): BvhImport {
  const checked = optionsArg(options, 'importBvh');
  const source = checked.source ?? 'bvh';
  checkStringArg(source, 'importBvh', 'options.source');
  if (checked.name !== undefined) checkStringArg(checked.name, 'importBvh', 'options.name');
  checkNumberArg(checked.maxJoints ?? 1, 'importBvh', 'options.maxJoints', 1);
  checkNumberArg(checked.maxDepth ?? 1, 'importBvh', 'options.maxDepth', 1);
  try {
    return new BvhReader(text, source, checked).read();
  } catch (error) {
    if (error instanceof TendonError && error.code.startsWith('bvh/')) throw error;
    // A skeleton or clip error here would be a parser bug: still report it as a file problem
    // with the original attached, rather than as a fault of some other module.
    const reason = error instanceof Error ? error.message : String(error);
    throw new TendonError('bvh/parse', `BVH "${source}": could not import the file (${reason})`, {
      cause: error,
    });
  }
}

/** Whitespace: control characters and space (what BVH writers emit, and cheap to test per char). */
function isSpace(c: number): boolean {
  return c <= 32;
}

function tokenize(line: string): string[] {
  const tokens: string[] = [];
  const n = line.length;
  let p = 0;
  while (p < n) {
    while (p < n && isSpace(line.charCodeAt(p))) p++;
    if (p >= n) break;
    const start = p;
    while (p < n && !isSpace(line.charCodeAt(p))) p++;
    tokens.push(line.slice(start, p));
  }
  return tokens;
}

function isBlank(line: string): boolean {
  for (let p = 0; p < line.length; p++) if (!isSpace(line.charCodeAt(p))) return false;
  return true;
}

/** `0-9 . - + e E`: the only characters a decimal number is made of. */
function isDecimalChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46 || c === 45 || c === 43 || c === 101 || c === 69;
}

/**
 * The token as a number when it is a plain decimal (`-1.5`, `.5`, `2e-3`), else NaN. `Number`
 * alone would also take `0x1F`, `0b1` and `Infinity`, which no BVH writer means.
 */
function parseDecimal(token: string): number {
  for (let p = 0; p < token.length; p++) if (!isDecimalChar(token.charCodeAt(p))) return Number.NaN;
  return token.length > 0 ? Number(token) : Number.NaN;
}

/** A token for a message: quoted, and cut short so a garbage line does not flood the message. */
function quote(token: string): string {
  return JSON.stringify(token.length > 40 ? `${token.slice(0, 40)}…` : token);
}

function describe(joint: JointRecord, joints: readonly JointRecord[]): string {
  return joint.kind === 'End Site'
    ? `the End Site of "${joints[joint.parent].name}"`
    : `${joint.kind} "${joint.name}"`;
}

class BvhReader {
  private readonly lines: string[];
  /** Current line of the hierarchy tokenizer (0-based) and its unread tokens. */
  private index = -1;
  private tokens: string[] = [];
  private pos = 0;
  private readonly joints: JointRecord[] = [];

  constructor(
    text: string,
    private readonly source: string,
    private readonly options: BvhImportOptions,
  ) {
    if (typeof text !== 'string') {
      this.fail('bvh/parse', 0, `expected the file's text as a string, got ${typeof text}`);
    }
    // A BOM is not whitespace by our definition, so it would glue itself to HIERARCHY.
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    this.lines = body.split(/\r\n|\r|\n/);
    // A final line break ends the last line rather than starting an empty one: line numbers in
    // messages then match what an editor shows for "the end of the file".
    if (this.lines.length > 1 && this.lines[this.lines.length - 1] === '') this.lines.pop();
  }

  read(): BvhImport {
    const scale = this.options.scale ?? 1;
    if (typeof scale !== 'number' || !Number.isFinite(scale) || scale <= 0) {
      this.fail('bvh/parse', 0, `options.scale is ${String(scale)}; it must be a positive finite number`);
    }
    const motionLine = this.readHierarchy();
    const joints = this.joints;
    const names = this.assignNames();

    // Frame values are laid out joint by joint in file order, each joint's channels as listed.
    const channelStarts = new Int32Array(joints.length);
    let channelTotal = 0;
    for (let j = 0; j < joints.length; j++) {
      channelStarts[j] = channelTotal;
      channelTotal += joints[j].channels?.length ?? 0;
    }
    if (channelTotal === 0) {
      this.fail('bvh/parse', motionLine, 'the hierarchy declares no CHANNELS, so there is no motion to read');
    }
    const { frameCount, frameTime, data } = this.readMotion(channelTotal, channelStarts);

    const restTranslations = new Float64Array(3 * joints.length);
    const parents = new Int32Array(joints.length);
    for (let j = 0; j < joints.length; j++) {
      parents[j] = joints[j].parent;
      for (let c = 0; c < 3; c++) restTranslations[3 * j + c] = joints[j].offset![c] * scale;
    }
    const skeleton = Skeleton.create({ names, parents, restTranslations });

    const times = new Float64Array(frameCount);
    for (let f = 0; f < frameCount; f++) times[f] = f * frameTime;
    const tracks: RawTrack[] = [];
    for (let j = 0; j < joints.length; j++) {
      const channels = joints[j].channels;
      if (channels === undefined || channels.length === 0) continue;
      const start = channelStarts[j];
      if (channels.some((code) => code < ROTATION_X)) {
        tracks.push({
          joint: j,
          path: 'translation',
          times,
          values: translationKeys(data, channelTotal, start, channels, joints[j].offset!, scale, frameCount),
        });
      }
      if (channels.some((code) => code >= ROTATION_X)) {
        tracks.push({
          joint: j,
          path: 'rotation',
          times,
          values: rotationKeys(data, channelTotal, start, channels, frameCount),
        });
      }
    }
    const clip = Clip.create(skeleton, {
      name: this.options.name ?? this.source,
      tracks,
      duration: (frameCount - 1) * frameTime,
    });
    return { skeleton, clip, frameCount, frameTime };
  }

  /** Reads from HIERARCHY through the MOTION keyword; returns the MOTION line (1-based). */
  private readHierarchy(): number {
    const first = this.next();
    if (first === undefined || first.toUpperCase() !== 'HIERARCHY') {
      this.fail(
        'bvh/parse',
        this.line,
        first === undefined
          ? 'the file is empty; expected HIERARCHY'
          : `expected HIERARCHY at the start of the file, found ${quote(first)}`,
      );
    }
    const joints = this.joints;
    /** Joints whose `{` is open, innermost last. */
    const open: number[] = [];
    const maxJoints = this.options.maxJoints ?? BVH_MAX_JOINTS;
    const maxDepth = this.options.maxDepth ?? BVH_MAX_DEPTH;
    // Before each joint is opened: a file's counts are checked as they are read, not after.
    const limit = (line: number) => {
      if (this.joints.length >= maxJoints) {
        this.fail('bvh/parse', line, `more than ${maxJoints} joints (options.maxJoints raises the limit)`);
      }
      if (open.length >= maxDepth) {
        this.fail(
          'bvh/parse',
          line,
          `joints nested more than ${maxDepth} deep (options.maxDepth raises the limit)`,
        );
      }
    };
    for (;;) {
      const token = this.next();
      const line = this.line;
      if (open.length === 0) {
        if (token === undefined) {
          this.fail(
            'bvh/parse',
            line,
            joints.length === 0
              ? 'the file ends after HIERARCHY; expected ROOT'
              : 'the file ends after the hierarchy; expected a MOTION section',
          );
        }
        const keyword = token.toUpperCase();
        if (keyword === 'ROOT') {
          limit(line);
          open.push(this.openJoint('ROOT', -1));
        } else if (keyword === 'MOTION') {
          if (joints.length === 0) {
            this.fail('bvh/parse', line, 'MOTION before any ROOT; the hierarchy is empty');
          }
          this.expectEndOfLine('MOTION');
          return line;
        } else if (token === '}') {
          this.fail('bvh/parse', line, "'}' without a matching '{' (unbalanced braces)");
        } else {
          this.fail('bvh/parse', line, `unknown keyword ${quote(token)}; expected ROOT or MOTION`);
        }
        continue;
      }
      const current = open[open.length - 1];
      const joint = joints[current];
      const where = describe(joint, joints);
      if (token === undefined) {
        this.fail(
          'bvh/parse',
          line,
          `the file ends inside ${where} (opened at line ${joint.line}): ` +
            'unbalanced braces or a truncated file',
        );
      }
      const keyword = token.toUpperCase();
      const endSite = joint.kind === 'End Site';
      if (keyword === 'OFFSET') {
        if (joint.offset !== undefined) this.fail('bvh/parse', line, `a second OFFSET in ${where}`);
        joint.offset = this.readOffset(where);
      } else if (keyword === 'CHANNELS' && !endSite) {
        if (joint.channels !== undefined) this.fail('bvh/parse', line, `a second CHANNELS in ${where}`);
        joint.channels = this.readChannels(where);
      } else if (keyword === 'JOINT' && !endSite) {
        limit(line);
        open.push(this.openJoint('JOINT', current));
      } else if (keyword === 'END' && !endSite) {
        limit(line);
        open.push(this.openJoint('End Site', current));
      } else if (token === '}') {
        if (joint.offset === undefined) this.fail('bvh/parse', line, `${where} has no OFFSET`);
        if (!endSite && joint.channels === undefined) {
          this.fail('bvh/parse', line, `${where} has no CHANNELS`);
        }
        open.pop();
      } else if (endSite && (keyword === 'CHANNELS' || keyword === 'JOINT' || keyword === 'END')) {
        this.fail('bvh/parse', line, `${token} inside ${where}; an End Site holds only an OFFSET`);
      } else if (keyword === 'MOTION' || keyword === 'ROOT' || token === '{') {
        this.fail(
          'bvh/parse',
          line,
          `${quote(token)} inside ${where} (opened at line ${joint.line}): unbalanced braces`,
        );
      } else {
        const expected = endSite ? "OFFSET or '}'" : "OFFSET, CHANNELS, JOINT, End Site or '}'";
        this.fail('bvh/parse', line, `unknown keyword ${quote(token)} in ${where}; expected ${expected}`);
      }
    }
  }

  /** Reads a joint's header after its keyword (name, `{`); returns the new joint's index. */
  private openJoint(kind: JointRecord['kind'], parent: number): number {
    const line = this.line;
    const words = this.lineTokens();
    let name = '';
    if (kind === 'End Site') {
      if (words.length === 0 || words[0].toUpperCase() !== 'SITE') {
        this.fail('bvh/parse', line, `expected "End Site", found "End${words.map((w) => ` ${w}`).join('')}"`);
      }
      if (words.length > 1) this.fail('bvh/parse', line, `unexpected ${quote(words[1])} after End Site`);
    } else {
      // Names with spaces exist in the wild; keep them whole rather than cut at the first word.
      name = words.join(' ');
      if (name === '') this.fail('bvh/parse', line, `${kind} without a name`);
    }
    const brace = this.next();
    if (brace !== '{') {
      const what = kind === 'End Site' ? 'End Site' : `${kind} "${name}"`;
      const found = brace === undefined ? 'the end of the file' : quote(brace);
      this.fail('bvh/parse', this.line, `expected '{' after ${what} (line ${line}), found ${found}`);
    }
    this.joints.push({ name, kind, parent, line, offset: undefined, channels: undefined });
    return this.joints.length - 1;
  }

  private readOffset(where: string): number[] {
    const line = this.line;
    const words = this.lineTokens();
    if (words.length !== 3) {
      this.fail('bvh/parse', line, `OFFSET of ${where} needs 3 numbers, found ${words.length}`);
    }
    return words.map((word, axis) => {
      const value = parseDecimal(word);
      if (!Number.isFinite(value)) {
        this.fail(
          'bvh/parse',
          line,
          `OFFSET of ${where}: ${'XYZ'[axis]} value ${quote(word)} is not a number`,
        );
      }
      return value;
    });
  }

  private readChannels(where: string): number[] {
    const line = this.line;
    const words = this.lineTokens();
    if (words.length === 0) this.fail('bvh/parse', line, `CHANNELS of ${where} has no channel count`);
    if (!/^\d+$/.test(words[0])) {
      this.fail(
        'bvh/parse',
        line,
        `CHANNELS of ${where}: count ${quote(words[0])} is not a non-negative integer`,
      );
    }
    const count = Number(words[0]);
    const names = words.slice(1);
    if (names.length !== count) {
      this.fail(
        'bvh/parse',
        line,
        `CHANNELS of ${where} declares ${count} channels but lists ${names.length} names` +
          (names.length > 0 ? ` (${names.join(' ')})` : ''),
      );
    }
    return names.map((name) => {
      const code = CHANNEL_CODES.get(name.toUpperCase());
      if (code === undefined) {
        this.fail(
          'bvh/parse',
          line,
          `unknown channel ${quote(name)} in ${where}; expected one of ${CHANNEL_NAMES.join(', ')}`,
        );
      }
      return code;
    });
  }

  /**
   * Names every joint: End Sites get `<parent>_End`, numbered when a joint (anywhere in the file)
   * or an earlier End Site already has it. Real joint names must be unique, as the skeleton and
   * every name-based lookup need; renaming them silently would break retargeting by name.
   */
  private assignNames(): string[] {
    const joints = this.joints;
    const firstLine = new Map<string, number>();
    for (const joint of joints) {
      if (joint.kind === 'End Site') continue;
      const other = firstLine.get(joint.name);
      if (other !== undefined) {
        this.fail(
          'bvh/parse',
          joint.line,
          `${joint.kind} "${joint.name}" has the same name as the joint at line ${other}; ` +
            'joint names must be unique',
        );
      }
      firstLine.set(joint.name, joint.line);
    }
    const used = new Set(firstLine.keys());
    // The number each base name's next End Site starts counting from: many End Sites under one
    // joint would otherwise each count up past all the ones before (quadratic in a hostile file).
    const nextNumber = new Map<string, number>();
    return joints.map((joint) => {
      if (joint.kind !== 'End Site') return joint.name;
      const base = `${joints[joint.parent].name}_End`;
      let k = nextNumber.get(base) ?? 1;
      let name = k === 1 ? base : `${base}${k}`;
      while (used.has(name)) name = `${base}${++k}`;
      nextNumber.set(base, k + 1);
      used.add(name);
      joint.name = name;
      return name;
    });
  }

  /** Reads the MOTION section after the MOTION line: header, then one line of values per frame. */
  private readMotion(
    channelTotal: number,
    channelStarts: Int32Array,
  ): { frameCount: number; frameTime: number; data: Float64Array } {
    const lines = this.lines;
    let i = this.nextContentLine(this.index + 1);
    if (i >= lines.length) {
      this.fail('bvh/frame-count', lines.length, 'the file ends after MOTION; expected "Frames: <count>"');
    }
    const framesLine = i + 1;
    const frames = /^\s*frames\s*:(.*)$/i.exec(lines[i]);
    if (frames === null) {
      this.fail(
        'bvh/frame-count',
        framesLine,
        `expected "Frames: <count>" after MOTION, found ${quote(lines[i].trim())}`,
      );
    }
    const countText = frames[1].trim();
    const frameCount = Number(countText);
    if (!/^\d+$/.test(countText) || !Number.isSafeInteger(frameCount)) {
      this.fail('bvh/frame-count', framesLine, `Frames: ${quote(countText)} is not a non-negative integer`);
    }
    if (frameCount === 0) {
      this.fail('bvh/frame-count', framesLine, 'Frames: 0; a motion needs at least one frame');
    }

    i = this.nextContentLine(i + 1);
    if (i >= lines.length) {
      this.fail('bvh/parse', lines.length, 'the file ends after "Frames:"; expected "Frame Time: <seconds>"');
    }
    const timeLine = i + 1;
    const time = /^\s*frame\s+time\s*:(.*)$/i.exec(lines[i]);
    if (time === null) {
      this.fail(
        'bvh/parse',
        timeLine,
        `expected "Frame Time: <seconds>" after "Frames:", found ${quote(lines[i].trim())}`,
      );
    }
    const timeText = time[1].trim();
    const frameTime = parseDecimal(timeText);
    if (!(frameTime > 0) || !Number.isFinite(frameTime)) {
      this.fail('bvh/parse', timeLine, `Frame Time: ${quote(timeText)} is not a positive number of seconds`);
    }
    if (!Number.isFinite((frameCount - 1) * frameTime)) {
      this.fail(
        'bvh/parse',
        timeLine,
        `Frame Time ${frameTime} s × ${frameCount} frames is not a finite duration`,
      );
    }

    // Count before allocating: a wrong "Frames:" (say a billion) is an error, not an allocation.
    const frameLines: number[] = [];
    for (let k = i + 1; k < lines.length; k++) if (!isBlank(lines[k])) frameLines.push(k);
    if (frameLines.length !== frameCount) {
      const detail =
        frameLines.length < frameCount
          ? `the file ends at line ${lines.length}`
          : `the first extra frame is line ${frameLines[frameCount] + 1}`;
      this.fail(
        'bvh/frame-count',
        framesLine,
        `"Frames: ${frameCount}" but ${frameLines.length} frame line${frameLines.length === 1 ? '' : 's'} ` +
          `follow; ${detail}`,
      );
    }

    const data = new Float64Array(frameCount * channelTotal);
    for (let f = 0; f < frameCount; f++) {
      const k = frameLines[f];
      const line = lines[k];
      const n = line.length;
      const base = f * channelTotal;
      let count = 0;
      let p = 0;
      // A hand scan rather than split(): the biggest files hold millions of values.
      for (;;) {
        while (p < n && isSpace(line.charCodeAt(p))) p++;
        if (p >= n) break;
        const start = p;
        let plain = true;
        for (; p < n; p++) {
          const c = line.charCodeAt(p);
          if (isSpace(c)) break;
          // Number() alone would accept "0x1F" and "Infinity".
          if (!isDecimalChar(c)) plain = false;
        }
        if (count < channelTotal) {
          const value = plain ? Number(line.slice(start, p)) : Number.NaN;
          if (!Number.isFinite(value)) {
            this.fail(
              'bvh/not-finite',
              k + 1,
              `frame ${f + 1}, value ${count + 1} (${this.channelLabel(count, channelStarts)}) is ` +
                `${quote(line.slice(start, p))}, not a finite number`,
            );
          }
          data[base + count] = value;
        }
        count++;
      }
      if (count !== channelTotal) {
        this.fail(
          'bvh/missing-values',
          k + 1,
          `frame ${f + 1} has ${count} value${count === 1 ? '' : 's'}; ` +
            `the hierarchy declares ${channelTotal} channels`,
        );
      }
    }
    return { frameCount, frameTime, data };
  }

  /** `"LeftLeg Zrotation"` for the value at `column` of a frame line. */
  private channelLabel(column: number, channelStarts: Int32Array): string {
    let j = this.joints.length - 1;
    while (channelStarts[j] > column || (this.joints[j].channels?.length ?? 0) === 0) j--;
    const joint = this.joints[j];
    return `${joint.name} ${CHANNEL_NAMES[joint.channels![column - channelStarts[j]]]}`;
  }

  /** The next hierarchy token, across lines; `undefined` at the end of the file. */
  private next(): string | undefined {
    while (this.pos >= this.tokens.length) {
      if (this.index + 1 >= this.lines.length) return undefined;
      this.index++;
      this.tokens = tokenize(this.lines[this.index]);
      this.pos = 0;
    }
    return this.tokens[this.pos++];
  }

  /** The unread tokens of the current line up to a brace, which stays unread. */
  private lineTokens(): string[] {
    const start = this.pos;
    while (this.pos < this.tokens.length && this.tokens[this.pos] !== '{' && this.tokens[this.pos] !== '}') {
      this.pos++;
    }
    return this.tokens.slice(start, this.pos);
  }

  private expectEndOfLine(keyword: string): void {
    if (this.pos < this.tokens.length) {
      this.fail('bvh/parse', this.line, `unexpected ${quote(this.tokens[this.pos])} after ${keyword}`);
    }
  }

  /** 1-based number of the line the tokenizer is on (the last line once the file is exhausted). */
  private get line(): number {
    return Math.max(this.index + 1, 1);
  }

  private nextContentLine(from: number): number {
    let i = from;
    while (i < this.lines.length && isBlank(this.lines[i])) i++;
    return i;
  }

  private fail(code: TendonErrorCode, line: number, what: string): never {
    const at = line > 0 ? `, line ${line}` : '';
    throw new TendonError(code, `BVH "${this.source}"${at}: ${what}`);
  }
}

/**
 * Translation keys `(OFFSET + position channels) × scale`: three.js animates the bone position,
 * which already holds the OFFSET, so the channel values are relative to it. An axis without a
 * channel keeps its OFFSET.
 */
function translationKeys(
  data: Float64Array,
  stride: number,
  start: number,
  channels: readonly number[],
  offset: readonly number[],
  scale: number,
  frameCount: number,
): Float64Array {
  const values = new Float64Array(3 * frameCount);
  for (let f = 0; f < frameCount; f++) {
    const row = f * stride + start;
    let x = offset[0];
    let y = offset[1];
    let z = offset[2];
    for (let c = 0; c < channels.length; c++) {
      const code = channels[c];
      const v = data[row + c];
      // A repeated axis overwrites, as in three.js.
      if (code === POSITION_X) x = offset[0] + v;
      else if (code === POSITION_X + 1) y = offset[1] + v;
      else if (code === POSITION_X + 2) z = offset[2] + v;
    }
    values[3 * f] = x * scale;
    values[3 * f + 1] = y * scale;
    values[3 * f + 2] = z * scale;
  }
  return values;
}

/**
 * Rotation keys: the product of one axis-angle quaternion per rotation channel, in listed order,
 * each key sign-matched to the previous one.
 */
function rotationKeys(
  data: Float64Array,
  stride: number,
  start: number,
  channels: readonly number[],
  frameCount: number,
): Float64Array {
  const values = new Float64Array(4 * frameCount);
  // q at 0, the current channel's factor at 4.
  const scratch = new Float64Array(8);
  const cs = new Float64Array(2);
  for (let f = 0; f < frameCount; f++) {
    const row = f * stride + start;
    identity(scratch, 0);
    for (let c = 0; c < channels.length; c++) {
      const axis = channels[c] - ROTATION_X;
      if (axis < 0) continue;
      // Degrees to radians as three.js writes it; the cosine and sine by tendon's own arithmetic,
      // so that an imported clip has the same bits on every engine (Math.sin and Math.cos differ
      // between engines in the last bit).
      const half = (data[row + c] * Math.PI) / 180 / 2;
      cosSinInto(half, cs, 0);
      const s = cs[1];
      scratch[4] = axis === 0 ? s : 0;
      scratch[5] = axis === 1 ? s : 0;
      scratch[6] = axis === 2 ? s : 0;
      scratch[7] = cs[0];
      multiply(scratch, 0, scratch, 0, scratch, 4);
    }
    const o = 4 * f;
    const sign = f > 0 && dot(scratch, 0, values, o - 4) < 0 ? -1 : 1;
    for (let k = 0; k < 4; k++) values[o + k] = sign * scratch[k];
  }
  return values;
}
