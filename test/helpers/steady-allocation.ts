/**
 * Steady-state allocation of a placement step, measured in a child process: the step's driver is
 * bundled and run under `--expose-gc` with a 64 MB young generation (no scavenge inside a window,
 * and the test runner's own heap out of the count).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { assetsDir } from './assets.js';

/** Bytes a frame in each of the driver's windows after its warm-up (test/placement/alloc-driver.ts). */
export async function steadyBytesPerFrame(which: 'ladder' | 'rung'): Promise<number[]> {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('../placement/alloc-driver.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    write: false,
  });
  const dir = mkdtempSync(join(tmpdir(), 'tendon-alloc-'));
  try {
    const file = join(dir, 'driver.mjs');
    writeFileSync(file, bundle.outputFiles[0].text);
    const run = spawnSync(
      process.execPath,
      ['--expose-gc', '--min-semi-space-size=64', '--max-semi-space-size=64', file, which, assetsDir],
      { encoding: 'utf8', timeout: 120_000 },
    );
    if (run.status !== 0) throw new Error(`alloc driver: ${run.stderr}`);
    return JSON.parse(run.stdout) as number[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
