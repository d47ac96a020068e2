// Benchmark: the Action's bundle size and cold start. Not a test: prints figures measured inside
// one run on this machine. Usage:
//   npm run build && npm run bundle && node bench/action.mjs [runs=15] [node=process.execPath]
//
// Cold start is what a PR waits for before tracejury does anything: from spawning
// `node dist/index.js` (as the runner does) to the first request reaching GitHub (a loopback
// server standing in through GITHUB_API_URL), with a ready report as input so no analysis runs.
// Reference in the same run, interleaved: `node -e 0` (the floor every node process pays) and an
// import of the bundle alone. Medians over the runs; the machine is shared, so read the ratios.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { analyze } from '../build/index.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = path.join(ROOT, 'dist');
const RUNS = Number(process.argv[2] ?? 15);
const NODE = process.argv[3] ?? process.execPath;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (n) => `${(n / 1024).toFixed(0)} kB`;

// Bundle size: every file ncc wrote, and the entry gzipped (what a clone of the tag transfers).
let total = 0;
for (const f of readdirSync(DIST)) total += statSync(path.join(DIST, f)).size;
const entry = readFileSync(path.join(DIST, 'index.js'));
console.log(
  `bundle: dist/ ${kb(total)} in ${readdirSync(DIST).length} files; index.js ${kb(entry.length)} (${kb(gzipSync(entry).length)} gzipped)`,
);

const work = mkdtempSync(path.join(tmpdir(), 'tracejury-bench-action-'));
const report = await analyze([path.join(ROOT, 'examples/traces')], { cwd: ROOT, baselines: false });
writeFileSync(path.join(work, 'report.json'), JSON.stringify(report));
writeFileSync(
  path.join(work, 'event.json'),
  JSON.stringify({
    pull_request: {
      number: 1,
      base: { ref: 'main', repo: { full_name: 'a/b' } },
      head: { sha: 'f'.repeat(40), repo: { full_name: 'a/b' } },
    },
    repository: { default_branch: 'main' },
  }),
);
writeFileSync(path.join(work, 'out'), '');
writeFileSync(path.join(work, 'summary.md'), '');

let firstRequest;
const server = createServer((req, res) => {
  firstRequest ??= performance.now();
  res.writeHead(req.method === 'GET' ? 200 : 201, { 'content-type': 'application/json' });
  // The Action asks who its token is (GraphQL viewer) before it looks for its earlier comment.
  if (req.url === '/graphql') res.end(JSON.stringify({ data: { viewer: { login: 'github-actions[bot]' } } }));
  else
    res.end(
      req.method === 'GET' ? '[]' : JSON.stringify({ id: 1, html_url: 'https://github.com/a/b/pull/1#c' }),
    );
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const apiUrl = `http://127.0.0.1:${server.address().port}`;

function timed(args, env = {}) {
  return new Promise((resolve, reject) => {
    firstRequest = undefined;
    const start = performance.now();
    const child = spawn(NODE, args, { cwd: work, env: { PATH: process.env.PATH, ...env }, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        code,
        first: firstRequest === undefined ? NaN : firstRequest - start,
        total: performance.now() - start,
      }),
    );
  });
}

const actionEnv = {
  GITHUB_EVENT_NAME: 'pull_request',
  GITHUB_EVENT_PATH: path.join(work, 'event.json'),
  GITHUB_REPOSITORY: 'a/b',
  GITHUB_API_URL: apiUrl,
  GITHUB_WORKSPACE: work,
  GITHUB_OUTPUT: path.join(work, 'out'),
  GITHUB_STEP_SUMMARY: path.join(work, 'summary.md'),
  RUNNER_TEMP: work,
  'INPUT_GITHUB-TOKEN': 'ghs_bench',
  INPUT_REPORT: 'report.json',
  INPUT_BASELINE: 'none',
  INPUT_COMMENT: 'update',
  'INPUT_CHECK-RUN': 'false',
  'INPUT_FAIL-ON': 'never',
};

const rows = { floor: [], importOnly: [], firstCall: [], whole: [] };
for (let i = 0; i < RUNS; i++) {
  rows.floor.push((await timed(['-e', '0'])).total);
  // Importing the bundle runs it; with no inputs it fails fast on the missing event: close to load time.
  rows.importOnly.push(
    (await timed(['-e', `import(${JSON.stringify(path.join(DIST, 'index.js'))}).catch(() => {})`])).total,
  );
  const r = await timed([path.join(DIST, 'index.js')], actionEnv);
  if (r.code !== 0) throw new Error(`dist/index.js exited with ${r.code}`);
  rows.firstCall.push(r.first);
  rows.whole.push(r.total);
}
server.close();
const f = median(rows.floor);
console.log(
  `node ${spawnSync(NODE, ['--version'], { encoding: 'utf8' }).stdout.trim()}; ${RUNS} runs, medians:`,
);
console.log(`  node -e 0                     ${f.toFixed(0).padStart(5)} ms  (1.00×)`);
for (const [name, key] of [
  ['load the bundle', 'importOnly'],
  ['start → first GitHub request', 'firstCall'],
  ['whole run (comment written)', 'whole'],
]) {
  const m = median(rows[key]);
  console.log(`  ${name.padEnd(29)} ${m.toFixed(0).padStart(5)} ms  (${(m / f).toFixed(2)}×)`);
}
