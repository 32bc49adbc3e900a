import { mkdtempSync, writeFileSync } from 'node:fs';
import { request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, typed by use
import { serve } from '../../scripts/demo.mjs';

/** The status of a GET of `target` sent as written (no client normalizes it). */
function status(base: string, target: string): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const r = request({ hostname, port, path: target, method: 'GET' }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    r.on('error', reject);
    r.end();
  });
}

describe('the demo server (npm start)', () => {
  let server: Server;
  let url = '';
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tendon-serve-'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html>');
    ({ server, url } = await serve(dir));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  // "//" made `new URL` throw inside the request handler, which stopped the server.
  it('answers a path that is no URL with 400 and goes on serving', async () => {
    expect(await status(url, '//')).toBe(400);
    expect(await status(url, '/')).toBe(200);
    expect(await status(url, '/index.html')).toBe(200);
  }, 10_000);

  it('serves nothing outside its directory, and 404 for what is not there', async () => {
    expect([403, 404]).toContain(await status(url, '/../package.json'));
    expect(await status(url, '/%2e%2e/%2e%2e/etc/passwd')).not.toBe(200);
    expect(await status(url, '/nope.html')).toBe(404);
  });
});
