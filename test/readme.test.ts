/**
 * Runs every ```js block of the README against the sources, so the documentation cannot drift
 * from the code; a few blocks also have their printed results checked.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
// The README and the docs pages (docs/three.md's blocks need a three.js scene: test/three/docs.test.ts
// runs those).
const pages = [
  'README.md',
  ...readdirSync(`${root}docs`)
    .filter((f) => f.endsWith('.md') && f !== 'three.md')
    .map((f) => `docs/${f}`),
];
// Blocks that use tendon/three need a three.js scene: test/three/docs.test.ts runs them.
const blocks = pages.flatMap((page) =>
  [...readFileSync(`${root}${page}`, 'utf8').matchAll(/```js\n([\s\S]*?)```/g)]
    .map((m) => m[1])
    .filter((code) => !code.includes("from 'tendon/three'")),
);
const dir = `${root}test/.readme/`;
mkdirSync(dir, { recursive: true });

async function run(index: number): Promise<unknown[][]> {
  // docs/crowds.md's workers run the TypeScript sources too: their script loads them through tsx.
  const code = blocks[index]
    .replaceAll("from 'tendon/kernel'", `from '${root}src/kernel/index.ts'`)
    .replaceAll("from 'tendon/node'", `from '${root}src/crowd/node.ts'`)
    .replaceAll(
      'nodeCrowdWorker()',
      `nodeCrowdWorker({ url: new URL('${pathToFileURL(`${root}test/crowd/ts-worker.mjs`)}') })`,
    )
    .replaceAll("from 'tendon'", `from '${root}src/index.ts'`);
  const file = `${dir}block-${index}.ts`;
  writeFileSync(file, code);
  const logs: unknown[][] = [];
  // Typed arrays are copied as they are logged: the block may change them afterwards.
  const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    logs.push(args.map((a) => (ArrayBuffer.isView(a) ? (a as Float64Array).slice() : a)));
  });
  try {
    await import(/* @vite-ignore */ `${file}?t=${Date.now()}`);
  } finally {
    spy.mockRestore();
  }
  return logs;
}

afterEach(() => vi.restoreAllMocks());

