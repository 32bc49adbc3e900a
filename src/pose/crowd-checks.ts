/**
 * The argument checks every crowd-wide call shares (`Crowd`'s steps, `TwoBoneBatch.solve`,
 * `AimBatch.solve`): a range of characters, and buffers of a crowd's size.
 *
 * @packageDocumentation
 */
import { TendonError } from '../errors.js';

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
    throw new TendonError(
      'argument/invalid',
      `${who}: characters ${first} … ${first + count - 1} are not in 0 … ${characters - 1}`,
    );
  }
}

/**
 * Throws unless the local transforms and model matrices hold `characters` poses of `joints`
 * joints each.
 *
 * @throws {@link TendonError} `pose/buffer-size`, naming `who` (the call).
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
  const n = characters * joints;
  if (
    pose.translations.length !== 3 * n ||
    pose.rotations.length !== 4 * n ||
    pose.scales.length !== 3 * n ||
    pose.model.length !== 16 * n
  ) {
    throw new TendonError(
      'pose/buffer-size',
      `${who}: the buffers must hold ${characters} poses of ${joints} joints`,
    );
  }
}
