// Benchmark: the HTML report of a large input. Not a test: prints what one run on this machine
// measured. Usage:
//   npm run build && node bench/html.mjs [sizeMB=300] [rounds=2]
// Generates (once, cached in bench/out/) the deterministic native JSONL input of bench/traces.mjs,
// then per round runs `analyze FILE --format json` and `analyze FILE --format html` (each its own
// process, timed from spawn to exit, with its peak RSS), and opens the page in headless Chromium
// (playwright-core driving /usr/bin/chromium, or CHROMIUM=path): the time from navigation to the
// viewer's ready mark, and from a finding's click to its timeline. The machine is shared: compare
// figures measured in one round.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { executablePath, launchChromium } from '../scripts/chromium.mjs';
import { generate } from './traces.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const bin = path.join(root, 'build', 'cli', 'bin.js');
const sizeMb = Number(process.argv[2] ?? 300);
const rounds = Number(process.argv[3] ?? 2);
if (!existsSync(bin)) throw new Error('build/cli/bin.js is missing: run `npm run build` first');
if (!existsSync(executablePath))
  throw new Error(`${executablePath} is missing: apt-get install chromium, or set CHROMIUM`);

const input = path.join(here, 'out', `native-${sizeMb}mb.jsonl`);
if (!existsSync(input)) {
  process.stdout.write(`generating ${sizeMb} MB → ${path.relative(process.cwd(), input)}\n`);
  await generate('native', input, sizeMb * 1024 * 1024);
}
const tmp = mkdtempSync(path.join(tmpdir(), 'tracejury-bench-html-'));

function analyze(format) {
  const out = path.join(tmp, `report.${format}`);
  const start = performance.now();
  const r = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      'maxrss %M',
      process.execPath,
      bin,
      'analyze',
      input,
      '--format',
      format,
      '--out',
      out,
      '--no-progress',
    ],
    { encoding: 'utf8' },
  );
  const ms = performance.now() - start;
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`analyze --format ${format} exited ${r.status}: ${r.stderr}`);
  const rss = Number(/maxrss (\d+)/.exec(r.stderr)[1]) / 1024;
  return { ms, rss, bytes: statSync(out).size, out };
}

async function open(html) {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const start = performance.now();
    await page.goto(pathToFileURL(html).href);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
    const ready = performance.now() - start;
    const click = performance.now();
    await page.locator('[data-testid="finding"] a').first().click();
    await page.waitForSelector('[data-testid="timeline"]');
    const trace = performance.now() - click;
    const heap = await page.evaluate(() => (performance.memory ? performance.memory.usedJSHeapSize : 0));
    return { ready, trace, heapMb: heap / 1024 / 1024 };
  } finally {
    await browser.close();
  }
}

const page = (html) => JSON.parse(/id="tj-page">([\s\S]*?)<\/script>/.exec(readFileSync(html, 'utf8'))[1]);
const mb = (b) => `${(b / 1024 / 1024).toFixed(1)} MB`;
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
process.stdout.write(`input: ${path.relative(process.cwd(), input)} (${mb(statSync(input).size)})\n`);
for (let r = 1; r <= rounds; r++) {
  const json = analyze('json');
  const html = analyze('html');
  const data = page(html.out);
  const opened = await open(html.out);
  process.stdout.write(
    `round ${r}: analyze json ${s(json.ms)}, ${json.rss.toFixed(0)} MB peak RSS (report ${mb(json.bytes)}); ` +
      `html ${s(html.ms)}, ${html.rss.toFixed(0)} MB peak RSS; page ${mb(html.bytes)} ` +
      `(${data.traces.embedded.length} traces embedded, ${data.traces.leftOut.traces} left out, ${data.traces.leftOut.withFindings} of them with findings); ` +
      `Chromium: ready in ${s(opened.ready)}, a finding's timeline in ${s(opened.trace)}, JS heap ${opened.heapMb.toFixed(0)} MB\n`,
  );
}
rmSync(tmp, { recursive: true, force: true });
