// Benchmark: `tracejury analyze` against the floor (../shared/bench/floor.mjs), whole processes.
// Prints ratios measured inside one run on this machine. Usage:
//   npm run build && node bench/analyze.mjs [sizeMB=300] [rounds=3] [--formats native,records,…] [--jobs N]
//   npm run build && node bench/analyze.mjs <trace file> [rounds=3] [--jobs N]   (a JSONL file of your own)
//   … --compare <build dir>   also runs another build (e.g. a copy of build/ from before a change)
//                             in each round, right after this one, prints its ratio beside, and
//                             says whether the two builds wrote the same report (but generatedAt)
//   … --guard                 the regression guard CI runs (`.ci/run`: 50 MB, 3 rounds): exits 1
//                             when a format's median ratio is over GUARD or its peak RSS over
//                             RSS_GUARD_MB, after printing the table
// Per format it generates (once, cached in bench/out/) a deterministic text-heavy file of `sizeMB`
// (bench/traces.mjs), then runs rounds of: the floor, then `node build/cli/bin.js analyze FILE`,
// each its own process, timed from spawn to exit (start-up included) with its peak RSS. The
// machine's speed drifts (a shared 2-core box), so each ratio is taken within a round (floor and
// analyze back to back) and reported as the median and range over rounds. Everything it writes
// is under bench/out/.
//
// The floor is found at TRACEJURY_FLOOR, else ../shared/bench/floor.mjs from this checkout's root,
// else from the main checkout's root (for a git worktree), else bench/floor.mjs, a copy of it (a
// clean clone in CI has no ../shared); when the original and the copy both exist, both are run on
// the first file and must count the same lines. `--jobs N` (or JOBS=N) is passed through to
// analyze as `--jobs N`.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FORMATS, generate } from './traces.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const outDir = path.join(here, 'out');
const bin = path.join(root, 'build', 'cli', 'bin.js');

/** Analyze should take at most this many times the floor (whole process); RSS at most RSS_TARGET_MB. */
const TARGETS = { native: 3, otel: 3, records: 3 };
const RSS_TARGET_MB = 300;
/**
 * What --guard fails on (CI, 50 MB inputs): twice the ratio measured when the guard was set, so
 * that noise on a shared machine never trips it and a doubling cannot land unseen (see README,
 * Performance). Peak RSS: the target itself, on inputs a sixth of the targets' size.
 */
const GUARD = { native: 6, otel: 6, records: 6, langfuse: 6 };
const RSS_GUARD_MB = RSS_TARGET_MB;

function fail(message) {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}

// ── arguments ────────────────────────────────────────────────────────────────────────────────────
const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  if (i === -1) return undefined;
  const v = args[i + 1];
  if (v === undefined) fail(`${name} needs a value`);
  args.splice(i, 2);
  return v;
};
const jobs = flag('--jobs') ?? process.env.JOBS;
const compareDir = flag('--compare');
const compareBin = compareDir ? path.join(path.resolve(compareDir), 'cli', 'bin.js') : undefined;
if (compareBin && !existsSync(compareBin))
  fail(`--compare: ${compareBin} does not exist (give a build directory)`);
const formatList = flag('--formats');
const guardIndex = args.indexOf('--guard');
const guard = guardIndex !== -1;
if (guard) args.splice(guardIndex, 1);
const [first, second] = args;
const ownFile = first !== undefined && Number.isNaN(Number(first)) ? path.resolve(first) : undefined;
const sizeMb = ownFile ? 0 : Number(first ?? 300);
const rounds = Number(second ?? 3);
if (!(rounds >= 1)) fail(`rounds must be a positive number, got ${second}`);
const formats = ownFile ? ['file'] : (formatList?.split(',') ?? FORMATS);
for (const f of formats)
  if (!ownFile && !FORMATS.includes(f)) fail(`unknown format ${f} (${FORMATS.join(', ')})`);

// ── the floor ────────────────────────────────────────────────────────────────────────────────────
function findFloor() {
  const tried = [];
  if (process.env.TRACEJURY_FLOOR) {
    const p = path.resolve(process.env.TRACEJURY_FLOOR);
    if (existsSync(p)) return p;
    fail(`TRACEJURY_FLOOR=${process.env.TRACEJURY_FLOOR} does not exist`);
  }
  const roots = [root];
  try {
    // A git worktree lives elsewhere; the main checkout is where its common .git directory is.
    const common = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    roots.push(path.dirname(common));
  } catch {
    // not a git checkout: only this root
  }
  for (const r of roots) {
    const p = path.resolve(r, '..', 'shared', 'bench', 'floor.mjs');
    tried.push(p);
    if (existsSync(p)) return p;
  }
  process.stdout.write(`the floor was not found (tried ${tried.join(', ')}): using its copy\n`);
  return floorCopy;
}
const floorCopy = path.join(here, 'floor.mjs');
const floor = findFloor();
if (!existsSync(bin)) fail(`${path.relative(process.cwd(), bin)} is missing: run \`npm run build\` first`);

