// Renders docs/html-report.png, the picture of the HTML report in the README: the examples'
// report with a RETRY_STORM finding opened on its trace's timeline.
//   npm run build && node scripts/render-report-png.mjs
// Not run in CI: it needs Chromium (Debian: `apt-get install -y chromium`; CHROMIUM=path to use
// another binary), driven by playwright-core.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { executablePath, launchChromium } from './chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'build/cli/bin.js');
const out = path.join(root, 'docs/html-report.png');
const WIDTH = 1280;
const SCALE = 2; // device pixels per CSS pixel: sharp text when the README scales the picture down

function fail(message) {
  console.error(`render-report-png: ${message}`);
  process.exit(1);
}
if (!existsSync(cli)) fail('build/cli/bin.js is missing: run `npm run build` first');
if (!existsSync(executablePath))
  fail(`${executablePath} is missing: apt-get install -y chromium, or set CHROMIUM`);

const dir = mkdtempSync(path.join(tmpdir(), 'tracejury-report-png-'));
const html = path.join(dir, 'report.html');
const r = spawnSync(
  process.execPath,
  [cli, 'analyze', 'examples/traces', '--config', 'examples/tracejury.yml', '--out', html],
  { cwd: root, encoding: 'utf8' },
);
if (r.status !== 0) fail(`analyze exited ${r.status}: ${r.stderr}`);

// The same address the PR comment links a finding to (htmlReportAnchor), with its first step open.
const anchor = '#trace=support-002&file=examples%2Ftraces%2Fnative-support-agent.jsonl&detector=RETRY_STORM';
const browser = await launchChromium({
  viewport: { width: WIDTH, height: 800 },
  deviceScaleFactor: SCALE,
});
try {
  const page = await browser.newPage();
  await page.goto(`${pathToFileURL(html).href}${anchor}`);
  await page.waitForSelector('body[data-ready="true"] [data-testid="step-panel"]');
  // The picture ends below the timeline: the footer adds nothing.
  const box = await page.locator('.trace-body').boundingBox();
  const bottom = Math.ceil(box.y + box.height + 20);
  await page.screenshot({ path: out, fullPage: true, clip: { x: 0, y: 0, width: WIDTH, height: bottom } });
  console.log(
    `render-report-png: wrote ${path.relative(root, out)} (${WIDTH}×${bottom} CSS px at ${SCALE}×)`,
  );
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
