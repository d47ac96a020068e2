// How the detectors hold on real agents' recordings. Not a test: runs `tracejury analyze` (the
// built CLI, default configuration, no API key) over each dataset and prints, per dataset, the
// tables the README and the issue notes quote:
//   - the gate per run: the share of successful and of failed runs that fail it (a run fails the
//     gate when it has a finding at the report's failOn severities), and the same counting only the
//     behavioural detectors (structural ones without a baseline, injection, budget or context rule:
//     loops, retries, failures, rejections), so their share of the gate can be read apart;
//   - per detector: findings on failed and on successful runs, precision against the outcome
//     (findings on failed runs / all findings), and how many were left for review;
//   - where each signal was decided (the report's tier decisions when it has them, else the tier
//     of each reported signal, review counted apart), and detection cost per trace;
//   - tier 2's decisions both ways: the gray-zone signals it examined and how many it confirmed,
//     cleared (those never reach the report) and left undecided;
//   - AgentDojo: injection findings on attacked and on benign runs, and on attacks that succeeded;
//   - the coding agent: computed cost against the cost its runs recorded;
//   - waste per detector that charges it (cost-waste detectors and structural loops): findings only,
//     as the report's totals count it, and with the signals left for review; the LLM calls charged
//     beside the dollars (τ-bench records no tokens, so its calls are priced at $0 even as gpt-4o).
// Usage:
//   npm run build && node bench/datasets.mjs [DATASETS_DIR] [--only NAME] [--half dev|held-out] [--json FILE]
// --half measures one half of each dataset: `dev` the runs on odd lines of a JSONL file (odd
// indices of τ-bench's array), `held-out` the others — design on dev, report both.
// DATASETS_DIR defaults to ../shared/datasets beside the repository. Reports are kept under
// bench/out/datasets/ to look at.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  applyStateDeltas,
  createTraceAnalyser,
  detectors,
  loadTraces,
  STATE_DELTA_RULES,
} from '../build/index.js';
import { checkFlags, flag, repo, root } from './datasetArgs.mjs';
import { DESIGNS, writeCodingAgentRuns } from './codingAgentRuns.mjs';
import { table } from './markdownTable.mjs';

checkFlags('node bench/datasets.mjs [DATASETS_DIR] [--only NAME] [--half dev|held-out] [--json FILE]', [
  '--only',
  '--half',
  '--json',
]);

const only = flag('--only');
const jsonOut = flag('--json');
const half = flag('--half');
if (half !== undefined && half !== 'dev' && half !== 'held-out')
  throw new Error(`--half ${half}: expected dev or held-out`);
const outDir = path.join(repo, 'bench/out/datasets');
mkdirSync(outDir, { recursive: true });

const DATASETS = [
  // The runs are gpt-4o's; their messages name no model.
  {
    name: 'tau-bench',
    file: 'tau-bench/gpt-4o-airline.json',
    format: 'openai-messages',
    args: ['--default-model', 'gpt-4o'],
  },
  { name: 'agentdojo', file: 'agentdojo/sample.jsonl', format: 'openai-messages' },
  { name: 'mini-swe-agent', file: 'mini-swe-agent/sample.jsonl', format: 'openai-messages' },
  // ---- issue 28 (structural half): generated runs of four coding-agent designs ----
  // bench/codingAgentRuns.mjs, seeded; written under bench/out/coding-agents/ at every run. They
  // show the designs the shared samples lack; the real recordings above are what the figures rest on.
  ...DESIGNS.map((design) => ({
    name: `generated ${design}`,
    path: path.join(repo, 'bench/out/coding-agents', `${design}.jsonl`),
    format: 'native',
    generated: true,
  })),
  // ---- end of issue 28 (structural half) ----
];

/** Where a dataset's file is: under the datasets folder, or (generated sets) its own path. */
const inputOf = (ds) => ds.path ?? path.join(root, ds.file);

