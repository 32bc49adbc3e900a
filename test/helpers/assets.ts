/** Paths of the shared, openly licensed test assets (see ../shared/assets/LICENSES.md). */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The shared assets folder, beside the repository as on every machine and in CI. */
export const assetsDir = fileURLToPath(new URL('../../../shared/assets/', import.meta.url));

/** File names in `assets/<kind>/`. */
export function listAssets(kind: 'gltf' | 'bvh'): string[] {
  return readdirSync(`${assetsDir}${kind}`).sort();
}

/** Bytes of `assets/<kind>/<name>`. */
export function readAsset(kind: 'gltf' | 'bvh', name: string): Uint8Array {
  return new Uint8Array(readFileSync(`${assetsDir}${kind}/${name}`));
}

/**
 * Largest difference between two arrays relative to the size of what is compared: divided by
 * max(1, largest |expected| entry). The agreement measure of the oracle tests: a matrix whose
 * entries are ~100 (RobotExpressive's armature is scaled by 100) is held to the same number of
 * significant digits as one whose entries are ~1.
 */
export function maxRelativeError(actual: ArrayLike<number>, expected: ArrayLike<number>): number {
  if (actual.length !== expected.length) return Number.POSITIVE_INFINITY;
  let size = 1;
  for (let i = 0; i < expected.length; i++) size = Math.max(size, Math.abs(expected[i]));
  let worst = 0;
  for (let i = 0; i < actual.length; i++) {
    const e = Math.abs(actual[i] - expected[i]) / size;
    if (!(e <= worst)) worst = e;
  }
  return worst;
}
