/**
 * Headless Chromium for the HTML report's browser tests: playwright-core (from npm) driving the
 * system's Chromium (`/usr/bin/chromium`, Debian's package; never a downloaded browser), a fresh
 * profile each launch, and every request that is not file: or data: recorded as a failure (the
 * page must load nothing). Where Chromium is missing the suites skip with a message; in CI
 * (CI=true) they fail instead, as CI installs it (.ci/run).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { describe, it } from 'vitest';

export const CHROMIUM = process.env.TRACEJURY_CHROMIUM ?? '/usr/bin/chromium';

const ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-gpu',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/** A describe block that needs Chromium: skipped without it locally, failing without it in CI. */
export function describeInBrowser(name: string, body: () => void): void {
  if (existsSync(CHROMIUM)) {
    describe(name, body);
    return;
  }
  if (process.env.CI) {
    describe(name, () => {
      it('has Chromium to run in', () => {
        throw new Error(`${CHROMIUM} is missing: CI installs it (.ci/run: apt-get install -y chromium)`);
      });
    });
    return;
  }
  describe.skip(
    `${name} — skipped: ${CHROMIUM} is missing (apt-get install chromium, or set TRACEJURY_CHROMIUM)`,
    body,
  );
}

export interface Browser {
  /** Opens a file at `hash`, waits for the viewer's ready mark, and records what it must not do. */
  open(file: string, hash?: string): Promise<OpenedPage>;
  close(): Promise<void>;
}

export interface OpenedPage {
  page: Page;
  /** Requests to anything but file: and data: URLs (each is aborted). */
  network: string[];
  /** Uncaught errors, console errors and Content-Security-Policy violations. */
  problems: string[];
}

export async function launchBrowser(): Promise<Browser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'tracejury-chromium-'));
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 900 },
  });
  return {
    async open(file, hash = '') {
      const page = await context.newPage();
      const network: string[] = [];
      const problems: string[] = [];
      await page.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
        network.push(url);
        return route.abort();
      });
      page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
      });
      // Evaluated by the browser before the page's own script, outside the page's CSP.
      // (A string, not a function: this program is typed without the DOM library.)
      await page.addInitScript({
        content: `document.addEventListener('securitypolicyviolation', (e) => {
          (window.__cspViolations ??= []).push(e.violatedDirective + ' ' + e.blockedURI);
        });`,
      });
      await page.goto(`${pathToFileURL(file).href}${hash}`);
      await page.waitForSelector('body[data-ready="true"]');
      return { page, network, problems };
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The CSP violations the page reported (recorded by the init script). */
export async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (globalThis as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);
}