const pct = (n, d) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)} %`);
const usd = (v) => `$${v.toFixed(2)}`;

function analyzeDataset(ds) {
  const input = inputOf(ds);
  const out = path.join(outDir, `${ds.name.replace(/\s+/g, '-')}.json`);
  try {
    execFileSync(
      process.execPath,
      [
        path.join(repo, 'build/cli/bin.js'),
        'analyze',
        input,
        '--input-format',
        ds.format,
        '--out',
        out,
        '--no-progress',
        ...(ds.args ?? []),
      ],
      { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] },
    );
  } catch (e) {
    // Exit 1 is a failed gate: the report is written all the same.
    if (e.status !== 1) throw e;
  }
  return JSON.parse(readFileSync(out, 'utf8'));
}

/**
 * The recordings' own metadata (info: attacked, costs, …) by trace id, and each run's position in
 * its file: the line of a JSONL record, the index in a JSON array (τ-bench).
 */
async function infoById(ds) {
  const { traces } = await loadTraces(inputOf(ds), { inputFormat: ds.format });
  const position = new Map(traces.map(({ trace, source }, i) => [trace.id, source.line ?? i]));
  if (inputOf(ds).endsWith('.json')) traces.forEach(({ trace }, i) => position.set(trace.id, i));
  return { info: new Map(traces.map(({ trace }) => [trace.id, trace.metadata?.info ?? {}])), position };
}

/**
 * Tier 2's decisions on the dataset, both ways: the detectors without tier 2 (the library's trace
 * analyser with `tiers.stateDeltas: []`), then tier 2 itself over their gray-zone signals — the
 * same functions analyze() runs, so the counts are the report's.
 */
async function tier2Account(ds, keep) {
  const { traces } = await loadTraces(inputOf(ds), { inputFormat: ds.format });
  const analyser = createTraceAnalyser({
    config: { tiers: { stateDeltas: [] } },
    baselines: false,
    cwd: repo,
  });
  const detectors = new Set(Object.keys(STATE_DELTA_RULES));
  const account = { checked: 0, failure: 0, noFailure: 0, undecided: 0, byDetector: {} };
  for (const loaded of traces) {
    if (!keep(loaded.trace.id)) continue;
    const gray = analyser.analyse(loaded).signals.filter((s) => s.status === 'review');
    const { signals, cleared } = applyStateDeltas(loaded.trace, gray, detectors);
    for (const s of [...signals, ...cleared]) {
      if (!s.evidence?.tier2) continue;
      const d = s.evidence.tier2.decision;
      const key = d === 'failure' ? 'failure' : d === 'no failure' ? 'noFailure' : 'undecided';
      account.checked++;
      account[key]++;
      const row = (account.byDetector[s.detector] ??= { failure: 0, noFailure: 0, undecided: 0 });
      row[key]++;
    }
  }
  return account;
}

/** The report restricted to one half of the runs (odd positions are dev), or as it is. */
const inHalf = (position) => (id) => half === undefined || (position.get(id) % 2 === 1) === (half === 'dev');

function halfOf(report, position) {
  if (half === undefined) return report;
  const keep = inHalf(position);
  // The report's decisions are counted over the whole input: the half's are counted from its
  // signals (and tier 2's, both ways, apart).
  const { decisions: _whole, ...rest } = report;
  return {
    ...rest,
    traces: report.traces.filter((t) => keep(t.id)),
    signals: report.signals.filter((s) => keep(s.traceId)),
  };
}

function measure(ds, report, info, tier2) {
  const failOn = new Set(report.gate.failOn ?? ['critical', 'high']);
  const findings = report.signals.filter((s) => s.status === 'finding');
  const gateFailing = new Set(findings.filter((s) => failOn.has(s.severity)).map((s) => s.traceId));
  const measuredQuantities = new Set([
    'injection',
    'budget',
    'cost',
    'context',
    'context_overflow',
    'latency',
  ]);
  const behavioural = new Set(
    detectors
      .filter(
        (d) =>
          d.meta.kind === 'structural' && !d.meta.baseline && !measuredQuantities.has(d.meta.failureMode),
      )
      .map((d) => d.meta.id),
  );
  const behaviourFailing = new Set(
    findings.filter((s) => failOn.has(s.severity) && behavioural.has(s.detector)).map((s) => s.traceId),
  );
  const runs = report.traces.filter((t) => t.outcome);
  const ok = runs.filter((t) => t.outcome.success);
  const bad = runs.filter((t) => !t.outcome.success);
  const failing = (ts, by = gateFailing) => ts.filter((t) => by.has(t.id)).length;
  const success = new Map(runs.map((t) => [t.id, t.outcome.success]));

  const perDetector = new Map();
  const row = (d) => {
    if (!perDetector.has(d))
      perDetector.set(d, {
        onFailed: 0,
        onSucceeded: 0,
        review: 0,
        severities: new Set(),
        gateSucceeded: new Set(),
        gateFailed: new Set(),
      });
    return perDetector.get(d);
  };
  for (const s of report.signals) {
    const r = row(s.detector);
    if (s.status === 'review') r.review++;
    if (s.status !== 'finding') continue;
    r.severities.add(s.severity);
    if (success.get(s.traceId) === true) r.onSucceeded++;
    else if (success.get(s.traceId) === false) r.onFailed++;
    // The runs this detector alone would fail the gate on.
    if (failOn.has(s.severity) && success.has(s.traceId))
      (success.get(s.traceId) ? r.gateSucceeded : r.gateFailed).add(s.traceId);
  }
  // Sessions: does a session score fail the report's gate, and how many runs named no session.
  const sessionGateFailed = report.gate.reasons.some((r) => r.includes('(sessions.failGate)'));
  const withoutSession = report.traces.filter((t) => t.sessionId === undefined).length;

  // Waste per detector that charges it: findings (what the totals count) and review signals.
  const charging = new Set(detectors.filter((d) => d.meta.priority !== undefined).map((d) => d.meta.id));
  const perDetectorWaste = new Map();
  for (const s of report.signals) {
    if (!charging.has(s.detector) || s.wasteUsd === undefined) continue;
    if (s.status !== 'finding' && s.status !== 'review') continue;
    if (!perDetectorWaste.has(s.detector))
      perDetectorWaste.set(s.detector, {
        finding: { signals: 0, calls: 0, usd: 0 },
        review: { signals: 0, calls: 0, usd: 0 },
      });
    const w = perDetectorWaste.get(s.detector)[s.status];
    w.signals++;
    w.calls += (Array.isArray(s.evidence?.wastedSteps) ? s.evidence.wastedSteps : s.steps).length;
    w.usd += s.wasteUsd;
  }

  // Where signals were decided: the report's own account when it has one (it counts the signals a
  // tier dismissed, which never reach the signal list), else the tier of each reported signal.
  const TIER_NAMES = {
    1: 'tier 1 (rules)',
    2: 'tier 2 (state deltas)',
    3: 'tier 3 (embeddings)',
    4: 'tier 4 (judges)',
  };
  const decided = report.decisions
    ? [
        ...Object.entries(report.decisions.byTier).map(([tier, n]) => [
          TIER_NAMES[tier] ?? `tier ${tier}`,
          n,
          report.decisions.dismissed?.[tier] ?? 0,
        ]),
        ['review (tier 5)', report.decisions.review, 0],
      ]
    : (() => {
        const byTier = new Map();
        for (const s of report.signals) {
          if (s.status === 'suppressed' || s.status === 'shadow') continue;
          const key = s.status === 'review' ? 'review (tier 5)' : `tier ${s.tier}`;
          byTier.set(key, (byTier.get(key) ?? 0) + 1);
        }
        return [...byTier].sort().map(([k, n]) => [k, n, 0]);
      })();
  const decidedTotal = decided.reduce((a, [, n]) => a + n, 0);
  // Which baseline each baseline detector used (one line per agent version, at most five).
  const baselineLines = (report.baselines ?? []).slice(0, 5).map((b) => {
    const byUse = new Map();
    for (const [d, u] of Object.entries(b.detectors)) {
      const key = u.source === 'static' ? `static (${u.runs} good runs)` : `${u.source} (${u.runs} runs)`;
      byUse.set(key, [...(byUse.get(key) ?? []), d]);
    }
    return `Baselines of ${path.basename(b.agent)} (${b.traces} runs): ${[...byUse].map(([k, ds]) => `${ds.join(', ')} ${k}`).join('; ')}.`;
  });

  const result = {
    name: ds.name,
    traces: report.traces.length,
    successful: ok.length,
    failed: bad.length,
    gateOnSuccessful: failing(ok),
    gateOnFailed: failing(bad),
    behaviouralGateOnSuccessful: failing(ok, behaviourFailing),
    behaviouralGateOnFailed: failing(bad, behaviourFailing),
    perDetector: Object.fromEntries(
      [...perDetector].map(([d, r]) => [
        d,
        {
          ...r,
          severities: [...r.severities],
          gateSucceeded: r.gateSucceeded.size,
          gateFailed: r.gateFailed.size,
        },
      ]),
    ),
    sessionGateFailed,
    withoutSession,
    decided: Object.fromEntries(decided.map(([k, n, dismissed]) => [k, { signals: n, dismissed }])),
    tier2,
    costUsd: report.totals.costUsd,
    perTraceUsd: report.cost.perTraceUsd ?? 0,
    waste: { totalUsd: report.waste.totalUsd, byDetector: Object.fromEntries(perDetectorWaste) },
    baselines: report.baselines,
  };

  const lines = [
    `### ${ds.name}${half ? ` — ${half} half` : ''} (${report.traces.length} runs: ${ok.length} successful, ${bad.length} failed)`,
    '',
  ];
  lines.push(
    table(
      ['runs', 'fail the gate', 'share', 'on behavioural detectors', 'share'],
      [ok, bad].map((ts, i) => [
        i === 0 ? 'successful' : 'failed',
        `${failing(ts)} of ${ts.length}`,
        pct(failing(ts), ts.length),
        `${failing(ts, behaviourFailing)} of ${ts.length}`,
        pct(failing(ts, behaviourFailing), ts.length),
      ]),
    ),
    '',
  );
  const detRows = [...perDetector]
    .sort((a, b) => b[1].onFailed + b[1].onSucceeded - (a[1].onFailed + a[1].onSucceeded))
    .map(([d, r]) => [
      d,
      [...r.severities].join(', ') || '—',
      String(r.onFailed),
      String(r.onSucceeded),
      r.onFailed + r.onSucceeded === 0 ? '—' : (r.onFailed / (r.onFailed + r.onSucceeded)).toFixed(2),
      String(r.review),
      pct(r.gateSucceeded.size, ok.length),
      pct(r.gateFailed.size, bad.length),
    ]);
  lines.push(
    detRows.length
      ? table(
          [
            'detector',
            'severity',
            'findings on failed',
            'on successful',
            'precision',
            'review',
            'gate: successful runs',
            'failed runs',
          ],
          detRows,
        )
      : '(no signals)',
    '',
    `Session gate: ${sessionGateFailed ? 'FAILED' : 'passed'}; ${withoutSession} of ${report.traces.length} runs named no session (scored in no session).`,
    '',
  );
  lines.push(
    table(
      ['decided at', 'signals', 'of which dismissed', 'share'],
      decided.map(([tier, n, dismissed]) => [tier, String(n), String(dismissed), pct(n, decidedTotal)]),
    ),
    '',
    `Tier 2 examined ${tier2.checked} gray-zone signal${tier2.checked === 1 ? '' : 's'}: ${tier2.failure} confirmed, ` +
      `${tier2.noFailure} cleared (not in the report), ${tier2.undecided} left to tier 3` +
      (tier2.checked
        ? ` (${Object.entries(tier2.byDetector)
            .map(([d, r]) => `${d} ${r.failure}/${r.noFailure}/${r.undecided}`)
            .join(', ')})`
        : '') +
      '.',
    '',
    ...(baselineLines.length ? [...baselineLines, ''] : []),
    `Detection cost per trace: ${usd(report.cost.perTraceUsd ?? 0)}; LLM cost of the runs: ${usd(report.totals.costUsd)}.`,
    '',
  );
  const wasteRows = [...perDetectorWaste]
    .sort((a, b) => b[1].finding.usd - a[1].finding.usd || b[1].finding.calls - a[1].finding.calls)
    .map(([d, w]) => {
      const all = (k) => w.finding[k] + w.review[k];
      return [
        d,
        String(w.finding.signals),
        String(w.finding.calls),
        `$${w.finding.usd.toFixed(4)}`,
        String(all('signals')),
        String(all('calls')),
        `$${all('usd').toFixed(4)}`,
      ];
    });
  lines.push(
    wasteRows.length
      ? table(
          [
            'waste by detector',
            'findings that charge',
            'LLM calls charged',
            'waste',
            'incl. review: signals',
            'calls',
            'waste',
          ],
          wasteRows,
        )
      : '(no waste)',
    '',
    `Waste in the report's totals: $${report.waste.totalUsd.toFixed(4)} of $${report.totals.costUsd.toFixed(4)} the runs cost.`,
    '',
  );

  if (ds.name === 'agentdojo') {
    const injected = new Set(
      findings.filter((s) => s.detector === 'PROMPT_INJECTION_SIGNAL').map((s) => s.traceId),
    );
    const attacked = report.traces.filter((t) => info.get(t.id)?.attacked === true);
    const benign = report.traces.filter((t) => info.get(t.id)?.attacked === false);
    const succeeded = attacked.filter((t) => info.get(t.id)?.attack_succeeded === true);
    const hit = (ts) => ts.filter((t) => injected.has(t.id)).length;
    const benignSucceeded = benign.filter((t) => t.outcome?.success === true);
    const benignGate = failing(benignSucceeded);
    Object.assign(result, {
      injection: {
        attacked: attacked.length,
        attackedHit: hit(attacked),
        benign: benign.length,
        benignHit: hit(benign),
        succeeded: succeeded.length,
        succeededHit: hit(succeeded),
        benignSucceeded: benignSucceeded.length,
        benignSucceededGate: benignGate,
      },
    });
    lines.push(
      table(
        ['runs', 'injection finding', 'share'],
        [
          ['attacked', `${hit(attacked)} of ${attacked.length}`, pct(hit(attacked), attacked.length)],
          [
            'attack succeeded',
            `${hit(succeeded)} of ${succeeded.length}`,
            pct(hit(succeeded), succeeded.length),
          ],
          ['benign', `${hit(benign)} of ${benign.length}`, pct(hit(benign), benign.length)],
        ],
      ),
      '',
      `Successful benign runs failing the gate: ${benignGate} of ${benignSucceeded.length} (${pct(benignGate, benignSucceeded.length)}).`,
      '',
    );
    // ── issue 28, injection half (d28i): any injection signal (finding or review) counts as
    // found on attacked runs and as a false alarm on benign ones; the gate on benign runs whose task
    // succeeded is what a user of the gate sees.
    const signalled = new Set(
      report.signals
        .filter(
          (s) =>
            s.detector === 'PROMPT_INJECTION_SIGNAL' && (s.status === 'finding' || s.status === 'review'),
        )
        .map((s) => s.traceId),
    );
    const any = (ts) => ts.filter((t) => signalled.has(t.id)).length;
    const benignOk = benign.filter((t) => t.outcome?.success === true);
    Object.assign(result.injection, {
      attackedSignal: any(attacked),
      benignSignal: any(benign),
      benignSucceeded: benignOk.length,
      benignSucceededGate: failing(benignOk),
    });
    lines.push(
      table(
        ['runs', 'any injection signal (finding or review)', 'fail the gate'],
        [
          [
            'attacked',
            `${any(attacked)} of ${attacked.length} (${pct(any(attacked), attacked.length)})`,
            '—',
          ],
          ['benign', `${any(benign)} of ${benign.length} (${pct(any(benign), benign.length)})`, '—'],
          [
            'benign, task succeeded',
            '—',
            `${failing(benignOk)} of ${benignOk.length} (${pct(failing(benignOk), benignOk.length)})`,
          ],
        ],
      ),
      '',
    );
    // ── end of issue 28, injection half
  }
  if (ds.name === 'mini-swe-agent') {
    let recorded = 0;
    let instance = 0;
    for (const t of report.traces) {
      recorded += Number(info.get(t.id)?.calls_cost_usd ?? 0);
      instance += Number(info.get(t.id)?.instance_cost ?? 0);
    }
    const overBudget = findings.filter((s) => s.detector === 'COST_BUDGET').length;
    const recordedOver = report.traces.filter((t) => Number(info.get(t.id)?.calls_cost_usd ?? 0) > 1).length;
    Object.assign(result, { cost: { computed: report.totals.costUsd, recorded, instance } });
    lines.push(
      `Cost: computed ${usd(report.totals.costUsd)} against ${usd(recorded)} recorded for the calls ` +
        `(${recorded === 0 ? '—' : `${((100 * (report.totals.costUsd - recorded)) / recorded).toFixed(1)} %`}; ` +
        `instance cost ${usd(instance)}); COST_BUDGET findings ${overBudget}, runs whose recorded cost is over $1: ${recordedOver}.`,
      '',
    );
  }
  return { result, text: lines.join('\n') };
}

const results = [];
if (!only || only.startsWith('generated')) writeCodingAgentRuns(path.join(repo, 'bench/out/coding-agents'));
for (const ds of DATASETS) {
  if (only && ds.name !== only) continue;
  const { info, position } = await infoById(ds);
  const report = halfOf(analyzeDataset(ds), position);
  const tier2 = await tier2Account(ds, inHalf(position));
  const { result, text } = measure(ds, report, info, tier2);
  results.push(result);
  console.log(text);
}
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(results, null, 2)}\n`);
