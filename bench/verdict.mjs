// Is the regression verdict right on real agents? Not a test: a study of `tracejury diff`'s gate
// on base/head pairs built from recorded runs whose success is known, run through the built CLI
// (`analyze` once per dataset, then `diff` per pair, default `regression:` policy).
//
//   npm run build && node bench/verdict.mjs [DATASETS_DIR] [--half dev|held-out|both] [--json FILE]
//
// Pairs, each dataset split in the halves bench/datasets.mjs uses (dev: the runs at odd positions
// of the input, which for both sets keeps every run of a task in one half):
// - τ-bench (gpt-4o airline, 50 tasks × 4 trials): A/A by splitting trials (two trials a side: the
//   three ways to split four, both directions; one trial a side: every ordered pair of trials);
//   real drops by putting a task's passing trials on the base side and its failing trials on the
//   head side (for every task, or for a seeded half of the tasks that have both), and the reverse
//   of each as an improvement. Paired by task (τ-bench's task_id).
// - AgentDojo (two pipelines on the same 194 tasks, one run each): A/A by splitting one
//   pipeline's tasks in two at random (independent samples); the real A/B pair, claude-3.5-sonnet
//   against gpt-4o-mini, on seeded subsets of the tasks, in both directions (paired by suite, user
//   task and injection task).
// Sizes: 20 and 50 runs a side, and the most a half allows (≈100); the two halves together give
// the 200-run row (it holds the tune half: read it as a check of size, not as the measure).
//
// A drop or an improvement is "significant" when the 95 % interval the diff gives for the change
// in success excludes 0. The table: A/A pairs that fail the gate (false alarms), significant
// drops that fail it (detected), significant improvements that fail it (they must not).
//
// The defaults of `regression:` (α 0.05 with success taking half of it, minimum effects of 5
// points of success, 5 points of runs with a finding and 20 % of waste, and success excusing a rise
// in its proxies) were chosen looking at the dev half only; the held-out half is measured with them
// unchanged.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { mulberry32 } from '../build/diff/prng.js';
import { checkFlags, flag, repo, root } from './datasetArgs.mjs';

const USAGE = 'node bench/verdict.mjs [DATASETS_DIR] [--half dev|held-out|both] [--json FILE]';
checkFlags(USAGE, ['--half', '--json']);
const halfFlag = flag('--half') ?? 'both';
if (!['dev', 'held-out', 'both'].includes(halfFlag))
  throw new Error(`--half ${halfFlag}: expected dev, held-out or both`);
const jsonOut = flag('--json');

const outDir = path.join(repo, 'bench/out/verdict');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const bin = path.join(repo, 'build/cli/bin.js');

function analyze(name, file, extra = []) {
  const out = path.join(outDir, `${name}.json`);
  try {
    execFileSync(
      process.execPath,
      [
        bin,
        'analyze',
        path.join(root, file),
        '--input-format',
        'openai-messages',
        '--out',
        out,
        '--no-progress',
        ...extra,
      ],
      { cwd: outDir, stdio: ['ignore', 'ignore', 'inherit'] },
    );
  } catch (e) {
    // Exit 1 is the report's own gate failing: the report is written all the same.
    if (e.status !== 1) throw e;
  }
  return JSON.parse(readFileSync(out, 'utf8'));
}

