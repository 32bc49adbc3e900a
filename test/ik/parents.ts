/**
 * The parent transforms every IK property also runs under (the chain hangs below a joint with this
 * local transform): rotated, translated, scaled by 0.01 and 100, non-uniformly scaled, mirrored.
 * A mirror is a negative scale on one axis.
 */
export interface ParentCase {
  readonly name: string;
  readonly translation: readonly [number, number, number];
  readonly rotation: readonly [number, number, number, number];
  readonly scale: readonly [number, number, number];
}

const s = Math.SQRT1_2;

export const PARENT_CASES: readonly ParentCase[] = [
  { name: 'identity', translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] },
  {
    name: 'rotated',
    translation: [0, 0, 0],
    rotation: [0.3, -0.5, 0.1, 0.806225774829855],
    scale: [1, 1, 1],
  },
  { name: 'translated', translation: [3, -7, 11], rotation: [0, 0, 0, 1], scale: [1, 1, 1] },
  { name: 'scaled 0.01', translation: [0.5, 1, 0], rotation: [0, s, 0, s], scale: [0.01, 0.01, 0.01] },
  { name: 'scaled 100', translation: [0, 2, 0], rotation: [s, 0, 0, s], scale: [100, 100, 100] },
  { name: 'non-uniform', translation: [1, 0, -1], rotation: [0, 0, 0.6, 0.8], scale: [1, 3, 0.5] },
  { name: 'mirrored', translation: [0, 1, 0], rotation: [0, 0, 0, 1], scale: [-1, 1, 1] },
];
