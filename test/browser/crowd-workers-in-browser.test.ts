/**
 * CrowdWorkers in a real browser: tendon bundled for the web (esbuild), the page and its module
 * Web Workers served from loopback, run in Debian's Chromium through playwright-core. Served
 * cross-origin isolated (COOP same-origin, COEP require-corp), 2 workers give the page thread's
 * bits and a NaN time rejects a frame on the page thread (animation/invalid-time) before any worker runs; served without those headers,
 * `crossOriginIsolated` is false, `shared: true` throws crowd/no-shared-memory and the pool falls
 * back to the calling thread, with the same bits and the reason.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from './chromium.js';
import type { CrowdWorkersResult } from './crowd-workers-page.js';

let server: Server;
let origin = '';

beforeAll(async () => {
  if (!hasChromium) return;
  const bundle = async (file: string) =>
    (
      await build({
        entryPoints: [fileURLToPath(new URL(file, import.meta.url))],
        bundle: true,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        external: ['node:*'],
        write: false,
      })
    ).outputFiles[0].contents;
  const files: Record<string, [string, Uint8Array | string]> = {
    '/': [
      'text/html',
      '<!doctype html><meta charset="utf-8"><script type="module" src="./page.js"></script>',
    ],
    '/page.js': ['text/javascript', await bundle('./crowd-workers-page.ts')],
    '/worker.js': ['text/javascript', await bundle('./crowd-worker.ts')],
  };
  const isolation = {
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-embedder-policy': 'require-corp',
  };
  server = createServer((request, response) => {
    const match = /^\/(isolated|plain)(\/.*)$/.exec(request.url ?? '');
    const file = match === null ? undefined : files[match[2]];
    if (match === null || file === undefined) {
      response.writeHead(404).end();
      return;
    }
    response
      .writeHead(200, { 'content-type': file[0], ...(match[1] === 'isolated' ? isolation : {}) })
      .end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
});

async function open(path: string): Promise<CrowdWorkersResult> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${origin}${path}`);
    await page.waitForFunction(
      () => (window as { tendonResult?: unknown }).tendonResult !== undefined,
      null,
      {
        timeout: 20_000,
      },
    );
    const result = (await page.evaluate(() => (window as { tendonResult?: unknown }).tendonResult)) as
      | CrowdWorkersResult
      | { error: string };
    expect(problems).toEqual([]);
    expect('error' in result ? result.error : '').toBe('');
    return result as CrowdWorkersResult;
  } finally {
    await browser.close();
  }
}

describe.skipIf(!hasChromium)('CrowdWorkers in Chromium', () => {
  it('cross-origin isolated: 2 Web Workers give the page thread’s bits; a NaN time rejects the frame', async () => {
    const result = await open('/isolated/');
    expect(result.available).toBe(true);
    expect(result.sharedError).toBe('');
    expect(result.parallel).toBe(true);
    expect(result.workerCount).toBe(2);
    expect(result.same).toBe(true);
    expect(result.invalid).toBe(1);
    expect(result.failure).toMatch(/^animation\/invalid-time: Crowd.sample/);
  }, 40_000);

  it('not isolated: crowd/no-shared-memory, and the calling-thread fallback with the same bits', async () => {
    const result = await open('/plain/');
    expect(result.available).toBe(false);
    expect(result.reason).toContain('cross-origin isolated');
    expect(result.sharedError).toBe('crowd/no-shared-memory');
    expect(result.parallel).toBe(false);
    expect(result.workerCount).toBe(0);
    expect(result.same).toBe(true);
    expect(result.invalid).toBe(1);
    // On the calling thread the step's own error is thrown.
    expect(result.failure).toMatch(/^animation\/invalid-time/);
  }, 40_000);
});
