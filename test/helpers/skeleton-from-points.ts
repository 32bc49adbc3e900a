/**
 * A skeleton built from its joints' rest positions in model space (identity rest rotations), as a
 * test writes a character of another tool by hand.
 */
import { Skeleton } from '../../src/skeleton/skeleton.js';

/** One joint: its name, its parent's index (−1 for a root) and its rest position in model space. */
export interface PointJoint {
  readonly name: string;
  readonly parent: number;
  readonly at: readonly number[];
}

/** The skeleton whose joints stand at `joints[j].at` in its rest pose, each parent before its children. */
export function skeletonFromPoints(joints: readonly PointJoint[]): Skeleton {
  const translations: number[] = [];
  for (const j of joints) {
    const p = j.parent >= 0 ? joints[j.parent].at : [0, 0, 0];
    translations.push(j.at[0] - p[0], j.at[1] - p[1], j.at[2] - p[2]);
  }
  return Skeleton.create({
    names: joints.map((j) => j.name),
    parents: joints.map((j) => j.parent),
    restTranslations: translations,
  });
}