describe('README', () => {
  it('has code blocks for the API', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(10);
  });

  it.each(blocks.map((block, i) => [i, block.split('\n')[0]] as const))('block %i runs (%s)', async (i) => {
    const logs = await run(i);
    expect(logs.length).toBeGreaterThan(0);
    const text = JSON.stringify(logs, (_, v) => (ArrayBuffer.isView(v) ? [...(v as Float64Array)] : v));
    const block = blocks[i];
    if (block.includes("console.log('ankle'")) {
      const ankle = logs[0][1] as Float64Array;
      expect(ankle[0]).toBeCloseTo(0, 12);
      expect(ankle[1]).toBeCloseTo(0.55, 12);
      expect(ankle[2]).toBeCloseTo(-0.42, 12);
    }
    if (block.includes('skinMesh(')) {
      const out = logs[0][0] as Float32Array;
      expect(out[0]).toBeCloseTo((2 * 0.57) / 1.07, 5);
      expect(out[1]).toBeCloseTo(0.57 / 1.07, 5);
    }
    if (block.includes("console.log('invalid legs'")) {
      // docs/crowds.md: no invalid leg; character 42's ankle on its target.
      expect(logs[0][1]).toBe(0);
      const [ankle, target] = [logs[1][1], logs[1][3]] as Float64Array[];
      for (let k = 0; k < 3; k++) expect(ankle[k]).toBeCloseTo(target[k], 12);
      expect(logs[2][1]).toBe(true);
      expect(logs[2][3] as number).toBeLessThan(1e-9);
    }
    if (block.includes("console.log('head rows'")) {
      // docs/crowds.md: character 250, half-way through its nod, the spine (at y = 1.5) turned by
      // the key (0.1, 0, 0, √0.99) about x: cos = 1 − 2·0.1², sin = 2·0.1·√0.99. The head's 3×4
      // rows: [1 0 0 0], [0 c −s ty], [0 s c tz], the turn about the spine (p − R p).
      const rows = logs[0][1] as Float32Array;
      const c = 1 - 2 * 0.01;
      const sn = 2 * 0.1 * Math.sqrt(0.99);
      const want = [1, 0, 0, 0, 0, c, -sn, 1.5 - 1.5 * c, 0, sn, c, -1.5 * sn];
      for (let k = 0; k < 12; k++) expect(rows[k]).toBeCloseTo(want[k], 6);
    }
    if (block.includes('crowd.poseOf(')) {
      // docs/crowds.md: an AimIk per character on the crowd's own arrays.
      expect(logs[0]).toEqual(['reached', true, 'head turned', true]);
    }
    if (block.includes('new CrowdPlacement(') && !block.includes('new CrowdSchedule(')) {
      // docs/crowds.md: fifty robots placed on a slope, the pose changed from the animation's.
      expect(logs[0]).toEqual(['placed', true, 'ground under its left foot', true]);
      expect(Number(logs[1][1])).toBeGreaterThan(0.005);
    }
    if (block.includes('new CrowdSchedule(')) {
      // docs/crowds.md: every robot at the first plan, then the 16 near ones and one block of 16
      // of the 64 far ones (four blocks taking turns) every frame.
      expect(logs[0]).toEqual(['characters updated each frame', '80 32 32 32 32 32 32 32']);
    }
    if (block.includes('CrowdWorkers.start(')) {
      // docs/crowds.md: shared memory in Node; two workers, the single-threaded bits.
      expect(logs[0].slice(0, 2)).toEqual(['shared memory', true]);
      expect(logs[1]).toEqual(['parallel', true, 'workers', 2, 'same bits', true]);
    }
    if (block.includes('wrapTime(2.25')) expect(logs[1][0]).toBe(0.25);
    if (block.includes('cut.glb')) expect(text).toMatch(/cut\.glb.*truncated/);
    if (block.includes("'skeleton/cycle'")) expect(text).toMatch(/cycle/);
    if (block.includes('tiny.bvh')) expect(text).toMatch(/Spine_End/);
    if (block.includes('arm.solve(')) {
      expect(logs[0][1]).toBe(true);
      expect(logs[0][2] as number).toBeLessThan(1e-7);
    }
    if (block.includes('reach.solve(')) {
      expect(logs[0][0]).toBe(true);
      expect(logs[0][1] as number).toBeGreaterThan(1);
      expect(logs[0][2] as number).toBeLessThanOrEqual(1e-4);
    }
    if (block.includes('spine.solve(')) {
      expect(logs[0][0]).toBe(true);
      expect(logs[0][2] as number).toBeLessThanOrEqual(1e-4);
    }
    if (block.includes('new FootPlacement(') && block.includes('new ProfileGround(')) {
      expect(Number(logs[0][1])).toBeGreaterThan(2.5); // walked past the steps
      expect(logs[0][3]).toBe('0.30'); // and stands on the top one
    }
    if (block.includes('new FootPlacement(') && block.includes('new LookAt(')) {
      // docs/placement.md: both feet found ground in every frame placed (switched off over 0.25 s
      // at frame 90, and the legs eased back, about 100), the hips lowered for the ridges, and
      // switched off the placement passes the animation through.
      expect(logs[0][1]).toBeGreaterThan(100);
      expect(logs[0][1]).toBeLessThan(130);
      expect(Number(logs[0][3])).toBeLessThan(-0.05);
      expect(logs[1][1]).toBe(0);
      expect(logs[1][3]).toBe(0);
    }
    if (block.includes('skinVertices(skinned')) {
      expect([...(logs[0][0] as Float64Array)]).toEqual([1.5, 0, 0]);
      expect(logs[0][1]).toBe(0);
      const t = [...(logs[1][0] as Float64Array)];
      expect(t[0]).toBeCloseTo(3.5, 12);
      expect(t[1]).toBeCloseTo(0.5, 12);
      expect([...(logs[1][1] as Float32Array)]).toEqual([1, 1, 0]);
    }
  });
});
