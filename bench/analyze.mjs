// Benchmark: `tracejury analyze` against the floor (../shared/bench/floor.mjs), whole processes.
// Prints ratios measured inside one run on this machine. Usage:
//   npm run build && node bench/analyze.mjs [sizeMB=300] [rounds=3] [--formats native,records,…] [--jobs N]
//   npm run build && node bench/analyze.mjs <trace file> [rounds=3] [--jobs N]   (a JSONL file of your own)
//   … --build <build dir>      times that build instead of build/ (e.g. one made by bench/guardBuilds.mjs)
//   … --compare <build dir>   also runs another build (e.g. a copy of build/ from before a change)
//                             in each round, right after this one, prints its ratio beside, and
//                             says whether the two builds wrote the same report (but generatedAt)
//   node bench/analyze.mjs --guard [--jobs 1] [--reference REV | --reference-build DIR]
//                             the regression guard CI runs (`.ci/run`): GUARD_MB of each shape of
//                             GUARD_FORMATS, GUARD_ROUNDS rounds, this checkout's src/ against a
//                             reference commit's (unless named, the parent of the newest commit that
//                             changed src/; HEAD with src/ changes uncommitted), both transpiled alike into
//                             bench/out/guard/ (bench/guardBuilds.mjs) and timed back to back; exits
//                             1 when this build's CPU time is over the reference's by more than
//                             GUARD_SLOWER (median of rounds), or its peak RSS over RSS_GUARD_MB,
//                             after printing the table. Without the reference commit (a shallow
//                             clone) it falls back to limits against the floor (GUARD).
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
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultReference, referenceSource, transpileBuild } from './guardBuilds.mjs';
import { SHAPED_FORMATS, generate } from './traces.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const outDir = path.join(here, 'out');
let bin = path.join(root, 'build', 'cli', 'bin.js');

/** Analyze should take at most this many times the floor (whole process); RSS at most RSS_TARGET_MB. */
const TARGETS = { native: 3, 'native-small': 3, otel: 3, records: 3, 'records-small': 3 };
const RSS_TARGET_MB = 300;
/**
 * The input shapes users have, benched by default: few large native traces; many small native
 * traces in sessions (production logs, test suites); flat LLM-call records of 50 runs interleaved,
 * large and small; OTLP spans of 20 traces interleaved; Langfuse exports.
 */
const SHAPES_BENCHED = ['native', 'native-small', 'records', 'records-small', 'otel', 'langfuse'];
/**
 * The guard's fallback, when the clone lacks the reference commit (a shallow clone): limits
 * against the floor. analyze's CPU time past its start-up (analyze of the file's first line, timed
 * in the same round) against the floor's: a doubling of analyze's work doubles it, where wall-time
 * ratios ranged from 9× to 19× on a busy machine. The limits are 1.6× the medians measured when
 * they were set (native 10.5×, otel 12.4×, records 11.6×; Node 22, 2026-11-26, 50 MB, load average
 * 4–5); the small shapes', added later on a machine too busy to measure them alone, are native's
 * scaled by their CPU against native's in the same rounds (1.27×, load 7). They catch a doubling,
 * not a 20 % slowdown: the reference build is what does. Peak RSS: the target itself.
 */
const GUARD = { native: 17, 'native-small': 21, 'records-small': 21, otel: 20 };
/**
 * The guard against a reference build: every shape users have (few large native traces, many small
 * ones in sessions, interleaved flat LLM-call records, OTLP spans), 20 MB each (a few seconds of
 * CPU: big enough that start-up is not most of it, small enough for CI), five rounds with the two
 * builds' order alternating, whole-process CPU time (start-up regressions count too). It fails when
 * this build's CPU over the reference's, median of rounds, is over 1 + GUARD_SLOWER: a 20 % slowdown
 * crosses it, and the ratio of identical builds stayed within ±4 % on a machine at load 4–7
 * (docs/performance.md).
 */
const GUARD_FORMATS = ['native', 'native-small', 'records-small', 'otel'];
const GUARD_MB = 20;
const GUARD_ROUNDS = 5;
const GUARD_SLOWER = 0.1;
/**
 * A shape whose median ratio after GUARD_ROUNDS is within GUARD_UNDECIDED of the limit gets more
 * rounds, up to GUARD_MAX_ROUNDS: on a busy machine one round's ratio moves by ±10–15 %, and the
 * median of five can land near the limit whether the build is slower or not.
 */
