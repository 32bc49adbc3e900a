/**
 * The argument checks every crowd-wide call shares (`Crowd`'s steps, `TwoBoneBatch.solve`,
 * `AimBatch.solve`): a range of characters, and buffers of a crowd's size.
 *
 * @packageDocumentation
 */
import { checkFloatArrayArg, checkInstanceArg } from '../arguments.js';
import { TendonError, type TendonErrorCode } from '../errors.js';
import { PALETTE_3X4, PALETTE_MAT4 } from '../kernel/skin-palette.js';
import type { Skeleton } from '../skeleton/skeleton.js';
import { Skin } from '../skin/skin.js';

/**
 * Throws unless `first … first + count − 1` are characters of a crowd of `characters`.
 *
 * @throws {@link TendonError} `argument/invalid`, naming `who` (the call).
 */
export function checkCharacterRange(first: number, count: number, characters: number, who: string): void {
  if (
    !(
      Number.isInteger(first) &&
      Number.isInteger(count) &&
      first >= 0 &&
      count >= 0 &&
      first + count <= characters
    )
  ) {
    // Said as given where they are not numbers: '2' + 1 - 1 read as characters 2 … 20.
    const given =
      typeof first === 'number' && typeof count === 'number'
        ? `characters ${first} … ${first + count - 1} are not in`
        : `first ${describe(first)} and count ${describe(count)} are not whole numbers of characters in`;
    throw new TendonError('argument/invalid', `${who}: ${given} 0 … ${characters - 1}`);
  }
}

/**
 * Throws unless the local transforms and model matrices hold `characters` poses of `joints`
 * joints each.
 *
 * @throws {@link TendonError} `argument/invalid` for a `pose` that is not an object,
 *   `pose/buffer-size` for one without those buffers, naming `who` (the call).
 */
export function checkCrowdPose(
  pose: {
    readonly translations: Float64Array;
    readonly rotations: Float64Array;
    readonly scales: Float64Array;
    readonly model: Float64Array;
  },
  characters: number,
  joints: number,
  who: string,
): void {
  // A typeof check and optional reads, not a helper's descriptions: every solve runs this.
  if (pose === null || typeof pose !== 'object') {
    throw new TendonError('argument/invalid', `${who}: the pose is ${String(pose)}, not a crowd's buffers`);
  }
  const n = characters * joints;
  if (
    pose.translations?.length !== 3 * n ||
    pose.rotations?.length !== 4 * n ||
    pose.scales?.length !== 3 * n ||
    pose.model?.length !== 16 * n
  ) {
    throw new TendonError(
      'pose/buffer-size',
      `${who}: the buffers must hold ${characters} poses of ${joints} joints`,
    );
  }
}

/**
 * Throws unless `skin`, `out` and `layout` make the palettes of a crowd of `count` characters of
 * `skeleton`: what `Crowd.skinPalettes` needs, checked by `CrowdWorkers.start` too, so that a bad
 * palette is refused before any frame (not by the frame's last step, after the others wrote).
 * Checks by `instanceof` and comparisons only: `Crowd.skinPalettes` runs it every frame.
 *
 * @returns the numbers per palette entry (16 for `'mat4'`, 12 for `'3x4'`).
 * @throws {@link TendonError} `argument/invalid` for a skin that is not a `Skin`, an `out` that is
 *   not a Float32Array or a Float64Array or an unknown layout; `mismatch` for a skin of another
 *   skeleton; `pose/buffer-size` when `out` does not hold the crowd's palettes. Naming `who`.
 */
export function checkPaletteArgs(
  skeleton: Skeleton,
  count: number,
  skin: unknown,
  out: unknown,
  layout: unknown,
  who: string,
  mismatch: TendonErrorCode = 'pose/skeleton-mismatch',
): number {
  checkInstanceArg(skin, Skin, who, 'the skin');
  if (skin.skeleton !== skeleton) {
    throw new TendonError(mismatch, `${who}: the skin is of another skeleton`);
  }
  if (layout !== 'mat4' && layout !== '3x4') {
    throw new TendonError('argument/invalid', `${who}: layout "${String(layout)}" is not 'mat4' or '3x4'`);
  }
  checkFloatArrayArg(out, who, 'out');
  const stride = layout === 'mat4' ? PALETTE_MAT4 : PALETTE_3X4;
  const size = stride * skin.joints.length * count;
  if (out.length !== size) {
    throw new TendonError(
      'pose/buffer-size',
      `${who}: out holds ${out.length} numbers, the crowd's ${layout} palettes ${size}`,
    );
  }
  return stride;
}

/** A value as an error message names it: strings quoted. */
function describe(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}