/** The report restricted to some of its traces, with the totals the diff reads recomputed. */
function slice(report, traces) {
  const keys = new Set(traces.map((t) => `${t.file}\u0000${t.id}`));
  const signals = report.signals.filter((s) => keys.has(`${s.file}\u0000${s.traceId}`));
  const findings = signals.filter((s) => s.status === 'finding');
  const byDetector = {};
  for (const s of findings) {
    const d = (byDetector[s.detector] ??= { usd: 0, tokens: 0, signals: 0 });
    d.usd += s.wasteUsd ?? 0;
    d.tokens += s.wasteTokens ?? 0;
    d.signals++;
  }
  const sum = (f) => traces.reduce((a, t) => a + f(t), 0);
  const unmeasured = sum((t) => t.unmeasuredLlmCalls ?? 0);
  return {
    ...report,
    inputs: { ...report.inputs, traces: traces.length, records: traces.length },
    totals: {
      ...report.totals,
      steps: sum((t) => t.steps),
      llmCalls: sum((t) => t.llmCalls),
      toolCalls: sum((t) => t.toolCalls),
      inputTokens: sum((t) => t.tokens.input),
      outputTokens: sum((t) => t.tokens.output),
      costUsd: sum((t) => t.costUsd),
      ...(unmeasured > 0 ? { unmeasuredLlmCalls: unmeasured } : {}),
    },
    traces,
    signals,
    waste: {
      totalUsd: findings.reduce((a, s) => a + (s.wasteUsd ?? 0), 0),
      totalTokens: findings.reduce((a, s) => a + (s.wasteTokens ?? 0), 0),
      byDetector,
    },
    sessions: [],
    review: report.review.filter((r) => keys.has(`${r.file}\u0000${r.traceId}`)),
    // The study reads the regression gate only (diff's exit status); a slice has no gate of its own.
    gate: { passed: true, reasons: [] },
    outcomes: undefined,
    decisions: undefined,
  };
}

