import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { CrowdStats } from '../../demo/crowd.js';
import type { FootError } from '../../demo/walker.js';
import { canvasVariance } from './canvas.js';
import { hasChromium } from './chromium.js';
import { demoInChromium } from './demo-server.js';

interface Hooks {
  stats(): CrowdStats;
  resetStats(): void;
}

const demo = demoInChromium();

function stats(page: Page): Promise<CrowdStats> {
  return page.evaluate(() => (window as unknown as { tendonDemo: Hooks }).tendonDemo.stats());
}

/** Waits until `frames` more frames have been drawn. */
async function waitFrames(page: Page, frames: number): Promise<void> {
  const start = (await stats(page)).frames;
  await page.waitForFunction(
    (target) => (window as unknown as { tendonDemo: Hooks }).tendonDemo.stats().frames >= target,
    start + frames,
    { timeout: 120_000, polling: 100 },
  );
}

const cm = (e: FootError) =>
  `${(100 * e.mean).toFixed(2)} cm mean, ${(100 * e.max).toFixed(2)} cm max, ${(100 * e.within1cm).toFixed(1)}% within 1 cm over ${e.samples} samples`;

describe.skipIf(!hasChromium)('the crowd page in Chromium', () => {
  it('draws N robots walking with their feet planted, N set by the slider, and reports its ms per frame', async () => {
    const page = await demo.browser().newPage({ viewport: { width: 800, height: 450 } });
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await page.goto(`${demo.url()}crowd.html`);
      await page.waitForFunction(
        () => (window as unknown as { tendonDemo?: Hooks }).tendonDemo?.stats().ready === true,
        null,
        { timeout: 60_000 },
      );
      const first = await stats(page);
      expect(first.count).toBe(50);
      expect(await canvasVariance(page)).toBeGreaterThan(100);

      // The slider, as a user moves it: 120 robots.
      await page.fill('#count', '120');
      await page.waitForFunction(
        () => (window as unknown as { tendonDemo: Hooks }).tendonDemo.stats().count === 120,
      );
      expect(await page.textContent('#count-value')).toBe('120');
      const before = await stats(page);
      // Few frames: software WebGL skins 200 robots at about one frame a second here (the page's
      // own CPU frame is ~15 ms), so each frame waited for is a second of the suite.
      await waitFrames(page, 24);
      const after = await stats(page);
      expect(after.count).toBe(120);
      // They walk: robot 0 has moved on (m), and its pelvis with it.
      expect(after.walked - before.walked).toBeGreaterThan(0.3);
      expect(Math.abs(after.probe[0] - before.probe[0])).toBeGreaterThan(0.3);
      await page.screenshot({ path: 'docs/images/demo-crowd.png' });
      expect(await canvasVariance(page)).toBeGreaterThan(100);

      console.info(
        `demo crowd, ${after.count} robots over ${after.frames - before.frames} frames: tendon ${after.tendonMs.toFixed(2)} ms/frame ` +
          `(${((1000 * after.tendonMs) / after.count).toFixed(1)} µs a robot; sample + FK ${after.steps.pose.toFixed(2)}, ` +
          `placement ${after.steps.placement.toFixed(2)}, palettes ${after.steps.palettes.toFixed(2)} ms), ` +
          `whole frame ${after.frameMs.toFixed(1)} ms (software WebGL, ${after.drawCalls} draw calls); ` +
          `feet at contacts with IK ${cm(after.footError)}; without IK ${cm(after.footErrorWithoutIk)}`,
      );
      expect(after.tendonMs).toBeGreaterThan(0);
      expect(after.footError.samples).toBeGreaterThan(1000);
      expect(after.footError.mean).toBeLessThanOrEqual(0.01);
      expect(after.footError.within1cm).toBeGreaterThan(0.8);
      expect(after.footErrorWithoutIk.mean).toBeGreaterThan(2 * after.footError.mean);

      // The slider's end: 200 robots, the cost printed (tendon's part grows with N, the draws too).
      await page.fill('#count', '200');
      await page.waitForFunction(
        () => (window as unknown as { tendonDemo: Hooks }).tendonDemo.stats().count === 200,
      );
      const start200 = await stats(page);
      await waitFrames(page, 12);
      const most = await stats(page);
      console.info(
        `demo crowd, 200 robots over ${most.frames - start200.frames} frames: tendon ${most.tendonMs.toFixed(2)} ms/frame ` +
          `(${((1000 * most.tendonMs) / 200).toFixed(1)} µs a robot; sample + FK ${most.steps.pose.toFixed(2)}, ` +
          `placement ${most.steps.placement.toFixed(2)}, palettes ${most.steps.palettes.toFixed(2)} ms), ` +
          `whole frame ${most.frameMs.toFixed(1)} ms (${most.drawCalls} draw calls); feet at contacts ${cm(most.footError)}`,
      );
      expect(most.count).toBe(200);
      expect(most.footError.mean).toBeLessThanOrEqual(0.01);
      expect(most.schedule).toBe(false);
      expect(most.updated).toBe(200);

      // The far ones every 4th frame (a CrowdSchedule), as a user checks the box: fewer robots
      // updated a frame, the feet still on the ground.
      await page.check('#far');
      await page.waitForFunction(() => {
        const s = (window as unknown as { tendonDemo: Hooks }).tendonDemo.stats();
        return s.schedule && s.frames > 0;
      });
      const startFar = await stats(page);
      await waitFrames(page, 20);
      const far = await stats(page);
      console.info(
        `demo crowd, 200 robots, the far ones every 4th frame: ${far.updated.toFixed(0)} updated a frame, tendon ${far.tendonMs.toFixed(2)} ms/frame ` +
          `(sample + FK ${far.steps.pose.toFixed(2)}, placement ${far.steps.placement.toFixed(2)}, palettes ${far.steps.palettes.toFixed(2)} ms) over ${far.frames - startFar.frames} frames; ` +
          `feet at contacts ${cm(far.footError)}`,
      );
      expect(far.schedule).toBe(true);
      expect(far.updated).toBeGreaterThan(20);
      expect(far.updated).toBeLessThan(170);
      expect(far.footError.samples).toBeGreaterThan(1000);
      expect(far.footError.mean).toBeLessThanOrEqual(0.01);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  }, 420_000);
});
