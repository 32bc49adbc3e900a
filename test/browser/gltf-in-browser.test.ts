/**
 * glTF import in a real browser: tendon bundled for the web (esbuild), served from loopback,
 * run in Debian's Chromium through playwright-core. The matrices must equal Node's bit for bit:
 * the kernels use only + − × ÷ and √, which every engine rounds alike.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import { importGltf } from '../../src/io/gltf.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { assetsDir } from '../helpers/assets.js';
import { hasChromium, launchChromium } from './chromium.js';
import type { BrowserResult } from './page.js';

let server: Server;
let origin = '';

beforeAll(async () => {
  if (!hasChromium) return;
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('./page.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // @gltf-transform/core's NodeIO imports node:fs lazily; it never runs in a browser, and
    // bundlers must be told to leave it out (see the README's browser notes).
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

describe.skipIf(!hasChromium)('in Chromium', () => {
  it('imports, samples and poses RobotExpressive exactly as Node does', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${origin}/`);
      await page.waitForFunction(() => (window as { tendonResult?: unknown }).tendonResult !== undefined);
      const result = (await page.evaluate(() => (window as { tendonResult?: unknown }).tendonResult)) as
        | BrowserResult
        | { error: string };
      expect(problems).toEqual([]);
      expect('error' in result ? result.error : '').toBe('');
      const ok = result as BrowserResult;
      expect(ok.clip).toBe('Walking');
      expect(ok.truncatedError).toBe('gltf/parse');

      const imported = await importGltf(readFileSync(`${assetsDir}gltf/RobotExpressive.glb`));
      const { skeleton, clips } = imported.skeletons[0];
      expect(ok.joints).toBe(skeleton.jointCount);
      const clip = clips.find((c) => c.name === 'Walking')!;
      const pose = new Pose(skeleton);
      const model = createModelBuffer(skeleton);
      const context = new SamplerContext(clip);
      const expected: number[] = [];
      for (const t of [0, 0.1, 0.37, 0.8]) {
        sampleClip(clip, context, t, pose);
        forwardKinematics(pose, model);
        expected.push(...model);
      }
      expect(ok.matrices).toEqual(expected);
    } finally {
      await browser.close();
    }
  });
});