let pairCount = 0;
/** `tracejury diff` on one pair: did the gate fail, and what the diff says of success. */
function diff(base, head) {
  const n = ++pairCount;
  const b = path.join(outDir, `pair-${n}-base.json`);
  const h = path.join(outDir, `pair-${n}-head.json`);
  writeFileSync(b, JSON.stringify(base));
  writeFileSync(h, JSON.stringify(head));
  let code = 0;
  let stdout;
  try {
    stdout = execFileSync(process.execPath, [bin, 'diff', b, h, '--format', 'json'], {
      cwd: outDir,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
  } catch (e) {
    if (e.status !== 1) throw e;
    code = 1;
    stdout = e.stdout;
  }
  rmSync(b);
  rmSync(h);
  const d = JSON.parse(stdout);
  const success = d.quantities.find((q) => q.id === 'success');
  return {
    failed: code === 1,
    decidedBy: d.gate.decidedBy,
    runs: Math.min(success?.base.runs ?? 0, success?.head.runs ?? 0),
    change: success?.change ?? null,
    interval: success?.interval ?? null,
    p: success?.p ?? null,
    adjustedP: success?.adjustedP ?? null,
    test: success?.test ?? null,
  };
}

const shuffle = (list, random) => {
  const a = [...list];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};

/** Which half each task is in (dev: odd positions), checking that no task straddles the two. */
function halves(report) {
  const half = new Map();
  report.traces.forEach((t, i) => {
    const h = i % 2 === 1 ? 'dev' : 'held-out';
    if (half.has(t.task) && half.get(t.task) !== h) throw new Error(`task ${t.task} is in both halves`);
    half.set(t.task, h);
  });
  return half;
}

// ---- τ-bench -----------------------------------------------------------------------------------

function tauPairs(report, tasksOf) {
  const trial = (t) => Number(/-trial-(\d+)/.exec(t.id)[1]);
  const runs = new Map();
  for (const t of report.traces) {
    if (!tasksOf.has(t.task)) continue;
    const list = runs.get(t.task) ?? [];
    list[trial(t)] = t;
    runs.set(t.task, list);
  }
  const tasks = [...runs.keys()].sort((a, b) => Number(a) - Number(b));
  const pairs = [];
  const side = (pick) =>
    slice(
      report,
      tasks.flatMap((k) => pick(runs.get(k), k)),
    );
  // A/A, two trials a side: {0,1}|{2,3}, {0,2}|{1,3}, {0,3}|{1,2}, both directions.
  for (const [a, b] of [
    [
      [0, 1],
      [2, 3],
    ],
    [
      [0, 2],
      [1, 3],
    ],
    [
      [0, 3],
      [1, 2],
    ],
  ])
    for (const [x, y] of [
      [a, b],
      [b, a],
    ])
      pairs.push({
        kind: 'aa',
        base: side((r) => x.map((i) => r[i])),
        head: side((r) => y.map((i) => r[i])),
      });
  // A/A, one trial a side, on 20 of the tasks (two seeded draws of them).
  for (let s = 0; s < 2; s++) {
    const some = new Set(shuffle(tasks, mulberry32(100 + s)).slice(0, 20));
    const sideOf = (i) =>
      slice(
        report,
        tasks.filter((k) => some.has(k)).map((k) => runs.get(k)[i]),
      );
    for (let x = 0; x < 4; x++)
      for (let y = 0; y < 4; y++) if (x !== y) pairs.push({ kind: 'aa', base: sideOf(x), head: sideOf(y) });
  }
  // Drops: a task's passing trials to base, its failing ones to head (all mixed tasks, or a seeded
  // half of them); the other trials split at random. Reversed, an improvement.
  const split = (r, share, random, perSide) => {
    const order = shuffle([0, 1, 2, 3], random);
    const passFirst = [...order].sort((i, j) => Number(r[j].outcome.success) - Number(r[i].outcome.success));
    const mixed = r.some((t) => t.outcome.success) && r.some((t) => !t.outcome.success);
    const chosen = mixed && random() < share ? passFirst : order;
    return {
      base: chosen.slice(0, perSide).map((i) => r[i]),
      head: chosen.slice(4 - perSide).map((i) => r[i]),
    };
  };
  for (const perSide of [1, 2])
    for (const share of [1, 0.5])
      for (let s = 0; s < (share === 1 ? 2 : 4); s++) {
        const random = mulberry32(1000 * perSide + 100 * share + s);
        const keep = perSide === 1 ? new Set(shuffle(tasks, random).slice(0, 20)) : new Set(tasks);
        const splits = tasks
          .filter((k) => keep.has(k))
          .map((k) => split(runs.get(k), share, random, perSide));
        const base = slice(
          report,
          splits.flatMap((x) => x.base),
        );
        const head = slice(
          report,
          splits.flatMap((x) => x.head),
        );
        pairs.push({ kind: 'change', base, head }, { kind: 'change', base: head, head: base });
      }
  return pairs;
}

// ---- AgentDojo ---------------------------------------------------------------------------------

function dojoPairs(report, tasksOf) {
  const byPipeline = new Map();
  for (const t of report.traces) {
    if (!tasksOf.has(t.task)) continue;
    const pipeline = /^task-([^/]+)\//.exec(t.id)[1];
    const m = byPipeline.get(pipeline) ?? new Map();
    m.set(t.task, t);
    byPipeline.set(pipeline, m);
  }
  const [a, b] = [...byPipeline.keys()].sort();
  const tasks = [...byPipeline.get(a).keys()].filter((k) => byPipeline.get(b).has(k)).sort();
  const pairs = [];
  // A/A: one pipeline's tasks split in two at random (independent samples): 20, 50 and half of
  // them a side.
  const half = Math.floor(tasks.length / 2);
  for (const p of [a, b])
    for (const size of [...new Set([20, Math.min(50, half), half])])
      for (let s = 0; s < 6; s++) {
        const drawn = shuffle(tasks, mulberry32(7000 + 10 * size + s + (p === a ? 0 : 500)));
        const side = (list) =>
          slice(
            report,
            list.map((k) => byPipeline.get(p).get(k)),
          );
        pairs.push({ kind: 'aa', base: side(drawn.slice(0, size)), head: side(drawn.slice(size, 2 * size)) });
      }
  // The real A/B pair on seeded subsets of the tasks, both directions.
  for (const size of [20, 50, tasks.length])
    for (let s = 0; s < (size === tasks.length ? 1 : 6); s++) {
      const some = shuffle(tasks, mulberry32(9000 + size + s)).slice(0, size);
      const side = (p) =>
        slice(
          report,
          some.map((k) => byPipeline.get(p).get(k)),
        );
      pairs.push(
        { kind: 'change', base: side(a), head: side(b) },
        { kind: 'change', base: side(b), head: side(a) },
      );
    }
  return pairs;
}

// ---- the study ---------------------------------------------------------------------------------

const sizeRow = (runs) => (runs <= 30 ? '20' : runs <= 60 ? '50' : runs <= 120 ? '≈100' : '≈200');

function study(name, pairs, rows) {
  for (const p of pairs) {
    const r = diff(p.base, p.head);
    const row = (rows[sizeRow(r.runs)] ??= {
      aa: 0,
      aaFailed: 0,
      drops: 0,
      dropsFailed: 0,
      improvements: 0,
      improvementsFailed: 0,
      otherFailed: 0,
      other: 0,
      decidedBy: {},
      missedDrops: [],
    });
    const significant = r.interval && (r.interval[1] < 0 || r.interval[0] > 0);
    if (p.kind === 'aa') {
      row.aa++;
      if (r.failed) {
        row.aaFailed++;
        row.decidedBy[r.decidedBy] = (row.decidedBy[r.decidedBy] ?? 0) + 1;
      }
    } else if (significant && r.interval[1] < 0) {
      row.drops++;
      if (r.failed) row.dropsFailed++;
      // A drop the diff's own interval calls significant but the gate passed: say why (its p).
      else
        row.missedDrops.push({
          pair: name,
          change: r.change,
          interval: r.interval,
          p: r.p,
          adjustedP: r.adjustedP,
          test: r.test,
        });
    } else if (significant) {
      row.improvements++;
      if (r.failed) row.improvementsFailed++;
    } else {
      row.other++;
      if (r.failed) row.otherFailed++;
    }
  }
  process.stderr.write(`${name}: ${pairs.length} pairs\n`);
}

const tau = analyze('tau-bench', 'tau-bench/gpt-4o-airline.json', ['--default-model', 'gpt-4o']);
const dojo = analyze('agentdojo', 'agentdojo/sample.jsonl');
const tauHalf = halves(tau);
const dojoHalf = halves(dojo);
const tasksIn = (half, which) =>
  new Set([...half].filter(([, h]) => which === 'all' || h === which).map(([k]) => k));

const results = {};
for (const which of halfFlag === 'both' ? ['dev', 'held-out', 'all'] : [halfFlag]) {
  const rows = {};
  study(`τ-bench ${which}`, tauPairs(tau, tasksIn(tauHalf, which)), rows);
  study(`AgentDojo ${which}`, dojoPairs(dojo, tasksIn(dojoHalf, which)), rows);
  if (which === 'all')
    for (const k of Object.keys(rows)) if (!k.startsWith('≈200') && k !== '≈100') delete rows[k];
  results[which] = rows;
}

const pct = (n, d) => (d === 0 ? '—' : `${n}/${d} (${Math.round((100 * n) / d)} %)`);
const title = {
  dev: 'dev half (the defaults were chosen on it)',
  'held-out': 'held-out half (measured, nothing tuned)',
  all: 'both halves together (largest sizes only; includes the dev half)',
};
for (const [which, rows] of Object.entries(results)) {
  console.log(`\n### ${title[which]}\n`);
  console.log(
    '| runs a side | A/A pairs failing the gate | significant drops failing it | significant improvements failing it | other changes failing it |',
  );
  console.log('|---|---:|---:|---:|---:|');
  for (const size of ['20', '50', '≈100', '≈200']) {
    const r = rows[size];
    if (!r) continue;
    console.log(
      `| ${size} | ${pct(r.aaFailed, r.aa)} | ${pct(r.dropsFailed, r.drops)} | ${pct(r.improvementsFailed, r.improvements)} | ${pct(r.otherFailed, r.other)} |`,
    );
  }
  for (const [size, r] of Object.entries(rows))
    for (const m of r.missedDrops)
      console.log(
        `\nA significant drop that passed (${size} runs a side, ${m.pair}): change ${JSON.stringify(m.change)}, interval ${JSON.stringify(m.interval)}, p ${m.p}, adjusted ${m.adjustedP}, ${JSON.stringify(m.test)}`,
      );
  const why = Object.values(rows).flatMap((r) => Object.entries(r.decidedBy));
  if (why.length) console.log(`\nA/A failures decided by: ${why.map(([k, n]) => `${k} ×${n}`).join(', ')}`);
}
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(results, null, 2)}\n`);
