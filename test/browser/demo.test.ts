import type { Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, typed by use
import { buildDemo, serve } from '../../scripts/demo.mjs';
import { hasChromium, launchChromium } from './chromium.js';

interface Stats {
  ready: boolean;
  state: string;
  x: number;
  y: number;
  footError: { mean: number; max: number; samples: number };
  footErrorWithoutIk: { mean: number; max: number; samples: number };
  gripError: { max: number; samples: number };
  climbProgress: number;
}

let server: Server;
let url = '';

beforeAll(async () => {
  if (!hasChromium) return;
  const dir = await buildDemo();
  ({ server, url } = await serve(dir));
}, 120_000);

afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
});

const stats = (page: Page) =>
  page.evaluate(() => (window as unknown as { tendonDemo: { stats(): Stats } }).tendonDemo.stats());

describe.skipIf(!hasChromium)('the demo in Chromium', () => {
  it('walks the robot over uneven ground with its feet planted, and up the ladder', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 960, height: 540 } });
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(url);
      await page.waitForFunction(
        () => (window as unknown as { tendonDemo?: { stats(): Stats } }).tendonDemo?.stats().ready === true,
        null,
        { timeout: 60_000 },
      );
      // The canvas is not blank: its pixels vary.
      const variance = await page.evaluate(() => {
        const canvas = document.querySelector('canvas') as HTMLCanvasElement;
        const copy = document.createElement('canvas');
        copy.width = canvas.width;
        copy.height = canvas.height;
        const context = copy.getContext('2d') as CanvasRenderingContext2D;
        context.drawImage(canvas, 0, 0);
        const data = context.getImageData(0, 0, copy.width, copy.height).data;
        let sum = 0;
        let sumSq = 0;
        for (let i = 0; i < data.length; i += 4) {
          const v = data[i] + data[i + 1] + data[i + 2];
          sum += v;
          sumSq += v * v;
        }
        const n = data.length / 4;
        return sumSq / n - (sum / n) ** 2;
      });
      expect(variance).toBeGreaterThan(100);

      // Walk right over the slope, the steps and the bumps.
      await page.evaluate(() =>
        (window as unknown as { tendonDemo: { resetStats(): void } }).tendonDemo.resetStats(),
      );
      await page.keyboard.down('KeyD');
      await page.waitForFunction(
        () => (window as unknown as { tendonDemo: { stats(): Stats } }).tendonDemo.stats().x > 13,
        null,
        { timeout: 60_000 },
      );
      await page.keyboard.up('KeyD');
      const walked = await stats(page);
      await page.screenshot({ path: 'docs/images/demo-side-scroller.png' });
      console.info(
        `demo walk: feet at contacts ${(100 * walked.footError.mean).toFixed(2)} cm mean, ${(100 * walked.footError.max).toFixed(2)} cm max over ${walked.footError.samples} samples; without IK ${(100 * walked.footErrorWithoutIk.mean).toFixed(2)} / ${(100 * walked.footErrorWithoutIk.max).toFixed(2)} cm`,
      );
      expect(walked.footError.samples).toBeGreaterThan(100);
      expect(walked.footError.max).toBeLessThanOrEqual(0.01);
      expect(walked.footErrorWithoutIk.max).toBeGreaterThan(0.05);

      // Up the ladder.
      await page.keyboard.down('KeyW');
      await page.waitForFunction(
        () => {
          const s = (window as unknown as { tendonDemo: { stats(): Stats } }).tendonDemo.stats();
          return s.state === 'climb' && s.climbProgress > 6;
        },
        null,
        { timeout: 60_000 },
      );
      await page.keyboard.up('KeyW');
      const climbed = await stats(page);
      await page.screenshot({ path: 'docs/images/demo-ladder.png' });
      expect(climbed.gripError.samples).toBeGreaterThan(50);
      expect(climbed.gripError.max).toBeLessThanOrEqual(0.01);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 180_000);
});
