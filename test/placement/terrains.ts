/**
 * The procedural terrains placement is measured on, laid along a character's path: flat; a 20°
 * slope up and down; 15 cm steps up and down; 10 cm sine bumps. Metres, +Y up.
 */
import type { Ground } from '../../src/placement/ground.js';
import { HeightfieldGround } from '../../src/placement/heightfield-ground.js';
import { PlaneGround } from '../../src/placement/plane-ground.js';
import { ProfileGround } from '../../src/placement/profile-ground.js';

/** tan 20°. */
const TAN_20 = 0.36397023426620234;

/**
 * The four terrains, their features starting `start` metres along `along` (a horizontal unit
 * direction `[x, z]`) from the world origin.
 */
export function terrains(along: readonly [number, number], start: number): Record<string, Ground> {
  const slope: number[] = [
    -1e3,
    0,
    start,
    0,
    start + 1.5,
    1.5 * TAN_20,
    start + 2.5,
    1.5 * TAN_20,
    start + 4,
    0,
  ];
  const steps: number[] = [-1e3, 0];
  let s = start;
  let y = 0;
  for (const rise of [0.15, 0.15, 0.15, -0.15, -0.15, -0.15]) {
    steps.push(s, y, s, y + rise);
    y += rise;
    s += 0.6;
  }
  steps.push(s + 1e3, y);
  // Bumps: a sine of 10 cm amplitude and 1.6 m wavelength along the path, on a 5 cm grid. The
  // heights come from Math.sin here: they are the test's data, the same for every run.
  // 50 m square: 6 s of the run from the origin stays on it whichever way it goes.
  const cell = 0.05;
  const columns = 1000;
  const rows = 1000;
  const heights = new Float64Array(columns * rows);
  const x0 = -25;
  const z0 = -25;
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < columns; i++) {
      const d = (x0 + i * cell) * along[0] + (z0 + j * cell) * along[1] - start;
      heights[j * columns + i] = d > 0 ? 0.1 * Math.sin((2 * Math.PI * d) / 1.6) : 0;
    }
  }
  return {
    flat: new PlaneGround([0, 0, 0], [0, 1, 0]),
    slope: new ProfileGround(along, slope),
    steps: new ProfileGround(along, steps),
    bumps: new HeightfieldGround({ originX: x0, originZ: z0, cellSize: cell, columns, rows, heights }),
  };
}