const GUARD_UNDECIDED = 0.05;
const GUARD_MAX_ROUNDS = 11;
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
const buildDir = flag('--build');
if (buildDir) bin = path.join(path.resolve(buildDir), 'cli', 'bin.js');
const referenceRev = flag('--reference');
const referenceBuild = flag('--reference-build');
let compareBin = compareDir ? path.join(path.resolve(compareDir), 'cli', 'bin.js') : undefined;
if (compareBin && !existsSync(compareBin))
  fail(`--compare: ${compareBin} does not exist (give a build directory)`);
const formatList = flag('--formats');
const guardIndex = args.indexOf('--guard');
const guard = guardIndex !== -1;
if (guard) args.splice(guardIndex, 1);
const [first, second] = args;
const ownFile = first !== undefined && Number.isNaN(Number(first)) ? path.resolve(first) : undefined;
const sizeMb = ownFile ? 0 : Number(first ?? (guard ? GUARD_MB : 300));
const rounds = Number(second ?? (guard ? GUARD_ROUNDS : 3));
if (!guard && (referenceRev || referenceBuild)) fail('--reference and --reference-build are for --guard');
if (guard && compareBin)
  fail('--guard compares with its own reference build: give --reference-build, not --compare');
if (!(rounds >= 1)) fail(`rounds must be a positive number, got ${second}`);
// The guard's limits were measured on GUARD_MB inputs of the formats it names.
if (guard && (ownFile || sizeMb !== GUARD_MB))
  fail(`--guard's limits are for ${GUARD_MB} MB generated inputs (give no size, or ${GUARD_MB})`);
const formats = ownFile ? ['file'] : (formatList?.split(',') ?? (guard ? GUARD_FORMATS : SHAPES_BENCHED));
for (const f of formats)
  if (!ownFile && !SHAPED_FORMATS.includes(f)) fail(`unknown format ${f} (${SHAPED_FORMATS.join(', ')})`);

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

// ── the guard's two builds ───────────────────────────────────────────────────────────────────────
/** What the guard compares this build with, when it has a reference build (a label to print). */
let reference;
if (guard) {
  const guardDir = path.join(outDir, 'guard');
  const viewerModule = path.join(root, 'src', 'report', 'html', 'viewer.generated.ts');
  if (referenceBuild) {
    // A build made elsewhere (e.g. `npm run build` of another checkout): compared with build/.
    compareBin = path.join(path.resolve(referenceBuild), 'cli', 'bin.js');
    if (!existsSync(compareBin))
      fail(`--reference-build: ${compareBin} does not exist (give a build directory)`);
    reference = referenceBuild;
  } else {
    const rev = referenceRev ?? defaultReference(root);
    const source = referenceSource(root, rev, path.join(guardDir, 'reference-src'));
    if (source.reason)
      process.stdout.write(
        `the guard's reference: ${source.reason}; the guard falls back to its limits against the floor\n`,
      );
    else {
      compareBin = await transpileBuild(source.src, path.join(guardDir, 'reference'), viewerModule);
      bin = await transpileBuild(path.join(root, 'src'), path.join(guardDir, 'this'), viewerModule);
      reference = `${rev} (${source.commit.slice(0, 12)})`;
      process.stdout.write(
        `the guard: this checkout's src/ against ${reference}, both transpiled into ${path.relative(process.cwd(), guardDir)}/\n`,
      );
    }
  }
}

// ── measuring one process ────────────────────────────────────────────────────────────────────────
const rssHook = path.join(here, 'maxrss-hook.mjs');

