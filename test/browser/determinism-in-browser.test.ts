/**
 * The cross-engine determinism runs in Chromium too: the IK workload (every solver, options in
 * radians) and the placement workload (feet on a heightfield and a mesh, look-at, ladder, bar) give
 * the same bits in Chromium as in Node.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { run as runIk } from '../ik/determinism-driver.js';
import { run as runPlacement } from '../placement/determinism-driver.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env.CI) {
  throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium for the browser tests`);
}

async function bundle(driver: string): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(driver, import.meta.url))],
    bundle: true,
    format: 'iife',
    globalName: 'driver',
    platform: 'neutral',
    target: 'es2020',
    write: false,
  });
  return result.outputFiles[0].text;
}

describe.skipIf(!hasChromium)('determinism in Chromium', () => {
  it('gives the bits Node gives, for the IK and the placement workloads', async () => {
    const ik = await bundle('../ik/determinism-driver.ts');
    const placement = await bundle('../placement/determinism-driver.ts');
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
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
