// What the Vitest plugin costs over the library: N recorded traces checked as N describeTraces
// tests with detector matchers (A), against the same checks done by one analyze() call in one test
// (B). Target: A within 1.5× of B.
//
//   npm run build && node bench/vitest-overhead.mjs [traces=1000] [rounds=5]
//
// Generates, into a temporary directory, N native traces that look like real agent runs (the
// runs of bench/traces.mjs: system prompt, user request, 1–5 LLM → tool / retrieval rounds with
// prose and tool results of a few hundred words), a fifth of them made to loop (the same tool
// call three times) and a fifth to retry a failing tool three times, in files of 100 traces. Two
// small Vitest projects read them, each with node_modules of links to this checkout's and
// `tracejury` linked to the checkout (so they import the BUILT plugin and library, as a user does):
//   A  vitest.config.ts with tracejury(); describeTraces('traces/*.jsonl', (t) => {
//        expect(t).toHaveNoSignals({ minSeverity: 'critical' }); expect(t).toHaveWasteBelow(1); })
//   B  plain vitest.config.ts; one test: analyze('traces/*.jsonl') and the same two checks per
//      trace on the report.
// Each round times one whole `vitest run` process of each (start-up included), alternating which
// goes first; the medians and the ratio A / B are printed, and the cost per test.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze } from '../build/index.js';
import { makeRun, nativeLines, rng } from './traces.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VITEST_BIN = path.join(REPO, 'node_modules', 'vitest', 'vitest.mjs');
const TARGET = 1.5;
const PER_FILE = 100;

const count = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 5);

/**
 * The runs of bench/traces.mjs, a fifth made to loop and a fifth to retry a failing tool; runs with
 * a critical finding (a planted prompt injection) are left out, so every test of A passes.
 */
async function traceLines(n) {
  const r = rng(2026);
  const base = Date.UTC(2026, 10, 1);
  const traces = [];
  for (let i = 0; i < Math.ceil(n * 1.1) + 20; i++) {
    const trace = JSON.parse(nativeLines(makeRun(i, r, base + i * 20_000))[0]);
    const at = trace.steps.findIndex((s) => s.type === 'tool');
    if (at >= 0 && i % 5 === 1) {
      // The agent asks the same thing twice more: a TOOL_LOOP.
      const call = trace.steps[at];
      trace.steps.splice(at + 1, 0, { ...call }, { ...call });
    } else if (at >= 0 && i % 5 === 3) {
      // The tool fails and is retried with the same arguments until it answers: a retry storm.
      const call = trace.steps[at];
      const failed = { ...call, status: 'error', error: 'HTTP 503 from upstream' };
      delete failed.result;
      trace.steps.splice(at, 0, failed, { ...failed }, { ...failed });
    }
    traces.push(trace);
  }
  const report = await analyze(traces, { stateDir: path.join(dir, 'state'), baselines: false });
  const critical = new Set(
    report.signals.filter((s) => s.status === 'finding' && s.severity === 'critical').map((s) => s.traceId),
  );
  const kept = traces.filter((t) => !critical.has(t.id)).slice(0, n);
  if (kept.length < n) throw new Error(`only ${kept.length} runs without a critical finding`);
  const ids = new Set(kept.map((t) => t.id));
  const found = (detector) =>
    new Set(
      report.signals
        .filter((s) => s.detector === detector && s.status === 'finding' && ids.has(s.traceId))
        .map((s) => s.traceId),
    ).size;
  return {
    lines: kept.map((t) => JSON.stringify(t)),
    left: critical.size,
    looping: found('TOOL_LOOP'),
    retrying: found('RETRY_STORM'),
  };
}

function linkNodeModules(dir) {
  const target = path.join(dir, 'node_modules');
  mkdirSync(target);
  const source = path.join(REPO, 'node_modules');
  for (const entry of readdirSync(source)) {
    if (entry === '.bin' || entry === '.package-lock.json') continue;
    symlinkSync(path.join(source, entry), path.join(target, entry));
  }
  symlinkSync(REPO, path.join(target, 'tracejury'));
}

function project(dir, files, traceFiles) {
  mkdirSync(dir, { recursive: true });
  linkNodeModules(dir);
  const all = {
    'package.json': JSON.stringify({ name: path.basename(dir), private: true, type: 'module' }),
    ...files,
  };
  for (const [file, text] of Object.entries(all)) writeFileSync(path.join(dir, file), text);
  mkdirSync(path.join(dir, 'traces'));
  traceFiles.forEach((text, i) =>
    writeFileSync(path.join(dir, 'traces', `runs-${String(i + 1).padStart(3, '0')}.jsonl`), text),
  );
}

