// How many runs a side does the regression gate need to catch a drop in success? Not a test: a
// seeded simulation through the built library's diffReports (the default `regression:` policy, so
// success is tested at its share of α next to the share of runs with a finding and waste per run,
// except the minimum effect of success, set to 0 so that the table measures the test itself: with
// a minimum effect of 5 points, a true drop of exactly 5 points looks smaller half the time, and
// passes), printing the runs a side at which 5-, 10- and 20-point drops fail the gate in 80 % of
// pairs: the table in docs/cli.md.
//
//   npm run build && node bench/power.mjs [--reps N] [--rate R]
//
// Two designs, base success rate R (default 0.6):
// - independent: base and head run different tasks (or tasks carry no key): every run succeeds
//   with probability R on base and R − drop on head;
// - paired: both sides run the same tasks once each; task i succeeds with probability θᵢ drawn
//   from Beta(0.6, 0.4) (mean 0.6; most tasks nearly always or nearly never solved, as τ-bench's
//   are), and θᵢ · (1 − drop / R) on head, so success falls by `drop` on average.
// Runs carry a cost and no finding, so waste and the finding share are measured (and unchanged).
import { diffReports } from '../build/index.js';
import { mulberry32 } from '../build/diff/prng.js';
import { checkFlags, flag } from './datasetArgs.mjs';

checkFlags('node bench/power.mjs [--reps N] [--rate R]', ['--reps', '--rate']);
const reps = Number(flag('--reps') ?? 200);
const rate = Number(flag('--rate') ?? 0.6);
const POWER = 0.8;
const DROPS = [0.05, 0.1, 0.2];
const SIZES = [
  10, 15, 20, 25, 30, 40, 50, 60, 80, 100, 120, 150, 200, 250, 300, 400, 500, 600, 800, 1000, 1200, 1500,
  1800, 2200, 2600, 3000,
];

/** A Beta(a, b) draw from two Gamma draws (Marsaglia–Tsang, with the a < 1 boost). */
function beta(random, a, b) {
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const gamma = (k) => {
    if (k < 1) return gamma(k + 1) * random() ** (1 / k);
    const d = k - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x;
      let v;
      do {
        x = normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v ** 3;
      const u = random();
      if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
    }
  };
  const x = gamma(a);
  return x / (x + gamma(b));
}

const trace = (id, task, success) => ({
  id,
  file: 'runs.jsonl',
  format: 'native',
  agentId: 'agent',
  status: 'ok',
  steps: 2,
  llmCalls: 1,
  toolCalls: 1,
  tokens: { input: 100, output: 20 },
  costUsd: 0.01,
  unpricedLlmCalls: 0,
  signals: 0,
  task,
  outcome: { success, source: 'simulated' },
});

const report = (traces) => ({
  schemaVersion: 1,
  schemaMinor: 4,
  tool: { name: 'tracejury', version: 'sim' },
  generatedAt: 'sim',
  inputs: { files: 1, traces: traces.length, records: traces.length, errors: [], errorCount: 0, formats: {} },
  totals: {
    steps: 0,
    llmCalls: traces.length,
    toolCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    unknownModels: [],
  },
  traces,
  signals: [],
  waste: { totalUsd: 0, totalTokens: 0, byDetector: {} },
  verdicts: [],
  sessions: [],
  review: [],
  cost: { judgeUsd: 0, byTier: {} },
  gate: { passed: true, reasons: [] },
  notes: [],
});

function pair(design, n, drop, random) {
  if (design === 'independent') {
    const side = (name, p) =>
      report(Array.from({ length: n }, (_, i) => trace(`${name}-${i}`, `${name}-${i}`, random() < p)));
    return [side('b', rate), side('h', rate - drop)];
  }
  const theta = Array.from({ length: n }, () => beta(random, 0.6, 0.4));
  const side = (name, scale) =>
    report(theta.map((t, i) => trace(`${name}-${i}`, `t${i}`, random() < t * scale)));
  return [side('b', 1), side('h', 1 - drop / rate)];
}

/** The share of simulated pairs whose diff fails the gate. */
function detection(design, n, drop) {
  const random = mulberry32(Math.round(n * 1000 + drop * 100) + (design === 'paired' ? 7 : 0));
  let failed = 0;
  for (let r = 0; r < reps; r++) {
    const [base, head] = pair(design, n, drop, random);
    if (!diffReports(base, head, { regression: { minEffect: { success: 0 } } }).gate.passed) failed++;
  }
  return failed / reps;
}

/** The smallest size of SIZES whose detection reaches POWER (binary search: detection grows with n). */
function needed(design, drop) {
  let lo = 0;
  let hi = SIZES.length - 1;
  if (detection(design, SIZES[hi], drop) < POWER) return { n: `> ${SIZES[hi]}`, at: null };
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (detection(design, SIZES[mid], drop) >= POWER) hi = mid;
    else lo = mid + 1;
  }
  return { n: String(SIZES[lo]), at: detection(design, SIZES[lo], drop) };
}

console.log(
  `Base success ${Math.round(rate * 100)} %, ${reps} simulated pairs per size, default policy (α 0.05) with minEffect.success 0\n`,
);
console.log(
  '| success drop | runs a side, independent samples | runs a side, paired by task (one run each) |',
);
console.log('|---|---:|---:|');
for (const drop of DROPS) {
  const cells = ['independent', 'paired'].map((design) => {
    const r = needed(design, drop);
    return r.at === null ? r.n : `${r.n} (${Math.round(r.at * 100)} %)`;
  });
  console.log(`| ${Math.round(drop * 100)} points | ${cells.join(' | ')} |`);
}
// And the false alarms at those sizes: no drop at all.
const aa = ['independent', 'paired'].map((d) => `${d} ${Math.round(detection(d, 200, 0) * 1000) / 10} %`);
console.log(`\nA/A (no drop) at 200 runs a side, failing the gate: ${aa.join(', ')}`);