/** Runs `node …argv` to its end: wall ms (spawn to exit), CPU ms, peak RSS in MB, stdout. */
function measure(argv) {
  const cmd = [process.execPath, ['--import', rssHook, ...argv]];
  const start = performance.now();
  const child = spawnSync(cmd[0], cmd[1], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = performance.now() - start;
  // analyze exits 1 when the gate fails (findings), 2 on a usage error or no usable input.
  if (child.status !== 0 && child.status !== 1) {
    process.stderr.write(child.stderr);
    fail(`\`node ${argv.join(' ')}\` exited with ${child.status ?? child.signal}`);
  }
  const m = /maxrss (\d+)/.exec(child.stderr);
  const c = /cpu (\d+) (\d+)/.exec(child.stderr);
  if (!m || !c) fail(`no peak RSS or CPU time for \`node ${argv.join(' ')}\`:\n${child.stderr}`);
  // CPU seconds (user + system): what the guard compares, as a busy machine stretches wall time.
  const cpuMs = (Number(c[1]) + Number(c[2])) / 1000;
  return { ms, cpuMs, rssMb: Number(m[1]) / 1024, stdout: child.stdout };
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

// Start-up: analyze of the same file's first line (one record: loading the modules and config,
// reading, detecting, writing a report of next to nothing), timed in every round beside the rest.
const firstLines = {};
for (const format of formats) {
  const fd = openSync(files[format], 'r');
  const head = Buffer.alloc(1 << 20);
  const n = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const nl = head.subarray(0, n).indexOf(0x0a);
  firstLines[format] = path.join(outDir, `${format}-first-line.jsonl`);
  writeFileSync(firstLines[format], head.subarray(0, nl === -1 ? n : nl + 1));
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
/** The command each round times: `cli analyze input --format json --out out` (the same for every build). */
const analyzeArgs = (cli, input, out) => [
  cli,
  'analyze',
  input,
  '--format',
  'json',
  '--out',
  out,
  '--no-progress',
  ...extra,
];
process.stdout.write(
  `floor: ${floor}\nanalyze: node ${path.relative(process.cwd(), bin)} analyze FILE --format json --out <tmp> --no-progress${extra.length ? ' ' + extra.join(' ') : ''}\n` +
    `${rounds} rounds per format, floor and analyze alternating; peak RSS and CPU time by process.resourceUsage() at exit\n` +
    (loadAverage ? `load average at the start: ${loadAverage} (${os.cpus().length} CPUs)\n` : ''),
);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const rows = [];
for (const format of formats) {
  const file = files[format];
  // Named by process too: two benches at once must not remove each other's reports.
  const reportFile = path.join(outDir, `report-${format}-${process.pid}.json`);
  const floors = [];
  const runs = [];
  const startups = [];
  const others = [];
  let report;
  let reportBytes = 0;
  let sameReport;
  /** With a reference build, the guard's verdict on this shape is not clear yet (see GUARD_UNDECIDED). */
  const undecided = () =>
    guard &&
    reference !== undefined &&
    runs.length < GUARD_MAX_ROUNDS &&
    Math.abs(median(runs.map((r, i) => r.cpuMs / others[i].cpuMs)) - (1 + GUARD_SLOWER)) < GUARD_UNDECIDED;
  for (let round = 0; round < rounds || undecided(); round++) {
    floors.push(measure([floor, file]));
    let written;
    const runThis = () => {
      const run = measure(analyzeArgs(bin, file, reportFile));
      runs.push(run);
      report ??= JSON.parse(readFileSync(reportFile, 'utf8'));
      reportBytes = statSync(reportFile).size;
      if (compareBin && round === 0) written = comparable(reportFile);
      rmSync(reportFile, { force: true });
    };
    const runOther = () => {
      const o = measure(analyzeArgs(compareBin, file, reportFile));
      if (round === 0) sameReport = comparable(reportFile);
      rmSync(reportFile, { force: true });
      others.push(o);
    };
    // The guard alternates which build goes first, so that a machine speeding up or slowing down
    // within a round favours neither.
    if (compareBin && guard && round % 2 === 1) {
      runOther();
      runThis();
    } else {
      runThis();
      if (compareBin) runOther();
    }
    if (round === 0 && compareBin) sameReport = firstDifference(written, sameReport) ?? true;
    const run = runs[round];
    let other = '';
    if (compareBin) {
      const o = others[round];
      other = `; compared build ${(o.ms / 1000).toFixed(2)} s (${(o.ms / floors[round].ms).toFixed(2)}×), CPU ${(run.cpuMs / 1000).toFixed(2)} s against ${(o.cpuMs / 1000).toFixed(2)} s (${(run.cpuMs / o.cpuMs).toFixed(3)}×), ${o.rssMb.toFixed(0)} MB`;
    }
    // Start-up (for the ratios past it) is not needed when the guard has a reference build.
    const startup = reference
      ? { ms: 0, cpuMs: 0 }
      : measure(
          analyzeArgs(
            bin,
            firstLines[format],
            path.join(outDir, `report-${format}-first-line-${process.pid}.json`),
          ),
        );
    startups.push(startup);
    rmSync(path.join(outDir, `report-${format}-first-line-${process.pid}.json`), { force: true });
    process.stdout.write(
      `  ${format} round ${round + 1}: floor ${(floors[round].ms / 1000).toFixed(2)} s, analyze ${(run.ms / 1000).toFixed(2)} s (${(run.ms / floors[round].ms).toFixed(2)}×), ${run.rssMb.toFixed(0)} MB, start-up ${(startups[round].ms / 1000).toFixed(2)} s${other}\n`,
    );
  }
  // The generated input must load cleanly; a file of your own is measured as it is.
  if (!ownFile && report.inputs.errorCount > 0)
    fail(
      `the generated ${format} file had ${report.inputs.errorCount} input errors: ${JSON.stringify(report.inputs.errors?.slice(0, 3))}`,
    );
  const withFinding = new Set(report.signals.map((s) => s.traceId)).size;
  const ratios = runs.map((r, i) => r.ms / floors[i].ms);
  // The guard's ratio: analyze's CPU time past its start-up against the floor's (what grows with
  // the input, and what a busy machine stretches least).
  const workRatios = runs.map((r, i) => (r.cpuMs - startups[i].cpuMs) / floors[i].cpuMs);
  const rss = Math.max(...runs.map((r) => r.rssMb));
  const target = TARGETS[format];
  const ratio = median(ratios);
  const otherRatios = others.map((o, i) => o.ms / floors[i].ms);
  rows.push({
    format,
    rounds: runs.length,
    compared: others.length
      ? {
          ratio: median(otherRatios),
          min: Math.min(...otherRatios),
          max: Math.max(...otherRatios),
          cpuRatio: median(others.map((o, i) => o.cpuMs / floors[i].cpuMs)),
          // This build's CPU time over the compared build's, round by round (what the guard judges).
          cpuOver: median(runs.map((r, i) => r.cpuMs / others[i].cpuMs)),
          cpuOverMin: Math.min(...runs.map((r, i) => r.cpuMs / others[i].cpuMs)),
          cpuOverMax: Math.max(...runs.map((r, i) => r.cpuMs / others[i].cpuMs)),
          analyzeCpu: median(others.map((o) => o.cpuMs)) / 1000,
          // Each build's least CPU time over rounds, one over the other: another machine's work
          // only ever adds to a process's CPU time (shared caches, memory bandwidth, a shared core),
          // so the least is the least disturbed figure of each build.
          cpuLeastOver: Math.min(...runs.map((r) => r.cpuMs)) / Math.min(...others.map((o) => o.cpuMs)),
          rss: Math.max(...others.map((o) => o.rssMb)),
        }
      : undefined,
    mb: statSync(file).size / 1024 / 1024,
    traces: report.inputs.traces,
    findings: withFinding / report.inputs.traces,
    floor: median(floors.map((f) => f.ms)) / 1000,
    floorRss: Math.max(...floors.map((f) => f.rssMb)),
    analyze: median(runs.map((r) => r.ms)) / 1000,
    ratio,
    startup: median(startups.map((r) => r.ms)) / 1000,
    cpuRatio: median(runs.map((r, i) => r.cpuMs / floors[i].cpuMs)),
    work: median(workRatios),
    floorCpu: median(floors.map((f) => f.cpuMs)) / 1000,
    analyzeCpu: median(runs.map((r) => r.cpuMs)) / 1000,
    startupCpu: median(startups.map((r) => r.cpuMs)) / 1000,
    workMin: Math.min(...workRatios),
    workMax: Math.max(...workRatios),
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
  `\n| format | file | traces (with a finding) | floor s | analyze s | × floor (median, range) | CPU × floor | start-up s | peak RSS (floor) | report | target | met? |\n` +
    `|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n`,
);
for (const r of rows) {
  process.stdout.write(
    `| ${r.format} | ${r.mb.toFixed(r.mb < 10 ? 1 : 0)} MB | ${r.traces} (${(r.findings * 100).toFixed(0)} %) | ${r.floor.toFixed(2)} | ${r.analyze.toFixed(2)} | ` +
      `${r.ratio.toFixed(2)} (${r.min.toFixed(2)}–${r.max.toFixed(2)}) | ${r.cpuRatio.toFixed(2)} | ${r.startup.toFixed(2)} | ${r.rss.toFixed(0)} MB (${r.floorRss.toFixed(0)} MB) | ${r.reportMb.toFixed(1)} MB | ` +
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
    `| format | this build × floor | compared build × floor | this / compared | CPU: this × floor | CPU: compared × floor | CPU: this / compared (median, range) |\n|---|---:|---:|---:|---:|---:|---:|\n`,
  );
  for (const r of rows) {
    const c = r.compared;
    process.stdout.write(
      `| ${r.format} | ${r.ratio.toFixed(2)} (${r.min.toFixed(2)}–${r.max.toFixed(2)}) | ${c.ratio.toFixed(2)} (${c.min.toFixed(2)}–${c.max.toFixed(2)}) | ${(r.ratio / c.ratio).toFixed(3)} | ${r.cpuRatio.toFixed(2)} | ${c.cpuRatio.toFixed(2)} | ${c.cpuOver.toFixed(3)} (${c.cpuOverMin.toFixed(3)}–${c.cpuOverMax.toFixed(3)}) |\n`,
    );
  }
  process.stdout.write('\n');
  for (const r of rows)
    process.stdout.write(
      `${r.format}: ${r.sameReport === true ? 'the same report from both builds' : `the reports differ ${r.sameReport}`}\n`,
    );
}

// ── the regression guard ─────────────────────────────────────────────────────────────────────────
if (guard && reference) {
  process.stdout.write(
    `\nThe guard: CPU seconds (user + system) of this build against the reference ${reference}, whole processes, ` +
      `median of ${rounds} rounds, up to ${GUARD_MAX_ROUNDS} while within ${GUARD_UNDECIDED} of the limit (the builds' order alternating):\n\n` +
      `| format | file | rounds | reference CPU s | this CPU s | this / reference (median, range) | least / least | limit | peak RSS (limit ${RSS_GUARD_MB} MB) | same report | guard |\n` +
      `|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n`,
  );
  let failed = 0;
  for (const r of rows) {
    const c = r.compared;
    const slow = c.cpuOver > 1 + GUARD_SLOWER;
    const heavy = r.rss > RSS_GUARD_MB;
    if (slow || heavy) failed++;
    process.stdout.write(
      `| ${r.format} | ${r.mb.toFixed(0)} MB | ${r.rounds} | ${c.analyzeCpu.toFixed(2)} | ${r.analyzeCpu.toFixed(2)} | ` +
        `${c.cpuOver.toFixed(3)} (${c.cpuOverMin.toFixed(3)}–${c.cpuOverMax.toFixed(3)}) | ${c.cpuLeastOver.toFixed(3)} | ${(1 + GUARD_SLOWER).toFixed(2)} | ` +
        `${r.rss.toFixed(0)} MB | ${r.sameReport === true ? 'yes' : 'no'} | ${slow ? 'FAILED: slower' : heavy ? 'FAILED: heavier' : 'ok'} |\n`,
    );
  }
  if (failed > 0) {
    process.stdout.write(
      `\nbench: ${failed} shape${failed === 1 ? '' : 's'} over the guard: this build takes more than ${GUARD_SLOWER * 100} % more CPU ` +
        `than ${reference}, or more than ${RSS_GUARD_MB} MB (profile it: node --cpu-prof build/cli/bin.js analyze ` +
        `bench/out/<format>-${sizeMb}mb.jsonl, then node bench/profile-summary.mjs)\n`,
    );
    process.exit(1);
  }
} else if (guard) {
  process.stdout.write(
    `\nThe guard: CPU seconds (user + system), analyze's past its start-up (the first line of the same file) against the floor's, median of ${rounds} rounds:\n\n` +
      `| format | floor CPU s | analyze CPU s | start-up CPU s | past start-up × floor (median, range) | limit | peak RSS (limit ${RSS_GUARD_MB} MB) | guard |\n` +
      `|---|---:|---:|---:|---:|---:|---:|---|\n`,
  );
  let failed = 0;
  for (const r of rows) {
    const limit = GUARD[r.format];
    const slow = limit !== undefined && r.work > limit;
    const heavy = r.rss > RSS_GUARD_MB;
    if (slow || heavy) failed++;
    process.stdout.write(
      `| ${r.format} | ${r.floorCpu.toFixed(2)} | ${r.analyzeCpu.toFixed(2)} | ${r.startupCpu.toFixed(2)} | ` +
        `${r.work.toFixed(2)} (${r.workMin.toFixed(2)}–${r.workMax.toFixed(2)}) | ${limit === undefined ? '—' : `${limit}×`} | ` +
        `${r.rss.toFixed(0)} MB | ${slow ? 'FAILED: slower' : heavy ? 'FAILED: heavier' : 'ok'} |\n`,
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
