/**
 * tendon/three's Mode 2 in a real WebGL renderer (Debian's Chromium, software GL, through
 * playwright-core): the robot drawn from tendon's palette is the image three draws from its own
 * animation at the same time, and another time draws another image.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetsDir } from '../helpers/assets.js';
import { hasChromium, launchChromium } from './chromium.js';
import type { ThreeBrowserResult } from './three-page.js';

let server: Server;
let origin = '';

beforeAll(async () => {
  if (!hasChromium) return;
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('./three-page.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    external: ['node:*'],
    write: false,
  });
  const files: Record<string, [string, Uint8Array | string]> = {
    '/': ['text/html', '<!doctype html><meta charset="utf-8"><script type="module" src="/page.js"></script>'],
    '/page.js': ['text/javascript', bundle.outputFiles[0].contents],
    '/favicon.ico': ['image/x-icon', new Uint8Array(0)],
    '/assets/RobotExpressive.glb': [
      'model/gltf-binary',
      readFileSync(`${assetsDir}gltf/RobotExpressive.glb`),
    ],
  };
  server = createServer((request, response) => {
    const file = files[request.url ?? ''];
    if (file === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': file[0] }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
});

/** Pixels whose colour differs by more than `tolerance` in some channel. */
function differing(a: number[], b: number[], tolerance: number): number {
  let count = 0;
  for (let p = 0; p < a.length; p += 4) {
    for (let c = 0; c < 3; c++) {
      if (Math.abs(a[p + c] - b[p + c]) > tolerance) {
        count++;
        break;
      }
    }
  }
  return count;
}

/** Pixels that are not the black background. */
function drawn(a: number[]): number {
  let count = 0;
  for (let p = 0; p < a.length; p += 4) if (a[p] + a[p + 1] + a[p + 2] > 0) count++;
  return count;
}

describe.skipIf(!hasChromium)('tendon/three in Chromium (WebGL)', () => {
  it('Mode 2 and ThreeInstancedCrowd draw the robot as three draws it at the same time; the debug helper draws', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${origin}/`);
      await page.waitForFunction(
        () => (window as { tendonThreeResult?: unknown }).tendonThreeResult !== undefined,
        {
          timeout: 60_000,
        },
      );
      const result = (await page.evaluate(
        () => (window as { tendonThreeResult?: unknown }).tendonThreeResult,
      )) as ThreeBrowserResult | { error: string };
      expect(problems).toEqual([]);
      expect('error' in result ? result.error : '').toBe('');
      const ok = result as ThreeBrowserResult;
      const pixels = ok.size * ok.size;
      expect(ok.boneTextures).toBe(true);
      const robot = drawn(ok.three);
      expect(robot).toBeGreaterThan(0.03 * pixels);
      const same = differing(ok.three, ok.tendon, 8);
      const other = differing(ok.three, ok.later, 8);
      console.log(
        `robot covers ${robot} of ${pixels} pixels; tendon vs three: ${same} differ; 0.3 s later: ${other} differ`,
      );
      expect(same).toBeLessThanOrEqual(0.002 * pixels);
      // ThreeInstancedCrowd: one draw per mesh, the hands skinned by the patched shader from the
      // 3×4 palette texture; the image three draws.
      const instanced = differing(ok.three, ok.instanced, 8);
      console.log(`ThreeInstancedCrowd vs three: ${instanced} differ; ${ok.instancedCalls} draw calls`);
      expect(instanced).toBeLessThanOrEqual(0.002 * pixels);
      expect(other).toBeGreaterThan(0.05 * robot);
      // The debug helper's lines show (thin lines: a few hundred pixels, not a blank image).
      const lines = drawn(ok.helper);
      console.log(`IkDebugHelper: ${lines} pixels drawn`);
      expect(lines).toBeGreaterThan(100);
    } finally {
      await browser.close();
    }
  });
});
