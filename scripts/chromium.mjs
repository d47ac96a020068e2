// Headless Chromium for the scripts and benches that open the HTML report (render-report-png,
// bench/html): playwright-core driving the system's Chromium (/usr/bin/chromium, or CHROMIUM=path),
// a fresh profile each launch, and pages that load nothing but file: and data: URLs.
// (The browser tests have their own, typed copy: test/helpers/browser.ts, which also records
// what a page tried to load.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';

/**
 * Launches Chromium with `contextOptions` (viewport, deviceScaleFactor…). `newPage()` opens a tab
 * whose requests to anything but file: and data: are aborted; `close()` also deletes the profile.
 */
export async function launchChromium(contextOptions = {}) {
  const profile = mkdtempSync(path.join(tmpdir(), 'tracejury-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-sync',
    ],
    ...contextOptions,
  });
  return {
    async newPage() {
      const page = await context.newPage();
      await page.route('**/*', (route) =>
        /^(file|data):/.test(route.request().url()) ? route.continue() : route.abort(),
      );
      return page;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