// ── measuring one process ────────────────────────────────────────────────────────────────────────
const TIME = '/usr/bin/time';
const haveTime = spawnSync(TIME, ['-f', '%M', 'true'], { encoding: 'utf8' }).status === 0;
const rssHook = path.join(here, 'maxrss-hook.mjs');

/** Runs `node …argv` to its end: wall ms (spawn to exit), peak RSS in MB, stdout. */
function measure(argv) {
  const cmd = haveTime
    ? [TIME, ['-f', 'maxrss %M', process.execPath, ...argv]]
    : [process.execPath, ['--import', rssHook, ...argv]];
  const start = performance.now();
  const child = spawnSync(cmd[0], cmd[1], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = performance.now() - start;
  // analyze exits 1 when the gate fails (findings), 2 on a usage error or no usable input.
  if (child.status !== 0 && child.status !== 1) {
    process.stderr.write(child.stderr);
    fail(`\`node ${argv.join(' ')}\` exited with ${child.status ?? child.signal}`);
  }
  const m = /maxrss (\d+)/.exec(child.stderr);
  if (!m) fail(`no peak RSS for \`node ${argv.join(' ')}\`:\n${child.stderr}`);
  return { ms, rssMb: Number(m[1]) / 1024, stdout: child.stdout };
}

// ── inputs ───────────────────────────────────────────────────────────────────────────────────────
const files = {};
for (const format of formats) {
  if (ownFile) {
    files[format] = ownFile;
    continue;
  }
  const file = path.join(outDir, `${format}-${sizeMb}mb.jsonl`);
  if (!existsSync(file)) {
    process.stdout.write(`generating ${sizeMb} MB of ${format} → ${path.relative(process.cwd(), file)}\n`);
    await generate(format, file, sizeMb * 1024 * 1024);
  }
  files[format] = file;
}

// The copy of the floor must count what the original counts (when both are here).
if (floor !== floorCopy) {
  const file = files[formats[0]];
  const count = (f) => execFileSync(process.execPath, [f, file], { encoding: 'utf8' }).trim();
  const [original, copy] = [count(floor), count(floorCopy)];
  if (original !== copy)
    fail(`bench/floor.mjs counts ${copy} lines of ${file}, the floor ${original}: bring the copy up to date`);
  process.stdout.write(`bench/floor.mjs (the copy) counts the same ${original} lines as the floor\n`);
}

/** A report's text without the moment it was written, to compare two builds' reports. */
const comparable = (file) => readFileSync(file, 'utf8').replace(/"generatedAt": "[^"]*"/, '');
/** Where two texts first differ, with some context, or undefined when they are the same. */
function firstDifference(a, b) {
  if (a === b) return undefined;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at character ${i}: …${JSON.stringify(a.slice(Math.max(0, i - 60), i + 60))}… against …${JSON.stringify(b.slice(Math.max(0, i - 60), i + 60))}…`;
}

// ── rounds ───────────────────────────────────────────────────────────────────────────────────────
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const loadAverage = (() => {
  try {
    return load();
  } catch {
    return undefined;
  }
})();
const extra = jobs !== undefined ? ['--jobs', String(jobs)] : [];
process.stdout.write(
  `floor: ${floor}\nanalyze: node ${path.relative(process.cwd(), bin)} analyze FILE --format json --out <tmp> --no-progress${extra.length ? ' ' + extra.join(' ') : ''}\n` +
    `${rounds} rounds per format, floor and analyze alternating; peak RSS by ${haveTime ? '/usr/bin/time' : 'process.resourceUsage()'}\n` +
    (loadAverage ? `load average at the start: ${loadAverage} (${os.cpus().length} CPUs)\n` : ''),
);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const rows = [];
for (const format of formats) {
  const file = files[format];
  const reportFile = path.join(outDir, `report-${format}.json`);
  const floors = [];
  const runs = [];
  const others = [];
  let report;
  let reportBytes = 0;
  let sameReport;
  for (let round = 0; round < rounds; round++) {
    floors.push(measure([floor, file]));
    const run = measure([
      bin,
      'analyze',
      file,
      '--format',
      'json',
      '--out',
      reportFile,
      '--no-progress',
      ...extra,
    ]);
    runs.push(run);
    report ??= JSON.parse(readFileSync(reportFile, 'utf8'));
    reportBytes = statSync(reportFile).size;
    const written = compareBin && round === 0 ? comparable(reportFile) : undefined;
    rmSync(reportFile, { force: true });
    let other = '';
    if (compareBin) {
      const o = measure([
        compareBin,
        'analyze',
        file,
        '--format',
        'json',
        '--out',
        reportFile,
        '--no-progress',
        ...extra,
      ]);
      if (written !== undefined) sameReport = firstDifference(written, comparable(reportFile)) ?? true;
      rmSync(reportFile, { force: true });
      others.push(o);
      other = `; compared build ${(o.ms / 1000).toFixed(2)} s (${(o.ms / floors[round].ms).toFixed(2)}×), ${o.rssMb.toFixed(0)} MB`;
    }
    process.stdout.write(
      `  ${format} round ${round + 1}: floor ${(floors[round].ms / 1000).toFixed(2)} s, analyze ${(run.ms / 1000).toFixed(2)} s (${(run.ms / floors[round].ms).toFixed(2)}×), ${run.rssMb.toFixed(0)} MB${other}\n`,
    );
  }
  // The generated input must load cleanly; a file of your own is measured as it is.
  if (!ownFile && report.inputs.errorCount > 0)
    fail(
      `the generated ${format} file had ${report.inputs.errorCount} input errors: ${JSON.stringify(report.inputs.errors?.slice(0, 3))}`,
    );
  const withFinding = new Set(report.signals.map((s) => s.traceId)).size;
  const ratios = runs.map((r, i) => r.ms / floors[i].ms);
  const rss = Math.max(...runs.map((r) => r.rssMb));
  const target = TARGETS[format];
  const ratio = median(ratios);
  const otherRatios = others.map((o, i) => o.ms / floors[i].ms);
  rows.push({
    format,
    compared: others.length
      ? { ratio: median(otherRatios), min: Math.min(...otherRatios), max: Math.max(...otherRatios) }
      : undefined,
    mb: statSync(file).size / 1024 / 1024,
    traces: report.inputs.traces,
    findings: withFinding / report.inputs.traces,
    floor: median(floors.map((f) => f.ms)) / 1000,
    floorRss: Math.max(...floors.map((f) => f.rssMb)),
    analyze: median(runs.map((r) => r.ms)) / 1000,
    ratio,
    min: Math.min(...ratios),
    max: Math.max(...ratios),
    rss,
    reportMb: reportBytes / 1024 / 1024,
    sameReport,
    target,
    met:
      target === undefined
        ? rss <= RSS_TARGET_MB
          ? 'RSS only: yes'
          : 'RSS only: no'
        : ratio <= target && rss <= RSS_TARGET_MB
          ? 'yes'
          : 'no',
  });
}

process.stdout.write(
  `\n| format | file | traces (with a finding) | floor s | analyze s | × floor (median, range) | peak RSS (floor) | report | target | met? |\n` +
    `|---|---:|---:|---:|---:|---:|---:|---:|---|---|\n`,
);
for (const r of rows) {
  process.stdout.write(
    `| ${r.format} | ${r.mb.toFixed(r.mb < 10 ? 1 : 0)} MB | ${r.traces} (${(r.findings * 100).toFixed(0)} %) | ${r.floor.toFixed(2)} | ${r.analyze.toFixed(2)} | ` +
      `${r.ratio.toFixed(2)} (${r.min.toFixed(2)}–${r.max.toFixed(2)}) | ${r.rss.toFixed(0)} MB (${r.floorRss.toFixed(0)} MB) | ${r.reportMb.toFixed(1)} MB | ` +
      `${r.target === undefined ? '—' : `≤ ${r.target}×`}, ≤ ${RSS_TARGET_MB} MB | ${r.met} |\n`,
  );
}
try {
  process.stdout.write(`load average at the end: ${load()}\n`);
} catch {
  // no /proc: not Linux
}
if (compareBin) {
  process.stdout.write(
    `\n--compare ${path.relative(process.cwd(), compareBin)}, same rounds, same floor:\n\n`,
  );
  process.stdout.write(
    `| format | this build × floor | compared build × floor | this / compared |\n|---|---:|---:|---:|\n`,
  );
  for (const r of rows) {
    const c = r.compared;
    process.stdout.write(
      `| ${r.format} | ${r.ratio.toFixed(2)} (${r.min.toFixed(2)}–${r.max.toFixed(2)}) | ${c.ratio.toFixed(2)} (${c.min.toFixed(2)}–${c.max.toFixed(2)}) | ${(r.ratio / c.ratio).toFixed(3)} |\n`,
    );
  }
  process.stdout.write('\n');
  for (const r of rows)
    process.stdout.write(
      `${r.format}: ${r.sameReport === true ? 'the same report from both builds' : `the reports differ ${r.sameReport}`}\n`,
    );
}

// ── the regression guard ─────────────────────────────────────────────────────────────────────────
if (guard) {
  process.stdout.write('\n');
  let failed = 0;
  for (const r of rows) {
    const limit = GUARD[r.format];
    const slow = limit !== undefined && r.ratio > limit;
    const heavy = r.rss > RSS_GUARD_MB;
    if (slow || heavy) failed++;
    process.stdout.write(
      `guard ${r.format}: ${r.ratio.toFixed(2)}× the floor (limit ${limit === undefined ? '—' : `${limit}×`}), ` +
        `${r.rss.toFixed(0)} MB peak RSS (limit ${RSS_GUARD_MB} MB): ${slow || heavy ? 'FAILED' : 'ok'}\n`,
    );
  }
  if (failed > 0) {
    process.stdout.write(
      `\nbench: ${failed} format${failed === 1 ? '' : 's'} over the guard: a change made analyze slower or heavier ` +
        `(profile it: node --cpu-prof build/cli/bin.js analyze bench/out/<format>-${sizeMb}mb.jsonl, then node bench/profile-summary.mjs)\n`,
    );
    process.exit(1);
  }
}
