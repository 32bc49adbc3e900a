/**
 * Debian's Chromium, as every browser test launches it (see ../shared/BROWSER.md): headless, no
 * sandbox (CI runs as root), no background networking (this machine reaches no outside host).
 * Without it the browser tests skip, except under CI, where they fail.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Where Debian installs it. */
export const CHROMIUM = '/usr/bin/chromium';

/** Whether it is installed here. */
export const hasChromium = existsSync(CHROMIUM);

if (!hasChromium && process.env.CI) {
  throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium for the browser tests`);
}

/** Launches it with the flags this machine needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
