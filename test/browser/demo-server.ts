/**
 * The demo built, served on localhost and a Chromium launched for a test file's pages: the hooks
 * (before all its tests, after all of them) and getters for the URL and the browser once started.
 */
import type { Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
// @ts-expect-error: a plain .mjs script, typed by use
import { buildDemo, serve } from '../../scripts/demo.mjs';
import { hasChromium, launchChromium } from './chromium.js';

export function demoInChromium(): { url(): string; browser(): Browser } {
  let server: Server | undefined;
  let url = '';
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (!hasChromium) return;
    const dir = await buildDemo();
    ({ server, url } = await serve(dir));
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    if (server) await new Promise((resolve) => server?.close(resolve));
  });
  return { url: () => url, browser: () => browser as Browser };
}
