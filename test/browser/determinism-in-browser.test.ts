import { describe, expect, it } from 'vitest';
import { bundleDriver } from '../helpers/engines.js';
import { run as runIk } from '../ik/determinism-driver.js';
import { run as runPlacement } from '../placement/determinism-driver.js';
import { hasChromium, launchChromium } from './chromium.js';

describe.skipIf(!hasChromium)('determinism in Chromium', () => {
  it('gives the bits Node gives, for the IK and the placement workloads', async () => {
    const ik = await bundleDriver(new URL('../ik/determinism-driver.ts', import.meta.url));
    const placement = await bundleDriver(new URL('../placement/determinism-driver.ts', import.meta.url));
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const inChromium = (await page.evaluate(
        ([a, b]) => [
          new Function(`${a}; return driver.run(300);`)(),
          new Function(`${b}; return driver.run(60);`)(),
        ],
        [ik, placement],
      )) as [string, string];
      const inNode = [runIk(300), runPlacement(60)];
      expect(inChromium[0].length).toBe(inNode[0].length);
      expect(inChromium[0] === inNode[0]).toBe(true);
      expect(inChromium[1].length).toBe(inNode[1].length);
      expect(inChromium[1] === inNode[1]).toBe(true);
    } finally {
      await browser.close();
    }
  });
});
