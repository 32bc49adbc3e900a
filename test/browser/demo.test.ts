import type { Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, typed by use
import { buildDemo, serve } from '../../scripts/demo.mjs';
import { canvasVariance } from './canvas.js';
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
  airborne: boolean;
  jumps: number;
  landings: number;
  jumpHeight: number;
  footLift: number;
  ikStepDeg: number;
  ikStepAt: string;
  pelvisStep: number;
  pelvisStepAt: string;
  bar: { x0: number; x1: number; y: number };
  handBar: { max: number; samples: number };
  hangMoved: number;
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

/**
 * Waits until `test`, an expression over the demo's stats `s`, holds in the page. The page sets
 * `window.tendonDemo` once its assets are in, which may be after `goto` returns (a loaded CI
 * machine): until then the test does not hold, rather than throwing.
 */
const until = async (page: Page, test: string): Promise<void> => {
  try {
    await page.waitForFunction(
      `(d => d !== undefined && (s => ${test})(d.stats()))(window.tendonDemo)`,
      null,
      { timeout: 60_000 },
    );
  } catch (error) {
    throw new Error(`waiting for ${test}; stats ${JSON.stringify(await stats(page))}`, { cause: error });
  }
};

/** Runs `call` on the page's window.tendonDemo, e.g. `teleport(-8)`. */
const demo = (page: Page, call: string) => page.evaluate(`window.tendonDemo.${call}`);

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
      const variance = await canvasVariance(page);
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

  it('jumps (feet off the ground and back, IK eased out and in) and hangs from the bar, moving along it', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 960, height: 540 } });
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(url);
      await until(page, 's.ready');

      // A standing jump on the flat ground, then one walking.
      await demo(page, 'teleport(-8)');
      await page.waitForTimeout(500);
      await demo(page, 'resetStats()');
      await page.keyboard.press('Space');
      await until(page, 's.landings >= 1 && s.state === "walk"');
      await page.waitForTimeout(600);
      const jumped = await stats(page);
      await page.keyboard.down('KeyD');
      await page.waitForTimeout(600);
      await page.keyboard.press('Space');
      await until(page, 's.landings >= 2 && s.state === "walk"');
      await page.waitForTimeout(300);
      await page.keyboard.up('KeyD');
      const walkJumped = await stats(page);
      console.info(
        `demo jump: root up ${(100 * jumped.jumpHeight).toFixed(1)} cm, lower foot ${(100 * jumped.footLift).toFixed(1)} cm off the ground; IK step ≤ ${jumped.ikStepDeg.toFixed(2)}° per 1/60 s standing (${jumped.ikStepAt}), ${walkJumped.ikStepDeg.toFixed(2)}° walking (${walkJumped.ikStepAt}); pelvis ≤ ${(100 * jumped.pelvisStep).toFixed(1)} cm per 1/60 s standing (${jumped.pelvisStepAt}), ${(100 * walkJumped.pelvisStep).toFixed(1)} walking (${walkJumped.pelvisStepAt})`,
      );
      expect(jumped.jumps).toBe(1);
      expect(jumped.jumpHeight).toBeGreaterThan(0.5);
      expect(jumped.footLift).toBeGreaterThan(0.4);
      expect(jumped.ikStepDeg).toBeLessThanOrEqual(10);
      expect(walkJumped.jumps).toBe(2);
      expect(walkJumped.ikStepDeg).toBeLessThanOrEqual(10);
      // The take-off's push moves the pelvis ~12 cm per 1/60 s; a pop (the clip's 80 cm rise left
      // in) would be several times that.
      expect(walkJumped.pelvisStep).toBeLessThanOrEqual(0.2);

      // Under the bar, W: up to it, then along it to the left, then drop.
      const bar = walkJumped.bar;
      await demo(page, 'teleport(20)');
      await page.waitForTimeout(300);
      await demo(page, 'resetStats()');
      await page.keyboard.down('KeyW');
      await until(page, 's.state === "hang"');
      await page.keyboard.up('KeyW');
      await page.waitForTimeout(500);
      await page.keyboard.down('KeyA');
      await until(page, 's.hangMoved > 0.9');
      await page.keyboard.up('KeyA');
      await page.waitForTimeout(500);
      const hung = await stats(page);
      await page.screenshot({ path: 'docs/images/demo-bar.png' });
      await page.keyboard.press('KeyS');
      await until(page, 's.state === "walk" && s.landings >= 1');
      const dropped = await stats(page);
      console.info(
        `demo bar at ${bar.y.toFixed(2)} m: hands ${hung.handBar.max.toExponential(1)} m max from its axis over ${hung.handBar.samples} samples, moved ${hung.hangMoved.toFixed(2)} m; IK step ≤ ${hung.ikStepDeg.toFixed(2)}° per 1/60 s hanging (${hung.ikStepAt}), ${dropped.ikStepDeg.toFixed(2)}° with the drop (${dropped.ikStepAt}); pelvis ≤ ${(100 * dropped.pelvisStep).toFixed(1)} cm per 1/60 s (${dropped.pelvisStepAt})`,
      );
      expect(hung.handBar.samples).toBeGreaterThan(20);
      expect(hung.handBar.max).toBeLessThanOrEqual(0.01);
      expect(hung.x).toBeLessThan(20 - 0.6); // moved left
      expect(dropped.y).toBeGreaterThan(3); // on the cliff, under the bar
      expect(dropped.ikStepDeg).toBeLessThanOrEqual(20);
      expect(dropped.pelvisStep).toBeLessThanOrEqual(0.2); // nor at the grab and the drop
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 180_000);
});