const A_CONFIG = `import { defineConfig } from 'vitest/config';
import { tracejury } from 'tracejury/vitest';
export default defineConfig({ plugins: [tracejury()], test: { include: ['evals.test.ts'] } });
`;
const A_TEST = `import { expect } from 'vitest';
import { describeTraces } from 'tracejury/vitest';
describeTraces('traces/*.jsonl', (t) => {
  expect(t).toHaveNoSignals({ minSeverity: 'critical' });
  expect(t).toHaveWasteBelow(1);
});
`;
const B_CONFIG = `import { defineConfig } from 'vitest/config';
export default defineConfig({ test: { include: ['evals.test.ts'], testTimeout: 600_000 } });
`;
const B_TEST = `import { expect, test } from 'vitest';
import { analyze } from 'tracejury';
test('every recorded run', async () => {
  const report = await analyze(['traces/*.jsonl'], { stateDir: '.tracejury' });
  expect(report.inputs.traces).toBe(${count});
  const findings = report.signals.filter((s) => s.status === 'finding');
  expect(findings.filter((s) => s.severity === 'critical')).toEqual([]);
  const waste = new Map();
  for (const s of findings) waste.set(s.traceId, (waste.get(s.traceId) ?? 0) + (s.wasteUsd ?? 0));
  for (const usd of waste.values()) expect(usd).toBeLessThan(1);
});
`;

function timeRun(dir) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [VITEST_BIN, 'run'], {
      cwd: dir,
      env: { ...process.env, CI: 'true', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      const tests = /Tests\s+(.*)/.exec(out)?.[1]?.trim() ?? '?';
      resolve({ seconds, code, tests, out });
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const dir = mkdtempSync(path.join(tmpdir(), 'tracejury-vitest-bench-'));
try {
  const { lines, left, looping, retrying } = await traceLines(count);
  const traceFiles = [];
  for (let i = 0; i < lines.length; i += PER_FILE)
    traceFiles.push(lines.slice(i, i + PER_FILE).join('\n') + '\n');
  const bytes = traceFiles.reduce((n, t) => n + Buffer.byteLength(t), 0);
  const a = path.join(dir, 'a');
  const b = path.join(dir, 'b');
  project(a, { 'vitest.config.ts': A_CONFIG, 'evals.test.ts': A_TEST }, traceFiles);
  project(b, { 'vitest.config.ts': B_CONFIG, 'evals.test.ts': B_TEST }, traceFiles);
  console.log(
    `${count} native traces (TOOL_LOOP in ${looping}, RETRY_STORM in ${retrying}; ${left} generated runs with a ` +
      `critical finding left out) in ${traceFiles.length} files, ` +
      `${(bytes / 1e6).toFixed(1)} MB; ${rounds} rounds after a warm-up; node ${process.version}`,
  );

  // Warm-up: Vite's dependency scan and the OS file cache, so round 1 is not an outlier.
  for (const [name, d] of [
    ['A', a],
    ['B', b],
  ]) {
    const w = await timeRun(d);
    console.log(`warm-up ${name}: ${w.seconds.toFixed(2)} s, exit ${w.code}, tests ${w.tests}`);
    if (w.code !== 0) console.log(w.out.split('\n').slice(-40).join('\n'));
  }

  const times = { A: [], B: [] };
  const ratios = [];
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 ? ['A', 'B'] : ['B', 'A'];
    const got = {};
    for (const name of order) {
      const res = await timeRun(name === 'A' ? a : b);
      if (res.code !== 0)
        throw new Error(`${name} exited ${res.code}:\n${res.out.split('\n').slice(-40).join('\n')}`);
      got[name] = res;
      times[name].push(res.seconds);
    }
    ratios.push(got.A.seconds / got.B.seconds);
    console.log(
      `round ${round}: A ${got.A.seconds.toFixed(2)} s (${got.A.tests}), B ${got.B.seconds.toFixed(2)} s (${got.B.tests}), ` +
        `A / B ${(got.A.seconds / got.B.seconds).toFixed(2)}×`,
    );
  }
  const mA = median(times.A);
  const mB = median(times.B);
  const ratio = median(ratios);
  console.log(`\nA: ${count} describeTraces tests with 2 detector matchers each: median ${mA.toFixed(2)} s`);
  console.log(`B: one test, one analyze() call:                        median ${mB.toFixed(2)} s`);
  console.log(
    `A / B: ${ratio.toFixed(2)}× median over rounds (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}); ` +
      `target ≤ ${TARGET}×: ${ratio <= TARGET ? 'met' : 'NOT met'}`,
  );
  console.log(
    `per test: ${((mA * 1000) / count).toFixed(2)} ms in A, of which ${(((mA - mB) * 1000) / count).toFixed(2)} ms ` +
      'over the analyze() run',
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
