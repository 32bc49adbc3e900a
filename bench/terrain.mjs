/**
 * The benches' terrain: bumps 10 cm high, 2 m apart (a table of sines: no Math.sin in what reaches
 * a pose), 10 m across x (−5 … 5) and 40 m along z (−20 … 20), the direction the robots walk, as a
 * heightfield and as the same surface in triangles (a MeshGround, its bounding volume hierarchy
 * answering the rays). A robot walking z from −18 to 18 and starting over never leaves it.
 */
import { HeightfieldGround, MeshGround } from '../dist/index.js';

/** The terrain's extent along z: walkers wrap from `−WALK_Z` to `WALK_Z`, a foot's length inside. */
export const WALK_Z = 18;

/** `{ heightfield, mesh }`: the same bumps, both grounds. */
export function bumps() {
  const columns = 41;
  const rows = 161;
  const cell = 0.25;
  const originX = -5;
  const originZ = -20;
  const table = [0, 0.0707, 0.1, 0.0707, 0, -0.0707, -0.1, -0.0707];
  const heights = new Float64Array(columns * rows);
  for (let j = 0; j < rows; j++)
    for (let i = 0; i < columns; i++)
      heights[j * columns + i] = table[j % 8] * 0.5 + table[(i + j) % 8] * 0.5;
  const positions = [];
  const indices = [];
  for (let j = 0; j < rows; j++)
    for (let i = 0; i < columns; i++)
      positions.push(originX + i * cell, heights[j * columns + i], originZ + j * cell);
  for (let j = 0; j + 1 < rows; j++) {
    for (let i = 0; i + 1 < columns; i++) {
      const a = j * columns + i;
      indices.push(a, a + columns, a + 1, a + 1, a + columns, a + columns + 1);
    }
  }
  return {
    heightfield: new HeightfieldGround({ originX, originZ, cellSize: cell, columns, rows, heights }),
    mesh: new MeshGround(positions, indices),
  };
}
